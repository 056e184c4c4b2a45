/* host/ref/calib.h - serial references of the calibration kernels of
 * cl/calib.cl (host/algo/calib.c runs them): what each kernel must give,
 * computed the plain way. */
#ifndef CLIRR_REF_CALIB_H
#define CLIRR_REF_CALIB_H

#include <stddef.h>
#include <stdint.h>

void clirr_ref_calib_histogram(const uint32_t *data, size_t n, uint32_t bins[256]);
/* C = A B, n x n row-major; sums in k order (float, as the kernel). */
void clirr_ref_calib_matmul(const float *a, const float *b, float *c, size_t n);
/* Accelerations (x, y, z per body; pos holds x, y, z, mass), in double. */
void clirr_ref_calib_nbody(const float *pos, double *acc, size_t n, double eps2);
/* Black-Scholes call and put prices, in double. */
void clirr_ref_calib_bs(const float *price, const float *strike, const float *years, double *call,
                        double *put, size_t n, double rate, double vol);

#endif
