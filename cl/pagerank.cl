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
 *               partial[2w], partial[2w+1], which the host adds in order (no
 *               atomics, no separate prepare or reduction launches).
 * base = (1 - d) / n + d * (sum of dangling) / n comes from the host.
 * Parameter lists: cl/pagerank.def. */
#include "common/compat.clh"
#include "common/kargs.h"
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

__kernel void pr_range(CLIRR_KPARAMS(PR_RANGE_ARGS) IRR_KPARAM)
{
    uint w = get_global_id(0);
    if (IRR_BRANCH(16, w >= nranges))
        return;
    double l1 = 0, dangling = 0;
    uint vend = *IRR_GLD(17, &bounds[w + 1]);
    for (uint v = *IRR_GLD(18, &bounds[w]); IRR_BRANCH(19, v < vend); v++) {
        double acc = 0;
        uint kend = *IRR_GLD(20, &trow[v + 1]);
        for (uint k = *IRR_GLD(21, &trow[v]); IRR_BRANCH(22, k < kend); k++)
            acc += *IRR_GLD(24, &contrib[*IRR_GLD(23, &tcol[k])]);
        double nr = base + damping * acc;
        l1 += fabs(nr - *IRR_GLD(25, &r[v]));
        *IRR_GST(26, &rnew[v]) = nr;
        uint deg = *IRR_GLD(27, &row[v + 1]) - *IRR_GLD(28, &row[v]);
        *IRR_GST(29, &contrib_next[v]) = deg ? nr / deg : 0.0;
        dangling += deg ? 0.0 : nr;
    }
    *IRR_GST(30, &partial[2 * w]) = l1;
    *IRR_GST(31, &partial[2 * w + 1]) = dangling;
}
