/* cl/treestats.cl - tree computations by the Euler tour technique
 * (shared/papers/003, "Euler tour construction and tree computations"):
 * the tour of the arcs, ranked by cl/listrank.cl (host/algo/lrank.c), then
 * parent and subtree size from the ranks of each edge's two arcs, and
 * level and preorder from prefix sums (cl/prim.cl) over weights placed at
 * the arcs' tour positions. Host side: host/algo/treestats.c.
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

kernel void ett_tour(CLIRR_KPARAMS(ETT_TOUR_ARGS))
{
    uint e = get_global_id(0);
    if (e >= m)
        return;
    uint x = next[sib[e]];
    ep[e] = x == first ? END : x;
}

kernel void ett_parent(CLIRR_KPARAMS(ETT_PARENT_ARGS))
{
    uint e = get_global_id(0);
    if (e >= m)
        return;
    uint s = sib[e], re = rank[e], rs = rank[s];
    if (re > rs) {
        uint v = col[e];
        out[4 * v] = col[s];
        out[4 * v + 3] = (re - rs + 1) / 2;
        down[v] = e;
    }
}

kernel void ett_child_sizes(CLIRR_KPARAMS(ETT_CHILD_SIZES_ARGS))
{
    uint e = get_global_id(0);
    if (e >= m)
        return;
    uint x = col[e];
    key[e] = down[x] == e ? out[4 * x + 3] : 0u;
}

kernel void ett_weights(CLIRR_KPARAMS(ETT_WEIGHTS_ARGS))
{
    uint v = get_global_id(0);
    if (v >= n)
        return;
    uint e = down[v];
    if (e == END) /* the root */
        return;
    uint p = out[4 * v];
    uint w = 1 + xsum[e] - xsum[row[p]];
    uint fwd = m - 1 - rank[e], back = m - 1 - rank[sib[e]];
    wpre[fwd] = w;
    wpre[back] = 0u - w;
    wlev[fwd] = 1;
    wlev[back] = 0xffffffffu;
}

kernel void ett_finish(CLIRR_KPARAMS(ETT_FINISH_ARGS))
{
    uint v = get_global_id(0);
    if (v >= n)
        return;
    if (v == root) {
        out[4 * v] = END;
        out[4 * v + 1] = 0;
        out[4 * v + 2] = 0;
        out[4 * v + 3] = n;
        return;
    }
    uint pos = m - 1 - rank[down[v]];
    out[4 * v + 1] = spre[pos] + wpre[pos];
    out[4 * v + 2] = slev[pos] + 1;
}

/* Each vertex but the root has one arc from the vertex a level up. */
kernel void ett_bfs_out(CLIRR_KPARAMS(ETT_BFS_OUT_ARGS))
{
    uint e = get_global_id(0);
    if (e < m) {
        uint v = col[e], u = col[sib[e]];
        if (level[v] == level[u] + 1) {
            out[4 * v] = u;
            out[4 * v + 2] = level[v];
        }
    }
    if (e == 0) {
        out[4 * root] = END;
        out[4 * root + 2] = 0;
    }
}
