/* host/algo/run.h - what every algorithm run does around its kernels:
 * check the source vertex, time the run, fill the common statistics. */
#ifndef CLIRR_ALGO_RUN_H
#define CLIRR_ALGO_RUN_H

#include "clirr/algo.h"
#include "prim/worklist.h"
#include "runtime/runtime.h"
#include "templates/nested_loop.h"

/* CLIRR_ERR_USAGE unless source < g->n. */
int clirr_run_check_source(const clirr_graph *g, uint32_t source, clirr_error *err);

/* CLIRR_ERR_UNSUPPORTED naming `what` unless the device has fp64. */
int clirr_run_require_fp64(clirr_ctx *ctx, const char *what, clirr_error *err);

/* Start timing: clears the context's kernel/transfer times, notes the
 * wall clock. Returns the start time. */
uint64_t clirr_run_start(clirr_ctx *ctx);

/* Stop timing: waits for the device and fills total/kernel/transfer/
 * launches of stats. */
int clirr_run_stop(clirr_ctx *ctx, uint64_t start, clirr_algo_stats *stats, clirr_error *err);

/* reached and edges_traversed from a per-vertex result where `unreached`
 * marks vertices the run did not reach. */
void clirr_run_count_reached(const clirr_graph *g, const uint32_t *value, uint32_t unreached,
                             clirr_algo_stats *stats);

/* The nested-loop template of a run of algo ("bfs", ...) over a graph of n
 * vertices: the user's choice or the policy's (template, lb_thres, reason), work-group
 * sizes, and the loop's sum size (0 for a side-effect loop). Records the
 * choice in stats. */
void clirr_run_template(const clirr_caps *caps, const char *algo, const clirr_algo_opts *opts,
                        uint32_t n, size_t reduce_size, clirr_nl_config *cfg, clirr_algo_stats *stats);

/* The worklist's statistics (grows, reruns, largest size, rounds per push
 * mode) into stats. */
void clirr_run_worklist_stats(const clirr_worklist *wl, clirr_algo_stats *stats);

#endif
