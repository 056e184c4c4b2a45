/* host/list/list_read.c - reading .list files: one successor per line, -1
 * for a tail. The element count is the number of entries, so successors
 * are range-checked at the end; structural problems are found then too
 * (list.c) and put back on their lines by a second pass over the file,
 * taken only on that error path. */
#include "list/list_internal.h"

#include "graph/textio.h"

#include <stdlib.h>
#include <string.h>

/* The next entry line: t->ls on it and *p past the blanks, or t->ls NULL
 * at the end of the file. */
static int next_entry(tin *t, const char **p, clirr_error *err)
{
    for (;;) {
        int rc = clirr_tin_next(t, err);
        if (rc != CLIRR_OK || !t->ls)
            return rc;
        *p = t->ls;
        if (!clirr_tin_blank_rest(t, p) && **p != '#' && **p != '%')
            return CLIRR_OK;
    }
}

static int report(const char *path, const list_finding *f, uint32_t n, clirr_error *err)
{
    switch (f->problem) {
    case LIST_RANGE:
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s:%llu: successor %u of element %u is out of range: the file has %u "
                          "elements (ids 0 to %u, -1 for a tail)",
                          path, (unsigned long long)clirr_tin_entry_line(path, f->a), f->b, f->a, n, n - 1);
    case LIST_TWO_PREDS:
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s:%llu: element %u has two predecessors: element %u (line %llu) and "
                          "element %u (this line)",
                          path, (unsigned long long)clirr_tin_entry_line(path, f->a), f->b, f->c,
                          (unsigned long long)clirr_tin_entry_line(path, f->c), f->a);
    case LIST_CYCLE:
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s:%llu: element %u lies on a cycle (following successors from it "
                          "comes back to it, never to a tail)",
                          path, (unsigned long long)clirr_tin_entry_line(path, f->a), f->a);
    case LIST_NOMEM:
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory checking %s", path);
    case LIST_OK: break;
    }
    return CLIRR_OK;
}

int clirr_list_read(const char *path, clirr_list *l, clirr_error *err)
{
    memset(l, 0, sizeof *l);
    tin t;
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    uint32_t *succ = NULL;
    uint64_t n = 0, cap = 0;
    const char *p;
    for (;;) {
        if ((rc = next_entry(&t, &p, err)) != CLIRR_OK)
            goto fail;
        if (!t.ls)
            break;
        int64_t s;
        if ((rc = clirr_tin_i64(&t, &p, -1, (int64_t)CLIRR_LIST_MAX_ELEMENTS - 1, &s,
                                "a successor: -1 (a tail) or an element id", err)) != CLIRR_OK ||
            (rc = clirr_tin_end(&t, p, "end of line after the successor (one per line)", err)) != CLIRR_OK)
            goto fail;
        if (n == cap) {
            /* The capacity follows what was read, never a claim, and the
             * limits are checked before it grows. */
            if ((rc = clirr_list_fits(n + 1, path, err)) != CLIRR_OK) {
                clirr_fail_context(err, "%s:%llu", path, (unsigned long long)t.line);
                goto fail;
            }
            uint64_t grow = cap ? cap * 2 : 1 << 16, most = clirr_list_max_fit();
            if (grow > most)
                grow = most;
            uint32_t *bigger = realloc(succ, (size_t)grow * sizeof *succ);
            if (!bigger) {
                rc = clirr_fail(err, CLIRR_ERR_NOMEM, "%s:%llu: out of memory for %llu elements", path,
                                (unsigned long long)t.line, (unsigned long long)grow);
                goto fail;
            }
            succ = bigger;
            cap = grow;
        }
        succ[n++] = s < 0 ? CLIRR_LIST_END : (uint32_t)s;
    }
    clirr_tin_close(&t);
    if (n == 0) {
        free(succ);
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s: no elements in the file (a list needs at least one "
                          "line holding a successor)", path);
    }
    list_finding f;
    clirr_list_examine(succ, (uint32_t)n, &f);
    if (f.problem != LIST_OK) {
        free(succ);
        return report(path, &f, (uint32_t)n, err);
    }
    l->n = (uint32_t)n;
    l->succ = succ;
    l->lists = f.heads;
    return CLIRR_OK;
fail:
    clirr_tin_close(&t);
    free(succ);
    return rc;
}
