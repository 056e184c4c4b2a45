/* host/cli/measure.c - timed trials of one algorithm on one device. */
#include "measure.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static cli_spread spread(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    cli_spread s = {v[n / 2], v[0], v[n - 1]};
    if (n % 2 == 0)
        s.median = (v[n / 2 - 1] + v[n / 2]) / 2;
    return s;
}

int cli_measure(clirr_ctx *ctx, const clirr_device *dev, const cli_algo *algo,
                const clirr_graph *g, const clirr_algo_opts *opts, unsigned warmup,
                unsigned repeat, const void *expected, void *out, cli_result *res)
{
    memset(res, 0, sizeof *res);
    res->algo = algo;
    res->device = dev;
    res->opts = *opts;
    res->verified = -1;
    double *t = calloc(3 * (size_t)(repeat ? repeat : 1), sizeof *t);
    if (!t) {
        res->status = CLIRR_ERR_NOMEM;
        snprintf(res->error, sizeof res->error, "out of memory");
        return res->status;
    }
    double *total = t, *kernel = t + repeat, *transfer = t + 2 * repeat;
    clirr_error err;
    clirr_error_clear(&err);
    int rc = CLIRR_OK;
    for (unsigned i = 0; i < warmup + repeat && rc == CLIRR_OK; i++) {
        rc = algo->run(ctx, g, opts, out, &res->stats, &err);
        if (rc == CLIRR_OK && i >= warmup) {
            unsigned k = i - warmup;
            total[k] = res->stats.total_ns / 1e6;
            kernel[k] = res->stats.kernel_ns / 1e6;
            transfer[k] = res->stats.transfer_ns / 1e6;
        }
    }
    res->status = rc;
    if (rc != CLIRR_OK) {
        memcpy(res->error, err.msg, sizeof res->error);
        free(t);
        return rc;
    }
    res->trials = repeat;
    res->total_ms = spread(total, repeat);
    res->kernel_ms = spread(kernel, repeat);
    res->transfer_ms = spread(transfer, repeat);
    free(t);
    if (expected) {
        clirr_verify_report report;
        res->verified = algo->verify(g, opts, expected, out, &report);
        snprintf(res->verify_text, sizeof res->verify_text, "%s", report.text);
    }
    return CLIRR_OK;
}

double cli_mteps(const cli_result *res, double ms)
{
    return ms > 0 ? (double)res->stats.edges_traversed / (ms * 1e3) : 0;
}
