/* host/cli/cmd_run.c - `clirr run`: run algorithms on a graph on one or
 * more devices and variants, verify each result against the CPU reference,
 * and report a table or JSON (the output contract in README.md). */
#include "algos.h"
#include "cli.h"
#include "input.h"
#include "lists.h"
#include "measure.h"
#include "params.h"
#include "report.h"
#include "templates/policy.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ALGOS 8

typedef struct run_config {
    const char *graph_file, *graph_spec;
    bool symmetrize;
    const cli_algo *algos[MAX_ALGOS];
    size_t nalgos;
    clirr_variant variants[CLIRR_VARIANT_COUNT_];
    size_t nvariants;
    clirr_algo_opts opts;
    bool verify, json, explain;
    unsigned repeat, warmup;
    const char *output;
    const clirr_device *devices;
    const size_t *picked;
    size_t ndevices;
} run_config;

static void print_help(void)
{
    printf("usage: clirr run ALGO[,ALGO...] (--graph FILE | --gen SPEC) [options]\n"
           "\n"
           "Runs each algorithm (%s) on each selected device and variant,\n"
           "verifies the result against the serial CPU reference, and prints a table.\n"
           "\n"
           "  --graph FILE        input graph (.gr .mtx .el .txt .wel .csr, optionally .gz)\n"
           "  --gen SPEC          generate the input instead (see 'clirr gen --help')\n"
           "  --symmetrize        add the reverse of every arc\n"
           "  --device SEL        index, name substring, cpu, gpu, all, auto (default:\n"
           "                      $CLIRR_DEVICE, else auto = first GPU, else device 0)\n"
           "  --variant V[,V]     topo, data, jp (coloring only) or all (default data)\n"
           "  --push MODE         data-driven worklist push: atomic, chunk, scan, or\n"
           "                      auto = chosen per round (default auto)\n"
           "  --source N          source vertex, 0-based (default 0)\n"
           "  --verify            compare with the CPU reference (default)\n"
           "  --no-verify         skip the comparison (verified: null)\n"
           "  --repeat N          timed runs per case; times are medians (default 1)\n"
           "  --warmup N          untimed runs first, e.g. for lazy compilers (default 0)\n"
           "  --wg-size N         work-group size (default: device default)\n"
           "  --wl-capacity N     initial worklist capacity (default: vertices)\n"
           "  --template T        how each round's loop over vertices and arcs meets the\n"
           "                      device: baseline, dual-queue, dbuf-global, dbuf-shared,\n"
           "                      nested-naive, nested-opt, or auto (default: chosen from\n"
           "                      the device's capabilities; see clirr devices)\n"
           "  --lb-thres N        items with more arcs than N go block-mapped (default:\n"
           "                      the device's SIMD width)\n"
           "  --group-wg N        work-group size of block-mapped work and child kernels\n"
           "                      (default 64)\n"
           CLI_PARAM_HELP
           "  --output FILE       one line per vertex: BFS level or -1, SSSP distance or\n"
           "                      inf, BC score, PageRank score, SpMV y_i (needs exactly\n"
           "                      one algorithm, device and variant)\n"
           "  --json              print JSON instead of a table\n"
           "  --explain           say what was chosen for each run and why\n"
           "\n"
           "Exit codes: 0 ok, 1 verification failed, 2 bad usage or input,\n"
           "3 OpenCL or device error (including a graph too large for the device).\n",
           cli_algo_names());
}

enum { OPT_GRAPH = 256, OPT_GEN, OPT_SYM, OPT_DEVICE, OPT_VARIANT, OPT_PUSH, OPT_SOURCE,
       OPT_VERIFY, OPT_NOVERIFY, OPT_REPEAT, OPT_WARMUP, OPT_WG, OPT_WLCAP, OPT_OUTPUT,
       OPT_JSON, OPT_EXPLAIN, OPT_TEMPLATE, OPT_LBTHRES, OPT_GROUPWG, OPT_HELP };

/* What was chosen for one run, and why. */
static void explain(const run_config *cfg, clirr_ctx *ctx, const clirr_device *dev,
                    const cli_algo *a, const clirr_algo_opts *o, const clirr_graph *g)
{
    printf("plan: %s on [%u] %s\n", a->name, dev->index, dev->caps.name);
    printf("  variant   %s (%s)\n", clirr_variant_name(o->variant),
           cfg->nvariants > 1 || o->variant != CLIRR_VARIANT_DATA ? "asked for with --variant"
                                                                  : "default: data-driven");
    if (o->variant == CLIRR_VARIANT_DATA) {
        if (o->push == CLIRR_PUSH_AUTO)
            printf("  push      auto (default): %s\n", clirr_policy_push_reason(&dev->caps));
        else
            printf("  push      %s (asked for with --push)\n", clirr_push_mode_name(o->push));
        if (o->wl_capacity)
            printf("  worklist  initial capacity %zu (--wl-capacity); grows and reruns the round on overflow\n",
                   o->wl_capacity);
        else
            printf("  worklist  capacity %u = vertices: pushes are deduplicated per round, so it cannot overflow\n",
                   g->n);
    }
    clirr_template t;
    uint32_t thres;
    const char *why;
    clirr_algo_plan(&dev->caps, a->name, o, g->n, &t, &thres, &why);
    printf("  template  %s, lb_THRES %u (%s%s)\n", clirr_template_name(t), thres, why,
           o->lb_thres ? "; lb_THRES from --lb-thres" : o->template_auto ? "" : "; lb_THRES = SIMD width");
    printf("  wg size   %s (device limit %zu)\n", o->wg_size ? "from --wg-size, capped by kernel and device limits"
                                                             : "256 or the kernel's limit if lower",
           dev->caps.max_wg_size);
    printf("  build     %s\n", clirr_ctx_cap_options(ctx));
}

static int write_output(const char *path, const cli_algo *a, const void *values, uint32_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "clirr: cannot write %s: %s\n", path, strerror(errno));
        return 2;
    }
    for (uint32_t v = 0; v < n; v++) {
        a->write_value(f, values, v);
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "clirr: writing %s failed: %s\n", path, strerror(errno));
        return 2;
    }
    return 0;
}

/* Whether algorithm a runs with variant v: it has that variant (or none,
 * and then only once, for the first variant listed). */
static bool run_once(const run_config *cfg, size_t a, size_t v)
{
    const cli_algo *algo = cfg->algos[a];
    if (!cli_algo_shows_variant(algo))
        return v == 0;
    return cli_algo_has_variant(algo, cfg->variants[v]);
}

/* Worse outcomes win: device error 3 > bad input 2 > verification 1. */
static int worse(int a, int b) { return a > b ? a : b; }

static int run_matrix(run_config *cfg, const clirr_graph *g)
{
    cli_input in = {cfg->graph_file, cfg->graph_spec, cfg->symmetrize, g};
    size_t nres = 0, k = 0;
    for (size_t a = 0; a < cfg->nalgos; a++)
        for (size_t v = 0; v < cfg->nvariants; v++)
            nres += run_once(cfg, a, v) ? cfg->ndevices : 0;
    if (nres == 0) {
        fprintf(stderr, "clirr run: no algorithm here has the variants asked for (bfs and sssp: topo, "
                        "data; color: topo, data, jp)\n");
        return 2;
    }
    cli_result *res = calloc(nres, sizeof *res);
    void *expected[MAX_ALGOS] = {0};
    void *out = malloc(((size_t)g->n + 1) * sizeof(uint64_t));
    int code = 0;
    clirr_error err;
    clirr_error_clear(&err);
    if (!res || !out) {
        fprintf(stderr, "clirr: out of memory\n");
        code = 3;
        goto done;
    }
    /* References first: a bad input (negative weights, ...) stops here. */
    for (size_t a = 0; cfg->verify && a < cfg->nalgos; a++) {
        expected[a] = malloc(((size_t)g->n + 1) * cfg->algos[a]->value_size);
        if (!expected[a] || cfg->algos[a]->reference(g, &cfg->opts, expected[a], &err) != CLIRR_OK) {
            if (!expected[a])
                clirr_fail(&err, CLIRR_ERR_NOMEM, "out of memory for the reference result");
            code = cli_report(&err);
            goto done;
        }
    }
    for (size_t d = 0; d < cfg->ndevices; d++) {
        const clirr_device *dev = &cfg->devices[cfg->picked[d]];
        clirr_ctx *ctx = NULL;
        int crc = clirr_ctx_create(dev, &ctx, &err);
        for (size_t a = 0; a < cfg->nalgos; a++)
            for (size_t v = 0; v < cfg->nvariants; v++) {
                clirr_algo_opts o = cfg->opts;
                o.variant = cfg->variants[v];
                if (!run_once(cfg, a, v))
                    continue;
                cli_result *r = &res[k++];
                if (crc != CLIRR_OK) {
                    r->algo = cfg->algos[a];
                    r->device = dev;
                    r->opts = o;
                    r->status = crc;
                    memcpy(r->error, err.msg, sizeof r->error);
                    continue;
                }
                if (cfg->explain && !cfg->json)
                    explain(cfg, ctx, dev, cfg->algos[a], &o, g);
                cli_measure(ctx, dev, cfg->algos[a], g, &o, cfg->warmup, cfg->repeat, expected[a], out, r);
                if (r->status == CLIRR_OK && cfg->output)
                    code = worse(code, write_output(cfg->output, cfg->algos[a], out, g->n));
            }
        clirr_ctx_release(ctx);
    }

    if (cfg->json) {
        json_object *root;
        if (nres == 1) {
            root = cli_result_json(&res[0], &in);
        } else {
            root = json_object_new_object();
            json_object *arr = json_object_new_array();
            for (size_t i = 0; i < nres; i++)
                json_object_array_add(arr, cli_result_json(&res[i], &in));
            json_object_object_add(root, "runs", arr);
        }
        cli_json_print(stdout, root);
        json_object_put(root);
    } else {
        printf("graph: %s%s (%u vertices, %u arcs, %s), source %u\n",
               cfg->graph_file ? cfg->graph_file : cfg->graph_spec,
               cfg->symmetrize ? ", symmetrized" : "", g->n, g->m,
               g->weight ? "weighted" : "unweighted", cfg->opts.source);
        cli_table_header(stdout);
        for (size_t i = 0; i < nres; i++)
            cli_table_row(stdout, &res[i]);
    }
    for (size_t i = 0; i < nres; i++) {
        if (res[i].status != CLIRR_OK) {
            fprintf(stderr, "clirr: %s\n", res[i].error);
            code = worse(code, clirr_status_exit_code(res[i].status));
        } else if (res[i].verified == 0) {
            fprintf(stderr, "clirr: %s %s on %s: verification FAILED: %s\n", res[i].algo->name,
                    clirr_variant_name(res[i].opts.variant), res[i].device->caps.name,
                    res[i].verify_text);
            code = worse(code, 1);
        }
    }
done:
    for (size_t a = 0; a < MAX_ALGOS; a++)
        free(expected[a]);
    free(out);
    free(res);
    return code;
}

int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"graph", required_argument, NULL, OPT_GRAPH},
        {"gen", required_argument, NULL, OPT_GEN},
        {"symmetrize", no_argument, NULL, OPT_SYM},
        {"device", required_argument, NULL, OPT_DEVICE},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"push", required_argument, NULL, OPT_PUSH},
        {"source", required_argument, NULL, OPT_SOURCE},
        {"verify", no_argument, NULL, OPT_VERIFY},
        {"no-verify", no_argument, NULL, OPT_NOVERIFY},
        {"repeat", required_argument, NULL, OPT_REPEAT},
        {"warmup", required_argument, NULL, OPT_WARMUP},
        {"wg-size", required_argument, NULL, OPT_WG},
        {"wl-capacity", required_argument, NULL, OPT_WLCAP},
        {"output", required_argument, NULL, OPT_OUTPUT},
        {"json", no_argument, NULL, OPT_JSON},
        {"explain", no_argument, NULL, OPT_EXPLAIN},
        {"template", required_argument, NULL, OPT_TEMPLATE},
        {"lb-thres", required_argument, NULL, OPT_LBTHRES},
        {"group-wg", required_argument, NULL, OPT_GROUPWG},
        {"help", no_argument, NULL, OPT_HELP},
        CLI_PARAM_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    clirr_algo_opts_default(&cfg.opts);
    cfg.verify = true;
    cfg.repeat = 1;
    cfg.variants[0] = CLIRR_VARIANT_DATA;
    cfg.nvariants = 1;
    const char *selector = NULL, *bad = NULL, *vector_file = NULL;
    unsigned long long v;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_GRAPH: cfg.graph_file = optarg; break;
        case OPT_GEN: cfg.graph_spec = optarg; break;
        case OPT_SYM: cfg.symmetrize = true; break;
        case OPT_DEVICE: selector = optarg; break;
        case OPT_VARIANT:
            if ((bad = cli_list_variants(optarg, cfg.variants, &cfg.nvariants)))
                return cli_usage_error("run", "unknown variant '%s' (topo, data, jp or all)", bad);
            break;
        case OPT_PUSH:
            if (clirr_push_mode_parse(optarg, &cfg.opts.push) != 0)
                return cli_usage_error("run", "unknown push mode '%s' (atomic, chunk, scan)", optarg);
            break;
        case OPT_SOURCE:
            if (!cli_parse_u64(optarg, 0, UINT32_MAX - 1, &v))
                return cli_usage_error("run", "--source needs a vertex number, not '%s'", optarg);
            cfg.opts.source = (uint32_t)v;
            break;
        case OPT_VERIFY: cfg.verify = true; break;
        case OPT_NOVERIFY: cfg.verify = false; break;
        case OPT_REPEAT:
            if (!cli_parse_u64(optarg, 1, 100000, &v))
                return cli_usage_error("run", "--repeat needs a count from 1 to 100000, not '%s'", optarg);
            cfg.repeat = (unsigned)v;
            break;
        case OPT_WARMUP:
            if (!cli_parse_u64(optarg, 0, 100000, &v))
                return cli_usage_error("run", "--warmup needs a count from 0 to 100000, not '%s'", optarg);
            cfg.warmup = (unsigned)v;
            break;
        case OPT_WG:
            if (!cli_parse_u64(optarg, 1, 1u << 20, &v))
                return cli_usage_error("run", "--wg-size needs a positive size, not '%s'", optarg);
            cfg.opts.wg_size = (unsigned)v;
            break;
        case OPT_WLCAP:
            if (!cli_parse_u64(optarg, 1, UINT32_MAX, &v))
                return cli_usage_error("run", "--wl-capacity needs a positive count, not '%s'", optarg);
            cfg.opts.wl_capacity = (size_t)v;
            break;
        case OPT_TEMPLATE:
            if (!strcmp(optarg, "auto")) {
                cfg.opts.template_auto = true;
            } else if (clirr_template_parse(optarg, &cfg.opts.tmpl) == 0) {
                cfg.opts.template_auto = false;
            } else {
                return cli_usage_error("run", "unknown template '%s' (baseline, dual-queue, dbuf-global, "
                                              "dbuf-shared, nested-naive, nested-opt, auto)", optarg);
            }
            break;
        case OPT_LBTHRES:
            if (!cli_parse_u64(optarg, 1, UINT32_MAX - 1, &v))
                return cli_usage_error("run", "--lb-thres needs a positive count, not '%s'", optarg);
            cfg.opts.lb_thres = (uint32_t)v;
            break;
        case OPT_GROUPWG:
            if (!cli_parse_u64(optarg, 1, 1u << 20, &v))
                return cli_usage_error("run", "--group-wg needs a positive size, not '%s'", optarg);
            cfg.opts.group_wg = (unsigned)v;
            break;
        case OPT_OUTPUT: cfg.output = optarg; break;
        case OPT_JSON: cfg.json = true; break;
        case OPT_EXPLAIN: cfg.explain = true; break;
        case OPT_HELP: print_help(); return 0;
        default:
            switch (cli_param_option("run", c, optarg, &cfg.opts, &vector_file)) {
            case 1: break;
            case -1: return 2;
            default: return cli_usage_error("run", "unknown option");
            }
        }
    }
    if (optind >= argc)
        return cli_usage_error("run", "missing ALGO (known: %s)", cli_algo_names());
    if (optind + 1 < argc)
        return cli_usage_error("run", "unexpected argument '%s'", argv[optind + 1]);
    if ((bad = cli_list_algos(argv[optind], cfg.algos, MAX_ALGOS, &cfg.nalgos)))
        return cli_usage_error("run", "unknown algorithm '%s' (known: %s)", bad, cli_algo_names());
    if (!cfg.graph_file == !cfg.graph_spec)
        return cli_usage_error("run", "give exactly one of --graph FILE and --gen SPEC");

    clirr_error err;
    clirr_error_clear(&err);
    clirr_device *devs = NULL;
    size_t *picked = NULL;
    clirr_graph g = {0};
    int rc = cli_devices_pick(selector, &devs, &picked, &cfg.ndevices, &err);
    if (rc == CLIRR_OK && cfg.output && cfg.nalgos * cfg.ndevices * cfg.nvariants != 1) {
        free(devs);
        free(picked);
        return cli_usage_error("run", "--output needs exactly one algorithm, device and variant "
                                      "(this run has %zu x %zu x %zu)",
                               cfg.nalgos, cfg.ndevices, cfg.nvariants);
    }
    if (rc == CLIRR_OK)
        rc = cli_load_graph(cfg.graph_file, cfg.graph_spec, cfg.symmetrize, &g, &err);
    double *x = NULL;
    if (rc == CLIRR_OK && vector_file && (rc = clirr_vector_read(vector_file, g.n, &x, &err)) == CLIRR_OK)
        cfg.opts.x = x;
    if (rc == CLIRR_OK && cfg.opts.source >= g.n)
        rc = clirr_fail(&err, CLIRR_ERR_USAGE, "--source %u is out of range: the graph has %u vertices",
                        cfg.opts.source, g.n);
    int code;
    if (rc != CLIRR_OK) {
        code = cli_report(&err);
    } else {
        cfg.devices = devs;
        cfg.picked = picked;
        code = run_matrix(&cfg, &g);
    }
    clirr_graph_free(&g);
    free(x);
    free(devs);
    free(picked);
    return code;
}
