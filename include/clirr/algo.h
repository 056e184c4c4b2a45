/* clirr/algo.h - the algorithms clirr runs on a device, and what a run
 * reports. Each takes an open context and a host graph, uploads it, runs,
 * and writes the result into caller-provided arrays of n entries. */
#ifndef CLIRR_ALGO_H
#define CLIRR_ALGO_H

#include <stddef.h>
#include <stdint.h>

#include "clirr/device.h"
#include "clirr/graph.h"
#include "clirr/templates.h"
#include "clirr/worklist.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum clirr_variant {
    CLIRR_VARIANT_TOPO = 0, /* every item every round, a changed flag */
    CLIRR_VARIANT_DATA,     /* a worklist of active items */
    CLIRR_VARIANT_JP,       /* coloring only: Jones-Plassmann, hash priorities */
    CLIRR_VARIANT_COUNT_
} clirr_variant;

/* "topo", "data", "jp". */
const char *clirr_variant_name(clirr_variant v);
/* Returns 0 and sets *v, or -1 for an unknown name. */
int clirr_variant_parse(const char *name, clirr_variant *v);

typedef struct clirr_algo_opts {
    clirr_variant variant;
    clirr_push_mode push;      /* data-driven worklist push mode */
    uint32_t source;           /* BFS/SSSP source vertex */
    size_t wl_capacity;        /* initial worklist capacity; 0 = default */
    unsigned wg_size;          /* work-group size; 0 = device default */
    bool template_auto;        /* let the policy choose template and lb_thres */
    clirr_template tmpl;       /* the nested-loop template, unless auto */
    uint32_t lb_thres;         /* large-item threshold; 0 = SIMD width */
    unsigned group_wg;         /* block-mapped work-group size; 0 = 64 */
    uint32_t bc_sources;       /* BC: sources sampled (0 = every vertex) */
    double damping;            /* PageRank damping factor (0.85) */
    double tol;                /* PageRank: stop when the L1 change < tol */
    uint32_t max_iter;         /* PageRank: at most this many iterations */
    const double *x;           /* SpMV: the vector (n values), NULL = ones */
    bool color_heuristic;      /* coloring: the larger degree keeps its color */
    bool color_bitset;         /* coloring: first-fit by find-first-set */
    bool color_fuse;           /* coloring: recolor losers while resolving */
    unsigned coarsen;          /* thread coarsening: items per work-item (0 = 1) */
} clirr_algo_opts;

/* Defaults: data-driven, push mode chosen per round (auto), template and
 * lb_thres chosen by the policy, source 0, BC from every vertex, PageRank
 * damping 0.85, tol 1e-9, at most 1000 iterations, SpMV with x = ones,
 * coloring with the heuristic, bitset and fusion refinements on. */
void clirr_algo_opts_default(clirr_algo_opts *opts);

typedef struct clirr_algo_stats {
    const char *template_name;  /* how the inner loop met the device */
    uint32_t lb_thres;          /* the template's large-item threshold */
    const char *template_reason; /* why this template (policy or user) */
    uint64_t child_launches;    /* kernels enqueued from the device */
    unsigned wg_size;           /* work-group size used */
    uint32_t iterations;        /* rounds (kernel sweeps) to the fixed point */
    uint64_t total_ns;          /* upload + compute + download, wall clock */
    uint64_t kernel_ns;         /* kernels, from profiling events */
    uint64_t transfer_ns;       /* host<->device copies, from profiling */
    uint64_t launches;          /* kernels enqueued */
    uint64_t edges_traversed;   /* arcs out of reached vertices (for TEPS) */
    uint32_t reached;           /* vertices reached from the source */
    uint32_t wl_grows;          /* worklist capacity increases */
    uint32_t wl_reruns;         /* rounds rerun after an overflow */
    uint64_t wl_max;            /* largest worklist seen */
    uint32_t wl_rounds[CLIRR_PUSH_AUTO]; /* data-driven rounds per push mode */
    uint32_t colors;            /* coloring: distinct colors used */
    uint32_t conflicts[64];     /* coloring: conflicts of the first 64 rounds */
} clirr_algo_stats;

/* The nested-loop template and lb_THRES a run of algorithm algo ("bfs",
 * "color", ...; NULL = any) with opts uses on a device for a graph of n
 * vertices: the user's choice, or the policy's when opts->template_auto,
 * with the reason (for --explain and reports). */
void clirr_algo_plan(const clirr_caps *caps, const char *algo, const clirr_algo_opts *opts,
                     uint32_t n, clirr_template *tmpl, uint32_t *lb_thres, const char **reason);

/* Level of every vertex from opts->source; -1 = unreached. */
#define CLIRR_BFS_UNREACHED (-1)
int clirr_bfs(clirr_ctx *ctx, const clirr_graph *g,
              const clirr_algo_opts *opts, int32_t *level,
              clirr_algo_stats *stats, clirr_error *err);

/* Shortest distance of every vertex from opts->source; CLIRR_SSSP_INF =
 * unreached. An unweighted graph has unit weights. Negative weights, or
 * weights whose path sums could exceed 32 bits, give CLIRR_ERR_INPUT. */
#define CLIRR_SSSP_INF UINT32_MAX
int clirr_sssp(clirr_ctx *ctx, const clirr_graph *g,
               const clirr_algo_opts *opts, uint32_t *dist,
               clirr_algo_stats *stats, clirr_error *err);

/* Betweenness centrality (Brandes, unweighted, directed, scores over
 * ordered pairs) from opts->bc_sources sources (see clirr_bc_sources), a
 * BFS phase with shortest-path counts and a dependency phase, each level a
 * nested loop through the run's template. bc gets n scores. */
int clirr_bc(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, double *bc,
             clirr_algo_stats *stats, clirr_error *err);

/* The sources BC uses for a sample of k of n vertices: evenly spaced,
 * v_i = floor(i * n / k); k == 0 or k >= n means every vertex. Writes them
 * to out (room for n) and returns how many. */
uint32_t clirr_bc_sources(uint32_t n, uint32_t k, uint32_t *out);

/* PageRank, pull over the transpose: damping opts->damping, dangling mass
 * spread uniformly, iterated until the L1 change < opts->tol or
 * opts->max_iter iterations. rank gets n scores summing to 1. Needs fp64. */
int clirr_pagerank(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, double *rank,
                   clirr_algo_stats *stats, clirr_error *err);

/* Graph coloring of g read as undirected (symmetrized on the host; self-
 * loops ignored): speculative greedy, topology-driven (opts->variant topo)
 * or data-driven (data), with the coloring study's refinements switched by
 * opts->color_* and opts->coarsen, or Jones-Plassmann with hash priorities
 * (jp). color gets n colors >= 1; stats->colors and ->conflicts. */
int clirr_color(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, uint32_t *color,
                clirr_algo_stats *stats, clirr_error *err);

/* Number of distinct colors in color[0..n). */
uint32_t clirr_color_count(uint32_t n, const uint32_t *color);

/* y = A x over the graph's matrix (values, else weights, else ones), one
 * row a nested-loop item; x = opts->x or ones. Needs fp64. */
int clirr_spmv(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, double *y,
               clirr_algo_stats *stats, clirr_error *err);

#ifdef __cplusplus
}
#endif
#endif
