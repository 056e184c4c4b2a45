/* host/mesh/mesh_internal.h - what the files of host/mesh/ share: the
 * array limits and the structure check with its problem found, so the
 * reader can put a problem back on its file's line. Nothing here is
 * public. */
#ifndef CLIRR_MESH_INTERNAL_H
#define CLIRR_MESH_INTERNAL_H

#include "clirr/mesh.h"

/* Refuse a mesh of np points and nt triangles beyond clirr's limits
 * (CLIRR_MESH_MAX_*, clirr_array_limits). `what` names it. */
int clirr_mesh_fits(uint64_t np, uint64_t nt, const char *what, clirr_error *err);

/* What is wrong with a mesh's structure, and where. */
typedef enum mesh_problem_kind {
    MESH_FINE = 0,
    MESH_EDGE_TWICE,      /* tri a and tri b hold edge (p, q) in the same direction */
    MESH_POINT_UNUSED,    /* point p is in no triangle */
    MESH_PINCHED,         /* the boundary passes point p twice */
    MESH_SEG_NOT_BOUNDARY,/* segment a (p, q) is no boundary edge */
    MESH_SEG_TWICE,       /* segment a repeats segment b */
    MESH_SEG_MISSING,     /* boundary edge (p, q) of triangle a is no segment */
    MESH_SEG_INDEX,       /* segment a names a point out of range */
    MESH_TRI_INDEX,       /* triangle a names a point out of range */
    MESH_TRI_FLAT         /* triangle a is clockwise or degenerate (orientation v) */
} mesh_problem_kind;

typedef struct mesh_problem {
    mesh_problem_kind kind;
    uint32_t a, b, p, q;
    double v;
} mesh_problem;

/* The structure of m (see clirr_mesh_check). With add_missing, boundary
 * edges that are no segment are appended to m's segments (m->seg
 * reallocated) and segments are oriented as their triangle; otherwise a
 * missing one is a problem. nb (3 * ntri, or NULL) gets the neighbours.
 * CLIRR_OK, CLIRR_ERR_INPUT with *prob filled (err untouched), or
 * CLIRR_ERR_NOMEM in err. */
int clirr_mesh_structure(clirr_mesh *m, bool add_missing, uint32_t *nb, mesh_problem *prob,
                         clirr_error *err);

/* The problem in words (no location), into buf. */
void clirr_mesh_problem_text(const mesh_problem *prob, char *buf, size_t size);

#endif
