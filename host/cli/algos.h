/* host/cli/algos.h - the algorithms the command line can run: how to run
 * each on a device, compute its reference, verify and print a result.
 * `run` and `bench` both go through this one table. */
#ifndef CLIRR_CLI_ALGOS_H
#define CLIRR_CLI_ALGOS_H

#include "clirr/clirr.h"
#include "ref/ref.h"

#include <stdio.h>

typedef struct cli_algo {
    const char *name;
    size_t value_size; /* bytes of result per vertex */
    int (*run)(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, void *out,
               clirr_algo_stats *stats, clirr_error *err);
    int (*reference)(const clirr_graph *g, uint32_t source, void *out, clirr_error *err);
    bool (*verify)(const clirr_graph *g, uint32_t source, const void *expected, const void *got,
                   clirr_verify_report *report);
    /* One --output line for vertex v (without the newline). */
    void (*write_value)(FILE *f, const void *result, uint32_t v);
} cli_algo;

/* The algorithm called name, or NULL. */
const cli_algo *cli_algo_find(const char *name);

/* The i-th algorithm of the table, or NULL past its end. */
const cli_algo *cli_algo_at(size_t i);

/* "bfs, sssp" for messages. */
const char *cli_algo_names(void);

#endif
