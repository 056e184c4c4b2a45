/* cl/mst.cl - Boruvka's minimum spanning forest (data-driven vs
 * topology-driven study, shared/papers/000, sections II.C, V.A, VI.A; after
 * LonestarGPU's kernels), on the simple undirected form of the graph.
 *
 * A round: every live component finds its lightest outgoing edge, then
 * every component hooks to the component across that edge. Edges are
 * ordered by the key (weight, canonical arc index): a total order, so the
 * pointers "component -> partner" form trees plus 2-cycles of components
 * that picked the same edge, which the smaller id breaks by staying a root.
 * No cycle can form, and the forest is the unique minimum one under that
 * order (the order Kruskal's reference sorts by).
 *
 * Keys are ulong: the weight with its sign bit flipped (so unsigned order
 * is signed order) above the edge id. A component's minimum is one 64-bit
 * atomic min where the device has cl_khr_int64_extended_atomics (built
 * with -DMST_ATOMIC64=1); else a 32-bit atomic min of the weight, then a
 * second pass (mst_pass2) takes the smallest edge id among the vertices
 * that reached that weight: exact, since each vertex first reduces its own
 * arcs to its own lightest key.
 *
 * Union-find: parent[] with path halving (every write points a vertex at
 * one of its ancestors, so racing finds stay right). No kernel waits on
 * another work-group: each phase is its own launch.
 *
 *   topo: mst_scan_topo (every vertex; components from comp[], compressed
 *         last round), mst_hook_topo (roots with an edge set parent[c] =
 *         partner), mst_compress (parent and comp of every vertex become its
 *         root; keys cleared).
 *   data: mst_scan_data (the worklist of vertices that still have an
 *         outgoing edge; finds through parent[]; pushes the vertex again
 *         and its component to the component list), mst_hook_data (over the
 *         component list: link[c] = partner), mst_apply (parent[c] =
 *         link[c]; keys cleared). */
#include "common/compat.clh"
#include "common/worklist.clh"
#include "mst.def"

#ifndef MST_ATOMIC64
#define MST_ATOMIC64 0
#endif
#if MST_ATOMIC64 && !CLIRR_HAS_INT64_EXTENDED_ATOMICS
#error "MST_ATOMIC64 needs cl_khr_int64_extended_atomics"
#endif

#define MST_INF 0xffffffffffffffffUL

/* The key of arc k: (weight, canonical edge id). */
/* Under `clirr profile` the helpers below take the record buffer: each is
 * defined as NAME_ and called through a macro NAME that passes it on
 * (IRR_FARG, empty otherwise; fixed arity: NVIDIA's OpenCL C has no variadic
 * macros); GLD(x) is a recorded load of lvalue x. */
#define GLD(x) (*IRR_GLD(0, &(x)))

/* The key of arc k: (weight, canonical edge id). */
#define MST_ARC_KEY(k)                                                         \
    (((ulong)((weighted ? as_uint(GLD(weight[k])) : 1u) ^ 0x80000000u) << 32) | (ulong)GLD(eid[k]))

/* Component c's key in cmin (2n uints). */
#if MST_ATOMIC64
#define MST_KEY(cmin, n, c) GLD(((__global const ulong *)(cmin))[c])
#define MST_KEY_CLEAR(cmin, n, c) (*IRR_GST(0, &((__global ulong *)(cmin))[c]) = MST_INF)
#else
#define MST_KEY(cmin, n, c) ((((ulong)GLD((cmin)[c])) << 32) | (ulong)GLD((cmin)[(n) + (c)]))
#define MST_KEY_CLEAR(cmin, n, c)                                              \
    (*IRR_GST(0, &(cmin)[c]) = CLIRR_NONE, *IRR_GST(0, &(cmin)[(n) + (c)]) = CLIRR_NONE)
#endif

/* The root of x, halving the path on the way. */
inline uint mst_find_(volatile __global uint *parent, uint x IRR_FPARAM)
{
    for (;;) {
        uint p = GLD(parent[x]);
        if (IRR_BRANCH(1, p == x))
            return x;
        uint gp = GLD(parent[p]);
        if (IRR_BRANCH(2, gp == p))
            return p;
        *IRR_GST(3, &parent[x]) = gp;
        x = gp;
    }
}
#define mst_find(a0, a1) mst_find_(a0, a1 IRR_FARG)

/* Vertex v's lightest outgoing key acc into its component c: the whole key
 * at once, or (fallback) the weight now and the edge id in mst_pass2,
 * which reads vmin. */
inline void mst_offer_(__global uint *cmin, __global ulong *vmin, uint n, uint v, uint c, ulong acc IRR_FPARAM)
{
#if MST_ATOMIC64
    if (IRR_BRANCH(4, acc != MST_INF))
        atom_min(IRR_GAT(5, (volatile __global ulong *)cmin + c), acc);
#else
    *IRR_GST(6, &vmin[v]) = acc;
    if (IRR_BRANCH(7, acc != MST_INF))
        atomic_min(IRR_GAT(8, (volatile __global uint *)cmin + c), (uint)(acc >> 32));
#endif
}
#define mst_offer(a0, a1, a2, a3, a4, a5) mst_offer_(a0, a1, a2, a3, a4, a5 IRR_FARG)

/* The vertex whose row holds arc e: the last v with row[v] <= e. */
inline uint mst_arc_source_(__global const uint *row, uint n, uint e IRR_FPARAM)
{
    uint lo = 0, hi = n;
    while (hi - lo > 1) {
        uint mid = lo + (hi - lo) / 2;
        if (IRR_BRANCH(9, GLD(row[mid]) <= e))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
#define mst_arc_source(a0, a1, a2) mst_arc_source_(a0, a1, a2 IRR_FARG)

/* The degree of v, recorded under `clirr profile`. */
#define MST_DEG(v) (*IRR_GLD(1, &row[(v) + 1]) - *IRR_GLD(2, &row[v]))

#define NL_NAME mst_scan_topo
#define NL_PARAMS CLIRR_KPARAMS(MST_SCAN_TOPO_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(v) MST_DEG(v)
#define NL_PREP(v) uint cv = *IRR_GLD(3, &comp[v]);
#define NL_REDUCE_T ulong
#define NL_REDUCE_OP(a, b) min((a), (b))
#define NL_REDUCE_IDENT MST_INF
#define NL_TERM(v, j)                                                          \
    (*IRR_GLD(5, &comp[*IRR_GLD(4, &col[row[v] + (j)])]) != cv ? MST_ARC_KEY(row[v] + (j)) : MST_INF)
#define NL_FINISH(v, acc)                                                      \
    {                                                                          \
        *IRR_GST(15, &live[v]) = (acc) != MST_INF;                             \
        mst_offer(cmin, vmin, n, (v), cv, (acc));                              \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* One push of component c per round under dedup, else one per caller. The
 * list holds at most one entry per worklist vertex, so n entries suffice;
 * a rerun of an overflowed worklist round may push again, and entries past
 * n are dropped (the first attempt pushed every component already). */
inline void mst_push_comp_(uint c, __global uint *out, volatile __global uint *count,
                           volatile __global uint *marks, uint epoch, uint dedup, uint cap IRR_FPARAM)
{
    if (IRR_BRANCH(10, dedup && (GLD(marks[c]) == epoch || atomic_xchg(IRR_GAT(11, &marks[c]), epoch) == epoch)))
        return;
    uint at = atomic_inc(IRR_GAT(12, count));
    if (IRR_BRANCH(13, at < cap))
        *IRR_GST(14, &out[at]) = c;
}
#define mst_push_comp(a0, a1, a2, a3, a4, a5, a6) mst_push_comp_(a0, a1, a2, a3, a4, a5, a6 IRR_FARG)

#define NL_NAME mst_scan_data
#define NL_PARAMS CLIRR_KPARAMS(MST_SCAN_DATA_ARGS)
#define NL_NITEMS WL_IN_SIZE
#define NL_ITEM(k) (*IRR_GLD(6, &wl_in[k]))
#define NL_COUNT(v) MST_DEG(v)
#define NL_PREP(v) uint cv = mst_find(parent, (v));
#define NL_KERNEL_BEGIN WL_BEGIN
#define NL_KERNEL_END WL_END
#define NL_REDUCE_T ulong
#define NL_REDUCE_OP(a, b) min((a), (b))
#define NL_REDUCE_IDENT MST_INF
#define NL_TERM(v, j)                                                          \
    (mst_find(parent, GLD(col[row[v] + (j)])) != cv ? MST_ARC_KEY(row[v] + (j)) : MST_INF)
#define NL_FINISH(v, acc)                                                      \
    {                                                                          \
        mst_offer(cmin, vmin, n, (v), cv, (acc));                              \
        if ((acc) != MST_INF) {                                                \
            wl_push(v);                                                        \
            mst_push_comp(cv, comp_out, comp_count, comp_marks, comp_epoch, dedup, n); \
        }                                                                      \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

__kernel void mst_pass2(CLIRR_KPARAMS(MST_PASS2_ARGS) IRR_KPARAM)
{
#if !MST_ATOMIC64
    for (uint k = get_global_id(0); IRR_BRANCH(15, k < nitems); k += get_global_size(0)) {
        uint v = use_items ? GLD(items[k]) : k;
        ulong acc = GLD(vmin[v]);
        if (IRR_BRANCH(16, acc == MST_INF))
            continue;
        uint c = mst_find(parent, v);
        if (IRR_BRANCH(17, (uint)(acc >> 32) == GLD(cmin[c])))
            atomic_min(IRR_GAT(18, (volatile __global uint *)cmin + n + c), (uint)acc);
    }
#endif
}

__kernel void mst_hook_topo(CLIRR_KPARAMS(MST_HOOK_TOPO_ARGS) IRR_KPARAM)
{
    for (uint c = get_global_id(0); IRR_BRANCH(19, c < n); c += get_global_size(0)) {
        if (IRR_BRANCH(20, GLD(comp[c]) != c))
            continue;
        ulong key = MST_KEY(cmin, n, c);
        if (IRR_BRANCH(21, key == MST_INF))
            continue;
        uint e = (uint)key;
        uint p = GLD(comp[GLD(col[e])]);
        if (IRR_BRANCH(22, p == c))
            p = GLD(comp[mst_arc_source(row, n, e)]);
        atomic_inc(IRR_GAT(23, nlive));
        /* A mutual pair picked the same edge: the smaller id stays root. */
        if (IRR_BRANCH(24, MST_KEY(cmin, n, p) == key && c < p))
            continue;
        *IRR_GST(25, &parent[c]) = p;
        *IRR_GST(26, &forest[c]) = e;
    }
}

__kernel void mst_compress(CLIRR_KPARAMS(MST_COMPRESS_ARGS) IRR_KPARAM)
{
    for (uint v = get_global_id(0); IRR_BRANCH(27, v < n); v += get_global_size(0)) {
        uint r = mst_find(parent, v);
        *IRR_GST(28, &parent[v]) = r;
        *IRR_GST(29, &comp[v]) = r;
        MST_KEY_CLEAR(cmin, n, v);
    }
}

__kernel void mst_hook_data(CLIRR_KPARAMS(MST_HOOK_DATA_ARGS) IRR_KPARAM)
{
    for (uint k = get_global_id(0); IRR_BRANCH(30, k < nitems); k += get_global_size(0)) {
        uint c = GLD(items[k]);
        ulong key = MST_KEY(cmin, n, c);
        uint e = (uint)key;
        uint p = mst_find(parent, GLD(col[e]));
        if (IRR_BRANCH(31, p == c))
            p = mst_find(parent, mst_arc_source(row, n, e));
        if (IRR_BRANCH(32, MST_KEY(cmin, n, p) == key && c < p)) {
            *IRR_GST(33, &link[c]) = CLIRR_NONE;
            continue;
        }
        *IRR_GST(34, &link[c]) = p;
        *IRR_GST(35, &forest[c]) = e;
    }
}

__kernel void mst_apply(CLIRR_KPARAMS(MST_APPLY_ARGS) IRR_KPARAM)
{
    for (uint k = get_global_id(0); IRR_BRANCH(36, k < nitems); k += get_global_size(0)) {
        uint c = GLD(items[k]);
        uint l = GLD(link[c]);
        if (IRR_BRANCH(37, l != CLIRR_NONE))
            *IRR_GST(38, &parent[c]) = l;
        MST_KEY_CLEAR(cmin, n, c);
    }
}
