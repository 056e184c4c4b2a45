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
#include "common/flag.clh"
#include "common/worklist.clh"
#include "cc.def"

/* The degree of v (row[v] again in the arc loop is not recorded: compilers
 * keep it in a register). */
#define CC_DEG(v) (*IRR_GLD(7, &row[(v) + 1]) - *IRR_GLD(8, &row[v]))

#define NL_NAME cc_lp_topo
#define NL_PARAMS CLIRR_KPARAMS(CC_LP_TOPO_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(v) CC_DEG(v)
#define NL_REDUCE_T uint
#define NL_REDUCE_OP(a, b) min((a), (b))
#define NL_REDUCE_IDENT CLIRR_NONE
#define NL_TERM(v, j) (*IRR_GLD(1, &label[*IRR_GLD(2, &col[row[v] + (j)])]))
#define NL_FINISH(v, acc)                                                      \
    {                                                                          \
        if (IRR_BRANCH(3, (acc) < *IRR_GLD(4, &label[v]))) {                   \
            *IRR_GST(5, &label[v]) = (acc);                                    \
            CLIRR_SET_FLAG(changed);                                           \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* A data-driven round's work on arc j of v (lv: v's label), pushing with
 * PUSH. A rerun pushes again what the overflowed attempt lowered. */
#define CC_LOWER(v, j, PUSH)                                                   \
    {                                                                          \
        uint u = *IRR_GLD(9, &col[row[v] + (j)]);                              \
        uint old = atomic_min(IRR_GAT(10, &label[u]), lv);                     \
        if (IRR_BRANCH(11, old > lv || (wl_rerun && old == lv)))               \
            PUSH(u);                                                           \
    }

#define NL_NAME cc_lp_data
#define NL_PARAMS CLIRR_KPARAMS(CC_LP_DATA_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) (*IRR_GLD(12, &wl_in[k]))
#define NL_COUNT(v) CC_DEG(v)
#define NL_PREP(v) uint lv = *IRR_GLD(13, &label[v]);
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define NL_WORK(v, j) CC_LOWER(v, j, wl_push)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* The tail of a high-diameter graph: many rounds in one work-group. */
#define LR_NAME cc_lp_local
#define LR_PARAMS CLIRR_KPARAMS(CC_LP_LOCAL_ARGS)
#define LR_COUNT(v) CC_DEG(v)
#define LR_PREP(v) uint lv = *IRR_GLD(14, &label[v]);
#define LR_WORK(v, j) CC_LOWER(v, j, lr_push)
#include "templates/local_rounds.clh"

/* Join the trees of u and v: the larger root is pointed at the smaller one
 * by compare-and-swap; on a lost race, climb and try again. */
inline void cc_link(volatile __global uint *parent, uint u, uint v IRR_FPARAM)
{
    uint p1 = *IRR_GLD(15, &parent[u]), p2 = *IRR_GLD(16, &parent[v]);
    while (IRR_BRANCH(17, p1 != p2)) {
        uint high = max(p1, p2), low = min(p1, p2);
        uint ph = *IRR_GLD(18, &parent[high]);
        if (IRR_BRANCH(19, ph == low))
            return;
        if (IRR_BRANCH(20, ph == high && atomic_cmpxchg(IRR_GAT(21, &parent[high]), high, low) == high))
            return;
        p1 = *IRR_GLD(23, &parent[*IRR_GLD(22, &parent[high])]);
        p2 = *IRR_GLD(24, &parent[low]);
    }
}

__kernel void cc_link_neighbor(CLIRR_KPARAMS(CC_LINK_NEIGHBOR_ARGS) IRR_KPARAM)
{
    for (uint v = get_global_id(0); IRR_BRANCH(25, v < n); v += get_global_size(0))
        if (IRR_BRANCH(26, *IRR_GLD(27, &row[v]) + r < *IRR_GLD(28, &row[v + 1])))
            cc_link(parent, v, *IRR_GLD(29, &col[row[v] + r]) IRR_FARG);
}

__kernel void cc_compress(CLIRR_KPARAMS(CC_COMPRESS_ARGS) IRR_KPARAM)
{
    for (uint v = get_global_id(0); IRR_BRANCH(30, v < n); v += get_global_size(0)) {
        uint p = *IRR_GLD(31, &parent[v]);
        while (IRR_BRANCH(32, p != *IRR_GLD(33, &parent[p]))) {
            p = parent[p];
            *IRR_GST(34, &parent[v]) = p;
        }
    }
}

__kernel void cc_sample(CLIRR_KPARAMS(CC_SAMPLE_ARGS) IRR_KPARAM)
{
    for (uint i = get_global_id(0); IRR_BRANCH(35, i < nsample); i += get_global_size(0)) {
        /* A multiplicative hash spreads the sample over the ids. */
        uint v = (uint)(((ulong)(i * 2654435761u) * n) >> 32);
        *IRR_GST(37, &out[i]) = *IRR_GLD(36, &parent[v]);
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
    (*IRR_GLD(38, &parent[v]) == skip_root || CC_DEG(v) <= rounds ? 0u : row[(v) + 1] - row[v] - rounds)
#define NL_WORK(v, j) cc_link(parent, (v), *IRR_GLD(39, &col[row[v] + rounds + (j)]) IRR_FARG)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"
