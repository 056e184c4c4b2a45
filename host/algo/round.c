/* host/algo/round.c - building and choosing the round kernels of a
 * data-driven algorithm per push mode. */
#include "algo/round.h"

#include "templates/policy.h"

#include <stdio.h>
#include <string.h>

int clirr_round_kernels_get(clirr_ctx *ctx, const char *file, const char *options,
                            const char *name, clirr_push_mode push, unsigned wg_want,
                            clirr_round_kernels *rk, clirr_error *err)
{
    int rc = CLIRR_OK;
    memset(rk, 0, sizeof *rk);
    rk->push = push;
    const clirr_caps *caps = clirr_ctx_caps(ctx);
    bool need[CLIRR_PUSH_AUTO] = {false};
    if (push == CLIRR_PUSH_AUTO) {
        need[CLIRR_PUSH_SCAN] = true;
        need[clirr_policy_push(caps, 0, 1)] = true;
    } else {
        need[push] = true;
    }
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++) {
        if (!need[m])
            continue;
        char opts[512];
        snprintf(opts, sizeof opts, "%s %s", options ? options : "",
                 clirr_worklist_push_option((clirr_push_mode)m));
        cl_program prog = NULL;
        CLIRR_TRY(clirr_program_get(ctx, file, opts, &prog, err));
        CLIRR_TRY(clirr_kernel_get(ctx, prog, name, &rk->kernel[m], err));
        rk->wg = clirr_wg_size(ctx, rk->kernel[m], wg_want);
    }
fail:
    return rc;
}

int clirr_round_kernels_arg(clirr_round_kernels *rk, cl_uint idx, size_t size, const void *value,
                            clirr_error *err)
{
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
        if (rk->kernel[m]) {
            int rc = clirr_arg(rk->kernel[m], idx, size, value, err);
            if (rc != CLIRR_OK)
                return rc;
        }
    return CLIRR_OK;
}

int clirr_round_kernels_bind_graph(clirr_round_kernels *rk, const clirr_dgraph *dg, cl_uint first,
                                   bool with_weight, cl_uint *next, clirr_error *err)
{
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
        if (rk->kernel[m]) {
            int rc = clirr_dgraph_bind(dg, rk->kernel[m], first, with_weight, next, err);
            if (rc != CLIRR_OK)
                return rc;
        }
    return CLIRR_OK;
}

int clirr_round_run(clirr_ctx *ctx, clirr_round_kernels *rk, clirr_worklist *wl, cl_uint first,
                    clirr_error *err)
{
    clirr_push_mode mode = rk->push;
    if (mode == CLIRR_PUSH_AUTO)
        mode = clirr_policy_push(clirr_ctx_caps(ctx), clirr_worklist_size(wl), wl->universe);
    wl->mode = mode;
    return clirr_worklist_round(wl, rk->kernel[mode], first, rk->wg, err);
}
