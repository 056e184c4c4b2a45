/* host/prim/worklist.c - the double-buffered worklist: binding it to round
 * kernels, detecting output overflow, growing and rerunning, and the
 * prefix-sum placement of COMPACT mode. See worklist.h for the round protocol
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
    CLIRR_TRY(clirr_buf_create(ctx, "worklist length", sizeof(uint32_t), &wl->count, err));
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
    default: return "-DCLIRR_WL_PUSH=2";
    }
}

/* Grow both buffers to hold `need` items, keeping the input's contents;
 * timed on the host between finishes (the queue's earlier work is not
 * counted). */
static int grow(clirr_worklist *wl, size_t need, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t cap = wl->cap * 2 > need ? wl->cap * 2 : need;
    cl_mem in = NULL, out = NULL;
    CLIRR_TRY(clirr_finish(wl->ctx, err));
    uint64_t t0 = clirr_now_ns();
    CLIRR_TRY(clirr_buf_create(wl->ctx, "worklist", cap * sizeof(uint32_t), &in, err));
    CLIRR_TRY(clirr_buf_create(wl->ctx, "worklist", cap * sizeof(uint32_t), &out, err));
    CLIRR_TRY(clirr_buf_copy(wl->ctx, wl->items[wl->cur], 0, in, 0, (size_t)wl->size * sizeof(uint32_t), err));
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

/* The input now holds n items. */
static void input_set(clirr_worklist *wl, uint32_t n)
{
    wl->size = n;
    if (n > wl->max_size)
        wl->max_size = n;
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
fail:
    return rc;
}

/* Output of the round becomes the input. */
static void swap_in(clirr_worklist *wl, uint32_t out_size)
{
    wl->cur = 1 - wl->cur;
    wl->size = out_size;
    wl->rerun = false;
    if (out_size > wl->max_size)
        wl->max_size = out_size;
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
}
