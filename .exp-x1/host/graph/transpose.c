/* host/graph/transpose.c - the transpose of a graph: arc v -> u for every
 * arc u -> v, weights and values carried. One stable counting sort keyed by
 * head, visiting g row by row, so each row of the result lists in-arcs by
 * increasing source (and duplicates from one source in g's order). Pull-style
 * algorithms (PageRank, BC's backward sweep) read in-arcs from it, and
 * symmetrize.c finds the reverse arcs it must add with it. */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

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
    /* Same counting sort as clirr_graph_from_arcs: in-degrees into
     * row[v + 1], prefix sums make row[v] the start of v, placing advances
     * it to the start of v + 1, and one shift restores the offsets. */
    uint32_t *row = t->row;
    for (uint32_t k = 0; k < g->m; k++)
        row[g->col[k] + 1]++;
    for (uint32_t v = 0; v < g->n; v++)
        row[v + 1] += row[v];
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++) {
            uint32_t at = row[g->col[k]]++;
            t->col[at] = u;
            if (t->weight)
                t->weight[at] = g->weight[k];
            if (t->value)
                t->value[at] = g->value[k];
        }
    memmove(row + 1, row, (size_t)g->n * sizeof *row);
    row[0] = 0;
    return CLIRR_OK;
}
