/* host/cli/measure.h - the one benchmark loop (after GAPBS's
 * benchmark.h): warm-up runs, timed trials, median/min/max, verification
 * kept out of the timed part. `run` and `bench` both use it. */
#ifndef CLIRR_CLI_MEASURE_H
#define CLIRR_CLI_MEASURE_H

#include "algos.h"

/* Median, fastest and slowest of the trials, in milliseconds. */
typedef struct cli_spread {
    double median, min, max;
} cli_spread;

typedef struct cli_result {
    const cli_algo *algo;
    const clirr_device *device;
    clirr_algo_opts opts;
    int status;               /* CLIRR_OK or the failure's status */
    char error[CLIRR_MSG_MAX];
    unsigned trials;
    clirr_algo_stats stats;   /* of the last trial */
    cli_spread total_ms, kernel_ms, transfer_ms;
    int verified;             /* 1 yes, 0 no, -1 not checked */
    char verify_text[1024];
} cli_result;

/* Run algo `warmup` times untimed, then `repeat` times timed, leaving the
 * last result in out (n values of algo->value_size bytes); verify it
 * against expected when expected is not NULL. Fills res; returns res->status. */
int cli_measure(clirr_ctx *ctx, const clirr_device *dev, const cli_algo *algo,
                const clirr_graph *g, const clirr_algo_opts *opts, unsigned warmup,
                unsigned repeat, const void *expected, void *out, cli_result *res);

/* Millions of traversed arcs per second over a time in milliseconds. */
double cli_mteps(const cli_result *res, double ms);

#endif
