/* clirr/calib.h - small regular calibration kernels (256-bin histogram,
 * tiled dense matrix multiply, all-pairs n-body, Black-Scholes) for the
 * regular end of the irregularity study's Figure 1 (shared/papers/002).
 * Each runs once on generated data of a fixed size and is checked against
 * its serial reference; on a context with the irregularity recorder
 * (clirr/irregularity.h) its records are counted like any kernel's. */
#ifndef CLIRR_CALIB_H
#define CLIRR_CALIB_H

#include "clirr/device.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct clirr_calib_result {
    char size[64];          /* "262144 values", "64 x 64", ... */
    bool verified;          /* the device's answer matches the reference */
    char report[256];       /* the first mismatch, when not verified */
    double kernel_ms;       /* the kernel's device time */
} clirr_calib_result;

CLIRR_API size_t clirr_calib_count(void);
CLIRR_API const char *clirr_calib_name(size_t i);    /* "histogram", ... */
CLIRR_API const char *clirr_calib_summary(size_t i);
/* Index of `name`, or -1. */
CLIRR_API int clirr_calib_find(const char *name);
/* Run calibration kernel i on ctx and check it. CLIRR_ERR_UNSUPPORTED when
 * the device cannot (work-groups under 256 for the matrix multiply). */
CLIRR_API int clirr_calib_run(clirr_ctx *ctx, size_t i, clirr_calib_result *r, clirr_error *err);

#ifdef __cplusplus
}
#endif

#endif
