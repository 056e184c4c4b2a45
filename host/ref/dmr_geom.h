/* host/ref/dmr_geom.h - the plane geometry of Delaunay mesh refinement,
 * shared by the serial refinement and its verifier, and mirrored line for
 * line by cl/dmr.cl: orientation, the in-circle test, circumcentres, the
 * smallest angle. Plain double arithmetic, no fused multiply-add, so the
 * host and a device decide alike. */
#ifndef CLIRR_REF_DMR_GEOM_H
#define CLIRR_REF_DMR_GEOM_H

#include <math.h>
#include <stdbool.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

/* Twice the signed area of (a, b, c): > 0 counter-clockwise. */
static inline double dmr_orient(const double *a, const double *b, const double *c)
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/* > 0 when d lies inside the circle through the counter-clockwise (a, b,
 * c); *perm (may be NULL) gets the permanent, the same terms in absolute
 * value, which bounds the rounding error of the result. */
static inline double dmr_incircle(const double *a, const double *b, const double *c, const double *d,
                                  double *perm)
{
    double adx = a[0] - d[0], ady = a[1] - d[1], bdx = b[0] - d[0], bdy = b[1] - d[1];
    double cdx = c[0] - d[0], cdy = c[1] - d[1];
    double al = adx * adx + ady * ady, bl = bdx * bdx + bdy * bdy, cl = cdx * cdx + cdy * cdy;
    double bc = bdx * cdy - cdx * bdy, ca = cdx * ady - adx * cdy, ab = adx * bdy - bdx * ady;
    if (perm)
        *perm = al * (fabs(bdx * cdy) + fabs(cdx * bdy)) + bl * (fabs(cdx * ady) + fabs(adx * cdy)) +
                cl * (fabs(adx * bdy) + fabs(bdx * ady));
    return al * bc + bl * ca + cl * ab;
}

/* The circumcentre of (a, b, c) into o. */
static inline void dmr_circumcentre(const double *a, const double *b, const double *c, double *o)
{
    double bx = b[0] - a[0], by = b[1] - a[1], cx = c[0] - a[0], cy = c[1] - a[1];
    double bl = bx * bx + by * by, cl = cx * cx + cy * cy, d = 2 * (bx * cy - by * cx);
    o[0] = a[0] + (cy * bl - by * cl) / d;
    o[1] = a[1] + (bx * cl - cx * bl) / d;
}

/* The corner (0..2) with the smallest angle of (p0, p1, p2), the one
 * facing the shortest edge, and that angle's cosine. */
static inline int dmr_smallest_angle(const double *p0, const double *p1, const double *p2, double *cosine)
{
    const double *p[3] = {p0, p1, p2};
    double l[3];
    for (int i = 0; i < 3; i++) {
        const double *a = p[(i + 1) % 3], *b = p[(i + 2) % 3];
        l[i] = (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]);
    }
    int s = l[0] <= l[1] ? (l[0] <= l[2] ? 0 : 2) : (l[1] <= l[2] ? 1 : 2);
    double x = l[(s + 1) % 3], y = l[(s + 2) % 3];
    *cosine = (x + y - l[s]) / (2 * sqrt(x * y));
    return s;
}

/* Whether point p lies strictly inside the diametral circle of segment
 * (a, b): Ruppert's encroachment. */
static inline bool dmr_encroaches(const double *a, const double *b, const double *p)
{
    return (a[0] - p[0]) * (b[0] - p[0]) + (a[1] - p[1]) * (b[1] - p[1]) < 0;
}

#endif
