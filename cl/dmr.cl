/* cl/dmr.cl - Delaunay mesh refinement (shared/papers/000: DMR, Table I;
 * 002: the DMR rows), the rule of host/ref/dmr.h step for step as the
 * serial refinement (host/ref/dmr_refine.c) takes it. Host side:
 * host/algo/dmr.c; parameters: cl/dmr.def.
 *
 * A round is three launches, so no work-item ever waits for another
 * work-group:
 *   1. dmr_build: each item (a triangle: all of them topology-driven, the
 *      worklist data-driven) that is bad locates its circumcentre, grows
 *      its cavity in private memory and claims the cavity's triangles
 *      (owner) and their outer neighbours, the ring (ring), with
 *      atomic_min of its item number; the mesh is only read;
 *   2. dmr_check: an item wins when no lower item claimed a triangle of
 *      its cavity and no lower item's cavity holds a triangle of its ring
 *      (the lowest item always wins, so each round commits; two winners'
 *      rings may share a triangle, whose different links each rewrites);
 *      it reserves a point and its new triangles with atomic counters.
 *      The host grows the storage when the counters pass it and reruns
 *      this launch: nothing is written yet;
 *   3. dmr_commit: winners grow their cavity again (the same triangles:
 *      they touch only what they claimed) and replace it by the fan from
 *      the new point, in the cavity's slots and the reserved ones, fixing
 *      the outer neighbours' links; losers and new bad triangles go to the
 *      next worklist once each (a per-triangle stamp of the round). */
#include "common/compat.clh"
#include "common/kargs.h"
#include "dmr.def"

#if !CLIRR_HAS_FP64
#error "Delaunay mesh refinement needs cl_khr_fp64"
#endif

/* The host's geometry rounds every operation; so does this. */
#pragma OPENCL FP_CONTRACT OFF

#define NONE CLIRR_NONE
#define WALK_LIMIT 4096

/* it_state: what an item did this round. */
#define ST_SKIP 0u      /* not bad, or unfixable */
#define ST_FAILED 1u    /* given up */
#define ST_INTERIOR 2u  /* a circumcentre's cavity */
#define ST_SPLIT0 3u    /* a segment's midpoint: + the edge (0..2) of it_loc */
#define ST_KIND 0xfu
#define ST_WIN 0x10u
#define ST_LOSE 0x20u

#define GROW_OK 0
#define GROW_ENCROACHED 1
#define GROW_FAILED (-1)
#define GROW_TOO_BIG (-2)

/* Under `clirr profile` the helpers that read global memory take the
 * record buffer: each is defined as NAME_ and called through a macro NAME
 * that passes it on (IRR_FARG, empty otherwise; a macro of fixed arity:
 * NVIDIA's OpenCL C has no variadic macros). GLD(x) is a recorded load
 * of the global lvalue x. A point is one 16-byte access. */
#define GLD(x) (*IRR_GLD(0, &(x)))

double2 pt_(__global const double *xy, uint i IRR_FPARAM)
{
    (void)IRR_GLD(1, (__global const double2 *)(xy + 2 * (size_t)i));
    return (double2)(xy[2 * (size_t)i], xy[2 * (size_t)i + 1]);
}
#define pt(a0, a1) pt_(a0, a1 IRR_FARG)

double orient2(double2 a, double2 b, double2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

double incircle(double2 a, double2 b, double2 c, double2 d)
{
    double adx = a.x - d.x, ady = a.y - d.y, bdx = b.x - d.x, bdy = b.y - d.y;
    double cdx = c.x - d.x, cdy = c.y - d.y;
    double al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
    double bc = bdx * cdy - cdx * bdy, ca = cdx * ady - adx * cdy, ab = adx * bdy - bdx * ady;
    return al * bc + bl * ca + cl * ab;
}

double2 circumcentre(double2 a, double2 b, double2 c)
{
    double bx = b.x - a.x, by = b.y - a.y, cx = c.x - a.x, cy = c.y - a.y;
    double bl = bx * bx + by * by, cl = cx * cx + cy * cy, d = 2 * (bx * cy - by * cx);
    return (double2)(a.x + (cy * bl - by * cl) / d, a.y + (bx * cl - cx * bl) / d);
}

bool encroaches(double2 a, double2 b, double2 p) { return (a.x - p.x) * (b.x - p.x) + (a.y - p.y) * (b.y - p.y) < 0; }

/* Bad: the smallest angle (facing the shortest edge) under the minimum;
 * unfixable when it sits at a small input corner. */
bool is_bad_(__global const double *xy, __global const uint *tv, __global const uchar *small, uint np_input,
             double cos_min, uint t, bool *unfixable IRR_FPARAM)
{
    uint c[3] = {GLD(tv[3 * (size_t)t]), GLD(tv[3 * (size_t)t + 1]), GLD(tv[3 * (size_t)t + 2])};
    double2 p[3] = {pt(xy, c[0]), pt(xy, c[1]), pt(xy, c[2])};
    double l[3];
    for (int i = 0; i < 3; i++) {
        double2 a = p[(i + 1) % 3], b = p[(i + 2) % 3];
        l[i] = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
    }
    int s = l[0] <= l[1] ? (l[0] <= l[2] ? 0 : 2) : (l[1] <= l[2] ? 1 : 2);
    double x = l[(s + 1) % 3], y = l[(s + 2) % 3];
    double cosine = (x + y - l[s]) / (2 * sqrt(x * y));
    *unfixable = c[s] < np_input && GLD(small[c[s]]);
    return IRR_BRANCH(2, cosine > cos_min);
}
#define is_bad(a0, a1, a2, a3, a4, a5, a6) is_bad_(a0, a1, a2, a3, a4, a5, a6 IRR_FARG)

/* A cavity in private memory: its triangles, then its boundary edges
 * (a, b) counter-clockwise with the triangle outside. */
typedef struct cavity {
    uint n, ne;
    uint tri[DMR_MAXC];
    uint ea[DMR_MAXC + 2], eb[DMR_MAXC + 2], eo[DMR_MAXC + 2];
} cavity;

bool in_cavity(const cavity *cv, uint t)
{
    for (uint k = 0; k < cv->n; k++)
        if (cv->tri[k] == t)
            return true;
    return false;
}

/* Walk from t towards p: GROW_OK with *x holding p, GROW_ENCROACHED with
 * (*x, *edge) the boundary edge the walk leaves by. */
int locate_(__global const double *xy, __global const uint *tv, __global const uint *tn, uint t, double2 p,
            uint *x, int *edge IRR_FPARAM)
{
    for (int steps = 0; steps < WALK_LIMIT; steps++) {
        int i = 0;
        for (; i < 3; i++)
            if (IRR_BRANCH(3, orient2(pt(xy, GLD(tv[3 * (size_t)t + (i + 1) % 3])),
                                      pt(xy, GLD(tv[3 * (size_t)t + (i + 2) % 3])), p) < 0))
                break;
        if (IRR_BRANCH(4, i == 3)) {
            *x = t;
            return GROW_OK;
        }
        uint n = GLD(tn[3 * (size_t)t + i]);
        if (IRR_BRANCH(5, n == NONE)) {
            *x = t;
            *edge = i;
            return GROW_ENCROACHED;
        }
        t = n;
    }
    return GROW_FAILED;
}
#define locate(a0, a1, a2, a3, a4, a5, a6) locate_(a0, a1, a2, a3, a4, a5, a6 IRR_FARG)

/* The cavity of p from seed (host/ref/dmr_refine.c's grow). */
int grow_(__global const double *xy, __global const uint *tv, __global const uint *tn, double2 p, uint seed,
          int split_edge, bool check, cavity *cv, uint *et, int *ei IRR_FPARAM)
{
    cv->n = 1;
    cv->tri[0] = seed;
    uint k = 0;
    for (;;) {
        for (; k < cv->n; k++) {
            uint t = cv->tri[k];
            for (int i = 0; i < 3; i++) {
                uint n = GLD(tn[3 * (size_t)t + i]);
                if (IRR_BRANCH(6, n == NONE)) {
                    if (t == seed && i == split_edge)
                        continue;
                    if (check && encroaches(pt(xy, GLD(tv[3 * (size_t)t + (i + 1) % 3])),
                                            pt(xy, GLD(tv[3 * (size_t)t + (i + 2) % 3])), p)) {
                        *et = t;
                        *ei = i;
                        return GROW_ENCROACHED;
                    }
                    continue;
                }
                if (in_cavity(cv, n))
                    continue;
                if (IRR_BRANCH(7, incircle(pt(xy, GLD(tv[3 * (size_t)n])), pt(xy, GLD(tv[3 * (size_t)n + 1])),
                                           pt(xy, GLD(tv[3 * (size_t)n + 2])), p) > 0)) {
                    if (cv->n == DMR_MAXC)
                        return GROW_TOO_BIG;
                    cv->tri[cv->n++] = n;
                }
            }
        }
        bool grew = false;
        cv->ne = 0;
        for (uint j = 0; j < cv->n; j++) {
            uint t = cv->tri[j];
            for (int i = 0; i < 3; i++) {
                uint n = GLD(tn[3 * (size_t)t + i]);
                if (IRR_BRANCH(8, (n != NONE && in_cavity(cv, n)) || (n == NONE && t == seed && i == split_edge)))
                    continue;
                uint a = GLD(tv[3 * (size_t)t + (i + 1) % 3]), b = GLD(tv[3 * (size_t)t + (i + 2) % 3]);
                if (IRR_BRANCH(9, orient2(pt(xy, a), pt(xy, b), p) > 0)) {
                    if (cv->ne == DMR_MAXC + 2)
                        return GROW_TOO_BIG;
                    cv->ea[cv->ne] = a;
                    cv->eb[cv->ne] = b;
                    cv->eo[cv->ne++] = n;
                    continue;
                }
                if (n == NONE) {
                    if (!check)
                        return GROW_FAILED;
                    *et = t;
                    *ei = i;
                    return GROW_ENCROACHED;
                }
                if (cv->n == DMR_MAXC)
                    return GROW_TOO_BIG;
                cv->tri[cv->n++] = n;
                grew = true;
            }
        }
        if (IRR_BRANCH(10, !grew))
            break;
    }
    return cv->ne == cv->n + (split_edge >= 0 ? 1 : 2) ? GROW_OK : GROW_FAILED;
}
#define grow(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) grow_(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 IRR_FARG)

/* Into the worklist being built, once per round (the stamp). */
void push_once_(volatile __global uint *queued, __global uint *wl_out, volatile __global uint *counters, uint stamp,
                uint t IRR_FPARAM)
{
    if (IRR_BRANCH(11, atomic_xchg(IRR_GAT(12, &queued[t]), stamp) != stamp))
        *IRR_GST(14, &wl_out[atomic_inc(IRR_GAT(13, &counters[DMR_C_WL]))]) = t;
}
#define push_once(a0, a1, a2, a3, a4) push_once_(a0, a1, a2, a3, a4 IRR_FARG)

__kernel void dmr_find_bad(CLIRR_KPARAMS(DMR_FIND_BAD_ARGS) IRR_KPARAM)
{
    uint t = get_global_id(0);
    bool unfixable;
    (void)tn;
    if (IRR_BRANCH(15, t < nt && is_bad(xy, tv, small, np_input, cos_min, t, &unfixable) && !unfixable))
        push_once(queued, wl_out, counters, stamp, t);
}

__kernel void dmr_build(CLIRR_KPARAMS(DMR_BUILD_ARGS) IRR_KPARAM)
{
    uint g = get_global_id(0);
    if (IRR_BRANCH(16, g >= nitems))
        return;
    uint t = topo ? g : *IRR_GLD(17, &wl_in[g]);
    bool unfixable;
    *IRR_GST(18, &it_state[g]) = ST_SKIP;
    if (IRR_BRANCH(19, !is_bad(xy, tv, small, np_input, cos_min, t, &unfixable) || unfixable))
        return;
    double2 p = circumcentre(pt(xy, GLD(tv[3 * (size_t)t])), pt(xy, GLD(tv[3 * (size_t)t + 1])),
                             pt(xy, GLD(tv[3 * (size_t)t + 2])));
    cavity cv;
    uint x = t, et = 0;
    int ei = -1, split = -1;
    int r = locate(xy, tv, tn, t, p, &x, &ei);
    if (r == GROW_OK)
        r = grow(xy, tv, tn, p, x, -1, true, &cv, &et, &ei);
    else if (r == GROW_ENCROACHED)
        et = x;
    if (IRR_BRANCH(20, r == GROW_ENCROACHED)) {
        double2 a = pt(xy, GLD(tv[3 * (size_t)et + (ei + 1) % 3])), b = pt(xy, GLD(tv[3 * (size_t)et + (ei + 2) % 3]));
        p = (double2)((a.x + b.x) / 2, (a.y + b.y) / 2);
        x = et;
        split = ei;
        r = grow(xy, tv, tn, p, x, split, false, &cv, &et, &ei);
    }
    if (IRR_BRANCH(21, r != GROW_OK)) {
        *IRR_GST(22, &it_state[g]) = ST_FAILED;
        atomic_inc(IRR_GAT(23, &counters[r == GROW_TOO_BIG ? DMR_C_TOO_BIG : DMR_C_FAILED]));
        return;
    }
    for (uint k = 0; IRR_BRANCH(24, k < cv.n); k++)
        atomic_min(IRR_GAT(25, &owner[cv.tri[k]]), g);
    for (uint k = 0; IRR_BRANCH(26, k < cv.ne); k++)
        if (IRR_BRANCH(27, cv.eo[k] != NONE))
            atomic_min(IRR_GAT(28, &ring[cv.eo[k]]), g);
    (void)IRR_GST(29, (__global double2 *)(it_p + 2 * (size_t)g));
    it_p[2 * (size_t)g] = p.x;
    it_p[2 * (size_t)g + 1] = p.y;
    *IRR_GST(30, &it_loc[g]) = x;
    *IRR_GST(31, &it_state[g]) = split < 0 ? ST_INTERIOR : ST_SPLIT0 + (uint)split;
    atomic_inc(IRR_GAT(32, &counters[DMR_C_BUILT]));
}

/* The cavity an item built, grown again from its seed (the same one while
 * the triangles it claimed are unchanged). */
int regrow_(__global const double *xy, __global const uint *tv, __global const uint *tn,
            __global const double *it_p, __global const uint *it_loc, uint g, uint kind, double2 *p,
            cavity *cv IRR_FPARAM)
{
    uint et;
    int ei;
    *p = pt(it_p, g);
    int split = kind >= ST_SPLIT0 ? (int)(kind - ST_SPLIT0) : -1;
    return grow(xy, tv, tn, *p, GLD(it_loc[g]), split, false, cv, &et, &ei);
}
#define regrow(a0, a1, a2, a3, a4, a5, a6, a7, a8) regrow_(a0, a1, a2, a3, a4, a5, a6, a7, a8 IRR_FARG)

__kernel void dmr_check(CLIRR_KPARAMS(DMR_CHECK_ARGS) IRR_KPARAM)
{
    uint g = get_global_id(0);
    if (IRR_BRANCH(33, g >= nitems))
        return;
    uint kind = *IRR_GLD(34, &it_state[g]) & ST_KIND;
    (void)small, (void)np_input, (void)cos_min;
    if (IRR_BRANCH(35, kind < ST_INTERIOR))
        return;
    double2 p;
    cavity cv;
    bool win = regrow(xy, tv, tn, it_p, it_loc, g, kind, &p, &cv) == GROW_OK;
    for (uint k = 0; IRR_BRANCH(36, win && k < cv.n); k++)
        win = GLD(owner[cv.tri[k]]) == g && GLD(ring[cv.tri[k]]) >= g;
    for (uint k = 0; IRR_BRANCH(37, win && k < cv.ne); k++)
        win = cv.eo[k] == NONE || GLD(owner[cv.eo[k]]) >= g;
    if (IRR_BRANCH(38, !win)) {
        *IRR_GST(39, &it_state[g]) = kind | ST_LOSE;
        return;
    }
    *IRR_GST(41, &it_slot[2 * (size_t)g]) = atomic_inc(IRR_GAT(40, &counters[DMR_C_NP]));
    *IRR_GST(43, &it_slot[2 * (size_t)g + 1]) = atomic_add(IRR_GAT(42, &counters[DMR_C_NT]), cv.ne - cv.n);
    *IRR_GST(44, &it_state[g]) = kind | ST_WIN;
}

/* The slot of the fan triangle on the cavity edge with a == v (first) or
 * b == v (!first), or NONE. */
uint fan_neighbour(const cavity *cv, const uint *slot, uint v, bool first)
{
    for (uint k = 0; k < cv->ne; k++)
        if ((first ? cv->ea[k] : cv->eb[k]) == v)
            return slot[k];
    return NONE;
}

__kernel void dmr_commit(CLIRR_KPARAMS(DMR_COMMIT_ARGS) IRR_KPARAM)
{
    uint g = get_global_id(0);
    if (IRR_BRANCH(45, g >= nitems))
        return;
    uint st = *IRR_GLD(46, &it_state[g]), t = topo ? g : *IRR_GLD(47, &wl_in[g]);
    if (IRR_BRANCH(48, st & ST_LOSE)) {
        atomic_inc(IRR_GAT(49, &counters[DMR_C_ABORTED]));
        if (push)
            push_once(queued, wl_out, counters, stamp, t);
        return;
    }
    if (IRR_BRANCH(50, !(st & ST_WIN)))
        return;
    double2 p;
    cavity cv;
    regrow(wxy, wtv, wtn, it_p, it_loc, g, st & ST_KIND, &p, &cv);
    uint pi = *IRR_GLD(51, &it_slot[2 * (size_t)g]), first_new = *IRR_GLD(52, &it_slot[2 * (size_t)g + 1]);
    uint slot[DMR_MAXC + 2];
    for (uint k = 0; k < cv.ne; k++)
        slot[k] = k < cv.n ? cv.tri[k] : first_new + (k - cv.n);
    bool t_in = in_cavity(&cv, t);
    (void)IRR_GST(53, (__global double2 *)(wxy + 2 * (size_t)pi));
    wxy[2 * (size_t)pi] = p.x;
    wxy[2 * (size_t)pi + 1] = p.y;
    for (uint k = 0; IRR_BRANCH(54, k < cv.ne); k++) {
        uint s = slot[k], a = cv.ea[k], b = cv.eb[k], out = cv.eo[k];
        *IRR_GST(55, &wtv[3 * (size_t)s]) = a;
        *IRR_GST(56, &wtv[3 * (size_t)s + 1]) = b;
        *IRR_GST(57, &wtv[3 * (size_t)s + 2]) = pi;
        *IRR_GST(58, &wtn[3 * (size_t)s]) = fan_neighbour(&cv, slot, b, true);
        *IRR_GST(59, &wtn[3 * (size_t)s + 1]) = fan_neighbour(&cv, slot, a, false);
        *IRR_GST(60, &wtn[3 * (size_t)s + 2]) = out;
        if (IRR_BRANCH(61, out != NONE)) {
            uint o0 = GLD(wtv[3 * (size_t)out]), o1 = GLD(wtv[3 * (size_t)out + 1]);
            int j = o0 != a && o0 != b ? 0 : o1 != a && o1 != b ? 1 : 2;
            *IRR_GST(62, &wtn[3 * (size_t)out + j]) = s;
        }
    }
    atomic_inc(IRR_GAT(63, &counters[DMR_C_COMMITTED]));
    if (!push)
        return;
    for (uint k = 0; IRR_BRANCH(64, k < cv.ne); k++) {
        bool unfixable;
        if (IRR_BRANCH(65, is_bad(wxy, wtv, small, np_input, cos_min, slot[k], &unfixable) && !unfixable))
            push_once(queued, wl_out, counters, stamp, slot[k]);
    }
    if (!t_in)
        push_once(queued, wl_out, counters, stamp, t);
}
