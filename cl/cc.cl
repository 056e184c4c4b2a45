/* cl/cc.cl - connected components of the simple undirected form, as the
 * smallest vertex id of each component.
 *
 *   cc_lp_topo  label propagation, topology-driven (data-driven vs
 *               topology-driven study, shared/papers/000): every vertex
 *               takes the smallest label among itself and its neighbours,
 *               a changed flag says whether another round is needed;
 *               rounds grow with the diameter.
 *   cc_lp_data  label propagation, data-driven: a worklist of vertices
 *               whose label dropped; each lowers its neighbours' labels
 *               with atomic_min and pushes those it lowered; while the
 *               worklist is small, cc_lp_local runs many such rounds in
 *               one work-group (templates/local_rounds.clh).
 *   cc_link_neighbor, cc_compress, cc_sample, cc_link_rest  Afforest
 *               (Sutton, Ben-Nun, Barak, IPDPS 2018; as in GAPBS's cc.cc):
 *               link each vertex to its first neighbours, compress, find
 *               the largest intermediate component from a sample, then
 *               link the remaining arcs of the vertices outside it.
 *
 * Hooking always points a larger root at a smaller one, so roots are the
 * smallest vertex of their trees and the compressed parent is the label.
 * Links are lock-free (a failed compare-and-swap means another work-item
 * made progress); nothing waits on another work-group, and compression is
 * its own launch after the links. */
#include "common/compat.clh"
#include "common/worklist.clh"
#include "cc.def"

#define NL_NAME cc_lp_topo
#define NL_PARAMS CLIRR_KPARAMS(CC_LP_TOPO_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(v) (row[(v) + 1] - row[v])
#define NL_REDUCE_T uint
#define NL_REDUCE_OP(a, b) min((a), (b))
#define NL_REDUCE_IDENT CLIRR_NONE
#define NL_TERM(v, j) label[col[row[v] + (j)]]
#define NL_FINISH(v, acc)                                                      \
    {                                                                          \
        if ((acc) < label[v]) {                                                \
            label[v] = (acc);                                                  \
            *changed = 1;                                                      \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* A data-driven round's work on arc j of v (lv: v's label), pushing with
 * PUSH. A rerun pushes again what the overflowed attempt lowered. */
#define CC_LOWER(v, j, PUSH)                                                   \
    {                                                                          \
        uint u = col[row[v] + (j)];                                            \
        uint old = atomic_min(&label[u], lv);                                  \
        if (old > lv || (wl_rerun && old == lv))                               \
            PUSH(u);                                                           \
    }

#define NL_NAME cc_lp_data
#define NL_PARAMS CLIRR_KPARAMS(CC_LP_DATA_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) wl_in[k]
#define NL_COUNT(v) (row[(v) + 1] - row[v])
#define NL_PREP(v) uint lv = label[v];
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define NL_WORK(v, j) CC_LOWER(v, j, wl_push)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* The tail of a high-diameter graph: many rounds in one work-group. */
#define LR_NAME cc_lp_local
#define LR_PARAMS CLIRR_KPARAMS(CC_LP_LOCAL_ARGS)
#define LR_COUNT(v) (row[(v) + 1] - row[v])
#define LR_PREP(v) uint lv = label[v];
#define LR_WORK(v, j) CC_LOWER(v, j, lr_push)
#include "templates/local_rounds.clh"

/* Join the trees of u and v: the larger root is pointed at the smaller one
 * by compare-and-swap; on a lost race, climb and try again. */
inline void cc_link(volatile __global uint *parent, uint u, uint v)
{
    uint p1 = parent[u], p2 = parent[v];
    while (p1 != p2) {
        uint high = max(p1, p2), low = min(p1, p2);
        uint ph = parent[high];
        if (ph == low)
            return;
        if (ph == high && atomic_cmpxchg(&parent[high], high, low) == high)
            return;
        p1 = parent[parent[high]];
        p2 = parent[low];
    }
}

__kernel void cc_link_neighbor(CLIRR_KPARAMS(CC_LINK_NEIGHBOR_ARGS))
{
    for (uint v = get_global_id(0); v < n; v += get_global_size(0))
        if (row[v] + r < row[v + 1])
            cc_link(parent, v, col[row[v] + r]);
}

__kernel void cc_compress(CLIRR_KPARAMS(CC_COMPRESS_ARGS))
{
    for (uint v = get_global_id(0); v < n; v += get_global_size(0)) {
        uint p = parent[v];
        while (p != parent[p]) {
            p = parent[p];
            parent[v] = p;
        }
    }
}

__kernel void cc_sample(CLIRR_KPARAMS(CC_SAMPLE_ARGS))
{
    for (uint i = get_global_id(0); i < nsample; i += get_global_size(0)) {
        /* A multiplicative hash spreads the sample over the ids. */
        uint v = (uint)(((ulong)(i * 2654435761u) * n) >> 32);
        out[i] = parent[v];
    }
}

#define NL_NAME cc_link_rest
#define NL_PARAMS CLIRR_KPARAMS(CC_LINK_REST_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
/* A vertex is skipped when, at the moment its count is read, it hangs
 * from skip_root: it is then in that component for good. An arc skipped
 * from both ends therefore joins two vertices of that component, and any
 * other arc is linked from at least one end (the form is symmetric). The
 * count may change while links run; templates read it again where they
 * use it, and either value is safe by the same argument. */
#define NL_COUNT(v)                                                            \
    (parent[v] == skip_root || row[(v) + 1] - row[v] <= rounds ? 0u : row[(v) + 1] - row[v] - rounds)
#define NL_WORK(v, j) cc_link(parent, (v), col[row[v] + rounds + (j)])
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"
