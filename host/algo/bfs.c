/* host/algo/bfs.c - breadth-first search on the device, topology-driven or
 * data-driven (kernels: cl/bfs.cl; study: shared/papers/000). Levels are
 * uint on the device with CLIRR_NONE for unreached, which read as int32 is
 * exactly CLIRR_BFS_UNREACHED (-1). */
#include "algo/dgraph.h"
#include "algo/round.h"
#include "algo/run.h"
#include "prim/prim.h"
#include "prim/worklist.h"

#include <string.h>

#define NONE UINT32_MAX

/* Every vertex every round; stops after a round that changed nothing. */
static int run_topo(clirr_ctx *ctx, cl_kernel k, size_t wg, const clirr_dgraph *dg,
                    cl_mem level, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_mem changed = NULL;
    CLIRR_TRY(clirr_buf_create(ctx, "the changed flag", sizeof(uint32_t), &changed, err));
    cl_uint next = 0;
    CLIRR_TRY(clirr_dgraph_bind(dg, k, 0, false, &next, err));
    CLIRR_TRY(CLIRR_ARG(k, next, level));
    CLIRR_TRY(CLIRR_ARG(k, next + 1, dg->n));
    CLIRR_TRY(CLIRR_ARG(k, next + 3, changed));
    for (uint32_t depth = 0;; depth++) {
        uint32_t flag = 0;
        CLIRR_TRY(clirr_buf_write(ctx, changed, 0, sizeof flag, &flag, err));
        CLIRR_TRY(CLIRR_ARG(k, next + 2, depth));
        CLIRR_TRY(clirr_launch(ctx, k, dg->n, wg, err));
        CLIRR_TRY(clirr_buf_read(ctx, changed, 0, sizeof flag, &flag, err));
        stats->iterations++;
        if (!flag)
            break;
    }
fail:
    clirr_mem_release(&changed);
    return rc;
}

/* The frontier as a worklist; stops when it is empty. */
static int run_data(clirr_ctx *ctx, clirr_round_kernels *rk, const clirr_dgraph *dg,
                    cl_mem level, const clirr_algo_opts *opts, clirr_algo_stats *stats,
                    clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_worklist wl;
    memset(&wl, 0, sizeof wl);
    CLIRR_TRY(clirr_worklist_init(&wl, ctx, dg->n, opts->wl_capacity, CLIRR_PUSH_SCAN, err));
    cl_uint next = 0;
    CLIRR_TRY(clirr_round_kernels_bind_graph(rk, dg, 0, false, &next, err));
    CLIRR_TRY(CLIRR_ROUND_ARG(rk, next, level));
    CLIRR_TRY(clirr_worklist_reset(&wl, &opts->source, 1, err));
    for (uint32_t depth = 0; clirr_worklist_size(&wl) > 0; depth++) {
        CLIRR_TRY(CLIRR_ROUND_ARG(rk, next + 1, depth));
        CLIRR_TRY(clirr_round_run(ctx, rk, &wl, next + 2, err));
        stats->iterations++;
    }
    clirr_run_worklist_stats(&wl, stats);
fail:
    clirr_worklist_release(&wl);
    return rc;
}

int clirr_bfs(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts,
              int32_t *level_out, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_dgraph dg;
    cl_mem level = NULL;
    cl_kernel k = NULL;
    cl_program prog = NULL;
    clirr_round_kernels rk;
    size_t wg = 0;
    bool topo = opts->variant == CLIRR_VARIANT_TOPO;
    memset(&dg, 0, sizeof dg);
    memset(stats, 0, sizeof *stats);
    stats->template_name = "baseline";
    CLIRR_TRY(clirr_run_check_source(g, opts->source, err));

    /* Build before the clock starts: a run times the algorithm, not the
     * compiler. */
    if (topo) {
        CLIRR_TRY(clirr_program_get(ctx, "bfs.cl", "", &prog, err));
        CLIRR_TRY(clirr_kernel_get(ctx, prog, "bfs_topo", &k, err));
        wg = clirr_wg_size(ctx, k, opts->wg_size);
    } else {
        CLIRR_TRY(clirr_round_kernels_get(ctx, "bfs.cl", "", "bfs_data", opts->push, opts->wg_size,
                                          &rk, err));
        wg = rk.wg;
    }
    stats->wg_size = (unsigned)wg;

    uint64_t start = clirr_run_start(ctx);
    CLIRR_TRY(clirr_dgraph_upload(ctx, g, false, &dg, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BFS levels", (size_t)g->n * sizeof(uint32_t), &level, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, level, 0, g->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, level, opts->source, 1, 0, err));
    if (topo)
        CLIRR_TRY(run_topo(ctx, k, wg, &dg, level, stats, err));
    else
        CLIRR_TRY(run_data(ctx, &rk, &dg, level, opts, stats, err));
    CLIRR_TRY(clirr_buf_read(ctx, level, 0, (size_t)g->n * sizeof(uint32_t), level_out, err));
    CLIRR_TRY(clirr_run_stop(ctx, start, stats, err));
    clirr_run_count_reached(g, (const uint32_t *)level_out, NONE, stats);
fail:
    clirr_dgraph_release(&dg);
    clirr_mem_release(&level);
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "bfs (%s) on %s", clirr_variant_name(opts->variant),
                           clirr_ctx_caps(ctx)->name);
    return rc;
}
