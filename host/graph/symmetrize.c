/* host/graph/symmetrize.c - the symmetric closure of a graph.
 *
 * Every row keeps its arcs as they were (duplicates, self-loops and weights
 * included) and gets, appended, the reverse of every arc v -> u that has no
 * u -> v yet: once per distinct v, in increasing v, with the weight of the
 * first v -> u arc in v's row. The result is the same on every run, and
 * symmetrizing a symmetric graph changes nothing. Weights of arcs that were
 * already present in both directions are left as given, even if they differ.
 *
 * Cost: O(n + m) time with the transpose (in-arcs grouped by head) and one
 * stamp per vertex to test "is v already a neighbour of u" in O(1). */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct transpose {
    uint32_t *row;  /* n + 1 offsets into src/w by head */
    uint32_t *src;  /* tails, increasing within a head (stable) */
    int32_t *w;     /* weight of each in-arc, or NULL */
} transpose;

static void transpose_free(transpose *t)
{
    free(t->row);
    free(t->src);
    free(t->w);
}

static int transpose_build(const clirr_graph *g, transpose *t, clirr_error *err)
{
    memset(t, 0, sizeof *t);
    size_t mm = g->m ? g->m : 1;
    t->row = calloc((size_t)g->n + 1, sizeof *t->row);
    t->src = malloc(mm * sizeof *t->src);
    if (g->weight)
        t->w = malloc(mm * sizeof *t->w);
    if (!t->row || !t->src || (g->weight && !t->w)) {
        transpose_free(t);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory symmetrizing a graph of %u arcs", g->m);
    }
    /* Same counting sort as clirr_graph_from_arcs, keyed by head. */
    for (uint32_t k = 0; k < g->m; k++)
        t->row[g->col[k] + 1]++;
    for (uint32_t v = 0; v < g->n; v++)
        t->row[v + 1] += t->row[v];
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++) {
            uint32_t at = t->row[g->col[k]]++;
            t->src[at] = u;
            if (t->w)
                t->w[at] = g->weight[k];
        }
    memmove(t->row + 1, t->row, (size_t)g->n * sizeof *t->row);
    t->row[0] = 0;
    return CLIRR_OK;
}

/* Walk row u's missing reverse arcs: call with out == NULL to count them,
 * or with out arrays to write them from position at. stamp[x] == u + 1 marks
 * x as a neighbour of u already. */
static uint32_t missing(const clirr_graph *g, const transpose *t, uint32_t u,
                        uint32_t *stamp, uint32_t *col, int32_t *w, uint64_t at)
{
    uint32_t mark = u + 1, added = 0;
    for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++)
        stamp[g->col[k]] = mark;
    for (uint32_t k = t->row[u]; k < t->row[u + 1]; k++) {
        uint32_t x = t->src[k];
        if (stamp[x] == mark)
            continue;
        stamp[x] = mark;
        if (col) {
            col[at + added] = x;
            if (w)
                w[at + added] = t->w[k];
        }
        added++;
    }
    return added;
}

int clirr_graph_symmetrize(clirr_graph *g, clirr_error *err)
{
    transpose t;
    int rc = transpose_build(g, &t, err);
    if (rc != CLIRR_OK)
        return rc;
    uint32_t *stamp = calloc((size_t)g->n + 1, sizeof *stamp);
    uint32_t *row = calloc((size_t)g->n + 1, sizeof *row);
    uint32_t *col = NULL;
    int32_t *w = NULL;
    if (!stamp || !row) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory symmetrizing a graph of %u vertices", g->n);
        goto done;
    }
    /* Count first, so the arrays are allocated once at their final size. */
    uint64_t total = 0;
    for (uint32_t u = 0; u < g->n; u++) {
        total += (g->row[u + 1] - g->row[u]) + (uint64_t)missing(g, &t, u, stamp, NULL, NULL, 0);
        if (total > CLIRR_GRAPH_MAX_EDGES) {
            rc = clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                            "the symmetric closure has more than %llu arcs, clirr's limit",
                            (unsigned long long)CLIRR_GRAPH_MAX_EDGES);
            goto done;
        }
        row[u + 1] = (uint32_t)total;
    }
    if (total == g->m)
        goto done; /* already symmetric: nothing to add */
    col = malloc((size_t)total * sizeof *col);
    if (g->weight)
        w = malloc((size_t)total * sizeof *w);
    if (!col || (g->weight && !w)) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %llu arcs",
                        (unsigned long long)total);
        goto done;
    }
    memset(stamp, 0, ((size_t)g->n + 1) * sizeof *stamp);
    for (uint32_t u = 0; u < g->n; u++) {
        uint32_t deg = g->row[u + 1] - g->row[u];
        memcpy(col + row[u], g->col + g->row[u], (size_t)deg * sizeof *col);
        if (w)
            memcpy(w + row[u], g->weight + g->row[u], (size_t)deg * sizeof *w);
        missing(g, &t, u, stamp, col, w, (uint64_t)row[u] + deg);
    }
    free(g->row);
    free(g->col);
    free(g->weight);
    g->row = row;
    g->col = col;
    g->weight = w;
    g->m = (uint32_t)total;
    row = NULL;
    col = NULL;
    w = NULL;
done:
    transpose_free(&t);
    free(stamp);
    free(row);
    free(col);
    free(w);
    return rc;
}
