/* host/ref/bfs_rec.c - the serial recursive (unordered, depth-first) BFS.
 * A visit of v first lowers all its neighbours, then visits the ones it
 * lowered that still hold that level, one after the other: descending
 * before the siblings are lowered would send each chain thousands of
 * levels deep and revisit most vertices many times over. */
#include "ref/bfs_rec.h"

#include <stdlib.h>

typedef struct frame {
    uint32_t v;
    size_t lo, at, hi; /* v's lowered neighbours: list[lo .. hi), next at */
} frame;

/* Grow *a (elements of size sz, capacity *cap) to hold need. */
static bool grow(void **a, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return true;
    size_t c = *cap * 2 > need ? *cap * 2 : need;
    void *p = realloc(*a, c * sz);
    if (!p)
        return false;
    *a = p;
    *cap = c;
    return true;
}

int clirr_ref_bfs_recursive(const clirr_graph *g, uint32_t source, int32_t *level, uint64_t *visits,
                            clirr_error *err)
{
    if (source >= g->n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "source %u is not a vertex (n = %u)", source, g->n);
    size_t fcap = 256, lcap = 4096, top = 0, used = 0;
    frame *st = malloc(fcap * sizeof *st);
    uint32_t *list = malloc(lcap * sizeof *list);
    int rc = CLIRR_OK;
    for (uint32_t v = 0; v < g->n; v++)
        level[v] = -1;
    level[source] = 0;
    uint64_t count = 0;
    uint32_t next_v = source;
    bool push = true;
    while (st && list) {
        if (push) {
            /* Visit next_v: lower its neighbours, remember the lowered. */
            uint32_t v = next_v;
            int32_t lv = level[v] + 1;
            count++;
            if (!grow((void **)&st, &fcap, top + 1, sizeof *st) ||
                !grow((void **)&list, &lcap, used + (g->row[v + 1] - g->row[v]), sizeof *list))
                break;
            size_t lo = used;
            for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++) {
                uint32_t u = g->col[e];
                if (level[u] < 0 || level[u] > lv) {
                    level[u] = lv;
                    list[used++] = u;
                }
            }
            st[top++] = (frame){v, lo, lo, used};
            push = false;
        }
        if (!top)
            break;
        frame *f = &st[top - 1];
        while (f->at < f->hi && level[list[f->at]] != level[f->v] + 1)
            f->at++; /* lowered further since: a better visit covers it */
        if (f->at == f->hi) {
            used = f->lo;
            top--;
            continue;
        }
        next_v = list[f->at++];
        push = true;
    }
    if (!st || !list || push)
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the recursive BFS");
    free(st);
    free(list);
    if (visits)
        *visits = count;
    return rc;
}
