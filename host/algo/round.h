/* host/algo/round.h - the round kernel of a data-driven algorithm, built
 * for each push mode the run may use (one, or two under --push auto), and
 * the choice of one for each round. */
#ifndef CLIRR_ALGO_ROUND_H
#define CLIRR_ALGO_ROUND_H

#include "algo/dgraph.h"
#include "prim/worklist.h"

typedef struct clirr_round_kernels {
    clirr_push_mode push;                /* as asked: a mode, or AUTO */
    cl_kernel kernel[CLIRR_PUSH_AUTO];   /* per concrete mode; NULL = unused */
    size_t wg;                           /* work-group size */
} clirr_round_kernels;

/* Build kernel `name` of `file` (with `options`) for the modes `push` may
 * use. The kernels belong to the context. */
int clirr_round_kernels_get(clirr_ctx *ctx, const char *file, const char *options,
                            const char *name, clirr_push_mode push, unsigned wg_want,
                            clirr_round_kernels *rk, clirr_error *err);

/* Set argument idx of every kernel. */
int clirr_round_kernels_arg(clirr_round_kernels *rk, cl_uint idx, size_t size, const void *value,
                            clirr_error *err);
#define CLIRR_ROUND_ARG(rk, idx, var) clirr_round_kernels_arg((rk), (idx), sizeof(var), &(var), err)

/* Bind the graph to every kernel from argument `first` (see
 * clirr_dgraph_bind); *next is the next free argument. */
int clirr_round_kernels_bind_graph(clirr_round_kernels *rk, const clirr_dgraph *dg, cl_uint first,
                                   bool with_weight, cl_uint *next, clirr_error *err);

/* One round: the mode for it (under AUTO the policy's choice from the
 * worklist's size), then clirr_worklist_round with that mode's kernel. */
int clirr_round_run(clirr_ctx *ctx, clirr_round_kernels *rk, clirr_worklist *wl, cl_uint first,
                    clirr_error *err);

#endif
