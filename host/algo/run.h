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

/* Cut g's vertices into nranges ranges of about equal vertices plus arcs
 * (a hub's range holds few vertices), bounds[0..nranges]; every bound but
 * the last a multiple of align (so that a range owns whole bitmap words). */
void clirr_run_vertex_ranges(const clirr_graph *g, uint32_t nranges, uint32_t align, uint32_t *bounds);

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

/* Per-round traces (clirr/trace.h; host/algo/trace.c): a round's row is
 * its kernel time and launches between clirr_trace_begin and
 * clirr_trace_end, which waits for the device and appends r. */
typedef struct clirr_trace_mark {
    uint64_t kernel_ns, launches;
} clirr_trace_mark;
int clirr_trace_begin(clirr_ctx *ctx, clirr_trace_mark *m, clirr_error *err);
int clirr_trace_end(clirr_ctx *ctx, clirr_trace *t, const clirr_trace_mark *m, clirr_trace_round *r,
                    clirr_error *err);
/* *arcs = the arcs out of vertices i < n whose values[i] (on the device)
 * equals match, or (all_but) differs from it; row: the host CSR. */
int clirr_trace_arcs(clirr_ctx *ctx, cl_mem values, const uint32_t *row, uint32_t n, uint32_t match,
                     bool all_but, uint64_t *arcs, clirr_error *err);
/* A topology-driven round over n items starts: *r gets kind "topo", n
 * items in and the arcs clirr_trace_arcs counts, *m the marks of
 * clirr_trace_begin. Nothing when t is NULL. */
int clirr_trace_topo_begin(clirr_ctx *ctx, const clirr_trace *t, cl_mem values, const uint32_t *row, uint32_t n,
                           uint32_t match, bool all_but, clirr_trace_round *r, clirr_trace_mark *m, clirr_error *err);

/* A typed entry point: registry algorithm `name` on g from source with
 * every other choice automatic. */
int clirr_run_typed(clirr_ctx *ctx, const char *name, const clirr_graph *g, uint32_t source,
                    void *result, clirr_stats *stats, clirr_error *err);

#endif
