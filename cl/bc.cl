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
 *   bc_forward_local, bc_backward_local  the same for small levels, many
 *             levels in one launch of one work-group (high-diameter graphs:
 *             one launch a level would cost more than the level's work).
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

/* The arcs of u in a CSR (row), capped so that sums of them cannot wrap. */
#define BC_ARCS(r, u, cap) min(*IRR_GLD(22, &(r)[(u) + 1]) - *IRR_GLD(23, &(r)[u]), (cap) + 1)

/* From level `depth` (order[first .. first+count), path counts known):
 * discover the next level into order[] after it (a vertex joins it once,
 * by compare-and-swap on level[]), pull its path counts, and go on while
 * levels stay small. A level whose out-arcs, or a new level whose
 * in-arcs, exceed arc_switch is left to the wide kernels (a hub is work
 * for every compute unit). state = {depth, first, count, path counts
 * pending, levels expanded}: count 0 means level `depth` found nothing
 * new (the last level); else level `depth` lies at order[first ..
 * first+count), its path counts still to pull when pending. offsets[d + 1]
 * is written for every level found. One work-group: the barriers order
 * the levels, and no work-group waits on another. */
__kernel void bc_forward_local(CLIRR_KPARAMS(BC_FORWARD_LOCAL_ARGS) IRR_KPARAM)
{
    __local uint lf_new, lf_arcs, lf_inarcs, lf_most, lf_inmost;
    const uint lid = get_local_id(0), lsize = get_local_size(0);
    uint d = depth, f = first, c = count, levels = 0, pending = 0;
    for (;;) {
        if (lid == 0) {
            lf_new = 0;
            lf_arcs = 0;
            lf_inarcs = 0;
            lf_most = 0;
            lf_inmost = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = lid; IRR_BRANCH(24, i < c); i += lsize) {
            uint arcs = BC_ARCS(row, *IRR_GLD(26, &order[f + i]), arc_switch);
            atomic_add(IRR_LAT(25, &lf_arcs), arcs);
            atomic_max(IRR_LAT(57, &lf_most), arcs);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lf_arcs > arc_switch || lf_most > degree_switch)
            break;
        for (uint i = lid; IRR_BRANCH(27, i < c); i += lsize) {
            uint u = *IRR_GLD(28, &order[f + i]);
            for (uint k = *IRR_GLD(29, &row[u]); IRR_BRANCH(30, k < row[u + 1]); k++) {
                uint w = *IRR_GLD(31, &col[k]);
                if (IRR_BRANCH(32, *IRR_GLD(33, &level[w]) == CLIRR_NONE &&
                                       atomic_cmpxchg(IRR_GAT(34, &level[w]), CLIRR_NONE, d + 1) == CLIRR_NONE)) {
                    *IRR_GST(35, &order[f + c + atomic_inc(IRR_LAT(36, &lf_new))]) = w;
                    uint inarcs = BC_ARCS(trow, w, arc_switch);
                    atomic_add(IRR_LAT(37, &lf_inarcs), inarcs);
                    atomic_max(IRR_LAT(58, &lf_inmost), inarcs);
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        const uint n = lf_new, inarcs = lf_inarcs, inmost = lf_inmost;
        levels++;
        if (n == 0) {
            c = 0;
            break;
        }
        if (lid == 0)
            offsets[d + 2] = f + c + n;
        if (inarcs > arc_switch || inmost > degree_switch) {
            pending = 1;
        } else {
            for (uint i = lid; IRR_BRANCH(38, i < n); i += lsize) {
                uint w = *IRR_GLD(39, &order[f + c + i]);
                double acc = 0.0;
                for (uint k = *IRR_GLD(40, &trow[w]); IRR_BRANCH(41, k < trow[w + 1]); k++)
                    acc += bc_sigma_term(*IRR_GLD(42, &tcol[k]), level, sigma, d IRR_FARG);
                *IRR_GST(43, &sigma[w]) = acc;
            }
        }
        f += c;
        c = n;
        d++;
        /* Everyone has read lf_new and the in-arc counts before they are
         * cleared. */
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (pending || c > item_switch || levels >= max_levels)
            break;
    }
    if (lid == 0) {
        state[0] = d;
        state[1] = f;
        state[2] = c;
        state[3] = pending;
        state[4] = levels;
    }
}

/* Dependencies of levels depth_hi - 1 down to depth_lo, each level's from
 * the next one's, in one work-group (levels the forward pass expanded in
 * bc_forward_local: their arcs are few). */
__kernel void bc_backward_local(CLIRR_KPARAMS(BC_BACKWARD_LOCAL_ARGS) IRR_KPARAM)
{
    const uint lid = get_local_id(0), lsize = get_local_size(0);
    for (uint d = depth_hi; IRR_BRANCH(44, d-- > depth_lo);) {
        const uint f = *IRR_GLD(45, &offsets[d]), c = *IRR_GLD(46, &offsets[d + 1]) - f;
        for (uint i = lid; IRR_BRANCH(47, i < c); i += lsize) {
            uint v = *IRR_GLD(48, &order[f + i]);
            double sv = *IRR_GLD(49, &sigma[v]), acc = 0.0;
            for (uint k = *IRR_GLD(50, &row[v]); IRR_BRANCH(51, k < row[v + 1]); k++)
                acc += bc_term(sv, *IRR_GLD(52, &col[k]), level, sigma, delta, d IRR_FARG);
            *IRR_GST(53, &delta[v]) = acc;
            if (IRR_BRANCH(54, v != source))
                *IRR_GST(56, &bc[v]) = *IRR_GLD(55, &bc[v]) + acc;
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}
