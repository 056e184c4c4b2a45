/* cl/pagerank.cl - PageRank by Jacobi iteration in pull form (nested-loop
 * study, shared/papers/001): every vertex sums the contributions of its
 * in-neighbours over the transpose graph, one vertex a nested-loop item
 * through the templates of cl/templates/nested_loop.clh.
 *   pr_init     r[u] = value (1/n, computed once by the host, so the start
 *               is bit for bit the reference's)
 *   pr_prepare  contrib[u] = r[u] / outdeg(u); dangling[u] = r[u] when u
 *               has no out-arcs (their mass is spread over all vertices)
 *   pr_pull     r'(v) = base + d * (sum of contrib over in-arcs), and
 *               diff[v] = |r'(v) - r(v)| for the L1 stopping test
 *   pr_range    the `range` variant (CPU devices): a whole iteration in one
 *               launch. Work-item w owns the vertices [bounds[w],
 *               bounds[w+1]) (ranges of about equal arcs, from the host), so
 *               a core streams its rows, scores and contributions in order;
 *               it pulls each vertex's new score as pr_pull does, writes the
 *               next iteration's contribution and dangling mass itself, and
 *               leaves its sums of |r' - r| and of the new dangling mass in
 *               partial[2w], partial[2w+1] (no atomics, no separate prepare
 *               or reduction launches).
 *   pr_fused    the `fused` variant (GPUs): the same iteration in one launch,
 *               one vertex a work-item (neighbouring work-items on
 *               neighbouring rows) over a grid of a few work-groups a compute
 *               unit, vertices of many in-arcs a whole work-group each; the
 *               sums go to partial[2g], partial[2g+1] a work-group.
 *   pr_gather_block, pr_block_split  fused or range in blocks (devices
 *               whose cache holds less than the contributions): the
 *               sources split into blocks, an iteration gathers each
 *               block's in-arcs in a pass of its own, so the pass's random
 *               reads stay in the cache; fused or range does the last block
 *               and the rest of the iteration.
 *   pr_start    the first scores, contributions and dangling sums of both.
 *   pr_scores   the scores of a queued run in doubles, from its last
 *               contributions (below: such runs keep no scores apart).
 * range and fused are queued: the host enqueues iterations ahead and reads
 * nothing back in between. Each launch first adds up the previous launch's
 * sums itself (every work-group the same numbers in the same order, so all
 * agree bit for bit), takes base and the stopping test from them, and does
 * nothing once a run has stopped (`state`): the scores are those of the
 * iteration where the reference stops too.
 * pull takes base = (1 - d) / n + d * (sum of dangling) / n from the host.
 * Parameter lists: cl/pagerank.def. */
#include "common/compat.clh"
#include "common/kargs.h"
/* --precision float (PR_CONTRIB_FLOAT): the contributions, which the
 * gathers read at random, are stored as floats, half the bytes (as GAPBS
 * and Pannotia keep them); scores, sums and the stopping test stay double.
 * In doubles the queued variants (range, fused) keep no scores apart: a
 * vertex's score is its contribution times its out-degree, so an
 * iteration neither reads old scores nor writes new ones (two of the
 * seven arrays it streams), and pr_scores makes the scores once at the
 * end. A vertex with no out-arcs is no one's in-neighbour: its slot is
 * never gathered and holds its score itself. Floats could not give the
 * scores back to double precision, so there r and rnew stay. Measured
 * (tests/bench/RESULTS.md, "Scores in the contributions"): H200 fused,
 * 20 iterations, the 2048 x 2048 grid 2.01-2.03 ms of kernels against
 * 2.27-2.28, urand 2^23 12.07 against 12.56; PoCL on a 16-core Xeon,
 * range, urand 315-326 against 335-339. */
#ifdef PR_CONTRIB_FLOAT
typedef float pr_contrib;
#define PR_SCORES_IN_CONTRIB 0
#else
typedef double pr_contrib;
#define PR_SCORES_IN_CONTRIB 1
#endif
/* The queued variants' contribution of score x at out-degree deg, and the
 * score back from contribution c. */
#define PR_CONTRIB_OF(x, deg) ((deg) ? (x) / (deg) : PR_SCORES_IN_CONTRIB ? (x) : 0.0)
#define PR_SCORE_OF(c, deg) ((deg) ? (double)(c) * (deg) : (double)(c))
#include "pagerank.def"

__kernel void pr_init(CLIRR_KPARAMS(PR_INIT_ARGS) IRR_KPARAM)
{
    for (uint u = get_global_id(0); IRR_BRANCH(1, u < n); u += get_global_size(0))
        *IRR_GST(2, &r[u]) = value;
}

__kernel void pr_prepare(CLIRR_KPARAMS(PR_PREPARE_ARGS) IRR_KPARAM)
{
    for (uint u = get_global_id(0); IRR_BRANCH(3, u < n); u += get_global_size(0)) {
        uint deg = *IRR_GLD(4, &row[u + 1]) - *IRR_GLD(5, &row[u]);
        double ru = *IRR_GLD(6, &r[u]);
        *IRR_GST(7, &contrib[u]) = deg ? ru / deg : 0.0;
        *IRR_GST(8, &dangling[u]) = deg ? 0.0 : ru;
    }
}

#define NL_NAME pr_pull
#define NL_PARAMS CLIRR_KPARAMS(PR_PULL_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(v) (*IRR_GLD(9, &trow[(v) + 1]) - *IRR_GLD(10, &trow[v]))
#define NL_REDUCE_T double
#define NL_TERM(v, j) (*IRR_GLD(12, &contrib[*IRR_GLD(11, &tcol[trow[v] + (j)])]))
#define NL_FINISH(v, acc)                                                      \
    {                                                                          \
        double nr = base + damping * (acc);                                    \
        *IRR_GST(14, &diff[v]) = fabs(nr - *IRR_GLD(13, &r[v]));               \
        *IRR_GST(15, &rnew[v]) = nr;                                           \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* A work-group's two sums of one value each per work-item, by a tree over
 * the work-group in tmp (no work-group collectives: their order may differ
 * from one work-group to another). A work-group collective: all its
 * work-items call it. */
static void pr_group_sums(double a, double b, __local double *tmp, double *ga, double *gb)
{
    const uint lid = get_local_id(0), size = get_local_size(0);
    tmp[2 * lid] = a;
    tmp[2 * lid + 1] = b;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint step = 1;
    while (step * 2 < size)
        step *= 2;
    for (; step > 0; step >>= 1) {
        if (lid < step && lid + step < size) {
            tmp[2 * lid] += tmp[2 * (lid + step)];
            tmp[2 * lid + 1] += tmp[2 * (lid + step) + 1];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *ga = tmp[0];
    *gb = tmp[1];
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The previous launch's sums, added up in one fixed order: work-item i
 * takes sums i, i + size, ... in turn, then the work-group's tree. A
 * work-group collective. */
static void pr_add_sums(__global const double *sums, uint nsums, __local double *tmp, double *l1,
                        double *dangling)
{
    const uint lid = get_local_id(0), size = get_local_size(0);
    double a = 0, b = 0;
    for (uint i = lid; i < nsums; i += size) {
        a += sums[2 * i];
        b += sums[2 * i + 1];
    }
    pr_group_sums(a, b, tmp, l1, dangling);
}

/* A vertex's new score from its pulled sum, given its old score rv and
 * out-degree deg: its next contribution written (and the score, where
 * scores are kept apart); its change and dangling mass added to l1,
 * dangling. */
#define PR_FINISH_WITH(v, acc, rv, deg, l1, dangling)                          \
    {                                                                          \
        double nr_ = base + damping * (acc);                                   \
        (l1) += fabs(nr_ - (rv));                                              \
        if (!PR_SCORES_IN_CONTRIB)                                             \
            *IRR_GST(41, &rnew[v]) = nr_;                                      \
        *IRR_GST(44, &contrib_next[v]) = PR_CONTRIB_OF(nr_, deg);              \
        (dangling) += (deg) ? 0.0 : nr_;                                       \
    }
#define PR_OLD_SCORE(v, deg)                                                   \
    (PR_SCORES_IN_CONTRIB ? PR_SCORE_OF(*IRR_GLD(75, &contrib[v]), deg) : *IRR_GLD(40, &r[v]))
#define PR_OUT_DEGREE(v) (*IRR_GLD(42, &row[(v) + 1]) - *IRR_GLD(43, &row[v]))
#define PR_FINISH(v, acc, l1, dangling)                                        \
    {                                                                          \
        uint deg_ = PR_OUT_DEGREE(v);                                          \
        PR_FINISH_WITH(v, acc, PR_OLD_SCORE(v, deg_), deg_, l1, dangling);     \
    }

/* Kernels with barriers here meet each one on every path, with no
 * return before it and none inside a branch, even a uniform one: PoCL 3.1
 * spins on such work-groups (pr_start hung so). A work-group with nothing
 * to do runs its loops zero times instead. */
__kernel void pr_start(CLIRR_KPARAMS(PR_START_ARGS) IRR_KPARAM)
{
    const uint w = get_global_id(0);
    double dangling = 0, l1;
    if (nranges && !IRR_BRANCH(45, w >= nranges)) { /* range: work-item w, one a work-group */
        uint vend = bounds[w + 1];
        for (uint v = bounds[w]; v < vend; v++) {
            uint deg = *IRR_GLD(46, &row[v + 1]) - *IRR_GLD(47, &row[v]);
            if (!PR_SCORES_IN_CONTRIB)
                *IRR_GST(48, &r[v]) = value;
            *IRR_GST(49, &contrib[v]) = PR_CONTRIB_OF(value, deg);
            dangling += deg ? 0.0 : value;
        }
        partial[2 * w] = 0;
        partial[2 * w + 1] = dangling;
        if (w == 0)
            *state = 0;
    }
    /* fused: one vertex a work-item, the sums a work-group */
    for (uint v = nranges ? n : w; IRR_BRANCH(50, v < n); v += get_global_size(0)) {
        uint deg = *IRR_GLD(51, &row[v + 1]) - *IRR_GLD(52, &row[v]);
        if (!PR_SCORES_IN_CONTRIB)
            *IRR_GST(53, &r[v]) = value;
        *IRR_GST(54, &contrib[v]) = PR_CONTRIB_OF(value, deg);
        dangling += deg ? 0.0 : value;
    }
    pr_group_sums(0, dangling, tmp, &l1, &dangling);
    if (!nranges && get_local_id(0) == 0) {
        partial[2 * get_group_id(0)] = 0;
        partial[2 * get_group_id(0) + 1] = dangling;
        if (get_group_id(0) == 0)
            *state = 0;
    }
}

__kernel void pr_range(CLIRR_KPARAMS(PR_RANGE_ARGS) IRR_KPARAM)
{
    uint w = get_global_id(0);
    /* One work-item a work-group: no collectives, each adds the sums alone
     * (the same order as every other). */
    if (IRR_BRANCH(16, w >= nranges) || *state)
        return;
    double l1 = 0, dangling = 0;
    for (uint i = 0; i < nsums; i++) {
        l1 += sums[2 * i];
        dangling += sums[2 * i + 1];
    }
    if (iter > 1 && l1 <= tol) { /* <=: tol 0 stops at an exact fixed point */
        if (w == 0)
            *state = iter - 1;
        return;
    }
    double base = (1.0 - damping) / n + damping * dangling / n;
    l1 = dangling = 0;
    uint vend = *IRR_GLD(17, &bounds[w + 1]);
    for (uint v = *IRR_GLD(18, &bounds[w]); IRR_BRANCH(19, v < vend); v++) {
        double acc = 0;
        uint k = *IRR_GLD(21, &trow[v]), kend = *IRR_GLD(20, &trow[v + 1]);
        if (nblocks > 1) { /* the blocks before the last: pr_gather_block's */
            acc = *IRR_GLD(80, &rnew[v]);
            k = *IRR_GLD(81, &tsplit[(ulong)(nblocks - 2) * n + v]);
        }
        for (; IRR_BRANCH(22, k < kend); k++)
            acc += *IRR_GLD(24, &contrib[*IRR_GLD(23, &tcol[k])]);
        PR_FINISH(v, acc, l1, dangling);
    }
    *IRR_GST(30, &partial[2 * w]) = l1;
    *IRR_GST(31, &partial[2 * w + 1]) = dangling;
}

__kernel void pr_fused(CLIRR_KPARAMS(PR_FUSED_ARGS) IRR_KPARAM)
{
    const uint lid = get_local_id(0), size = get_local_size(0), g = get_group_id(0);
    /* Whether the run has stopped, read once for the whole work-group: the
     * launch that finds the stop writes state while others may be reading
     * it. */
    __local uint stopped;
    if (lid == 0)
        stopped = *state;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* A stopped run's sums are stale: added up all the same (barriers on
     * every path), never used. */
    double l1, dangling;
    pr_add_sums(sums, nsums, tmp, &l1, &dangling);
    bool stop = !stopped && iter > 1 && l1 <= tol; /* <=: tol 0 stops at an exact fixed point */
    bool active = !stopped && !stop;
    if (stop && g == 0 && lid == 0)
        *state = iter - 1;
    double base = (1.0 - damping) / n + damping * dangling / n;
    l1 = dangling = 0;
    for (uint v = active ? get_global_id(0) : n; IRR_BRANCH(32, v < n); v += get_global_size(0)) {
        uint k = *IRR_GLD(33, &trow[v]), kend = *IRR_GLD(34, &trow[v + 1]);
        if (IRR_BRANCH(35, kend - k > heavy_deg))
            continue; /* a work-group's, below */
        /* Loaded before the gather, so that their latency overlaps it. */
        uint deg = PR_OUT_DEGREE(v);
        double rv = PR_OLD_SCORE(v, deg);
        double acc = 0;
        if (nblocks > 1) { /* the blocks before the last: pr_gather_block's */
            acc = *IRR_GLD(57, &rnew[v]);
            k = *IRR_GLD(58, &tsplit[(ulong)(nblocks - 2) * n + v]);
        }
        for (; IRR_BRANCH(36, k < kend); k++)
            acc += *IRR_GLD(38, &contrib[*IRR_GLD(37, &tcol[k])]);
        PR_FINISH_WITH(v, acc, rv, deg, l1, dangling);
    }
    /* The same trips in the whole work-group. */
    for (uint h = active ? g : nheavy; h < nheavy; h += get_num_groups(0)) {
        uint v = heavy[h], kend = trow[v + 1];
        double acc = 0, sum, none;
        for (uint k = trow[v] + lid; IRR_BRANCH(39, k < kend); k += size)
            acc += *IRR_GLD(56, &contrib[*IRR_GLD(55, &tcol[k])]);
        pr_group_sums(acc, 0, tmp, &sum, &none);
        if (lid == 0)
            PR_FINISH(v, sum, l1, dangling);
    }
    pr_group_sums(l1, dangling, tmp, &l1, &dangling);
    if (active && lid == 0) {
        partial[2 * g] = l1;
        partial[2 * g + 1] = dangling;
    }
}

/* Where each block of sources starts in each row: a binary search of the
 * row (sorted by source) for every block boundary. */
__kernel void pr_block_split(CLIRR_KPARAMS(PR_BLOCK_SPLIT_ARGS) IRR_KPARAM)
{
    for (uint v = get_global_id(0); IRR_BRANCH(59, v < n); v += get_global_size(0)) {
        uint lo = *IRR_GLD(60, &trow[v]), hi = *IRR_GLD(61, &trow[v + 1]);
        for (uint j = 1; j < nblocks; j++) {
            ulong bound = (ulong)j * block;
            uint a = lo, b = hi;
            while (a < b) {
                uint mid = a + (b - a) / 2;
                if (*IRR_GLD(62, &tcol[mid]) < bound)
                    a = mid + 1;
                else
                    b = mid;
            }
            *IRR_GST(63, &tsplit[(ulong)(j - 1) * n + v]) = a;
            lo = a;
        }
    }
}

/* One block's pass of an iteration in blocks (PR_GATHER_BLOCK_ARGS): each
 * pass gathers from only 1/nblocks of the contributions, a slice that
 * stays in the device's cache where the whole array would not. No
 * barriers, so a stopped run may return at once. */
__kernel void pr_gather_block(CLIRR_KPARAMS(PR_GATHER_BLOCK_ARGS) IRR_KPARAM)
{
    if (*state)
        return;
    /* range: work-item w's vertex range, in order (a core streams it);
     * fused: one vertex a work-item */
    const uint w = get_global_id(0);
    uint v = nranges ? (w < nranges ? *IRR_GLD(82, &bounds[w]) : n) : w;
    uint vend = nranges && w < nranges ? *IRR_GLD(83, &bounds[w + 1]) : n;
    uint step = nranges ? 1 : get_global_size(0);
    for (; IRR_BRANCH(64, v < vend); v += step) {
        uint k = *IRR_GLD(65, &trow[v]), kend = *IRR_GLD(66, &trow[v + 1]);
        if (IRR_BRANCH(67, kend - k > heavy_deg))
            continue; /* fused pulls it whole */
        double a = 0;
        if (pass) {
            a = *IRR_GLD(68, &acc[v]);
            k = *IRR_GLD(69, &tsplit[(ulong)(pass - 1) * n + v]);
        }
        uint end = *IRR_GLD(70, &tsplit[(ulong)pass * n + v]);
        for (; IRR_BRANCH(71, k < end); k++)
            a += *IRR_GLD(73, &contrib[*IRR_GLD(72, &tcol[k])]);
        *IRR_GST(74, &acc[v]) = a;
    }
}

/* The scores of a queued run in doubles, from its last contributions
 * (PR_SCORES_IN_CONTRIB). */
__kernel void pr_scores(CLIRR_KPARAMS(PR_SCORES_ARGS) IRR_KPARAM)
{
    for (uint v = get_global_id(0); IRR_BRANCH(76, v < n); v += get_global_size(0))
        *IRR_GST(79, &r[v]) = PR_SCORE_OF(*IRR_GLD(77, &contrib[v]), PR_OUT_DEGREE(v));
}
