/* cl/bh.cl - Barnes-Hut n-body (shared/papers/000: the tree build,
 * summarization, sort and force kernels of LonestarGPU's BH; 002: BHtree,
 * BHforce). Host side: host/algo/bh.c; the tree's layout: cl/bh.def; the
 * serial mirror of every kernel: host/ref/bh_serial.inc.
 *
 * No work-item ever waits for another work-group:
 *   - the build inserts each body lock-free: an empty slot or a body's
 *     slot is claimed by one compare-and-swap; a work-item that loses the
 *     race re-reads the slot and retries on its own (a cell it allocated
 *     for the lost split is kept for its next split, and left unlinked if
 *     none comes). Every slot is emptied before the build (the host's
 *     fill), a split swaps in an empty cell and inserts the displaced body
 *     again, and slots only go empty -> body -> cell (or a longer chain):
 *     a read that lags behind another work-item's writes sees an earlier
 *     state of that order, and the compare-and-swap that acts on it fails
 *     and reads again. No fence across work-groups is relied on (an
 *     earlier build that filled a cell before swapping it in lost bodies
 *     on the H100: its writes reached other SMs out of order);
 *   - summarization and the sort read only what earlier launches wrote
 *     (ready stamps, worklists, counts): the host orders the passes;
 *   - the force walk's groups are work-groups, sub-groups or NVIDIA warps,
 *     synchronized only inside themselves (bh_link's layout was written
 *     by an earlier launch). */
#include "common/compat.clh"
#include "common/kargs.h"
#include "common/irregularity.clh"

#if BH_DOUBLE
#if !CLIRR_HAS_FP64
#error "double precision Barnes-Hut needs cl_khr_fp64"
#endif
typedef double REAL;
typedef double4 REAL4;
#else
typedef float REAL;
typedef float4 REAL4;
#endif

#include "bh.def"

/* The serial reference rounds every operation; so do these. */
#pragma OPENCL FP_CONTRACT OFF

/* BH_WALK (from the host): the force walk's vote (cl/bh.def). */
#if BH_WALK == BH_WALK_SUBGROUP
#if !CLIRR_HAS_SUBGROUPS
#error "BH_WALK_SUBGROUP needs sub-groups"
#endif
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
#endif

/* Octant of a point around a centre: bit 0 x, bit 1 y, bit 2 z above it. */
static inline uint bh_octant(REAL x, REAL y, REAL z, REAL cx, REAL cy, REAL cz)
{
    return (uint)(x > cx) | (uint)(y > cy) << 1 | (uint)(z > cz) << 2;
}

/* The centre of octant k of a cell whose children have half-width r. */
static inline void bh_descend(REAL *cx, REAL *cy, REAL *cz, uint k, REAL r)
{
    *cx = *cx + ((k & 1) ? r : -r);
    *cy = *cy + ((k & 2) ? r : -r);
    *cz = *cz + ((k & 4) ? r : -r);
}

__kernel void bh_bbox(CLIRR_KPARAMS(BH_BBOX_ARGS))
{
    __local REAL lo[3][256], hi[3][256];
    uint lid = get_local_id(0), lsz = get_local_size(0);
    REAL l[3] = {px[0], py[0], pz[0]}, h[3] = {px[0], py[0], pz[0]};
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        REAL p[3] = {px[i], py[i], pz[i]};
        for (int k = 0; k < 3; k++) {
            l[k] = fmin(l[k], p[k]);
            h[k] = fmax(h[k], p[k]);
        }
    }
    for (int k = 0; k < 3; k++) {
        lo[k][lid] = l[k];
        hi[k][lid] = h[k];
    }
    for (uint s = lsz / 2; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s)
            for (int k = 0; k < 3; k++) {
                lo[k][lid] = fmin(lo[k][lid], lo[k][lid + s]);
                hi[k][lid] = fmax(hi[k][lid], hi[k][lid + s]);
            }
    }
    if (lid == 0)
        for (int k = 0; k < 3; k++) {
            part[6 * get_group_id(0) + k] = lo[k][0];
            part[6 * get_group_id(0) + 3 + k] = hi[k][0];
        }
}

__kernel void bh_root(CLIRR_KPARAMS(BH_ROOT_ARGS))
{
    if (get_global_id(0) != 0)
        return;
    REAL l[3], h[3];
    for (int k = 0; k < 3; k++) {
        l[k] = part[k];
        h[k] = part[3 + k];
    }
    for (uint g = 1; g < nparts; g++)
        for (int k = 0; k < 3; k++) {
            l[k] = fmin(l[k], part[6 * g + k]);
            h[k] = fmax(h[k], part[6 * g + 3 + k]);
        }
    REAL ext = 0;
    for (int k = 0; k < 3; k++) {
        geom[k] = (l[k] + h[k]) * (REAL)0.5;
        ext = fmax(ext, h[k] - l[k]);
    }
    geom[3] = ext * (REAL)0.5;
    cgeo[0] = (REAL4)(geom[0], geom[1], geom[2], geom[3]);
    info[BH_INFO_CELLS] = 1;
    info[BH_INFO_OVERFLOW] = 0;
    info[BH_INFO_DEPTH] = 0;
    for (int k = 0; k < 8; k++)
        child[k] = BH_EMPTY;
    pslot[0] = BH_EMPTY;
    cdepth[0] = 0;
    ready[0] = BH_NOT_READY;
}

/* The geometry of cell `node` when descending into it as octant k of a
 * cell centred at (cx, cy, cz) whose children have half-width r (already
 * halved): BH_STORE reads the cell's own record (--cells store), written
 * by the work-item that made the cell before it was linked; a record not
 * yet visible here (still the host's NaN fill, this build) is computed
 * instead, as --cells recalc always does. Both give the same bits: the
 * record was computed by the same two lines. */
#define BH_CELL_GEOMETRY(node, k)                                              \
    do {                                                                       \
        int recalc_ = 1;                                                       \
        if (BH_STORE) {                                                        \
            REAL4 g_ = *IRR_GLD(40, &cgeo[node]);                              \
            if (!isnan(g_.x) && !isnan(g_.y) && !isnan(g_.z) && !isnan(g_.w)) { \
                cx = g_.x, cy = g_.y, cz = g_.z, r = g_.w;                     \
                recalc_ = 0;                                                   \
            }                                                                  \
        }                                                                      \
        if (recalc_) {                                                         \
            r = r * (REAL)0.5;                                                 \
            bh_descend(&cx, &cy, &cz, (k), r);                                 \
        }                                                                      \
    } while (0)

/* Insert body b: walk down from the root; claim an empty slot with one
 * compare-and-swap; where another body v sits, swap in a new cell, still
 * empty, in its place (a cell's slots are written only after it is in the
 * tree, each by a compare-and-swap, so no other work-item can see them in
 * an order that loses a body: nothing here needs a fence across
 * work-groups), then insert v again from the root (it lands in the new
 * cell) before going on with b; at the deepest level, chain b in front of
 * the bodies there. A failed swap means another work-item changed the
 * slot: read it again. Bodies waiting to be inserted again sit in a small
 * private stack; a stack that fills up is reported as an overflow, after
 * which the host builds again. Nothing waits.
 *
 * --cells store: the new cell's centre and half-width are written before
 * the swap that links it; a reader that sees the cell before them
 * computes them (above). A spare cell whose swap failed is then left
 * unlinked (its record may name the wrong place, and a reader could see
 * that record in place of a later one), not kept for the next split. */
#define BH_PENDING 64
__kernel void bh_build(CLIRR_KPARAMS(BH_BUILD_ARGS) IRR_KPARAM)
{
    uint b0 = get_global_id(0);
    if (b0 >= n)
        return;
    uint pending[BH_PENDING];
    uint npending = 1, spare = BH_EMPTY;
    pending[0] = b0; /* next[] was emptied by the host too */
    while (npending) {
        uint b = pending[--npending];
        REAL x = px[b], y = py[b], z = pz[b];
        REAL cx = geom[0], cy = geom[1], cz = geom[2], r = geom[3];
        uint node = 0, d = 0;
        for (;;) {
            uint k = bh_octant(x, y, z, cx, cy, cz), slot = node * 8 + k, v = *IRR_GLD(30, &child[slot]);
            if (IRR_BRANCH(31, v == BH_EMPTY)) {
                if (atomic_cmpxchg(IRR_GAT(32, &child[slot]), BH_EMPTY, b) == BH_EMPTY)
                    break;
                continue;
            }
            if (IRR_BRANCH(33, v >= n)) {
                node = v - n;
                BH_CELL_GEOMETRY(node, k);
                d++;
                continue;
            }
            if (d + 1 >= BH_MAXDEPTH) {
                atomic_xchg(&next[b], v);
                if (atomic_cmpxchg(IRR_GAT(34, &child[slot]), v, b) == v)
                    break;
                continue;
            }
            if (npending + 1 >= BH_PENDING) {
                atomic_xchg(&info[BH_INFO_OVERFLOW], 1u);
                return;
            }
            if (spare == BH_EMPTY) {
                spare = atomic_inc(IRR_GAT(35, &info[BH_INFO_CELLS]));
                if (spare >= capacity) {
                    atomic_xchg(&info[BH_INFO_OVERFLOW], 1u);
                    return;
                }
            }
            /* The host emptied every slot before the build, and a spare
             * is never written before it is swapped in. */
            pslot[spare] = slot;
            cdepth[spare] = d + 1;
            ready[spare] = BH_NOT_READY;
            if (BH_STORE) {
                REAL hr = r * (REAL)0.5, gx = cx, gy = cy, gz = cz;
                bh_descend(&gx, &gy, &gz, k, hr);
                cgeo[spare] = (REAL4)(gx, gy, gz, hr);
            }
            if (atomic_cmpxchg(IRR_GAT(36, &child[slot]), v, n + spare) == v) {
                atomic_max(&info[BH_INFO_DEPTH], d + 1);
                pending[npending++] = v;
                spare = BH_EMPTY;
            } else if (BH_STORE) {
                spare = BH_EMPTY;
            }
        }
    }
}

/* Mass, centre of mass and body count of cell c from its children, in
 * octant order (the serial reference's order). */
static void bh_summarize_cell(uint c, __global const REAL *px, __global const REAL *py,
                              __global const REAL *pz, __global const REAL *mass, uint n,
                              __global const uint *child, __global const uint *next, __global REAL *cx,
                              __global REAL *cy, __global REAL *cz, __global REAL *cm,
                              __global uint *ccount)
{
    REAL m_all = 0, mx = 0, my = 0, mz = 0;
    uint count = 0;
    for (uint k = 0; k < 8; k++) {
        uint v = child[c * 8 + k];
        if (v == BH_EMPTY)
            continue;
        if (v < n) {
            for (uint b = v; b != BH_EMPTY; b = next[b]) {
                REAL m = mass[b];
                m_all = m_all + m;
                mx = mx + m * px[b];
                my = my + m * py[b];
                mz = mz + m * pz[b];
                count++;
            }
        } else {
            uint cc = v - n;
            REAL m = cm[cc];
            m_all = m_all + m;
            mx = mx + m * cx[cc];
            my = my + m * cy[cc];
            mz = mz + m * cz[cc];
            count += ccount[cc];
        }
    }
    REAL inv = m_all > 0 ? (REAL)1 / m_all : (REAL)0;
    cx[c] = mx * inv;
    cy[c] = my * inv;
    cz[c] = mz * inv;
    cm[c] = m_all;
    ccount[c] = count;
}

#define BH_SUMMARIZE(c) bh_summarize_cell((c), px, py, pz, mass, n, child, next, cx, cy, cz, cm, ccount)

__kernel void bh_sum_topo(CLIRR_KPARAMS(BH_SUM_TOPO_ARGS) IRR_KPARAM)
{
    uint c = get_global_id(0);
    if (IRR_BRANCH(60, c >= ncells || *IRR_GLD(61, &ready[c]) != BH_NOT_READY))
        return;
    for (uint k = 0; k < 8; k++) {
        uint v = *IRR_GLD(62, &child[c * 8 + k]);
        if (IRR_BRANCH(63, v != BH_EMPTY && v >= n && *IRR_GLD(64, &ready[v - n]) >= pass))
            return;
    }
    BH_SUMMARIZE(c);
    ready[c] = pass;
}

__kernel void bh_sum_seed(CLIRR_KPARAMS(BH_SUM_SEED_ARGS))
{
    uint c = get_global_id(0);
    if (c >= ncells || ready[c] != BH_NOT_READY || (c != 0 && child[pslot[c]] != n + c))
        return;
    uint waiting = 0;
    for (uint k = 0; k < 8; k++) {
        uint v = child[c * 8 + k];
        waiting += v != BH_EMPTY && v >= n && ready[v - n] == BH_NOT_READY;
    }
    pending[c] = waiting;
    if (waiting == 0)
        wl_out[atomic_inc(&wl_count[0])] = c;
}

__kernel void bh_sum_data(CLIRR_KPARAMS(BH_SUM_DATA_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (i >= nin)
        return;
    uint c = *IRR_GLD(70, &wl_in[i]);
    BH_SUMMARIZE(c);
    ready[c] = round;
    if (c != 0) {
        uint p = pslot[c] / 8;
        if (IRR_BRANCH(71, atomic_dec(IRR_GAT(72, &pending[p])) == 1))
            wl_out[atomic_inc(&wl_count[0])] = p;
    }
}

/* Bodies in a chain, from v. */
static inline uint bh_chain_length(uint v, __global const uint *next)
{
    uint len = 0;
    for (; v != BH_EMPTY; v = next[v])
        len++;
    return len;
}

__kernel void bh_sort(CLIRR_KPARAMS(BH_SORT_ARGS) IRR_KPARAM)
{
    uint b = get_global_id(0);
    if (b >= n)
        return;
    REAL x = px[b], y = py[b], z = pz[b];
    REAL cx = geom[0], cy = geom[1], cz = geom[2], r = geom[3];
    uint node = 0, pos = 0, start = n <= region_cap ? 0 : BH_EMPTY, size = n;
    for (;;) {
        uint k = bh_octant(x, y, z, cx, cy, cz);
        for (uint j = 0; j < k; j++) {
            uint v = child[node * 8 + j];
            pos += v == BH_EMPTY ? 0 : v < n ? bh_chain_length(v, next) : ccount[v - n];
        }
        uint v = *IRR_GLD(50, &child[node * 8 + k]);
        if (IRR_BRANCH(51, v != BH_EMPTY && v >= n)) {
            node = v - n;
            if (start == BH_EMPTY && ccount[node] <= region_cap) {
                start = pos;
                size = ccount[node];
            }
            BH_CELL_GEOMETRY(node, k);
            continue;
        }
        for (; v != b && v != BH_EMPTY; v = next[v])
            pos++;
        break;
    }
    order[pos] = b;
    /* A body alone in a slot of a larger cell (or in a chain there) is a
     * region of its own. A region of `size` bodies is cut into k groups:
     * body q of it starts one where q k / size steps. */
    if (start == BH_EMPTY) {
        start = pos;
        size = 1;
    }
    uint q = pos - start, k = (size + span - 1) / span;
    head[pos] = q == 0 || q * k / size != (q - 1) * k / size;
}

/* ---- the force walk ------------------------------------------------------
 *
 * The walk is stackless: bh_link gives every non-empty slot of the tree
 * the slot to visit after its subtree (its next non-empty sibling, else
 * its parent's, up to the root: BH_EMPTY ends the walk) and every cell its
 * first non-empty slot; cells' centres of mass and masses, and bodies'
 * positions and masses, are packed into one vector each (one load). A
 * walking group (a sub-group, an NVIDIA warp, or a work-group) keeps one
 * current slot, the same in every lane, in registers: opening a cell goes
 * to its first slot, using it whole (or a leaf's bodies) goes to the slot
 * after it. The only exchange between lanes is the vote on opening a
 * cell; no stack, no lane pushing for the others. */

/* LonestarGPU's force arithmetic is exact division and square root; here
 * a reciprocal square root (OpenCL's rsqrt, at most 2 ulp in float) and
 * contracted multiply-adds: the verifier's tolerances (percent, theta's
 * error) do not notice either. The tree kernels above keep contraction
 * off: the build, the sort and the serial reference must agree on every
 * octant. */
#pragma OPENCL FP_CONTRACT ON

__kernel void bh_link(CLIRR_KPARAMS(BH_LINK_ARGS) IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (i < n)
        *IRR_GST(1, &body4[i]) = (REAL4)(px[i], py[i], pz[i], mass[i]);
    if (i >= ncells || (i != 0 && *IRR_GLD(2, &child[pslot[i]]) != n + i))
        return;
    /* The slot after cell i's subtree. */
    uint up = BH_EMPTY;
    for (uint a = i; a != 0 && up == BH_EMPTY;) {
        uint ps = *IRR_GLD(3, &pslot[a]), p = ps / 8;
        for (uint k = ps % 8 + 1; k < 8 && up == BH_EMPTY; k++)
            if (*IRR_GLD(4, &child[p * 8 + k]) != BH_EMPTY)
                up = p * 8 + k;
        a = p;
    }
    uint after = up;
    for (int k = 7; k >= 0; k--) {
        uint s = i * 8 + (uint)k, v = *IRR_GLD(5, &child[s]);
        if (v != BH_EMPTY) {
            *IRR_GST(6, &link[s]) = (uint2)(v, after);
            after = s;
        }
    }
    /* A cell without children (none is built) would just be skipped. */
    *IRR_GST(7, &cinfo[i]) = (uint2)(after, cdepth[i]);
    *IRR_GST(8, &cell4[i]) = (REAL4)(cx[i], cy[i], cz[i], cm[i]);
}

/* One softened interaction with mass q.w at q.xyz on the body at (x, y,
 * z): acceleration, potential -m / r, count. In float the device's native
 * reciprocal square root (its accuracy is the implementation's; NVIDIA's
 * is MUFU.RSQ, relative error about 2^-22): the verifier checks the
 * result against the direct sum and the serial Barnes-Hut with theta's
 * tolerances (percent), unchanged, so a poor one would fail there; in
 * double OpenCL's rsqrt. The group walk on NVIDIA (BH_PTX) takes the
 * MUFU.RSQ alone, flushing denormals, through inline PTX: native_rsqrt
 * wraps it in a test and two rescalings for denormal arguments, which
 * d^2 + eps^2 never is (measured on the H100: the 5M force 9% faster).
 * d^2 is summed from eps^2: three multiply-adds. */
#if BH_DOUBLE
#define BH_RSQRT rsqrt
#elif BH_PTX
static inline float bh_rsqrt_ftz(float v)
{
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}
#define BH_RSQRT bh_rsqrt_ftz
#else
#define BH_RSQRT native_rsqrt
#endif
#define BH_INTERACT(q, j)                                                      \
    do {                                                                       \
        REAL dx_ = (q).x - x[j], dy_ = (q).y - y[j], dz_ = (q).z - z[j];       \
        REAL inv_ = BH_RSQRT(dz_ * dz_ + (dy_ * dy_ + (dx_ * dx_ + eps2)));    \
        REAL mi_ = (q).w * inv_, s_ = mi_ * inv_ * inv_;                       \
        ax_[j] += dx_ * s_;                                                    \
        ay_[j] += dy_ * s_;                                                    \
        az_[j] += dz_ * s_;                                                    \
        ph[j] -= mi_;                                                          \
        cnt[j]++;                                                              \
    } while (0)

/* The walks' results for body j of this work-item (bi[j], when act[j]):
 * potential; unless measuring, the leapfrog's velocity correction (step >
 * 0), acceleration and interaction counts (this step's, with bodies, all
 * steps'). */
#define BH_STORE_BODIES()                                                      \
    do {                                                                       \
        for (uint j = 0; j < BH_PER; j++) {                                    \
            uint b = bi[j];                                                    \
            if (!act[j])                                                       \
                continue;                                                      \
            *IRR_GST(18, &phi[b]) = ph[j];                                     \
            if (!measure) {                                                    \
                if (step > 0) {                                                \
                    vx[b] = vx[b] + (ax_[j] - ax[b]) * dthf;                   \
                    vy[b] = vy[b] + (ay_[j] - ay[b]) * dthf;                   \
                    vz[b] = vz[b] + (az_[j] - az[b]) * dthf;                   \
                }                                                              \
                ax[b] = ax_[j];                                                \
                ay[b] = ay_[j];                                                \
                az[b] = az_[j];                                                \
                inter[b] = cnt[j];                                             \
                inter_bb[b] = cntb[j];                                         \
                inter_sum[b] = (step > 0 ? inter_sum[b] : 0) + cnt[j];         \
            }                                                                  \
        }                                                                      \
    } while (0)

#if BH_WALK == BH_WALK_WARP
/* Any lane of the NVIDIA warp (inline PTX: NVIDIA's OpenCL has no
 * sub-groups; the host builds this only for NVIDIA devices, and falls
 * back to the work-group vote when the compiler refuses it). */
static inline int bh_warp_any(int p)
{
    int r;
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.s32 p, %1, 0;\n\t"
                     "vote.sync.any.pred q, p, 0xffffffff;\n\tselp.s32 %0, 1, 0, q;\n\t}"
                     : "=r"(r)
                     : "r"(p));
    return r;
}
#endif

/* The vote of the walking group on opening the current cell: any(near).
 * Work-groups: a flag in local memory per step, three in turn so that one
 * barrier a step suffices (the flag a step sets was cleared two steps
 * before it, after every lane had read it three steps before). */
#if BH_WALK == BH_WALK_SUBGROUP
#define BH_VOTE(near) sub_group_any(near)
#elif BH_WALK == BH_WALK_WARP
#define BH_VOTE(near) bh_warp_any(near)
#else
#define BH_VOTE(near)                                                          \
    ({                                                                         \
        if (near)                                                              \
            *IRR_LST(20, &flag[turn]) = 1;                                     \
        if (lid == 0)                                                          \
            flag[turn == 2 ? 0 : turn + 1] = 0;                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        int any_ = *IRR_LLD(21, &flag[turn]);                                  \
        turn = turn == 2 ? 0 : turn + 1;                                       \
        any_;                                                                  \
    })
#endif

/* Each work-item computes BH_PER bodies of its group's G * BH_PER
 * consecutive ones (in tree order when sorted): body j of lane l is
 * order[first + j G + l]. Velocity correction of the leapfrog (step > 0),
 * accelerations, potentials and interaction counts stored; measure: the
 * potentials only. */
#if BH_WALK != BH_WALK_GROUP
__kernel void bh_force(CLIRR_KPARAMS(BH_FORCE_ARGS) IRR_KPARAM)
{
    __local REAL dq[BH_MAXDEPTH];
    uint lid = get_local_id(0), lsz = get_local_size(0);
#if BH_WALK == BH_WALK_SUBGROUP
    uint G = get_sub_group_size(), lane = get_sub_group_local_id();
#elif BH_WALK == BH_WALK_WARP
    uint G = 32, lane = lid % 32;
#else
    uint G = lsz, lane = lid;
    __local volatile int flag[3];
    uint turn = 0;
    if (lid == 0)
        flag[0] = flag[1] = flag[2] = 0;
#endif
    /* A cell at depth d is far from a body when its squared distance is
     * at least (edge at d / theta)^2 = dq0 4^-d (exact scaling, as the
     * serial reference's repeated quartering). */
    REAL edge = geom[3] * (REAL)2, dq0 = edge * edge / (theta * theta), eps2 = eps * eps;
    for (uint d = lid; d < BH_MAXDEPTH; d += lsz)
        dq[d] = ldexp(dq0, -2 * (int)d);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t first = (get_global_id(0) - lane) * BH_PER + lane;
    uint bi[BH_PER], cnt[BH_PER], cntb[BH_PER];
    int act[BH_PER];
    REAL x[BH_PER], y[BH_PER], z[BH_PER], ax_[BH_PER], ay_[BH_PER], az_[BH_PER], ph[BH_PER];
    for (uint j = 0; j < BH_PER; j++) {
        size_t k = first + (size_t)j * G;
        act[j] = k < n;
        bi[j] = *IRR_GLD(9, &order[act[j] ? k : 0]);
        x[j] = px[bi[j]], y[j] = py[bi[j]], z[j] = pz[bi[j]];
        ax_[j] = ay_[j] = az_[j] = ph[j] = 0;
        cnt[j] = cntb[j] = 0;
    }
    /* The walk is software-pipelined: while the group decides on the
     * current node, the loads for the node after it (the one it goes to
     * unless the current cell opens) are already under way. A node's
     * record: a cell's centre of mass and mass with (first slot, depth),
     * or a body's position and mass with (the next body of its chain, 0).
     * ahead: link[the slot after the current node's subtree]. */
#define BH_FETCH(nd, rec, ci)                                                  \
    do {                                                                       \
        if ((nd) >= n && (nd) != BH_EMPTY) {                                   \
            rec = *IRR_GLD(11, &cell4[(nd) - n]);                              \
            ci = *IRR_GLD(12, &cinfo[(nd) - n]);                               \
        } else if ((nd) != BH_EMPTY) {                                         \
            rec = *IRR_GLD(16, &body4[nd]);                                    \
            ci = (uint2)(*IRR_GLD(15, &next[nd]), 0);                          \
        }                                                                      \
    } while (0)
    uint node = n;
    REAL4 rec = (REAL4)(0, 0, 0, 0);
    uint2 ci = (uint2)(BH_EMPTY, 0), ahead = (uint2)(BH_EMPTY, BH_EMPTY);
    BH_FETCH(node, rec, ci);
    int more;
    do {
        uint nx = ahead.x;
        REAL4 rec2 = rec;
        uint2 ci2 = ci, ahead2 = (uint2)(BH_EMPTY, BH_EMPTY);
        BH_FETCH(nx, rec2, ci2);
        if (ahead.y != BH_EMPTY)
            ahead2 = *IRR_GLD(10, &link[ahead.y]);
        int cell = node >= n, near = 0;
        if (cell) {
            REAL thr = dq[ci.y];
            for (uint j = 0; j < BH_PER; j++) {
                REAL dx = rec.x - x[j], dy = rec.y - y[j], dz = rec.z - z[j];
                near |= act[j] & !(dx * dx + dy * dy + dz * dz >= thr);
            }
        }
        int open = IRR_BRANCH(13, BH_VOTE(near) != 0) && cell;
        if (!open) {
            /* A cell used whole, or a leaf: one body, or a chain of
             * coincident ones; never the body itself. */
            for (uint j = 0; j < BH_PER; j++)
                if (act[j] && node != bi[j]) {
                    BH_INTERACT(rec, j);
                    cntb[j] += !cell;
                }
            for (uint b = cell ? BH_EMPTY : ci.x; IRR_BRANCH(14, b != BH_EMPTY); b = *IRR_GLD(15, &next[b])) {
                REAL4 p = *IRR_GLD(16, &body4[b]);
                for (uint j = 0; j < BH_PER; j++)
                    if (act[j] && b != bi[j]) {
                        BH_INTERACT(p, j);
                        cntb[j]++;
                    }
            }
            more = nx != BH_EMPTY;
            node = nx;
            rec = rec2;
            ci = ci2;
            ahead = ahead2;
        } else {
            /* Down to the cell's first slot: the pipeline starts again. */
            uint s = ci.x;
            more = s != BH_EMPTY;
            if (more) {
                uint2 e = *IRR_GLD(17, &link[s]);
                node = e.x;
                BH_FETCH(node, rec, ci);
                ahead = e.y != BH_EMPTY ? *IRR_GLD(10, &link[e.y]) : (uint2)(BH_EMPTY, BH_EMPTY);
            }
        }
    } while (more);
#undef BH_FETCH
    BH_STORE_BODIES();
}

#else /* BH_WALK == BH_WALK_GROUP */

/* ---- the group walk (--walk group) ---------------------------------------
 *
 * Bonsai's scheme (Bédorf, Gaburov, Portegies Zwart 2012): the G work-items
 * of a work-group and their group of at most G * BH_PER consecutive bodies
 * (bh_sort's: neighbours in tree order within one region, a subtree of a
 * few groups of bodies, so the group's box is compact; unsorted, G * BH_PER
 * bodies in input order) walk the tree once. A work-group takes one group:
 * a walk serves every body of the work-group, where groups of G * BH_PER
 * consecutive bodies spanned about two regions and walked once for each
 * (measured on the H100: tests/bench/RESULTS.md). A cell is used whole
 * when the group's bounding box is at least as far from its centre of
 * mass as the per-body rule asks of a body (dq of its depth): every body in
 * the box then accepts it too, so each body interacts only with cells its
 * own test would also accept (more interactions than the vote walks, never
 * a coarser one).
 *
 * The walk is breadth-first over a stack of nodes in local memory: each
 * step, up to G lanes pop one node each and test it at once (their loads
 * are independent, so one memory latency serves G nodes); a cell used
 * whole goes to the cell list, an opened cell pushes its child cells and
 * puts its bodies on the body list. Places in the stack and the lists come
 * from one work-group prefix sum a step (deterministic). A step pops no
 * more nodes than the lists have room for (a cell and 8 bodies each);
 * when they have room for fewer than G / 4 (BH_MINPOP; or the stack is
 * empty), every lane sweeps both lists for its bodies: one broadcast read
 * of local memory per entry, the interaction's arithmetic and nothing
 * else (a body's own entry gets mass 0). Short lists keep the work-group's local
 * memory small, so that more work-groups share a compute unit and hide
 * each other's walk latency (measured on the H100: lists of 2 G cells
 * and 4 G bodies and the least stack, 8% faster than 2 G, 9 G and 24 G).
 *
 * The stack never overflows: a step pops b nodes and pushes at most 8 per
 * cell, so it grows by at most 7 b; b is the most that leaves room for 7
 * entries a level of the tree (the deepest cell's depth + 1, from the
 * host), and at least 1. From a state with that much room, a walk that
 * pops one node a step (depth first) never needs more: it holds at most 7
 * siblings a level above the node it came from. Bodies hang in chains
 * below the deepest cells only: those go through the stack (a body popped
 * puts itself on the list and pushes the next of its chain).
 *
 * Local memory (the host checks it against the device's): BH_LIST cells,
 * BH_BLIST bodies with their numbers, BH_STK stack entries and the scan's
 * 2 G words (the cell list holds the box's reduction before the walk). */
#include "common/scan.clh"

/* The fewest pops a step the lists leave room for after a step. */
#define BH_MINPOP (BH_GWG >= 4 ? BH_GWG / 4 : 1)
#if BH_GWG > 128 || BH_LIST < BH_MINPOP || BH_BLIST < 8 * BH_MINPOP || BH_STK < 7 * (BH_MAXDEPTH + BH_GWG)
#error "the group walk needs BH_GWG <= 128, lists of BH_MINPOP and 8 BH_MINPOP, a stack of 7 (BH_MAXDEPTH + G)"
#endif

/* One softened interaction of body j with mass m at q.xyz into its sums
 * (no count: the lists' lengths are the counts). */
#define BH_PAIR(q, m, j)                                                       \
    do {                                                                       \
        REAL dx_ = (q).x - x[j], dy_ = (q).y - y[j], dz_ = (q).z - z[j];       \
        REAL inv_ = BH_RSQRT(dz_ * dz_ + (dy_ * dy_ + (dx_ * dx_ + eps2)));    \
        REAL mi_ = (m) * inv_, s_ = mi_ * inv_ * inv_;                         \
        ax_[j] += dx_ * s_;                                                    \
        ay_[j] += dy_ * s_;                                                    \
        az_[j] += dz_ * s_;                                                    \
        ph[j] -= mi_;                                                          \
    } while (0)

/* Squared distance from point c to the box [lo, hi] (0 inside). */
static inline REAL bh_box_dist2(REAL4 c, REAL4 lo, REAL4 hi)
{
    REAL dx = fmax(fmax(lo.x - c.x, c.x - hi.x), (REAL)0);
    REAL dy = fmax(fmax(lo.y - c.y, c.y - hi.y), (REAL)0);
    REAL dz = fmax(fmax(lo.z - c.z, c.z - hi.z), (REAL)0);
    return dx * dx + dy * dy + dz * dz;
}

/* The work-group's exclusive prefix sum of x (*total: the sum of all),
 * with a barrier between every work-item's call and any return. NVIDIA
 * (BH_SHFL: inline PTX taken, G a multiple of 32): within each warp by
 * shuffles (inline PTX), then the warps' sums through local memory, one
 * barrier; elsewhere common/scan.clh's (log2 G barriers in OpenCL 1.2). */
#define BH_SHFL (BH_PTX && BH_GWG % 32 == 0)
#if BH_SHFL
static inline uint bh_shfl_up(uint v, uint d)
{
    uint r;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));
    return r;
}

static inline uint bh_scan(uint x, __local uint *tmp, uint *total)
{
    const uint lid = get_local_id(0), lane = lid % 32, warp = lid / 32;
    uint v = x;
    for (uint d = 1; d < 32; d <<= 1) {
        uint y = bh_shfl_up(v, d);
        v += lane >= d ? y : 0;
    }
    if (lane == 31)
        tmp[warp] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint before = 0, all = 0;
    for (uint w = 0; w < BH_GWG / 32; w++) {
        uint t = tmp[w];
        before += w < warp ? t : 0;
        all += t;
    }
    *total = all;
    return before + v - x;
}
#else
#define bh_scan clirr_wg_scan_excl_add_uint
#endif

__kernel __attribute__((reqd_work_group_size(BH_GWG, 1, 1)))
void bh_force(CLIRR_KPARAMS(BH_FORCE_ARGS) IRR_KPARAM)
{
    __local REAL dq[BH_MAXDEPTH];
    __local REAL4 lc[BH_LIST], lb[BH_BLIST]; /* cells, bodies */
    __local uint lbid[BH_BLIST];             /* the bodies' numbers */
    __local uint stk[BH_STK];                /* nodes to test */
    __local uint tmp[2 * BH_GWG];            /* the scan's */
    const uint lid = get_local_id(0), G = BH_GWG, g = get_group_id(0);
    REAL edge = geom[3] * (REAL)2, dq0 = edge * edge / (theta * theta), eps2 = eps * eps;
    for (uint d = lid; d < BH_MAXDEPTH; d += G)
        dq[d] = ldexp(dq0, -2 * (int)d);
    /* The group's bodies: order[heads[g] .. the next head); slots past
     * them hold the first body (idle, and neutral in the box). */
    uint start = heads[g], end = g + 1 < nheads ? heads[g + 1] : n;
    uint bi[BH_PER], cntc[BH_PER], cntb[BH_PER];
    int act[BH_PER], self[BH_PER];
    REAL x[BH_PER], y[BH_PER], z[BH_PER], ax_[BH_PER], ay_[BH_PER], az_[BH_PER], ph[BH_PER];
    REAL4 lo, hi;
    for (uint j = 0; j < BH_PER; j++) {
        uint k = start + j * G + lid;
        act[j] = k < end;
        bi[j] = *IRR_GLD(9, &order[act[j] ? k : start]);
        x[j] = px[bi[j]], y[j] = py[bi[j]], z[j] = pz[bi[j]];
        ax_[j] = ay_[j] = az_[j] = ph[j] = 0;
        cntc[j] = cntb[j] = 0;
        self[j] = 0;
        REAL4 p = (REAL4)(x[j], y[j], z[j], 0);
        lo = j ? fmin(lo, p) : p;
        hi = j ? fmax(hi, p) : p;
    }
    /* The group's bounding box, reduced in the cell list's room (free
     * until the walk starts): pairs at distance 1, 2, 4, ... */
    lc[lid] = lo;
    lc[G + lid] = hi;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < G; d <<= 1) {
        if (lid % (2 * d) == 0 && lid + d < G) {
            lc[lid] = fmin(lc[lid], lc[lid + d]);
            lc[G + lid] = fmax(lc[G + lid], lc[G + lid + d]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    lo = lc[0];
    hi = lc[G];
    /* The root used whole (a theta so large: the cell list's one entry,
     * swept after the first step), or the stack starts with it (lane 0
     * pops it first). */
    REAL4 root = *IRR_GLD(11, &cell4[0]);
    uint2 rinfo = *IRR_GLD(12, &cinfo[0]);
    int root_far = bh_box_dist2(root, lo, hi) >= dq[rinfo.y];
    barrier(CLK_LOCAL_MEM_FENCE); /* the box is read */
    if (lid == 0) {
        if (root_far)
            lc[0] = root;
        else
            stk[0] = n;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint reserve = 7 * (depth + 1); /* room for a depth-first walk: 7 a level */
    uint top = !root_far, ctop = root_far, btop = 0;
    int live = 1;
    while (live) {
        uint b = min(top, G);
        if (top + 7 * b + reserve > BH_STK) {
            uint room = BH_STK - top;
            b = room >= reserve + 7 ? (room - reserve) / 7 : 1;
        }
        if (b) /* the lists' room: at least BH_MINPOP pops (below) */
            b = min(b, min((BH_BLIST - btop) / 8, BH_LIST - ctop));
        uint node = lid < b ? *IRR_LLD(26, &stk[top - 1 - lid]) : BH_EMPTY;
        /* What the node gives: stack entries, bodies, a cell. The loops
         * over an opened cell's slots run on every lane (kid[] empty on
         * the others), never inside a branch: PoCL 5 forms no parallel
         * region for a loop on one arm of a branch that rejoins before
         * the next barrier (it asserts; pocl/pocl#2281). */
        uint npush = 0, nbody = 0, nxt = BH_EMPTY, c = node - n;
        int whole = 0, chains = 0, open = 0;
        REAL4 rec = (REAL4)(0, 0, 0, 0);
        if (IRR_BRANCH(13, node != BH_EMPTY && node < n)) {
            /* A body of a chain below a deepest cell. */
            rec = *IRR_GLD(16, &body4[node]);
            nbody = 1;
            nxt = *IRR_GLD(15, &next[node]);
            npush = nxt != BH_EMPTY;
        } else if (node != BH_EMPTY) {
            rec = *IRR_GLD(11, &cell4[c]);
            uint2 ci = *IRR_GLD(12, &cinfo[c]);
            whole = IRR_BRANCH(14, bh_box_dist2(rec, lo, hi) >= dq[ci.y]);
            open = !whole;
            chains = ci.y == BH_MAXDEPTH - 1;
        }
        /* Open: child cells to the stack, bodies to the list (through
         * the stack where chains may hang). */
        uint kid[8];
        for (uint k = 0; k < 8; k++) {
            kid[k] = open ? *IRR_GLD(19, &child[c * 8 + k]) : BH_EMPTY;
            int body = kid[k] < n;
            npush += kid[k] != BH_EMPTY && (!body || chains);
            nbody += body && !chains;
        }
        /* Places from one prefix sum of the three counts (11 bits
         * each: at most 8 G <= 1024 of each); its barriers also keep
         * every pop before any push. */
        uint total, at = bh_scan(npush | nbody << 11 | (uint)whole << 22, tmp, &total);
#if CLIRR_HAS_WG_COLLECTIVES && !BH_SHFL
        barrier(CLK_LOCAL_MEM_FENCE); /* the pops are read */
#endif
        uint base = top - b, ps = base + (at & 0x7ff), pb = btop + (at >> 11 & 0x7ff);
        if (whole) {
            *IRR_LST(22, &lc[ctop + (at >> 22)]) = rec;
        } else if (node != BH_EMPTY && node < n) {
            *IRR_LST(23, &lb[pb]) = rec;
            lbid[pb] = node;
            if (npush)
                stk[ps] = nxt;
        }
        for (uint k = 0; k < 8; k++) {
            uint v = kid[k];
            if (v != BH_EMPTY && (v >= n || chains)) {
                *IRR_LST(27, &stk[ps++]) = v;
            } else if (v != BH_EMPTY) {
                *IRR_LST(23, &lb[pb]) = *IRR_GLD(16, &body4[v]);
                lbid[pb++] = v;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* the pushes and entries are written */
        top = base + (total & 0x7ff);
        btop += total >> 11 & 0x7ff;
        ctop += total >> 22;
        if (top == 0 || ctop + BH_MINPOP > BH_LIST || btop + 8 * BH_MINPOP > BH_BLIST) {
            /* Every lane sweeps both lists for each of its bodies
             * (eight entries a turn: the loop's own instructions shared
             * by eight; measured 2% faster than four on the H100); for
             * an idle slot the loops run no turns, so a warp or SIMD
             * vector past the group's bodies skips them. The next
             * writes to the lists come after the next step's barriers. */
            for (uint j = 0; j < BH_PER; j++) {
                uint ce = act[j] ? ctop : 0, be = act[j] ? btop : 0, i = 0;
                for (; i + 8 <= ce; i += 8)
                    for (uint u = 0; u < 8; u++) {
                        REAL4 q = *IRR_LLD(24, &lc[i + u]);
                        BH_PAIR(q, q.w, j);
                    }
                for (; i < ce; i++) {
                    REAL4 q = *IRR_LLD(24, &lc[i]);
                    BH_PAIR(q, q.w, j);
                }
                for (i = 0; i + 8 <= be; i += 8)
                    for (uint u = 0; u < 8; u++) {
                        REAL4 q = *IRR_LLD(25, &lb[i + u]);
                        int me = lbid[i + u] == bi[j];
                        self[j] |= me;
                        BH_PAIR(q, me ? (REAL)0 : q.w, j);
                    }
                for (; i < be; i++) {
                    REAL4 q = *IRR_LLD(25, &lb[i]);
                    int me = lbid[i] == bi[j];
                    self[j] |= me;
                    BH_PAIR(q, me ? (REAL)0 : q.w, j);
                }
                cntc[j] += ce;
                cntb[j] += be;
            }
            ctop = btop = 0;
            /* A branch holding loops ends at a barrier (the same for
             * every work-item), not rejoining before one: the shape
             * PoCL 5 asserts on (above). */
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        live = top != 0;
    }
    uint cnt[BH_PER];
    for (uint j = 0; j < BH_PER; j++) {
        cntb[j] -= self[j];
        cnt[j] = cntc[j] + cntb[j];
    }
    BH_STORE_BODIES();
}

#endif /* BH_WALK */

#pragma OPENCL FP_CONTRACT OFF

__kernel void bh_integrate(CLIRR_KPARAMS(BH_INTEGRATE_ARGS))
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    REAL dvx = ax[i] * dthf, dvy = ay[i] * dthf, dvz = az[i] * dthf;
    REAL hx = vx[i] + dvx, hy = vy[i] + dvy, hz = vz[i] + dvz;
    px[i] = px[i] + hx * dt;
    py[i] = py[i] + hy * dt;
    pz[i] = pz[i] + hz * dt;
    vx[i] = hx + dvx;
    vy[i] = hy + dvy;
    vz[i] = hz + dvz;
}
