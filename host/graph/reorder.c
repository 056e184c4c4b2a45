/* host/graph/reorder.c - locality-optimized vertex layouts (the data-driven
 * vs topology-driven study's "improved memory layouts", shared/papers/000
 * section IV): a permutation of the ids and the graph relabelled by it.
 *   bfs     breadth-first order over out-arcs from the vertex of largest
 *           out-degree, then from each unvisited vertex in id order;
 *   rcm     reverse Cuthill-McKee: breadth-first from a vertex of least
 *           degree in each component, neighbours in increasing degree,
 *           the whole order reversed;
 *   degree  decreasing out-degree (ties by id).
 * Degrees count out-arcs; a vertex's position in the order is its new id. */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[CLIRR_REORDER_COUNT_] = {"none", "bfs", "rcm", "degree"};

const char *clirr_reorder_name(clirr_reorder r)
{
    return r == CLIRR_REORDER_AUTO ? "auto" : (unsigned)r < CLIRR_REORDER_COUNT_ ? names[r] : "?";
}

int clirr_reorder_parse(const char *name, clirr_reorder *r)
{
    if (!strcmp(name, "auto")) {
        *r = CLIRR_REORDER_AUTO;
        return 0;
    }
    for (int i = 0; i < CLIRR_REORDER_COUNT_; i++)
        if (!strcmp(name, names[i])) {
            *r = (clirr_reorder)i;
            return 0;
        }
    return -1;
}

static uint32_t degree(const clirr_graph *g, uint32_t v) { return g->row[v + 1] - g->row[v]; }

/* qsort's comparison needs the graph: a file-level pointer, set only
 * for the sort's duration (one reorder at a time on the host). */
static const clirr_graph *sort_graph;

static int by_degree_desc(const void *a, const void *b)
{
    uint32_t u = *(const uint32_t *)a, v = *(const uint32_t *)b;
    uint32_t du = degree(sort_graph, u), dv = degree(sort_graph, v);
    return du != dv ? (du > dv ? -1 : 1) : (u > v) - (u < v);
}

static int by_degree_asc(const void *a, const void *b) { return -by_degree_desc(a, b); }

/* The degree layout: decreasing out-degree, ties by id, the order qsort
 * with by_degree_desc gives, by a counting sort over the degrees instead
 * (linear: it runs in prepare whenever auto picks it, on graphs of
 * millions of vertices). */
static int by_degree_counting(const clirr_graph *g, uint32_t *order, clirr_error *err)
{
    uint32_t n = g->n, maxdeg = 0;
    for (uint32_t v = 0; v < n; v++)
        maxdeg = degree(g, v) > maxdeg ? degree(g, v) : maxdeg;
    uint32_t *start = calloc((size_t)maxdeg + 2, sizeof *start);
    if (!start)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reordering a graph of %u vertices", n);
    /* start[maxdeg - d] counts, then places, the vertices of degree d */
    for (uint32_t v = 0; v < n; v++)
        start[maxdeg - degree(g, v) + 1]++;
    for (uint32_t i = 1; i <= maxdeg + 1; i++)
        start[i] += start[i - 1];
    for (uint32_t v = 0; v < n; v++)
        order[start[maxdeg - degree(g, v)]++] = v;
    free(start);
    return CLIRR_OK;
}

/* Breadth-first order into order[], starting at each of starts[] (in
 * that order) not yet visited; with sorted, each vertex's unvisited
 * neighbours enter in increasing degree. */
static int breadth_first(const clirr_graph *g, const uint32_t *starts, bool sorted, uint32_t *order,
                         clirr_error *err)
{
    uint32_t n = g->n, tail = 0, head = 0, maxdeg = 0;
    bool *seen = calloc((size_t)n + 1, sizeof *seen);
    for (uint32_t v = 0; v < n; v++)
        maxdeg = degree(g, v) > maxdeg ? degree(g, v) : maxdeg;
    uint32_t *nbr = malloc(((size_t)maxdeg + 1) * sizeof *nbr);
    if (!seen || !nbr) {
        free(seen);
        free(nbr);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reordering a graph of %u vertices", n);
    }
    for (uint32_t s = 0; s < n; s++) {
        if (seen[starts[s]])
            continue;
        seen[starts[s]] = true;
        order[tail++] = starts[s];
        while (head < tail) {
            uint32_t u = order[head++], k = 0;
            for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++)
                if (!seen[g->col[e]]) {
                    seen[g->col[e]] = true;
                    nbr[k++] = g->col[e];
                }
            if (sorted)
                qsort(nbr, k, sizeof *nbr, by_degree_asc);
            memcpy(order + tail, nbr, (size_t)k * sizeof *nbr);
            tail += k;
        }
    }
    free(seen);
    free(nbr);
    return CLIRR_OK;
}

int clirr_graph_reorder(const clirr_graph *g, clirr_reorder how, uint32_t *perm, clirr_error *err)
{
    uint32_t n = g->n;
    uint32_t *order = malloc(((size_t)n + 1) * sizeof *order), *starts = malloc(((size_t)n + 1) * sizeof *starts);
    int rc = CLIRR_OK;
    if (!order || !starts) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reordering a graph of %u vertices", n);
        goto done;
    }
    for (uint32_t v = 0; v < n; v++)
        order[v] = starts[v] = v;
    sort_graph = g;
    if (how == CLIRR_REORDER_DEGREE) {
        rc = by_degree_counting(g, order, err);
    } else if (how == CLIRR_REORDER_BFS) {
        uint32_t top = 0;
        for (uint32_t v = 0; v < n; v++)
            top = degree(g, v) > degree(g, top) ? v : top;
        starts[0] = top; /* then every vertex in id order (top again: already seen) */
        for (uint32_t v = 1; v < n; v++)
            starts[v] = v <= top ? v - 1 : v;
        rc = breadth_first(g, starts, false, order, err);
    } else if (how == CLIRR_REORDER_RCM) {
        qsort(starts, n, sizeof *starts, by_degree_asc);
        rc = breadth_first(g, starts, true, order, err);
        for (uint32_t i = 0; rc == CLIRR_OK && i < n / 2; i++) {
            uint32_t t = order[i];
            order[i] = order[n - 1 - i];
            order[n - 1 - i] = t;
        }
    } else if (how != CLIRR_REORDER_NONE) {
        rc = clirr_fail(err, CLIRR_ERR_USAGE, "unknown vertex order %d", (int)how);
    }
    sort_graph = NULL;
    for (uint32_t i = 0; rc == CLIRR_OK && i < n; i++)
        perm[order[i]] = i;
done:
    free(order);
    free(starts);
    return rc;
}

int clirr_graph_permute(const clirr_graph *g, const uint32_t *perm, clirr_graph *out, clirr_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t n = g->n, m = g->m;
    out->n = n;
    out->m = m;
    out->weights_rounded = g->weights_rounded;
    out->row = malloc(((size_t)n + 1) * sizeof *out->row);
    out->col = malloc(((size_t)m + 1) * sizeof *out->col);
    out->weight = g->weight ? malloc(((size_t)m + 1) * sizeof *out->weight) : NULL;
    out->value = g->value ? malloc(((size_t)m + 1) * sizeof *out->value) : NULL;
    uint32_t *old = malloc(((size_t)n + 1) * sizeof *old); /* new -> old */
    if (!out->row || !out->col || (g->weight && !out->weight) || (g->value && !out->value) || !old) {
        free(old);
        clirr_graph_free(out);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory relabelling a graph of %u vertices", n);
    }
    for (uint32_t v = 0; v < n; v++)
        old[perm[v]] = v;
    out->row[0] = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = old[k], at = out->row[k];
        for (uint32_t e = g->row[v]; e < g->row[v + 1]; e++, at++) {
            out->col[at] = perm[g->col[e]];
            if (g->weight)
                out->weight[at] = g->weight[e];
            if (g->value)
                out->value[at] = g->value[e];
        }
        out->row[k + 1] = at;
    }
    free(old);
    return CLIRR_OK;
}
