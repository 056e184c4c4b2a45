/* host/ref/bh.h - Barnes-Hut's oracles (host/algo/bh.c): the serial
 * Barnes-Hut with the device's tree, opening rule and leapfrog, in the
 * device's precision; the direct O(n^2) sum; the tree's invariants; the
 * verifier. Nothing here touches OpenCL. */
#ifndef CLIRR_REF_BH_H
#define CLIRR_REF_BH_H

#include "clirr/algo.h"
#include "clirr/bodies.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a run of Barnes-Hut does (LonestarGPU's defaults: 1 step, dt
 * 0.025, eps 0.05, theta 0.5). */
typedef struct clirr_bh_config {
    uint32_t steps;
    double dt, eps, theta;
    bool dbl;          /* double precision, else float */
} clirr_bh_config;

/* The result per body: the state after the last step and the acceleration
 * at the positions the last step started from. */
enum { BH_OUT_X, BH_OUT_Y, BH_OUT_Z, BH_OUT_VX, BH_OUT_VY, BH_OUT_VZ, BH_OUT_AX, BH_OUT_AY, BH_OUT_AZ,
       BH_OUT_REALS };

/* A tree as arrays (the device's, downloaded, or the reference's), masses
 * of bodies and cells in double. */
typedef struct clirr_bh_tree_view {
    uint32_t n, ncells;
    const uint32_t *child, *next, *pslot, *ccount;
    const double *body_mass, *cell_mass;
} clirr_bh_tree_view;

/* The serial Barnes-Hut: out gets n * BH_OUT_REALS. *depth (may be NULL)
 * the deepest cell of the last tree. CLIRR_ERR_NOMEM only. */
int clirr_ref_bh(const clirr_bodies *b, const clirr_bh_config *c, double *out, uint32_t *depth,
                 clirr_error *err);

/* The tree the serial Barnes-Hut builds for b's positions (precision as
 * c), checked by clirr_bh_tree_check; false with the reason in msg. For
 * tests of the invariants themselves. */
bool clirr_ref_bh_tree_ok(const clirr_bodies *b, const clirr_bh_config *c, char *msg, size_t size);

/* The invariants of a tree: every body in exactly one leaf reached from
 * the root; every reached cell's mass the sum of its children's and its
 * count their bodies'. Masses compare within `rel` of the cell's mass
 * (rounding of the sums). False with the first violation in msg. */
bool clirr_bh_tree_check(const clirr_bh_tree_view *t, double rel, char *msg, size_t size);

/* The softened acceleration on a body at p from every body but `self`
 * (UINT32_MAX: none), summed directly in double; *gross (may be NULL) the
 * sum of the pairwise accelerations' magnitudes, the scale of the error
 * Barnes-Hut makes where forces cancel; *stiff (may be NULL) the sum of
 * m / (d^2 + eps^2)^1.5, how fast the acceleration changes with p (at
 * most 3 stiff per unit of displacement). */
void clirr_bh_direct(const clirr_bodies *b, const double p[3], uint32_t self, double eps, double a[3],
                     double *gross, double *stiff);

/* The tolerances the verifier applies (clirr_verify_bh), for reports. */
typedef struct clirr_bh_tolerance {
    double p99, max;   /* relative acceleration error against the direct sum
                        * and against the serial Barnes-Hut: 99th percentile
                        * and largest */
    double state;      /* |position or velocity - serial's|, relative to the
                        * state's scale */
} clirr_bh_tolerance;
void clirr_bh_tolerance_for(const clirr_bh_config *c, clirr_bh_tolerance *t);

/* Errors measured by the verifier (for the JSON). */
typedef struct clirr_bh_errors {
    double direct_p99, direct_max;  /* against the direct sum */
    double serial_p99, serial_max;  /* accelerations against the serial BH */
    double state_max;               /* positions and velocities against it */
    uint32_t sampled;               /* bodies checked against the direct sum */
} clirr_bh_errors;

/* Check a device result got against the serial one (expected): every
 * value finite; on a sample of bodies (all up to 2048), accelerations
 * against the direct sum at the positions the last step started from
 * (rebuilt from got: x - dt (v - a dt/2)) and against the serial
 * Barnes-Hut, errors relative to the gross pairwise sum (clirr_bh_direct),
 * positions and velocities against the serial ones; momentum conserved
 * within the Barnes-Hut error. e (may be NULL) gets the errors. */
bool clirr_verify_bh(const clirr_bodies *b, const clirr_bh_config *c, const double *expected,
                     const double *got, clirr_bh_errors *e, clirr_verify_report *r);

#endif
