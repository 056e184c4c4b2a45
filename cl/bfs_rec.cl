/* cl/bfs_rec.cl - the recursion study's unordered recursive BFS
 * (shared/papers/001, III.C, Fig. 9) with OpenCL C 2.0 device-side
 * enqueue; host side host/algo/bfs_rec.c. A visit of v at level l lowers
 * each neighbour's level to l + 1 with atomic_min and recurses into the
 * neighbours it improved; a vertex may be visited again whenever its
 * level drops, and a visit whose vertex has dropped below l since it was
 * enqueued stops at once (the better visit covers it).
 *   rec-naive  one work-group a visit, work-items over v's arcs, a
 *              one-work-group child kernel per improved neighbour;
 *   rec-hier   a work-group per arc of v: one work-item lowers the
 *              neighbour u, the work-group checks u's own neighbours for
 *              one that u would improve (a local flag), and then one
 *              child kernel, a grid over u's arcs, is enqueued.
 * Deeper than `limit` nested launches, or on a failed enqueue, the vertex
 * goes to defer[] and the host starts it again. Levels are uint, NONE =
 * unreached. Only where the device has device-side enqueue: elsewhere
 * this file holds no kernel (the variants are refused at planning). */
#include "common/compat.clh"
#include "common/kargs.h"
#include "bfs_rec.def"

#ifndef BR_COUNT
#define BR_COUNT 0
#endif

#if CLIRR_HAS_DEVICE_ENQUEUE

#include "nested/streams.clh"

#define BR_PARAMS                                                              \
    __global const uint *row, __global const uint *col, __global uint *level,  \
        __global uint *counters, __global uint *defer, __global uint *dmark, uint limit, uint child_wg, \
        uint streams, queue_t stream1, queue_t stream2, queue_t stream3, queue_t stream4
#define BR_PASS row, col, level, counters, defer, dmark, limit, child_wg, streams, stream1, stream2, stream3, stream4

#define BR_PICK_QUEUE(q, k) CLIRR_PICK_STREAM(q, k)

/* Once while it waits: the host's visit reads its best level then. */
static void br_defer(BR_PARAMS, uint u)
{
    if (atomic_xchg(&dmark[u], 1u) == 0u)
        defer[atomic_inc(&counters[BR_DEFERRED])] = u;
}

/* Lower u to lv; true when this call improved it. */
static bool br_lower(BR_PARAMS, uint u, uint lv)
{
#if BR_COUNT
    atomic_inc(&counters[BR_ATOMICS]);
#endif
    return atomic_min(&level[u], lv) > lv;
}

static void br_naive_visit(BR_PARAMS, uint v, uint lv, uint depth)
{
    if (level[v] < lv) /* improved since: a better visit runs */
        return;
#if BR_COUNT
    if (get_local_id(0) == 0)
        atomic_inc(&counters[BR_NODES]);
#endif
    for (uint k = row[v] + get_local_id(0); k < row[v + 1]; k += get_local_size(0)) {
        uint u = col[k];
        if (!br_lower(BR_PASS, u, lv + 1) || row[u + 1] == row[u])
            continue;
        int rc = -1;
        BR_PICK_QUEUE(q, k);
        if (depth + 1 < limit)
            rc = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(child_wg, child_wg),
                                ^{ br_naive_visit(BR_PASS, u, lv + 1, depth + 1); });
        if (rc == CLK_SUCCESS)
            atomic_inc(&counters[BR_LAUNCHES]);
        else
            br_defer(BR_PASS, u);
    }
}

/* A grid over v's arcs, one work-group each; flag[0] the improvement,
 * flag[1] an improvable neighbour of u. */
static void br_hier_visit(BR_PARAMS, uint v, uint lv, uint depth, __local uint *flag)
{
    uint u = col[row[v] + get_group_id(0)], lid = get_local_id(0);
    if (lid == 0) {
        /* v improved since this visit was enqueued: a better one runs. */
        flag[0] = level[v] >= lv && br_lower(BR_PASS, u, lv + 1);
        flag[1] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!flag[0])
        return;
    for (uint k = row[u] + lid; k < row[u + 1]; k += get_local_size(0))
        if (level[col[k]] > lv + 2)
            flag[1] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid != 0 || !flag[1])
        return;
#if BR_COUNT
    atomic_inc(&counters[BR_NODES]);
#endif
    int rc = -1;
    BR_PICK_QUEUE(q, get_group_id(0));
    if (depth + 1 < limit)
        rc = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT,
                            ndrange_1D((size_t)(row[u + 1] - row[u]) * child_wg, child_wg),
                            ^(__local void *f) { br_hier_visit(BR_PASS, u, lv + 1, depth + 1, (__local uint *)f); },
                            (uint)(2 * sizeof(uint)));
    if (rc == CLK_SUCCESS)
        atomic_inc(&counters[BR_LAUNCHES]);
    else
        br_defer(BR_PASS, u);
}

/* One work-group: the arcs of `node`. */
__kernel void bfs_rec_naive(CLIRR_KPARAMS(BR_REC_ARGS))
{
    dmark[node] = 0u; /* the host runs it: it may wait again */
    br_naive_visit(BR_PASS, node, level[node], 0);
}

/* A work-group per arc of `node`. */
__kernel void bfs_rec_hier(CLIRR_KPARAMS(BR_REC_ARGS))
{
    dmark[node] = 0u; /* the host runs it: it may wait again */
    __local uint flag[2];
    br_hier_visit(BR_PASS, node, level[node], 0, flag);
}

#endif
