/* cl/calib.cl - small regular kernels for the regular end of the
 * irregularity study's Figure 1 (shared/papers/002: the CUDA SDK's
 * histogram, matrix multiply, n-body and Black-Scholes sit near CFI = MAI =
 * 0), run by `clirr profile --calib` (host/algo/calib.c) and checked
 * against the serial references of host/ref/calib.c. Loads, stores and loop
 * tests carry the irregularity macros (cl/common/irregularity.clh).
 *   calib_histogram  256 bins: a work-group's histogram in local memory
 *                    (local atomics), then added to the global one
 *   calib_matmul     C = A B for n x n floats (n a multiple of 16), one
 *                    16 x 16 tile of C per work-group of 256, tiles of A
 *                    and B staged in local memory (as the SDK's)
 *   calib_nbody      all-pairs accelerations with softening, every
 *                    work-item reading every body (a broadcast)
 *   calib_bs         Black-Scholes call and put prices, one option each */
#include "common/compat.clh"

__kernel void calib_histogram(__global const uint *data, const uint n, __global uint *bins
                              IRR_KPARAM)
{
    __local uint local_bins[256];
    uint lid = get_local_id(0), lsize = get_local_size(0);
    for (uint b = lid; IRR_BRANCH(1, b < 256); b += lsize)
        *IRR_LST(2, &local_bins[b]) = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); IRR_BRANCH(3, i < n); i += get_global_size(0)) {
        uint v = *IRR_GLD(4, &data[i]) & 255u;
        atomic_inc(IRR_LAT(5, &local_bins[v]));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; IRR_BRANCH(6, b < 256); b += lsize)
        atomic_add(IRR_GAT(8, &bins[b]), *IRR_LLD(7, &local_bins[b]));
}

#define CALIB_TILE 16

__kernel void calib_matmul(__global const float *a, __global const float *b, __global float *c,
                           const uint n IRR_KPARAM)
{
    __local float as[CALIB_TILE * CALIB_TILE], bs[CALIB_TILE * CALIB_TILE];
    uint lid = get_local_id(0), tx = lid % CALIB_TILE, ty = lid / CALIB_TILE;
    uint tiles = n / CALIB_TILE, g = get_group_id(0);
    uint i = (g / tiles) * CALIB_TILE + ty, j = (g % tiles) * CALIB_TILE + tx;
    float sum = 0.0f;
    for (uint t = 0; IRR_BRANCH(1, t < tiles); t++) {
        *IRR_LST(3, &as[lid]) = *IRR_GLD(2, &a[(size_t)i * n + t * CALIB_TILE + tx]);
        *IRR_LST(5, &bs[lid]) = *IRR_GLD(4, &b[(size_t)(t * CALIB_TILE + ty) * n + j]);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; IRR_BRANCH(6, k < CALIB_TILE); k++)
            sum += *IRR_LLD(7, &as[ty * CALIB_TILE + k]) * *IRR_LLD(8, &bs[k * CALIB_TILE + tx]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *IRR_GST(9, &c[(size_t)i * n + j]) = sum;
}

__kernel void calib_nbody(__global const float4 *pos, __global float4 *acc, const uint n,
                          const float eps2 IRR_KPARAM)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 pi = *IRR_GLD(1, &pos[i]);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (uint j = 0; IRR_BRANCH(2, j < n); j++) {
        float4 pj = *IRR_GLD(3, &pos[j]);
        float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
        float r2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = 1.0f / sqrt(r2);
        float s = pj.w * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    *IRR_GST(4, &acc[i]) = (float4)(ax, ay, az, 0.0f);
}

/* Cumulative normal distribution (Abramowitz and Stegun 26.2.17, as the
 * SDK's sample); the sign is a select, not a branch. */
inline float calib_cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f,
                a5 = 1.330274429f, rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float cnd = rsqrt2pi * exp(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0f - cnd : cnd;
}

__kernel void calib_bs(__global const float *price, __global const float *strike,
                       __global const float *years, __global float *call, __global float *put,
                       const uint n, const float rate, const float vol IRR_KPARAM)
{
    for (uint i = get_global_id(0); IRR_BRANCH(1, i < n); i += get_global_size(0)) {
        float s = *IRR_GLD(2, &price[i]), x = *IRR_GLD(3, &strike[i]), t = *IRR_GLD(4, &years[i]);
        float sqrt_t = sqrt(t);
        float d1 = (log(s / x) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
        float d2 = d1 - vol * sqrt_t;
        float cnd1 = calib_cnd(d1), cnd2 = calib_cnd(d2);
        float ert = exp(-rate * t);
        *IRR_GST(5, &call[i]) = s * cnd1 - x * ert * cnd2;
        *IRR_GST(6, &put[i]) = x * ert * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}
