/* clirr/irregularity.h - control-flow and memory-access irregularity of
 * kernels, measured by a SIMT model with the device's own parameters
 * (`clirr profile`; issue 13, after the study in shared/papers/002 and the
 * warp and load/store efficiencies of shared/papers/001, Tables I-II).
 *
 * A context with the recorder enabled builds every program with
 * -DCLIRR_IRREG=1: the macros of cl/common/irregularity.clh then record
 * each work-item's branches (outcome) and global/local accesses (address)
 * into a bounded device buffer, which the host reads after every launch and
 * folds into per-kernel counts. The model groups W consecutive local ids
 * of a work-group (W = the probed SIMD width, or the user's), and the
 * records of one site by their occurrence (the n-th execution of the site
 * by each work-item) into one group-level instance:
 *   - a branch instance is divergent when its lanes disagree;
 *   - a global access instance touches k distinct S-byte segments
 *     (S = CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE) and costs k - 1 replays;
 *   - a local access instance costs (most distinct 4-byte words in one of B
 *     banks) - 1 replays.
 * These are not the study's figures: its CFI and MAI divide by every
 * issued instruction, these divide by the instrumented branches and
 * memory instructions only (hence the _b and _m suffixes).
 *
 * Instrumented runs are apart from timing runs: nothing is recorded, and
 * no kernel changes, in a context without the recorder. */
#ifndef CLIRR_IRREGULARITY_H
#define CLIRR_IRREGULARITY_H

#include "clirr/device.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Back ends: the SIMT model over per-work-item records (every device), or
 * the hardware warp (NVIDIA GPUs of compute capability 8.0+: inline PTX
 * votes and matches count each instance as the warp executed it; no
 * records, W = 32, no sampling). */
enum { CLIRR_IRR_MODEL = 0, CLIRR_IRR_WARP = 1 };

typedef struct clirr_irr_options {
    uint32_t backend;      /* CLIRR_IRR_MODEL or CLIRR_IRR_WARP */
    uint32_t simd_width;   /* W; 0 = the probed SIMD width */
    uint32_t segment;      /* S in bytes; 0 = the device's cache line (64 when it says 0) */
    uint32_t banks;        /* B; 0 = 32 */
    uint64_t records;      /* buffer capacity in records per launch; 0 = 4M to start
                            * with, grown by clirr_ctx_irr_grow when a launch
                            * needs more (the caller reruns it) */
    uint32_t sample;       /* record work-groups whose id is a multiple of this; 0/1 = all */
} clirr_irr_options;

/* Counts of one kernel (by function name), summed over its launches. All
 * instance counts are group-level (one per W-wide group and occurrence). */
typedef struct clirr_irr_kernel {
    char name[64];
    bool instrumented;      /* takes the record buffer (else counts are 0) */
    uint64_t launches;
    uint64_t records;       /* per-work-item records analysed */
    uint64_t dropped;       /* records lost to a full buffer (nonzero = incomplete) */
    uint64_t branches, divergent;
    uint64_t gmem, gmem_replays;     /* global loads, stores, atomics */
    uint64_t lmem, lmem_replays;     /* local loads, stores, atomics */
    uint64_t gld, gld_requested, gld_moved; /* global loads: bytes asked by lanes, bytes of touched segments */
    uint64_t gst, gst_requested, gst_moved; /* global stores and atomics */
    uint64_t lanes, lane_slots;      /* active lanes; instances x W */
} clirr_irr_kernel;

#define CLIRR_IRR_MAX_KERNELS 48
typedef struct clirr_irr_report {
    uint32_t simd_width, segment, banks, sample;
    const char *backend;            /* "model" (records + SIMT model) or "warp" */
    char notes[256];                /* e.g. the cache line the device did not give */
    /* What recording cost, summed over the launches since the last take:
     * the largest launch's records (kept + dropped: what a buffer must
     * hold for it), the buffer's capacity, the bytes read back, and the
     * seconds spent waiting for launches to end, reading and folding. */
    uint64_t largest_launch, capacity, read_bytes;
    double wait_s, read_s, fold_s;
    unsigned fold_threads;          /* most threads one launch's fold used */
    size_t nkernels;
    clirr_irr_kernel kernels[CLIRR_IRR_MAX_KERNELS];
} clirr_irr_report;

/* Turn the recorder on for ctx: before any program is built on it (else
 * CLIRR_ERR_USAGE). Device-side enqueue is hidden from such a context
 * (child kernels would escape the records), so a plan for it should be made
 * from caps with device_enqueue false. CLIRR_ERR_TOO_LARGE when the buffer
 * does not fit the device. */
CLIRR_API int clirr_ctx_irr_enable(clirr_ctx *ctx, const clirr_irr_options *opt, clirr_error *err);

/* Make the record buffer hold `records` per launch (it never shrinks):
 * after an overflow, report.largest_launch says how many the launch
 * wanted. Records held so far are dropped (take them first).
 * CLIRR_ERR_TOO_LARGE when that does not fit the device's largest buffer
 * (half of it, leaving room for the algorithm's own). */
CLIRR_API int clirr_ctx_irr_grow(clirr_ctx *ctx, uint64_t records, clirr_error *err);

/* The counts gathered since the last take (waiting for queued work first),
 * then cleared. Returns the status of the wait or of a record read that
 * failed during a launch. */
CLIRR_API int clirr_ctx_irr_take(clirr_ctx *ctx, clirr_irr_report *out, clirr_error *err);

/* Ratios of k (0 when the denominator is 0):
 *   CFI_b = divergent / branches
 *   MAI_m = replays / (memory instances + replays), global and local
 *   SIMD utilisation = lanes / lane_slots
 *   gld / gst efficiency = requested / moved bytes (above 1 when lanes
 *   share words: a broadcast asks more bytes than it moves) */
CLIRR_API double clirr_irr_cfi(const clirr_irr_kernel *k);
CLIRR_API double clirr_irr_mai(const clirr_irr_kernel *k);
CLIRR_API double clirr_irr_simd_util(const clirr_irr_kernel *k);
CLIRR_API double clirr_irr_gld_eff(const clirr_irr_kernel *k);
CLIRR_API double clirr_irr_gst_eff(const clirr_irr_kernel *k);

/* Sum of the instrumented kernels of r into total (name "all"). */
CLIRR_API void clirr_irr_total(const clirr_irr_report *r, clirr_irr_kernel *total);

#ifdef __cplusplus
}
#endif

#endif
