/* host/cli/cmd_bench.c - `clirr bench`: a matrix of algorithms x inputs x
 * devices x variants x push modes x templates x lb_THRES values, each timed
 * over repeated trials after warm-up and verified once; bench_report.c
 * prints and writes what it found (ratios taken within the same run). A
 * template a device cannot run is a skipped cell. */
#include "bench.h"
#include "input.h"
#include "params.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_help(void)
{
    printf("usage: clirr bench [options] (--graph FILE | --gen SPEC)...\n"
           "\n"
           "Times every algorithm x input x device x variant x push mode x template x\n"
           "lb_THRES, each over --repeat trials after --warmup untimed runs, verifies\n"
           "each once against the CPU reference, and prints median [min-max] kernel and\n"
           "end-to-end times, MTEPS, child kernel launches, the data-driven/topology-\n"
           "driven ratio, each template's speedup over baseline and whether auto picked\n"
           "the fastest template.\n"
           "\n"
           "  --algo A[,A]       algorithms (default: %s)\n"
           "  --graph FILE       an input file (repeatable)\n"
           "  --gen SPEC         a generated input (repeatable)\n"
           "  --symmetrize       add the reverse of every arc of every input\n"
           "  --device SEL       devices (default all)\n"
           "  --variant V[,V]    topo, data, jp (coloring only) or all (default all)\n"
           "  --push M[,M]       data-driven push modes: atomic, chunk, scan, auto, all\n"
           "                     (default auto)\n"
           "  --template T[,T]   nested-loop templates: baseline, dual-queue, dbuf-global,\n"
           "                     dbuf-shared, nested-naive, nested-opt, auto, all\n"
           "                     (default auto); cells a device cannot run are skipped\n"
           "  --lb-thres N[,N]   lb_THRES values for the load-balancing templates\n"
           "                     (default: the device's SIMD width)\n"
           "  --source N         source vertex (default 0)\n"
           CLI_PARAM_HELP
           "  --repeat N         timed trials per case (default 5)\n"
           "  --warmup N         untimed runs first (default 1)\n"
           "  --no-verify        skip verification\n"
           "  --csv FILE         also write one CSV row per case ('-' = stdout)\n"
           "  --json FILE        also write the whole run as JSON ('-' = stdout)\n",
           cli_algo_names());
}

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

/* One configuration of a run, independent of device and input. */
typedef struct bench_plan {
    clirr_algo_opts opts;
    int tmpl;
    uint32_t thres;
} bench_plan;

/* Every (variant, push, template, lb_THRES) the options ask for; push only
 * varies for data-driven runs, lb_THRES only for load-balancing templates. */
static size_t make_plans(const bench_config *cfg, bench_plan *plans, size_t max)
{
    size_t n = 0;
    for (size_t v = 0; v < cfg->nvariants; v++) {
        size_t np = cfg->variants[v] == CLIRR_VARIANT_DATA ? cfg->npushes : 1;
        for (size_t p = 0; p < np; p++)
            for (size_t t = 0; t < cfg->ntemplates; t++) {
                int tmpl = cfg->templates[t];
                bool thresholds = tmpl != CLIRR_TEMPLATE_BASELINE && tmpl != CLI_TEMPLATE_AUTO;
                size_t nt = thresholds && cfg->nthres ? cfg->nthres : 1;
                for (size_t k = 0; k < nt && n < max; k++) {
                    bench_plan *pl = &plans[n++];
                    pl->opts = cfg->params;
                    pl->opts.variant = cfg->variants[v];
                    pl->opts.push = cfg->pushes[p];
                    pl->opts.template_auto = tmpl == CLI_TEMPLATE_AUTO;
                    if (tmpl != CLI_TEMPLATE_AUTO)
                        pl->opts.tmpl = (clirr_template)tmpl;
                    pl->thres = thresholds && cfg->nthres ? cfg->thres[k] : 0;
                    pl->opts.lb_thres = pl->thres;
                    pl->tmpl = tmpl;
                }
            }
    }
    return n;
}

/* Parse the options into cfg; returns 0, or the exit code of a usage error
 * (-1 after --help). */
static int parse_options(int argc, char **argv, bench_config *cfg)
{
    enum { O_ALGO = 256, O_GRAPH, O_GEN, O_SYM, O_DEVICE, O_VARIANT, O_PUSH, O_TEMPLATE, O_LBTHRES,
           O_SOURCE, O_REPEAT, O_WARMUP, O_NOVERIFY, O_CSV, O_JSON, O_HELP };
    static const struct option opts[] = {
        {"algo", required_argument, NULL, O_ALGO},        {"graph", required_argument, NULL, O_GRAPH},
        {"gen", required_argument, NULL, O_GEN},          {"symmetrize", no_argument, NULL, O_SYM},
        {"device", required_argument, NULL, O_DEVICE},    {"variant", required_argument, NULL, O_VARIANT},
        {"push", required_argument, NULL, O_PUSH},        {"template", required_argument, NULL, O_TEMPLATE},
        {"lb-thres", required_argument, NULL, O_LBTHRES}, {"source", required_argument, NULL, O_SOURCE},
        {"repeat", required_argument, NULL, O_REPEAT},    {"warmup", required_argument, NULL, O_WARMUP},
        {"no-verify", no_argument, NULL, O_NOVERIFY},     {"csv", required_argument, NULL, O_CSV},
        {"json", required_argument, NULL, O_JSON},        {"help", no_argument, NULL, O_HELP},
        CLI_PARAM_OPTIONS,                                {NULL, 0, NULL, 0},
    };
    unsigned long long v;
    const char *bad = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case O_ALGO:
            if ((bad = cli_list_algos(optarg, cfg->algos, BENCH_MAX_ALGOS, &cfg->nalgos)))
                return cli_usage_error("bench", "unknown algorithm '%s' (known: %s)", bad, cli_algo_names());
            break;
        case O_VARIANT:
            if ((bad = cli_list_variants(optarg, cfg->variants, &cfg->nvariants)))
                return cli_usage_error("bench", "unknown variant '%s' (topo, data, jp or all)", bad);
            break;
        case O_PUSH:
            if ((bad = cli_list_pushes(optarg, cfg->pushes, &cfg->npushes)))
                return cli_usage_error("bench", "unknown push mode '%s' (atomic, chunk, scan, auto, all)", bad);
            break;
        case O_TEMPLATE:
            if ((bad = cli_list_templates(optarg, cfg->templates, BENCH_MAX_TEMPLATES, &cfg->ntemplates)))
                return cli_usage_error("bench", "unknown template '%s' (baseline, dual-queue, dbuf-global, "
                                                "dbuf-shared, nested-naive, nested-opt, auto, all)", bad);
            break;
        case O_LBTHRES:
            if ((bad = cli_list_uints(optarg, cfg->thres, BENCH_MAX_THRES, &cfg->nthres)))
                return cli_usage_error("bench", "--lb-thres needs positive numbers, not '%s'", bad);
            break;
        case O_GRAPH:
        case O_GEN:
            if (cfg->ninputs == BENCH_MAX_INPUTS)
                return cli_usage_error("bench", "at most %d inputs", BENCH_MAX_INPUTS);
            cfg->inputs[cfg->ninputs].file = c == O_GRAPH ? optarg : NULL;
            cfg->inputs[cfg->ninputs++].spec = c == O_GEN ? optarg : NULL;
            break;
        case O_SYM: cfg->symmetrize = true; break;
        case O_DEVICE: cfg->selector = optarg; break;
        case O_SOURCE:
            if (!cli_parse_u64(optarg, 0, UINT32_MAX - 1, &v))
                return cli_usage_error("bench", "--source needs a vertex number, not '%s'", optarg);
            cfg->params.source = (uint32_t)v;
            break;
        case O_REPEAT:
            if (!cli_parse_u64(optarg, 1, 100000, &v))
                return cli_usage_error("bench", "--repeat needs a count from 1 to 100000, not '%s'", optarg);
            cfg->repeat = (unsigned)v;
            break;
        case O_WARMUP:
            if (!cli_parse_u64(optarg, 0, 100000, &v))
                return cli_usage_error("bench", "--warmup needs a count from 0 to 100000, not '%s'", optarg);
            cfg->warmup = (unsigned)v;
            break;
        case O_NOVERIFY: cfg->verify = false; break;
        case O_CSV: cfg->csv = optarg; break;
        case O_JSON: cfg->json = optarg; break;
        case O_HELP: print_help(); return -1;
        default:
            switch (cli_param_option("bench", c, optarg, &cfg->params, &cfg->vector_file)) {
            case 1: break;
            case -1: return 2;
            default: return cli_usage_error("bench", "unknown option");
            }
        }
    }
    if (optind < argc)
        return cli_usage_error("bench", "unexpected argument '%s'", argv[optind]);
    if (cfg->ninputs == 0)
        return cli_usage_error("bench", "give at least one --graph FILE or --gen SPEC");
    /* Defaults: every algorithm and variant, automatic push and template. */
    if (!cfg->nalgos)
        cli_list_algos("all", cfg->algos, BENCH_MAX_ALGOS, &cfg->nalgos);
    if (!cfg->nvariants)
        cli_list_variants("all", cfg->variants, &cfg->nvariants);
    if (!cfg->npushes)
        cli_list_pushes("auto", cfg->pushes, &cfg->npushes);
    if (!cfg->ntemplates)
        cli_list_templates("auto", cfg->templates, BENCH_MAX_TEMPLATES, &cfg->ntemplates);
    return 0;
}

/* A run of one plan on one device; a template the device cannot run is
 * recorded as skipped, without running. */
static void run_cell(clirr_ctx *ctx, const clirr_device *dev, const cli_algo *algo,
                     const bench_config *cfg, const bench_input *in, const bench_plan *pl,
                     const void *expected, void *out, bench_row *row)
{
    row->tmpl = pl->tmpl;
    row->thres = pl->thres;
    const char *why = NULL;
    if (pl->tmpl != CLI_TEMPLATE_AUTO && !clirr_template_runnable(&dev->caps, (clirr_template)pl->tmpl, &why)) {
        row->skipped = true;
        row->res.algo = algo;
        row->res.device = dev;
        row->res.opts = pl->opts;
        row->res.status = CLIRR_ERR_UNSUPPORTED;
        snprintf(row->res.error, sizeof row->res.error, "%s", why);
        return;
    }
    cli_measure(ctx, dev, algo, &in->g, &pl->opts, cfg->warmup, cfg->repeat, expected, out, &row->res);
}

int cmd_bench(int argc, char **argv)
{
    bench_config *cfg = calloc(1, sizeof *cfg);
    if (!cfg)
        return 3;
    clirr_algo_opts_default(&cfg->params);
    cfg->verify = true;
    cfg->repeat = 5;
    cfg->warmup = 1;
    cfg->selector = "all";
    int code = parse_options(argc, argv, cfg);
    if (code) {
        free(cfg);
        return code < 0 ? 0 : code;
    }

    clirr_error err;
    clirr_error_clear(&err);
    clirr_device *devs = NULL;
    size_t *picked = NULL, ndev = 0, nrows = 0;
    bench_row *rows = NULL;
    void *out = NULL, *expected = NULL;
    bool progress = isatty(STDERR_FILENO);
    enum { MAX_PLANS = 2 * CLIRR_PUSH_COUNT_ * BENCH_MAX_TEMPLATES * BENCH_MAX_THRES };
    bench_plan *plans = calloc(MAX_PLANS, sizeof *plans);
    size_t nplans = plans ? make_plans(cfg, plans, MAX_PLANS) : 0;
    int rc = plans ? cli_devices_pick(cfg->selector, &devs, &picked, &ndev, &err)
                   : clirr_fail(&err, CLIRR_ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == CLIRR_OK && i < cfg->ninputs; i++) {
        if (progress)
            fprintf(stderr, "loading %s ...\n", bench_input_name(&cfg->inputs[i]));
        rc = cli_load_graph(cfg->inputs[i].file, cfg->inputs[i].spec, cfg->symmetrize, &cfg->inputs[i].g, &err);
        if (rc == CLIRR_OK && cfg->vector_file)
            rc = clirr_vector_read(cfg->vector_file, cfg->inputs[i].g.n, &cfg->inputs[i].x, &err);
        if (rc == CLIRR_OK && cfg->params.source >= cfg->inputs[i].g.n)
            rc = clirr_fail(&err, CLIRR_ERR_USAGE, "--source %u is out of range for %s (%u vertices)",
                            cfg->params.source, bench_input_name(&cfg->inputs[i]), cfg->inputs[i].g.n);
    }
    if (rc != CLIRR_OK) {
        code = cli_report(&err);
        goto done;
    }
    rows = calloc(ndev * cfg->ninputs * cfg->nalgos * nplans + 1, sizeof *rows);
    if (!rows) {
        code = 3;
        goto done;
    }
    for (size_t i = 0; i < cfg->ninputs; i++) {
        const bench_input *in = &cfg->inputs[i];
        free(out);
        free(expected);
        out = malloc(((size_t)in->g.n + 1) * sizeof(uint64_t));
        expected = malloc(((size_t)in->g.n + 1) * sizeof(uint64_t));
        if (!out || !expected) {
            code = 3;
            goto done;
        }
        for (size_t a = 0; a < cfg->nalgos; a++) {
            const cli_algo *algo = cfg->algos[a];
            clirr_algo_opts params = cfg->params;
            params.x = in->x;
            if (cfg->verify) {
                if (progress)
                    fprintf(stderr, "reference %s on %s ...\n", algo->name, bench_input_name(in));
                uint64_t t0 = clirr_now_ns();
                if (algo->reference(&in->g, &params, expected, &err) != CLIRR_OK) {
                    code = cli_report(&err);
                    goto done;
                }
                /* The serial reference is the baseline for speedups. */
                printf("reference %s on %s (serial CPU): %.3f ms", algo->name, bench_input_name(in),
                       (clirr_now_ns() - t0) / 1e6);
                if (!strcmp(algo->name, "color"))
                    printf(", %u colors", clirr_color_count(in->g.n, expected));
                printf("\n");
            }
            for (size_t d = 0; d < ndev; d++) {
                const clirr_device *dev = &devs[picked[d]];
                clirr_ctx *ctx = NULL;
                int crc = clirr_ctx_create(dev, &ctx, &err);
                for (size_t p = 0; p < nplans; p++) {
                    /* Plans differing only in what this algorithm ignores
                     * (variant, push mode) run once. */
                    bool seen = !cli_algo_has_variant(algo, plans[p].opts.variant);
                    for (size_t q = 0; q < p && !seen; q++)
                        seen = cli_algo_has_variant(algo, plans[q].opts.variant) &&
                               cli_algo_same_run(algo, &plans[q].opts, &plans[p].opts);
                    if (seen)
                        continue;
                    bench_plan pl = plans[p];
                    pl.opts.x = in->x;
                    bench_row *row = &rows[nrows++];
                    row->input = i;
                    if (progress)
                        fprintf(stderr, "%s %s on %s ...\n", algo->name, bench_input_name(in), dev->caps.name);
                    if (crc != CLIRR_OK) {
                        row->tmpl = pl.tmpl;
                        row->res.algo = algo;
                        row->res.device = dev;
                        row->res.opts = pl.opts;
                        row->res.status = crc;
                        memcpy(row->res.error, err.msg, sizeof row->res.error);
                        continue;
                    }
                    run_cell(ctx, dev, algo, cfg, in, &pl, cfg->verify ? expected : NULL, out, row);
                }
                clirr_ctx_release(ctx);
            }
        }
    }
    bench_print(cfg, rows, nrows);
    for (size_t i = 0; i < nrows; i++) {
        const cli_result *r = &rows[i].res;
        if (rows[i].skipped)
            continue;
        if (r->status != CLIRR_OK) {
            fprintf(stderr, "clirr bench: %s\n", r->error);
            int e = clirr_status_exit_code(r->status);
            code = code > e ? code : e;
        } else if (r->verified == 0) {
            fprintf(stderr, "clirr bench: verification failed: %s\n", r->verify_text);
            code = code > 1 ? code : 1;
        }
    }
    if (cfg->csv) {
        FILE *f = open_out(cfg->csv);
        if (f)
            bench_write_csv(f, cfg, rows, nrows);
        close_out(f);
        code = f ? code : 2;
    }
    if (cfg->json) {
        FILE *f = open_out(cfg->json);
        if (f)
            bench_write_json(f, cfg, rows, nrows, argc + 1, argv - 1, devs, picked, ndev);
        close_out(f);
        code = f ? code : 2;
    }
done:
    for (size_t i = 0; i < cfg->ninputs; i++) {
        clirr_graph_free(&cfg->inputs[i].g);
        free(cfg->inputs[i].x);
    }
    free(plans);
    free(rows);
    free(out);
    free(expected);
    free(devs);
    free(picked);
    free(cfg);
    return code;
}
