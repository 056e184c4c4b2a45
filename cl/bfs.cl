/* cl/bfs.cl - breadth-first search levels (data-driven vs topology-driven
 * study, shared/papers/000, sections III-IV), each round a nested loop over
 * vertices and their arcs run through the templates of
 * cl/templates/nested_loop.clh.
 *
 * level[v] is the hop count from the source, CLIRR_NONE = unreached (the
 * host turns that into -1).
 *   bfs_topo  the study's topology-driven BFS (section IV.A): every reached
 *             vertex offers its level + 1 to its out-neighbours every
 *             sweep with a plain store. A racing larger value may
 *             overwrite a smaller one, but the changed flag guarantees
 *             another sweep in which the smaller one is found again
 *             (levels only fall); a sweep may advance a level by several
 *             hops, as it reads levels that sweep already lowered.
 * The other kernels are level-synchronous: round `depth` expands the
 * vertices at level depth.
 *   bfs_level every vertex every round; a vertex at the current level
 *             expands, a changed flag says whether another round is needed.
 *   bfs_data  only the worklist (the frontier) expands and pushes the
 *             vertices it discovers.
 *   bfs_local the same rounds, many in one launch of one work-group, while
 *             the frontier is small (templates/local_rounds.clh).
 *   bfs_bottom_up, bfs_frontier_arcs  direction-optimizing BFS (below).
 * Racing writers store the same level, so no atomics guard level[]. */
#include "common/compat.clh"
#include "common/worklist.clh"
#include "bfs.def"

/* An unreached vertex offers nothing: a sweep may read a level just before
 * another work-item sets it (NL_PREP and NL_COUNT read it apart). */
#define NL_NAME bfs_topo
#define NL_PARAMS CLIRR_KPARAMS(BFS_TOPO_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(u) (level[u] == CLIRR_NONE ? 0u : row[(u) + 1] - row[u])
#define NL_PREP(u)                                                             \
    uint lu = level[u];                                                        \
    uint offer = lu == CLIRR_NONE ? CLIRR_NONE : lu + 1;
#define NL_WORK(u, j)                                                          \
    {                                                                          \
        uint v = col[row[u] + (j)];                                            \
        if (offer < level[v]) {                                                \
            level[v] = offer;                                                  \
            *changed = 1;                                                      \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

#define NL_NAME bfs_level
#define NL_PARAMS CLIRR_KPARAMS(BFS_LEVEL_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(u) (level[u] == depth ? row[(u) + 1] - row[u] : 0u)
#define NL_WORK(u, j)                                                          \
    {                                                                          \
        uint v = col[row[u] + (j)];                                            \
        if (level[v] == CLIRR_NONE) {                                          \
            level[v] = depth + 1;                                              \
            *changed = 1;                                                      \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* A data-driven round's work on arc j of u, pushing with PUSH. A rerun
 * pushes again what the overflowed attempt discovered. */
#define BFS_DISCOVER(u, j, PUSH)                                               \
    {                                                                          \
        uint v = col[row[u] + (j)];                                            \
        uint lv = level[v];                                                    \
        if (lv == CLIRR_NONE || (wl_rerun && lv == depth + 1)) {               \
            level[v] = depth + 1;                                              \
            PUSH(v);                                                           \
        }                                                                      \
    }

#define NL_NAME bfs_data
#define NL_PARAMS CLIRR_KPARAMS(BFS_DATA_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) wl_in[k]
#define NL_COUNT(u) (row[(u) + 1] - row[u])
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define NL_WORK(u, j) BFS_DISCOVER(u, j, wl_push)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* Small frontiers: many levels in one work-group (local_rounds.clh). */
#define LR_NAME bfs_local
#define LR_PARAMS CLIRR_KPARAMS(BFS_LOCAL_ARGS)
#define LR_COUNT(u) (row[(u) + 1] - row[u])
#define LR_WORK(u, j) BFS_DISCOVER(u, j, lr_push)
#define LR_ROUND_VAR depth
#include "templates/local_rounds.clh"

/* Direction-optimizing BFS (Beamer, Asanovic and Patterson, SC 2012): while
 * the frontier's arcs are many, a bottom-up sweep lets every unvisited
 * vertex look for a parent at the current level among its in-arcs and stop
 * at the first, instead of the frontier pushing along all of its arcs. Both
 * kernels add the out-arcs of what they count to info (a 64-bit sum in two
 * words), which the host's switching rule reads. */
inline void bfs_add_arcs(volatile __global uint *info, ulong arcs)
{
    uint lo = (uint)arcs, hi = (uint)(arcs >> 32);
    if (lo && atomic_add(&info[1], lo) > UINT_MAX - lo)
        hi++;
    if (hi)
        atomic_add(&info[2], hi);
}

__kernel void bfs_bottom_up(CLIRR_KPARAMS(BFS_BOTTOM_UP_ARGS))
{
    uint found = 0;
    ulong arcs = 0;
    for (uint v = get_global_id(0); v < n; v += get_global_size(0)) {
        if (level[v] != CLIRR_NONE)
            continue;
        for (uint k = trow[v]; k < trow[v + 1]; k++)
            if (level[tcol[k]] == depth) {
                level[v] = depth + 1;
                found++;
                arcs += row[v + 1] - row[v];
                break;
            }
    }
    if (found)
        atomic_add(&info[0], found);
    bfs_add_arcs(info, arcs);
}

__kernel void bfs_frontier_arcs(CLIRR_KPARAMS(BFS_FRONTIER_ARCS_ARGS))
{
    ulong arcs = 0;
    for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
        uint u = items[i];
        arcs += row[u + 1] - row[u];
    }
    bfs_add_arcs(info, arcs);
}
