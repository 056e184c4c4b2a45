/* host/graph/undirected.c - the simple undirected graph of a graph: what
 * minimum spanning forests and connected components read.
 *
 * Every pair {u, v}, u != v, joined by at least one arc (in either
 * direction) becomes the two arcs u -> v and v -> u, each with the lightest
 * weight of all the arcs joining the pair; self-loops go; each row lists its
 * heads in increasing order, once. So arc (u, v) with u < v is the pair's
 * one canonical arc, and the order of those arcs is the order of the pairs.
 *
 * Cost: O(n + m) with two stable counting sorts (transpose.c): the
 * transpose t lists each vertex's in-arcs by increasing source, and the
 * transpose of t lists its out-arcs by increasing head; merging the two
 * sorted rows gives the neighbours in order with their duplicates side by
 * side. Vertices are independent, so on large graphs the host's cores
 * share the merges by ranges of about equal arcs. */
#include "graph_internal.h"

#include "base/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Merge out-row a (heads, sorted) and in-row b (sources, sorted) of u:
 * count the distinct neighbours other than u, or (col != NULL) write them
 * from `at` with the lightest weight each. */
static uint32_t merge_row(const clirr_graph *out, const clirr_graph *in, uint32_t u, uint32_t *col,
                          int32_t *w, uint64_t at)
{
    uint32_t i = out->row[u], ie = out->row[u + 1];
    uint32_t j = in->row[u], je = in->row[u + 1];
    uint32_t written = 0;
    while (i < ie || j < je) {
        bool take_out = j == je || (i < ie && out->col[i] <= in->col[j]);
        uint32_t v = take_out ? out->col[i] : in->col[j];
        int32_t wt = take_out ? (out->weight ? out->weight[i] : 1) : (in->weight ? in->weight[j] : 1);
        take_out ? i++ : j++;
        if (v == u)
            continue;
        if (written > 0 && (col ? col[at + written - 1] == v : false)) {
            if (w && wt < w[at + written - 1])
                w[at + written - 1] = wt;
            continue;
        }
        if (!col) {
            /* Counting only: skip the rest of v's run on both sides. */
            while (i < ie && out->col[i] == v)
                i++;
            while (j < je && in->col[j] == v)
                j++;
        } else {
            col[at + written] = v;
            if (w)
                w[at + written] = wt;
        }
        written++;
    }
    return written;
}

typedef struct merge_range {
    const clirr_graph *out, *in;
    clirr_graph *und; /* NULL while counting */
    uint32_t *row;    /* counting: row[v + 1] = v's neighbours */
    uint32_t lo, hi;
} merge_range;

static void merge_range_run(void *arg)
{
    const merge_range *r = arg;
    for (uint32_t v = r->lo; v < r->hi; v++) {
        if (r->und)
            merge_row(r->out, r->in, v, r->und->col, r->und->weight, r->und->row[v]);
        else
            r->row[v + 1] = merge_row(r->out, r->in, v, NULL, NULL, 0);
    }
}

/* Run every range, counting (und == NULL) or writing. */
static void merge_all(merge_range *range, unsigned parts, clirr_graph *und)
{
    for (unsigned i = 0; i < parts; i++)
        range[i].und = und;
    clirr_run_parts(parts, merge_range_run, range, sizeof range[0]);
}

int clirr_graph_undirected(const clirr_graph *g, clirr_graph *und, clirr_error *err)
{
    clirr_graph t = {0}, s = {0};
    memset(und, 0, sizeof *und);
    int rc = clirr_graph_transpose(g, &t, err);
    if (rc == CLIRR_OK)
        rc = clirr_graph_transpose(&t, &s, err);
    uint32_t *row = NULL;
    if (rc == CLIRR_OK && !(row = calloc((size_t)g->n + 1, sizeof *row)))
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the undirected form of %u vertices", g->n);
    unsigned parts = 1;
    merge_range range[CLIRR_MAX_PARTS];
    if (rc == CLIRR_OK) {
        parts = clirr_host_threads((size_t)g->m * 2, 1u << 20, "CLIRR_HOST_THREADS");
        if (parts > g->n)
            parts = g->n ? g->n : 1;
        uint32_t bound[CLIRR_MAX_PARTS + 1];
        clirr_graph_split_rows(s.row, t.row, g->n, parts, bound);
        for (unsigned i = 0; i < parts; i++)
            range[i] = (merge_range){&s, &t, NULL, row, bound[i], bound[i + 1]};
        merge_all(range, parts, NULL);
    }
    uint64_t total = 0;
    for (uint32_t v = 0; rc == CLIRR_OK && v < g->n; v++) {
        total += row[v + 1];
        if (total > CLIRR_GRAPH_MAX_EDGES)
            rc = clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                            "the undirected form has more than %llu arcs, clirr's limit",
                            (unsigned long long)CLIRR_GRAPH_MAX_EDGES);
        row[v + 1] = (uint32_t)total;
    }
    if (rc == CLIRR_OK)
        rc = clirr_graph_alloc(und, g->n, total, g->weight != NULL, err);
    if (rc == CLIRR_OK) {
        memcpy(und->row, row, ((size_t)g->n + 1) * sizeof *row);
        merge_all(range, parts, und);
        und->weights_rounded = g->weights_rounded;
    }
    free(row);
    clirr_graph_free(&t);
    clirr_graph_free(&s);
    if (rc != CLIRR_OK)
        clirr_graph_free(und);
    return rc;
}
