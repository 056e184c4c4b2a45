/* host/prim/prim.h - device primitives shared by the algorithms: fill,
 * iota, exclusive scan, stream compaction and reduction over 32-bit unsigned
 * buffers, for any n (0 included). All run on the context's in-order queue;
 * results that come back to the host (totals, counts, reductions) are read
 * with a blocking read. Kernels live in cl/prim.cl; the work-group scan
 * uses work_group_scan_exclusive_add where the device has work-group
 * collectives and a local-memory scan (OpenCL C 1.2) elsewhere. Scan and
 * compaction take two kernel launches (one for inputs of a few thousand
 * elements), reduction two; the program is built and each kernel created
 * once per context, on first use or all at once by clirr_prim_prepare.
 *
 * Limits: n (and offset + n for fill) is at most CLIRR_PRIM_MAX_N =
 * 2^32 - 1 elements, because kernels count and index in 32-bit uint; a
 * larger n returns CLIRR_ERR_TOO_LARGE. Buffers smaller than n elements
 * (or than out_capacity) return CLIRR_ERR_USAGE. Other errors:
 * CLIRR_ERR_OPENCL (build, launch or transfer failed).
 *
 * Scratch: scan, compact and reduce keep their per-work-group partials and
 * 64-bit result in clirr_scratch slot CLIRR_PRIM_SCRATCH_SLOT (0), grown on
 * demand and reused by every call, so repeated calls allocate nothing once
 * it is big enough (at most 8 KiB: one 64-bit partial per work-group, at
 * most 1024 work-groups). Callers must not keep data in slot 0 across a
 * prim call; fill and iota use no scratch; slots 1..7 are left to others.
 * Calls are enqueued on the context's in-order queue, so one slot is safe
 * for consecutive calls. */
#ifndef CLIRR_PRIM_H
#define CLIRR_PRIM_H

#include "runtime/runtime.h"

#define CLIRR_PRIM_MAX_N ((size_t)UINT32_MAX)
#define CLIRR_PRIM_SCRATCH_SLOT 0u

/* Build the primitives' program and create every kernel they can launch on
 * this device (fill, iota, scan, compaction -- the worklist's too --,
 * reduction, the double sum where there is fp64), and size their scratch,
 * so that no later call builds or creates anything: call it before timing
 * starts. Cheap when done already. */
int clirr_prim_prepare(clirr_ctx *ctx, clirr_error *err);

/* buf[offset .. offset+n) = value (offset and n in elements). */
int clirr_prim_fill_u32(clirr_ctx *ctx, cl_mem buf, size_t offset, size_t n,
                        uint32_t value, clirr_error *err);

/* buf[i] = start + i for i < n. */
int clirr_prim_iota_u32(clirr_ctx *ctx, cl_mem buf, size_t n, uint32_t start,
                        clirr_error *err);

/* out[i] = in[0] + ... + in[i-1] (out[0] = 0), modulo 2^32; in == out (the
 * same cl_mem) is allowed, other overlapping buffers are not. When total is
 * not NULL it receives the sum of all n inputs (64-bit, not wrapped) --
 * read back from the device; with total NULL nothing is waited for. */
int clirr_prim_scan_u32(clirr_ctx *ctx, cl_mem in, cl_mem out, size_t n,
                        uint64_t *total, clirr_error *err);

/* Stream compaction: for each i < n (in order) with keys[i] == match,
 * append values[i] -- or i itself when values is NULL -- to out.
 * *count (required) receives the number selected. When it exceeds
 * out_capacity (elements) nothing is written to out, so the caller can grow
 * out and call again. out must not overlap keys or values. */
int clirr_prim_compact_u32(clirr_ctx *ctx, cl_mem keys, uint32_t match, cl_mem values,
                           size_t n, cl_mem out, size_t out_capacity, uint32_t *count,
                           clirr_error *err);

/* The scan push's placement (cl/common/worklist.clh): offsets[0..n) is the
 * exclusive prefix sum of n segment lengths, total their sum; element k of
 * segment g, items[k * n + g], goes to out[base + offsets[g] + k]. */
int clirr_prim_scatter_segments_u32(clirr_ctx *ctx, cl_mem offsets, cl_mem items, size_t n, uint32_t total,
                                    cl_mem out, size_t base, clirr_error *err);

typedef enum clirr_reduce_op { CLIRR_REDUCE_SUM, CLIRR_REDUCE_MIN, CLIRR_REDUCE_MAX } clirr_reduce_op;

/* Reduce in[0..n) with op; SUM is exact in 64 bits. For n == 0: SUM 0,
 * MIN UINT32_MAX, MAX 0. result is required; an unknown op is
 * CLIRR_ERR_USAGE. */
int clirr_prim_reduce_u32(clirr_ctx *ctx, cl_mem in, size_t n, clirr_reduce_op op,
                          uint64_t *result, clirr_error *err);

/* How scan, compaction and reduction cut their input on this context's
 * device, for tests and tuning. */
typedef struct clirr_prim_geometry {
    size_t wg_size;    /* work-items per work-group */
    size_t tile;       /* elements a work-group handles at a time */
    size_t max_groups; /* most work-groups a call launches; longer inputs
                          than tile * max_groups give each several tiles */
    size_t single_max; /* inputs up to this many elements run as a single
                          work-group (one launch) */
} clirr_prim_geometry;
int clirr_prim_geometry_get(clirr_ctx *ctx, clirr_prim_geometry *geometry, clirr_error *err);

/* Sum of n doubles (in floating point, in an order that depends on the
 * device's work-group layout). CLIRR_ERR_UNSUPPORTED without fp64. */
int clirr_prim_sum_f64(clirr_ctx *ctx, cl_mem in, size_t n, double *sum, clirr_error *err);

#endif
