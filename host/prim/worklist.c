/* host/prim/worklist.c - the double-buffered worklist: binding it to round
 * kernels, detecting output overflow, growing and rerunning, the
 * prefix-sum placement of COMPACT mode and the per-work-item placement of
 * SCAN mode. See worklist.h for the round protocol
 * and cl/common/worklist.clh for the push modes. */
#include "prim/worklist.h"

#include "prim/prim.h"

#include "clirr/clock.h"

#include "cl/common/kargs.h"
#include "cl/common/worklist.def"

#include <string.h>

/* WL_PARAMS as the host sees them: CLIRR_KARG(wl_args, wl_epoch) is
 * wl_epoch's place among them, CLIRR_KNARGS(wl_args) their number. */
CLIRR_KARGS_STRUCT(wl_args, CLIRR_WL_ARGS);

int clirr_worklist_init(clirr_worklist *wl, clirr_ctx *ctx, uint32_t universe,
                        size_t capacity, clirr_push_mode mode, clirr_error *err)
{
    int rc = CLIRR_OK;
    memset(wl, 0, sizeof *wl);
    wl->ctx = ctx;
    wl->mode = mode;
    wl->universe = universe;
    wl->cap = capacity ? capacity : (universe ? universe : 1);
    wl->asked_cap = capacity;
    wl->epoch = 0;
    CLIRR_TRY(clirr_prim_prepare(ctx, err));
    CLIRR_TRY(clirr_buf_create(ctx, "worklist", wl->cap * sizeof(uint32_t), &wl->items[0], err));
    CLIRR_TRY(clirr_buf_create(ctx, "worklist", wl->cap * sizeof(uint32_t), &wl->items[1], err));
    /* The length; then, for the scan push, the launch's work-items. */
    CLIRR_TRY(clirr_buf_create(ctx, "worklist length", 2 * sizeof(uint32_t), &wl->count, err));
    CLIRR_TRY(clirr_buf_create(ctx, "worklist marks", (size_t)universe * sizeof(uint32_t),
                               &wl->marks, err));
    /* Epochs start at 1, so zeroed marks belong to no round. */
    CLIRR_TRY(clirr_prim_fill_u32(ctx, wl->marks, 0, universe, 0, err));
    return CLIRR_OK;
fail:
    clirr_worklist_release(wl);
    return rc;
}

const char *clirr_worklist_push_option(clirr_push_mode mode)
{
    switch (mode) {
    case CLIRR_PUSH_ATOMIC: return "-DCLIRR_WL_PUSH=0";
    case CLIRR_PUSH_CHUNK: return "-DCLIRR_WL_PUSH=1";
    case CLIRR_PUSH_HIER: return "-DCLIRR_WL_PUSH=3"; /* the host adds WL_HIER_CAP */
    case CLIRR_PUSH_SCAN: return "-DCLIRR_WL_PUSH=4";
    default: return "-DCLIRR_WL_PUSH=2";
    }
}

/* Grow both buffers to hold `need` items, keeping the input's contents
 * and the output's first keep_out items; timed on the host between
 * finishes (the queue's earlier work is not counted). */
static int grow_keep(clirr_worklist *wl, size_t need, size_t keep_out, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t cap = wl->cap * 2 > need ? wl->cap * 2 : need;
    cl_mem in = NULL, out = NULL;
    CLIRR_TRY(clirr_finish(wl->ctx, err));
    uint64_t t0 = clirr_now_ns();
    CLIRR_TRY(clirr_buf_create(wl->ctx, "worklist", cap * sizeof(uint32_t), &in, err));
    CLIRR_TRY(clirr_buf_create(wl->ctx, "worklist", cap * sizeof(uint32_t), &out, err));
    CLIRR_TRY(clirr_buf_copy(wl->ctx, wl->items[wl->cur], 0, in, 0, (size_t)wl->size * sizeof(uint32_t), err));
    if (keep_out)
        CLIRR_TRY(clirr_buf_copy(wl->ctx, wl->items[1 - wl->cur], 0, out, 0, keep_out * sizeof(uint32_t), err));
    clirr_mem_release(&wl->items[0]);
    clirr_mem_release(&wl->items[1]);
    wl->items[0] = in;
    wl->items[1] = out;
    wl->cur = 0;
    wl->cap = cap;
    wl->grows++;
    CLIRR_TRY(clirr_finish(wl->ctx, err));
    wl->grow_ns += clirr_now_ns() - t0;
    return CLIRR_OK;
fail:
    clirr_mem_release(&in);
    clirr_mem_release(&out);
    return rc;
}

/* The input now holds n items. */
static void input_set(clirr_worklist *wl, uint32_t n)
{
    wl->size = n;
    if (n > wl->max_size)
        wl->max_size = n;
}

/* Output of the round becomes the input. */
static void swap_in(clirr_worklist *wl, uint32_t out_size)
{
    wl->cur = 1 - wl->cur;
    wl->rerun = false;
    input_set(wl, out_size);
}

static int grow(clirr_worklist *wl, size_t need, clirr_error *err)
{
    return grow_keep(wl, need, 0, err);
}

/* ---- the scan push's scratch ------------------------------------------- */

/* Slots a work-item gets when every item of the universe has one (a wide
 * round's launch), and the most a round that spilled may widen it to. */
#define SCAN_DEPTH 4
#define SCAN_MAX_DEPTH 8
#define SCAN_SLOTS_STEP 1024

static size_t scan_budget(const clirr_worklist *wl, uint32_t slots)
{
    uint64_t words = clirr_ctx_caps(wl->ctx)->max_alloc / sizeof(uint32_t);
    uint64_t most = (uint64_t)SCAN_MAX_DEPTH * slots;
    most = most < words ? most : words;
    return (size_t)(most < UINT32_MAX ? most : UINT32_MAX);
}

/* (Re)allocate the counts for `slots` work-items and `words` slots. */
static int scan_alloc(clirr_worklist *wl, uint32_t slots, size_t words, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (slots != wl->scan_slots || !wl->scan_n) {
        clirr_mem_release(&wl->scan_n);
        wl->scan_slots = 0;
        CLIRR_TRY(clirr_buf_create(wl->ctx, "scan push counts", (size_t)slots * sizeof(uint32_t), &wl->scan_n, err));
        wl->scan_slots = slots;
    }
    if (words != wl->scan_words || !wl->scan_items) {
        clirr_mem_release(&wl->scan_items);
        wl->scan_words = 0;
        CLIRR_TRY(clirr_buf_create(wl->ctx, "scan push slots", words * sizeof(uint32_t), &wl->scan_items, err));
        wl->scan_words = words;
    }
fail:
    return rc;
}

/* First use: a count for every item's work-item (with dedup no round
 * launches more, bar the rounding to work-groups), SCAN_DEPTH slots each. */
static int scan_ensure(clirr_worklist *wl, clirr_error *err)
{
    if (wl->scan_n && wl->scan_items)
        return CLIRR_OK;
    uint64_t slots = ((uint64_t)wl->universe + SCAN_SLOTS_STEP - 1) / SCAN_SLOTS_STEP * SCAN_SLOTS_STEP;
    slots = slots ? slots : SCAN_SLOTS_STEP;
    if (slots > UINT32_MAX / 2)
        slots = UINT32_MAX / 2;
    size_t most = scan_budget(wl, (uint32_t)slots);
    size_t words = (size_t)slots * SCAN_DEPTH < most ? (size_t)slots * SCAN_DEPTH : most;
    return scan_alloc(wl, (uint32_t)slots, words ? words : 1, err);
}

/* After a round that launched `launched` work-items and spilled: counts
 * for all of them, or twice the slots, for the rounds to come. */
static int scan_widen(clirr_worklist *wl, uint32_t launched, uint32_t spills, clirr_error *err)
{
    uint32_t slots = wl->scan_slots;
    size_t words = wl->scan_words;
    if (launched > slots) {
        uint64_t s = ((uint64_t)launched + SCAN_SLOTS_STEP - 1) / SCAN_SLOTS_STEP * SCAN_SLOTS_STEP;
        slots = (uint32_t)(s < UINT32_MAX / 2 ? s : UINT32_MAX / 2);
        size_t want = (size_t)slots * SCAN_DEPTH, most = scan_budget(wl, slots);
        want = want < most ? want : most;
        words = want > words ? want : words;
    } else if (spills) {
        size_t most = scan_budget(wl, slots);
        words = 2 * words < most ? 2 * words : most;
    }
    if (slots == wl->scan_slots && words == wl->scan_words)
        return CLIRR_OK;
    return scan_alloc(wl, slots, words, err);
}

/* The scan push's round end: the spills sit at the output's front; the
 * counts' prefix sum places every work-item's slots after them. */
static int scan_end(clirr_worklist *wl, bool *rerun, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t head[2] = {0, 0}; /* spills, the launch's work-items */
    CLIRR_TRY(clirr_buf_read(wl->ctx, wl->count, 0, sizeof head, head, err));
    if (head[0] > wl->cap) { /* spilled past the capacity: those are lost */
        CLIRR_TRY(grow(wl, head[0], err));
        wl->reruns++;
        wl->rerun = true;
        *rerun = true;
        return scan_widen(wl, head[1], head[0], err);
    }
    uint64_t placed = 0;
    bool counted = head[1] > 0 && head[1] <= wl->scan_slots;
    if (counted)
        CLIRR_TRY(clirr_prim_scan_u32(wl->ctx, wl->scan_n, wl->scan_n, head[1], &placed, err));
    uint64_t size = head[0] + placed;
    if (size > UINT32_MAX)
        return clirr_fail(err, CLIRR_ERR_OPENCL, "a scan-push round reported %llu items", (unsigned long long)size);
    if (size > wl->cap)
        CLIRR_TRY(grow_keep(wl, size, head[0], err));
    if (counted)
        CLIRR_TRY(clirr_prim_scatter_segments_u32(wl->ctx, wl->scan_n, wl->scan_items, head[1], (uint32_t)placed,
                                                  wl->items[1 - wl->cur], head[0], err));
    wl->scan_pushes += placed;
    wl->scan_spills += head[0];
    swap_in(wl, (uint32_t)size);
    if (head[0])
        CLIRR_TRY(scan_widen(wl, head[1], head[0], err));
fail:
    return rc;
}

int clirr_worklist_restart(clirr_worklist *wl, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (!wl->asked_cap || wl->cap <= wl->asked_cap)
        return CLIRR_OK;
    clirr_mem_release(&wl->items[0]);
    clirr_mem_release(&wl->items[1]);
    wl->cap = wl->asked_cap;
    wl->cur = 0;
    wl->size = 0;
    CLIRR_TRY(clirr_buf_create(wl->ctx, "worklist", wl->cap * sizeof(uint32_t), &wl->items[0], err));
    CLIRR_TRY(clirr_buf_create(wl->ctx, "worklist", wl->cap * sizeof(uint32_t), &wl->items[1], err));
fail:
    return rc;
}

/* Room for an input of n items (its old items may go). */
static int input_room(clirr_worklist *wl, uint32_t n, clirr_error *err)
{
    if (n <= wl->cap)
        return CLIRR_OK;
    wl->size = 0;
    return grow(wl, n, err);
}


int clirr_worklist_reset(clirr_worklist *wl, const uint32_t *items, uint32_t n,
                         clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(input_room(wl, n, err));
    if (items)
        CLIRR_TRY(clirr_buf_write(wl->ctx, wl->items[wl->cur], 0, (size_t)n * sizeof(uint32_t), items, err));
    else
        CLIRR_TRY(clirr_prim_iota_u32(wl->ctx, wl->items[wl->cur], n, 0, err));
    input_set(wl, n);
fail:
    return rc;
}

int clirr_worklist_reset_from(clirr_worklist *wl, cl_mem src, size_t first, uint32_t n, clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(input_room(wl, n, err));
    if (n)
        CLIRR_TRY(clirr_buf_copy(wl->ctx, src, first * sizeof(uint32_t), wl->items[wl->cur], 0,
                                 (size_t)n * sizeof(uint32_t), err));
    input_set(wl, n);
fail:
    return rc;
}

int clirr_worklist_reset_marked(clirr_worklist *wl, cl_mem keys, uint32_t match, uint32_t n,
                                clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t count = 0;
    wl->size = 0;
    CLIRR_TRY(clirr_prim_compact_u32(wl->ctx, keys, match, NULL, n, wl->items[wl->cur], wl->cap, &count,
                                     err));
    if (count > wl->cap) {
        CLIRR_TRY(grow(wl, count, err));
        CLIRR_TRY(clirr_prim_compact_u32(wl->ctx, keys, match, NULL, n, wl->items[wl->cur], wl->cap,
                                         &count, err));
    }
    input_set(wl, count);
fail:
    return rc;
}

/* Epochs run out after 2^32 attempts: clear the marks and restart. */
static int make_room(clirr_worklist *wl, uint32_t epochs, clirr_error *err)
{
    if (wl->epoch > UINT32_MAX - epochs) {
        int rc = clirr_prim_fill_u32(wl->ctx, wl->marks, 0, wl->universe, 0, err);
        if (rc != CLIRR_OK)
            return rc;
        wl->epoch = 0;
    }
    return CLIRR_OK;
}

int clirr_worklist_begin(clirr_worklist *wl, clirr_error *err)
{
    int rc = make_room(wl, 1, err);
    if (rc != CLIRR_OK)
        return rc;
    wl->epoch++;
    if (wl->mode == CLIRR_PUSH_COMPACT)
        return CLIRR_OK;
    if (wl->mode == CLIRR_PUSH_SCAN) {
        rc = scan_ensure(wl, err);
        return rc != CLIRR_OK ? rc : clirr_prim_fill_u32(wl->ctx, wl->count, 0, 2, 0, err);
    }
    return clirr_prim_fill_u32(wl->ctx, wl->count, 0, 1, 0, err);
}

int clirr_worklist_bind(clirr_worklist *wl, cl_kernel k, cl_uint first, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint cap32 = (cl_uint)(wl->cap > UINT32_MAX ? UINT32_MAX : wl->cap);
    cl_uint rerun = wl->rerun, nargs = 0;
    /* A wrong `first` past the end would otherwise surface as an argument
     * index error on whichever parameter ran out. */
    CLIRR_TRY(clirr_kernel_num_args(wl->ctx, k, &nargs, err));
    if (first > nargs || nargs - first < CLIRR_KNARGS(wl_args)) {
        char name[128] = "?";
        clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
        name[sizeof name - 1] = '\0';
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "kernel %s takes %u arguments: no room for the worklist's %u from "
                          "argument %u",
                          name, nargs, CLIRR_KNARGS(wl_args), first);
    }
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_in), wl->items[wl->cur]));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_in_size), wl->size));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_out), wl->items[1 - wl->cur]));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_count), wl->count));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_cap), cap32));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_marks), wl->marks));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_epoch), wl->epoch));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_rerun), rerun));
    /* Read only when wl_in_size says so (queued rounds). */
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_in_count), wl->count));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_in_limit), cap32));
    /* The scan push's scratch; outside it, a placeholder no kernel reads. */
    cl_mem scan_n = wl->scan_n ? wl->scan_n : wl->count, scan_items = wl->scan_items ? wl->scan_items : wl->count;
    cl_uint slots = wl->scan_n ? wl->scan_slots : 0, words = (cl_uint)wl->scan_words;
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_scan_n), scan_n));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_scan_items), scan_items));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_scan_slots), slots));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_scan_words), words));
fail:
    return rc;
}


int clirr_worklist_end(clirr_worklist *wl, bool *rerun, clirr_error *err)
{
    int rc = CLIRR_OK;
    *rerun = false;
    if (wl->mode == CLIRR_PUSH_COMPACT) {
        uint32_t count = 0;
        cl_mem out = wl->items[1 - wl->cur];
        CLIRR_TRY(clirr_prim_compact_u32(wl->ctx, wl->marks, wl->epoch, NULL, wl->universe, out,
                                         wl->cap, &count, err));
        if (count > wl->cap) {
            /* Grow, then place again: the marks are still there. */
            CLIRR_TRY(grow(wl, count, err));
            out = wl->items[1 - wl->cur];
            CLIRR_TRY(clirr_prim_compact_u32(wl->ctx, wl->marks, wl->epoch, NULL, wl->universe,
                                             out, wl->cap, &count, err));
        }
        swap_in(wl, count);
        return CLIRR_OK;
    }
    if (wl->mode == CLIRR_PUSH_SCAN)
        return scan_end(wl, rerun, err);
    uint32_t count = 0;
    CLIRR_TRY(clirr_buf_read(wl->ctx, wl->count, 0, sizeof count, &count, err));
    if (count > wl->cap) {
        CLIRR_TRY(grow(wl, count, err));
        wl->reruns++;
        wl->rerun = true;
        *rerun = true;
        return CLIRR_OK;
    }
    swap_in(wl, count);
fail:
    return rc;
}

int clirr_worklist_round_with(clirr_worklist *wl, const cl_kernel *kernels, unsigned nk,
                              cl_uint first, clirr_worklist_launch_fn launch, void *user,
                              clirr_error *err)
{
    int rc = CLIRR_OK;
    bool rerun = false;
    do {
        CLIRR_TRY(clirr_worklist_begin(wl, err));
        for (unsigned i = 0; i < nk; i++)
            CLIRR_TRY(clirr_worklist_bind(wl, kernels[i], first, err));
        CLIRR_TRY(launch(user, wl->size, err));
        CLIRR_TRY(clirr_worklist_end(wl, &rerun, err));
    } while (rerun);
    if ((unsigned)wl->mode < CLIRR_PUSH_AUTO)
        wl->rounds[wl->mode]++;
fail:
    return rc;
}

typedef struct single_kernel {
    clirr_ctx *ctx;
    cl_kernel kernel;
    size_t wg;
} single_kernel;

static int launch_single(void *user, uint32_t items, clirr_error *err)
{
    single_kernel *s = user;
    return clirr_launch(s->ctx, s->kernel, items, s->wg, err);
}

int clirr_worklist_round(clirr_worklist *wl, cl_kernel kernel, cl_uint first, size_t wg,
                         clirr_error *err)
{
    single_kernel s = {wl->ctx, kernel, wg};
    return clirr_worklist_round_with(wl, &kernel, 1, first, launch_single, &s, err);
}

int clirr_worklist_local_begin(clirr_worklist *wl, uint32_t max_rounds, clirr_error *err)
{
    int rc = make_room(wl, max_rounds, err);
    if (rc == CLIRR_OK)
        wl->epoch++;
    return rc;
}

void clirr_worklist_local_end(clirr_worklist *wl, uint32_t rounds, uint32_t out_size)
{
    wl->epoch += rounds - 1;
    swap_in(wl, out_size);
}

int clirr_worklist_queue_begin(clirr_worklist *wl, uint32_t rounds, clirr_error *err)
{
    return make_room(wl, rounds, err);
}

int clirr_worklist_queue_bind(clirr_worklist *wl, cl_kernel k, cl_uint first, uint32_t j, cl_mem in_count,
                              cl_mem out_count, uint32_t limit, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint size = CLIRR_WL_SIZE_ON_DEVICE, epoch = wl->epoch + 1 + j, rerun = 0;
    int in = (wl->cur + (int)(j % 2)) % 2;
    CLIRR_TRY(clirr_worklist_bind(wl, k, first, err));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_in), wl->items[in]));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_in_size), size));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_out), wl->items[1 - in]));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_count), out_count));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_epoch), epoch));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_rerun), rerun));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_in_count), in_count));
    CLIRR_TRY(CLIRR_ARG(k, first + CLIRR_KARG(wl_args, wl_in_limit), limit));
fail:
    return rc;
}

void clirr_worklist_queue_end(clirr_worklist *wl, const uint32_t *sizes, uint32_t rounds, uint32_t limit,
                              uint32_t *ran)
{
    uint32_t r = 0;
    while (r < rounds && sizes[r] > 0 && sizes[r] <= limit)
        r++;
    for (uint32_t j = 1; j <= r; j++)
        if (sizes[j] > wl->max_size)
            wl->max_size = sizes[j];
    /* Round r - 1's output is the input now: round r found it empty or
     * over the limit and did nothing, and so did the rest. */
    wl->cur = (wl->cur + (int)(r % 2)) % 2;
    wl->size = sizes[r];
    wl->epoch += rounds;
    wl->rerun = false;
    if ((unsigned)wl->mode < CLIRR_PUSH_AUTO)
        wl->rounds[wl->mode] += r;
    *ran = r;
}

void clirr_worklist_release(clirr_worklist *wl)
{
    clirr_mem_release(&wl->items[0]);
    clirr_mem_release(&wl->items[1]);
    clirr_mem_release(&wl->count);
    clirr_mem_release(&wl->marks);
    clirr_mem_release(&wl->scan_n);
    clirr_mem_release(&wl->scan_items);
}
