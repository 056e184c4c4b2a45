/* host/tree/tree_read.c - reading .tree files: "u v" per line, n = edges
 * + 1, an optional "# Nodes: N Edges: M" header that must agree. Ids are
 * range-checked once the edge count is known, then the structure (tree.c);
 * a problem found after reading is put back on its line by reading the
 * file again (clirr_tin_entry_line), only on that error path. */
#include "tree/tree_internal.h"

#include "graph/textio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "# Nodes: N Edges: M" (SNAP's header, as clirr writes it). */
static bool header(const char *ls, const char *le, unsigned long long *n, unsigned long long *m)
{
    char line[128];
    size_t len = (size_t)(le - ls) < sizeof line - 1 ? (size_t)(le - ls) : sizeof line - 1;
    memcpy(line, ls, len);
    line[len] = '\0';
    return sscanf(line, "# Nodes: %llu Edges: %llu", n, m) == 2;
}

static int report(const char *path, const tree_finding *f, uint32_t n, clirr_error *err)
{
    unsigned long long line = clirr_tin_entry_line(path, f->e);
    switch (f->problem) {
    case TREE_RANGE:
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s:%llu: vertex %u is out of range: the file's %u edges make a tree of %u "
                          "vertices (ids 0 to %u); is an edge missing?",
                          path, line, f->a, n - 1, n, n - 1);
    case TREE_SELF_LOOP:
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s:%llu: self-loop at vertex %u (a tree has none)", path,
                          line, f->a);
    case TREE_CYCLE:
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s:%llu: edge %u %u closes a cycle (the vertices are already connected), "
                          "so with %u edges vertex %u is disconnected: not a tree",
                          path, line, f->a, f->b, n - 1, f->c);
    case TREE_NOMEM:
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory checking %s", path);
    case TREE_OK: break;
    }
    return CLIRR_OK;
}

static int grow(clirr_tree *t, uint64_t *cap, const char *path, uint64_t line, clirr_error *err)
{
    uint64_t edges = *cap;
    int rc = clirr_tree_fits(edges + 2, path, err);
    if (rc != CLIRR_OK)
        return clirr_fail_context(err, "%s:%llu", path, (unsigned long long)line);
    uint64_t want = edges ? edges * 2 : 1 << 16, most = clirr_tree_max_edges();
    if (want > most)
        want = most;
    if (want == 0)
        want = 1;
    uint32_t *u = realloc(t->u, (size_t)want * sizeof *u);
    if (u)
        t->u = u;
    uint32_t *v = u ? realloc(t->v, (size_t)want * sizeof *v) : NULL;
    if (v)
        t->v = v;
    if (!u || !v)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "%s:%llu: out of memory for %llu edges", path,
                          (unsigned long long)line, (unsigned long long)want);
    *cap = want;
    return CLIRR_OK;
}

int clirr_tree_read(const char *path, clirr_tree *t, clirr_error *err)
{
    memset(t, 0, sizeof *t);
    tin in;
    int rc = clirr_tin_open(&in, path, err);
    if (rc != CLIRR_OK)
        return rc;
    uint64_t m = 0, cap = 0, header_line = 0;
    unsigned long long hn = 0, hm = 0;
    const uint64_t max_id = CLIRR_TREE_MAX_NODES - 1;
    char what[80];
    snprintf(what, sizeof what, "a vertex id from 0 to %llu", (unsigned long long)max_id);
    for (;;) {
        if ((rc = clirr_tin_next(&in, err)) != CLIRR_OK)
            goto fail;
        if (!in.ls)
            break;
        const char *p = in.ls;
        if (*p == '#' && !header_line && m == 0 && header(p, in.le, &hn, &hm))
            header_line = in.line;
        if (clirr_tin_blank_rest(&in, &p) || *p == '#' || *p == '%')
            continue;
        uint64_t u, v;
        if ((rc = clirr_tin_u64(&in, &p, 0, max_id, &u, what, err)) != CLIRR_OK ||
            (rc = clirr_tin_u64(&in, &p, 0, max_id, &v, what, err)) != CLIRR_OK ||
            (rc = clirr_tin_end(&in, p, "end of line after the edge 'u v'", err)) != CLIRR_OK)
            goto fail;
        if (m == cap && (rc = grow(t, &cap, path, in.line, err)) != CLIRR_OK)
            goto fail;
        t->u[m] = (uint32_t)u;
        t->v[m] = (uint32_t)v;
        m++;
    }
    clirr_tin_close(&in);
    if (header_line && (hm != m || hn != m + 1)) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s:%llu: wrong edge count: the header says %llu vertices and %llu edges, the "
                        "file has %llu edges (a tree of %llu vertices has %llu)",
                        path, (unsigned long long)header_line, hn, hm, (unsigned long long)m,
                        hn, hn ? hn - 1 : 0);
        goto fail_closed;
    }
    if ((rc = clirr_tree_fits(m + 1, path, err)) != CLIRR_OK)
        goto fail_closed;
    if (m == 0 && (rc = grow(t, &cap, path, 0, err)) != CLIRR_OK) /* one vertex, no edge */
        goto fail_closed;
    t->n = (uint32_t)(m + 1);
    t->root = 0;
    tree_finding f;
    clirr_tree_examine(t, &f);
    if (f.problem != TREE_OK) {
        rc = report(path, &f, t->n, err);
        goto fail_closed;
    }
    return CLIRR_OK;
fail:
    clirr_tin_close(&in);
fail_closed:
    clirr_tree_free(t);
    return rc;
}
