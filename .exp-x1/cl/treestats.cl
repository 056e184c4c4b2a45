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

kernel void ett_tour(CLIRR_KPARAMS(ETT_TOUR_ARGS))
{
    uint e = get_global_id(0);
    if (e >= m)
        return;
    uint x = next[sib[e]];
    ep[e] = x == first ? END : x;
}

/* One 16-byte store per vertex: parent, down position, up position, size. */
kernel void ett_parent(CLIRR_KPARAMS(ETT_PARENT_ARGS))
{
    uint e = get_global_id(0);
    if (e >= m)
        return;
    uint re = rank[e], rs = rank[sib[e]];
    bool down = re > rs;
    isdown[e] = down;
    if (down)
        vstore4((uint4)(tail[e], m - 1 - re, m - 1 - rs, (re - rs + 1) / 2), col[e], out);
}

kernel void ett_child_sizes(CLIRR_KPARAMS(ETT_CHILD_SIZES_ARGS))
{
    uint e = get_global_id(0);
    if (e < m)
        key[e] = isdown[e] ? out[4 * col[e] + 3] : 0u;
}

/* Over the down arcs: the weights at both tour positions, and the
 * preorder weight kept in the head's slot 2 for ett_finish. */
kernel void ett_weights(CLIRR_KPARAMS(ETT_WEIGHTS_ARGS))
{
    uint e = get_global_id(0);
    if (e >= m || !isdown[e])
        return;
    uint x = col[e];
    uint4 r = vload4(x, out);
    uint w = 1 + xsum[e] - xsum[row[tail[e]]];
    wpre[r.y] = w;
    wpre[r.z] = 0u - w;
    wlev[r.y] = 1;
    wlev[r.z] = 0xffffffffu;
    out[4 * x + 2] = w;
}

kernel void ett_finish(CLIRR_KPARAMS(ETT_FINISH_ARGS))
{
    uint v = get_global_id(0);
    if (v >= n)
        return;
    if (v == root) {
        vstore4((uint4)(END, 0, 0, n), v, out);
        return;
    }
    uint4 r = vload4(v, out);
    out[4 * v + 1] = spre[r.y] + r.z;
    out[4 * v + 2] = slev[r.y] + 1;
}

/* Each vertex but the root has one arc from the vertex a level up. */
kernel void ett_bfs_out(CLIRR_KPARAMS(ETT_BFS_OUT_ARGS))
{
    uint e = get_global_id(0);
    if (e < m) {
        uint v = col[e], u = tail[e];
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
