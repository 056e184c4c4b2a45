/* host/algo/bfs.c - breadth-first search on the device, topology-driven or
 * data-driven (kernels: cl/bfs.cl; study: shared/papers/000), each round's
 * loop over vertices and arcs run through the run's nested-loop template.
 * Levels are uint on the device with CLIRR_NONE for unreached, which read as
 * int32 is exactly CLIRR_BFS_UNREACHED (-1). */
#include "algo/dgraph.h"
#include "algo/round.h"
#include "algo/run.h"
#include "prim/prim.h"

#include <string.h>

#define NONE UINT32_MAX
#define TOPO_PARAMS 6  /* row, col, level, n, depth, changed */
#define DATA_PARAMS 12 /* row, col, level, depth, WL_PARAMS (8) */

/* Every vertex every round; stops after a round that changed nothing. */
static int run_topo(clirr_ctx *ctx, clirr_nl *nl, const clirr_dgraph *dg, cl_mem level,
                    clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_mem changed = NULL;
    CLIRR_TRY(clirr_buf_create(ctx, "the changed flag", sizeof(uint32_t), &changed, err));
    const cl_kernel *k;
    unsigned nk = clirr_nl_kernels(nl, &k);
    cl_uint next = 0;
    CLIRR_TRY(clirr_dgraph_bind_all(dg, k, nk, 0, false, &next, err));
    CLIRR_TRY(CLIRR_NL_ARG(nl, next, level));
    CLIRR_TRY(CLIRR_NL_ARG(nl, next + 1, dg->n));
    CLIRR_TRY(CLIRR_NL_ARG(nl, next + 3, changed));
    for (uint32_t depth = 0;; depth++) {
        uint32_t flag = 0;
        CLIRR_TRY(clirr_buf_write(ctx, changed, 0, sizeof flag, &flag, err));
        CLIRR_TRY(CLIRR_NL_ARG(nl, next + 2, depth));
        CLIRR_TRY(clirr_nl_run(nl, dg->n, err));
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
static int run_data(clirr_ctx *ctx, clirr_round_loop *rl, const clirr_dgraph *dg, cl_mem level,
                    const clirr_algo_opts *opts, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_worklist wl;
    memset(&wl, 0, sizeof wl);
    CLIRR_TRY(clirr_worklist_init(&wl, ctx, dg->n, opts->wl_capacity, CLIRR_PUSH_SCAN, err));
    cl_uint next = 0;
    CLIRR_TRY(clirr_round_loop_bind_graph(rl, dg, false, &next, err));
    CLIRR_TRY(CLIRR_ROUND_ARG(rl, next, level));
    CLIRR_TRY(clirr_worklist_reset(&wl, &opts->source, 1, err));
    for (uint32_t depth = 0; clirr_worklist_size(&wl) > 0; depth++) {
        CLIRR_TRY(CLIRR_ROUND_ARG(rl, next + 1, depth));
        CLIRR_TRY(clirr_round_loop_run(rl, &wl, err));
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
    bool topo = opts->variant == CLIRR_VARIANT_TOPO;
    clirr_dgraph dg;
    cl_mem level = NULL;
    clirr_nl_config cfg;
    clirr_variant_loop vl;
    memset(&dg, 0, sizeof dg);
    memset(&cfg, 0, sizeof cfg);
    memset(&vl, 0, sizeof vl);
    memset(stats, 0, sizeof *stats);
    if (opts->variant > CLIRR_VARIANT_DATA)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s has no variant %s (topo or data)", "bfs",
                          clirr_variant_name(opts->variant));
    CLIRR_TRY(clirr_run_check_source(g, opts->source, err));
    clirr_run_template(clirr_ctx_caps(ctx), "bfs", opts, g->n, 0, &cfg, stats);

    /* Set up (build, template buffers) before the clock starts: a run times
     * the algorithm, not the compiler. */
    CLIRR_TRY(clirr_variant_loop_init(&vl, ctx, "bfs.cl", "", "bfs_topo", TOPO_PARAMS, "bfs_data",
                                      DATA_PARAMS, g->n, opts, &cfg, stats, err));

    uint64_t start = clirr_run_start(ctx);
    CLIRR_TRY(clirr_dgraph_upload(ctx, g, false, &dg, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BFS levels", (size_t)g->n * sizeof(uint32_t), &level, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, level, 0, g->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, level, opts->source, 1, 0, err));
    if (topo)
        CLIRR_TRY(run_topo(ctx, &vl.nl, &dg, level, stats, err));
    else
        CLIRR_TRY(run_data(ctx, &vl.rl, &dg, level, opts, stats, err));
    CLIRR_TRY(clirr_buf_read(ctx, level, 0, (size_t)g->n * sizeof(uint32_t), level_out, err));
    CLIRR_TRY(clirr_run_stop(ctx, start, stats, err));
    clirr_run_count_reached(g, (const uint32_t *)level_out, NONE, stats);
    CLIRR_TRY(clirr_variant_loop_child_launches(&vl, &stats->child_launches, err));
fail:
    clirr_variant_loop_release(&vl);
    clirr_dgraph_release(&dg);
    clirr_mem_release(&level);
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "bfs (%s, %s) on %s", clirr_variant_name(opts->variant),
                           clirr_template_name(cfg.tmpl), clirr_ctx_caps(ctx)->name);
    return rc;
}
