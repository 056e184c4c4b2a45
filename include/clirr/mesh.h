/* clirr/mesh.h - triangle meshes (the input of Delaunay mesh refinement,
 * shared/papers/000 and 002): reading, writing, generating, checking.
 *
 * A mesh is points in the plane, triangles over them (counter-clockwise,
 * none degenerate) and boundary segments. clirr keeps every boundary edge
 * of the triangles as a segment (Ruppert's refinement needs the domain's
 * boundary as segments): segments a .poly file lists must be boundary
 * edges, and boundary edges it leaves out are added. Nothing here touches
 * OpenCL.
 *
 * Files are Triangle's (J. R. Shewchuk): PREFIX.node, PREFIX.ele and an
 * optional PREFIX.poly, each optionally gzipped (PREFIX.node.gz, ...).
 *   .node  "N 2 ATTRIBUTES MARKERS", then "ID X Y [attributes] [marker]"
 *   .ele   "T 3 ATTRIBUTES", then "ID A B C [attributes]"
 *   .poly  "0 2 0 MARKERS" (the points are the .node's), "S MARKERS", then
 *          "ID A B [marker]", then "H" and H hole lines "ID X Y" (ignored:
 *          the triangles are the domain), then optionally "R" regions
 * '#' starts a comment; ids count up by one from the first (0 or 1), which
 * sets the base of every index. Attributes and markers are read (and
 * checked) but not kept. */
#ifndef CLIRR_MESH_H
#define CLIRR_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clirr/export.h"
#include "clirr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest point and triangle counts: indices, and the "no neighbour"
 * mark, fit in 32 bits with room to refine (a refined mesh grows). */
#define CLIRR_MESH_MAX_POINTS ((uint64_t)1 << 29)
#define CLIRR_MESH_MAX_TRIANGLES ((uint64_t)1 << 30)
/* A triangle's missing neighbour (its edge is on the boundary). */
#define CLIRR_MESH_NONE UINT32_MAX

typedef struct clirr_mesh {
    uint32_t npoints;
    double *xy;        /* 2 * npoints: point i at (xy[2i], xy[2i+1]) */
    uint32_t ntri;
    uint32_t *tri;     /* 3 * ntri point indices, counter-clockwise */
    uint32_t nseg;
    uint32_t *seg;     /* 2 * nseg: boundary segments, oriented as their triangle */
} clirr_mesh;

/* Read PREFIX.node, PREFIX.ele and PREFIX.poly if there is one (each
 * plain, or gzipped with .gz added when the plain file is absent). prefix
 * may also end in ".node" or ".node.gz". CLIRR_ERR_INPUT with "FILE:LINE:
 * reason" for a malformed header or line, counts that disagree with their
 * header, an index out of range, a degenerate or clockwise triangle, an
 * edge of more than two triangles (or of two with the same direction), a
 * point in no triangle, a boundary that touches itself, a segment that is
 * no boundary edge. *m is zeroed on failure. */
CLIRR_API int clirr_mesh_read(const char *prefix, clirr_mesh *m, clirr_error *err);

/* Write PREFIX.node, PREFIX.ele and PREFIX.poly (1-based ids, coordinates
 * with 17 significant digits, so reading back gives the same doubles),
 * gzipped when gz (PREFIX.node.gz, ...). prefix may end in ".node" or
 * ".node.gz" (the latter gzips). Each file is written whole or not at all.
 * CLIRR_ERR_IO on failure. */
CLIRR_API int clirr_mesh_write(const char *prefix, bool gz, const clirr_mesh *m, clirr_error *err);

/* The prefix of a mesh path: "a/b.node" and "a/b.node.gz" give "a/b" (and
 * *gz true for the latter), anything else is a prefix already. */
CLIRR_API void clirr_mesh_prefix(const char *path, char *prefix, size_t size, bool *gz);

/* Generate "mesh:n=N[,seed=S][,shape=square|disk]": N points from clirr's
 * counter-based random numbers (square: the unit square's 4 corners and
 * N-4 uniform points inside; disk: N uniform points of the unit disk),
 * Delaunay-triangulated by Qhull (libqhull_r), the convex hull's edges as
 * segments, triangles in a canonical order, so a spec gives the same mesh
 * on every machine. N >= 3 (4 for square); seed defaults to 1.
 * CLIRR_ERR_USAGE for a malformed spec. */
CLIRR_API int clirr_mesh_generate(const char *spec, clirr_mesh *m, clirr_error *err);

/* True when spec names a mesh generator ("mesh:..."). */
CLIRR_API bool clirr_mesh_spec(const char *spec);

/* Check m's structure (what the reader checks, without line numbers):
 * indices in range, triangles counter-clockwise, edges of at most two
 * triangles with opposite directions, every point in a triangle, a simple
 * boundary, segments equal to the boundary edges. `what` names the mesh in
 * the message (CLIRR_ERR_INPUT). */
CLIRR_API int clirr_mesh_check(const clirr_mesh *m, const char *what, clirr_error *err);

/* The neighbours of every triangle: nb[3t+i] is the triangle across the
 * edge opposite corner i of triangle t (from tri[3t+i+1] to tri[3t+i+2]),
 * CLIRR_MESH_NONE on the boundary. nb holds 3 * ntri. CLIRR_ERR_INPUT
 * (naming the triangles) when an edge has more than two triangles or two
 * with the same direction. */
CLIRR_API int clirr_mesh_neighbors(const clirr_mesh *m, uint32_t *nb, clirr_error *err);

/* Twice the signed area of triangle (a, b, c): positive when
 * counter-clockwise. */
CLIRR_API double clirr_mesh_orient(const double *a, const double *b, const double *c);

/* 64-bit hash of the counts, coordinates' bits, triangles and segments. */
CLIRR_API uint64_t clirr_mesh_hash(const clirr_mesh *m);

CLIRR_API void clirr_mesh_free(clirr_mesh *m);

#ifdef __cplusplus
}
#endif
#endif
