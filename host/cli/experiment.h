/* host/cli/experiment.h - the one experiment driver behind `run` and
 * `bench` (after GAPBS's benchmark loop): what to run (options.c), the
 * case matrix and its execution (driver.c), and what each case found,
 * streamed to the outputs (table.c, json_out.c) as it finishes. */
#ifndef CLIRR_CLI_EXPERIMENT_H
#define CLIRR_CLI_EXPERIMENT_H

#include "cli.h"

#define EXP_MAX_INPUTS 64
#define EXP_MAX_LIST 16     /* values of one list option */
#define EXP_MAX_PARAM_OPTS 64

/* An input named on the command line. */
typedef struct exp_input {
    clirr_input_kind kind;  /* of the file (--graph, --list, --tree) or of the spec */
    const char *file, *spec;
    clirr_input *in;        /* NULL when it failed to load */
    int status;             /* its load status */
    char error[CLIRR_MSG_MAX];
    uint32_t *roots;        /* single-source roots picked on it */
    uint32_t nroots;
} exp_input;

/* A descriptor parameter given on the command line: its name and the
 * values (texts) asked for; algorithms that have a parameter of that name
 * use them. */
typedef struct exp_param_opt {
    const char *name;
    const char *values[EXP_MAX_LIST];
    size_t nvalues;
} exp_param_opt;

typedef struct exp_config {
    const char *command;    /* "run", "bench" or "profile" */
    bool bench;             /* bench's defaults and summaries */
    bool profile;           /* instrumented runs: irregularity per kernel */
    clirr_irr_options irr;  /* profile's model parameters */
    const clirr_algo *algos[32];
    size_t nalgos;
    exp_input inputs[EXP_MAX_INPUTS];
    size_t ninputs;
    bool symmetrize;
    uint32_t root;          /* --root: the root of every tree input */
    bool root_given;
    const char *selector;
    const char *variants[EXP_MAX_LIST]; /* names; "all" = every variant */
    size_t nvariants;
    bool variants_given;    /* by --variant (else the command's default) */
    clirr_push_mode pushes[CLIRR_PUSH_COUNT_];
    size_t npushes;
    int templates[CLIRR_TEMPLATE_COUNT_ + 1]; /* -1 = auto */
    size_t ntemplates;
    uint32_t lb_thres[EXP_MAX_LIST];  /* empty = the plan's choice */
    size_t nlb_thres;
    uint32_t wg_sizes[EXP_MAX_LIST];  /* empty = default */
    size_t nwg_sizes;
    unsigned group_wg, coarsen;
    size_t wl_capacity;
    int64_t local_rounds;     /* --local-rounds: -1 auto, 0 off */
    int64_t queue_rounds;     /* --queue-rounds: -1 auto, 0 off */
    bool fixed_grid;          /* --grid fixed */
    clirr_upload_mode upload; /* --upload */
    bool no_huge_pages;       /* --huge-pages off */
    clirr_reorder reorder;    /* --reorder */
    clirr_source_spec source;
    bool source_given;
    exp_param_opt params[EXP_MAX_PARAM_OPTS];
    size_t nparams;
    bool verify;
    unsigned repeat, warmup;
    /* outputs */
    bool json;              /* JSON document instead of the table */
    const char *json_file;  /* the JSON document to a file as well */
    const char *csv_file;
    const char *trace_file; /* --trace: per-round rows (BFS, SSSP) */
    const char *output;     /* --output: the result values of the one case */
    bool explain, kernels, wide, progress;
    int argc;
    char **argv;            /* as given (a copy: getopt reorders argv) */
} exp_config;

typedef struct exp_spread {
    double median, min, max;
} exp_spread;

/* One case of the matrix and what it found. */
typedef struct exp_row {
    size_t index;           /* 1-based position in the matrix */
    size_t input;
    const clirr_device *device;
    const clirr_algo *algo;
    clirr_intent intent;    /* as asked */
    clirr_plan plan;        /* as planned (valid when planned) */
    bool planned;
    uint32_t source;        /* single-source root, or the first root */
    int status;             /* CLIRR_OK or the failure's */
    bool skipped;           /* bench: the device cannot run what was asked */
    char error[CLIRR_MSG_MAX];
    clirr_prepare_times prep;
    double warmup_ms;       /* the untimed trials, together (drivers that
                             * compile at first launch show it here) */
    unsigned trials;
    exp_spread total_ms, kernel_ms, transfer_ms;
    exp_spread kernel_timed_total_ms; /* total of the trials that timed the kernels */
    clirr_stats stats;      /* of the last trial */
    clirr_kernel_time kernels[CLIRR_MAX_TIMED_KERNELS]; /* per trial, averaged */
    size_t nkernels;
    clirr_extras extras;
    int verified;           /* 1 yes, 0 no, -1 not checked */
    char verify_text[1024];
    double reference_ms;    /* the serial reference, 0 when not run */
    bool irr_taken;         /* profile: irr holds the case's counts */
    clirr_irr_report irr;
} exp_row;

/* Parse run's or bench's options into cfg; 0 = go on, otherwise the exit
 * code (after --help: -1 for 0). */
int exp_parse(exp_config *cfg, int argc, char **argv);
void exp_config_free(exp_config *cfg);

/* Run the whole matrix, streaming each row to the outputs; returns the
 * exit code, worst outcome first (3 device error > 2 bad input or usage >
 * 1 verification failed > 0). */
int exp_run(exp_config *cfg);

/* Outputs (table.c, json_out.c). A sink gets the rows as they finish. */
typedef struct exp_outputs exp_outputs;
int exp_outputs_open(exp_outputs **out, const exp_config *cfg, const clirr_device *devs,
                     const size_t *picked, size_t ndev);
void exp_outputs_input(exp_outputs *out, const exp_config *cfg, size_t input);
void exp_outputs_row(exp_outputs *out, const exp_config *cfg, const exp_row *row);
/* A failure outside any case (an input that did not load). */
void exp_outputs_error(exp_outputs *out, const char *what, int status, const char *msg);
/* Close: summaries (bench), the JSON document's end; returns 0 or the
 * exit code of a write error. */
int exp_outputs_close(exp_outputs *out, const exp_config *cfg, const exp_row *rows, size_t nrows);

/* Shared text helpers. */
const char *exp_input_name(const exp_config *cfg, size_t input);
const char *exp_push_text(const exp_row *r);     /* "-" without a worklist */
const char *exp_verified_text(const exp_row *r); /* yes, NO, -, error, skip */
/* s as one CSV field: quoted (quotes doubled) when it holds a comma, a
 * quote or a newline. */
void exp_csv_field(FILE *f, const char *s);
void exp_template_text(const exp_row *r, char *buf, size_t size); /* dbuf-shared/32 */
double exp_mteps(const exp_row *r, double ms);


/* profile's outputs (profile_out.c): lines under a case's table row, the
 * CSV (one row per kernel and case, and an "all" row), the JSON part. */
void prof_table(const exp_config *cfg, const exp_row *r);
void prof_report_table(const clirr_irr_report *p);
/* One CSV row of a case (an algorithm's or a calibration kernel's). */
typedef struct prof_case {
    size_t index;
    const clirr_caps *caps;
    const char *input, *algo, *variant, *push, *tmpl;
    unsigned lb_thres;
    int verified;           /* 1, 0, -1 not checked */
    const char *status;     /* "ok" or the error */
} prof_case;
void prof_csv_line(FILE *f, const prof_case *c, const clirr_irr_report *p, const clirr_irr_kernel *k);
void prof_csv_header(FILE *f);
void prof_csv_row(FILE *f, const exp_config *cfg, const exp_row *r);
json_object *prof_json(const exp_row *r);
/* profile's option help (options.c prints it). */
void prof_help(void);

/* --explain: the plan of a case and why (explain.c). */
void exp_explain(FILE *f, const exp_config *cfg, const exp_row *r);

#endif
