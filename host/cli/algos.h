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
    size_t value_size;   /* bytes of result per vertex */
    bool uses_source;    /* reads opts->source */
    unsigned variants;   /* bit v set: runs variant v; 0 = has no variants */
    bool uses_push;      /* has a worklist (data-driven rounds), so a push mode */
    int (*run)(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, void *out,
               clirr_algo_stats *stats, clirr_error *err);
    int (*reference)(const clirr_graph *g, const clirr_algo_opts *opts, void *out, clirr_error *err);
    bool (*verify)(const clirr_graph *g, const clirr_algo_opts *opts, const void *expected,
                   const void *got, clirr_verify_report *report);
    /* One --output line for vertex v (without the newline). */
    void (*write_value)(FILE *f, const void *result, uint32_t v);
} cli_algo;

/* Whether two option sets give the same run of algo (options it does not
 * read differ only): run and bench run such a pair once. */
bool cli_algo_same_run(const cli_algo *algo, const clirr_algo_opts *a, const clirr_algo_opts *b);

/* Whether algo runs variant v (an algorithm without variants runs any). */
bool cli_algo_has_variant(const cli_algo *algo, clirr_variant v);

/* Whether the variant / push mode of opts means anything for algo (for
 * tables: "-" otherwise). */
bool cli_algo_shows_variant(const cli_algo *algo);
bool cli_algo_shows_push(const cli_algo *algo, const clirr_algo_opts *opts);

/* The algorithm called name, or NULL. */
const cli_algo *cli_algo_find(const char *name);

/* The i-th algorithm of the table, or NULL past its end. */
const cli_algo *cli_algo_at(size_t i);

/* "bfs, sssp, ..." for messages. */
const char *cli_algo_names(void);

#endif
