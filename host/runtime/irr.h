/* host/runtime/irr.h - the irregularity recorder inside the runtime
 * (irr.c: the device buffer, kernels that take it, the read-back after
 * each launch) and the SIMT model that turns records into counts
 * (irr_model.c). Public side: include/clirr/irregularity.h; kernel side:
 * cl/common/irregularity.clh, whose record layout these numbers repeat. */
#ifndef CLIRR_RUNTIME_IRR_H
#define CLIRR_RUNTIME_IRR_H

#include "clirr/irregularity.h"
#include "runtime/runtime.h"

enum {
    IRR_HEADER = 8, /* words before the first record */
    IRR_WORDS = 6,  /* words per record: wg, lid, site, kind | size << 8, value lo, hi */
    IRR_H_CURSOR = 0,
    IRR_H_CAP = 1,
    IRR_H_DROPPED = 2,
    IRR_H_SAMPLE = 3,
};
enum {
    IRR_SITES = 4096,    /* warp back end: sites with counters */
    IRR_SITE_WORDS = 8,  /* ulongs a site: kind | size << 8, instances, lanes, count, bytes */
};
enum {
    IRR_K_BRANCH = 1,
    IRR_K_GLD,
    IRR_K_GST,
    IRR_K_GAT,
    IRR_K_LLD,
    IRR_K_LST,
    IRR_K_LAT,
};

/* Add n raw records of one launch (IRR_WORDS words each, in the order the
 * device took their slots) to k, with the model's W, S-byte segments and
 * B banks. CLIRR_ERR_NOMEM, or CLIRR_ERR_INPUT for a record of no known
 * kind. */
int clirr_irr_fold(const uint32_t *raw, size_t n, uint32_t simd_width, uint32_t segment,
                   uint32_t banks, clirr_irr_kernel *k, clirr_error *err);

/* Room for the fold's events that one recorder reuses from launch to
 * launch ({NULL, 0} to start). */
typedef struct clirr_irr_scratch {
    void *events;
    size_t cap;
} clirr_irr_scratch;
void clirr_irr_scratch_free(clirr_irr_scratch *ws);

/* clirr_irr_fold in ws's room (grown when too small). */
int clirr_irr_fold_reusing(clirr_irr_scratch *ws, const uint32_t *raw, size_t n, uint32_t simd_width,
                           uint32_t segment, uint32_t banks, clirr_irr_kernel *k, clirr_error *err);

/* Threads clirr_irr_fold uses for n records. */
unsigned clirr_irr_fold_threads(size_t n);

#endif
