/* host/ref/bh.c - the serial Barnes-Hut (host/ref/bh_serial.inc) in float
 * and in double, chosen by the run's precision. */
#include "ref/bh.h"

#include "cl/bh.def"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The device's kernels run with contraction off (cl/bh.cl); so does this. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

#define R float
#define SQRT sqrtf
#define SFX(name) name##_f
#include "ref/bh_serial.inc"
#undef R
#undef SQRT
#undef SFX

#define R double
#define SQRT sqrt
#define SFX(name) name##_d
#include "ref/bh_serial.inc"
#undef R
#undef SQRT
#undef SFX

int clirr_ref_bh(const clirr_bodies *b, const clirr_bh_config *c, double *out, uint32_t *depth,
                 clirr_error *err)
{
    return c->dbl ? run_d(b, c, out, depth, err) : run_f(b, c, out, depth, err);
}

bool clirr_ref_bh_tree_ok(const clirr_bodies *b, const clirr_bh_config *c, char *msg, size_t size)
{
    return c->dbl ? tree_ok_d(b, c, msg, size) : tree_ok_f(b, c, msg, size);
}
