/* host/cli/cmd_bench.c - `clirr bench`: a matrix of algorithms x inputs x
 * devices x variants (x push modes), each timed over repeated trials after
 * warm-up, verified once, and reported with median/min/max, MTEPS and the
 * ratios between variants taken within the same run. CSV and JSON carry
 * what makes the numbers reproducible (command, commit, devices, drivers,
 * inputs, repetitions). */
#include "algos.h"
#include "cli.h"
#include "input.h"
#include "lists.h"
#include "measure.h"
#include "report.h"

#include "clirr_config.h"
#include "clirr_vcs.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_INPUTS 32
#define MAX_ALGOS 8

static void print_help(void)
{
    printf("usage: clirr bench [options] (--graph FILE | --gen SPEC)...\n"
           "\n"
           "Times every algorithm x input x device x variant x push mode, each over\n"
           "--repeat trials after --warmup untimed runs, verifies each once against the\n"
           "CPU reference, and prints median [min-max] kernel and end-to-end times,\n"
           "MTEPS, and the data-driven/topology-driven ratio of every case.\n"
           "\n"
           "  --algo A[,A]       algorithms (default: %s)\n"
           "  --graph FILE       an input file (repeatable)\n"
           "  --gen SPEC         a generated input (repeatable)\n"
           "  --symmetrize       add the reverse of every arc of every input\n"
           "  --device SEL       devices (default all)\n"
           "  --variant V[,V]    topo, data or all (default all)\n"
           "  --push M[,M]       data-driven push modes: atomic, chunk, scan, auto, all\n"
           "                     (default auto)\n"
           "  --source N         source vertex (default 0)\n"
           "  --repeat N         timed trials per case (default 5)\n"
           "  --warmup N         untimed runs first (default 1)\n"
           "  --no-verify        skip verification\n"
           "  --csv FILE         also write one CSV row per case ('-' = stdout)\n"
           "  --json FILE        also write the whole run as JSON ('-' = stdout)\n",
           cli_algo_names());
}

typedef struct bench_input {
    const char *file, *spec;
    clirr_graph g;
} bench_input;

typedef struct bench_config {
    const cli_algo *algos[MAX_ALGOS];
    size_t nalgos;
    bench_input inputs[MAX_INPUTS];
    size_t ninputs;
    bool symmetrize, verify;
    clirr_variant variants[CLIRR_VARIANT_COUNT_];
    size_t nvariants;
    clirr_push_mode pushes[CLIRR_PUSH_COUNT_];
    size_t npushes;
    uint32_t source;
    unsigned repeat, warmup;
    const char *selector, *csv, *json;
} bench_config;

typedef struct bench_row {
    size_t input;
    cli_result res;
} bench_row;

static const char *input_name(const bench_input *in) { return in->file ? in->file : in->spec; }

static FILE *open_out(const char *path)
{
    if (!strcmp(path, "-"))
        return stdout;
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "clirr bench: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static void close_out(FILE *f)
{
    if (f && f != stdout)
        fclose(f);
}

/* Quote a CSV field when it holds a comma or quote. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_csv(FILE *f, const bench_config *cfg, const bench_row *rows, size_t nrows)
{
    fprintf(f, "device,platform,driver,input,nodes,edges,algorithm,variant,push,template,iterations,"
               "trials,kernel_ms_median,kernel_ms_min,kernel_ms_max,total_ms_median,total_ms_min,"
               "total_ms_max,transfer_ms_median,mteps_kernel,mteps_total,verified,error\n");
    for (size_t i = 0; i < nrows; i++) {
        const cli_result *r = &rows[i].res;
        const bench_input *in = &cfg->inputs[rows[i].input];
        csv_field(f, r->device->caps.name);
        fputc(',', f);
        csv_field(f, r->device->caps.platform);
        fputc(',', f);
        csv_field(f, r->device->caps.driver);
        fputc(',', f);
        csv_field(f, input_name(in));
        fprintf(f, ",%u,%u,%s,%s,%s,%s,", in->g.n, in->g.m, r->algo->name,
                clirr_variant_name(r->opts.variant),
                r->opts.variant == CLIRR_VARIANT_DATA ? clirr_push_mode_name(r->opts.push) : "",
                r->stats.template_name ? r->stats.template_name : "baseline");
        if (r->status == CLIRR_OK)
            fprintf(f, "%u,%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%s,", r->stats.iterations,
                    r->trials, r->kernel_ms.median, r->kernel_ms.min, r->kernel_ms.max, r->total_ms.median,
                    r->total_ms.min, r->total_ms.max, r->transfer_ms.median,
                    cli_mteps(r, r->kernel_ms.median), cli_mteps(r, r->total_ms.median),
                    r->verified < 0 ? "" : r->verified ? "true" : "false");
        else
            fprintf(f, ",,,,,,,,,,,,");
        csv_field(f, r->status == CLIRR_OK ? "" : r->error);
        fputc('\n', f);
    }
}

/* The topo row matching a data row (same device, input, algorithm). */
static const bench_row *topo_of(const bench_row *rows, size_t nrows, const bench_row *d)
{
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].res.opts.variant == CLIRR_VARIANT_TOPO && rows[i].input == d->input &&
            rows[i].res.device == d->res.device && rows[i].res.algo == d->res.algo &&
            rows[i].res.status == CLIRR_OK)
            return &rows[i];
    return NULL;
}

static json_object *ratios_json(const bench_row *rows, size_t nrows, const bench_config *cfg)
{
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *d = &rows[i];
        const bench_row *t = d->res.opts.variant == CLIRR_VARIANT_DATA && d->res.status == CLIRR_OK
                                 ? topo_of(rows, nrows, d) : NULL;
        if (!t)
            continue;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "device", json_object_new_string(d->res.device->caps.name));
        json_object_object_add(o, "input", json_object_new_string(input_name(&cfg->inputs[d->input])));
        json_object_object_add(o, "algorithm", json_object_new_string(d->res.algo->name));
        json_object_object_add(o, "push", json_object_new_string(clirr_push_mode_name(d->res.opts.push)));
        json_object_object_add(o, "data_over_topo_kernel",
                               json_object_new_double(d->res.kernel_ms.median / t->res.kernel_ms.median));
        json_object_object_add(o, "data_over_topo_total",
                               json_object_new_double(d->res.total_ms.median / t->res.total_ms.median));
        json_object_array_add(arr, o);
    }
    return arr;
}

static void write_json(FILE *f, const bench_config *cfg, const bench_row *rows, size_t nrows,
                       int argc, char **argv, const clirr_device *devs, const size_t *picked, size_t ndev)
{
    json_object *root = json_object_new_object();
    json_object *meta = json_object_new_object();
    json_object *cmd = json_object_new_array();
    for (int i = 0; i < argc; i++)
        json_object_array_add(cmd, json_object_new_string(argv[i]));
    json_object_object_add(meta, "command", cmd);
    json_object_object_add(meta, "clirr_version", json_object_new_string(CLIRR_VERSION));
    json_object_object_add(meta, "git_commit", json_object_new_string(CLIRR_VCS_TAG));
    char when[64];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    json_object_object_add(meta, "date", json_object_new_string(when));
    json_object_object_add(meta, "repeat", json_object_new_int((int)cfg->repeat));
    json_object_object_add(meta, "warmup", json_object_new_int((int)cfg->warmup));
    json_object_object_add(meta, "source", json_object_new_int64(cfg->source));
    json_object *jd = json_object_new_array();
    for (size_t i = 0; i < ndev; i++)
        json_object_array_add(jd, cli_json_device(&devs[picked[i]].caps));
    json_object_object_add(meta, "devices", jd);
    json_object *ji = json_object_new_array();
    for (size_t i = 0; i < cfg->ninputs; i++) {
        cli_input in = {cfg->inputs[i].file, cfg->inputs[i].spec, cfg->symmetrize, &cfg->inputs[i].g};
        json_object_array_add(ji, cli_input_json(&in));
    }
    json_object_object_add(meta, "inputs", ji);
    json_object_object_add(root, "meta", meta);
    json_object *jr = json_object_new_array();
    for (size_t i = 0; i < nrows; i++) {
        const bench_input *b = &cfg->inputs[rows[i].input];
        cli_input in = {b->file, b->spec, cfg->symmetrize, &b->g};
        json_object_array_add(jr, cli_result_json(&rows[i].res, &in));
    }
    json_object_object_add(root, "results", jr);
    json_object_object_add(root, "ratios", ratios_json(rows, nrows, cfg));
    cli_json_print(f, root);
    json_object_put(root);
}

static void print_table(const bench_config *cfg, const bench_row *rows, size_t nrows)
{
    int w = 5; /* the input column fits the longest name, up to 60 */
    for (size_t i = 0; i < cfg->ninputs; i++) {
        int len = (int)strlen(input_name(&cfg->inputs[i]));
        w = len > w ? (len < 60 ? len : 60) : w;
    }
    printf("%-24s %-*s %-5s %-5s %-6s %6s %27s %27s %9s %9s %4s\n", "device", w, "input", "algo", "var",
           "push", "iters", "kernel ms median [min-max]", "total ms median [min-max]", "MTEPS k",
           "MTEPS e2e", "ok");
    for (size_t i = 0; i < nrows; i++) {
        const cli_result *r = &rows[i].res;
        char k[64], t[64];
        printf("%-24.24s %-*.*s %-5s %-5s %-6s ", r->device->caps.name, w, w,
               input_name(&cfg->inputs[rows[i].input]), r->algo->name, clirr_variant_name(r->opts.variant),
               r->opts.variant == CLIRR_VARIANT_DATA ? clirr_push_mode_name(r->opts.push) : "-");
        if (r->status != CLIRR_OK) {
            printf("%6s %27s %27s %9s %9s %4s\n", "-", "-", "-", "-", "-", "err");
            continue;
        }
        snprintf(k, sizeof k, "%.3f [%.3f-%.3f]", r->kernel_ms.median, r->kernel_ms.min, r->kernel_ms.max);
        snprintf(t, sizeof t, "%.3f [%.3f-%.3f]", r->total_ms.median, r->total_ms.min, r->total_ms.max);
        printf("%6u %27s %27s %9.1f %9.1f %4s\n", r->stats.iterations, k, t,
               cli_mteps(r, r->kernel_ms.median), cli_mteps(r, r->total_ms.median), cli_verified_text(r));
    }
    bool header = false;
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *d = &rows[i];
        const bench_row *t = d->res.opts.variant == CLIRR_VARIANT_DATA && d->res.status == CLIRR_OK
                                 ? topo_of(rows, nrows, d) : NULL;
        if (!t)
            continue;
        if (!header) {
            printf("\ndata-driven time / topology-driven time (below 1: data-driven is faster)\n");
            printf("%-24s %-*s %-5s %-6s %8s %8s\n", "device", w, "input", "algo", "push", "kernel", "total");
            header = true;
        }
        printf("%-24.24s %-*.*s %-5s %-6s %8.3f %8.3f\n", d->res.device->caps.name, w, w,
               input_name(&cfg->inputs[d->input]), d->res.algo->name, clirr_push_mode_name(d->res.opts.push),
               d->res.kernel_ms.median / t->res.kernel_ms.median, d->res.total_ms.median / t->res.total_ms.median);
    }
}

int cmd_bench(int argc, char **argv)
{
    enum { O_ALGO = 256, O_GRAPH, O_GEN, O_SYM, O_DEVICE, O_VARIANT, O_PUSH, O_SOURCE, O_REPEAT,
           O_WARMUP, O_NOVERIFY, O_CSV, O_JSON, O_HELP };
    static const struct option opts[] = {
        {"algo", required_argument, NULL, O_ALGO},       {"graph", required_argument, NULL, O_GRAPH},
        {"gen", required_argument, NULL, O_GEN},         {"symmetrize", no_argument, NULL, O_SYM},
        {"device", required_argument, NULL, O_DEVICE},   {"variant", required_argument, NULL, O_VARIANT},
        {"push", required_argument, NULL, O_PUSH},       {"source", required_argument, NULL, O_SOURCE},
        {"repeat", required_argument, NULL, O_REPEAT},   {"warmup", required_argument, NULL, O_WARMUP},
        {"no-verify", no_argument, NULL, O_NOVERIFY},    {"csv", required_argument, NULL, O_CSV},
        {"json", required_argument, NULL, O_JSON},       {"help", no_argument, NULL, O_HELP},
        {NULL, 0, NULL, 0},
    };
    bench_config *cfg = calloc(1, sizeof *cfg);
    if (!cfg)
        return 3;
    cfg->verify = true;
    cfg->repeat = 5;
    cfg->warmup = 1;
    cfg->selector = "all";
    unsigned long long v;
    const char *bad = NULL;
    int c, code = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case O_ALGO:
            if ((bad = cli_list_algos(optarg, cfg->algos, MAX_ALGOS, &cfg->nalgos)))
                code = cli_usage_error("bench", "unknown algorithm '%s' (known: %s)", bad, cli_algo_names());
            break;
        case O_VARIANT:
            if ((bad = cli_list_variants(optarg, cfg->variants, &cfg->nvariants)))
                code = cli_usage_error("bench", "unknown variant '%s' (topo, data or all)", bad);
            break;
        case O_PUSH:
            if ((bad = cli_list_pushes(optarg, cfg->pushes, &cfg->npushes)))
                code = cli_usage_error("bench", "unknown push mode '%s' (atomic, chunk, scan, auto, all)", bad);
            break;
        case O_GRAPH:
        case O_GEN:
            if (cfg->ninputs == MAX_INPUTS) {
                code = cli_usage_error("bench", "at most %d inputs", MAX_INPUTS);
                break;
            }
            cfg->inputs[cfg->ninputs].file = c == O_GRAPH ? optarg : NULL;
            cfg->inputs[cfg->ninputs++].spec = c == O_GEN ? optarg : NULL;
            break;
        case O_SYM: cfg->symmetrize = true; break;
        case O_DEVICE: cfg->selector = optarg; break;
        case O_SOURCE:
            if (!cli_parse_u64(optarg, 0, UINT32_MAX - 1, &v))
                code = cli_usage_error("bench", "--source needs a vertex number, not '%s'", optarg);
            cfg->source = (uint32_t)v;
            break;
        case O_REPEAT:
            if (!cli_parse_u64(optarg, 1, 100000, &v))
                code = cli_usage_error("bench", "--repeat needs a count from 1 to 100000, not '%s'", optarg);
            cfg->repeat = (unsigned)v;
            break;
        case O_WARMUP:
            if (!cli_parse_u64(optarg, 0, 100000, &v))
                code = cli_usage_error("bench", "--warmup needs a count from 0 to 100000, not '%s'", optarg);
            cfg->warmup = (unsigned)v;
            break;
        case O_NOVERIFY: cfg->verify = false; break;
        case O_CSV: cfg->csv = optarg; break;
        case O_JSON: cfg->json = optarg; break;
        case O_HELP: print_help(); free(cfg); return 0;
        default: code = cli_usage_error("bench", "unknown option");
        }
        if (code) {
            free(cfg);
            return code;
        }
    }
    if (optind < argc) {
        free(cfg);
        return cli_usage_error("bench", "unexpected argument '%s'", argv[optind]);
    }
    if (cfg->ninputs == 0) {
        free(cfg);
        return cli_usage_error("bench", "give at least one --graph FILE or --gen SPEC");
    }
    /* Defaults: every algorithm and variant, the automatic push. */
    if (!cfg->nalgos)
        cli_list_algos("all", cfg->algos, MAX_ALGOS, &cfg->nalgos);
    if (!cfg->nvariants)
        cli_list_variants("all", cfg->variants, &cfg->nvariants);
    if (!cfg->npushes)
        cli_list_pushes("auto", cfg->pushes, &cfg->npushes);

    clirr_error err;
    clirr_error_clear(&err);
    clirr_device *devs = NULL;
    size_t *picked = NULL, ndev = 0, nrows = 0;
    bench_row *rows = NULL;
    void *out = NULL, *expected = NULL;
    bool progress = isatty(STDERR_FILENO);
    int rc = cli_devices_pick(cfg->selector, &devs, &picked, &ndev, &err);
    for (size_t i = 0; rc == CLIRR_OK && i < cfg->ninputs; i++) {
        if (progress)
            fprintf(stderr, "loading %s ...\n", input_name(&cfg->inputs[i]));
        rc = cli_load_graph(cfg->inputs[i].file, cfg->inputs[i].spec, cfg->symmetrize, &cfg->inputs[i].g, &err);
        if (rc == CLIRR_OK && cfg->source >= cfg->inputs[i].g.n)
            rc = clirr_fail(&err, CLIRR_ERR_USAGE, "--source %u is out of range for %s (%u vertices)",
                            cfg->source, input_name(&cfg->inputs[i]), cfg->inputs[i].g.n);
    }
    if (rc != CLIRR_OK) {
        code = cli_report(&err);
        goto done;
    }
    size_t per_case = 0; /* rows per (device, input, algo) */
    for (size_t vi = 0; vi < cfg->nvariants; vi++)
        per_case += cfg->variants[vi] == CLIRR_VARIANT_DATA ? cfg->npushes : 1;
    rows = calloc(ndev * cfg->ninputs * cfg->nalgos * per_case, sizeof *rows);
    if (!rows) {
        code = 3;
        goto done;
    }
    for (size_t i = 0; i < cfg->ninputs; i++) {
        const clirr_graph *g = &cfg->inputs[i].g;
        free(out);
        free(expected);
        out = malloc(((size_t)g->n + 1) * sizeof(uint64_t));
        expected = malloc(((size_t)g->n + 1) * sizeof(uint64_t));
        if (!out || !expected) {
            code = 3;
            goto done;
        }
        for (size_t a = 0; a < cfg->nalgos; a++) {
            const cli_algo *algo = cfg->algos[a];
            if (cfg->verify) {
                if (progress)
                    fprintf(stderr, "reference %s on %s ...\n", algo->name, input_name(&cfg->inputs[i]));
                if (algo->reference(g, cfg->source, expected, &err) != CLIRR_OK) {
                    code = cli_report(&err);
                    goto done;
                }
            }
            for (size_t d = 0; d < ndev; d++) {
                const clirr_device *dev = &devs[picked[d]];
                clirr_ctx *ctx = NULL;
                int crc = clirr_ctx_create(dev, &ctx, &err);
                for (size_t vi = 0; vi < cfg->nvariants; vi++) {
                    size_t np = cfg->variants[vi] == CLIRR_VARIANT_DATA ? cfg->npushes : 1;
                    for (size_t p = 0; p < np; p++) {
                        bench_row *row = &rows[nrows++];
                        clirr_algo_opts o;
                        clirr_algo_opts_default(&o);
                        o.variant = cfg->variants[vi];
                        o.push = cfg->pushes[p];
                        o.source = cfg->source;
                        row->input = i;
                        if (progress)
                            fprintf(stderr, "%s %s %s on %s ...\n", algo->name, clirr_variant_name(o.variant),
                                    input_name(&cfg->inputs[i]), dev->caps.name);
                        if (crc != CLIRR_OK) {
                            row->res.algo = algo;
                            row->res.device = dev;
                            row->res.opts = o;
                            row->res.status = crc;
                            memcpy(row->res.error, err.msg, sizeof row->res.error);
                            continue;
                        }
                        cli_measure(ctx, dev, algo, g, &o, cfg->warmup, cfg->repeat,
                                    cfg->verify ? expected : NULL, out, &row->res);
                    }
                }
                clirr_ctx_release(ctx);
            }
        }
    }
    print_table(cfg, rows, nrows);
    for (size_t i = 0; i < nrows; i++) {
        if (rows[i].res.status != CLIRR_OK) {
            fprintf(stderr, "clirr bench: %s\n", rows[i].res.error);
            code = code > clirr_status_exit_code(rows[i].res.status) ? code : clirr_status_exit_code(rows[i].res.status);
        } else if (rows[i].res.verified == 0) {
            fprintf(stderr, "clirr bench: verification failed: %s\n", rows[i].res.verify_text);
            code = code > 1 ? code : 1;
        }
    }
    if (cfg->csv) {
        FILE *f = open_out(cfg->csv);
        if (f)
            write_csv(f, cfg, rows, nrows);
        close_out(f);
        code = f ? code : 2;
    }
    if (cfg->json) {
        FILE *f = open_out(cfg->json);
        if (f)
            write_json(f, cfg, rows, nrows, argc + 1, argv - 1, devs, picked, ndev);
        close_out(f);
        code = f ? code : 2;
    }
done:
    for (size_t i = 0; i < cfg->ninputs; i++)
        clirr_graph_free(&cfg->inputs[i].g);
    free(rows);
    free(out);
    free(expected);
    free(devs);
    free(picked);
    free(cfg);
    return code;
}
