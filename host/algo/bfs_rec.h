/* host/algo/bfs_rec.h - the recursion study's unordered recursive BFS
 * (shared/papers/001, III.C, Fig. 9) on a device with device-side enqueue:
 * bfs's rec-naive and rec-hier variants (host/algo/bfs.c). Kernels
 * cl/bfs_rec.cl. */
#ifndef CLIRR_ALGO_BFS_REC_H
#define CLIRR_ALGO_BFS_REC_H

#include "algo/dgraph.h"
#include "clirr/algo.h"

typedef struct bfs_rec bfs_rec;

typedef struct bfs_rec_config {
    bool hier;         /* rec-hier, else rec-naive */
    uint32_t streams;  /* extra on-device queues the nested launches spread over */
    bool count;        /* count atomics and visits (a -DBR_COUNT=1 build) */
    uint32_t limit;    /* nested launches at most this deep */
    unsigned child_wg; /* work-items a child work-group (0 = 64) */
} bfs_rec_config;

/* Build, create buffers and bind the graph and the level array. */
int bfs_rec_prepare(clirr_ctx *ctx, const clirr_graph *g, const clirr_dgraph *dg, cl_mem level,
                    const bfs_rec_config *cfg, bfs_rec **out, clirr_error *err);
/* From source, whose level is set already; level[] unreached = NONE. */
int bfs_rec_run(bfs_rec *r, uint32_t source, clirr_stats *stats, clirr_error *err);
void bfs_rec_extras(const bfs_rec *r, clirr_extras *x);
void bfs_rec_release(bfs_rec *r);

#endif
