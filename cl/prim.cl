/* cl/prim.cl - device primitives over uint buffers: fill, iota, exclusive
 * scan, stream compaction, reduction (host side: host/prim/prim.c).
 *
 * Counts and indices are uint: n < 2^32 (the host rejects more). Loops that
 * step through a range use ulong so that the last tile of a range ending
 * near 2^32 cannot wrap.
 *
 * Scan and compaction are reduce-then-scan in two launches, neither of
 * which waits on another work-group (no forward progress is assumed):
 *   1. prim_range_*: work-group g reduces its contiguous range
 *      [g*chunk, min(n, (g+1)*chunk)) to partials[g] (ulong: exact sums);
 *   2. prim_scan_tiles / prim_compact_tiles: work-group g adds up
 *      partials[0..g) itself (the scan of the block sums, done redundantly
 *      per work-group: there are few of them and they sit in cache), then
 *      walks its range again tile by tile from that offset.
 * The host bounds the number of work-groups (a few per compute unit, at
 * most 1024), so no recursion over levels is needed for any n < 2^32.
 * Inputs of a few tiles run as one work-group in step 2 alone (one launch).
 * Reduction is step 1, then prim_partials_* in one work-group.
 *
 * A tile is ITEMS elements per work-item. Global memory is read and written
 * coalesced (element k*L + lid of the tile at step k); the tile is staged
 * in local memory so each work-item can then walk ITEMS *consecutive*
 * elements serially, and the work-group scan runs once per tile, not once
 * per element. ITEMS is odd so that the strided walk (lid*ITEMS + k) hits
 * distinct local-memory banks for any power-of-two bank count. */
#include "common/compat.clh"
#include "common/kargs.h"
#include "common/scan.clh"
#include "prim.def"

#ifndef CLIRR_PRIM_ITEMS
#define CLIRR_PRIM_ITEMS 15
#endif
#define ITEMS CLIRR_PRIM_ITEMS

/* ---- fill and iota: one tile of L*ITEMS elements per work-group -------- */

kernel void prim_fill(CLIRR_KPARAMS(PRIM_FILL_ARGS) IRR_KPARAM)
{
    const uint L = get_local_size(0), lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * L * ITEMS;
    const uint rem = (uint)min((ulong)L * ITEMS, (ulong)n - base);
    global uint *p = buf + offset + base;
    for (uint k = 0; k < ITEMS; k++) {
        const uint i = k * L + lid;
        if (IRR_BRANCH(1, i < rem))
            *IRR_GST(2, &p[i]) = value;
    }
}

kernel void prim_iota(CLIRR_KPARAMS(PRIM_IOTA_ARGS) IRR_KPARAM)
{
    const uint L = get_local_size(0), lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * L * ITEMS;
    const uint rem = (uint)min((ulong)L * ITEMS, (ulong)n - base);
    for (uint k = 0; k < ITEMS; k++) {
        const uint i = k * L + lid;
        if (IRR_BRANCH(3, i < rem))
            *IRR_GST(4, &buf[base + i]) = start + (uint)(base + i);
    }
}

/* ---- step 1: reduce each work-group's range to one partial -------------- */

/* partials[g] = OP over in[range of g] of LOAD(in[i]); IN is the element
 * type, ACC the accumulator type (ulong for exact sums), PART the type of
 * the 8-byte partials, ARGS the kernel's list in prim.def (which names the
 * same types). `match` is used by count only. */
#define PRIM_RANGE_REDUCE(NAME, ARGS, IN, ACC, PART, LOAD, OP, IDENT, WG_REDUCE) \
    kernel void prim_range_##NAME(CLIRR_KPARAMS(ARGS) IRR_KPARAM)              \
    {                                                                          \
        const uint L = get_local_size(0), lid = get_local_id(0);               \
        const ulong start = (ulong)get_group_id(0) * chunk;                    \
        const ulong end = min(start + chunk, (ulong)n);                        \
        const ulong tile = (ulong)L * ITEMS;                                   \
        ACC acc = IDENT;                                                       \
        (void)match;                                                           \
        for (ulong base = start; base < end; base += tile) {                   \
            const uint rem = (uint)min(tile, end - base);                      \
            global const IN *p = in + base;                                    \
            for (uint k = 0; k < ITEMS; k++) {                                 \
                const uint i = k * L + lid;                                    \
                if (IRR_BRANCH(5, i < rem))                                    \
                    acc = OP(acc, LOAD(*IRR_GLD(6, &p[i])));                   \
            }                                                                  \
        }                                                                      \
        acc = WG_REDUCE(acc, tmp);                                             \
        if (IRR_BRANCH(7, lid == 0))                                           \
            *IRR_GST(8, &partials[get_group_id(0)]) = (PART)acc;               \
    }

#define PRIM_LOAD_U64(x) ((ulong)(x))
#define PRIM_LOAD_U32(x) (x)
#define PRIM_LOAD_MATCH(x) ((uint)((x) == match))

PRIM_RANGE_REDUCE(sum, PRIM_RANGE_SUM_ARGS, uint, ulong, ulong, PRIM_LOAD_U64, CLIRR_OP_ADD, 0,
                  clirr_wg_reduce_add_ulong)
PRIM_RANGE_REDUCE(min, PRIM_RANGE_MIN_ARGS, uint, uint, ulong, PRIM_LOAD_U32, CLIRR_OP_MIN,
                  0xffffffffu, clirr_wg_reduce_min_uint)
PRIM_RANGE_REDUCE(max, PRIM_RANGE_MAX_ARGS, uint, uint, ulong, PRIM_LOAD_U32, CLIRR_OP_MAX, 0u,
                  clirr_wg_reduce_max_uint)
/* A count never exceeds chunk < 2^32, so uint is exact. */
PRIM_RANGE_REDUCE(count, PRIM_RANGE_COUNT_ARGS, uint, uint, ulong, PRIM_LOAD_MATCH, CLIRR_OP_ADD,
                  0u, clirr_wg_reduce_add_uint)
#if CLIRR_HAS_FP64
/* Sums of doubles (PageRank's norms): the partials hold doubles. */
PRIM_RANGE_REDUCE(fsum, PRIM_RANGE_FSUM_ARGS, double, double, double, PRIM_LOAD_U32,
                  CLIRR_OP_ADD, 0.0, clirr_wg_reduce_add_double)
#endif

/* ---- reduction: one work-group over the partials ------------------------ */

/* partials[count] = OP over partials[0..count). tmp: L ulongs. One group. */
#define PRIM_PARTIALS_REDUCE(NAME, OP, IDENT)                                  \
    kernel void prim_partials_##NAME(CLIRR_KPARAMS(PRIM_PARTIALS_ARGS) IRR_KPARAM) \
    {                                                                          \
        const uint L = get_local_size(0), lid = get_local_id(0);               \
        ulong acc = IDENT;                                                     \
        for (uint i = lid; IRR_BRANCH(9, i < count); i += L)                   \
            acc = OP(acc, *IRR_GLD(10, &partials[i]));                         \
        acc = clirr_wg_reduce_##NAME##_ulong(acc, tmp);                        \
        if (IRR_BRANCH(11, lid == 0))                                          \
            *IRR_GST(12, &partials[count]) = acc;                              \
    }

PRIM_PARTIALS_REDUCE(add, CLIRR_OP_ADD, 0ul)
PRIM_PARTIALS_REDUCE(min, CLIRR_OP_MIN, 0xfffffffful)
PRIM_PARTIALS_REDUCE(max, CLIRR_OP_MAX, 0ul)

#if CLIRR_HAS_FP64
kernel void prim_partials_fadd(CLIRR_KPARAMS(PRIM_PARTIALS_F_ARGS) IRR_KPARAM)
{
    const uint L = get_local_size(0), lid = get_local_id(0);
    double acc = 0.0;
    for (uint i = lid; IRR_BRANCH(13, i < count); i += L)
        acc += *IRR_GLD(14, &partials[i]);
    acc = clirr_wg_reduce_add_double(acc, tmp);
    if (IRR_BRANCH(15, lid == 0))
        *IRR_GST(16, &partials[count]) = acc;
}
#endif

/* ---- step 2: each range tile by tile from its offset -------------------- */

/* This work-group's offset: *pre = partials[0] + ... + partials[g-1] and,
 * when want_all (uniform), *all = the sum of all `groups` partials. Every
 * work-group reads the (few, cached) partials itself, so no separate launch
 * scans them and no work-group waits for another. tmp: L ulongs. */
static inline void prim_group_offset(global const ulong *partials, uint groups, int want_all,
                                     local ulong *tmp, ulong *pre, ulong *all IRR_FPARAM)
{
    const uint L = get_local_size(0), lid = get_local_id(0), g = get_group_id(0);
    const uint upto = want_all ? groups : g;
    ulong p = 0, a = 0;
    for (uint i = lid; IRR_BRANCH(17, i < upto); i += L) {
        const ulong x = *IRR_GLD(18, &partials[i]);
        a += x;
        if (i < g)
            p += x;
    }
    *pre = clirr_wg_reduce_add_ulong(p, tmp);
    *all = want_all ? clirr_wg_reduce_add_ulong(a, tmp) : 0;
}

#define PRIM_RANGE_SETUP                                                       \
    const uint L = get_local_size(0), lid = get_local_id(0);                   \
    const ulong start = (ulong)get_group_id(0) * chunk;                        \
    const ulong end = min(start + chunk, (ulong)n);                            \
    const ulong tilesz = (ulong)L * ITEMS;                                     \
    local uint *tmp32 = (local uint *)tmp;

/* Exclusive scan of the tile at `base` from IN into OUT, starting at carry.
 * The tile is staged in local memory (coalesced), each work-item scans its
 * ITEMS consecutive elements serially around one work-group scan of the
 * per-work-item sums, and the result leaves coalesced. All loads of a tile
 * happen before its stores (barrier in between), so IN and OUT may be the
 * same memory. With `single` the work-item also sums its elements in 64
 * bits into `exact` (the total of a one-work-group scan). */
#define PRIM_SCAN_TILE(IN, OUT)                                                \
    {                                                                          \
        const uint rem = (uint)min(tilesz, end - base);                        \
        for (uint k = 0; k < ITEMS; k++) {                                     \
            const uint i = k * L + lid;                                        \
            *IRR_LST(19, &tile[i]) = IRR_BRANCH(20, i < rem) ? *IRR_GLD(21, &IN[base + i]) : 0u; \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        local uint *mine = tile + lid * ITEMS;                                 \
        uint v[ITEMS];                                                         \
        uint s = 0;                                                            \
        for (uint k = 0; k < ITEMS; k++) {                                     \
            v[k] = *IRR_LLD(22, &mine[k]);                                     \
            s += v[k];                                                         \
        }                                                                      \
        if (single)                                                            \
            for (uint k = 0; k < ITEMS; k++)                                   \
                exact += v[k];                                                 \
        uint total;                                                            \
        uint run = carry + clirr_wg_scan_excl_add_uint(s, tmp32, &total);      \
        for (uint k = 0; k < ITEMS; k++) {                                     \
            *IRR_LST(23, &mine[k]) = run;                                      \
            run += v[k];                                                       \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        for (uint k = 0; k < ITEMS; k++) {                                     \
            const uint i = k * L + lid;                                        \
            if (IRR_BRANCH(24, i < rem))                                       \
                *IRR_GST(25, &OUT[base + i]) = *IRR_LLD(26, &tile[i]);         \
        }                                                                      \
        carry += total;                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
    }

/* groups == 1: one work-group over all of [0, n), no step 1; the exact
 * total is summed on the way. Either way partials[groups] receives the
 * total (64-bit). tile: L*ITEMS uints; tmp: L ulongs. */
#define PRIM_SCAN_BODY(IN, OUT)                                                \
    PRIM_RANGE_SETUP                                                           \
    const int single = groups == 1;                                            \
    ulong pre = 0, unused, exact = 0;                                          \
    if (!single)                                                               \
        prim_group_offset(partials, groups, 0, tmp, &pre, &unused IRR_FARG);   \
    uint carry = (uint)pre;                                                    \
    for (ulong base = start; base < end; base += tilesz)                       \
        PRIM_SCAN_TILE(IN, OUT)                                                \
    if (single) {                                                              \
        exact = clirr_wg_reduce_add_ulong(exact, tmp);                         \
        if (IRR_BRANCH(27, lid == 0))                                          \
            *IRR_GST(28, &partials[1]) = exact;                                \
    } else if (IRR_BRANCH(29, get_group_id(0) == groups - 1 && lid == 0)) {    \
        *IRR_GST(31, &partials[groups]) = pre + *IRR_GLD(30, &partials[groups - 1]); \
    }

kernel void prim_scan_tiles(CLIRR_KPARAMS(PRIM_SCAN_ARGS) IRR_KPARAM)
{
    PRIM_SCAN_BODY(in, out)
}

/* The same with one buffer, for in == out: no two kernel arguments alias. */
kernel void prim_scan_tiles_inplace(CLIRR_KPARAMS(PRIM_SCAN_INPLACE_ARGS) IRR_KPARAM)
{
    PRIM_SCAN_BODY(data, data)
}

/* Compaction: element i with keys[i] == match goes to out[rank of i] as
 * values[i] (or i when use_index). Every work-group learns the total first
 * (from the partials, or by counting when it is the only one); nothing is
 * written when it exceeds capacity (the same decision in every work-item,
 * so the early return is uniform). Within a tile the flags are scanned in
 * local memory, which is then rewritten with each selected element's
 * position in the tile (CLIRR_NONE otherwise); the last pass reads values
 * coalesced and writes to increasing positions, so stores stay close
 * together. partials[groups] receives the count. */
kernel void prim_compact_tiles(CLIRR_KPARAMS(PRIM_COMPACT_ARGS) IRR_KPARAM)
{
    PRIM_RANGE_SETUP
    ulong pre = 0, all = 0;
    if (groups == 1) {
        uint c = 0;
        for (ulong base = start; base < end; base += tilesz) {
            const uint rem = (uint)min(tilesz, end - base);
            for (uint k = 0; k < ITEMS; k++) {
                const uint i = k * L + lid;
                c += IRR_BRANCH(32, i < rem) && *IRR_GLD(33, &keys[base + i]) == match;
            }
        }
        all = clirr_wg_reduce_add_uint(c, tmp32);
    } else {
        prim_group_offset(partials, groups, 1, tmp, &pre, &all IRR_FARG);
    }
    if (IRR_BRANCH(34, get_group_id(0) == 0 && lid == 0))
        *IRR_GST(35, &partials[groups]) = all;
    if (all > (ulong)capacity)
        return;
    uint carry = (uint)pre;
    for (ulong base = start; base < end; base += tilesz) {
        const uint rem = (uint)min(tilesz, end - base);
        for (uint k = 0; k < ITEMS; k++) {
            const uint i = k * L + lid;
            *IRR_LST(36, &tile[i]) = IRR_BRANCH(37, i < rem) && *IRR_GLD(38, &keys[base + i]) == match;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        local uint *mine = tile + lid * ITEMS;
        uint v[ITEMS];
        uint s = 0;
        for (uint k = 0; k < ITEMS; k++) {
            v[k] = *IRR_LLD(39, &mine[k]);
            s += v[k];
        }
        uint total;
        uint pos = clirr_wg_scan_excl_add_uint(s, tmp32, &total);
        for (uint k = 0; k < ITEMS; k++) {
            *IRR_LST(40, &mine[k]) = v[k] ? pos : CLIRR_NONE;
            pos += v[k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < ITEMS; k++) {
            const uint i = k * L + lid;
            const uint d = *IRR_LLD(41, &tile[i]);
            if (IRR_BRANCH(42, d != CLIRR_NONE))
                *IRR_GST(44, &out[carry + d]) = use_index ? (uint)(base + i) : *IRR_GLD(43, &values[base + i]);
        }
        carry += total;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* ---- the scan push's placement: one work-item per segment ---------------- */

/* Reads are coalesced (neighbouring segments' k-th elements sit side by
 * side); each segment's writes are consecutive. */
kernel void prim_scatter_segments(CLIRR_KPARAMS(PRIM_SCATTER_ARGS) IRR_KPARAM)
{
    for (uint g = get_global_id(0); IRR_BRANCH(45, g < n); g += get_global_size(0)) {
        const uint from = *IRR_GLD(46, &offsets[g]);
        const uint to = g + 1 < n ? *IRR_GLD(47, &offsets[g + 1]) : total;
        for (uint k = 0; IRR_BRANCH(48, k < to - from); k++)
            *IRR_GST(50, &out[base + from + k]) = *IRR_GLD(49, &items[(ulong)k * n + g]);
    }
}
