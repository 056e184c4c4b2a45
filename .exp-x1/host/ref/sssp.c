/* host/ref/sssp.c - Dijkstra's algorithm with a binary min-heap keyed by
 * tentative distance (lazy deletion: stale entries are skipped): the SSSP
 * oracle. Distances are 64-bit here so the oracle itself cannot overflow;
 * a distance that does not fit 32 bits is reported as an error. */
#include "ref/ref.h"

#include <stdlib.h>

typedef struct heap_item {
    uint64_t dist;
    uint32_t v;
} heap_item;

typedef struct heap {
    heap_item *a;
    size_t n, cap;
} heap;

static bool heap_push(heap *h, uint64_t dist, uint32_t v)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 1024;
        heap_item *grown = realloc(h->a, cap * sizeof *grown);
        if (!grown)
            return false;
        h->a = grown;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (h->a[parent].dist <= dist)
            break;
        h->a[i] = h->a[parent];
        i = parent;
    }
    h->a[i] = (heap_item){dist, v};
    return true;
}

static heap_item heap_pop(heap *h)
{
    heap_item top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= h->n)
            break;
        if (child + 1 < h->n && h->a[child + 1].dist < h->a[child].dist)
            child++;
        if (h->a[child].dist >= last.dist)
            break;
        h->a[i] = h->a[child];
        i = child;
    }
    if (h->n)
        h->a[i] = last;
    return top;
}

int clirr_ref_sssp(const clirr_graph *g, uint32_t source, uint32_t *dist, clirr_error *err)
{
    if (source >= g->n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "source vertex %u out of range (graph has %u vertices)",
                          source, g->n);
    uint64_t *d = malloc((size_t)g->n * sizeof *d);
    heap h = {0};
    int rc = CLIRR_OK;
    if (!d) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for SSSP distances");
        goto done;
    }
    for (uint32_t v = 0; v < g->n; v++)
        d[v] = UINT64_MAX;
    d[source] = 0;
    if (!heap_push(&h, 0, source)) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the SSSP heap");
        goto done;
    }
    while (h.n) {
        heap_item it = heap_pop(&h);
        if (it.dist != d[it.v])
            continue; /* stale entry */
        uint32_t u = it.v;
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            int32_t w = g->weight ? g->weight[e] : 1;
            if (w < 0) {
                rc = clirr_fail(err, CLIRR_ERR_INPUT, "negative weight %d on arc %u -> %u: "
                                "shortest paths need non-negative weights", w, u, g->col[e]);
                goto done;
            }
            uint64_t nd = it.dist + (uint64_t)w;
            uint32_t v = g->col[e];
            if (nd < d[v]) {
                d[v] = nd;
                if (!heap_push(&h, nd, v)) {
                    rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the SSSP heap");
                    goto done;
                }
            }
        }
    }
    for (uint32_t v = 0; v < g->n; v++) {
        if (d[v] != UINT64_MAX && d[v] >= UINT32_MAX) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "distance of vertex %u is %llu, beyond 32 bits",
                            v, (unsigned long long)d[v]);
            goto done;
        }
        dist[v] = d[v] == UINT64_MAX ? UINT32_MAX : (uint32_t)d[v];
    }
done:
    free(d);
    free(h.a);
    return rc;
}
