/* cl/pagerank.cl - PageRank by Jacobi iteration in pull form (nested-loop
 * study, shared/papers/001): every vertex sums the contributions of its
 * in-neighbours over the transpose graph, one vertex a nested-loop item
 * through the templates of cl/templates/nested_loop.clh.
 *   pr_prepare  contrib[u] = r[u] / outdeg(u); dangling[u] = r[u] when u
 *               has no out-arcs (their mass is spread over all vertices)
 *   pr_pull     r'(v) = base + d * (sum of contrib over in-arcs), and
 *               diff[v] = |r'(v) - r(v)| for the L1 stopping test
 * base = (1 - d) / n + d * (sum of dangling) / n comes from the host. */
#include "common/compat.clh"

__kernel void pr_prepare(__global const uint *row, __global const double *r,
                         __global double *contrib, __global double *dangling, const uint n)
{
    for (uint u = get_global_id(0); u < n; u += get_global_size(0)) {
        uint deg = row[u + 1] - row[u];
        contrib[u] = deg ? r[u] / deg : 0.0;
        dangling[u] = deg ? 0.0 : r[u];
    }
}

#define NL_NAME pr_pull
#define NL_PARAMS                                                              \
    __global const uint *trow, __global const uint *tcol, __global const double *contrib, \
        __global const double *r, __global double *rnew, __global double *diff,  \
        const double base, const double damping, const uint n
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
