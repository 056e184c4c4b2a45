/* host/algo/round.h - the nested loop of a data-driven round, instantiated
 * for each push mode the run may use (one, or two under --push auto) with
 * the run's template, and the choice of one per round. */
#ifndef CLIRR_ALGO_ROUND_H
#define CLIRR_ALGO_ROUND_H

#include "algo/dgraph.h"
#include "clirr/algo.h"
#include "prim/worklist.h"
#include "templates/nested_loop.h"

typedef struct clirr_round_loop {
    clirr_push_mode push;            /* as asked: a mode, or AUTO */
    clirr_nl nl[CLIRR_PUSH_AUTO];    /* per concrete push mode */
    bool used[CLIRR_PUSH_AUTO];
} clirr_round_loop;

/* Build loop `name` of `file` (with `options`) for the modes `push` may
 * use. nparams counts the loop's parameters including the 8 of WL_PARAMS,
 * which come last. */
int clirr_round_loop_init(clirr_round_loop *rl, clirr_ctx *ctx, const char *file,
                          const char *options, const char *name, cl_uint nparams,
                          uint32_t max_items, clirr_push_mode push, const clirr_nl_config *cfg,
                          clirr_error *err);

/* Set argument idx of every kernel. */
int clirr_round_loop_arg(clirr_round_loop *rl, cl_uint idx, size_t size, const void *value,
                         clirr_error *err);
#define CLIRR_ROUND_ARG(rl, idx, var) clirr_round_loop_arg((rl), (idx), sizeof(var), &(var), err)

/* Bind the graph to every kernel from argument 0; *next is the next one. */
int clirr_round_loop_bind_graph(clirr_round_loop *rl, const clirr_dgraph *dg, bool with_weight,
                                cl_uint *next, clirr_error *err);

/* One round over the worklist: the push mode for it (under AUTO the
 * policy's choice from the worklist's size), rerun on overflow. */
int clirr_round_loop_run(clirr_round_loop *rl, clirr_worklist *wl, clirr_error *err);

/* The first instantiation (for sizes and child-launch counts). */
clirr_nl *clirr_round_loop_any(clirr_round_loop *rl);

/* Children enqueued by nested templates, over all push modes. */
int clirr_round_loop_child_launches(clirr_round_loop *rl, uint64_t *count, clirr_error *err);

void clirr_round_loop_release(clirr_round_loop *rl);

/* The loop of a run with topology- and data-driven variants (BFS, SSSP):
 * one nested loop over all vertices, or the per-push-mode round loop. */
typedef struct clirr_variant_loop {
    bool topo;
    clirr_nl nl;         /* topology-driven */
    clirr_round_loop rl; /* data-driven */
} clirr_variant_loop;

/* Build the loop of opts->variant from `file`: `topo_name` with
 * topo_params parameters, or `data_name` with data_params (WL_PARAMS
 * last); records the work-group size in stats. */
int clirr_variant_loop_init(clirr_variant_loop *vl, clirr_ctx *ctx, const char *file,
                            const char *options, const char *topo_name, cl_uint topo_params,
                            const char *data_name, cl_uint data_params, uint32_t max_items,
                            const clirr_algo_opts *opts, const clirr_nl_config *cfg,
                            clirr_algo_stats *stats, clirr_error *err);

/* Children the loop's nested templates enqueued. */
int clirr_variant_loop_child_launches(clirr_variant_loop *vl, uint64_t *count, clirr_error *err);

void clirr_variant_loop_release(clirr_variant_loop *vl);

#endif
