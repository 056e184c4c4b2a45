/* host/algo/round.c - a data-driven round's nested loop per push mode,
 * and the choice of one per round. */
#include "algo/round.h"
#include "algo/run.h"

#include "cl/templates/local_rounds.def"
#include "templates/policy.h"

CLIRR_KARGS_STRUCT(lr_args, CLIRR_LR_ARGS);

/* Rounds one local launch may run: enough to cross a road network's
 * diameter in a few launches, few enough that no launch runs for long. */
#define LOCAL_MAX_ROUNDS 1024

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOCAL_WG_CPU 16

/* The local-rounds kernel of the program of one push mode (it pushes the
 * same way under every mode), its work-group and its fixed arguments. */
static int local_init(clirr_local_rounds *lr, clirr_ctx *ctx, cl_program prog, const clirr_loop_spec *spec,
                      clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint n = spec->nparams + CLIRR_KNARGS(lr_args);
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, spec->local_name, n, &lr->kernel, err));
    /* A CPU runs the one work-group on one core, looping over its
     * work-items between barriers: every round pays a few loops over
     * them. 16 there (PoCL, 2-core development machine: luxembourg_osm's
     * 1,035 BFS levels 3.0 against 8.2 ms at 1024, SSSP 7.2 against 12.3,
     * Intel's CPU runtime 9.8 against 12.9 and 16.6 against 27.3; a
     * 1024x1024 grid's fronts of 2,000 alike at 16 to 1024). */
    lr->wg = clirr_wg_size(ctx, lr->kernel, clirr_ctx_caps(ctx)->is_cpu ? LOCAL_WG_CPU : 1024);
    lr->threshold = spec->local_threshold;
    lr->max_rounds = LOCAL_MAX_ROUNDS;
    lr->lr_first = spec->nparams;
    CLIRR_TRY(clirr_buf_create(ctx, "local-rounds state", sizeof lr->last, &lr->state, err));
    cl_uint first = lr->lr_first, qcap = lr->threshold;
    CLIRR_TRY(clirr_arg(lr->kernel, first + CLIRR_KARG(lr_args, lr_queue), 2 * (size_t)qcap * sizeof(cl_uint),
                        NULL, err));
    CLIRR_TRY(CLIRR_ARG(lr->kernel, first + CLIRR_KARG(lr_args, lr_qcap), qcap));
    CLIRR_TRY(CLIRR_ARG(lr->kernel, first + CLIRR_KARG(lr_args, lr_switch), qcap));
    /* Arcs one work-group expands well in a round: more, and a few hubs
     * are work for every compute unit (measured: rmat scale 22 from its
     * largest hub on PoCL and the H100). */
    cl_uint arcs = 8 * qcap;
    CLIRR_TRY(CLIRR_ARG(lr->kernel, first + CLIRR_KARG(lr_args, lr_arc_switch), arcs));
    CLIRR_TRY(CLIRR_ARG(lr->kernel, first + CLIRR_KARG(lr_args, lr_max_rounds), lr->max_rounds));
    CLIRR_TRY(CLIRR_ARG(lr->kernel, first + CLIRR_KARG(lr_args, lr_state), lr->state));
fail:
    return rc;
}

/* CLIRR_LOCAL_PHASES=0|1 sets the local-rounds kernels' arc work in
 * phases off or on (cl/templates/local_rounds.clh; unset: on except on
 * CPUs), so that tests run the GPU form on CPU devices and a device can
 * time both forms with one build. */
static const char *local_phases_option(void)
{
    const char *e = getenv("CLIRR_LOCAL_PHASES");
    if (e && !strcmp(e, "0"))
        return " -DCLIRR_LR_PHASES=0";
    if (e && !strcmp(e, "1"))
        return " -DCLIRR_LR_PHASES=1";
    return "";
}

/* Templates whose kernels loop over the items with a stride and size no
 * launch from a length read on the host: a launch of any size covers a
 * worklist of any length. */
static bool queueable(const clirr_template *t)
{
    return *t == CLIRR_TEMPLATE_BASELINE || *t == CLIRR_TEMPLATE_DBUF_SHARED || *t == CLIRR_TEMPLATE_DBUF_GLOBAL;
}

/* The counts of a batch, one per sub-buffer-aligned slot, and the launch
 * size: as many work-items as the device runs at once, the largest
 * worklist a batch starts on. */
static int queued_init(clirr_queued_rounds *q, clirr_ctx *ctx, const clirr_loop_spec *spec, uint32_t max_items,
                       clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_caps *caps = clirr_ctx_caps(ctx);
    q->batch = spec->queue_rounds < CLIRR_QUEUE_MAX ? spec->queue_rounds : CLIRR_QUEUE_MAX;
    q->round_var = spec->round_var;
    uint64_t resident = (uint64_t)caps->compute_units * caps->max_wg_size;
    q->threshold = (uint32_t)(resident < max_items ? resident : max_items);
    q->stride = caps->mem_base_align > sizeof(cl_uint) ? caps->mem_base_align : sizeof(cl_uint);
    q->host = calloc((size_t)(q->batch + 1) * q->stride, 1);
    if (!q->host)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    CLIRR_TRY(clirr_buf_create(ctx, "queued rounds' counts", (q->batch + 1) * q->stride, &q->counts, err));
    for (uint32_t j = 0; j <= q->batch; j++)
        CLIRR_TRY(clirr_buf_sub(q->counts, j * q->stride, sizeof(cl_uint), &q->count[j], err));
fail:
    return rc;
}

static void queued_release(clirr_queued_rounds *q)
{
    for (uint32_t j = 0; j <= CLIRR_QUEUE_MAX; j++)
        clirr_mem_release(&q->count[j]);
    clirr_mem_release(&q->counts);
    free(q->host);
    q->host = NULL;
}

int clirr_round_loop_init(clirr_round_loop *rl, clirr_ctx *ctx, const clirr_loop_spec *spec,
                          uint32_t max_items, clirr_push_mode push, const clirr_nl_config *cfg,
                          clirr_error *err)
{
    int rc = CLIRR_OK;
    memset(rl, 0, sizeof *rl);
    rl->push = push;
    rl->wl_first = spec->wl_first;
    rl->keep_duplicates = spec->keep_duplicates;
    rl->fixed_grid = spec->fixed_grid;
    if (spec->keep_duplicates && push == CLIRR_PUSH_COMPACT)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "the compact push drops duplicates by construction: with "
                                                      "--no-dedup a round pushes with atomic or chunk");
    bool need[CLIRR_PUSH_AUTO] = {false};
    if (push == CLIRR_PUSH_AUTO) {
        need[CLIRR_PUSH_COMPACT] = !spec->keep_duplicates;
        need[clirr_policy_push(clirr_ctx_caps(ctx), 0, 1)] = true;
    } else {
        need[push] = true;
    }
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++) {
        if (!need[m])
            continue;
        char opts[512];
        char hier[48] = "";
        if (m == CLIRR_PUSH_HIER)
            snprintf(hier, sizeof hier, " -DWL_HIER_CAP=%u", clirr_policy_hier_capacity(clirr_ctx_caps(ctx)));
        snprintf(opts, sizeof opts, "%s %s%s%s%s", spec->options ? spec->options : "",
                 clirr_worklist_push_option((clirr_push_mode)m), hier, spec->keep_duplicates ? " -DCLIRR_WL_DEDUP=0" : "",
                 local_phases_option());
        cl_program prog = NULL;
        CLIRR_TRY(clirr_program_get(ctx, spec->file, opts, &prog, err));
        CLIRR_TRY(clirr_nl_init(&rl->nl[m], ctx, prog, spec->name, spec->nparams, max_items, cfg, err));
        rl->used[m] = true;
        if (spec->local_name && spec->local_threshold && !rl->local.kernel && !spec->keep_duplicates)
            CLIRR_TRY(local_init(&rl->local, ctx, prog, spec, err));
    }
    if (spec->queue_rounds && queueable(&cfg->tmpl) && !spec->keep_duplicates)
        CLIRR_TRY(queued_init(&rl->queued, ctx, spec, max_items, err));
    return CLIRR_OK;
fail:
    clirr_round_loop_release(rl);
    return rc;
}

static int set_arg(clirr_round_loop *rl, cl_uint idx, size_t size, const void *value, clirr_error *err)
{
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
        if (rl->used[m]) {
            int rc = clirr_nl_arg(&rl->nl[m], idx, size, value, err);
            if (rc != CLIRR_OK)
                return rc;
        }
    /* The local kernel's parameters start with the round's. */
    if (rl->local.kernel)
        return clirr_arg(rl->local.kernel, idx, size, value, err);
    return CLIRR_OK;
}

int clirr_round_loop_arg(clirr_round_loop *rl, cl_uint idx, size_t size, const void *value,
                         clirr_error *err)
{
    if (rl->queued.round_var == idx + 1 && size == sizeof(cl_uint))
        memcpy(&rl->queued.var0, value, sizeof(cl_uint));
    return set_arg(rl, idx, size, value, err);
}

/* A round's launch: a work-item per item, or the fixed grid, whose
 * work-items stride over the items (the kernel reads their number). */
typedef struct round_launch {
    clirr_nl *nl;
    uint32_t fixed_grid;
} round_launch;

static int launch_nl(void *user, uint32_t items, clirr_error *err)
{
    const round_launch *l = user;
    return clirr_nl_run(l->nl, l->fixed_grid ? l->fixed_grid : items, err);
}

void clirr_round_loop_trace(clirr_round_loop *rl, clirr_trace *trace, const uint32_t *row)
{
    rl->trace = trace;
    rl->trace_row = row;
}

/* The arcs out of the worklist's input items and the items that repeat
 * one before them (read back: traces only). */
static int input_census(clirr_round_loop *rl, clirr_worklist *wl, clirr_trace_round *r, clirr_error *err)
{
    uint32_t n = clirr_worklist_size(wl);
    if (!n)
        return CLIRR_OK;
    if (!rl->trace_seen) {
        rl->trace_seen = calloc((size_t)wl->universe + 1, sizeof *rl->trace_seen);
        if (!rl->trace_seen)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the trace");
    }
    uint32_t *items = malloc((size_t)n * sizeof *items);
    if (!items)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the trace");
    int rc = clirr_buf_read(wl->ctx, wl->items[wl->cur], 0, (size_t)n * sizeof *items, items, err);
    if (++rl->trace_stamp == 0) { /* stamps wrapped: none may match */
        memset(rl->trace_seen, 0, ((size_t)wl->universe + 1) * sizeof *rl->trace_seen);
        rl->trace_stamp = 1;
    }
    for (uint32_t i = 0; rc == CLIRR_OK && i < n; i++) {
        uint32_t u = items[i] < wl->universe ? items[i] : wl->universe;
        r->duplicates += rl->trace_seen[u] == rl->trace_stamp;
        rl->trace_seen[u] = rl->trace_stamp;
        if (rl->trace_row && u < wl->universe)
            r->arcs += rl->trace_row[u + 1] - rl->trace_row[u];
    }
    free(items);
    return rc;
}

int clirr_round_loop_run(clirr_round_loop *rl, clirr_worklist *wl, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_push_mode mode = rl->push;
    if (mode == CLIRR_PUSH_AUTO) /* without dedup: never the compaction */
        mode = clirr_policy_push(clirr_ctx_caps(wl->ctx), rl->keep_duplicates ? 0 : clirr_worklist_size(wl),
                                 rl->keep_duplicates ? 1 : wl->universe);
    wl->mode = mode;
    clirr_nl *nl = &rl->nl[mode];
    const cl_kernel *k;
    unsigned nk = clirr_nl_kernels(nl, &k);
    round_launch l = {nl, rl->fixed_grid};
    if (!rl->trace)
        return clirr_worklist_round_with(wl, k, nk, rl->wl_first, launch_nl, &l, err);
    clirr_trace_round r = {"data", clirr_worklist_size(wl), 0, 0, 0, clirr_push_mode_name(mode), 0, 0, 0};
    clirr_trace_mark m;
    CLIRR_TRY(input_census(rl, wl, &r, err));
    CLIRR_TRY(clirr_trace_begin(wl->ctx, &m, err));
    CLIRR_TRY(clirr_worklist_round_with(wl, k, nk, rl->wl_first, launch_nl, &l, err));
    r.items_out = clirr_worklist_size(wl);
    if (nl->donated) { /* read back: traces only; the run's sums keep them */
        uint32_t g0 = 0;
        uint64_t all = 0;
        CLIRR_TRY(clirr_nl_donations(nl, &g0, &all, err));
        r.donated_g0 = g0;
        rl->donated_g0 += g0;
        rl->donated += all;
    }
    CLIRR_TRY(clirr_trace_end(wl->ctx, rl->trace, &m, &r, err));
fail:
    return rc;
}

/* One launch of the local-rounds kernel over the worklist. */
static int run_local(clirr_round_loop *rl, clirr_worklist *wl, uint32_t *rounds, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_local_rounds *lr = &rl->local;
    uint32_t *state = lr->last;
    CLIRR_TRY(clirr_worklist_local_begin(wl, lr->max_rounds, err));
    CLIRR_TRY(clirr_worklist_bind(wl, lr->kernel, rl->wl_first, err));
    CLIRR_TRY(clirr_launch(wl->ctx, lr->kernel, lr->wg, lr->wg, err));
    CLIRR_TRY(clirr_buf_read(wl->ctx, lr->state, 0, sizeof lr->last, lr->last, err));
    lr->serial++;
    if (state[0] > lr->max_rounds || state[1] > wl->universe)
        return clirr_fail(err, CLIRR_ERR_OPENCL, "the local-rounds kernel reported %u rounds and %u items",
                          state[0], state[1]);
    if (state[0] == 0) { /* too many arcs for one work-group: one wide round */
        *rounds = 1;
        return clirr_round_loop_run(rl, wl, err);
    }
    clirr_worklist_local_end(wl, state[0], state[1]);
    *rounds = state[0];
    lr->rounds += state[0];
    lr->launches++;
fail:
    return rc;
}

/* One batch of queued rounds in push mode `mode` (ATOMIC or CHUNK), each
 * on at most `limit` items. */
static int run_queued(clirr_round_loop *rl, clirr_worklist *wl, clirr_push_mode mode, uint32_t limit,
                      uint32_t *rounds, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_queued_rounds *q = &rl->queued;
    clirr_nl *nl = &rl->nl[mode];
    const cl_kernel *k;
    unsigned nk = clirr_nl_kernels(nl, &k);
    size_t bytes = (q->batch + 1) * q->stride;
    memset(q->host, 0, bytes);
    q->host[0] = clirr_worklist_size(wl);
    wl->mode = mode;
    CLIRR_TRY(clirr_buf_write(wl->ctx, q->counts, 0, bytes, q->host, err));
    CLIRR_TRY(clirr_worklist_queue_begin(wl, q->batch, err));
    /* The worklist may grow many times within a batch (a low-diameter
     * graph's third round holds most vertices) up to the threshold, past
     * which rounds stop (WL_IN_SIZE), and the strided loops then give each
     * work-item many items. A GPU gets all the work-items it holds at once
     * (those finding nothing cost little; measured: rmat 22 BFS took 23.6
     * ms of kernel at 64 a compute unit, 4.4 one round a launch); a CPU,
     * which schedules every work-group, gets 4x the worklist, at least 64
     * a core: more than its cores either way. */
    const clirr_caps *caps = clirr_ctx_caps(wl->ctx);
    uint64_t items = 4 * (uint64_t)clirr_worklist_size(wl), least = 64 * (uint64_t)caps->compute_units;
    items = items > least ? items : least;
    uint32_t launch = caps->is_gpu || items > q->threshold ? q->threshold : (uint32_t)items;
    cl_uint var0 = q->var0;
    for (uint32_t j = 0; j < q->batch; j++) {
        if (q->round_var) {
            cl_uint var = var0 + j;
            CLIRR_TRY(set_arg(rl, q->round_var - 1, sizeof var, &var, err));
        }
        for (unsigned i = 0; i < nk; i++)
            CLIRR_TRY(clirr_worklist_queue_bind(wl, k[i], rl->wl_first, j, q->count[j], q->count[j + 1],
                                                limit, err));
        CLIRR_TRY(clirr_nl_run(nl, launch, err));
    }
    CLIRR_TRY(clirr_buf_read(wl->ctx, q->counts, 0, bytes, q->host, err));
    uint32_t sizes[CLIRR_QUEUE_MAX + 1];
    for (uint32_t j = 0; j <= q->batch; j++) {
        sizes[j] = q->host[j * (q->stride / sizeof(uint32_t))];
        if (sizes[j] > wl->universe)
            return clirr_fail(err, CLIRR_ERR_OPENCL, "queued round %u reported %u items of %u", j, sizes[j],
                              wl->universe);
    }
    clirr_worklist_queue_end(wl, sizes, q->batch, limit, rounds);
    q->rounds += *rounds;
    q->batches++;
fail:
    return rc;
}

static uint32_t capped(const clirr_round_loop *rl, uint32_t limit)
{
    return rl->most && rl->most < limit ? rl->most : limit;
}

int clirr_round_loop_cap(clirr_round_loop *rl, uint32_t most, clirr_error *err)
{
    rl->most = most;
    clirr_local_rounds *lr = &rl->local;
    if (!lr->kernel)
        return CLIRR_OK;
    cl_uint sw = capped(rl, lr->threshold);
    return CLIRR_ARG(lr->kernel, lr->lr_first + CLIRR_KARG(lr_args, lr_switch), sw);
}

int clirr_round_loop_run_many(clirr_round_loop *rl, clirr_worklist *wl, uint32_t *rounds,
                              clirr_error *err)
{
    clirr_local_rounds *lr = &rl->local;
    clirr_queued_rounds *q = &rl->queued;
    uint32_t size = clirr_worklist_size(wl);
    /* Spilled items land at their position in the output: it must hold
     * every item; so must a queued round's, which cannot rerun. */
    bool roomy = size > 0 && wl->cap >= wl->universe && !wl->rerun;
    if (lr->kernel && roomy && size <= capped(rl, lr->threshold))
        return run_local(rl, wl, rounds, err);
    if (q->batch && roomy) {
        /* Under auto, the rounds the policy pushes with atomics: the compaction's
         * placement needs the length on the host after every round, and
         * it wins on the large rounds (measured, PoCL 16 cores: rmat 20
         * SSSP 122 ms with compactions, 278 queued with chunks to 65K items). */
        clirr_push_mode mode = rl->push;
        uint32_t limit = capped(rl, q->threshold);
        if (mode == CLIRR_PUSH_AUTO) {
            mode = clirr_policy_push(clirr_ctx_caps(wl->ctx), 0, 1);
            uint32_t small = clirr_policy_push_small(wl->universe);
            limit = small < limit ? small : limit;
        }
        /* Not the compaction nor the scan push: both place the output on
         * the host's call after every round. */
        if (mode != CLIRR_PUSH_COMPACT && mode != CLIRR_PUSH_SCAN && rl->used[mode] && size <= limit)
            return run_queued(rl, wl, mode, limit, rounds, err);
    }
    *rounds = 1;
    return clirr_round_loop_run(rl, wl, err);
}

int clirr_hybrid_loop_run(clirr_hybrid_loop *h, const clirr_worklist *wl, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    bool topo = false;
    h->switches = h->topo_rounds = 0;
    while (clirr_worklist_size(wl) > 0) {
        if ((clirr_worklist_size(wl) >= h->min) != topo) {
            topo = !topo;
            h->switches++;
        }
        uint32_t rounds = 1;
        if (topo) {
            CLIRR_TRY(h->topo_round(h->user, err));
            h->topo_rounds++;
        } else {
            CLIRR_TRY(h->data_round(h->user, &rounds, err));
        }
        stats->iterations += rounds;
    }
fail:
    return rc;
}

void clirr_round_loop_local_stats(clirr_round_loop *rl, clirr_stats *stats)
{
    stats->local_rounds = rl->local.rounds;
    stats->local_launches = rl->local.launches;
    stats->queued_rounds = rl->queued.rounds;
    stats->queued_batches = rl->queued.batches;
    rl->local.rounds = rl->local.launches = 0;
    rl->queued.rounds = rl->queued.batches = 0;
}

int clirr_round_loop_child_launches(clirr_round_loop *rl, uint64_t *count, clirr_error *err)
{
    *count = 0;
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
        if (rl->used[m]) {
            uint64_t c = 0;
            int rc = clirr_nl_child_launches(&rl->nl[m], &c, err);
            if (rc != CLIRR_OK)
                return rc;
            *count += c;
        }
    return CLIRR_OK;
}

int clirr_round_donate_config(const clirr_plan *plan, uint32_t thres, bool partitioned, clirr_nl_config *cfg,
                              clirr_error *err)
{
    if (plan->tmpl != CLIRR_TEMPLATE_BASELINE)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "--donate runs on the thread-mapped baseline template (the study's work donation), "
                          "not %s: ask for --template baseline", clirr_template_name(plan->tmpl));
    if (partitioned)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "--donate splits a vertex's arcs; with --partition an item is a partition");
    cfg->donate = thres;
    return CLIRR_OK;
}

int clirr_unroll_init(clirr_unroll *u, clirr_ctx *ctx, const clirr_plan *plan, const char *file, const char *options,
                      const char *name, cl_uint nparams, uint32_t k, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    const clirr_caps *caps = clirr_ctx_caps(ctx);
    memset(u, 0, sizeof *u);
    if (plan->tmpl != CLIRR_TEMPLATE_BASELINE)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "--unroll runs its own thread-mapped sweep (the study's kernel unrolling), not the %s "
                          "template: ask for --template baseline", clirr_template_name(plan->tmpl));
    CLIRR_TRY(clirr_program_get(ctx, file, options, &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, name, nparams + 2, &u->kernel, err));
    u->ctx = ctx;
    u->k = k;
    u->wg = clirr_wg_size(ctx, u->kernel, plan->wg_size);
    /* K slots a work-item in at most half the local memory: fewer
     * work-items a group where K is large. */
    while (u->wg > 1 && u->wg * k * sizeof(cl_uint) > caps->local_mem / 2)
        u->wg /= 2;
    if (u->wg * k * sizeof(cl_uint) > caps->local_mem / 2)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "--unroll %u needs %zu bytes of local memory a work-item; %s has "
                          "%llu a work-group", k, k * sizeof(cl_uint), caps->name,
                          (unsigned long long)caps->local_mem);
    cl_uint kk = k;
    CLIRR_TRY(CLIRR_ARG(u->kernel, nparams, kk));
    CLIRR_TRY(clirr_arg(u->kernel, nparams + 1, u->wg * k * sizeof(cl_uint), NULL, err));
fail:
    return rc;
}

int clirr_unroll_run(clirr_unroll *u, uint32_t n, clirr_error *err)
{
    return clirr_launch(u->ctx, u->kernel, n, u->wg, err);
}

int clirr_round_loop_donations(clirr_round_loop *rl, uint64_t *group0, uint64_t *all, clirr_error *err)
{
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
        if (rl->used[m]) {
            uint32_t g0 = 0;
            uint64_t a = 0;
            int rc = clirr_nl_donations(&rl->nl[m], &g0, &a, err);
            if (rc != CLIRR_OK)
                return rc;
            rl->donated_g0 += g0;
            rl->donated += a;
        }
    *group0 = rl->donated_g0;
    *all = rl->donated;
    rl->donated_g0 = rl->donated = 0;
    return CLIRR_OK;
}

void clirr_round_loop_release(clirr_round_loop *rl)
{
    free(rl->trace_seen);
    rl->trace_seen = NULL;
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
        if (rl->used[m])
            clirr_nl_release(&rl->nl[m]);
    clirr_mem_release(&rl->local.state);
    queued_release(&rl->queued);
    memset(rl, 0, sizeof *rl);
}

int clirr_variant_loop_init(clirr_variant_loop *vl, clirr_ctx *ctx, bool topo,
                            const clirr_loop_spec *topo_spec, const clirr_loop_spec *data_spec,
                            uint32_t max_items, clirr_push_mode push, const clirr_nl_config *cfg,
                            clirr_error *err)
{
    int rc = CLIRR_OK;
    memset(vl, 0, sizeof *vl);
    vl->topo = topo;
    if (topo) {
        cl_program prog = NULL;
        CLIRR_TRY(clirr_program_get(ctx, topo_spec->file, topo_spec->options, &prog, err));
        CLIRR_TRY(clirr_nl_init(&vl->nl, ctx, prog, topo_spec->name, topo_spec->nparams, max_items,
                                cfg, err));
    } else {
        CLIRR_TRY(clirr_round_loop_init(&vl->rl, ctx, data_spec, max_items, push, cfg, err));
    }
fail:
    return rc;
}

int clirr_variant_loop_child_launches(clirr_variant_loop *vl, uint64_t *count, clirr_error *err)
{
    return vl->topo ? clirr_nl_child_launches(&vl->nl, count, err)
                    : clirr_round_loop_child_launches(&vl->rl, count, err);
}

void clirr_variant_loop_release(clirr_variant_loop *vl)
{
    clirr_nl_release(&vl->nl);
    clirr_round_loop_release(&vl->rl);
}
