/* host/algo/sssp.c - single-source shortest paths on the device,
 * topology-driven (Bellman-Ford rounds with non-atomic monotone updates) or
 * data-driven (worklist of improved vertices, atomic_min); kernels in
 * cl/sssp.cl, study shared/papers/000. Distances are uint32 with
 * CLIRR_SSSP_INF for unreached; an unweighted graph has unit weights. */
#include "algo/dgraph.h"
#include "algo/round.h"
#include "algo/run.h"
#include "prim/prim.h"
#include "prim/worklist.h"

#include <string.h>

#define NONE UINT32_MAX

static int check_weights(const clirr_graph *g, clirr_error *err)
{
    if (!g->weight)
        return CLIRR_OK;
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++)
            if (g->weight[e] < 0)
                return clirr_fail(err, CLIRR_ERR_INPUT,
                                  "negative weight %d on arc %u -> %u: shortest paths need "
                                  "non-negative weights", g->weight[e], u, g->col[e]);
    return CLIRR_OK;
}

/* status[0] = changed (topo), status[1] = a distance overflowed 32 bits. */
static int check_overflow(clirr_ctx *ctx, cl_mem status, clirr_error *err)
{
    uint32_t flags[2];
    int rc = clirr_buf_read(ctx, status, 0, sizeof flags, flags, err);
    if (rc == CLIRR_OK && flags[1])
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "a shortest distance exceeds 2^32-2: the weights are too large for "
                        "clirr's 32-bit distances");
    return rc;
}

#define TOPO_PARAMS 6  /* row, col, weight, dist, n, status */
#define DATA_PARAMS 13 /* row, col, weight, dist, status, WL_PARAMS (8) */

static int run_topo(clirr_ctx *ctx, clirr_nl *nl, const clirr_dgraph *dg, cl_mem dist,
                    cl_mem status, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    const cl_kernel *k;
    unsigned nk = clirr_nl_kernels(nl, &k);
    cl_uint next = 0;
    CLIRR_TRY(clirr_dgraph_bind_all(dg, k, nk, 0, true, &next, err));
    CLIRR_TRY(CLIRR_NL_ARG(nl, next, dist));
    CLIRR_TRY(CLIRR_NL_ARG(nl, next + 1, dg->n));
    CLIRR_TRY(CLIRR_NL_ARG(nl, next + 2, status));
    for (;;) {
        uint32_t flags[2] = {0, 0};
        CLIRR_TRY(clirr_buf_write(ctx, status, 0, sizeof flags[0], flags, err));
        CLIRR_TRY(clirr_nl_run(nl, dg->n, err));
        CLIRR_TRY(clirr_buf_read(ctx, status, 0, sizeof flags, flags, err));
        stats->iterations++;
        if (flags[1] || !flags[0])
            break;
    }
fail:
    return rc;
}

static int run_data(clirr_ctx *ctx, clirr_round_loop *rl, const clirr_dgraph *dg, cl_mem dist,
                    cl_mem status, const clirr_algo_opts *opts, clirr_algo_stats *stats,
                    clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_worklist wl;
    memset(&wl, 0, sizeof wl);
    CLIRR_TRY(clirr_worklist_init(&wl, ctx, dg->n, opts->wl_capacity, CLIRR_PUSH_SCAN, err));
    cl_uint next = 0;
    CLIRR_TRY(clirr_round_loop_bind_graph(rl, dg, true, &next, err));
    CLIRR_TRY(CLIRR_ROUND_ARG(rl, next, dist));
    CLIRR_TRY(CLIRR_ROUND_ARG(rl, next + 1, status));
    CLIRR_TRY(clirr_worklist_reset(&wl, &opts->source, 1, err));
    while (clirr_worklist_size(&wl) > 0) {
        CLIRR_TRY(clirr_round_loop_run(rl, &wl, err));
        stats->iterations++;
    }
    clirr_run_worklist_stats(&wl, stats);
fail:
    clirr_worklist_release(&wl);
    return rc;
}

int clirr_sssp(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts,
               uint32_t *dist_out, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    bool topo = opts->variant == CLIRR_VARIANT_TOPO;
    clirr_dgraph dg;
    cl_mem dist = NULL, status = NULL;
    clirr_nl_config cfg;
    clirr_variant_loop vl;
    memset(&dg, 0, sizeof dg);
    memset(&cfg, 0, sizeof cfg);
    memset(&vl, 0, sizeof vl);
    memset(stats, 0, sizeof *stats);
    if (opts->variant > CLIRR_VARIANT_DATA)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s has no variant %s (topo or data)", "sssp",
                          clirr_variant_name(opts->variant));
    CLIRR_TRY(clirr_run_check_source(g, opts->source, err));
    CLIRR_TRY(check_weights(g, err));
    clirr_run_template(clirr_ctx_caps(ctx), "sssp", opts, g->n, 0, &cfg, stats);

    /* Set up (build, template buffers) before the clock starts. */
    const char *options = g->weight ? "" : "-DCLIRR_UNIT_WEIGHTS";
    CLIRR_TRY(clirr_variant_loop_init(&vl, ctx, "sssp.cl", options, "sssp_topo", TOPO_PARAMS, "sssp_data",
                                      DATA_PARAMS, g->n, opts, &cfg, stats, err));

    uint64_t start = clirr_run_start(ctx);
    CLIRR_TRY(clirr_dgraph_upload(ctx, g, true, &dg, err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP distances", (size_t)g->n * sizeof(uint32_t), &dist, err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP status flags", 2 * sizeof(uint32_t), &status, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, status, 0, 2, 0, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, dist, 0, g->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, dist, opts->source, 1, 0, err));
    if (topo)
        CLIRR_TRY(run_topo(ctx, &vl.nl, &dg, dist, status, stats, err));
    else
        CLIRR_TRY(run_data(ctx, &vl.rl, &dg, dist, status, opts, stats, err));
    CLIRR_TRY(check_overflow(ctx, status, err));
    CLIRR_TRY(clirr_buf_read(ctx, dist, 0, (size_t)g->n * sizeof(uint32_t), dist_out, err));
    CLIRR_TRY(clirr_run_stop(ctx, start, stats, err));
    clirr_run_count_reached(g, dist_out, NONE, stats);
    CLIRR_TRY(clirr_variant_loop_child_launches(&vl, &stats->child_launches, err));
fail:
    clirr_variant_loop_release(&vl);
    clirr_dgraph_release(&dg);
    clirr_mem_release(&dist);
    clirr_mem_release(&status);
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "sssp (%s, %s) on %s", clirr_variant_name(opts->variant),
                           clirr_template_name(cfg.tmpl), clirr_ctx_caps(ctx)->name);
    return rc;
}
