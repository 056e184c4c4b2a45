/* host/prim/prim.c - host side of the device primitives (cl/prim.cl):
 * fill, iota, exclusive scan, stream compaction and reduction over uint32
 * buffers.
 *
 * Scan, compaction and reduction cut the input into at most max_groups
 * contiguous ranges of whole tiles (tile = work-group size x PRIM_ITEMS
 * elements), one range per work-group. Step 1 reduces each range to a
 * 64-bit partial; step 2 has every work-group add up the partials before
 * its own (a few hundred at most, cached) and walk its range again from
 * that offset. No launch depends on another work-group of the same launch
 * making progress, and because the number of partials is bounded no
 * recursion over levels is needed: two launches for any n, one when the
 * input is a few tiles (one work-group then does it all). Reduction: step
 * 1, then one work-group over the partials (skipped when there is one).
 * The partials and the 64-bit result live in scratch slot
 * CLIRR_PRIM_SCRATCH_SLOT.
 *
 * The program is built once per context and option string by
 * clirr_program_get and each kernel created once (clirr_prim_prepare does
 * it all up front); calls look them up in the context. Arguments are bound
 * by name from the kernels' lists in cl/prim.def. */
#include "prim/prim.h"

#include "cl/common/kargs.h"
#include "cl/prim.def"

#include <stdio.h>

/* Elements per work-item in a tile; odd, see cl/prim.cl. Passed to the
 * kernels as -DCLIRR_PRIM_ITEMS so both sides agree. */
#define PRIM_ITEMS 15u
#define PRIM_FILE "prim.cl"
#define PRIM_OPTIONS "-DCLIRR_PRIM_ITEMS=15"

/* Work-groups per compute unit for the range-based primitives, with
 * bounds: on an H100 (132 CUs) 4 per CU was the fastest of 2, 4, 8, 16 for
 * 10^7 elements (each work-group then takes several tiles; 15 elements per
 * work-item also beat 7 and 31); at least 64 keep a few-core CPU balanced,
 * at most 1024 keep step 2's reading of the partials cheap. */
#define PRIM_GROUPS_PER_CU 4u
#define PRIM_MIN_GROUPS 64u
#define PRIM_MAX_GROUPS 1024u

/* Inputs of at most this many tiles run as a single work-group, in one
 * launch instead of two: on an H100 that was faster up to 8 tiles (30K
 * elements), about even at 16, slower beyond. */
#define PRIM_SINGLE_TILES 8u

/* Local memory kept back from the device's limit for the implementation's
 * own use. */
#define PRIM_LOCAL_RESERVE 1024u

/* The host's view of the parameter lists: CLIRR_KARG(tag, name) is a
 * parameter's index. The range and partials kernels of each type share one
 * layout (prim.def writes them once, ..._T). */
CLIRR_KARGS_STRUCT(prim_fill_args, PRIM_FILL_ARGS);
CLIRR_KARGS_STRUCT(prim_iota_args, PRIM_IOTA_ARGS);
CLIRR_KARGS_STRUCT(prim_range_args, PRIM_RANGE_SUM_ARGS);
CLIRR_KARGS_STRUCT(prim_range_fsum_args, PRIM_RANGE_FSUM_ARGS);
CLIRR_KARGS_STRUCT(prim_partials_args, PRIM_PARTIALS_ARGS);
CLIRR_KARGS_STRUCT(prim_partials_f_args, PRIM_PARTIALS_F_ARGS);
CLIRR_KARGS_STRUCT(prim_scan_args, PRIM_SCAN_ARGS);
CLIRR_KARGS_STRUCT(prim_scan_inplace_args, PRIM_SCAN_INPLACE_ARGS);
CLIRR_KARGS_STRUCT(prim_scan_tail_args, PRIM_SCAN_TAIL_ARGS);
CLIRR_KARGS_STRUCT(prim_compact_args, PRIM_COMPACT_ARGS);
CLIRR_KARGS_STRUCT(prim_scatter_args, PRIM_SCATTER_ARGS);

/* Every kernel of cl/prim.cl, with the argument count of its list. */
typedef enum prim_kernel_id {
    PK_FILL,
    PK_IOTA,
    PK_RANGE_SUM,
    PK_RANGE_MIN,
    PK_RANGE_MAX,
    PK_RANGE_COUNT,
    PK_PARTIALS_ADD,
    PK_PARTIALS_MIN,
    PK_PARTIALS_MAX,
    PK_SCAN,
    PK_SCAN_INPLACE,
    PK_COMPACT,
    PK_SCATTER,
    PK_RANGE_FSUM,    /* fp64 only from here on */
    PK_PARTIALS_FADD,
    PK_COUNT_
} prim_kernel_id;

#define PK_FIRST_FP64 PK_RANGE_FSUM

static const struct prim_kernel_spec {
    const char *name;
    cl_uint nargs;
} prim_kernels[PK_COUNT_] = {
    [PK_FILL] = {"prim_fill", CLIRR_KNARGS(prim_fill_args)},
    [PK_IOTA] = {"prim_iota", CLIRR_KNARGS(prim_iota_args)},
    [PK_RANGE_SUM] = {"prim_range_sum", CLIRR_KNARGS(prim_range_args)},
    [PK_RANGE_MIN] = {"prim_range_min", CLIRR_KNARGS(prim_range_args)},
    [PK_RANGE_MAX] = {"prim_range_max", CLIRR_KNARGS(prim_range_args)},
    [PK_RANGE_COUNT] = {"prim_range_count", CLIRR_KNARGS(prim_range_args)},
    [PK_PARTIALS_ADD] = {"prim_partials_add", CLIRR_KNARGS(prim_partials_args)},
    [PK_PARTIALS_MIN] = {"prim_partials_min", CLIRR_KNARGS(prim_partials_args)},
    [PK_PARTIALS_MAX] = {"prim_partials_max", CLIRR_KNARGS(prim_partials_args)},
    [PK_SCAN] = {"prim_scan_tiles", CLIRR_KNARGS(prim_scan_args)},
    [PK_SCAN_INPLACE] = {"prim_scan_tiles_inplace", CLIRR_KNARGS(prim_scan_inplace_args)},
    [PK_COMPACT] = {"prim_compact_tiles", CLIRR_KNARGS(prim_compact_args)},
    [PK_SCATTER] = {"prim_scatter_segments", CLIRR_KNARGS(prim_scatter_args)},
    [PK_RANGE_FSUM] = {"prim_range_fsum", CLIRR_KNARGS(prim_range_fsum_args)},
    [PK_PARTIALS_FADD] = {"prim_partials_fadd", CLIRR_KNARGS(prim_partials_f_args)},
};

/* Both scans end with the same parameters, and launch_range and
 * launch_partials bind every type's kernel through one layout. */
_Static_assert(CLIRR_KARG(prim_scan_args, n) + CLIRR_KNARGS(prim_scan_tail_args) ==
                   CLIRR_KNARGS(prim_scan_args) &&
               CLIRR_KARG(prim_scan_inplace_args, n) + CLIRR_KNARGS(prim_scan_tail_args) ==
                   CLIRR_KNARGS(prim_scan_inplace_args),
               "the scans' lists must end with PRIM_SCAN_TAIL_ARGS");
_Static_assert(sizeof(struct prim_range_args) == sizeof(struct prim_range_fsum_args) &&
                   sizeof(struct prim_partials_args) == sizeof(struct prim_partials_f_args),
               "one layout per kernel family");

/* The context's kernel `id` of cl/prim.cl (the program built on first use). */
static int prim_kernel(clirr_ctx *ctx, prim_kernel_id id, cl_kernel *kernel, clirr_error *err)
{
    cl_program prog = NULL;
    int rc = clirr_program_get(ctx, PRIM_FILE, PRIM_OPTIONS, &prog, err);
    if (rc != CLIRR_OK)
        return rc;
    return clirr_kernel_get_checked(ctx, prog, prim_kernels[id].name, prim_kernels[id].nargs,
                                    kernel, err);
}

static int check_n(size_t n, const char *what, clirr_error *err)
{
    if (n > CLIRR_PRIM_MAX_N)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%s of %zu elements: device primitives handle at most %zu "
                          "(32-bit counts on the device)",
                          what, n, CLIRR_PRIM_MAX_N);
    return CLIRR_OK;
}

/* The buffer holds at least `elems` uint32 values. */
static int check_buf(cl_mem mem, size_t elems, const char *what, const char *name,
                     clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t bytes = 0;
    if (!mem)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s: buffer %s is NULL", what, name);
    CLIRR_CL_TRY(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof bytes, &bytes, NULL));
    if (bytes / sizeof(uint32_t) < elems)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "%s: buffer %s holds %zu elements, %zu needed", what, name,
                          bytes / sizeof(uint32_t), elems);
fail:
    return rc;
}

/* Largest power-of-two work-group size every kernel in ks[] accepts whose
 * local memory (bytes_per_item per work-item) fits the device. */
static size_t pick_wg(clirr_ctx *ctx, cl_kernel *ks, int nk, size_t bytes_per_item)
{
    size_t wg = 0;
    for (int i = 0; i < nk; i++) {
        size_t w = clirr_wg_size(ctx, ks[i], 0);
        if (wg == 0 || w < wg)
            wg = w;
    }
    uint64_t local = clirr_ctx_caps(ctx)->local_mem;
    uint64_t budget = local > 2 * PRIM_LOCAL_RESERVE ? local - PRIM_LOCAL_RESERVE : local / 2;
    while (wg > 1 && (uint64_t)wg * bytes_per_item > budget)
        wg /= 2;
    return wg ? wg : 1;
}

static size_t max_groups(clirr_ctx *ctx)
{
    size_t g = (size_t)clirr_ctx_caps(ctx)->compute_units * PRIM_GROUPS_PER_CU;
    if (g < PRIM_MIN_GROUPS)
        g = PRIM_MIN_GROUPS;
    return g < PRIM_MAX_GROUPS ? g : PRIM_MAX_GROUPS;
}

/* How n elements are cut into ranges: `groups` work-groups of `wg`
 * work-items, each over `chunk` consecutive elements (whole tiles; the last
 * range is shorter). */
typedef struct ranges {
    size_t wg, groups;
    cl_uint chunk;
} ranges;

static ranges plan_ranges(clirr_ctx *ctx, size_t n, size_t wg)
{
    size_t tile = wg * PRIM_ITEMS;
    size_t tiles = (n + tile - 1) / tile;
    size_t gmax = max_groups(ctx);
    size_t per_group = tiles <= PRIM_SINGLE_TILES ? tiles : (tiles + gmax - 1) / gmax;
    ranges r = {.wg = wg};
    r.groups = (tiles + per_group - 1) / per_group;
    /* n < 2^32, and groups >= 2 whenever per_group > PRIM_SINGLE_TILES, so
     * chunk = per_group * tile < n + tile stays below 2^32. */
    r.chunk = (cl_uint)(per_group * tile);
    return r;
}

/* Scratch for groups partials plus one result slot. */
static int partials_buf(clirr_ctx *ctx, size_t groups, cl_mem *mem, clirr_error *err)
{
    return clirr_scratch(ctx, CLIRR_PRIM_SCRATCH_SLOT, (groups + 1) * sizeof(cl_ulong), mem, err);
}

/* Launch prim_partials_* as one work-group over count partials. */
static int launch_partials(clirr_ctx *ctx, cl_kernel k, cl_mem partials, size_t count,
                           size_t tmp_per_item, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint c = (cl_uint)count;
    size_t wg = pick_wg(ctx, &k, 1, tmp_per_item);
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_partials_args, partials), partials));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_partials_args, count), c));
    CLIRR_TRY(clirr_arg(k, CLIRR_KARG(prim_partials_args, tmp), wg * tmp_per_item, NULL, err));
    CLIRR_TRY(clirr_launch(ctx, k, wg, wg, err));
fail:
    return rc;
}

/* Launch a step-1 kernel (prim_range_*). tmp_bytes: its local scratch. */
static int launch_range(clirr_ctx *ctx, cl_kernel k, cl_mem in, cl_uint match, size_t n,
                        const ranges *r, cl_mem partials, size_t tmp_bytes, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint nn = (cl_uint)n;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_range_args, in), in));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_range_args, match), match));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_range_args, n), nn));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_range_args, chunk), r->chunk));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_range_args, partials), partials));
    CLIRR_TRY(clirr_arg(k, CLIRR_KARG(prim_range_args, tmp), tmp_bytes, NULL, err));
    CLIRR_TRY(clirr_launch(ctx, k, r->groups * r->wg, r->wg, err));
fail:
    return rc;
}

/* Local memory per work-item of the step-2 kernels: the tile plus one ulong
 * (two uints) of work-group scan scratch. The range kernels need 8 bytes. */
#define TILE_BYTES_PER_ITEM ((PRIM_ITEMS + 2) * sizeof(cl_uint))

int clirr_prim_geometry_get(clirr_ctx *ctx, clirr_prim_geometry *geometry, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel ks[2] = {NULL, NULL};
    CLIRR_TRY(prim_kernel(ctx, PK_RANGE_SUM, &ks[0], err));
    CLIRR_TRY(prim_kernel(ctx, PK_SCAN, &ks[1], err));
    size_t wg = pick_wg(ctx, ks, 2, TILE_BYTES_PER_ITEM);
    geometry->wg_size = wg;
    geometry->tile = wg * PRIM_ITEMS;
    geometry->max_groups = max_groups(ctx);
    geometry->single_max = geometry->tile * PRIM_SINGLE_TILES;
fail:
    return rc;
}

/* ---- fill, iota ---------------------------------------------------------- */

/* One tile per work-group. */
static int launch_tiles(clirr_ctx *ctx, cl_kernel k, size_t n, clirr_error *err)
{
    size_t wg = clirr_wg_size(ctx, k, 0);
    size_t tile = wg * PRIM_ITEMS;
    return clirr_launch(ctx, k, (n + tile - 1) / tile * wg, wg, err);
}

int clirr_prim_fill_u32(clirr_ctx *ctx, cl_mem buf, size_t offset, size_t n,
                        uint32_t value, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    if (n == 0)
        return CLIRR_OK;
    CLIRR_TRY(check_n(n, "fill", err));
    if (offset > SIZE_MAX / sizeof(uint32_t) - n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "fill: offset %zu + n %zu overflows", offset, n);
    CLIRR_TRY(check_buf(buf, offset + n, "fill", "buf", err));
    CLIRR_TRY(prim_kernel(ctx, PK_FILL, &k, err));
    cl_ulong off = offset;
    cl_uint nn = (cl_uint)n, v = value;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_fill_args, buf), buf));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_fill_args, offset), off));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_fill_args, n), nn));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_fill_args, value), v));
    CLIRR_TRY(launch_tiles(ctx, k, n, err));
fail:
    return rc;
}

int clirr_prim_iota_u32(clirr_ctx *ctx, cl_mem buf, size_t n, uint32_t start,
                        clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    if (n == 0)
        return CLIRR_OK;
    CLIRR_TRY(check_n(n, "iota", err));
    CLIRR_TRY(check_buf(buf, n, "iota", "buf", err));
    CLIRR_TRY(prim_kernel(ctx, PK_IOTA, &k, err));
    cl_uint nn = (cl_uint)n, s = start;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_iota_args, buf), buf));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_iota_args, n), nn));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_iota_args, start), s));
    CLIRR_TRY(launch_tiles(ctx, k, n, err));
fail:
    return rc;
}

/* ---- scan ---------------------------------------------------------------- */

int clirr_prim_scan_u32(clirr_ctx *ctx, cl_mem in, cl_mem out, size_t n,
                        uint64_t *total, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel kr = NULL, ks = NULL;
    cl_mem partials = NULL;
    if (total)
        *total = 0;
    if (n == 0)
        return CLIRR_OK;
    CLIRR_TRY(check_n(n, "scan", err));
    CLIRR_TRY(check_buf(in, n, "scan", "in", err));
    if (out != in)
        CLIRR_TRY(check_buf(out, n, "scan", "out", err));
    const bool inplace = in == out;

    CLIRR_TRY(prim_kernel(ctx, PK_RANGE_SUM, &kr, err));
    CLIRR_TRY(prim_kernel(ctx, inplace ? PK_SCAN_INPLACE : PK_SCAN, &ks, err));
    cl_kernel both[2] = {kr, ks};
    ranges r = plan_ranges(ctx, n, pick_wg(ctx, both, 2, TILE_BYTES_PER_ITEM));
    CLIRR_TRY(partials_buf(ctx, r.groups, &partials, err));

    /* One work-group: step 2 alone, which then sums in 64 bits itself. */
    if (r.groups > 1)
        CLIRR_TRY(launch_range(ctx, kr, in, 0, n, &r, partials, r.wg * sizeof(cl_ulong), err));

    cl_uint nn = (cl_uint)n, groups = (cl_uint)r.groups, tail;
    if (inplace) {
        CLIRR_TRY(CLIRR_ARG(ks, CLIRR_KARG(prim_scan_inplace_args, data), in));
        tail = CLIRR_KARG(prim_scan_inplace_args, n);
    } else {
        CLIRR_TRY(CLIRR_ARG(ks, CLIRR_KARG(prim_scan_args, in), in));
        CLIRR_TRY(CLIRR_ARG(ks, CLIRR_KARG(prim_scan_args, out), out));
        tail = CLIRR_KARG(prim_scan_args, n);
    }
    /* The rest by its position in PRIM_SCAN_TAIL_ARGS, which starts at n. */
    CLIRR_TRY(CLIRR_ARG(ks, tail + CLIRR_KARG(prim_scan_tail_args, n), nn));
    CLIRR_TRY(CLIRR_ARG(ks, tail + CLIRR_KARG(prim_scan_tail_args, chunk), r.chunk));
    CLIRR_TRY(CLIRR_ARG(ks, tail + CLIRR_KARG(prim_scan_tail_args, partials), partials));
    CLIRR_TRY(CLIRR_ARG(ks, tail + CLIRR_KARG(prim_scan_tail_args, groups), groups));
    CLIRR_TRY(clirr_arg(ks, tail + CLIRR_KARG(prim_scan_tail_args, tile),
                        r.wg * PRIM_ITEMS * sizeof(cl_uint), NULL, err));
    CLIRR_TRY(clirr_arg(ks, tail + CLIRR_KARG(prim_scan_tail_args, tmp), r.wg * sizeof(cl_ulong),
                        NULL, err));
    CLIRR_TRY(clirr_launch(ctx, ks, r.groups * r.wg, r.wg, err));

    if (total) {
        cl_ulong t = 0;
        CLIRR_TRY(clirr_buf_read(ctx, partials, r.groups * sizeof(cl_ulong), sizeof t, &t, err));
        *total = t;
    }
fail:
    return rc;
}

/* ---- placing segments ---------------------------------------------------- */

int clirr_prim_scatter_segments_u32(clirr_ctx *ctx, cl_mem offsets, cl_mem items, size_t n, uint32_t total,
                                    cl_mem out, size_t base, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    if (n == 0 || total == 0)
        return CLIRR_OK;
    CLIRR_TRY(check_n(n, "scatter", err));
    CLIRR_TRY(check_buf(offsets, n, "scatter", "offsets", err));
    if (base > UINT32_MAX - (size_t)total)
        return clirr_fail(err, CLIRR_ERR_USAGE, "scatter: base %zu + total %u overflows", base, total);
    CLIRR_TRY(check_buf(out, base + total, "scatter", "out", err));
    CLIRR_TRY(prim_kernel(ctx, PK_SCATTER, &k, err));
    cl_uint nn = (cl_uint)n, tt = total, bb = (cl_uint)base;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_scatter_args, offsets), offsets));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_scatter_args, items), items));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_scatter_args, n), nn));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_scatter_args, total), tt));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_scatter_args, out), out));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(prim_scatter_args, base), bb));
    size_t wg = clirr_wg_size(ctx, k, 0);
    CLIRR_TRY(clirr_launch(ctx, k, (n + wg - 1) / wg * wg, wg, err));
fail:
    return rc;
}

/* ---- compaction ---------------------------------------------------------- */

int clirr_prim_compact_u32(clirr_ctx *ctx, cl_mem keys, uint32_t match, cl_mem values,
                           size_t n, cl_mem out, size_t out_capacity, uint32_t *count,
                           clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel kc = NULL, kt = NULL;
    cl_mem partials = NULL;
    if (!count)
        return clirr_fail(err, CLIRR_ERR_USAGE, "compact: count must not be NULL");
    *count = 0;
    if (n == 0)
        return CLIRR_OK;
    CLIRR_TRY(check_n(n, "compact", err));
    CLIRR_TRY(check_buf(keys, n, "compact", "keys", err));
    if (values)
        CLIRR_TRY(check_buf(values, n, "compact", "values", err));
    /* out may be small (or even absent) when capacity is 0. */
    if (out_capacity > 0 || out)
        CLIRR_TRY(check_buf(out, out_capacity, "compact", "out", err));
    if (out == keys || (values && out == values))
        return clirr_fail(err, CLIRR_ERR_USAGE, "compact: out must not be keys or values");

    CLIRR_TRY(prim_kernel(ctx, PK_RANGE_COUNT, &kc, err));
    CLIRR_TRY(prim_kernel(ctx, PK_COMPACT, &kt, err));
    cl_kernel both[2] = {kc, kt};
    ranges r = plan_ranges(ctx, n, pick_wg(ctx, both, 2, TILE_BYTES_PER_ITEM));
    CLIRR_TRY(partials_buf(ctx, r.groups, &partials, err));

    cl_uint m = match;
    /* One work-group: step 2 alone, which then counts first itself. */
    if (r.groups > 1)
        CLIRR_TRY(launch_range(ctx, kc, keys, m, n, &r, partials, r.wg * sizeof(cl_uint), err));

    /* A capacity of 2^32 or more holds any count (n < 2^32). */
    cl_uint cap = out_capacity > UINT32_MAX ? UINT32_MAX : (cl_uint)out_capacity;
    cl_uint use_index = values == NULL, nn = (cl_uint)n, groups = (cl_uint)r.groups;
    /* Without values (or out, when nothing can be written) the kernel still
     * needs valid buffers: keys stands in and is never read as such. */
    cl_mem vals = values ? values : keys;
    cl_mem dst = out ? out : keys;
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, keys), keys));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, match), m));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, values), vals));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, use_index), use_index));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, n), nn));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, chunk), r.chunk));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, partials), partials));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, groups), groups));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, capacity), cap));
    CLIRR_TRY(CLIRR_ARG(kt, CLIRR_KARG(prim_compact_args, out), dst));
    CLIRR_TRY(clirr_arg(kt, CLIRR_KARG(prim_compact_args, tile), r.wg * PRIM_ITEMS * sizeof(cl_uint),
                        NULL, err));
    CLIRR_TRY(clirr_arg(kt, CLIRR_KARG(prim_compact_args, tmp), r.wg * sizeof(cl_ulong), NULL, err));
    CLIRR_TRY(clirr_launch(ctx, kt, r.groups * r.wg, r.wg, err));

    cl_ulong c = 0;
    CLIRR_TRY(clirr_buf_read(ctx, partials, r.groups * sizeof(cl_ulong), sizeof c, &c, err));
    *count = (uint32_t)c;
fail:
    return rc;
}

/* ---- reduction ----------------------------------------------------------- */

int clirr_prim_reduce_u32(clirr_ctx *ctx, cl_mem in, size_t n, clirr_reduce_op op,
                          uint64_t *result, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel kr = NULL, kp = NULL;
    cl_mem partials = NULL;
    prim_kernel_id range_id, partials_id;
    uint64_t identity;
    switch (op) {
    case CLIRR_REDUCE_SUM:
        range_id = PK_RANGE_SUM, partials_id = PK_PARTIALS_ADD, identity = 0;
        break;
    case CLIRR_REDUCE_MIN:
        range_id = PK_RANGE_MIN, partials_id = PK_PARTIALS_MIN, identity = UINT32_MAX;
        break;
    case CLIRR_REDUCE_MAX:
        range_id = PK_RANGE_MAX, partials_id = PK_PARTIALS_MAX, identity = 0;
        break;
    default:
        return clirr_fail(err, CLIRR_ERR_USAGE, "reduce: unknown operation %d", (int)op);
    }
    if (!result)
        return clirr_fail(err, CLIRR_ERR_USAGE, "reduce: result must not be NULL");
    *result = identity;
    if (n == 0)
        return CLIRR_OK;
    CLIRR_TRY(check_n(n, "reduce", err));
    CLIRR_TRY(check_buf(in, n, "reduce", "in", err));

    CLIRR_TRY(prim_kernel(ctx, range_id, &kr, err));
    /* Only 8 bytes of local memory per work-item; the tile size still sets
     * how much one work-group covers. */
    ranges r = plan_ranges(ctx, n, pick_wg(ctx, &kr, 1, sizeof(cl_ulong)));
    CLIRR_TRY(partials_buf(ctx, r.groups, &partials, err));
    size_t acc_bytes = op == CLIRR_REDUCE_SUM ? sizeof(cl_ulong) : sizeof(cl_uint);
    CLIRR_TRY(launch_range(ctx, kr, in, 0, n, &r, partials, r.wg * acc_bytes, err));
    size_t at = 0;
    if (r.groups > 1) {
        CLIRR_TRY(prim_kernel(ctx, partials_id, &kp, err));
        CLIRR_TRY(launch_partials(ctx, kp, partials, r.groups, sizeof(cl_ulong), err));
        at = r.groups;
    }
    cl_ulong v = 0;
    CLIRR_TRY(clirr_buf_read(ctx, partials, at * sizeof(cl_ulong), sizeof v, &v, err));
    *result = v;
fail:
    return rc;
}

int clirr_prim_sum_f64(clirr_ctx *ctx, cl_mem in, size_t n, double *sum, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel kr = NULL, kp = NULL;
    cl_mem partials = NULL;
    *sum = 0;
    if (!clirr_ctx_caps(ctx)->fp64)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "%s has no double precision (cl_khr_fp64)",
                          clirr_ctx_caps(ctx)->name);
    if (n == 0)
        return CLIRR_OK;
    CLIRR_TRY(check_n(n, "sum", err));
    CLIRR_TRY(prim_kernel(ctx, PK_RANGE_FSUM, &kr, err));
    ranges r = plan_ranges(ctx, n, pick_wg(ctx, &kr, 1, sizeof(cl_double)));
    CLIRR_TRY(partials_buf(ctx, r.groups, &partials, err));
    CLIRR_TRY(launch_range(ctx, kr, in, 0, n, &r, partials, r.wg * sizeof(cl_double), err));
    size_t at = 0;
    if (r.groups > 1) {
        CLIRR_TRY(prim_kernel(ctx, PK_PARTIALS_FADD, &kp, err));
        CLIRR_TRY(launch_partials(ctx, kp, partials, r.groups, sizeof(cl_double), err));
        at = r.groups;
    }
    CLIRR_TRY(clirr_buf_read(ctx, partials, at * sizeof(cl_double), sizeof *sum, sum, err));
fail:
    return rc;
}

int clirr_prim_prepare(clirr_ctx *ctx, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    cl_mem partials = NULL;
    prim_kernel_id end = clirr_ctx_caps(ctx)->fp64 ? PK_COUNT_ : PK_FIRST_FP64;
    for (prim_kernel_id id = 0; id < end; id++)
        CLIRR_TRY(prim_kernel(ctx, id, &k, err));
    /* The partials' scratch at its largest, so no call allocates it. */
    CLIRR_TRY(partials_buf(ctx, max_groups(ctx), &partials, err));
fail:
    return rc;
}
