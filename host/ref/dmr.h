/* host/ref/dmr.h - Delaunay mesh refinement on the CPU: the mesh being
 * refined (points, triangles, neighbours), the serial refinement that is
 * the reference and the serial baseline, and the verifier of any refined
 * mesh, which needs no reference.
 *
 * The rule (Ruppert's, as LonestarGPU's DMR): a triangle is bad when its
 * smallest angle is below the minimum angle. A bad triangle's circumcentre
 * is located by walking from the triangle towards it; its cavity is the
 * connected set of triangles whose circumcircle holds it strictly (grown
 * until every cavity edge sees the point on its inner side), and the
 * cavity is replaced by the fan from the point (Bowyer-Watson). When the
 * walk leaves the domain through a boundary segment, or the point lies in
 * the diametral circle of a boundary segment of the cavity, that segment
 * is split at its midpoint instead. A bad triangle whose smallest angle
 * sits at an input corner of the boundary narrower than the minimum angle
 * cannot be fixed (every triangle there keeps an angle that small): it is
 * left, and counted as unfixable. */
#ifndef CLIRR_REF_DMR_H
#define CLIRR_REF_DMR_H

#include "ref/ref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A mesh being refined. Triangle t: corners tv[3t..3t+2] counter-
 * clockwise, tn[3t+i] the triangle across the edge opposite corner i
 * (CLIRR_MESH_NONE: a boundary segment). The input's points keep their
 * indices; new points follow them. */
typedef struct dmr_mesh {
    uint32_t np, nt;
    uint32_t np_input;       /* points of the input */
    size_t cap_p, cap_t;
    double *xy;
    uint32_t *tv, *tn;
    uint8_t *small_corner;   /* per input point: a boundary corner narrower
                                than the minimum angle */
} dmr_mesh;

/* Refinement statistics of the serial run. */
typedef struct dmr_ref_stats {
    uint64_t insertions;     /* circumcentres inserted */
    uint64_t splits;         /* segments split */
    uint64_t failures;       /* bad triangles given up (a degenerate cavity) */
    uint32_t bad_before, unfixable;
} dmr_ref_stats;

/* The cosine of the minimum angle in degrees. */
double dmr_cos_min(double min_angle_deg);

/* w from mesh m (neighbours found, small corners flagged for min_angle
 * in degrees), with room for extra_t more triangles. */
int dmr_mesh_init(dmr_mesh *w, const clirr_mesh *m, double min_angle_deg, size_t extra_t, clirr_error *err);
void dmr_mesh_free(dmr_mesh *w);
/* Room for at least np points and nt triangles (contents kept). */
int dmr_mesh_reserve(dmr_mesh *w, size_t np, size_t nt, clirr_error *err);

/* Refuse (CLIRR_ERR_INPUT, naming the edge) an input that is not
 * Delaunay: an interior edge whose far corner lies in the circumcircle
 * beyond the verifier's tolerance, or geometry that overflows doubles.
 * The refinement keeps a Delaunay mesh Delaunay; it cannot repair one. */
int dmr_check_input(const dmr_mesh *w, const char *name, clirr_error *err);

/* Whether triangle t is bad under cos_min; *unfixable when its smallest
 * angle is at a small input corner. */
bool dmr_is_bad(const dmr_mesh *w, uint32_t t, double cos_min, bool *unfixable);

/* The triangles the refinement may grow to before it gives up (an input
 * it cannot refine, e.g. angles the rule cannot reach). */
uint64_t dmr_triangle_limit(uint32_t input_triangles);

/* The serial refinement of w in place (a FIFO worklist of bad triangles). */
int clirr_ref_dmr(dmr_mesh *w, double min_angle_deg, dmr_ref_stats *st, clirr_error *err);

/* The triangles of w as a clirr_mesh (segments: the boundary edges), for
 * writing; the arrays are copies. */
int dmr_mesh_export(const dmr_mesh *w, clirr_mesh *out, clirr_error *err);

/* What the verifier counted. */
typedef struct dmr_verdict {
    uint32_t bad_left;       /* bad triangles (minimum angle less 1e-9 in cosine) */
    uint32_t unfixable;      /* of them, those at small input corners */
    uint64_t delaunay_violations;
} dmr_verdict;

/* Check a refinement got of input `in` without a reference: corners in
 * range and counter-clockwise, every point a corner; the neighbour
 * relation symmetric (across edge (a, b) a triangle with edge (b, a)
 * linking back: every interior edge of exactly two triangles); total area
 * unchanged (1e-9 relative); the input's points kept bit for bit; every
 * input segment present, split only at new points on it, and no other
 * boundary edge (the boundary passing a point once); every interior edge
 * locally Delaunay (the in-circle determinant
 * over 1e-12 of its permanent is a violation: the evaluation's error is
 * below 1e-15 of it, so a violation is real, and near-cocircular points
 * within that tolerance pass); no bad triangle but unfixable ones; and
 * claimed_bad_left equal to the count. */
bool clirr_verify_dmr(const clirr_mesh *in, double min_angle_deg, const dmr_mesh *got, uint32_t claimed_bad_left,
                      dmr_verdict *v, clirr_verify_report *r);

#endif
