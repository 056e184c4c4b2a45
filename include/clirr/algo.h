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
    CLIRR_VARIANT_COUNT_
} clirr_variant;

/* "topo", "data". */
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
} clirr_algo_opts;

/* Defaults: data-driven, push mode chosen per round (auto), template and
 * lb_thres chosen by the policy, source 0. */
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
} clirr_algo_stats;

/* The nested-loop template and lb_THRES a run with opts uses on a device:
 * the user's choice, or the policy's when opts->template_auto, with the
 * reason (for --explain and reports). */
void clirr_algo_plan(const clirr_caps *caps, const clirr_algo_opts *opts, clirr_template *tmpl,
                     uint32_t *lb_thres, const char **reason);

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

#ifdef __cplusplus
}
#endif
#endif
