/* host/algo/run.h - what algorithm files share around their kernels: the
 * loop configuration a plan asks for, statistics from results and
 * worklists, binding arguments by name (the kernel argument contract of
 * cl/common/kargs.h), and the typed entry points' path through the
 * registry. */
#ifndef CLIRR_ALGO_RUN_H
#define CLIRR_ALGO_RUN_H

#include "cl/common/kargs.h"
#include "clirr/algo.h"
#include "prim/worklist.h"
#include "runtime/runtime.h"
#include "templates/nested_loop.h"

/* The nested-loop configuration of plan for a loop whose per-item sum has
 * reduce_size bytes (0 for a side-effect loop). */
clirr_nl_config clirr_plan_loop(const clirr_plan *plan, size_t reduce_size);

/* Set argument `name` of the kernels of nested loop nl, whose parameter
 * list is struct `tag` (CLIRR_KARGS_STRUCT), to variable var. Needs a
 * clirr_error *err in scope. */
#define CLIRR_NL_SET(nl, tag, name, var)                                       \
    clirr_nl_arg((nl), CLIRR_KARG(tag, name), sizeof(var), &(var), err)

/* reached and edges_traversed from a per-vertex result where `unreached`
 * marks vertices the run did not reach. */
void clirr_run_count_reached(const clirr_graph *g, const uint32_t *value, uint32_t unreached,
                             clirr_stats *stats);

/* The worklist's statistics (grows, reruns, largest size, rounds per push
 * mode) into stats, and zeroed for the next trial. */
void clirr_run_worklist_stats(clirr_worklist *wl, clirr_stats *stats);

/* The shortest-path tree of a BFS (levels) or SSSP result from source
 * (clirr_ref_tree) to path, one line per vertex: its parent, or -1 (the
 * source, unreached ones); whole or not at all. Nothing when path is NULL. */
int clirr_run_write_tree(const char *path, const clirr_graph *g, uint32_t source, const void *result,
                         bool levels, clirr_error *err);

/* The source vertex of a single-source plan on g (its spec's first root). */
int clirr_run_source(const clirr_plan *plan, const clirr_graph *g, uint32_t *source,
                     clirr_error *err);

/* A typed entry point: registry algorithm `name` on g from source with
 * every other choice automatic. */
int clirr_run_typed(clirr_ctx *ctx, const char *name, const clirr_graph *g, uint32_t source,
                    void *result, clirr_stats *stats, clirr_error *err);

#endif
