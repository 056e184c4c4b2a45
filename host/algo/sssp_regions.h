/* host/algo/sssp_regions.h - the `regions` variant of SSSP (and of BFS,
 * with every arc 1): every launch, each range of vertices has its pending
 * vertices settled by a worker of its own (a work-item nearest first, or
 * a work-group in rounds) under a bound the host moves up from launch to
 * launch (host/algo/sssp_regions.c, cl/sssp.cl sssp_region and
 * sssp_region_group). */
#ifndef CLIRR_ALGO_SSSP_REGIONS_H
#define CLIRR_ALGO_SSSP_REGIONS_H

#include "algo/dgraph.h"
#include "clirr/algo.h"
#include "clirr/trace.h"
#include "runtime/runtime.h"

/* Who settles a range: a work-item with a queue (CPUs), or a work-group in
 * rounds with its queue in local memory (GPUs). */
typedef enum { SSSP_REGIONS_AUTO, SSSP_REGIONS_ITEM, SSSP_REGIONS_GROUP } sssp_regions_worker;
extern const char *const sssp_regions_worker_names[];
#define SSSP_REGIONS_WORKER_HELP                                                                              \
    "regions: who settles a range: item, a work-item in a queue of its own, in buckets of the bound; group, a "   \
    "work-group in rounds with its queue in local memory (auto: item on CPU devices, else group)"
#define SSSP_REGIONS_RANGES_HELP                                                                              \
    "regions: how many vertex ranges (0: one a 8192 vertices for work-items, 1 to 8 a compute unit; for "       \
    "work-groups the square root of the vertices over 32, over 8 when weighted, at most 2 a compute unit; at "  \
    "most one a 32-vertex word)"

typedef struct sssp_regions {
    clirr_ctx *ctx;
    cl_kernel kernel;          /* context-owned */
    cl_mem pend, fifo, bounds, info;
    cl_mem flags;              /* a word a range, "look at its bits again" */
    cl_mem order;              /* item: the range of each ticket */
    sssp_regions_worker worker; /* ITEM or GROUP */
    size_t wg;                 /* group: the work-group's size */
    size_t items;              /* item: the work-items a launch, drawing ranges */
    uint32_t n, nregions;
    uint32_t delta;            /* the bound: the least pending distance plus this */
    uint32_t launches;         /* of the last run */
} sssp_regions;

/* Build the kernel over g's device copy dg (every arc 1 when
 * unit_weights), distances dist and status flags status, and the regions'
 * buffers; delta 0 picks the rule's (by worker: items 32 mean arc weights,
 * 128 on thin graphs, 4 over the mean out-degree on graphs with hubs, 128
 * hops unweighted; groups 10, 64 hops); worker
 * AUTO: items on CPU devices, else groups;
 * wg: the groups' work-group size (0: the default); ranges: how many
 * (0: the rule's, by worker; at most one a 32-vertex word). */
int sssp_regions_prepare(sssp_regions *r, clirr_ctx *ctx, const clirr_graph *g, const clirr_dgraph *dg,
                         cl_mem dist, cl_mem status, bool unit_weights, uint32_t delta,
                         sssp_regions_worker worker, size_t wg, uint32_t ranges, clirr_error *err);
/* Settle every vertex from source (dist holds NONE but source's 0); with
 * a trace, one launch a batch and a row each (kind "regions", items in and
 * out: the pending vertices counted before and after). */
int sssp_regions_run(sssp_regions *r, uint32_t source, clirr_trace *trace, clirr_error *err);
void sssp_regions_release(sssp_regions *r);
/* Whether auto takes regions for g (BFS and SSSP) on a CPU device (cpu)
 * or another: at most 8 neighbours a vertex (roads, grids: thin fronts,
 * many rounds) and 2^16 vertices or more on CPUs, 2^18 elsewhere (below,
 * the launches outweigh the work: on a GPU near-far's one work-group
 * takes luxembourg_osm's 114,599 vertices faster). */
bool sssp_regions_suits(const clirr_graph *g, bool cpu);
/* Whether SSSP's auto takes regions' work-items for g on a CPU device
 * although g has hubs: weighted, 2^16 vertices or more, the largest
 * out-degree at least REGIONS_HUB_SKEW times the mean (whose bound then
 * is four mean weights over the mean out-degree: auto_delta). */
bool sssp_regions_suits_hubs(const clirr_graph *g);
/* delta as `weights` mean arc weights of g (NONE unweighted): the shared
 * rule of SSSP's buckets and bounds. */
uint32_t sssp_weights_delta(const clirr_graph *g, double weights);
/* The run's extras: regions (ranges), worker, delta. */
void sssp_regions_extras(const sssp_regions *r, clirr_extras *x);

#endif
