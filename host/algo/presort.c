/* host/algo/presort.c - the topology-driven sweep's vertex order by
 * decreasing out-degree (see presort.h), from the graph layout's own
 * degree order (host/graph/reorder.c). */
#include "algo/presort.h"

#include <stdlib.h>

const char *const clirr_presort_names[] = {"none", "degree", NULL};

int clirr_presort_upload(clirr_ctx *ctx, const clirr_graph *g, clirr_presort how, cl_mem *order, cl_uint *on,
                         clirr_error *err)
{
    *order = NULL;
    *on = 0;
    if (how == CLIRR_PRESORT_NONE)
        return CLIRR_OK;
    size_t n = g->n ? g->n : 1;
    uint32_t *pos = malloc(n * sizeof *pos), *ids = malloc(n * sizeof *ids);
    int rc = pos && ids ? CLIRR_OK : clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the degree pre-sort");
    if (rc == CLIRR_OK)
        rc = clirr_graph_reorder(g, CLIRR_REORDER_DEGREE, pos, err); /* pos[v]: v's place */
    for (uint32_t v = 0; rc == CLIRR_OK && v < g->n; v++)
        ids[pos[v]] = v;
    if (!g->n)
        ids[0] = 0;
    if (rc == CLIRR_OK)
        rc = clirr_buf_create(ctx, "degree pre-sort", n * sizeof *ids, order, err);
    if (rc == CLIRR_OK)
        rc = clirr_buf_write(ctx, *order, 0, n * sizeof *ids, ids, err);
    if (rc == CLIRR_OK)
        *on = 1;
    free(pos);
    free(ids);
    return rc;
}
