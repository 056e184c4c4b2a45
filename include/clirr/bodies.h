/* clirr/bodies.h - bodies of an n-body system (the input of Barnes-Hut,
 * shared/papers/000 and 002): reading, writing, generating.
 *
 * A body is a mass, a position and a velocity (7 reals), kept in double
 * precision on the host whatever precision a device computes in. Nothing
 * here touches OpenCL.
 *
 * File format (.bodies, optionally .gz): one body per line,
 * "m x y z vx vy vz", reals separated by blanks; blank lines and lines
 * starting with '#' are skipped. Masses are finite and not negative (at
 * least one body has a positive mass); every value is finite. */
#ifndef CLIRR_BODIES_H
#define CLIRR_BODIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clirr/export.h"
#include "clirr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reals per body, in the order of a line of the file. */
enum { CLIRR_BODY_M, CLIRR_BODY_X, CLIRR_BODY_Y, CLIRR_BODY_Z, CLIRR_BODY_VX, CLIRR_BODY_VY,
       CLIRR_BODY_VZ, CLIRR_BODY_REALS };

/* Largest body count: a tree of n bodies numbers its nodes (bodies, then
 * cells) in 32 bits with room for several cells per body. */
#define CLIRR_BODIES_MAX ((uint64_t)1 << 28)

typedef struct clirr_bodies {
    uint32_t n;     /* bodies, at least 1 */
    double *v;      /* n * CLIRR_BODY_REALS: body i's reals at v[7 i ...] */
} clirr_bodies;

/* Read a .bodies file (plain or gzipped). CLIRR_ERR_INPUT with "FILE:LINE:
 * reason" for a missing or extra field, a value that is not a finite real,
 * a negative mass; "FILE: reason" for no bodies or a total mass of zero;
 * the array limits (clirr_array_limits) are checked before memory grows.
 * *b is zeroed on failure. */
CLIRR_API int clirr_bodies_read(const char *path, clirr_bodies *b, clirr_error *err);

/* Write b as a .bodies file (gzipped when path ends in .gz), each real
 * with 17 significant digits (reading it back gives the same doubles),
 * whole or not at all. CLIRR_ERR_IO on failure. */
CLIRR_API int clirr_bodies_write(const char *path, const clirr_bodies *b, clirr_error *err);

/* Generate bodies from "plummer:n=N[,seed=S]": the Plummer model as
 * LonestarGPU's Barnes-Hut draws it (radius from the cumulative mass,
 * direction uniform on the sphere, speed by von Neumann rejection from the
 * distribution function, mass 1/N), from clirr's counter-based random
 * numbers and only correctly rounded operations (+ - * / sqrt), so the
 * same spec gives the same doubles on every machine. seed defaults to 1.
 * CLIRR_ERR_USAGE for a malformed spec. */
CLIRR_API int clirr_bodies_generate(const char *spec, clirr_bodies *b, clirr_error *err);

/* True when spec names a bodies generator ("plummer:..."). */
CLIRR_API bool clirr_bodies_spec(const char *spec);

/* 64-bit hash of n and every real's bits (for determinism checks). */
CLIRR_API uint64_t clirr_bodies_hash(const clirr_bodies *b);

/* Free the array of b and zero it. */
CLIRR_API void clirr_bodies_free(clirr_bodies *b);

#ifdef __cplusplus
}
#endif
#endif
