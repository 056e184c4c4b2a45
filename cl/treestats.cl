/* cl/treestats.cl - tree computations by the Euler tour technique
 * (shared/papers/003, "Euler tour construction and tree computations"):
 * the tour of the arcs, ranked by cl/listrank.cl (host/algo/lrank.c), then
 * parent and subtree size from the ranks of each edge's two arcs, and
 * level and preorder from prefix sums (cl/prim.cl) over weights placed at
 * the arcs' tour positions. Host side: host/algo/treestats.c. Each
 * vertex's four results sit together, so a kernel touching a vertex moves
 * one 16-byte piece (vload4 / vstore4) rather than four scattered words.
 *
 * An arc e of the adjacency (rows by tail, heads increasing) has its
 * reverse sib[e] and the next arc of its tail around the circle next[e];
 * rank[e] counts the arcs after e to the end of the tour, so the arc of an
 * edge ranked higher comes first and goes down, and e sits at tour
 * position m - 1 - rank[e]. out[4 v .. 4 v + 3] = parent, preorder,
 * level, size of v. Sums wrap in uint as the scans do; the results do not
 * (the -1 weights are 0xffffffff). */
#include "common/compat.clh"
#include "common/kargs.h"
#include "treestats.def"

#define END CLIRR_NONE

kernel void ett_tour(CLIRR_KPARAMS(ETT_TOUR_ARGS) IRR_KPARAM)
{
    uint e = get_global_id(0);
    if (IRR_BRANCH(1, e >= m))
        return;
    uint x = *IRR_GLD(3, &next[*IRR_GLD(2, &sib[e])]);
    *IRR_GST(4, &ep[e]) = x == first ? END : x;
}

/* One 16-byte store per vertex: parent, down position, up position, size. */
kernel void ett_parent(CLIRR_KPARAMS(ETT_PARENT_ARGS) IRR_KPARAM)
{
    uint e = get_global_id(0);
    if (IRR_BRANCH(5, e >= m))
        return;
    uint re = *IRR_GLD(6, &rank[e]), rs = *IRR_GLD(8, &rank[*IRR_GLD(7, &sib[e])]);
    bool down = re > rs;
    *IRR_GST(9, &isdown[e]) = down;
    if (IRR_BRANCH(10, down)) {
        uint c = *IRR_GLD(11, &col[e]);
        vstore4((uint4)(*IRR_GLD(12, &tail[e]), m - 1 - re, m - 1 - rs, (re - rs + 1) / 2), 0,
                (__global uint *)IRR_GST(13, (__global uint4 *)(out + 4 * (size_t)c)));
    }
}

kernel void ett_child_sizes(CLIRR_KPARAMS(ETT_CHILD_SIZES_ARGS) IRR_KPARAM)
{
    uint e = get_global_id(0);
    if (IRR_BRANCH(14, e < m))
        *IRR_GST(15, &key[e]) = IRR_BRANCH(16, *IRR_GLD(17, &isdown[e]))
                                    ? *IRR_GLD(19, &out[4 * *IRR_GLD(18, &col[e]) + 3]) : 0u;
}

/* Over the down arcs: the weights at both tour positions, and the
 * preorder weight kept in the head's slot 2 for ett_finish. */
kernel void ett_weights(CLIRR_KPARAMS(ETT_WEIGHTS_ARGS) IRR_KPARAM)
{
    uint e = get_global_id(0);
    if (IRR_BRANCH(20, e >= m || !*IRR_GLD(21, &isdown[e])))
        return;
    uint x = *IRR_GLD(22, &col[e]);
    uint4 r = vload4(0, (__global const uint *)IRR_GLD(23, (__global const uint4 *)(out + 4 * (size_t)x)));
    uint w = 1 + *IRR_GLD(24, &xsum[e]) -
             *IRR_GLD(27, &xsum[*IRR_GLD(26, &row[*IRR_GLD(25, &tail[e])])]);
    *IRR_GST(28, &wpre[r.y]) = w;
    *IRR_GST(29, &wpre[r.z]) = 0u - w;
    *IRR_GST(30, &wlev[r.y]) = 1;
    *IRR_GST(31, &wlev[r.z]) = 0xffffffffu;
    *IRR_GST(32, &out[4 * x + 2]) = w;
}

kernel void ett_finish(CLIRR_KPARAMS(ETT_FINISH_ARGS) IRR_KPARAM)
{
    uint v = get_global_id(0);
    if (IRR_BRANCH(33, v >= n))
        return;
    if (IRR_BRANCH(34, v == root)) {
        vstore4((uint4)(END, 0, 0, n), 0, (__global uint *)IRR_GST(35, (__global uint4 *)(out + 4 * (size_t)v)));
        return;
    }
    uint4 r = vload4(0, (__global const uint *)IRR_GLD(36, (__global const uint4 *)(out + 4 * (size_t)v)));
    *IRR_GST(38, &out[4 * v + 1]) = *IRR_GLD(37, &spre[r.y]) + r.z;
    *IRR_GST(40, &out[4 * v + 2]) = *IRR_GLD(39, &slev[r.y]) + 1;
}

/* Each vertex but the root has one arc from the vertex a level up. */
kernel void ett_bfs_out(CLIRR_KPARAMS(ETT_BFS_OUT_ARGS) IRR_KPARAM)
{
    uint e = get_global_id(0);
    if (IRR_BRANCH(41, e < m)) {
        uint v = *IRR_GLD(42, &col[e]), u = *IRR_GLD(43, &tail[e]);
        uint lv = *IRR_GLD(44, &level[v]);
        if (IRR_BRANCH(46, lv == *IRR_GLD(45, &level[u]) + 1)) {
            *IRR_GST(47, &out[4 * v]) = u;
            *IRR_GST(48, &out[4 * v + 2]) = lv;
        }
    }
    if (e == 0) {
        out[4 * root] = END;
        out[4 * root + 2] = 0;
    }
}
