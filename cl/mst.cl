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
#define MST_ARC_KEY(k)                                                         \
    (((ulong)((weighted ? as_uint(weight[k]) : 1u) ^ 0x80000000u) << 32) | (ulong)eid[k])

/* Component c's key in cmin (2n uints). */
#if MST_ATOMIC64
#define MST_KEY(cmin, n, c) (((__global const ulong *)(cmin))[c])
#define MST_KEY_CLEAR(cmin, n, c) (((__global ulong *)(cmin))[c] = MST_INF)
#else
#define MST_KEY(cmin, n, c) ((((ulong)(cmin)[c]) << 32) | (ulong)(cmin)[(n) + (c)])
#define MST_KEY_CLEAR(cmin, n, c) ((cmin)[c] = CLIRR_NONE, (cmin)[(n) + (c)] = CLIRR_NONE)
#endif

/* The root of x, halving the path on the way. */
inline uint mst_find(volatile __global uint *parent, uint x)
{
    for (;;) {
        uint p = parent[x];
        if (p == x)
            return x;
        uint gp = parent[p];
        if (gp == p)
            return p;
        parent[x] = gp;
        x = gp;
    }
}

/* Vertex v's lightest outgoing key acc into its component c: the whole key
 * at once, or (fallback) the weight now and the edge id in mst_pass2,
 * which reads vmin. */
inline void mst_offer(__global uint *cmin, __global ulong *vmin, uint n, uint v, uint c, ulong acc)
{
#if MST_ATOMIC64
    if (acc != MST_INF)
        atom_min((volatile __global ulong *)cmin + c, acc);
#else
    vmin[v] = acc;
    if (acc != MST_INF)
        atomic_min((volatile __global uint *)cmin + c, (uint)(acc >> 32));
#endif
}

/* The vertex whose row holds arc e: the last v with row[v] <= e. */
inline uint mst_arc_source(__global const uint *row, uint n, uint e)
{
    uint lo = 0, hi = n;
    while (hi - lo > 1) {
        uint mid = lo + (hi - lo) / 2;
        if (row[mid] <= e)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The degree of v, recorded under `clirr profile` (the union-find walks of
 * mst_find are not: only the scans' loads and the templates' are). */
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
        live[v] = (acc) != MST_INF;                                            \
        mst_offer(cmin, vmin, n, (v), cv, (acc));                              \
    }
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"

/* One push of component c per round under dedup, else one per caller. The
 * list holds at most one entry per worklist vertex, so n entries suffice;
 * a rerun of an overflowed worklist round may push again, and entries past
 * n are dropped (the first attempt pushed every component already). */
inline void mst_push_comp(uint c, __global uint *out, volatile __global uint *count,
                          volatile __global uint *marks, uint epoch, uint dedup, uint cap)
{
    if (dedup && (marks[c] == epoch || atomic_xchg(&marks[c], epoch) == epoch))
        return;
    uint at = atomic_inc(count);
    if (at < cap)
        out[at] = c;
}

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
    (mst_find(parent, col[row[v] + (j)]) != cv ? MST_ARC_KEY(row[v] + (j)) : MST_INF)
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

__kernel void mst_pass2(CLIRR_KPARAMS(MST_PASS2_ARGS))
{
#if !MST_ATOMIC64
    for (uint k = get_global_id(0); k < nitems; k += get_global_size(0)) {
        uint v = use_items ? items[k] : k;
        ulong acc = vmin[v];
        if (acc == MST_INF)
            continue;
        uint c = mst_find(parent, v);
        if ((uint)(acc >> 32) == cmin[c])
            atomic_min((volatile __global uint *)cmin + n + c, (uint)acc);
    }
#endif
}

__kernel void mst_hook_topo(CLIRR_KPARAMS(MST_HOOK_TOPO_ARGS))
{
    for (uint c = get_global_id(0); c < n; c += get_global_size(0)) {
        if (comp[c] != c)
            continue;
        ulong key = MST_KEY(cmin, n, c);
        if (key == MST_INF)
            continue;
        uint e = (uint)key;
        uint p = comp[col[e]];
        if (p == c)
            p = comp[mst_arc_source(row, n, e)];
        atomic_inc(nlive);
        /* A mutual pair picked the same edge: the smaller id stays root. */
        if (MST_KEY(cmin, n, p) == key && c < p)
            continue;
        parent[c] = p;
        forest[c] = e;
    }
}

__kernel void mst_compress(CLIRR_KPARAMS(MST_COMPRESS_ARGS))
{
    for (uint v = get_global_id(0); v < n; v += get_global_size(0)) {
        uint r = mst_find(parent, v);
        parent[v] = r;
        comp[v] = r;
        MST_KEY_CLEAR(cmin, n, v);
    }
}

__kernel void mst_hook_data(CLIRR_KPARAMS(MST_HOOK_DATA_ARGS))
{
    for (uint k = get_global_id(0); k < nitems; k += get_global_size(0)) {
        uint c = items[k];
        ulong key = MST_KEY(cmin, n, c);
        uint e = (uint)key;
        uint p = mst_find(parent, col[e]);
        if (p == c)
            p = mst_find(parent, mst_arc_source(row, n, e));
        if (MST_KEY(cmin, n, p) == key && c < p) {
            link[c] = CLIRR_NONE;
            continue;
        }
        link[c] = p;
        forest[c] = e;
    }
}

__kernel void mst_apply(CLIRR_KPARAMS(MST_APPLY_ARGS))
{
    for (uint k = get_global_id(0); k < nitems; k += get_global_size(0)) {
        uint c = items[k];
        uint l = link[c];
        if (l != CLIRR_NONE)
            parent[c] = l;
        MST_KEY_CLEAR(cmin, n, c);
    }
}
