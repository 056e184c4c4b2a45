/* tests/kernels/irr_patterns.cl - kernels with known branch and access
 * patterns for tests/test_irregularity.c: each W-wide group (w = the
 * model's SIMD width, passed in) does exactly what the test expects the
 * model to count. a has room for 64 words per work-item; l for the
 * work-group's lanes times `stride`. */
#include "common/compat.clh"

/* Every lane of a W-group takes the same side (the side alternates with the
 * group): no divergence. */
__kernel void irr_agree(__global uint *a, const uint w IRR_KPARAM)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    if (IRR_BRANCH(1, (lid / w) % 2 == 0))
        a[gid] = 1;
}

/* The first half of each W-group one way, the second the other: every
 * instance divergent. */
__kernel void irr_half(__global uint *a, const uint w IRR_KPARAM)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    if (IRR_BRANCH(1, lid % w < w / 2))
        a[gid] = 1;
}

/* Lane l runs the loop test l % w + 1 times: occurrence k finds lanes
 * k..w-1, of which lane k leaves; w instances a group, w - 1 divergent. */
__kernel void irr_loop(__global uint *a, const uint w IRR_KPARAM)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    uint s = 0;
    for (uint i = 0; IRR_BRANCH(1, i < lid % w); i++)
        s += i;
    a[gid] = s;
}

/* Consecutive words: a group's w words in ceil(4w / S) segments. */
__kernel void irr_coalesced(__global uint *a, const uint w IRR_KPARAM)
{
    uint gid = get_global_id(0);
    *IRR_GST(1, &a[gid]) = *IRR_GLD(2, &a[gid]) + 1;
}

/* One lane per segment of `seg` bytes: w segments, w - 1 replays. */
__kernel void irr_scattered(__global uint *a, const uint seg_words IRR_KPARAM)
{
    uint gid = get_global_id(0);
    a[gid] = *IRR_GLD(1, &a[(size_t)gid * seg_words]);
}

/* Only a quarter of each group's lanes load: SIMD utilisation 1/4. */
__kernel void irr_quarter(__global uint *a, const uint w IRR_KPARAM)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    if (lid % w < w / 4)
        a[gid] = *IRR_GLD(1, &a[gid]);
}

/* Local words lid * stride (banks: the model's B): with B = w, stride 1
 * has no conflict, stride 2 a 2-way one, stride w a w-way one; all lanes
 * reading word 0 is a broadcast. */
__kernel void irr_banks(__global uint *a, __local uint *l, const uint stride IRR_KPARAM)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    *IRR_LST(1, &l[lid * stride]) = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    a[gid] = *IRR_LLD(2, &l[lid * stride]) + *IRR_LLD(3, &l[0]);
}
