/* host/ref/dmr_verify.c - the verifier of a refined mesh (dmr.h says what
 * it checks): structure (symmetric neighbours, orientation),
 * area, the input's points and segments, the local Delaunay property of
 * every interior edge with a stated tolerance, and the bad triangles. No
 * reference mesh: refinements in another order are as right. */
#include "ref/dmr.h"
#include "ref/dmr_geom.h"

#include <stdlib.h>
#include <string.h>

#define NONE CLIRR_MESH_NONE

static const double *pt(const dmr_mesh *w, uint32_t i) { return w->xy + 2 * (size_t)i; }

static double area(const double *xy, const uint32_t *tv, uint32_t nt)
{
    double sum = 0;
    for (uint32_t t = 0; t < nt; t++)
        sum += dmr_orient(xy + 2 * (size_t)tv[3 * (size_t)t], xy + 2 * (size_t)tv[3 * (size_t)t + 1],
                          xy + 2 * (size_t)tv[3 * (size_t)t + 2]);
    return sum / 2;
}

/* Corners in range, counter-clockwise, every point a corner, and the
 * neighbour relation symmetric: across edge (a, b) of t lies a triangle
 * with edge (b, a) whose link across it is t. With the boundary and the
 * area checked below, that makes a triangulation of the input's domain:
 * an overlap would add area, a hole or a triangle too many would add a
 * boundary edge off the input's segments. */
static uint64_t check_structure(const dmr_mesh *got, clirr_verify_report *r)
{
    uint64_t bad = 0;
    uint8_t *used = calloc((size_t)got->np + 1, 1);
    if (!used) {
        clirr_verify_note(r, "out of memory for the points. ");
        return 1;
    }
    for (uint32_t t = 0; t < got->nt && bad < 3; t++) {
        const uint32_t *c = got->tv + 3 * (size_t)t;
        if (c[0] >= got->np || c[1] >= got->np || c[2] >= got->np) {
            clirr_verify_note(r, "triangle %u names a point past the %u. ", t, got->np);
            bad++;
            continue;
        }
        used[c[0]] = used[c[1]] = used[c[2]] = 1;
        double o = dmr_orient(pt(got, c[0]), pt(got, c[1]), pt(got, c[2]));
        if (!(o > 0)) {
            clirr_verify_note(r, "triangle %u (%u %u %u) is not counter-clockwise (%.3g). ", t, c[0], c[1], c[2], o);
            bad++;
        }
        for (int i = 0; i < 3; i++) {
            uint32_t n = got->tn[3 * (size_t)t + i], a = c[(i + 1) % 3], b = c[(i + 2) % 3];
            if (n == NONE)
                continue;
            int j = -1;
            if (n < got->nt)
                for (int k = 0; k < 3; k++) {
                    const uint32_t *d = got->tv + 3 * (size_t)n;
                    if (d[(k + 1) % 3] == b && d[(k + 2) % 3] == a)
                        j = k;
                }
            if (j < 0 || got->tn[3 * (size_t)n + j] != t) {
                clirr_verify_note(r, "triangle %u's neighbour across %u-%u is %u, which does not have that edge "
                                  "reversed with a link back. ", t, a, b, n);
                bad++;
                break;
            }
        }
    }
    for (uint32_t p = 0; p < got->np && !bad; p++)
        if (!used[p]) {
            clirr_verify_note(r, "point %u is a corner of no triangle. ", p);
            bad++;
        }
    free(used);
    return bad;
}

/* Every input segment u -> v is a chain of boundary edges of got through
 * new points on it; every boundary edge of got is on one. */
static uint64_t check_segments(const clirr_mesh *in, const dmr_mesh *got, clirr_verify_report *r)
{
    uint32_t *next = malloc(((size_t)got->np + 1) * sizeof *next);
    if (!next) {
        clirr_verify_note(r, "out of memory for the boundary. ");
        return 1;
    }
    memset(next, 0xff, ((size_t)got->np + 1) * sizeof *next);
    size_t nbound = 0, walked = 0;
    uint64_t bad = 0;
    for (size_t h = 0; h < 3 * (size_t)got->nt; h++)
        if (got->tn[h] == NONE) {
            size_t t3 = h / 3 * 3, i = h % 3;
            uint32_t a = got->tv[t3 + (i + 1) % 3];
            if (next[a] != NONE && bad++ < 3)
                clirr_verify_note(r, "the boundary leaves point %u twice. ", a);
            next[a] = got->tv[t3 + (i + 2) % 3];
            nbound++;
        }
    for (uint32_t s = 0; s < in->nseg && bad < 3; s++) {
        uint32_t u = in->seg[2 * (size_t)s], v = in->seg[2 * (size_t)s + 1], x = next[u];
        const double *pu = in->xy + 2 * (size_t)u, *pv = in->xy + 2 * (size_t)v;
        double len2 = (pv[0] - pu[0]) * (pv[0] - pu[0]) + (pv[1] - pu[1]) * (pv[1] - pu[1]);
        walked++;
        while (x != v && x != NONE && x >= got->np_input && walked <= nbound) {
            const double *px = pt(got, x);
            double dot = (px[0] - pu[0]) * (pv[0] - pu[0]) + (px[1] - pu[1]) * (pv[1] - pu[1]);
            if (fabs(dmr_orient(pu, pv, px)) > 1e-9 * len2 || dot <= 0 || dot >= len2)
                break;
            x = next[x];
            walked++;
        }
        if (x != v) {
            clirr_verify_note(r, "input segment %u (%u -> %u) is not a chain of boundary edges through new points "
                              "on it (stopped at point %d). ", s, u, v, (int)x);
            bad++;
        }
    }
    if (!bad && walked != nbound) {
        clirr_verify_note(r, "%zu boundary edges, of which %zu lie on input segments. ", nbound, walked);
        bad++;
    }
    free(next);
    return bad;
}

/* The local Delaunay test of the edge opposite corner i of t: *det and
 * *perm of the in-circle determinant of the far corner. */
static void edge_incircle(const dmr_mesh *w, uint32_t t, int i, double *det, double *perm, uint32_t *far)
{
    uint32_t n = w->tn[3 * (size_t)t + i];
    const uint32_t *c = w->tv + 3 * (size_t)t, *d = w->tv + 3 * (size_t)n;
    *far = d[0] != c[(i + 1) % 3] && d[0] != c[(i + 2) % 3] ? d[0]
           : d[1] != c[(i + 1) % 3] && d[1] != c[(i + 2) % 3] ? d[1] : d[2];
    *det = dmr_incircle(pt(w, c[0]), pt(w, c[1]), pt(w, c[2]), pt(w, *far), perm);
}

int dmr_check_input(const dmr_mesh *w, const char *name, clirr_error *err)
{
    for (uint32_t t = 0; t < w->nt; t++)
        for (int i = 0; i < 3; i++) {
            uint32_t n = w->tn[3 * (size_t)t + i], far;
            if (n == NONE || n < t)
                continue;
            double det, perm;
            edge_incircle(w, t, i, &det, &perm, &far);
            const uint32_t *c = w->tv + 3 * (size_t)t;
            if (!isfinite(det) || !isfinite(perm))
                return clirr_fail(err, CLIRR_ERR_INPUT, "%s: the coordinates of triangle %u overflow double "
                                  "precision's geometry (scale the mesh)", name, t);
            if (det > 1e-12 * perm)
                return clirr_fail(err, CLIRR_ERR_INPUT, "%s is not a Delaunay triangulation: point %u lies inside "
                                  "the circumcircle of triangle %u (%u %u %u) across edge %u-%u; clirr refines "
                                  "Delaunay triangulations (Triangle and Qhull make them)", name, far, t, c[0],
                                  c[1], c[2], c[(i + 1) % 3], c[(i + 2) % 3]);
        }
    return CLIRR_OK;
}

bool clirr_verify_dmr(const clirr_mesh *in, double min_angle_deg, const dmr_mesh *got, uint32_t claimed_bad_left,
                      dmr_verdict *v, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    memset(v, 0, sizeof *v);
    uint64_t bad = 0;
    if (got->np < in->npoints || got->np_input != in->npoints ||
        memcmp(got->xy, in->xy, 2 * (size_t)in->npoints * sizeof *in->xy)) {
        clirr_verify_note(r, "the input's %u points are not kept as they were. ", in->npoints);
        return clirr_verify_done(r, 1);
    }
    if ((bad = check_structure(got, r)) != 0)
        return clirr_verify_done(r, bad);
    double a0 = area(in->xy, in->tri, in->ntri), a1 = area(got->xy, got->tv, got->nt);
    if (fabs(a1 - a0) > 1e-9 * fabs(a0)) {
        clirr_verify_note(r, "the area changed from %.17g to %.17g. ", a0, a1);
        bad++;
    }
    bad += check_segments(in, got, r);
    /* Local Delaunay: the corner of the neighbour across each interior edge
     * is not inside the triangle's circumcircle. */
    for (uint32_t t = 0; t < got->nt; t++)
        for (int i = 0; i < 3; i++) {
            uint32_t n = got->tn[3 * (size_t)t + i];
            if (n == NONE || n < t)
                continue;
            const uint32_t *c = got->tv + 3 * (size_t)t;
            uint32_t far;
            double perm, det;
            edge_incircle(got, t, i, &det, &perm, &far);
            if (!(det <= 1e-12 * perm) && v->delaunay_violations++ < 3)
                clirr_verify_note(r, "edge %u-%u is not Delaunay: point %u lies in the circumcircle of triangle %u "
                                  "(%.3g of %.3g). ", c[(i + 1) % 3], c[(i + 2) % 3], far, t, det, perm);
        }
    bad += v->delaunay_violations;
    /* Bad triangles, with 1e-9 of slack on the cosine for the rounding of
     * the device's own test. */
    double cos_min = dmr_cos_min(min_angle_deg);
    for (uint32_t t = 0; t < got->nt; t++) {
        const uint32_t *c = got->tv + 3 * (size_t)t;
        double cosine;
        int s = dmr_smallest_angle(pt(got, c[0]), pt(got, c[1]), pt(got, c[2]), &cosine);
        if (cosine > cos_min + 1e-9) {
            v->bad_left++;
            if (c[s] < got->np_input && got->small_corner && got->small_corner[c[s]])
                v->unfixable++;
            else if (v->bad_left - v->unfixable <= 3)
                clirr_verify_note(r, "triangle %u is still bad (smallest angle %.6f degrees). ", t,
                                  acos(cosine) * 180 / 3.14159265358979323846);
        }
    }
    bad += v->bad_left - v->unfixable;
    if (claimed_bad_left != v->bad_left) {
        clirr_verify_note(r, "%u bad triangles are claimed left, %u are. ", claimed_bad_left, v->bad_left);
        bad++;
    }
    return clirr_verify_done(r, bad);
}
