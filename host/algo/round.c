/* host/algo/round.c - a data-driven round's nested loop per push mode,
 * and the choice of one per round. */
#include "algo/round.h"

#include "templates/policy.h"

#include <stdio.h>
#include <string.h>

int clirr_round_loop_init(clirr_round_loop *rl, clirr_ctx *ctx, const clirr_loop_spec *spec,
                          uint32_t max_items, clirr_push_mode push, const clirr_nl_config *cfg,
                          clirr_error *err)
{
    int rc = CLIRR_OK;
    memset(rl, 0, sizeof *rl);
    rl->push = push;
    rl->wl_first = spec->wl_first;
    bool need[CLIRR_PUSH_AUTO] = {false};
    if (push == CLIRR_PUSH_AUTO) {
        need[CLIRR_PUSH_SCAN] = true;
        need[clirr_policy_push(clirr_ctx_caps(ctx), 0, 1)] = true;
    } else {
        need[push] = true;
    }
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++) {
        if (!need[m])
            continue;
        char opts[512];
        snprintf(opts, sizeof opts, "%s %s", spec->options ? spec->options : "",
                 clirr_worklist_push_option((clirr_push_mode)m));
        cl_program prog = NULL;
        CLIRR_TRY(clirr_program_get(ctx, spec->file, opts, &prog, err));
        CLIRR_TRY(clirr_nl_init(&rl->nl[m], ctx, prog, spec->name, spec->nparams, max_items, cfg, err));
        rl->used[m] = true;
    }
    return CLIRR_OK;
fail:
    clirr_round_loop_release(rl);
    return rc;
}

int clirr_round_loop_arg(clirr_round_loop *rl, cl_uint idx, size_t size, const void *value,
                         clirr_error *err)
{
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
        if (rl->used[m]) {
            int rc = clirr_nl_arg(&rl->nl[m], idx, size, value, err);
            if (rc != CLIRR_OK)
                return rc;
        }
    return CLIRR_OK;
}

static int launch_nl(void *user, uint32_t items, clirr_error *err)
{
    return clirr_nl_run(user, items, err);
}

int clirr_round_loop_run(clirr_round_loop *rl, clirr_worklist *wl, clirr_error *err)
{
    clirr_push_mode mode = rl->push;
    if (mode == CLIRR_PUSH_AUTO)
        mode = clirr_policy_push(clirr_ctx_caps(wl->ctx), clirr_worklist_size(wl), wl->universe);
    wl->mode = mode;
    clirr_nl *nl = &rl->nl[mode];
    const cl_kernel *k;
    unsigned nk = clirr_nl_kernels(nl, &k);
    return clirr_worklist_round_with(wl, k, nk, rl->wl_first, launch_nl, nl, err);
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

void clirr_round_loop_release(clirr_round_loop *rl)
{
    for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
        if (rl->used[m])
            clirr_nl_release(&rl->nl[m]);
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
