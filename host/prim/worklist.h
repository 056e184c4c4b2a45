/* host/prim/worklist.h - the host side of the double-buffered worklist used
 * by data-driven rounds (kernel side: cl/common/worklist.clh).
 *
 * Items are ids below `universe` (vertices, edges). A round is:
 *
 *     bool rerun;
 *     do {
 *         CLIRR_TRY(clirr_worklist_begin(wl, err));
 *         CLIRR_TRY(clirr_worklist_bind(wl, kernel, first_arg, err));
 *         ... launch the round kernel over clirr_worklist_size(wl) items ...
 *         CLIRR_TRY(clirr_worklist_end(wl, &rerun, err));
 *     } while (rerun);
 *
 * clirr_worklist_end detects an overflow of the output (ATOMIC, CHUNK and HIER
 * push modes count pushes past the capacity), grows both buffers, keeps the
 * input as it was and asks for the round to be rerun; nothing is lost. In
 * COMPACT mode the output is placed by a prefix-sum compaction of the round's
 * marks after the kernel, grown first when needed, so it never overflows.
 * In SCAN mode the kernel leaves each work-item's pushes in its slots of a
 * scratch and their counts; clirr_worklist_end takes the prefix sum of the
 * counts and places the pushes at it after the spilled ones (pushes past a
 * work-item's slots, atomic), growing the output first when needed; only
 * a spill past the capacity overflows and reruns the round. The scratch
 * widens after a round that spilled, for the rounds after it. */
#ifndef CLIRR_PRIM_WORKLIST_H
#define CLIRR_PRIM_WORKLIST_H

#include "clirr/worklist.h"
#include "runtime/runtime.h"

typedef struct clirr_worklist {
    clirr_ctx *ctx;
    clirr_push_mode mode;
    uint32_t universe;  /* items are ids < universe */
    cl_mem items[2];    /* input is items[cur], output items[1 - cur] */
    int cur;
    size_t cap;         /* capacity of each item buffer */
    size_t asked_cap;   /* the initial capacity asked for (0: the universe) */
    uint32_t size;      /* items in the input */
    cl_mem count;       /* output length (ATOMIC, CHUNK, HIER; SCAN: the spills),
                           then (SCAN) the launch's work-items */
    cl_mem marks;       /* per item: epoch of the round that pushed it */
    uint32_t epoch;     /* stamp of the current attempt */
    bool rerun;         /* the current attempt reruns an overflowed round */
    /* statistics */
    uint32_t grows;
    uint32_t reruns;
    uint64_t grow_ns;   /* host time of the grows (allocation and copy, finished) */
    uint64_t max_size;
    uint32_t rounds[CLIRR_PUSH_AUTO]; /* rounds run in each push mode */
    /* SCAN: per work-item counts (then their prefix sum) and slots */
    cl_mem scan_n, scan_items;
    uint32_t scan_slots;  /* work-items scan_n has room for */
    size_t scan_words;    /* slots in scan_items, for all work-items together */
    uint64_t scan_pushes, scan_spills;
} clirr_worklist;

/* Set up a worklist for ids < universe with room for `capacity` items per
 * buffer (0 = universe, which dedup makes enough: never an overflow).
 * Creates the primitives' kernels that rounds use (clirr_prim_prepare),
 * so that no round builds anything. */
int clirr_worklist_init(clirr_worklist *wl, clirr_ctx *ctx, uint32_t universe,
                        size_t capacity, clirr_push_mode mode, clirr_error *err);

/* The -D option selecting a push mode in cl/common/worklist.clh, for
 * building the round kernels. */
const char *clirr_worklist_push_option(clirr_push_mode mode);

/* A trial's start: where an initial capacity was asked for and the
 * buffers have grown past it (an earlier trial), back to it, so that each
 * trial pays for its own growth (the study's Figure 14). */
int clirr_worklist_restart(clirr_worklist *wl, clirr_error *err);

/* Make the input hold items[0..n) (copied from the host), or the ids
 * 0..n-1 when items is NULL. */
int clirr_worklist_reset(clirr_worklist *wl, const uint32_t *items, uint32_t n,
                         clirr_error *err);

/* Make the input hold src's words [first, first + n) (a copy on the
 * device). */
int clirr_worklist_reset_from(clirr_worklist *wl, cl_mem src, size_t first, uint32_t n, clirr_error *err);

/* Make the input hold, in increasing order, the ids i < n with
 * keys[i] == match (a compaction on the device; grown when needed), e.g.
 * to turn a topology-driven run's flags into a data-driven worklist. */
int clirr_worklist_reset_marked(clirr_worklist *wl, cl_mem keys, uint32_t match, uint32_t n,
                                clirr_error *err);

/* Items in the input. */
static inline uint32_t clirr_worklist_size(const clirr_worklist *wl) { return wl->size; }

/* Start an attempt at a round: clear the output length, new epoch. */
int clirr_worklist_begin(clirr_worklist *wl, clirr_error *err);

/* Bind WL_PARAMS (the list CLIRR_WL_ARGS of cl/common/worklist.def) to
 * kernel starting at argument `first`; a kernel with too few arguments for
 * that is CLIRR_ERR_USAGE. */
int clirr_worklist_bind(clirr_worklist *wl, cl_kernel kernel, cl_uint first, clirr_error *err);

/* Finish the attempt: either the output becomes the next input (*rerun =
 * false), or it overflowed, the buffers grew and the round must run again
 * (*rerun = true). */
int clirr_worklist_end(clirr_worklist *wl, bool *rerun, clirr_error *err);

/* One whole round: begin, bind the worklist at argument `first` of each of
 * the nk kernels, call launch(user, input size), end, and again while the
 * round must be rerun. The kernels' other arguments are already set. */
typedef int (*clirr_worklist_launch_fn)(void *user, uint32_t items, clirr_error *err);
int clirr_worklist_round_with(clirr_worklist *wl, const cl_kernel *kernels, unsigned nk,
                              cl_uint first, clirr_worklist_launch_fn launch, void *user,
                              clirr_error *err);

/* The same for one kernel launched over one work-item per input item with
 * work-group size wg. */
int clirr_worklist_round(clirr_worklist *wl, cl_kernel kernel, cl_uint first, size_t wg,
                         clirr_error *err);

/* Many rounds in one launch (cl/templates/local_rounds.clh): begin gives
 * the launch's first epoch, with room for max_rounds more before the marks
 * wrap; end takes the output of the last of `rounds` rounds (out_size
 * items in the output buffer) as the next input. */
int clirr_worklist_local_begin(clirr_worklist *wl, uint32_t max_rounds, clirr_error *err);
void clirr_worklist_local_end(clirr_worklist *wl, uint32_t rounds, uint32_t out_size);

/* Queued rounds (host/algo/round.c): `rounds` rounds enqueued back to back
 * with no read-back between them. Round j reads its input's length from
 * the one-element buffer in_count (the caller's counts[j]) and counts its
 * pushes in out_count (counts[j + 1]); before the first, counts[0] holds
 * the input's size and the others 0. A round whose input holds more than
 * `limit` items does nothing (nor do the later ones). Only for ATOMIC or
 * CHUNK pushes into buffers that hold every item: nothing overflows,
 * nothing reruns. The launch is sized by the caller's bound; kernels loop
 * over WL_IN_SIZE. */
#define CLIRR_WL_SIZE_ON_DEVICE 0xffffffffu
int clirr_worklist_queue_begin(clirr_worklist *wl, uint32_t rounds, clirr_error *err);
/* Bind the worklist for the batch's round j. */
int clirr_worklist_queue_bind(clirr_worklist *wl, cl_kernel kernel, cl_uint first, uint32_t j, cl_mem in_count,
                              cl_mem out_count, uint32_t limit, clirr_error *err);
/* After the batch: sizes[0..rounds] are the counts read back. The rounds
 * that ran (*ran: those before the first input empty or over the limit)
 * advance the worklist; its input is the last one's output. */
void clirr_worklist_queue_end(clirr_worklist *wl, const uint32_t *sizes, uint32_t rounds, uint32_t limit,
                              uint32_t *ran);

void clirr_worklist_release(clirr_worklist *wl);

#endif
