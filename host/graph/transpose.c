/* host/graph/transpose.c - the transpose of a graph: arc v -> u for every
 * arc u -> v, weights and values carried. A stable counting sort keyed by
 * head, visiting g row by row, so each row of the result lists in-arcs by
 * increasing source (and duplicates from one source in g's order). Pull-style
 * algorithms (PageRank, BC's backward sweep) read in-arcs from it, and
 * symmetrize.c and undirected.c build on it.
 *
 * On large graphs the host's cores share the sort by head range: each
 * thread reads all of g but counts and places only the arcs whose heads
 * are its own, so its writes stay in its part of the result and the order
 * within every row is the serial one. Reading g once per thread costs less
 * than the random writes it spreads. */
#include "graph_internal.h"

#include "base/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Below this many arcs one thread does it all. */
#define TRANSPOSE_PARALLEL_MIN (1u << 20)

typedef struct head_range {
    const clirr_graph *g;
    clirr_graph *t;
    uint32_t lo, hi; /* the heads this part owns: [lo, hi) */
} head_range;

/* In-degrees of the range's heads into t->row[v + 1]. */
static void count_heads(void *arg)
{
    const head_range *r = arg;
    const uint32_t *col = r->g->col, lo = r->lo, span = r->hi - r->lo;
    uint32_t *row = r->t->row;
    for (uint32_t k = 0; k < r->g->m; k++)
        if (col[k] - lo < span)
            row[col[k] + 1]++;
}

/* Place the range's in-arcs: t->row[v] is v's next free slot. */
static void place_heads(void *arg)
{
    const head_range *r = arg;
    const clirr_graph *g = r->g;
    clirr_graph *t = r->t;
    const uint32_t lo = r->lo, span = r->hi - r->lo;
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++) {
            uint32_t v = g->col[k];
            if (v - lo >= span)
                continue;
            uint32_t at = t->row[v]++;
            t->col[at] = u;
            if (t->weight)
                t->weight[at] = g->weight[k];
            if (t->value)
                t->value[at] = g->value[k];
        }
}

void clirr_graph_split_rows(const uint32_t *row_a, const uint32_t *row_b, uint32_t n,
                            unsigned parts, uint32_t *bound)
{
    uint64_t total = (uint64_t)row_a[n] + (row_b ? row_b[n] : 0);
    bound[0] = 0;
    for (unsigned i = 1; i < parts; i++) {
        uint64_t want = total * i / parts;
        uint32_t lo = bound[i - 1], hi = n; /* first v with arcs before v >= want */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            uint64_t before = (uint64_t)row_a[mid] + (row_b ? row_b[mid] : 0);
            if (before < want)
                lo = mid + 1;
            else
                hi = mid;
        }
        bound[i] = lo;
    }
    bound[parts] = n;
}

int clirr_graph_transpose(const clirr_graph *g, clirr_graph *t, clirr_error *err)
{
    if (t == g)
        return clirr_fail(err, CLIRR_ERR_USAGE, "transpose: the result must be another graph");
    int rc = clirr_graph_alloc(t, g->n, g->m, g->weight != NULL, err);
    if (rc != CLIRR_OK)
        return rc;
    if (g->value && !(t->value = malloc((g->m ? (size_t)g->m : 1) * sizeof *t->value))) {
        clirr_graph_free(t);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory transposing a graph of %u arcs", g->m);
    }
    t->weights_rounded = g->weights_rounded;
    unsigned parts = clirr_host_threads(g->m, TRANSPOSE_PARALLEL_MIN, "CLIRR_HOST_THREADS");
    if (parts > g->n)
        parts = g->n ? g->n : 1;
    head_range range[CLIRR_MAX_PARTS];
    uint32_t bound[CLIRR_MAX_PARTS + 1];
    /* Counting: equal vertex ranges (every part reads all arcs anyway). */
    for (unsigned i = 0; i < parts; i++) {
        range[i] = (head_range){g, t, 0, 0};
        clirr_part_bounds(g->n, parts, i, &range[i].lo, &range[i].hi);
    }
    clirr_run_parts(parts, count_heads, range, sizeof range[0]);
    /* Prefix sums make row[v] the start of v; placing advances it to the
     * start of v + 1, and one shift restores the offsets. */
    uint32_t *row = t->row;
    for (uint32_t v = 0; v < g->n; v++)
        row[v + 1] += row[v];
    /* Placing: ranges of about equal in-arcs, so hubs do not pile up on one
     * thread. */
    clirr_graph_split_rows(row, NULL, g->n, parts, bound);
    for (unsigned i = 0; i < parts; i++)
        range[i] = (head_range){g, t, bound[i], bound[i + 1]};
    clirr_run_parts(parts, place_heads, range, sizeof range[0]);
    memmove(row + 1, row, (size_t)g->n * sizeof *row);
    row[0] = 0;
    return CLIRR_OK;
}
