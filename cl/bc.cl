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
#define NL_ITEM(k) (*IRR_GLD(1, &order[first + (k)]))
#define NL_COUNT(v) (*IRR_GLD(2, &trow[(v) + 1]) - *IRR_GLD(3, &trow[v]))
#define NL_REDUCE_T double
#define NL_TERM(v, j) bc_sigma_term(*IRR_GLD(4, &tcol[trow[v] + (j)]), level, sigma, depth IRR_FARG)
#define NL_FINISH(v, acc) *IRR_GST(5, &sigma[v]) = (acc)

/* The path count through in-neighbour u when it is one level up. */
inline double bc_sigma_term(uint u, __global const uint *level, __global const double *sigma,
                            uint depth IRR_FPARAM)
{
    return IRR_BRANCH(6, *IRR_GLD(7, &level[u]) == depth) ? *IRR_GLD(8, &sigma[u]) : 0.0;
}
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

#define NL_NAME bc_delta
#define NL_PARAMS CLIRR_KPARAMS(BC_DELTA_ARGS)
#define NL_NITEMS count
#define NL_ITEM(k) (*IRR_GLD(9, &order[first + (k)]))
#define NL_COUNT(v) (*IRR_GLD(10, &row[(v) + 1]) - *IRR_GLD(11, &row[v]))
#define NL_PREP(v) double sv = *IRR_GLD(12, &sigma[v]);
#define NL_REDUCE_T double
#define NL_TERM(v, j) bc_term(sv, *IRR_GLD(13, &col[row[v] + (j)]), level, sigma, delta, depth IRR_FARG)
#define NL_FINISH(v, acc)                                                      \
    {                                                                          \
        *IRR_GST(14, &delta[v]) = (acc);                                       \
        if (IRR_BRANCH(15, (v) != source))                                     \
            *IRR_GST(17, &bc[v]) = *IRR_GLD(16, &bc[v]) + (acc);               \
    }

/* The dependency of a level-depth vertex (sigma sv) through successor w. */
inline double bc_term(double sv, uint w, __global const uint *level, __global const double *sigma,
                      __global const double *delta, uint depth IRR_FPARAM)
{
    return IRR_BRANCH(18, *IRR_GLD(19, &level[w]) == depth + 1)
               ? sv / *IRR_GLD(20, &sigma[w]) * (1.0 + *IRR_GLD(21, &delta[w]))
               : 0.0;
}
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"
