/* host/algo/pagerank.c - PageRank on the device by Jacobi iteration in pull
 * form over the transpose graph (kernels: cl/pagerank.cl; nested-loop
 * study, shared/papers/001), one vertex's in-arcs a nested-loop item
 * through the run's template. The same recurrence, start and stopping rule
 * as the reference (host/ref/pagerank.c): r = 1/n; each iteration
 * r' = (1-d)/n + d (sum over in-arcs u of r(u)/outdeg(u) + dangling/n);
 * stop when |r' - r|_1 < tol or after max_iter iterations. */
#include "algo/dgraph.h"
#include "algo/run.h"
#include "prim/prim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PARAMS 9 /* trow, tcol, contrib, r, rnew, diff, base, damping, n */

int clirr_pagerank(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, double *rank,
                   clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_graph t = {0};
    clirr_dgraph dg, dt;
    clirr_nl_config cfg;
    clirr_nl nl;
    cl_mem r = NULL, rnew = NULL, contrib = NULL, dangling = NULL, diff = NULL;
    cl_kernel prep = NULL;
    double *start_r = NULL;
    memset(&dg, 0, sizeof dg);
    memset(&dt, 0, sizeof dt);
    memset(&cfg, 0, sizeof cfg);
    memset(&nl, 0, sizeof nl);
    memset(stats, 0, sizeof *stats);
    if (!(opts->damping >= 0 && opts->damping <= 1) || !(opts->tol >= 0) || !isfinite(opts->tol))
        return clirr_fail(err, CLIRR_ERR_USAGE, "pagerank: damping must be in [0, 1] and tol >= 0");
    if (g->n == 0)
        return clirr_fail(err, CLIRR_ERR_USAGE, "pagerank: the graph has no vertices");
    CLIRR_TRY(clirr_run_require_fp64(ctx, "PageRank", err));
    clirr_run_template(clirr_ctx_caps(ctx), "pagerank", opts, g->n, sizeof(double), &cfg, stats);
    /* The pull form needs in-arcs: the transpose, built on the host as part
     * of preparing the input. */
    CLIRR_TRY(clirr_graph_transpose(g, &t, err));
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(ctx, "pagerank.cl", "", &prog, err));
    CLIRR_TRY(clirr_kernel_get(ctx, prog, "pr_prepare", &prep, err));
    CLIRR_TRY(clirr_nl_init(&nl, ctx, prog, "pr_pull", PARAMS, g->n, &cfg, err));
    stats->wg_size = (unsigned)nl.wg;
    size_t wg_prep = clirr_wg_size(ctx, prep, opts->wg_size);
    size_t vbytes = (size_t)g->n * sizeof(double);
    if (!(start_r = malloc(vbytes + sizeof(double)))) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (uint32_t v = 0; v < g->n; v++)
        start_r[v] = 1.0 / g->n;

    uint64_t start = clirr_run_start(ctx);
    CLIRR_TRY(clirr_dgraph_upload(ctx, g, false, &dg, err));
    CLIRR_TRY(clirr_dgraph_upload(ctx, &t, false, &dt, err));
    CLIRR_TRY(clirr_buf_create(ctx, "PageRank scores", vbytes, &r, err));
    CLIRR_TRY(clirr_buf_create(ctx, "PageRank new scores", vbytes, &rnew, err));
    CLIRR_TRY(clirr_buf_create(ctx, "PageRank contributions", vbytes, &contrib, err));
    CLIRR_TRY(clirr_buf_create(ctx, "PageRank dangling mass", vbytes, &dangling, err));
    CLIRR_TRY(clirr_buf_create(ctx, "PageRank changes", vbytes, &diff, err));
    CLIRR_TRY(clirr_buf_write(ctx, r, 0, vbytes, start_r, err));
    CLIRR_TRY(CLIRR_ARG(prep, 0, dg.row));
    CLIRR_TRY(CLIRR_ARG(prep, 2, contrib));
    CLIRR_TRY(CLIRR_ARG(prep, 3, dangling));
    CLIRR_TRY(CLIRR_ARG(prep, 4, g->n));
    const cl_kernel *k;
    unsigned nk = clirr_nl_kernels(&nl, &k);
    cl_uint next = 0;
    CLIRR_TRY(clirr_dgraph_bind_all(&dt, k, nk, 0, false, &next, err));
    CLIRR_TRY(CLIRR_NL_ARG(&nl, next, contrib));
    CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 3, diff));
    CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 5, opts->damping));
    CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 6, g->n));
    for (uint32_t it = 0; it < opts->max_iter; it++) {
        double dsum = 0, l1 = 0;
        CLIRR_TRY(CLIRR_ARG(prep, 1, r));
        CLIRR_TRY(clirr_launch(ctx, prep, g->n, wg_prep, err));
        CLIRR_TRY(clirr_prim_sum_f64(ctx, dangling, g->n, &dsum, err));
        double base = (1.0 - opts->damping) / g->n + opts->damping * dsum / g->n;
        CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 1, r));
        CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 2, rnew));
        CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 4, base));
        CLIRR_TRY(clirr_nl_run(&nl, g->n, err));
        CLIRR_TRY(clirr_prim_sum_f64(ctx, diff, g->n, &l1, err));
        cl_mem swap = r;
        r = rnew;
        rnew = swap;
        stats->iterations++;
        if (l1 < opts->tol)
            break;
    }
    CLIRR_TRY(clirr_buf_read(ctx, r, 0, vbytes, rank, err));
    CLIRR_TRY(clirr_run_stop(ctx, start, stats, err));
    stats->reached = g->n;
    stats->edges_traversed = (uint64_t)g->m * stats->iterations;
    CLIRR_TRY(clirr_nl_child_launches(&nl, &stats->child_launches, err));
fail:
    clirr_nl_release(&nl);
    clirr_dgraph_release(&dg);
    clirr_dgraph_release(&dt);
    clirr_mem_release(&r);
    clirr_mem_release(&rnew);
    clirr_mem_release(&contrib);
    clirr_mem_release(&dangling);
    clirr_mem_release(&diff);
    clirr_graph_free(&t);
    free(start_r);
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "pagerank (%s) on %s", clirr_template_name(cfg.tmpl), clirr_ctx_caps(ctx)->name);
    return rc;
}
