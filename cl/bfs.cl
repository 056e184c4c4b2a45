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
 *   bfs_level_bits, bfs_bottom_up_bits, bfs_top_down_bits,
 *   bfs_top_down_mark  its CPU form (do-bit, below).
 * Racing writers store the same level, so no atomics guard level[]. */
#include "common/compat.clh"
#include "common/flag.clh"
#include "common/worklist.clh"
#include "bfs.def"

/* The out-degree of u (two loads of row, recorded under `clirr profile`;
 * row[u] again in the arc loop is left out: compilers keep it in a
 * register). */
#define BFS_DEG(u) (*IRR_GLD(7, &row[(u) + 1]) - *IRR_GLD(8, &row[u]))

/* An unreached vertex offers nothing: a sweep may read a level just before
 * another work-item sets it (NL_PREP and NL_COUNT read it apart). */
#define NL_NAME bfs_topo
#define NL_PARAMS CLIRR_KPARAMS(BFS_TOPO_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (presorted ? *IRR_GLD(38, &order[k]) : (k))
#define NL_COUNT(u) (*IRR_GLD(26, &level[u]) == CLIRR_NONE ? 0u : BFS_DEG(u))
#define NL_PREP(u)                                                             \
    uint lu = *IRR_GLD(27, &level[u]);                                         \
    uint offer = lu == CLIRR_NONE ? CLIRR_NONE : lu + 1;
#define NL_WORK(u, j)                                                          \
    {                                                                          \
        uint v = *IRR_GLD(28, &col[row[u] + (j)]);                             \
        if (IRR_BRANCH(29, offer < *IRR_GLD(30, &level[v]))) {                 \
            *IRR_GST(31, &level[v]) = offer;                                   \
            CLIRR_SET_FLAG(changed);                                           \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* Kernel unrolling (cl/templates/topo_unroll.clh) of the sweep above. */
#define UR_NAME bfs_topo_unroll
#define UR_PARAMS CLIRR_KPARAMS(BFS_UNROLL_ARGS)
#define UR_ITEM(k) (presorted ? *IRR_GLD(39, &order[k]) : (k))
#define UR_VALUE(x) (*IRR_GLD(33, &level[x]))
#define UR_REACHED(lx) ((lx) != CLIRR_NONE)
#define UR_RELAX(lx, e, v)                                                     \
    if (IRR_BRANCH(34, (lx) + 1 < *IRR_GLD(35, &level[v]))) {                  \
        *IRR_GST(36, &level[v]) = (lx) + 1;                                    \
        CLIRR_SET_FLAG(changed);                                               \
        lowered = true;                                                        \
    }
#include "templates/topo_unroll.clh"

#define NL_NAME bfs_level
#define NL_PARAMS CLIRR_KPARAMS(BFS_LEVEL_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(u) (*IRR_GLD(1, &level[u]) == depth ? BFS_DEG(u) : 0u)
#define NL_WORK(u, j)                                                          \
    {                                                                          \
        uint v = *IRR_GLD(2, &col[row[u] + (j)]);                              \
        if (IRR_BRANCH(3, *IRR_GLD(4, &level[v]) == CLIRR_NONE)) {             \
            *IRR_GST(5, &level[v]) = depth + 1;                                \
            CLIRR_SET_FLAG(changed);                                           \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* A data-driven round's work on arc j of u, pushing with PUSH. A rerun
 * pushes again what the overflowed attempt discovered. */
#define BFS_DISCOVER(u, j, PUSH)                                               \
    {                                                                          \
        uint v = *IRR_GLD(9, &col[row[u] + (j)]);                              \
        uint lv = *IRR_GLD(10, &level[v]);                                     \
        if (IRR_BRANCH(11, lv == CLIRR_NONE || (wl_rerun && lv == depth + 1))) { \
            *IRR_GST(12, &level[v]) = depth + 1;                               \
            PUSH(v);                                                           \
        }                                                                      \
    }

#define NL_NAME bfs_data
#define NL_PARAMS CLIRR_KPARAMS(BFS_DATA_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) (*IRR_GLD(13, &wl_in[k]))
#define NL_COUNT(u) BFS_DEG(u)
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define NL_WORK(u, j) BFS_DISCOVER(u, j, wl_push)
#define NL_DONATE /* --donate: the _donate kernel too */
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* The spatial hybrid (section V-B, --partition P): the worklist holds
 * partitions of P consecutive vertices; a partition's vertices all run
 * (topology-driven inside it: those at the round's level expand, the
 * others find nothing), and a discovered vertex pushes its partition. */
#define NL_NAME bfs_part
#define NL_PARAMS CLIRR_KPARAMS(BFS_PART_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) wl_in[k]
#define NL_COUNT(p) min(part, n - (p) * part)
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define BFS_PART_PUSH(v) wl_push((v) / part)
#define NL_WORK(p, j)                                                          \
    {                                                                          \
        uint u = (p) * part + (j);                                             \
        if (level[u] == depth)                                                 \
            for (uint k = 0; k < row[u + 1] - row[u]; k++)                     \
                BFS_DISCOVER(u, k, BFS_PART_PUSH);                             \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* Small frontiers: many levels in one work-group (local_rounds.clh). On a
 * GPU an arc's work in phases: the heads, their levels, then one
 * compare-and-swap of each unreached level, which also makes its winner
 * the vertex's only pusher (no mark to claim; local rounds never rerun). */
#define LR_NAME bfs_local
#define LR_PARAMS CLIRR_KPARAMS(BFS_LOCAL_ARGS)
#define LR_COUNT(u) BFS_DEG(u)
#define LR_WORK(u, j) BFS_DISCOVER(u, j, lr_push)
#define LR_ARC_HEAD(u, j, x, v) { v = *IRR_GLD(9, &col[row[u] + (j)]); }
#define LR_ARC_TRY(u, j, x, v, ok) { ok = IRR_BRANCH(11, *IRR_GLD(10, &level[v]) == CLIRR_NONE); }
#define LR_ARC_UPDATE(u, j, x, v, ok)                                          \
    { ok = atomic_cmpxchg(IRR_GAT(12, &level[v]), CLIRR_NONE, depth + 1) == CLIRR_NONE; }
#define LR_ARC_CLAIMS
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

__kernel void bfs_bottom_up(CLIRR_KPARAMS(BFS_BOTTOM_UP_ARGS) IRR_KPARAM)
{
    uint found = 0;
    ulong arcs = 0;
    for (uint v = get_global_id(0); IRR_BRANCH(14, v < n); v += get_global_size(0)) {
        if (IRR_BRANCH(15, *IRR_GLD(16, &level[v]) != CLIRR_NONE))
            continue;
        uint kend = *IRR_GLD(18, &trow[v + 1]);
        for (uint k = *IRR_GLD(17, &trow[v]); IRR_BRANCH(19, k < kend); k++)
            if (IRR_BRANCH(20, *IRR_GLD(22, &level[*IRR_GLD(21, &tcol[k])]) == depth)) {
                *IRR_GST(23, &level[v]) = depth + 1;
                found++;
                arcs += row[v + 1] - row[v];
                break;
            }
    }
    if (found)
        atomic_add(&info[0], found);
    bfs_add_arcs(info, arcs);
}

__kernel void bfs_frontier_arcs(CLIRR_KPARAMS(BFS_FRONTIER_ARCS_ARGS) IRR_KPARAM)
{
    ulong arcs = 0;
    for (uint i = get_global_id(0); IRR_BRANCH(24, i < count); i += get_global_size(0)) {
        uint u = *IRR_GLD(25, &items[i]);
        arcs += BFS_DEG(u);
    }
    bfs_add_arcs(info, arcs);
}

/* do-bit, the CPU form of the bottom-up sweep: the frontier is a bitmap
 * (bit v % 32 of word v / 32: level[v] == depth), which a core's caches
 * hold where level[] is 32 times larger, and work-item w owns the words
 * [w * wpi, (w + 1) * wpi), a contiguous range of 32 wpi vertices: it
 * writes the next frontier's words whole (no atomics) and adds its counts
 * to info once. bfs_level_bits makes the bitmap of a level from level[]
 * when the search leaves the worklist; bfs_top_down_bits is the top-down
 * step over the same bitmaps: a work-item expands the set bits of its
 * words and sets the bits of what it discovers with atomic_or into a
 * cleared next (one atomic a discovered vertex, as the level store races:
 * the writer that set the bit counts the vertex), so no round compacts a
 * worklist. */
__kernel void bfs_level_bits(CLIRR_KPARAMS(BFS_LEVEL_BITS_ARGS) IRR_KPARAM)
{
    uint found = 0;
    ulong arcs = 0;
    uint w0 = get_global_id(0) * wpi;
    uint wend = min(w0 + wpi, (n + 31) / 32);
    for (uint w = w0; IRR_BRANCH(40, w < wend); w++) {
        uint bits = 0, vend = min(32 * w + 32, n);
        for (uint v = 32 * w; IRR_BRANCH(41, v < vend); v++)
            bits |= (uint)(*IRR_GLD(42, &level[v]) == depth) << (v % 32);
        *IRR_GST(43, &front[w]) = bits;
        if (IRR_BRANCH(66, count)) {
            /* the degrees apart, so the loop above stays branch-free */
            found += popcount(bits);
            for (uint b = bits; IRR_BRANCH(74, b); b &= b - 1)
                arcs += BFS_DEG(32 * w + (31 - clz(b & -b)));
        }
    }
    if (found)
        atomic_add(&info[0], found);
    bfs_add_arcs(info, arcs);
}

__kernel void bfs_bottom_up_bits(CLIRR_KPARAMS(BFS_BOTTOM_UP_BITS_ARGS) IRR_KPARAM)
{
    uint found = 0;
    ulong arcs = 0;
    uint w0 = get_global_id(0) * wpi;
    uint wend = min(w0 + wpi, (n + 31) / 32);
    for (uint w = w0; IRR_BRANCH(44, w < wend); w++) {
        uint bits = 0, vend = min(32 * w + 32, n);
        for (uint v = 32 * w; IRR_BRANCH(45, v < vend); v++) {
            if (IRR_BRANCH(46, *IRR_GLD(47, &level[v]) != CLIRR_NONE))
                continue;
            uint kend = *IRR_GLD(49, &trow[v + 1]);
            for (uint k = *IRR_GLD(48, &trow[v]); IRR_BRANCH(50, k < kend); k++) {
                uint u = *IRR_GLD(51, &tcol[k]);
                if (IRR_BRANCH(52, (*IRR_GLD(53, &front[u / 32]) >> (u % 32)) & 1u)) {
                    *IRR_GST(54, &level[v]) = depth + 1;
                    bits |= 1u << (v % 32);
                    found++;
                    arcs += BFS_DEG(v);
                    break;
                }
            }
        }
        *IRR_GST(55, &next[w]) = bits;
    }
    if (found)
        atomic_add(&info[0], found);
    bfs_add_arcs(info, arcs);
}

__kernel void bfs_top_down_bits(CLIRR_KPARAMS(BFS_TOP_DOWN_BITS_ARGS) IRR_KPARAM)
{
    uint found = 0;
    ulong arcs = 0;
    uint w0 = get_global_id(0) * wpi;
    uint wend = min(w0 + wpi, (n + 31) / 32);
    for (uint w = w0; IRR_BRANCH(56, w < wend); w++) {
        uint bits = *IRR_GLD(57, &front[w]);
        while (IRR_BRANCH(58, bits)) {
            uint u = 32 * w + (31 - clz(bits & -bits));
            bits &= bits - 1;
            uint kend = *IRR_GLD(60, &row[u + 1]);
            for (uint k = *IRR_GLD(59, &row[u]); IRR_BRANCH(61, k < kend); k++) {
                uint v = *IRR_GLD(62, &col[k]);
                if (IRR_BRANCH(63, *IRR_GLD(64, &level[v]) == CLIRR_NONE)) {
                    *IRR_GST(65, &level[v]) = depth + 1;
                    uint bit = 1u << (v % 32);
                    if (!(atomic_or(IRR_GAT(66, &next[v / 32]), bit) & bit)) {
                        found++;
                        arcs += BFS_DEG(v);
                    }
                }
            }
        }
    }
    if (found)
        atomic_add(&info[0], found);
    bfs_add_arcs(info, arcs);
}

/* Sets level depth + 1 on the unreached out-neighbours of the front's
 * vertices and nothing else: for a frontier of many arcs, where an atomic
 * a vertex found (a compare-and-swap loop on CPUs) and its scattered
 * degree loads cost more than one pass over the levels after it. A kernel
 * of its own: bfs_top_down_bits with a flag in its loop took 1.5-2 ms
 * more a run on Intel's CPU runtime (urand 2^21). */
__kernel void bfs_top_down_mark(CLIRR_KPARAMS(BFS_TOP_DOWN_MARK_ARGS) IRR_KPARAM)
{
    uint w0 = get_global_id(0) * wpi;
    uint wend = min(w0 + wpi, (n + 31) / 32);
    for (uint w = w0; IRR_BRANCH(75, w < wend); w++) {
        uint bits = *IRR_GLD(76, &front[w]);
        while (IRR_BRANCH(77, bits)) {
            uint u = 32 * w + (31 - clz(bits & -bits));
            bits &= bits - 1;
            uint kend = *IRR_GLD(78, &row[u + 1]);
            for (uint k = *IRR_GLD(79, &row[u]); IRR_BRANCH(80, k < kend); k++) {
                uint v = *IRR_GLD(81, &col[k]);
                if (IRR_BRANCH(82, *IRR_GLD(83, &level[v]) == CLIRR_NONE))
                    *IRR_GST(84, &level[v]) = depth + 1;
            }
        }
    }
}

/* do-bit's way back to the worklist: the vertices of the bitmap front, a
 * range of words a work-item, placed after one atomic_add a work-item
 * (in no particular order; a BFS level's order does not matter). */
__kernel void bfs_bits_items(CLIRR_KPARAMS(BFS_BITS_ITEMS_ARGS) IRR_KPARAM)
{
    uint w0 = get_global_id(0) * wpi;
    uint wend = min(w0 + wpi, (n + 31) / 32);
    uint count = 0;
    for (uint w = w0; IRR_BRANCH(67, w < wend); w++)
        count += popcount(*IRR_GLD(68, &front[w]));
    if (!count)
        return;
    uint at = atomic_add(IRR_GAT(69, &info[0]), count);
    for (uint w = w0; IRR_BRANCH(70, w < wend); w++)
        for (uint bits = *IRR_GLD(71, &front[w]); IRR_BRANCH(72, bits); bits &= bits - 1)
            *IRR_GST(73, &items[at++]) = 32 * w + (31 - clz(bits & -bits));
}
