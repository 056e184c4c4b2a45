/* cl/sssp.cl - single-source shortest paths over non-negative integer
 * weights (data-driven vs topology-driven study, shared/papers/000), each
 * round a nested loop over vertices and their arcs run through the
 * templates of cl/templates/nested_loop.clh.
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
 *   sssp_hybrid the temporal hybrid's topology-driven sweep: as sssp_topo,
 *              but with atomic_min, stamping every vertex it lowers with
 *              the sweep's number, so that the vertices lowered in the
 *              last sweep make a complete worklist (no lowered distance is
 *              lost to a racing store, and every earlier one was relaxed
 *              by the sweep after it).
 *   sssp_local the same rounds, many in one launch of one work-group, while
 *              the worklist is small (templates/local_rounds.clh).
 *   sssp_nf*   near-far: the data-driven rounds over a moving split, the
 *              farther vertices set aside in a pile (below).
 *   sssp_bits_round, sssp_items_bits  the `bits` variant's wide rounds on
 *              CPUs: the worklist as a bitmap (below).
 *   sssp_region the `regions` variant on CPUs: a work-item settles the
 *              pending vertices of range after range under a bound, in
 *              a queue of its own, buckets of the bound (below).
 *   sssp_region_group  regions on GPUs: a work-group a range, in rounds
 *              with its queue in local memory (below).
 * A distance that would not fit 32 bits sets status[1] (the host reports
 * it) instead of wrapping. status[0] is topo's changed flag. */
#include "common/compat.clh"
#include "common/flag.clh"
#include "common/worklist.clh"
#include "sssp.def"

#ifdef CLIRR_UNIT_WEIGHTS
#define WEIGHT(e) 1u
#else
#define WEIGHT(e) ((uint)*IRR_GLD(8, &weight[e]))
#endif

/* The out-degree of u (row[u] again in the arc loop is not recorded:
 * compilers keep it in a register). */
#define SSSP_DEG(u) (*IRR_GLD(9, &row[(u) + 1]) - *IRR_GLD(10, &row[u]))

/* d + w, or CLIRR_NONE (and the overflow flag) when it does not fit. An
 * unreached d gives CLIRR_NONE: a round may read a vertex's distance just
 * before another work-item sets it (NL_PREP and NL_COUNT read it apart). */
inline uint relax_sum(uint d, uint w, volatile __global uint *overflow)
{
    if (d == CLIRR_NONE)
        return CLIRR_NONE;
    if (w >= CLIRR_NONE - d) {
        *overflow = 1;
        return CLIRR_NONE;
    }
    return d + w;
}

/* A topology-driven sweep's work on arc j of u (du: u's distance): where
 * the offer is lower, LOWER(v, nd) stores it and says whether it won (a
 * plain store always does), and the winner sets the changed flag and
 * runs MARKED(v). */
#define SSSP_SWEEP(u, j, LOWER, MARKED)                                        \
    {                                                                          \
        uint e = row[u] + (j);                                                 \
        uint v = *IRR_GLD(3, &col[e]);                                         \
        uint nd = relax_sum(du, WEIGHT(e), &status[1]);                        \
        if (IRR_BRANCH(4, nd < *IRR_GLD(5, &dist[v]) && LOWER(v, nd))) {       \
            MARKED(v);                                                         \
            CLIRR_SET_FLAG(&status[0]);                                        \
        }                                                                      \
    }
#define SSSP_STORE(v, nd) (*IRR_GST(6, &dist[v]) = (nd), true)
#define SSSP_ATOMIC_LOWER(v, nd) ((nd) < atomic_min(IRR_GAT(37, &dist[v]), (nd)))
#define SSSP_NO_MARK(v) (void)0
#define SSSP_STAMP(v) (mark[v] = sweep)

#define NL_NAME sssp_topo
#define NL_PARAMS CLIRR_KPARAMS(SSSP_TOPO_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (presorted ? *IRR_GLD(60, &order[k]) : (k))
#define NL_COUNT(u) (*IRR_GLD(1, &dist[u]) == CLIRR_NONE ? 0u : SSSP_DEG(u))
#define NL_PREP(u) uint du = *IRR_GLD(2, &dist[u]);
#define NL_WORK(u, j) SSSP_SWEEP(u, j, SSSP_STORE, SSSP_NO_MARK)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* Kernel unrolling (cl/templates/topo_unroll.clh) of the sweep above. */
#define UR_NAME sssp_topo_unroll
#define UR_PARAMS CLIRR_KPARAMS(SSSP_UNROLL_ARGS)
#define UR_ITEM(k) (presorted ? *IRR_GLD(61, &order[k]) : (k))
#define UR_VALUE(x) (*IRR_GLD(38, &dist[x]))
#define UR_REACHED(du) ((du) != CLIRR_NONE)
#define UR_RELAX(du, e, v)                                                     \
    {                                                                          \
        uint nd = relax_sum((du), WEIGHT(e), &status[1]);                      \
        if (IRR_BRANCH(39, nd < *IRR_GLD(40, &dist[v]))) {                     \
            *IRR_GST(41, &dist[v]) = nd;                                       \
            CLIRR_SET_FLAG(&status[0]);                                        \
            lowered = true;                                                    \
        }                                                                      \
    }
#include "templates/topo_unroll.clh"

#define NL_NAME sssp_hybrid
#define NL_PARAMS CLIRR_KPARAMS(SSSP_HYBRID_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(u) (dist[u] == CLIRR_NONE ? 0u : row[(u) + 1] - row[u])
#define NL_PREP(u) uint du = dist[u];
#define NL_WORK(u, j) SSSP_SWEEP(u, j, SSSP_ATOMIC_LOWER, SSSP_STAMP)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* The distance of v before lowering it to nd with atomic_min. On a CPU a
 * plain read first: an offer that does not lower the distance read (dist
 * only falls, so it cannot lower the current one either) costs no locked
 * instruction, which is most offers on a dense graph; the read value then
 * stands for old (equal offers are what a rerun pushes again). GPUs take
 * the atomic at once, as measured there before. */
#if CLIRR_IS_CPU
inline uint sssp_min_old(volatile __global uint *d, uint nd IRR_FPARAM)
{
    uint cur = *IRR_GLD(13, d);
    return nd < cur ? atomic_min(IRR_GAT(17, d), nd) : cur;
}
#define SSSP_MIN_OLD(site, v, nd) sssp_min_old(&dist[v], (nd) IRR_FARG)
#else
#define SSSP_MIN_OLD(site, v, nd) atomic_min(IRR_GAT(site, &dist[v]), (nd))
#endif

/* A data-driven round's work on arc j of u (du: u's distance), pushing
 * with PUSH every vertex it improves. A rerun pushes again what the
 * overflowed attempt improved: then dist[v] already equals nd. */
#define SSSP_RELAX(u, j, PUSH)                                                 \
    {                                                                          \
        uint e = row[u] + (j);                                                 \
        uint v = *IRR_GLD(11, &col[e]);                                        \
        uint nd = relax_sum(du, WEIGHT(e), &status[1]);                        \
        if (IRR_BRANCH(12, nd != CLIRR_NONE)) {                                \
            uint old = SSSP_MIN_OLD(13, v, nd);                                \
            if (IRR_BRANCH(14, nd < old || (wl_rerun && nd == old)))           \
                PUSH(v);                                                       \
        }                                                                      \
    }

#define NL_NAME sssp_data
#define NL_PARAMS CLIRR_KPARAMS(SSSP_DATA_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) (*IRR_GLD(34, &wl_in[k]))
#define NL_COUNT(u) SSSP_DEG(u)
#define NL_PREP(u) uint du = *IRR_GLD(35, &dist[u]);
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define NL_WORK(u, j) SSSP_RELAX(u, j, wl_push)
#define NL_DONATE /* --donate: the _donate kernel too */
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* The spatial hybrid (section V-B, --partition P): the worklist holds
 * partitions of P consecutive vertices; every vertex of a partition
 * relaxes its arcs (topology-driven inside it), and an improved vertex
 * pushes its partition. */
#define NL_NAME sssp_part
#define NL_PARAMS CLIRR_KPARAMS(SSSP_PART_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) wl_in[k]
#define NL_COUNT(p) min(part, n - (p) * part)
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define SSSP_PART_PUSH(v) wl_push((v) / part)
#define NL_WORK(p, j)                                                          \
    {                                                                          \
        uint u = (p) * part + (j);                                             \
        uint du = dist[u];                                                     \
        for (uint k = 0; du != CLIRR_NONE && k < row[u + 1] - row[u]; k++)     \
            SSSP_RELAX(u, k, SSSP_PART_PUSH);                                  \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* Small worklists: many rounds in one work-group (local_rounds.clh). On a
 * GPU an arc's work in phases: head and offer (x), then the atomic_min,
 * which says whether v improved (SSSP_RELAX's test). */
#define SSSP_LR_HEAD(u, j, x, v)                                               \
    {                                                                          \
        uint e = row[u] + (j);                                                 \
        v = *IRR_GLD(11, &col[e]);                                             \
        x = relax_sum(du, WEIGHT(e), &status[1]);                              \
    }
#define SSSP_LR_TRY(u, j, x, v, ok) { ok = IRR_BRANCH(12, (x) != CLIRR_NONE); }
#define SSSP_LR_LOWER(site, v, x, ok)                                          \
    {                                                                          \
        uint old = SSSP_MIN_OLD(site, v, x);                                   \
        ok = IRR_BRANCH(14, (x) < old || (wl_rerun && (x) == old));            \
    }
#define LR_NAME sssp_local
#define LR_PARAMS CLIRR_KPARAMS(SSSP_LOCAL_ARGS)
#define LR_COUNT(u) SSSP_DEG(u)
#define LR_PREP(u) uint du = *IRR_GLD(36, &dist[u]);
#define LR_WORK(u, j) SSSP_RELAX(u, j, lr_push)
#define LR_ARC_HEAD SSSP_LR_HEAD
#define LR_ARC_TRY SSSP_LR_TRY
#define LR_ARC_UPDATE(u, j, x, v, ok) SSSP_LR_LOWER(13, v, x, ok)
#include "templates/local_rounds.clh"

/* Near-far (bucketed SSSP, as LonestarGPU and Gunrock do): only vertices
 * whose new distance is below the current split run in the next rounds;
 * farther ones wait in the far pile, each at most once per phase, until
 * the worklist empties and the split moves up by delta. Far fewer
 * relaxations are repeated on weighted high-diameter graphs. */
/* NF_SPLIT, NF_FAR, NF_INFO and NF_PHASE name the split, the pile, its
 * info and its phase stamp: the kernel's arguments in the wide rounds, the
 * local rounds' own variables there (they move the split themselves). */
#define NF_SPLIT split
#define NF_FAR far
#define NF_INFO far_info
#define NF_PHASE far_phase
#define SSSP_FAR_PUSH(v)                                                       \
    do {                                                                       \
        if (IRR_BRANCH(20, *IRR_GLD(21, &far_marks[v]) != NF_PHASE) &&         \
            atomic_xchg(IRR_GAT(22, &far_marks[v]), NF_PHASE) != NF_PHASE) {   \
            uint at_ = atomic_inc(IRR_GAT(23, &NF_INFO[0]));                   \
            if (at_ < far_cap)                                                 \
                *IRR_GST(24, &NF_FAR[at_]) = (v);                              \
        }                                                                      \
    } while (0)
#define SSSP_NF_RELAX(u, j, PUSH)                                              \
    {                                                                          \
        uint e = row[u] + (j);                                                 \
        uint v = *IRR_GLD(15, &col[e]);                                        \
        uint nd = relax_sum(du, WEIGHT(e), &status[1]);                        \
        if (IRR_BRANCH(16, nd != CLIRR_NONE)) {                                \
            uint old = SSSP_MIN_OLD(17, v, nd);                                \
            if (IRR_BRANCH(18, nd < old || (wl_rerun && nd == old))) {         \
                if (IRR_BRANCH(19, nd < NF_SPLIT))                             \
                    PUSH(v);                                                   \
                else                                                           \
                    SSSP_FAR_PUSH(v);                                          \
            }                                                                  \
        }                                                                      \
    }

#define NL_NAME sssp_nf
#define NL_PARAMS CLIRR_KPARAMS(SSSP_NF_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) (*IRR_GLD(34, &wl_in[k]))
#define NL_COUNT(u) SSSP_DEG(u)
#define NL_PREP(u) uint du = *IRR_GLD(35, &dist[u]);
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define NL_WORK(u, j) SSSP_NF_RELAX(u, j, wl_push)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* Near-far's placing of pile vertex v when phase [lo, hi) starts (the
 * local rounds' refill and sssp_nf_rebucket): below lo it has been relaxed
 * from since and is dropped; below hi it is pushed (PUSH(v)); the rest go
 * to pile out, stamped with phase in far_marks so that it is not set aside
 * twice, counted in out_info[0] with the least distance in out_info[1]. */
#define NF_PLACE(v, lo, hi, phase, out, out_info, PUSH)                        \
    do {                                                                       \
        uint nfp_d_ = *IRR_GLD(1, &dist[v]);                                   \
        if (IRR_BRANCH(2, nfp_d_ < (lo)))                                      \
            break;                                                             \
        if (IRR_BRANCH(3, nfp_d_ < (hi))) {                                    \
            PUSH(v);                                                           \
        } else {                                                               \
            *IRR_GST(4, &far_marks[v]) = (phase);                              \
            uint nfp_at_ = atomic_inc(IRR_GAT(5, &(out_info)[0]));             \
            *IRR_GST(6, &(out)[nfp_at_]) = (v);                                \
            atomic_min(IRR_GAT(7, &(out_info)[1]), nfp_d_);                    \
        }                                                                      \
    } while (0)

/* The same for near-far; in phases, an improved vertex at or past the
 * split goes to the pile in the update phase. When the worklist empties,
 * the work-group starts the next phase itself while the pile holds at
 * most refill_cap vertices (a phase's change is otherwise a split launch
 * and three reads on the host): the pile's vertices below the split were
 * relaxed since; those below split + delta (or, when a split of its own
 * found none, the pile's least distance + delta) are pushed, the rest go to the other pile, stamped with the
 * new phase. lr_state[2..5] = {split, phase, piles swapped (0, 1), phases
 * run}: the host carries on from there. */
#undef NF_SPLIT
#undef NF_FAR
#undef NF_INFO
#undef NF_PHASE
#define NF_SPLIT nf_split
#define NF_FAR nf_far
#define NF_INFO nf_info
#define NF_PHASE nf_phase
#define LR_BEGIN                                                               \
    uint nf_split = split, nf_phase = far_phase, nf_swapped = 0, nf_phases = 0; \
    __global uint *nf_far = far, *nf_far_next = far_next;                      \
    volatile __global uint *nf_info = far_info, *nf_info_next = far_next_info;
#define LR_REFILL                                                              \
    for (bool nf_first = true;; nf_first = false) {                            \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                   \
        uint nf_n = *IRR_GLD(94, &nf_info[0]), nf_least = *IRR_GLD(95, &nf_info[1]); \
        if (nf_n == 0 || nf_n > refill_cap || nf_phase >= UINT_MAX - 2)       \
            break;                                                             \
        uint nf_lo = nf_first ? nf_split : max(nf_split, nf_least);            \
        uint nf_hi = nf_lo > CLIRR_NONE - delta ? CLIRR_NONE : nf_lo + delta;  \
        nf_phase++;                                                            \
        nf_phases++;                                                           \
        if (lr_lid == 0) {                                                     \
            *IRR_GST(96, &nf_info_next[0]) = 0;                                \
            *IRR_GST(97, &nf_info_next[1]) = CLIRR_NONE;                       \
        }                                                                      \
        barrier(CLK_GLOBAL_MEM_FENCE);                                         \
        for (uint nf_i = lr_lid; IRR_BRANCH(98, nf_i < nf_n); nf_i += lr_lsize) { \
            uint nf_v = *IRR_GLD(99, &nf_far[nf_i]);                           \
            NF_PLACE(nf_v, nf_split, nf_hi, nf_phase, nf_far_next, nf_info_next, lr_push); \
        }                                                                      \
        __global uint *nf_t = nf_far;                                          \
        nf_far = nf_far_next;                                                  \
        nf_far_next = nf_t;                                                    \
        volatile __global uint *nf_ti = nf_info;                               \
        nf_info = nf_info_next;                                                \
        nf_info_next = nf_ti;                                                  \
        nf_swapped ^= 1;                                                       \
        nf_split = nf_hi;                                                      \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                   \
        if (lr_nout > 0)                                                       \
            break;                                                             \
    }
#define LR_END                                                                 \
    lr_state[2] = nf_split;                                                    \
    lr_state[3] = nf_phase;                                                    \
    lr_state[4] = nf_swapped;                                                  \
    lr_state[5] = nf_phases;
#define LR_NAME sssp_nf_local
#define LR_PARAMS CLIRR_KPARAMS(SSSP_NF_LOCAL_ARGS)
#define LR_COUNT(u) SSSP_DEG(u)
#define LR_PREP(u) uint du = *IRR_GLD(36, &dist[u]);
#define LR_WORK(u, j) SSSP_NF_RELAX(u, j, lr_push)
#define LR_ARC_HEAD SSSP_LR_HEAD
#define LR_ARC_TRY SSSP_LR_TRY
#define LR_ARC_UPDATE(u, j, x, v, ok)                                          \
    {                                                                          \
        SSSP_LR_LOWER(17, v, x, ok)                                            \
        if (ok && !IRR_BRANCH(19, (x) < NF_SPLIT)) {                           \
            SSSP_FAR_PUSH(v);                                                  \
            ok = false;                                                        \
        }                                                                      \
    }
#include "templates/local_rounds.clh"

#undef NF_SPLIT
#undef NF_FAR
#undef NF_INFO
#undef NF_PHASE

/* A vertex of the pile whose distance fell below lo has been relaxed from
 * since (it went to the worklist then); [lo, hi) runs next; the rest waits,
 * stamped with the new phase so that it is not set aside twice. */
__kernel void sssp_nf_rebucket(CLIRR_KPARAMS(SSSP_NF_REBUCKET_ARGS) IRR_KPARAM)
{
    WL_BEGIN;
    for (uint i = get_global_id(0); IRR_BRANCH(25, i < far_in_size); i += get_global_size(0)) {
        uint v = *IRR_GLD(26, &far_in[i]);
        NF_PLACE(v, lo, hi, far_phase, far_out, far_out_info, wl_push);
    }
    WL_END;
}

/* bits (CPUs): while the worklist is large it is a bitmap, bit v % 32 of
 * word v / 32, and work-item w owns the words [w * wpi, (w + 1) * wpi): it
 * relaxes the arcs of its set bits in vertex order (a core streams its
 * rows) and sets the bit of every vertex it lowers in a cleared next with
 * atomic_or, stamping it in mark[] (the host compacts the last round's
 * stamps into a worklist again when the bitmap grows small); no round
 * compacts a worklist over all n. With buckets (--delta D), a set vertex
 * whose distance is at least split waits: its bit is carried into next
 * (stamped too), and only the nearer ones relax. The work-item that set a
 * bit counts it, once in info[0] per work-item, and the least distance of
 * what it set or carried goes to info[1] (atomic_min once per work-item),
 * from which the host places the next split. sssp_items_bits makes the
 * bitmap of a worklist and the least distance in it. */
__kernel void sssp_items_bits(CLIRR_KPARAMS(SSSP_ITEMS_BITS_ARGS) IRR_KPARAM)
{
    uint lo = CLIRR_NONE;
    for (uint i = get_global_id(0); IRR_BRANCH(70, i < count); i += get_global_size(0)) {
        uint v = *IRR_GLD(71, &items[i]);
        atomic_or(IRR_GAT(72, &front[v / 32]), 1u << (v % 32));
        lo = min(lo, *IRR_GLD(87, &dist[v]));
    }
    if (lo != CLIRR_NONE)
        atomic_min(IRR_GAT(88, &info[1]), lo);
}

__kernel void sssp_bits_round(CLIRR_KPARAMS(SSSP_BITS_ROUND_ARGS) IRR_KPARAM)
{
    uint found = 0, lo = CLIRR_NONE;
    uint w0 = get_global_id(0) * wpi;
    uint wend = min(w0 + wpi, (n + 31) / 32);
    for (uint w = w0; IRR_BRANCH(73, w < wend); w++) {
        uint bits = *IRR_GLD(74, &front[w]), keep = 0;
        while (IRR_BRANCH(75, bits)) {
            uint u = 32 * w + (31 - clz(bits & -bits));
            bits &= bits - 1;
            uint du = *IRR_GLD(76, &dist[u]);
            if (IRR_BRANCH(89, du >= split)) { /* its bucket comes later */
                keep |= 1u << (u % 32);
                lo = min(lo, du);
                continue;
            }
            uint kend = *IRR_GLD(78, &row[u + 1]);
            for (uint e = *IRR_GLD(77, &row[u]); IRR_BRANCH(79, e < kend); e++) {
                uint v = *IRR_GLD(80, &col[e]);
                uint nd = relax_sum(du, WEIGHT(e), &status[1]);
                if (IRR_BRANCH(81, nd < *IRR_GLD(82, &dist[v])) && nd < atomic_min(IRR_GAT(83, &dist[v]), nd)) {
                    uint bit = 1u << (v % 32);
                    lo = min(lo, nd);
                    if (!(atomic_or(IRR_GAT(84, &next[v / 32]), bit) & bit)) {
                        *IRR_GST(85, &mark[v]) = stamp;
                        found++;
                    }
                }
            }
        }
        if (keep) {
            uint fresh = keep & ~atomic_or(IRR_GAT(90, &next[w]), keep);
            found += popcount(fresh);
            for (; IRR_BRANCH(91, keep); keep &= keep - 1)
                *IRR_GST(92, &mark[32 * w + (31 - clz(keep & -keep))]) = stamp;
        }
    }
    if (found)
        atomic_add(IRR_GAT(86, &info[0]), found);
    if (lo != CLIRR_NONE)
        atomic_min(IRR_GAT(93, &info[1]), lo);
}

/* The range of vertex v: the last r with bounds[r] <= v. */
static uint region_of(__global const uint *bounds, uint nregions, uint v)
{
    uint a = 0, b = nregions;
    while (b - a > 1) {
        uint m = a + (b - a) / 2;
        if (bounds[m] <= v)
            a = m;
        else
            b = m;
    }
    return a;
}

/* A vertex lowered that the queue does not take (another range's, at or
 * past the bound, or the queue full): its bit in pend, counted when it
 * sets it, and under the bound its range's flag, so that the range is
 * looked at again in this launch (by its work-group should it still run;
 * on CPUs by whichever work-item passes over the flags next). */
static void region_hand_on(volatile __global uint *pend, volatile __global uint *flags,
                           __global const uint *bounds, uint nregions, uint r, uint vlo, uint vhi,
                           uint bound, uint v, uint nd, uint *found, uint *lo IRR_FPARAM)
{
    uint bit = 1u << (v % 32);
    CLIRR_RELEASE_FENCE(); /* the distance before the bit */
    if (!(atomic_or(IRR_GAT(135, &pend[v / 32]), bit) & bit)) {
        (*found)++;
        *lo = min(*lo, nd);
    }
    if (IRR_BRANCH(136, nd < bound)) { /* work for this launch, here or there */
        bool own = v >= vlo && v < vhi;
        CLIRR_RELEASE_FENCE(); /* the bit before the flag */
        atomic_or(IRR_GAT(137, &flags[own ? r : region_of(bounds, nregions, v)]), 1u);
    }
}

/* The queue of a range's work-item: REGION_BUCKETS rings, one a part
 * of the bound (steps of sub from the launch's least distance base, the
 * last one open), taken lowest first and each first in first out, as
 * delta-stepping's buckets inside the bound. On the 2048 x 2048 grid
 * (weights 1-100, a bound of 32 mean weights) a vertex was relaxed 2.57
 * times on average with one ring, 1.26 with 8 and 1.13 with 16; PoCL 5 on
 * the H200 machine's 16 cores, ms compute with 1 / 8 / 16 / 32 rings:
 * 50.9 / 36.2 / 41.6 / 40.9 on that grid, 20.9 / 16.3 / 15.4 / 14.8 on
 * 1024 x 1024, 6.7 / 6.3 / 5.5 / 5.5 on 512 x 512, 3.2 / 3.2 / 3.0 / 3.3
 * on luxembourg_osm (tests/bench/RESULTS.md, "Buckets under the bound"). */
#define REGION_BUCKETS 16
inline uint region_bucket(uint d, uint base, uint sub)
{
    uint b = d > base ? (d - base) / sub : 0;
    return min(b, (uint)REGION_BUCKETS - 1);
}

/* Settles one range r under the bound, as a work-item of sssp_region
 * does: its pending bits under the bound go to the queue q (cap pairs,
 * cap / REGION_BUCKETS a bucket), the others stay. first: this look
 * counts the bits it leaves (a later look's were counted by the first or
 * by whoever set them). */
static void region_settle(__global const uint *row, __global const uint *col, __global const int *weight,
                          volatile __global uint *dist, volatile __global uint *status, volatile __global uint *pend,
                          volatile __global uint *flags, __global const uint *bounds, uint nregions, uint r,
                          uint base, uint sub, uint bound, bool first, __global uint2 *q, uint cap, uint *found,
                          uint *lo IRR_FPARAM)
{
    uint vlo = bounds[r], vhi = bounds[r + 1], bcap = cap / REGION_BUCKETS, queued = 0, low = 0;
    uint head[REGION_BUCKETS], size[REGION_BUCKETS];
    for (uint k = 0; k < REGION_BUCKETS; k++)
        head[k] = size[k] = 0;
    for (uint w = vlo / 32; IRR_BRANCH(95, w < (vhi + 31) / 32); w++) {
        for (uint bits = *IRR_GLD(96, &pend[w]); bits; bits &= bits - 1) {
            uint bit = bits & -bits, u = 32 * w + (31 - clz(bit)), du = *IRR_GLD(97, &dist[u]);
            uint k = region_bucket(du, base, sub);
            if (IRR_BRANCH(98, du < bound && size[k] < bcap)) {
                /* Read again after the bit is cleared: a lower distance
                 * whose bit this clears is the one that settles. Another
                 * work-item in the range may have taken it first. */
                if (!(atomic_and(IRR_GAT(99, &pend[w]), ~bit) & bit))
                    continue;
                CLIRR_ACQUIRE_FENCE();
                q[k * bcap + (head[k] + size[k]++) % bcap] = (uint2)(*IRR_GLD(114, &dist[u]), u);
                queued++;
            } else {
                *found += first;
                *lo = min(*lo, du);
            }
        }
    }
    while (IRR_BRANCH(100, queued > 0)) {
        while (size[low] == 0) /* no bucket below low holds an entry */
            low++;
        uint k = low;
        uint2 top = q[k * bcap + head[k]];
        uint u = top.y, du = top.x;
        head[k] = (head[k] + 1) % bcap;
        size[k]--;
        queued--;
        if (IRR_BRANCH(101, du != *IRR_GLD(102, &dist[u])))
            continue; /* lowered since it was queued: a later entry or bit has it */
        uint kend = *IRR_GLD(104, &row[u + 1]);
        for (uint e = *IRR_GLD(103, &row[u]); IRR_BRANCH(105, e < kend); e++) {
            uint v = *IRR_GLD(106, &col[e]);
            uint nd = relax_sum(du, WEIGHT(e), &status[1]);
            if (IRR_BRANCH(107, nd < *IRR_GLD(108, &dist[v])) && nd < atomic_min(IRR_GAT(109, &dist[v]), nd)) {
                uint j = region_bucket(nd, base, sub);
                if (IRR_BRANCH(110, v >= vlo && v < vhi && nd < bound && size[j] < bcap)) {
                    q[j * bcap + (head[j] + size[j]++) % bcap] = (uint2)(nd, v);
                    queued++;
                    low = min(low, j);
                } else {
                    region_hand_on(pend, flags, bounds, nregions, r, vlo, vhi, bound, v, nd, found, lo IRR_FARG);
                }
            }
        }
    }
}

/* Settles ranges under a bound that moves up launch by launch (the least
 * pending distance plus delta), so that a range rarely settles a vertex on
 * a distance that another range's vertex later lowers. Under the bound it
 * relaxes in buckets of the bound, each first in first out (above): a
 * vertex lowered again is queued again, and the entry it had is passed
 * over. On CPUs one such ring took 0.5-0.6x the time of nearest first in a
 * binary heap, whose pushes and pops were each a chain of dependent reads
 * (2-core machine, 2048 x 2048 grid, both runtimes).
 * A work-item takes range after range, order[t] for the tickets t it
 * draws, until none is left: the cores share the ranges as they come free
 * (a CPU runtime hands each core a contiguous chunk of work-items, and a
 * front crosses neighbouring ranges), and neighbouring tickets are ranges
 * far apart. Then it settles again every range whose flag a vertex
 * lowered under the bound set meanwhile, until a pass over the flags finds
 * none: so a front crosses from range to range inside a launch. No
 * work-item waits for another: two may settle one range at once (each in
 * its own queue, fifo + qcap pairs a work-item), and what a flag set
 * after a work-item's last pass marks waits in pend for the next launch.
 * A vertex is counted whenever its bit is left or set, so a launch's
 * count is never short of what stays pending (it may count a vertex
 * twice), and its least distance is never above a pending vertex's: the
 * next launch settles at least that one. */
__kernel void sssp_region(CLIRR_KPARAMS(SSSP_REGION_ARGS) IRR_KPARAM)
{
    uint left = info[3 * prev], least = info[3 * prev + 1];
    if (IRR_BRANCH(94, left == 0))
        return;
    uint bound = least > CLIRR_NONE - delta ? CLIRR_NONE : least + delta;
    uint found = 0, lo = CLIRR_NONE, sub = max(delta / REGION_BUCKETS, 1u);
    __global uint2 *q = fifo + (ulong)get_global_id(0) * qcap;
    for (uint t; IRR_BRANCH(140, (t = atomic_inc(IRR_GAT(141, &info[3 * cur + 2]))) < nregions);) {
        uint r = order[t];
        atomic_xchg(IRR_GAT(146, &flags[r]), 0u); /* this look comes after any flag set so far */
        region_settle(row, col, weight, dist, status, pend, flags, bounds, nregions, r, least, sub, bound, true, q,
                      qcap, &found, &lo IRR_FARG);
    }
    for (bool again = true; IRR_BRANCH(142, again);) {
        again = false;
        for (uint i = 0; IRR_BRANCH(143, i < nregions); i++) {
            uint r = order[(i + get_global_id(0)) % nregions];
            if (*IRR_GLD(144, &flags[r]) && atomic_xchg(IRR_GAT(145, &flags[r]), 0u)) {
                again = true;
                region_settle(row, col, weight, dist, status, pend, flags, bounds, nregions, r, least, sub, bound,
                              false, q, qcap, &found, &lo IRR_FARG);
            }
        }
    }
    if (found) {
        atomic_add(IRR_GAT(112, &info[3 * cur]), found);
        atomic_min(IRR_GAT(113, &info[3 * cur + 1]), lo);
    }
}

/* regions on GPUs: work-group r settles the pending vertices of its range
 * under the bound in rounds (Bellman-Ford's order inside the bound, which
 * keeps it narrow), and hands the rest on in pend as sssp_region does.
 * When its queue runs dry it looks at its bits again if another range
 * (or its own full queue) set one under the bound meanwhile (flags[r]):
 * so a front crosses from range to range inside a launch while both run,
 * and is carried to the next launch when they do not. Nothing here waits
 * for another work-group. Only the first look counts the bits it leaves:
 * later ones were counted then or by whoever set them (a count too high
 * costs at most an empty launch; one too low would end the run early).
 * A round's hand-ons go to a box in local memory and are handed on in the
 * next round, by the work-items its entries leave idle: their atomics are
 * then off the chain of reads that a round waits for. */
__kernel void sssp_region_group(CLIRR_KPARAMS(SSSP_REGION_GROUP_ARGS) IRR_KPARAM)
{
    /* Every barrier below is met on every path, with no return before it
     * (PoCL 3.1 spins on a work-group that skips one, even uniformly): a
     * work-group with nothing to do goes round the loop once. */
    const uint r = get_group_id(0), lid = get_local_id(0), size = get_local_size(0);
    const uint left = info[3 * prev], least = info[3 * prev + 1];
    const bool active = !IRR_BRANCH(115, r >= nregions || left == 0);
    const uint bound = least > CLIRR_NONE - delta ? CLIRR_NONE : least + delta;
    const uint vlo = active ? bounds[r] : 0, vhi = active ? bounds[r + 1] : 0;
    __local uint qn[2], bn[2], look, found_all, lo_all;
    uint found = 0, lo = CLIRR_NONE, c = 0, b = 0;
    bool first = true;
    if (lid == 0) {
        qn[0] = qn[1] = 0;
        bn[0] = bn[1] = 0;
        look = active;
        found_all = 0;
        lo_all = CLIRR_NONE;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (;;) {
        __local uint2 *in = c ? queue + qcap : queue, *out = c ? queue : queue + qcap;
        if (look) { /* uniform: read after a barrier, written after the next two */
            for (uint w = vlo / 32 + lid; IRR_BRANCH(116, w < (vhi + 31) / 32); w += size) {
                if (!*IRR_GLD(117, &pend[w]))
                    continue;
                /* Take the word's bits at once, then read their distances
                 * (a distance is written before its bit): one chain of
                 * two reads a word, not three a bit. Those not taken go
                 * back; a bit set meanwhile by another counts again. */
                uint bits = atomic_xchg(IRR_GAT(120, &pend[w]), 0u), keep = 0;
                CLIRR_ACQUIRE_FENCE();
                for (; bits; bits &= bits - 1) {
                    uint u = 32 * w + (31 - clz(bits & -bits)), du = *IRR_GLD(118, &dist[u]);
                    uint slot = du < bound ? atomic_inc(&qn[c]) : qcap;
                    if (IRR_BRANCH(119, slot < qcap)) {
                        in[slot] = (uint2)(du, u);
                    } else {
                        keep |= 1u << (u % 32);
                        if (first) {
                            found++;
                            lo = min(lo, du);
                        }
                        if (du < bound) /* the queue is full: look again once it drains */
                            atomic_or(IRR_GAT(122, &flags[r]), 1u);
                    }
                }
                if (keep)
                    atomic_or(IRR_GAT(121, &pend[w]), keep);
            }
            first = false;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint nin = min(qn[c], qcap), nbox = min(bn[b], bcap);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) {
            /* drained, the box too: look again if flagged since */
            look = nin == 0 && nbox == 0 && active ? atomic_xchg(IRR_GAT(123, &flags[r]), 0u) : 0;
            qn[1 - c] = 0;
            bn[1 - b] = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (nin == 0 && nbox == 0 && !look)
            break; /* the whole work-group alike */
        /* the round before's hand-ons, from the last work-item down, so
         * that they fall on work-items this round's entries leave idle */
        __local uint2 *hand = b ? box + bcap : box, *next_hand = b ? box : box + bcap;
        for (uint j = size - 1 - lid; j < nbox; j += size)
            region_hand_on(pend, flags, bounds, nregions, r, vlo, vhi, bound, hand[j].y, hand[j].x, &found,
                           &lo IRR_FARG);
        for (uint i = lid; IRR_BRANCH(124, i < nin * lanes); i += size) {
            /* `lanes` work-items an entry, each its arcs lane, lane + lanes, ...:
             * a round's time is its chain of dependent reads, not its width */
            uint2 top = in[i / lanes];
            uint u = top.y, du = top.x;
            /* read together, before the test, so that their latencies overlap */
            uint now = *IRR_GLD(126, &dist[u]), kend = *IRR_GLD(127, &row[u + 1]);
            uint e = *IRR_GLD(128, &row[u]) + i % lanes;
            if (IRR_BRANCH(125, du != now))
                continue; /* lowered since it was queued: a nearer entry or bit has it */
            for (; IRR_BRANCH(129, e < kend); e += lanes) {
                uint v = *IRR_GLD(130, &col[e]);
                uint nd = relax_sum(du, WEIGHT(e), &status[1]);
                if (IRR_BRANCH(131, nd < SSSP_MIN_OLD(133, v, nd))) {
                    bool own = v >= vlo && v < vhi;
                    uint slot = own && nd < bound ? atomic_inc(&qn[1 - c]) : qcap;
                    if (IRR_BRANCH(134, slot < qcap)) {
                        out[slot] = (uint2)(nd, v);
                        continue;
                    }
                    uint hslot = atomic_inc(&bn[1 - b]);
                    if (hslot < bcap)
                        next_hand[hslot] = (uint2)(nd, v);
                    else
                        region_hand_on(pend, flags, bounds, nregions, r, vlo, vhi, bound, v, nd, &found,
                                       &lo IRR_FARG);
                }
            }
        }
        if (nin > 0)
            c = 1 - c;
        b = 1 - b;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (found) {
        atomic_add(&found_all, found);
        atomic_min(&lo_all, lo);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0 && found_all) {
        atomic_add(IRR_GAT(138, &info[3 * cur]), found_all);
        atomic_min(IRR_GAT(139, &info[3 * cur + 1]), lo_all);
    }
}
