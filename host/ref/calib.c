/* host/ref/calib.c - the calibration kernels' serial references
 * (host/ref/calib.h). */
#include "ref/calib.h"

#include <math.h>
#include <string.h>

void clirr_ref_calib_histogram(const uint32_t *data, size_t n, uint32_t bins[256])
{
    memset(bins, 0, 256 * sizeof *bins);
    for (size_t i = 0; i < n; i++)
        bins[data[i] & 255u]++;
}

void clirr_ref_calib_matmul(const float *a, const float *b, float *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            float sum = 0.0f;
            for (size_t k = 0; k < n; k++)
                sum += a[i * n + k] * b[k * n + j];
            c[i * n + j] = sum;
        }
}

void clirr_ref_calib_nbody(const float *pos, double *acc, size_t n, double eps2)
{
    for (size_t i = 0; i < n; i++) {
        double ax = 0, ay = 0, az = 0;
        for (size_t j = 0; j < n; j++) {
            double dx = (double)pos[4 * j] - pos[4 * i], dy = (double)pos[4 * j + 1] - pos[4 * i + 1],
                   dz = (double)pos[4 * j + 2] - pos[4 * i + 2];
            double r2 = dx * dx + dy * dy + dz * dz + eps2;
            double s = pos[4 * j + 3] / (r2 * sqrt(r2));
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        acc[3 * i] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
}

/* The exact normal distribution function (the kernel's polynomial is
 * within 1e-7 of it). */
static double cnd(double d) { return 0.5 * erfc(-d / sqrt(2.0)); }

void clirr_ref_calib_bs(const float *price, const float *strike, const float *years, double *call,
                        double *put, size_t n, double rate, double vol)
{
    for (size_t i = 0; i < n; i++) {
        double s = price[i], x = strike[i], t = years[i];
        double d1 = (log(s / x) + (rate + 0.5 * vol * vol) * t) / (vol * sqrt(t));
        double d2 = d1 - vol * sqrt(t);
        double ert = exp(-rate * t);
        call[i] = s * cnd(d1) - x * ert * cnd(d2);
        put[i] = x * ert * cnd(-d2) - s * cnd(-d1);
    }
}
