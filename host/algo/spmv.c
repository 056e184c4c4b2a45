/* host/algo/spmv.c - y = A x on the device over the graph's CSR matrix
 * (kernels: cl/spmv.cl; nested-loop study, shared/papers/001): one row a
 * nested-loop item through the run's template. Entries are the graph's
 * real values, else its weights, else 1. */
#include "algo/dgraph.h"
#include "algo/run.h"

#include <stdlib.h>
#include <string.h>

#define PARAMS 6 /* row, col, val, x, y, n */

int clirr_spmv(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, double *y,
               clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_dgraph dg;
    clirr_nl_config cfg;
    clirr_nl nl;
    cl_mem val = NULL, x = NULL, yd = NULL;
    double *host_val = NULL, *ones = NULL;
    memset(&dg, 0, sizeof dg);
    memset(&cfg, 0, sizeof cfg);
    memset(&nl, 0, sizeof nl);
    memset(stats, 0, sizeof *stats);
    CLIRR_TRY(clirr_run_require_fp64(ctx, "SpMV", err));
    clirr_run_template(clirr_ctx_caps(ctx), "spmv", opts, g->n, sizeof(double), &cfg, stats);

    /* Entries as doubles: the values, else the weights converted. */
    bool unit = !g->value && !g->weight;
    const double *entries = g->value;
    if (!g->value && g->weight) {
        if (!(host_val = malloc(((size_t)g->m + 1) * sizeof *host_val))) {
            rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for SpMV entries");
            goto fail;
        }
        for (uint32_t e = 0; e < g->m; e++)
            host_val[e] = g->weight[e];
        entries = host_val;
    }
    const double *xv = opts->x;
    if (!xv) {
        if (!(ones = malloc(((size_t)g->n + 1) * sizeof *ones))) {
            rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for x");
            goto fail;
        }
        for (uint32_t i = 0; i < g->n; i++)
            ones[i] = 1.0;
        xv = ones;
    }
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(ctx, "spmv.cl", unit ? "-DSPMV_UNIT" : "", &prog, err));
    CLIRR_TRY(clirr_nl_init(&nl, ctx, prog, "spmv_rows", PARAMS, g->n, &cfg, err));
    stats->wg_size = (unsigned)nl.wg;

    uint64_t start = clirr_run_start(ctx);
    size_t vbytes = (size_t)g->n * sizeof(double);
    CLIRR_TRY(clirr_dgraph_upload(ctx, g, false, &dg, err));
    CLIRR_TRY(clirr_buf_create(ctx, "the matrix entries", unit ? 0 : (size_t)g->m * sizeof(double), &val, err));
    CLIRR_TRY(clirr_buf_create(ctx, "x", vbytes, &x, err));
    CLIRR_TRY(clirr_buf_create(ctx, "y", vbytes, &yd, err));
    if (!unit)
        CLIRR_TRY(clirr_buf_write(ctx, val, 0, (size_t)g->m * sizeof(double), entries, err));
    CLIRR_TRY(clirr_buf_write(ctx, x, 0, vbytes, xv, err));
    const cl_kernel *k;
    unsigned nk = clirr_nl_kernels(&nl, &k);
    cl_uint next = 0;
    CLIRR_TRY(clirr_dgraph_bind_all(&dg, k, nk, 0, false, &next, err));
    CLIRR_TRY(CLIRR_NL_ARG(&nl, next, val));
    CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 1, x));
    CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 2, yd));
    CLIRR_TRY(CLIRR_NL_ARG(&nl, next + 3, g->n));
    CLIRR_TRY(clirr_nl_run(&nl, g->n, err));
    stats->iterations = 1;
    CLIRR_TRY(clirr_buf_read(ctx, yd, 0, vbytes, y, err));
    CLIRR_TRY(clirr_run_stop(ctx, start, stats, err));
    stats->reached = g->n;
    stats->edges_traversed = g->m;
    CLIRR_TRY(clirr_nl_child_launches(&nl, &stats->child_launches, err));
fail:
    clirr_nl_release(&nl);
    clirr_dgraph_release(&dg);
    clirr_mem_release(&val);
    clirr_mem_release(&x);
    clirr_mem_release(&yd);
    free(host_val);
    free(ones);
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "spmv (%s) on %s", clirr_template_name(cfg.tmpl), clirr_ctx_caps(ctx)->name);
    return rc;
}
