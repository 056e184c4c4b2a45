/* cl/prim.cl - device primitives over uint buffers: fill, iota, exclusive
 * scan, stream compaction, reduction (host side: host/prim/prim.c).
 *
 * Counts and indices are uint: n < 2^32 (the host rejects more). Loops that
 * step through a range use ulong so that the last tile of a range ending
 * near 2^32 cannot wrap.
 *
 * Scan and compaction are reduce-then-scan in three launches, none of which
 * waits on another work-group (no forward progress is assumed):
 *   1. prim_range_*: work-group g reduces its contiguous range
 *      [g*chunk, min(n, (g+1)*chunk)) to partials[g] (ulong: exact sums);
 *   2. prim_partials_scan: one work-group scans the partials in place
 *      (exclusive) and writes their total to partials[groups];
 *   3. prim_scan_tiles / prim_compact_tiles: work-group g walks its range
 *      again tile by tile, starting from partials[g].
 * The host bounds the number of groups (a few per compute unit, at most a
 * few thousand), so step 2 is a single small work-group and no recursion
 * over levels is needed for any n < 2^32.
 *
 * A tile is ITEMS elements per work-item. Global memory is read and written
 * coalesced (element k*L + lid of the tile at step k); the tile is staged
 * in local memory so each work-item can then walk ITEMS *consecutive*
 * elements serially, and the work-group scan runs once per tile, not once
 * per element. ITEMS is odd so that the strided walk (lid*ITEMS + k) hits
 * distinct local-memory banks for any power-of-two bank count. */
#include "common/compat.clh"
#include "common/scan.clh"

#ifndef CLIRR_PRIM_ITEMS
#define CLIRR_PRIM_ITEMS 15
#endif
#define ITEMS CLIRR_PRIM_ITEMS

/* ---- fill and iota: one tile of L*ITEMS elements per work-group -------- */

kernel void prim_fill(global uint *buf, ulong offset, uint n, uint value)
{
    const uint L = get_local_size(0), lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * L * ITEMS;
    const uint rem = (uint)min((ulong)L * ITEMS, (ulong)n - base);
    global uint *p = buf + offset + base;
    for (uint k = 0; k < ITEMS; k++) {
        const uint i = k * L + lid;
        if (i < rem)
            p[i] = value;
    }
}

kernel void prim_iota(global uint *buf, uint n, uint start)
{
    const uint L = get_local_size(0), lid = get_local_id(0);
    const ulong base = (ulong)get_group_id(0) * L * ITEMS;
    const uint rem = (uint)min((ulong)L * ITEMS, (ulong)n - base);
    for (uint k = 0; k < ITEMS; k++) {
        const uint i = k * L + lid;
        if (i < rem)
            buf[base + i] = start + (uint)(base + i);
    }
}

/* ---- step 1: reduce each work-group's range to one partial ------------- */

/* partials[g] = OP over in[range of g] of LOAD(in[i]); ACC is the
 * accumulator type (ulong for exact sums). `match` is used by count only. */
#define PRIM_RANGE_REDUCE(NAME, ACC, LOAD, OP, IDENT, WG_REDUCE)                \
    kernel void prim_range_##NAME(global const uint *in, uint match, uint n,     \
                                  uint chunk, global ulong *partials,           \
                                  local ACC *tmp)                               \
    {                                                                          \
        const uint L = get_local_size(0), lid = get_local_id(0);               \
        const ulong start = (ulong)get_group_id(0) * chunk;                    \
        const ulong end = min(start + chunk, (ulong)n);                        \
        const ulong tile = (ulong)L * ITEMS;                                   \
        ACC acc = IDENT;                                                       \
        (void)match;                                                           \
        for (ulong base = start; base < end; base += tile) {                   \
            const uint rem = (uint)min(tile, end - base);                      \
            global const uint *p = in + base;                                  \
            for (uint k = 0; k < ITEMS; k++) {                                 \
                const uint i = k * L + lid;                                    \
                if (i < rem)                                                   \
                    acc = OP(acc, LOAD(p[i]));                                 \
            }                                                                  \
        }                                                                      \
        acc = WG_REDUCE(acc, tmp);                                             \
        if (lid == 0)                                                          \
            partials[get_group_id(0)] = (ulong)acc;                            \
    }

#define PRIM_LOAD_U64(x) ((ulong)(x))
#define PRIM_LOAD_U32(x) (x)
#define PRIM_LOAD_MATCH(x) ((uint)((x) == match))

PRIM_RANGE_REDUCE(sum, ulong, PRIM_LOAD_U64, CLIRR_OP_ADD, 0, clirr_wg_reduce_add_ulong)
PRIM_RANGE_REDUCE(min, uint, PRIM_LOAD_U32, CLIRR_OP_MIN, 0xffffffffu, clirr_wg_reduce_min_uint)
PRIM_RANGE_REDUCE(max, uint, PRIM_LOAD_U32, CLIRR_OP_MAX, 0u, clirr_wg_reduce_max_uint)
/* A count never exceeds chunk < 2^32, so uint is exact. */
PRIM_RANGE_REDUCE(count, uint, PRIM_LOAD_MATCH, CLIRR_OP_ADD, 0u, clirr_wg_reduce_add_uint)

/* ---- step 2: one work-group over the partials --------------------------- */

/* partials[0..count) = exclusive prefix sums; partials[count] = total.
 * tmp: 2*L ulongs. Launch exactly one work-group. */
kernel void prim_partials_scan(global ulong *partials, uint count, local ulong *tmp)
{
    const uint L = get_local_size(0), lid = get_local_id(0);
    ulong carry = 0;
    for (uint base = 0; base < count; base += L) {
        const uint i = base + lid;
        const ulong x = i < count ? partials[i] : 0;
        ulong total;
        const ulong e = clirr_wg_scan_excl_add_ulong(x, tmp, &total);
        if (i < count)
            partials[i] = carry + e;
        carry += total;
    }
    if (lid == 0)
        partials[count] = carry;
}

/* partials[count] = OP over partials[0..count). tmp: L ulongs. One group. */
#define PRIM_PARTIALS_REDUCE(NAME, OP, IDENT)                                  \
    kernel void prim_partials_##NAME(global ulong *partials, uint count,       \
                                     local ulong *tmp)                         \
    {                                                                          \
        const uint L = get_local_size(0), lid = get_local_id(0);               \
        ulong acc = IDENT;                                                     \
        for (uint i = lid; i < count; i += L)                                  \
            acc = OP(acc, partials[i]);                                        \
        acc = clirr_wg_reduce_##NAME##_ulong(acc, tmp);                        \
        if (lid == 0)                                                          \
            partials[count] = acc;                                             \
    }

PRIM_PARTIALS_REDUCE(add, CLIRR_OP_ADD, 0ul)
PRIM_PARTIALS_REDUCE(min, CLIRR_OP_MIN, 0xfffffffful)
PRIM_PARTIALS_REDUCE(max, CLIRR_OP_MAX, 0ul)

/* ---- step 3: scan each range tile by tile from its offset --------------- */

/* Exclusive scan of the tile at `base` (rem valid elements) from IN into
 * OUT, starting at carry; returns the tile's sum (mod 2^32). tile: L*ITEMS
 * uints, tmp: 2*L uints. All loads of a tile happen before its stores
 * (barrier in between), so IN and OUT may be the same buffer. */
#define PRIM_SCAN_TILE(IN, OUT)                                                \
    {                                                                          \
        const uint rem = (uint)min(tilesz, end - base);                        \
        for (uint k = 0; k < ITEMS; k++) {                                     \
            const uint i = k * L + lid;                                        \
            tile[i] = i < rem ? IN[base + i] : 0u;                             \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        local uint *mine = tile + lid * ITEMS;                                 \
        uint v[ITEMS];                                                         \
        uint s = 0;                                                            \
        for (uint k = 0; k < ITEMS; k++) {                                     \
            v[k] = mine[k];                                                    \
            s += v[k];                                                         \
        }                                                                      \
        uint total;                                                            \
        uint run = carry + clirr_wg_scan_excl_add_uint(s, tmp, &total);        \
        for (uint k = 0; k < ITEMS; k++) {                                     \
            mine[k] = run;                                                     \
            run += v[k];                                                       \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        for (uint k = 0; k < ITEMS; k++) {                                     \
            const uint i = k * L + lid;                                        \
            if (i < rem)                                                       \
                OUT[base + i] = tile[i];                                       \
        }                                                                      \
        carry += total;                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
    }

#define PRIM_RANGE_SETUP                                                       \
    const uint L = get_local_size(0), lid = get_local_id(0);                   \
    const ulong start = (ulong)get_group_id(0) * chunk;                        \
    const ulong end = min(start + chunk, (ulong)n);                            \
    const ulong tilesz = (ulong)L * ITEMS;

kernel void prim_scan_tiles(global const uint *in, global uint *out, uint n, uint chunk,
                            global const ulong *partials, local uint *tile, local uint *tmp)
{
    PRIM_RANGE_SETUP
    uint carry = (uint)partials[get_group_id(0)];
    for (ulong base = start; base < end; base += tilesz)
        PRIM_SCAN_TILE(in, out)
}

/* The same with one buffer, for in == out: no two kernel arguments alias. */
kernel void prim_scan_tiles_inplace(global uint *data, uint n, uint chunk,
                                    global const ulong *partials, local uint *tile,
                                    local uint *tmp)
{
    PRIM_RANGE_SETUP
    uint carry = (uint)partials[get_group_id(0)];
    for (ulong base = start; base < end; base += tilesz)
        PRIM_SCAN_TILE(data, data)
}

/* Compaction: element i with keys[i] == match goes to out[rank of i] as
 * values[i] (or i when use_index). Nothing is written when the total in
 * partials[groups] exceeds capacity (every work-item sees the same total,
 * so the early return is uniform). Within a tile the flags are scanned in
 * local memory, which is then rewritten with each selected element's
 * position in the tile (CLIRR_NONE otherwise); the final pass reads values
 * coalesced and writes to increasing positions, so stores stay close. */
kernel void prim_compact_tiles(global const uint *keys, uint match, global const uint *values,
                               uint use_index, uint n, uint chunk,
                               global const ulong *partials, uint groups, uint capacity,
                               global uint *out, local uint *tile, local uint *tmp)
{
    if (partials[groups] > (ulong)capacity)
        return;
    PRIM_RANGE_SETUP
    uint carry = (uint)partials[get_group_id(0)];
    for (ulong base = start; base < end; base += tilesz) {
        const uint rem = (uint)min(tilesz, end - base);
        for (uint k = 0; k < ITEMS; k++) {
            const uint i = k * L + lid;
            tile[i] = i < rem && keys[base + i] == match;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        local uint *mine = tile + lid * ITEMS;
        uint v[ITEMS];
        uint s = 0;
        for (uint k = 0; k < ITEMS; k++) {
            v[k] = mine[k];
            s += v[k];
        }
        uint total;
        uint pos = clirr_wg_scan_excl_add_uint(s, tmp, &total);
        for (uint k = 0; k < ITEMS; k++) {
            mine[k] = v[k] ? pos : CLIRR_NONE;
            pos += v[k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < ITEMS; k++) {
            const uint i = k * L + lid;
            const uint d = tile[i];
            if (d != CLIRR_NONE)
                out[carry + d] = use_index ? (uint)(base + i) : values[base + i];
        }
        carry += total;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
