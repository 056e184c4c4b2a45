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
 *   - the force walk's groups are work-groups or sub-groups, synchronized
 *     only inside themselves. */
#include "common/compat.clh"
#include "common/kargs.h"

#if BH_DOUBLE
#if !CLIRR_HAS_FP64
#error "double precision Barnes-Hut needs cl_khr_fp64"
#endif
typedef double REAL;
typedef double3 REAL3;
#else
typedef float REAL;
typedef float3 REAL3;
#endif

#include "bh.def"

/* The serial reference rounds every operation; so do these. */
#pragma OPENCL FP_CONTRACT OFF

/* BH_SUBGROUPS (from the host, which sizes the stacks by it): the walk's
 * groups are sub-groups. */
#if BH_SUBGROUPS
#if !CLIRR_HAS_SUBGROUPS
#error "BH_SUBGROUPS needs sub-groups"
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
    info[BH_INFO_CELLS] = 1;
    info[BH_INFO_OVERFLOW] = 0;
    info[BH_INFO_DEPTH] = 0;
    for (int k = 0; k < 8; k++)
        child[k] = BH_EMPTY;
    pslot[0] = BH_EMPTY;
    cdepth[0] = 0;
    ready[0] = BH_NOT_READY;
}

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
 * which the host builds again. Nothing waits. */
#define BH_PENDING 64
__kernel void bh_build(CLIRR_KPARAMS(BH_BUILD_ARGS))
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
            uint k = bh_octant(x, y, z, cx, cy, cz), slot = node * 8 + k, v = child[slot];
            if (v == BH_EMPTY) {
                if (atomic_cmpxchg(&child[slot], BH_EMPTY, b) == BH_EMPTY)
                    break;
                continue;
            }
            if (v >= n) {
                node = v - n;
                r = r * (REAL)0.5;
                bh_descend(&cx, &cy, &cz, k, r);
                d++;
                continue;
            }
            if (d + 1 >= BH_MAXDEPTH) {
                atomic_xchg(&next[b], v);
                if (atomic_cmpxchg(&child[slot], v, b) == v)
                    break;
                continue;
            }
            if (npending + 1 >= BH_PENDING) {
                atomic_xchg(&info[BH_INFO_OVERFLOW], 1u);
                return;
            }
            if (spare == BH_EMPTY) {
                spare = atomic_inc(&info[BH_INFO_CELLS]);
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
            if (atomic_cmpxchg(&child[slot], v, n + spare) == v) {
                atomic_max(&info[BH_INFO_DEPTH], d + 1);
                pending[npending++] = v;
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

__kernel void bh_sum_topo(CLIRR_KPARAMS(BH_SUM_TOPO_ARGS))
{
    uint c = get_global_id(0);
    if (c >= ncells || ready[c] != BH_NOT_READY)
        return;
    for (uint k = 0; k < 8; k++) {
        uint v = child[c * 8 + k];
        if (v != BH_EMPTY && v >= n && ready[v - n] >= pass)
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

__kernel void bh_sum_data(CLIRR_KPARAMS(BH_SUM_DATA_ARGS))
{
    uint i = get_global_id(0);
    if (i >= nin)
        return;
    uint c = wl_in[i];
    BH_SUMMARIZE(c);
    ready[c] = round;
    if (c != 0) {
        uint p = pslot[c] / 8;
        if (atomic_dec(&pending[p]) == 1)
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

__kernel void bh_sort(CLIRR_KPARAMS(BH_SORT_ARGS))
{
    uint b = get_global_id(0);
    if (b >= n)
        return;
    REAL x = px[b], y = py[b], z = pz[b];
    REAL cx = geom[0], cy = geom[1], cz = geom[2], r = geom[3];
    uint node = 0, pos = 0;
    for (;;) {
        uint k = bh_octant(x, y, z, cx, cy, cz);
        for (uint j = 0; j < k; j++) {
            uint v = child[node * 8 + j];
            pos += v == BH_EMPTY ? 0 : v < n ? bh_chain_length(v, next) : ccount[v - n];
        }
        uint v = child[node * 8 + k];
        if (v != BH_EMPTY && v >= n) {
            node = v - n;
            r = r * (REAL)0.5;
            bh_descend(&cx, &cy, &cz, k, r);
            continue;
        }
        for (; v != b && v != BH_EMPTY; v = next[v])
            pos++;
        break;
    }
    order[pos] = b;
}

/* One softened interaction with mass m at (qx, qy, qz) on the body at
 * (x, y, z): acceleration into acc, the potential -m / r into ph. */
static inline void interact(REAL qx, REAL qy, REAL qz, REAL m, REAL x, REAL y, REAL z, REAL eps2, REAL3 *acc,
                            REAL *ph, uint *cnt)
{
    REAL dx = qx - x, dy = qy - y, dz = qz - z;
    REAL d2 = dx * dx + dy * dy + dz * dz + eps2;
    REAL inv = (REAL)1 / sqrt(d2);
    REAL s = m * inv * inv * inv;
    acc->x = acc->x + dx * s;
    acc->y = acc->y + dy * s;
    acc->z = acc->z + dz * s;
    *ph = *ph - m * inv;
    *cnt += 1;
}

/* The bodies of a leaf slot (one, or a chain of coincident ones), all
 * but the lane's own. */
static inline void visit_bodies(uint node, uint b, bool active, uint n, __global const REAL *px,
                                __global const REAL *py, __global const REAL *pz, __global const REAL *mass,
                                __global const uint *next, REAL x, REAL y, REAL z, REAL eps2, REAL3 *acc,
                                REAL *ph, uint *cnt)
{
    for (uint j = active ? node : BH_EMPTY; j != BH_EMPTY; j = next[j])
        if (j != b)
            interact(px[j], py[j], pz[j], mass[j], x, y, z, eps2, acc, ph, cnt);
}

/* The walk's common part: every lane's body, the opening thresholds, the
 * results stored. The two walks differ in how the group keeps its stack
 * and agrees. */
#define BH_FORCE_BEGIN                                                         \
    uint k_ = get_global_id(0);                                                \
    bool active = k_ < n;                                                      \
    uint b = active ? order[k_] : order[0];                                    \
    REAL x = px[b], y = py[b], z = pz[b], eps2 = eps * eps;                    \
    REAL3 acc = (REAL3)(0, 0, 0);                                              \
    REAL ph = 0;                                                               \
    uint cnt = 0;                                                              \
    REAL edge_ = geom[3] * (REAL)2;                                            \
    REAL dq0 = edge_ * edge_ / (theta * theta);

/* A cell at depth d is far from a lane when its squared distance is at
 * least (edge at d / theta)^2 = dq0 4^-d (exact scaling, as the serial
 * reference's repeated quartering). */
#define BH_NEAR(d2, depth) (active && !((d2) >= ldexp(dq0, -2 * (int)(depth))))

#define BH_FORCE_END                                                           \
    if (active) {                                                              \
        phi[b] = ph;                                                           \
        if (!measure) {                                                        \
            if (step > 0) {                                                    \
                vx[b] = vx[b] + (acc.x - ax[b]) * dthf;                        \
                vy[b] = vy[b] + (acc.y - ay[b]) * dthf;                        \
                vz[b] = vz[b] + (acc.z - az[b]) * dthf;                        \
            }                                                                  \
            ax[b] = acc.x;                                                     \
            ay[b] = acc.y;                                                     \
            az[b] = acc.z;                                                     \
            inter[b] = cnt;                                                    \
        }                                                                      \
    }

#if BH_SUBGROUPS
/* Each sub-group walks alone with its stack in local memory (stacks:
 * BH_STACK words per sub-group, sized by the host for the work-group's
 * largest sub-group count); sub_group_any is the vote. Every lane keeps
 * the same stack pointer. */
__kernel void bh_force(CLIRR_KPARAMS(BH_FORCE_ARGS))
{
    BH_FORCE_BEGIN
    __local uint *st = stacks + get_sub_group_id() * BH_STACK;
    uint lane = get_sub_group_local_id();
    int sp = 1;
    if (lane == 0)
        st[0] = n;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    while (sp > 0) {
        uint node = st[sp - 1];
        sp--;
        if (node < n) {
            visit_bodies(node, b, active, n, px, py, pz, mass, next, x, y, z, eps2, &acc, &ph, &cnt);
            continue;
        }
        uint c = node - n;
        REAL qx = cx[c], qy = cy[c], qz = cz[c], m = cm[c];
        REAL dx = qx - x, dy = qy - y, dz = qz - z;
        int near = BH_NEAR(dx * dx + dy * dy + dz * dz, cdepth[c]);
        if (!sub_group_any(near)) {
            if (active)
                interact(qx, qy, qz, m, x, y, z, eps2, &acc, &ph, &cnt);
            continue;
        }
        sub_group_barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < 8; j++) {
            uint v = child[c * 8 + j];
            if (v != BH_EMPTY) {
                if (lane == 0)
                    st[sp] = v;
                sp++;
            }
        }
        sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    }
    BH_FORCE_END
}
#else
/* The work-group walks together (the host makes it one SIMD group wide):
 * its stack in local memory, lane 0 pushing, the vote a local flag
 * between barriers. Every lane passes the same three barriers per node
 * (one loop, no early exits: what PoCL's barrier handling needs). */
__kernel void bh_force(CLIRR_KPARAMS(BH_FORCE_ARGS))
{
    BH_FORCE_BEGIN
    __local int sp_shared, vote;
    uint lid = get_local_id(0);
    if (lid == 0) {
        stacks[0] = n;
        sp_shared = 1;
    }
    int sp;
    do {
        barrier(CLK_LOCAL_MEM_FENCE);
        sp = sp_shared;
        int live = sp > 0;
        uint node = stacks[live ? sp - 1 : 0], c = node - n;
        int body = live & (node < n), cell = live & (node >= n);
        REAL qx = 0, qy = 0, qz = 0, m = 0;
        if (lid == 0)
            vote = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (body)
            visit_bodies(node, b, active, n, px, py, pz, mass, next, x, y, z, eps2, &acc, &ph, &cnt);
        if (cell) {
            qx = cx[c], qy = cy[c], qz = cz[c], m = cm[c];
            REAL dx = qx - x, dy = qy - y, dz = qz - z;
            if (BH_NEAR(dx * dx + dy * dy + dz * dz, cdepth[c]))
                vote = 1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        int open = cell & (vote != 0), pop = live & !open;
        if (pop & cell & active)
            interact(qx, qy, qz, m, x, y, z, eps2, &acc, &ph, &cnt);
        if (pop & (lid == 0))
            sp_shared = sp - 1;
        if (open & (lid == 0)) {
            int t = sp - 1;
            for (uint j = 0; j < 8; j++) {
                uint v = child[c * 8 + j];
                if (v != BH_EMPTY)
                    stacks[t++] = v;
            }
            sp_shared = t;
        }
    } while (sp > 0);
    BH_FORCE_END
}
#endif

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
