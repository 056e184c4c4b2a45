/* host/algo/dgraph.c - uploading a CSR graph to the device. */
#include "algo/dgraph.h"

#include <string.h>

int clirr_dgraph_upload(clirr_ctx *ctx, const clirr_graph *g, bool with_weights,
                        clirr_dgraph *dg, clirr_error *err)
{
    int rc = CLIRR_OK;
    memset(dg, 0, sizeof *dg);
    dg->n = g->n;
    dg->m = g->m;
    dg->weighted = with_weights && g->weight;
    size_t row_bytes = ((size_t)g->n + 1) * sizeof(uint32_t);
    size_t col_bytes = (size_t)g->m * sizeof(uint32_t);
    CLIRR_TRY(clirr_buf_create(ctx, "the graph's row offsets", row_bytes, &dg->row, err));
    CLIRR_TRY(clirr_buf_create(ctx, "the graph's arcs", col_bytes, &dg->col, err));
    CLIRR_TRY(clirr_buf_create(ctx, "the graph's weights", dg->weighted ? col_bytes : 0,
                               &dg->weight, err));
    CLIRR_TRY(clirr_buf_write(ctx, dg->row, 0, row_bytes, g->row, err));
    CLIRR_TRY(clirr_buf_write(ctx, dg->col, 0, col_bytes, g->col, err));
    if (dg->weighted)
        CLIRR_TRY(clirr_buf_write(ctx, dg->weight, 0, col_bytes, g->weight, err));
    return CLIRR_OK;
fail:
    clirr_dgraph_release(dg);
    return rc;
}

void clirr_dgraph_release(clirr_dgraph *dg)
{
    clirr_mem_release(&dg->row);
    clirr_mem_release(&dg->col);
    clirr_mem_release(&dg->weight);
}
