/* cl/bfs.cl - breadth-first search levels (data-driven vs topology-driven
 * study, shared/papers/000, sections III-IV).
 *
 * level[v] is the hop count from the source, CLIRR_NONE = unreached (the
 * host turns that into -1). Rounds are level-synchronous: round `depth`
 * expands the vertices at level depth.
 *   bfs_topo  every vertex every round; a vertex at the current level
 *             expands, a changed flag says whether another round is needed.
 *   bfs_data  only the worklist (the frontier) expands and pushes the
 *             vertices it discovers.
 * Racing writers store the same level, so no atomics guard level[]. */
#include "common/compat.clh"
#include "common/worklist.clh"

__kernel void bfs_topo(__global const uint *row, __global const uint *col,
                       __global uint *level, const uint n, const uint depth,
                       volatile __global uint *changed)
{
    for (uint u = get_global_id(0); u < n; u += get_global_size(0)) {
        if (level[u] != depth)
            continue;
        for (uint e = row[u]; e < row[u + 1]; e++) {
            uint v = col[e];
            if (level[v] == CLIRR_NONE) {
                level[v] = depth + 1;
                *changed = 1;
            }
        }
    }
}

__kernel void bfs_data(__global const uint *row, __global const uint *col,
                       __global uint *level, const uint depth, WL_PARAMS)
{
    WL_BEGIN;
    for (uint i = get_global_id(0); i < wl_in_size; i += get_global_size(0)) {
        uint u = wl_in[i];
        for (uint e = row[u]; e < row[u + 1]; e++) {
            uint v = col[e];
            uint lv = level[v];
            /* A rerun pushes again what the overflowed attempt discovered. */
            if (lv == CLIRR_NONE || (wl_rerun && lv == depth + 1)) {
                level[v] = depth + 1;
                wl_push(v);
            }
        }
    }
    WL_END;
}
