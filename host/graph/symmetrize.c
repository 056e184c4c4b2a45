/* host/graph/symmetrize.c - the symmetric closure of a graph.
 *
 * Every row keeps its arcs as they were (duplicates, self-loops and weights
 * included) and gets, appended, the reverse of every arc v -> u that has no
 * u -> v yet: once per distinct v, in increasing v, with the weight of the
 * first v -> u arc in v's row. The result is the same on every run, and
 * symmetrizing a symmetric graph changes nothing. Weights of arcs that were
 * already present in both directions are left as given, even if they differ.
 *
 * Values are carried the same way as weights.
 *
 * Cost: O(n + m) time with the transpose (in-arcs grouped by head, from
 * transpose.c) and one stamp per vertex to test "is v already a neighbour of
 * u" in O(1). On large graphs the host's cores share the rows by ranges of
 * about equal arcs, each with a stamp array of its own (so their number is
 * also bounded by the memory the stamps take). */
#include "graph_internal.h"

#include "base/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Walk row u's missing reverse arcs: call with col == NULL to count them,
 * or with the output arrays (w and x NULL when absent) to write them from
 * position at. stamp[v] == u + 1 marks v as a neighbour of u already. */
static uint32_t missing(const clirr_graph *g, const clirr_graph *t, uint32_t u,
                        uint32_t *stamp, uint32_t *col, int32_t *w, double *x,
                        uint64_t at)
{
    uint32_t mark = u + 1, added = 0;
    for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++)
        stamp[g->col[k]] = mark;
    for (uint32_t k = t->row[u]; k < t->row[u + 1]; k++) {
        uint32_t v = t->col[k];
        if (stamp[v] == mark)
            continue;
        stamp[v] = mark;
        if (col) {
            col[at + added] = v;
            if (w)
                w[at + added] = t->weight[k];
            if (x)
                x[at + added] = t->value[k];
        }
        added++;
    }
    return added;
}

/* The memory all parts' stamp arrays may take together. */
#define STAMP_BUDGET ((size_t)256 << 20)

typedef struct row_range {
    const clirr_graph *g, *t;
    uint32_t *stamp;     /* n + 1 words of this part's own */
    uint32_t *row;       /* counting: row[u + 1] = u's arcs in the result */
    const uint32_t *out; /* writing: the result's row offsets, else NULL */
    uint32_t *col;
    int32_t *w;
    double *x;
    uint32_t lo, hi;
} row_range;

static void row_range_run(void *arg)
{
    const row_range *r = arg;
    const clirr_graph *g = r->g;
    memset(r->stamp, 0, ((size_t)g->n + 1) * sizeof *r->stamp);
    for (uint32_t u = r->lo; u < r->hi; u++) {
        uint32_t deg = g->row[u + 1] - g->row[u];
        if (!r->out) {
            r->row[u + 1] = deg + missing(g, r->t, u, r->stamp, NULL, NULL, NULL, 0);
            continue;
        }
        uint32_t at = r->out[u];
        memcpy(r->col + at, g->col + g->row[u], (size_t)deg * sizeof *r->col);
        if (r->w)
            memcpy(r->w + at, g->weight + g->row[u], (size_t)deg * sizeof *r->w);
        if (r->x)
            memcpy(r->x + at, g->value + g->row[u], (size_t)deg * sizeof *r->x);
        missing(g, r->t, u, r->stamp, r->col, r->w, r->x, (uint64_t)at + deg);
    }
}

int clirr_graph_symmetrize(clirr_graph *g, clirr_error *err)
{
    clirr_graph t;
    int rc = clirr_graph_transpose(g, &t, err);
    if (rc != CLIRR_OK)
        return rc;
    size_t stamp_words = (size_t)g->n + 1;
    unsigned parts = clirr_host_threads((size_t)g->m * 2, 1u << 20, "CLIRR_HOST_THREADS");
    size_t affordable = STAMP_BUDGET / (stamp_words * sizeof(uint32_t));
    if (parts > affordable)
        parts = affordable ? (unsigned)affordable : 1;
    if (parts > g->n)
        parts = g->n ? g->n : 1;
    uint32_t *stamp = malloc(parts * stamp_words * sizeof *stamp);
    uint32_t *row = calloc(stamp_words, sizeof *row);
    uint32_t *col = NULL;
    int32_t *w = NULL;
    double *x = NULL;
    if (!stamp || !row) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory symmetrizing a graph of %u vertices", g->n);
        goto done;
    }
    row_range range[CLIRR_MAX_PARTS];
    uint32_t bound[CLIRR_MAX_PARTS + 1];
    clirr_graph_split_rows(g->row, t.row, g->n, parts, bound);
    for (unsigned i = 0; i < parts; i++)
        range[i] = (row_range){g, &t, stamp + i * stamp_words, row, NULL, NULL, NULL, NULL,
                               bound[i], bound[i + 1]};
    /* Count first, so the arrays are allocated once at their final size. */
    clirr_run_parts(parts, row_range_run, range, sizeof range[0]);
    uint64_t total = 0;
    for (uint32_t u = 0; u < g->n; u++) {
        total += row[u + 1];
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
    if (g->value)
        x = malloc((size_t)total * sizeof *x);
    if (!col || (g->weight && !w) || (g->value && !x)) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %llu arcs",
                        (unsigned long long)total);
        goto done;
    }
    for (unsigned i = 0; i < parts; i++) {
        range[i].out = row;
        range[i].col = col;
        range[i].w = w;
        range[i].x = x;
    }
    clirr_run_parts(parts, row_range_run, range, sizeof range[0]);
    free(g->row);
    free(g->col);
    free(g->weight);
    free(g->value);
    g->row = row;
    g->col = col;
    g->weight = w;
    g->value = x;
    g->m = (uint32_t)total;
    row = NULL;
    col = NULL;
    w = NULL;
    x = NULL;
done:
    clirr_graph_free(&t);
    free(stamp);
    free(row);
    free(col);
    free(w);
    free(x);
    return rc;
}
