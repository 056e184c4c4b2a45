/* cl/sssp.cl - single-source shortest paths over non-negative integer
 * weights (data-driven vs topology-driven study, shared/papers/000).
 *
 * dist[v] is the shortest known distance, CLIRR_NONE = unreached. With
 * -DCLIRR_UNIT_WEIGHTS every arc weighs 1 and `weight` is not read.
 *   sssp_topo  every reached vertex relaxes all its arcs every round with a
 *              plain (non-atomic) store: a racing larger value may
 *              overwrite a smaller one, but the changed flag guarantees
 *              another round in which the smaller one is found again
 *              (section IV.A: distances are monotone).
 *   sssp_data  the worklist's vertices relax their arcs with atomic_min and
 *              push every vertex they improve.
 * A distance that would not fit 32 bits sets status[1] (the host reports
 * it) instead of wrapping. */
#include "common/compat.clh"
#include "common/worklist.clh"

#ifdef CLIRR_UNIT_WEIGHTS
#define WEIGHT(e) 1u
#else
#define WEIGHT(e) ((uint)weight[e])
#endif

/* d + w, or CLIRR_NONE (and the overflow flag) when it does not fit. */
inline uint relax_sum(uint d, uint w, volatile __global uint *overflow)
{
    if (w >= CLIRR_NONE - d) {
        *overflow = 1;
        return CLIRR_NONE;
    }
    return d + w;
}

/* status[0] = changed, status[1] = overflow. */
__kernel void sssp_topo(__global const uint *row, __global const uint *col,
                        __global const int *weight, volatile __global uint *dist,
                        const uint n, volatile __global uint *status)
{
    for (uint u = get_global_id(0); u < n; u += get_global_size(0)) {
        uint du = dist[u];
        if (du == CLIRR_NONE)
            continue;
        for (uint e = row[u]; e < row[u + 1]; e++) {
            uint v = col[e];
            uint nd = relax_sum(du, WEIGHT(e), &status[1]);
            if (nd < dist[v]) {
                dist[v] = nd;
                status[0] = 1;
            }
        }
    }
}

/* status[1] = overflow. */
__kernel void sssp_data(__global const uint *row, __global const uint *col,
                        __global const int *weight, volatile __global uint *dist,
                        volatile __global uint *status, WL_PARAMS)
{
    WL_BEGIN;
    for (uint i = get_global_id(0); i < wl_in_size; i += get_global_size(0)) {
        uint u = wl_in[i];
        uint du = dist[u];
        for (uint e = row[u]; e < row[u + 1]; e++) {
            uint v = col[e];
            uint nd = relax_sum(du, WEIGHT(e), &status[1]);
            if (nd == CLIRR_NONE)
                continue;
            uint old = atomic_min(&dist[v], nd);
            /* A rerun pushes again what the overflowed attempt improved:
             * then dist[v] already equals nd. */
            if (nd < old || (wl_rerun && nd == old))
                wl_push(v);
        }
    }
    WL_END;
}
