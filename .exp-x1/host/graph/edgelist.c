/* host/graph/edgelist.c - edge lists: "u v" per line (.el, and SNAP's .txt)
 * or "u v w" (.wel), 0-based ids separated by spaces or tabs. Lines starting
 * with '#' (SNAP) or '%' are comments; blank lines and CRLF are fine. SNAP's
 * comment "# Nodes: N Edges: M" gives the vertex count (the writers put it
 * first, so isolated vertices after the largest id survive a round trip);
 * without it n is the largest id + 1. Weights need .wel: a weighted graph
 * is not written to .el or .txt, where they would be lost. */
#include "graph_internal.h"

#include <stdio.h>
#include <string.h>

/* N of a "# Nodes: N ..." comment line (SNAP's header), or false. */
static bool nodes_header(const char *ls, const char *le, unsigned long long *n)
{
    char line[128];
    size_t len = (size_t)(le - ls) < sizeof line - 1 ? (size_t)(le - ls) : sizeof line - 1;
    memcpy(line, ls, len);
    line[len] = '\0';
    return sscanf(line, "# Nodes: %llu", n) == 1;
}

int clirr_graph_read_edgelist(const char *path, bool weighted, clirr_graph *g,
                        clirr_error *err)
{
    tin t;
    arcbuf a = {0};
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    if ((rc = clirr_arcbuf_init(&a, weighted, 0, err)))
        goto fail;
    /* The largest id keeps n = id + 1 within the vertex limit. */
    const uint64_t max_id = CLIRR_GRAPH_MAX_NODES - 1;
    char what_u[80], what_v[80];
    snprintf(what_u, sizeof what_u, "a source vertex id from 0 to %llu", (unsigned long long)max_id);
    snprintf(what_v, sizeof what_v, "a target vertex id from 0 to %llu", (unsigned long long)max_id);
    const char *after = weighted ? "end of line after 'u v w'"
                                 : "end of line after 'u v' (weighted lists need the .wel extension)";
    uint64_t largest = 0;
    unsigned long long header_n = 0;
    bool any = false;
    for (;;) {
        if ((rc = clirr_tin_next(&t, err)))
            goto fail;
        if (!t.ls)
            break;
        const char *p = t.ls;
        if (*p == '#' && nodes_header(p, t.le, &header_n) && header_n > CLIRR_GRAPH_MAX_NODES) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "%s:%llu: the header says %llu vertices; clirr "
                            "handles at most %llu", path, (unsigned long long)t.line, header_n,
                            (unsigned long long)CLIRR_GRAPH_MAX_NODES);
            goto fail;
        }
        if (clirr_tin_blank_rest(&t, &p) || *p == '#' || *p == '%')
            continue;
        uint64_t u, v;
        int64_t w = 1;
        if ((rc = clirr_tin_u64(&t, &p, 0, max_id, &u, what_u, err)) ||
            (rc = clirr_tin_u64(&t, &p, 0, max_id, &v, what_v, err)) ||
            (weighted && (rc = clirr_tin_i64(&t, &p, INT32_MIN, INT32_MAX, &w,
                                       "an integer weight (32-bit)", err))) ||
            (rc = clirr_tin_end(&t, p, after, err)))
            goto fail;
        if ((rc = arcbuf_push(&a, (uint32_t)u, (uint32_t)v, (int32_t)w, err))) {
            clirr_fail_context(err, "%s:%llu", path, (unsigned long long)t.line);
            goto fail;
        }
        if (u > largest)
            largest = u;
        if (v > largest)
            largest = v;
        any = true;
    }
    clirr_tin_close(&t);
    if (!any && header_n == 0) {
        /* Not a graph of no vertices by mistake: say what the file lacks. */
        clirr_arcbuf_free(&a);
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s: no arcs in the file (and no '# Nodes: N' header)",
                          path);
    }
    uint64_t n = any ? largest + 1 : 0;
    /* SNAP's ids need not be below its node count: take the larger. */
    if (header_n > n)
        n = header_n;
    return clirr_arcbuf_to_graph(&a, (uint32_t)n, g, err);
fail:
    clirr_tin_close(&t);
    clirr_arcbuf_free(&a);
    return rc;
}

int clirr_graph_write_edgelist(const char *path, bool gz, bool weighted,
                         const clirr_graph *g, clirr_error *err)
{
    if (g->weight && !weighted)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "%s: this edge list format holds no weights and the graph is weighted; "
                          "write .wel to keep them", path);
    tout t;
    int rc = clirr_tout_open(&t, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    clirr_tout_str(&t, "# Nodes: ");
    clirr_tout_u64(&t, g->n);
    clirr_tout_str(&t, " Edges: ");
    clirr_tout_u64(&t, g->m);
    clirr_tout_str(&t, "\n");
    for (uint32_t u = 0; u < g->n && !t.failed; u++) {
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++) {
            clirr_tout_room(&t);
            clirr_tout_u64(&t, u);
            tout_char(&t, ' ');
            clirr_tout_u64(&t, g->col[k]);
            if (weighted) {
                tout_char(&t, ' ');
                clirr_tout_i64(&t, g->weight ? g->weight[k] : 1);
            }
            tout_char(&t, '\n');
        }
    }
    return clirr_tout_close(&t, err);
}
