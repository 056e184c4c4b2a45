/* host/graph/relabel.c - graph edits of `clirr convert`: ids compacted to
 * the vertices that have an arc (inputs with sparse ids, as SNAP's), and
 * weights generated for graphs without them (the generators' counter-based
 * stream, so the same seed gives the same weights everywhere). */
#include "gen.h"
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

int clirr_graph_relabel_compact(clirr_graph *g, uint32_t **old_ids, clirr_error *err)
{
    uint32_t *map = malloc(((size_t)g->n + 1) * sizeof *map); /* old -> new, or UINT32_MAX */
    uint32_t *old = malloc(((size_t)g->n + 1) * sizeof *old);  /* new -> old */
    uint32_t *row = NULL;
    if (!map || !old)
        goto nomem;
    for (uint32_t v = 0; v < g->n; v++)
        map[v] = g->row[v + 1] > g->row[v] ? 0 : UINT32_MAX;
    for (uint32_t e = 0; e < g->m; e++)
        map[g->col[e]] = 0;
    uint32_t n = 0;
    for (uint32_t v = 0; v < g->n; v++)
        if (map[v] == 0) {
            old[n] = v;
            map[v] = n++;
        }
    /* Ids keep their order, so each row keeps its place and its arcs: only
     * empty rows go and heads are renumbered. */
    if (!(row = malloc(((size_t)n + 1) * sizeof *row)))
        goto nomem;
    for (uint32_t k = 0; k < n; k++)
        row[k] = g->row[old[k]];
    row[n] = g->m;
    for (uint32_t e = 0; e < g->m; e++)
        g->col[e] = map[g->col[e]];
    free(g->row);
    g->row = row;
    g->n = n;
    free(map);
    *old_ids = old;
    return CLIRR_OK;
nomem:
    free(map);
    free(old);
    return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory relabelling a graph of %u vertices", g->n);
}

int clirr_graph_set_random_weights(clirr_graph *g, int32_t lo, int32_t hi, uint64_t seed,
                                   clirr_error *err)
{
    if (lo > hi)
        return clirr_fail(err, CLIRR_ERR_USAGE, "weights %d-%d: the low end is above the high end", lo, hi);
    int32_t *w = malloc(((size_t)g->m + 1) * sizeof *w);
    if (!w)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %u weights", g->m);
    uint64_t key = rng_key(seed, RNG_WEIGHTS), range = (uint64_t)((int64_t)hi - lo) + 1;
    for (uint32_t e = 0; e < g->m; e++)
        w[e] = (int32_t)(lo + (int64_t)(rng_at(key, e) % range));
    free(g->weight);
    g->weight = w;
    g->weights_rounded = false;
    free(g->value); /* the values the weights stood for are gone too */
    g->value = NULL;
    return CLIRR_OK;
}
