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
 * base = (1 - d) / n + d * (sum of dangling) / n comes from the host.
 * Parameter lists: cl/pagerank.def. */
#include "common/compat.clh"
#include "common/kargs.h"
#include "pagerank.def"

__kernel void pr_init(CLIRR_KPARAMS(PR_INIT_ARGS))
{
    for (uint u = get_global_id(0); u < n; u += get_global_size(0))
        r[u] = value;
}

__kernel void pr_prepare(CLIRR_KPARAMS(PR_PREPARE_ARGS))
{
    for (uint u = get_global_id(0); u < n; u += get_global_size(0)) {
        uint deg = row[u + 1] - row[u];
        contrib[u] = deg ? r[u] / deg : 0.0;
        dangling[u] = deg ? 0.0 : r[u];
    }
}

#define NL_NAME pr_pull
#define NL_PARAMS CLIRR_KPARAMS(PR_PULL_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(v) (trow[(v) + 1] - trow[v])
#define NL_REDUCE_T double
#define NL_TERM(v, j) contrib[tcol[trow[v] + (j)]]
#define NL_FINISH(v, acc)                                                      \
    {                                                                          \
        double nr = base + damping * (acc);                                    \
        diff[v] = fabs(nr - r[v]);                                             \
        rnew[v] = nr;                                                          \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"
