/* host/algo/dgraph.h - a graph's CSR arrays on the device. */
#ifndef CLIRR_ALGO_DGRAPH_H
#define CLIRR_ALGO_DGRAPH_H

#include "clirr/graph.h"
#include "runtime/runtime.h"

typedef struct clirr_dgraph {
    uint32_t n, m;
    cl_mem row;    /* n + 1 offsets */
    cl_mem col;    /* m arc heads */
    cl_mem weight; /* m weights; a placeholder when not uploaded */
    bool weighted; /* weight holds the graph's weights */
} clirr_dgraph;

/* Upload g (its weights only when with_weights and g has them). Buffers
 * larger than the device allows give CLIRR_ERR_TOO_LARGE. */
int clirr_dgraph_upload(clirr_ctx *ctx, const clirr_graph *g, bool with_weights,
                        clirr_dgraph *dg, clirr_error *err);

void clirr_dgraph_release(clirr_dgraph *dg);

#endif
