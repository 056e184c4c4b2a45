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

double2 pt(__global const double *xy, uint i) { return (double2)(xy[2 * (size_t)i], xy[2 * (size_t)i + 1]); }

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
bool is_bad(__global const double *xy, __global const uint *tv, __global const uchar *small, uint np_input,
            double cos_min, uint t, bool *unfixable)
{
    uint c[3] = {tv[3 * (size_t)t], tv[3 * (size_t)t + 1], tv[3 * (size_t)t + 2]};
    double2 p[3] = {pt(xy, c[0]), pt(xy, c[1]), pt(xy, c[2])};
    double l[3];
    for (int i = 0; i < 3; i++) {
        double2 a = p[(i + 1) % 3], b = p[(i + 2) % 3];
        l[i] = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y);
    }
    int s = l[0] <= l[1] ? (l[0] <= l[2] ? 0 : 2) : (l[1] <= l[2] ? 1 : 2);
    double x = l[(s + 1) % 3], y = l[(s + 2) % 3];
    double cosine = (x + y - l[s]) / (2 * sqrt(x * y));
    *unfixable = c[s] < np_input && small[c[s]];
    return cosine > cos_min;
}

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
int locate(__global const double *xy, __global const uint *tv, __global const uint *tn, uint t, double2 p,
           uint *x, int *edge)
{
    for (int steps = 0; steps < WALK_LIMIT; steps++) {
        int i = 0;
        for (; i < 3; i++)
            if (orient2(pt(xy, tv[3 * (size_t)t + (i + 1) % 3]), pt(xy, tv[3 * (size_t)t + (i + 2) % 3]), p) < 0)
                break;
        if (i == 3) {
            *x = t;
            return GROW_OK;
        }
        uint n = tn[3 * (size_t)t + i];
        if (n == NONE) {
            *x = t;
            *edge = i;
            return GROW_ENCROACHED;
        }
        t = n;
    }
    return GROW_FAILED;
}

/* The cavity of p from seed (host/ref/dmr_refine.c's grow). */
int grow(__global const double *xy, __global const uint *tv, __global const uint *tn, double2 p, uint seed,
         int split_edge, bool check, cavity *cv, uint *et, int *ei)
{
    cv->n = 1;
    cv->tri[0] = seed;
    uint k = 0;
    for (;;) {
        for (; k < cv->n; k++) {
            uint t = cv->tri[k];
            for (int i = 0; i < 3; i++) {
                uint n = tn[3 * (size_t)t + i];
                if (n == NONE) {
                    if (t == seed && i == split_edge)
                        continue;
                    if (check && encroaches(pt(xy, tv[3 * (size_t)t + (i + 1) % 3]),
                                            pt(xy, tv[3 * (size_t)t + (i + 2) % 3]), p)) {
                        *et = t;
                        *ei = i;
                        return GROW_ENCROACHED;
                    }
                    continue;
                }
                if (in_cavity(cv, n))
                    continue;
                if (incircle(pt(xy, tv[3 * (size_t)n]), pt(xy, tv[3 * (size_t)n + 1]), pt(xy, tv[3 * (size_t)n + 2]),
                             p) > 0) {
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
                uint n = tn[3 * (size_t)t + i];
                if ((n != NONE && in_cavity(cv, n)) || (n == NONE && t == seed && i == split_edge))
                    continue;
                uint a = tv[3 * (size_t)t + (i + 1) % 3], b = tv[3 * (size_t)t + (i + 2) % 3];
                if (orient2(pt(xy, a), pt(xy, b), p) > 0) {
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
        if (!grew)
            break;
    }
    return cv->ne == cv->n + (split_edge >= 0 ? 1 : 2) ? GROW_OK : GROW_FAILED;
}

/* Into the worklist being built, once per round (the stamp). */
void push_once(volatile __global uint *queued, __global uint *wl_out, volatile __global uint *counters, uint stamp,
          uint t)
{
    if (atomic_xchg(&queued[t], stamp) != stamp)
        wl_out[atomic_inc(&counters[DMR_C_WL])] = t;
}

__kernel void dmr_find_bad(CLIRR_KPARAMS(DMR_FIND_BAD_ARGS))
{
    uint t = get_global_id(0);
    bool unfixable;
    (void)tn;
    if (t < nt && is_bad(xy, tv, small, np_input, cos_min, t, &unfixable) && !unfixable)
        push_once(queued, wl_out, counters, stamp, t);
}

__kernel void dmr_build(CLIRR_KPARAMS(DMR_BUILD_ARGS))
{
    uint g = get_global_id(0);
    if (g >= nitems)
        return;
    uint t = topo ? g : wl_in[g];
    bool unfixable;
    it_state[g] = ST_SKIP;
    if (!is_bad(xy, tv, small, np_input, cos_min, t, &unfixable) || unfixable)
        return;
    double2 p = circumcentre(pt(xy, tv[3 * (size_t)t]), pt(xy, tv[3 * (size_t)t + 1]), pt(xy, tv[3 * (size_t)t + 2]));
    cavity cv;
    uint x = t, et = 0;
    int ei = -1, split = -1;
    int r = locate(xy, tv, tn, t, p, &x, &ei);
    if (r == GROW_OK)
        r = grow(xy, tv, tn, p, x, -1, true, &cv, &et, &ei);
    else if (r == GROW_ENCROACHED)
        et = x;
    if (r == GROW_ENCROACHED) {
        double2 a = pt(xy, tv[3 * (size_t)et + (ei + 1) % 3]), b = pt(xy, tv[3 * (size_t)et + (ei + 2) % 3]);
        p = (double2)((a.x + b.x) / 2, (a.y + b.y) / 2);
        x = et;
        split = ei;
        r = grow(xy, tv, tn, p, x, split, false, &cv, &et, &ei);
    }
    if (r != GROW_OK) {
        it_state[g] = ST_FAILED;
        atomic_inc(&counters[r == GROW_TOO_BIG ? DMR_C_TOO_BIG : DMR_C_FAILED]);
        return;
    }
    for (uint k = 0; k < cv.n; k++)
        atomic_min(&owner[cv.tri[k]], g);
    for (uint k = 0; k < cv.ne; k++)
        if (cv.eo[k] != NONE)
            atomic_min(&ring[cv.eo[k]], g);
    it_p[2 * (size_t)g] = p.x;
    it_p[2 * (size_t)g + 1] = p.y;
    it_loc[g] = x;
    it_state[g] = split < 0 ? ST_INTERIOR : ST_SPLIT0 + (uint)split;
    atomic_inc(&counters[DMR_C_BUILT]);
}

/* The cavity an item built, grown again from its seed (the same one while
 * the triangles it claimed are unchanged). */
int regrow(__global const double *xy, __global const uint *tv, __global const uint *tn,
           __global const double *it_p, __global const uint *it_loc, uint g, uint kind, double2 *p, cavity *cv)
{
    uint et;
    int ei;
    *p = (double2)(it_p[2 * (size_t)g], it_p[2 * (size_t)g + 1]);
    int split = kind >= ST_SPLIT0 ? (int)(kind - ST_SPLIT0) : -1;
    return grow(xy, tv, tn, *p, it_loc[g], split, false, cv, &et, &ei);
}

__kernel void dmr_check(CLIRR_KPARAMS(DMR_CHECK_ARGS))
{
    uint g = get_global_id(0);
    if (g >= nitems)
        return;
    uint kind = it_state[g] & ST_KIND;
    (void)small, (void)np_input, (void)cos_min;
    if (kind < ST_INTERIOR)
        return;
    double2 p;
    cavity cv;
    bool win = regrow(xy, tv, tn, it_p, it_loc, g, kind, &p, &cv) == GROW_OK;
    for (uint k = 0; win && k < cv.n; k++)
        win = owner[cv.tri[k]] == g && ring[cv.tri[k]] >= g;
    for (uint k = 0; win && k < cv.ne; k++)
        win = cv.eo[k] == NONE || owner[cv.eo[k]] >= g;
    if (!win) {
        it_state[g] = kind | ST_LOSE;
        return;
    }
    it_slot[2 * (size_t)g] = atomic_inc(&counters[DMR_C_NP]);
    it_slot[2 * (size_t)g + 1] = atomic_add(&counters[DMR_C_NT], cv.ne - cv.n);
    it_state[g] = kind | ST_WIN;
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

__kernel void dmr_commit(CLIRR_KPARAMS(DMR_COMMIT_ARGS))
{
    uint g = get_global_id(0);
    if (g >= nitems)
        return;
    uint st = it_state[g], t = topo ? g : wl_in[g];
    if (st & ST_LOSE) {
        atomic_inc(&counters[DMR_C_ABORTED]);
        if (push)
            push_once(queued, wl_out, counters, stamp, t);
        return;
    }
    if (!(st & ST_WIN))
        return;
    double2 p;
    cavity cv;
    regrow(wxy, wtv, wtn, it_p, it_loc, g, st & ST_KIND, &p, &cv);
    uint pi = it_slot[2 * (size_t)g], first_new = it_slot[2 * (size_t)g + 1];
    uint slot[DMR_MAXC + 2];
    for (uint k = 0; k < cv.ne; k++)
        slot[k] = k < cv.n ? cv.tri[k] : first_new + (k - cv.n);
    bool t_in = in_cavity(&cv, t);
    wxy[2 * (size_t)pi] = p.x;
    wxy[2 * (size_t)pi + 1] = p.y;
    for (uint k = 0; k < cv.ne; k++) {
        uint s = slot[k], a = cv.ea[k], b = cv.eb[k], out = cv.eo[k];
        wtv[3 * (size_t)s] = a;
        wtv[3 * (size_t)s + 1] = b;
        wtv[3 * (size_t)s + 2] = pi;
        wtn[3 * (size_t)s] = fan_neighbour(&cv, slot, b, true);
        wtn[3 * (size_t)s + 1] = fan_neighbour(&cv, slot, a, false);
        wtn[3 * (size_t)s + 2] = out;
        if (out != NONE) {
            uint o0 = wtv[3 * (size_t)out], o1 = wtv[3 * (size_t)out + 1];
            int j = o0 != a && o0 != b ? 0 : o1 != a && o1 != b ? 1 : 2;
            wtn[3 * (size_t)out + j] = s;
        }
    }
    atomic_inc(&counters[DMR_C_COMMITTED]);
    if (!push)
        return;
    for (uint k = 0; k < cv.ne; k++) {
        bool unfixable;
        if (is_bad(wxy, wtv, small, np_input, cos_min, slot[k], &unfixable) && !unfixable)
            push_once(queued, wl_out, counters, stamp, slot[k]);
    }
    if (!t_in)
        push_once(queued, wl_out, counters, stamp, t);
}
