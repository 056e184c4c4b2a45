/* host/templates/nested_loop.c - launching the nested-loop templates:
 * kernels per template, their sizes, buffers and order (the kernels are in
 * cl/templates/nested_loop.clh and cl/nested/nested_loop_enqueue.clh).
 * The template's own arguments are bound by name from the lists of
 * cl/templates/nested_loop.def, after the algorithm's nparams. */
#include "templates/nested_loop.h"

#include "prim/prim.h"

#include "cl/common/kargs.h"
#include "cl/templates/nested_loop.def"

#include <stdio.h>
#include <string.h>

CLIRR_KARGS_STRUCT(nl_split_args, CLIRR_NL_SPLIT_ARGS);
CLIRR_KARGS_STRUCT(nl_small_args, CLIRR_NL_SMALL_ARGS);
CLIRR_KARGS_STRUCT(nl_large_args, CLIRR_NL_LARGE_ARGS);
CLIRR_KARGS_STRUCT(nl_dbuf_args, CLIRR_NL_DBUF_ARGS);
CLIRR_KARGS_STRUCT(nl_dbuf_shared_args, CLIRR_NL_DBUF_SHARED_ARGS);
CLIRR_KARGS_STRUCT(nl_nested_naive_args, CLIRR_NL_NESTED_NAIVE_ARGS);
CLIRR_KARGS_STRUCT(nl_nested_opt_args, CLIRR_NL_NESTED_OPT_ARGS);
CLIRR_KARGS_STRUCT(nl_donate_args, CLIRR_NL_DONATE_ARGS);

/* Index of the template's parameter `name` of list `tag` in a kernel. */
#define NL_KARG(nl, tag, name) ((nl)->nparams + CLIRR_KARG(tag, name))

/* The kernels each template launches, in launch order: name suffix and
 * how many parameters follow the algorithm's (_baseline: none). */
typedef struct nl_kernel_spec {
    const char *suffix;
    cl_uint own_args;
} nl_kernel_spec;

static const nl_kernel_spec kernel_specs[CLIRR_TEMPLATE_COUNT_][CLIRR_NL_MAX_KERNELS] = {
    [CLIRR_TEMPLATE_BASELINE] = {{"_baseline", 0}},
    [CLIRR_TEMPLATE_DUAL_QUEUE] = {{"_split", CLIRR_KNARGS(nl_split_args)},
                                   {"_small", CLIRR_KNARGS(nl_small_args)},
                                   {"_large", CLIRR_KNARGS(nl_large_args)}},
    [CLIRR_TEMPLATE_DBUF_GLOBAL] = {{"_dbuf", CLIRR_KNARGS(nl_dbuf_args)},
                                    {"_large", CLIRR_KNARGS(nl_large_args)}},
    [CLIRR_TEMPLATE_DBUF_SHARED] = {{"_dbuf_shared", CLIRR_KNARGS(nl_dbuf_shared_args)}},
    [CLIRR_TEMPLATE_NESTED_NAIVE] = {{"_nested_naive", CLIRR_KNARGS(nl_nested_naive_args)}},
    [CLIRR_TEMPLATE_NESTED_OPT] = {{"_nested_opt", CLIRR_KNARGS(nl_nested_opt_args)}},
};

/* Baseline with work donation (cfg.donate): its one kernel. */
static const nl_kernel_spec donate_spec = {"_donate", CLIRR_KNARGS(nl_donate_args)};

/* Donation box entries per work-item: room for two chunks each. */
#define DONATE_BOX_PER_ITEM 2

/* run_nested binds the parameters the two nested kernels share through the
 * naive list: nested_loop.def starts the opt list with it. */
_Static_assert(CLIRR_KARG(nl_nested_opt_args, nl_thres) == CLIRR_KARG(nl_nested_naive_args, nl_thres) &&
                   CLIRR_KARG(nl_nested_opt_args, nl_child_wg) == CLIRR_KARG(nl_nested_naive_args, nl_child_wg) &&
                   CLIRR_KARG(nl_nested_opt_args, nl_launches) == CLIRR_KARG(nl_nested_naive_args, nl_launches),
               "CLIRR_NL_NESTED_OPT_ARGS must start with CLIRR_NL_NESTED_NAIVE_ARGS");

/* The templates of like's family (loop or recursion) the device can run,
 * as "a, b, c" (for messages). */
static void runnable_list(const clirr_caps *caps, clirr_template like, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < CLIRR_TEMPLATE_COUNT_; t++)
        if (clirr_template_is_recursion((clirr_template)t) == clirr_template_is_recursion(like) &&
            clirr_template_runnable(caps, (clirr_template)t, NULL) && used < size) {
            int k = snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                             clirr_template_name((clirr_template)t));
            used += k > 0 ? (size_t)k : 0;
        }
}

int clirr_template_require(const clirr_caps *caps, clirr_template t, clirr_error *err)
{
    const char *why = NULL;
    if (clirr_template_runnable(caps, t, &why))
        return CLIRR_OK;
    char can[256];
    runnable_list(caps, t, can, sizeof can);
    return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "template %s cannot run on %s (%s); it can run: %s",
                      clirr_template_name(t), caps->name, why, can);
}

/* Work-groups for block-mapped kernels whose item count stays on the
 * device: enough to fill every compute unit several times. */
static size_t block_groups(const clirr_nl *nl)
{
    return (size_t)clirr_ctx_caps(nl->ctx)->compute_units * 16;
}

/* The template's buffers of one word per item, for max_items items (made
 * anew: runs bind them each time). */
static int item_buffers(clirr_nl *nl, uint32_t max_items, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t cap = (size_t)(max_items ? max_items : 1) * sizeof(cl_uint);
    clirr_template t = nl->cfg.tmpl;
    cl_mem *bufs[] = {&nl->flags, &nl->queue[0], &nl->queue[1], &nl->gbuf};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        clirr_mem_release(bufs[i]);
    nl->max_items = max_items;
    if (t == CLIRR_TEMPLATE_DUAL_QUEUE) {
        CLIRR_TRY(clirr_buf_create(nl->ctx, "dual-queue flags", cap, &nl->flags, err));
        CLIRR_TRY(clirr_buf_create(nl->ctx, "dual-queue small queue", cap, &nl->queue[0], err));
    }
    if (t == CLIRR_TEMPLATE_DUAL_QUEUE || t == CLIRR_TEMPLATE_DBUF_GLOBAL)
        CLIRR_TRY(clirr_buf_create(nl->ctx, "delayed buffer", cap, &nl->queue[1], err));
    if (t == CLIRR_TEMPLATE_NESTED_OPT)
        CLIRR_TRY(clirr_buf_create(nl->ctx, "nested-opt items", cap, &nl->gbuf, err));
fail:
    return rc;
}

int clirr_nl_init(clirr_nl *nl, clirr_ctx *ctx, cl_program prog, const char *name,
                  cl_uint nparams, uint32_t max_items, const clirr_nl_config *cfg,
                  clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_caps *caps = clirr_ctx_caps(ctx);
    memset(nl, 0, sizeof *nl);
    nl->ctx = ctx;
    nl->cfg = *cfg;
    nl->nparams = nparams;
    nl->max_items = max_items;
    CLIRR_TRY(clirr_template_require(caps, cfg->tmpl, err));
    if (cfg->tmpl == CLIRR_TEMPLATE_NESTED_NAIVE || cfg->tmpl == CLIRR_TEMPLATE_NESTED_OPT)
        CLIRR_TRY(clirr_ctx_device_queue(ctx, err));
    /* Everything a run launches exists before the first run (which may be
     * timed): the template's kernels and the primitives it calls. */
    CLIRR_TRY(clirr_prim_prepare(ctx, err));
    if (cfg->donate && cfg->tmpl != CLIRR_TEMPLATE_BASELINE)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "work donation runs on the thread-mapped baseline template (the study's), not %s",
                          clirr_template_name(cfg->tmpl));
    bool donate = cfg->donate && cfg->tmpl == CLIRR_TEMPLATE_BASELINE;
    for (unsigned i = 0; i < CLIRR_NL_MAX_KERNELS && kernel_specs[cfg->tmpl][i].suffix; i++) {
        const nl_kernel_spec *spec = donate ? &donate_spec : &kernel_specs[cfg->tmpl][i];
        char kname[128];
        snprintf(kname, sizeof kname, "%s%s", name, spec->suffix);
        CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, kname, nparams + spec->own_args, &nl->k[i], err));
        nl->nk = i + 1;
    }
    nl->wg = clirr_wg_size(ctx, nl->k[0], cfg->wg);
    nl->group_wg = clirr_wg_size(ctx, nl->k[nl->nk - 1], cfg->group_wg ? cfg->group_wg : 64);
    if (donate) {
        size_t local = nl->wg * DONATE_BOX_PER_ITEM * 3 * sizeof(cl_uint) + 3 * sizeof(cl_uint);
        if (local > caps->local_mem)
            return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                              "work donation needs %zu bytes of local memory per work-group; %s has %llu", local,
                              caps->name, (unsigned long long)caps->local_mem);
        CLIRR_TRY(clirr_buf_create(ctx, "donation counts", 2 * sizeof(cl_uint), &nl->donated, err));
        CLIRR_TRY(clirr_prim_fill_u32(ctx, nl->donated, 0, 2, 0, err));
    }
    if (cfg->tmpl == CLIRR_TEMPLATE_DBUF_SHARED || cfg->tmpl == CLIRR_TEMPLATE_NESTED_OPT) {
        /* One kernel does both phases: its work-group size is both. */
        size_t local = nl->wg * (sizeof(cl_uint) + (cfg->reduce_size ? cfg->reduce_size : 4)) + 64;
        if (local > caps->local_mem)
            return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                              "%s needs %zu bytes of local memory per work-group; %s has %llu",
                              clirr_template_name(cfg->tmpl), local, caps->name,
                              (unsigned long long)caps->local_mem);
    }
    clirr_template t = cfg->tmpl;
    CLIRR_TRY(item_buffers(nl, max_items, err));
    if (t == CLIRR_TEMPLATE_DUAL_QUEUE || t == CLIRR_TEMPLATE_DBUF_GLOBAL)
        CLIRR_TRY(clirr_buf_create(ctx, "delayed buffer length", sizeof(cl_uint), &nl->qn, err));
    if (t == CLIRR_TEMPLATE_NESTED_OPT)
        CLIRR_TRY(clirr_buf_create(ctx, "nested-opt length", sizeof(cl_uint), &nl->gbuf_n, err));
    if (t == CLIRR_TEMPLATE_NESTED_NAIVE || t == CLIRR_TEMPLATE_NESTED_OPT) {
        CLIRR_TRY(clirr_buf_create(ctx, "child launch counter", sizeof(cl_uint), &nl->launches, err));
        CLIRR_TRY(clirr_prim_fill_u32(ctx, nl->launches, 0, 1, 0, err));
    }
    return CLIRR_OK;
fail:
    clirr_nl_release(nl);
    return rc;
}

int clirr_nl_arg(clirr_nl *nl, cl_uint idx, size_t size, const void *value, clirr_error *err)
{
    for (unsigned i = 0; i < nl->nk; i++) {
        int rc = clirr_arg(nl->k[i], idx, size, value, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    return CLIRR_OK;
}

/* Work-items for a thread-mapped pass over n items: fewer with thread
 * coarsening (the kernels stride over the items). */
static size_t thread_items(const clirr_nl *nl, size_t n)
{
    unsigned c = nl->cfg.coarsen > 1 ? nl->cfg.coarsen : 1;
    return (n + c - 1) / c;
}

/* The block-mapped kernel's scratch for per-item sums (a placeholder slot
 * when the loop has none) at argument idx. */
static int scratch_arg(clirr_nl *nl, cl_kernel k, cl_uint idx, size_t wg, clirr_error *err)
{
    size_t each = nl->cfg.reduce_size ? nl->cfg.reduce_size : sizeof(cl_uint);
    return clirr_arg(k, idx, wg * each, NULL, err);
}

/* The _large kernel k over queue[1], whose length is in qn on the device:
 * a work-group per item, at most max_groups (and block_groups()) of them,
 * striding the queue. */
static int run_large(clirr_nl *nl, cl_kernel k, size_t max_groups, clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_large_args, nl_queue), nl->queue[1]));
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_large_args, nl_qn), nl->qn));
    CLIRR_TRY(scratch_arg(nl, k, NL_KARG(nl, nl_large_args, nl_scratch), nl->group_wg, err));
    size_t groups = max_groups < block_groups(nl) ? max_groups : block_groups(nl);
    CLIRR_TRY(clirr_launch(nl->ctx, k, groups * nl->group_wg, nl->group_wg, err));
fail:
    return rc;
}

static int run_dual_queue(clirr_nl *nl, uint32_t nitems, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint thres = nl->cfg.thres, nsmall = 0, nlarge = 0;
    CLIRR_TRY(CLIRR_ARG(nl->k[0], NL_KARG(nl, nl_split_args, nl_thres), thres));
    CLIRR_TRY(CLIRR_ARG(nl->k[0], NL_KARG(nl, nl_split_args, nl_large), nl->flags));
    CLIRR_TRY(clirr_launch(nl->ctx, nl->k[0], thread_items(nl, nitems), nl->wg, err));
    CLIRR_TRY(clirr_prim_compact_u32(nl->ctx, nl->flags, 0, NULL, nitems, nl->queue[0], nl->max_items,
                                     &nsmall, err));
    CLIRR_TRY(clirr_prim_compact_u32(nl->ctx, nl->flags, 1, NULL, nitems, nl->queue[1], nl->max_items,
                                     &nlarge, err));
    CLIRR_TRY(CLIRR_ARG(nl->k[1], NL_KARG(nl, nl_small_args, nl_queue), nl->queue[0]));
    CLIRR_TRY(CLIRR_ARG(nl->k[1], NL_KARG(nl, nl_small_args, nl_qn), nsmall));
    CLIRR_TRY(clirr_launch(nl->ctx, nl->k[1], thread_items(nl, nsmall), nl->wg, err));
    if (nlarge) {
        CLIRR_TRY(clirr_prim_fill_u32(nl->ctx, nl->qn, 0, 1, nlarge, err));
        CLIRR_TRY(run_large(nl, nl->k[2], nlarge, err));
    }
fail:
    return rc;
}

static int run_dbuf_global(clirr_nl *nl, uint32_t nitems, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint thres = nl->cfg.thres;
    CLIRR_TRY(clirr_prim_fill_u32(nl->ctx, nl->qn, 0, 1, 0, err));
    CLIRR_TRY(CLIRR_ARG(nl->k[0], NL_KARG(nl, nl_dbuf_args, nl_thres), thres));
    CLIRR_TRY(CLIRR_ARG(nl->k[0], NL_KARG(nl, nl_dbuf_args, nl_buf), nl->queue[1]));
    CLIRR_TRY(CLIRR_ARG(nl->k[0], NL_KARG(nl, nl_dbuf_args, nl_buf_n), nl->qn));
    CLIRR_TRY(clirr_launch(nl->ctx, nl->k[0], thread_items(nl, nitems), nl->wg, err));
    /* The buffer's length stays on the device: no read-back here, so the
     * launch is sized from nitems. */
    CLIRR_TRY(run_large(nl, nl->k[1], (nitems + nl->group_wg - 1) / nl->group_wg, err));
fail:
    return rc;
}

static int run_dbuf_shared(clirr_nl *nl, uint32_t nitems, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint thres = nl->cfg.thres;
    cl_kernel k = nl->k[0];
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_dbuf_shared_args, nl_thres), thres));
    CLIRR_TRY(clirr_arg(k, NL_KARG(nl, nl_dbuf_shared_args, nl_lbuf), nl->wg * sizeof(cl_uint), NULL, err));
    CLIRR_TRY(clirr_arg(k, NL_KARG(nl, nl_dbuf_shared_args, nl_ln), sizeof(cl_uint), NULL, err));
    CLIRR_TRY(scratch_arg(nl, k, NL_KARG(nl, nl_dbuf_shared_args, nl_scratch), nl->wg, err));
    CLIRR_TRY(clirr_launch(nl->ctx, k, thread_items(nl, nitems), nl->wg, err));
fail:
    return rc;
}

static int run_donate(clirr_nl *nl, uint32_t nitems, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = nl->k[0];
    cl_uint thres = nl->cfg.donate, box_cap = (cl_uint)(nl->wg * DONATE_BOX_PER_ITEM);
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_donate_args, nl_dthres), thres));
    CLIRR_TRY(clirr_arg(k, NL_KARG(nl, nl_donate_args, nl_box), 3 * (size_t)box_cap * sizeof(cl_uint), NULL, err));
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_donate_args, nl_box_cap), box_cap));
    CLIRR_TRY(clirr_arg(k, NL_KARG(nl, nl_donate_args, nl_dstate), 3 * sizeof(cl_uint), NULL, err));
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_donate_args, nl_donated), nl->donated));
    CLIRR_TRY(clirr_launch(nl->ctx, k, thread_items(nl, nitems), nl->wg, err));
fail:
    return rc;
}

int clirr_nl_donations(clirr_nl *nl, uint32_t *group0, uint64_t *all, clirr_error *err)
{
    cl_uint n[2] = {0, 0};
    *group0 = 0;
    *all = 0;
    if (!nl->donated)
        return CLIRR_OK;
    int rc = clirr_buf_read(nl->ctx, nl->donated, 0, sizeof n, n, err);
    /* The device counts run on from init (wrapping): report what is new. */
    *group0 = n[0] - nl->donated_seen[0];
    *all = (uint32_t)(n[1] - nl->donated_seen[1]);
    nl->donated_seen[0] = n[0];
    nl->donated_seen[1] = n[1];
    return rc;
}

static int run_nested(clirr_nl *nl, uint32_t nitems, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint thres = nl->cfg.thres, child_wg = (cl_uint)nl->group_wg;
    cl_kernel k = nl->k[0];
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_nested_naive_args, nl_thres), thres));
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_nested_naive_args, nl_child_wg), child_wg));
    CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_nested_naive_args, nl_launches), nl->launches));
    if (nl->cfg.tmpl == CLIRR_TEMPLATE_NESTED_OPT) {
        CLIRR_TRY(clirr_prim_fill_u32(nl->ctx, nl->gbuf_n, 0, 1, 0, err));
        CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_nested_opt_args, nl_gbuf), nl->gbuf));
        CLIRR_TRY(CLIRR_ARG(k, NL_KARG(nl, nl_nested_opt_args, nl_gbuf_n), nl->gbuf_n));
        CLIRR_TRY(clirr_arg(k, NL_KARG(nl, nl_nested_opt_args, nl_lbuf), nl->wg * sizeof(cl_uint), NULL, err));
        CLIRR_TRY(clirr_arg(k, NL_KARG(nl, nl_nested_opt_args, nl_ln), sizeof(cl_uint), NULL, err));
        CLIRR_TRY(scratch_arg(nl, k, NL_KARG(nl, nl_nested_opt_args, nl_scratch), nl->wg, err));
    }
    CLIRR_TRY(clirr_launch(nl->ctx, k, thread_items(nl, nitems), nl->wg, err));
fail:
    return rc;
}

int clirr_nl_run(clirr_nl *nl, uint32_t nitems, clirr_error *err)
{
    /* More items than it was set up for (a worklist that keeps duplicate
     * pushes outgrows the items): grow, nothing lost. */
    if (nitems > nl->max_items) {
        uint32_t grown = nl->max_items > UINT32_MAX / 2 ? UINT32_MAX : 2 * nl->max_items;
        int rc = item_buffers(nl, nitems > grown ? nitems : grown, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    if (nitems == 0)
        return CLIRR_OK;
    switch (nl->cfg.tmpl) {
    case CLIRR_TEMPLATE_BASELINE:
        if (nl->donated)
            return run_donate(nl, nitems, err);
        return clirr_launch(nl->ctx, nl->k[0], thread_items(nl, nitems), nl->wg, err);
    case CLIRR_TEMPLATE_DUAL_QUEUE: return run_dual_queue(nl, nitems, err);
    case CLIRR_TEMPLATE_DBUF_GLOBAL: return run_dbuf_global(nl, nitems, err);
    case CLIRR_TEMPLATE_DBUF_SHARED: return run_dbuf_shared(nl, nitems, err);
    default: return run_nested(nl, nitems, err);
    }
}

int clirr_nl_child_launches(clirr_nl *nl, uint64_t *count, clirr_error *err)
{
    cl_uint n = 0;
    *count = 0;
    if (!nl->launches)
        return CLIRR_OK;
    int rc = clirr_buf_read(nl->ctx, nl->launches, 0, sizeof n, &n, err);
    /* The device counter runs on from init: report what is new. */
    *count = n - nl->launches_seen;
    nl->launches_seen = n;
    return rc;
}

void clirr_nl_release(clirr_nl *nl)
{
    clirr_mem_release(&nl->flags);
    clirr_mem_release(&nl->queue[0]);
    clirr_mem_release(&nl->queue[1]);
    clirr_mem_release(&nl->qn);
    clirr_mem_release(&nl->launches);
    clirr_mem_release(&nl->gbuf);
    clirr_mem_release(&nl->gbuf_n);
    clirr_mem_release(&nl->donated);
}
