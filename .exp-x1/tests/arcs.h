/* tests/arcs.h - building small graphs arc by arc for the tests that need
 * shapes no generator makes (parallel arcs, self-loops, paths, stars). */
#ifndef CLIRR_TESTS_ARCS_H
#define CLIRR_TESTS_ARCS_H

#include "clirr/graph.h"

#include <stdlib.h>
#include <string.h>

typedef struct arcs {
    uint32_t n, m, cap;
    uint32_t *s, *d;
    int32_t *w;
} arcs;

/* Append arc u -> v of weight w (aborts when memory runs out: a test). */
static inline void arc(arcs *a, uint32_t u, uint32_t v, int32_t w)
{
    if (a->m == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 64;
        a->s = realloc(a->s, a->cap * sizeof *a->s);
        a->d = realloc(a->d, a->cap * sizeof *a->d);
        a->w = realloc(a->w, a->cap * sizeof *a->w);
        if (!a->s || !a->d || !a->w)
            abort();
    }
    a->s[a->m] = u;
    a->d[a->m] = v;
    a->w[a->m++] = w;
}

/* The graph of the arcs (weighted or not); the list is freed. */
static inline int arcs_build(arcs *a, bool weighted, clirr_graph *g, clirr_error *err)
{
    int rc = clirr_graph_from_arcs(a->n, a->m, a->s, a->d, weighted ? a->w : NULL, g, err);
    free(a->s);
    free(a->d);
    free(a->w);
    memset(a, 0, sizeof *a);
    return rc;
}

#endif
