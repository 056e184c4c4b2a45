/* cl/bc.cl - betweenness centrality by Brandes' algorithm on unweighted
 * directed graphs (nested-loop study, shared/papers/001, after Sariyuce
 * et al.), per source in two phases whose loops run through the templates
 * of cl/templates/nested_loop.clh. BFS discovery itself is bfs_data of
 * cl/bfs.cl; the vertices of each level lie in order[] level by level.
 *   bc_sigma  a vertex of level d+1 sums the path counts of its
 *             in-neighbours at level d (pull over the transpose: no atomics)
 *   bc_delta  a vertex of level d sums sigma[v]/sigma[w] * (1 + delta[w])
 *             over its out-neighbours w at level d+1, and adds its
 *             dependency to bc[v] unless it is the source.
 * Path counts and dependencies are doubles (the host checks for fp64). */
#include "common/compat.clh"
#include "common/kargs.h"
#include "bc.def"

#define NL_NAME bc_sigma
#define NL_PARAMS CLIRR_KPARAMS(BC_SIGMA_ARGS)
#define NL_NITEMS count
#define NL_ITEM(k) order[first + (k)]
#define NL_COUNT(v) (trow[(v) + 1] - trow[v])
#define NL_REDUCE_T double
#define NL_TERM(v, j) (level[tcol[trow[v] + (j)]] == depth ? sigma[tcol[trow[v] + (j)]] : 0.0)
#define NL_FINISH(v, acc) sigma[v] = (acc)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

#define NL_NAME bc_delta
#define NL_PARAMS CLIRR_KPARAMS(BC_DELTA_ARGS)
#define NL_NITEMS count
#define NL_ITEM(k) order[first + (k)]
#define NL_COUNT(v) (row[(v) + 1] - row[v])
#define NL_PREP(v) double sv = sigma[v];
#define NL_REDUCE_T double
#define NL_TERM(v, j) bc_term(sv, col[row[v] + (j)], level, sigma, delta, depth)
#define NL_FINISH(v, acc)                                                      \
    {                                                                          \
        delta[v] = (acc);                                                      \
        if ((v) != source)                                                     \
            bc[v] += (acc);                                                    \
    }

/* The dependency of a level-depth vertex (sigma sv) through successor w. */
inline double bc_term(double sv, uint w, __global const uint *level, __global const double *sigma,
                      __global const double *delta, uint depth)
{
    return level[w] == depth + 1 ? sv / sigma[w] * (1.0 + delta[w]) : 0.0;
}
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"
