/* host/cli/bench.h - what `clirr bench` runs and what it found; shared by
 * cmd_bench.c (options, the run loop) and bench_report.c (tables, ratios,
 * CSV, JSON). */
#ifndef CLIRR_CLI_BENCH_H
#define CLIRR_CLI_BENCH_H

#include "cli.h"
#include "lists.h"
#include "measure.h"

#define BENCH_MAX_INPUTS 32
#define BENCH_MAX_ALGOS 8
#define BENCH_MAX_TEMPLATES (CLIRR_TEMPLATE_COUNT_ + 1)
#define BENCH_MAX_THRES 16

typedef struct bench_input {
    const char *file, *spec;
    clirr_graph g;
    double *x; /* SpMV vector from --vector, or NULL */
} bench_input;

typedef struct bench_config {
    const cli_algo *algos[BENCH_MAX_ALGOS];
    size_t nalgos;
    bench_input inputs[BENCH_MAX_INPUTS];
    size_t ninputs;
    bool symmetrize, verify;
    clirr_variant variants[CLIRR_VARIANT_COUNT_];
    size_t nvariants;
    clirr_push_mode pushes[CLIRR_PUSH_COUNT_];
    size_t npushes;
    int templates[BENCH_MAX_TEMPLATES]; /* CLI_TEMPLATE_AUTO or a clirr_template */
    size_t ntemplates;
    uint32_t thres[BENCH_MAX_THRES];    /* empty = the default */
    size_t nthres;
    clirr_algo_opts params; /* source, BC sources, PageRank and SpMV settings */
    const char *vector_file;
    unsigned repeat, warmup;
    const char *selector, *csv, *json;
} bench_config;

typedef struct bench_row {
    size_t input;
    int tmpl;        /* as asked: CLI_TEMPLATE_AUTO or a clirr_template */
    uint32_t thres;  /* as asked: 0 = default */
    bool skipped;    /* the device cannot run the template */
    cli_result res;
} bench_row;

const char *bench_input_name(const bench_input *in);

/* The table, then the data/topo ratios, the speedups over baseline and
 * whether auto picked the fastest. */
void bench_print(const bench_config *cfg, const bench_row *rows, size_t nrows);

void bench_write_csv(FILE *f, const bench_config *cfg, const bench_row *rows, size_t nrows);

void bench_write_json(FILE *f, const bench_config *cfg, const bench_row *rows, size_t nrows,
                      int argc, char **argv, const clirr_device *devs, const size_t *picked,
                      size_t ndev);

#endif
