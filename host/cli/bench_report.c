/* host/cli/bench_report.c - what `clirr bench` prints and writes: the
 * table of cases, ratios taken within the run (data-driven over
 * topology-driven, each template over baseline, auto over the fastest),
 * CSV and JSON. */
#include "bench.h"
#include "report.h"

#include "clirr_config.h"
#include "clirr_vcs.h"

#include <string.h>
#include <time.h>

const char *bench_input_name(const bench_input *in) { return in->file ? in->file : in->spec; }

static bool ok(const bench_row *r) { return !r->skipped && r->res.status == CLIRR_OK; }

/* Same device, input and algorithm. */
static bool same_case(const bench_row *a, const bench_row *b)
{
    return a->input == b->input && a->res.device == b->res.device && a->res.algo == b->res.algo;
}

/* Same case, variant and push mode: rows that differ only in template. */
static bool same_loop(const bench_row *a, const bench_row *b)
{
    const cli_algo *al = a->res.algo;
    return same_case(a, b) && (!cli_algo_shows_variant(al) || a->res.opts.variant == b->res.opts.variant) &&
           (!cli_algo_shows_push(al, &a->res.opts) || a->res.opts.push == b->res.opts.push);
}

/* The topology-driven row a data-driven row compares with. */
static const bench_row *topo_of(const bench_row *rows, size_t n, const bench_row *d)
{
    for (size_t i = 0; i < n; i++)
        if (ok(&rows[i]) && rows[i].res.opts.variant == CLIRR_VARIANT_TOPO && same_case(&rows[i], d) &&
            rows[i].tmpl == d->tmpl && rows[i].thres == d->thres)
            return &rows[i];
    return NULL;
}

/* The baseline-template row a row compares with. */
static const bench_row *baseline_of(const bench_row *rows, size_t n, const bench_row *r)
{
    for (size_t i = 0; i < n; i++)
        if (ok(&rows[i]) && rows[i].tmpl == CLIRR_TEMPLATE_BASELINE && same_loop(&rows[i], r))
            return &rows[i];
    return NULL;
}

/* The fastest row (kernel time) of r's loop, auto's own row excluded. */
static const bench_row *fastest_of(const bench_row *rows, size_t n, const bench_row *r)
{
    const bench_row *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (ok(&rows[i]) && rows[i].tmpl != CLI_TEMPLATE_AUTO && same_loop(&rows[i], r) &&
            (!best || rows[i].res.kernel_ms.median < best->res.kernel_ms.median))
            best = &rows[i];
    return best;
}

/* "baseline", "dbuf-shared/32", or "auto:dbuf-shared/32" for the policy's
 * pick (the template that ran, with its lb_THRES). */
static void template_text(const bench_row *r, char *buf, size_t size)
{
    clirr_template t = r->tmpl == CLI_TEMPLATE_AUTO ? CLIRR_TEMPLATE_COUNT_ : (clirr_template)r->tmpl;
    const char *name = r->res.stats.template_name ? r->res.stats.template_name
                       : t < CLIRR_TEMPLATE_COUNT_ ? clirr_template_name(t) : "auto";
    const char *prefix = r->tmpl == CLI_TEMPLATE_AUTO ? "auto:" : "";
    if (!strcmp(name, "baseline") || !r->res.stats.template_name)
        snprintf(buf, size, "%s%s", prefix, name);
    else
        snprintf(buf, size, "%s%s/%u", prefix, name, r->res.stats.lb_thres);
}

static int input_width(const bench_config *cfg)
{
    int w = 5; /* the longest input name, up to 60 */
    for (size_t i = 0; i < cfg->ninputs; i++) {
        int len = (int)strlen(bench_input_name(&cfg->inputs[i]));
        w = len > w ? (len < 60 ? len : 60) : w;
    }
    return w;
}

/* device, input, algo, variant, push, template columns. */
static void key_columns(const bench_config *cfg, const bench_row *r, int w)
{
    char t[64];
    template_text(r, t, sizeof t);
    printf("%-24.24s %-*.*s %-8s %-5s %-6s %-24s", r->res.device->caps.name, w, w,
           bench_input_name(&cfg->inputs[r->input]), r->res.algo->name, cli_variant_text(&r->res),
           cli_push_text(&r->res), t);
}

void bench_print(const bench_config *cfg, const bench_row *rows, size_t nrows)
{
    int w = input_width(cfg);
    printf("%-24s %-*s %-8s %-5s %-6s %-24s %6s %27s %27s %9s %9s %8s %4s\n", "device", w, "input",
           "algo", "var", "push", "template/lb_THRES", "iters", "kernel ms median [min-max]",
           "total ms median [min-max]", "MTEPS k", "MTEPS e2e", "children", "ok");
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        key_columns(cfg, r, w);
        if (!ok(r)) {
            printf(" %6s %27s %27s %9s %9s %8s %4s\n", "-", "-", "-", "-", "-", "-",
                   r->skipped ? "skip" : "err");
            continue;
        }
        const cli_result *s = &r->res;
        char k[64], t[64];
        snprintf(k, sizeof k, "%.3f [%.3f-%.3f]", s->kernel_ms.median, s->kernel_ms.min, s->kernel_ms.max);
        snprintf(t, sizeof t, "%.3f [%.3f-%.3f]", s->total_ms.median, s->total_ms.min, s->total_ms.max);
        printf(" %6u %27s %27s %9.1f %9.1f %8llu %4s\n", s->stats.iterations, k, t,
               cli_mteps(s, s->kernel_ms.median), cli_mteps(s, s->total_ms.median),
               (unsigned long long)s->stats.child_launches, cli_verified_text(s));
    }

    bool header = false;
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        if (!ok(r) || strcmp(r->res.algo->name, "color") != 0)
            continue;
        if (!header) {
            printf("\ncolors used (and conflicts of the first rounds)\n");
            header = true;
        }
        key_columns(cfg, r, w);
        printf(" %6u colors, conflicts", r->res.stats.colors);
        for (uint32_t k = 0; k < r->res.stats.iterations && k < 6; k++)
            printf(" %u", r->res.stats.conflicts[k]);
        printf("%s\n", r->res.stats.iterations > 6 ? " ..." : "");
    }

    header = false;
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *d = &rows[i], *t;
        if (!ok(d) || !cli_algo_shows_variant(d->res.algo) || d->res.opts.variant != CLIRR_VARIANT_DATA ||
            !(t = topo_of(rows, nrows, d)))
            continue;
        if (!header) {
            printf("\ndata-driven time / topology-driven time (below 1: data-driven is faster)\n");
            header = true;
        }
        key_columns(cfg, d, w);
        printf(" kernel %7.3f  total %7.3f\n", d->res.kernel_ms.median / t->res.kernel_ms.median,
               d->res.total_ms.median / t->res.total_ms.median);
    }

    header = false;
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i], *b;
        if (!ok(r) || r->tmpl == CLIRR_TEMPLATE_BASELINE || !(b = baseline_of(rows, nrows, r)))
            continue;
        if (!header) {
            printf("\nspeedup over the baseline template (baseline time / this time)\n");
            header = true;
        }
        key_columns(cfg, r, w);
        printf(" kernel %7.2fx total %7.2fx\n", b->res.kernel_ms.median / r->res.kernel_ms.median,
               b->res.total_ms.median / r->res.total_ms.median);
    }

    header = false;
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i], *best;
        if (!ok(r) || r->tmpl != CLI_TEMPLATE_AUTO || !(best = fastest_of(rows, nrows, r)))
            continue;
        if (!header) {
            printf("\ndid auto pick the fastest? (kernel time)\n");
            header = true;
        }
        char t[64];
        template_text(best, t, sizeof t);
        key_columns(cfg, r, w);
        printf(" %s: fastest %s %.3f ms, auto %.3f ms (%.2fx)\n",
               r->res.kernel_ms.median <= best->res.kernel_ms.median * 1.05 ? "yes" : "no", t,
               best->res.kernel_ms.median, r->res.kernel_ms.median,
               r->res.kernel_ms.median / best->res.kernel_ms.median);
    }
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

void bench_write_csv(FILE *f, const bench_config *cfg, const bench_row *rows, size_t nrows)
{
    fprintf(f, "device,platform,driver,input,nodes,edges,algorithm,variant,push,template_asked,"
               "template,lb_thres,iterations,trials,kernel_ms_median,kernel_ms_min,kernel_ms_max,"
               "total_ms_median,total_ms_min,total_ms_max,transfer_ms_median,mteps_kernel,"
               "mteps_total,child_launches,speedup_kernel_over_baseline,colors,verified,status\n");
    for (size_t i = 0; i < nrows; i++) {
        const bench_row *row = &rows[i];
        const cli_result *r = &row->res;
        const bench_input *in = &cfg->inputs[row->input];
        csv_field(f, r->device->caps.name);
        fputc(',', f);
        csv_field(f, r->device->caps.platform);
        fputc(',', f);
        csv_field(f, r->device->caps.driver);
        fputc(',', f);
        csv_field(f, bench_input_name(in));
        fprintf(f, ",%u,%u,%s,%s,%s,%s,%s,", in->g.n, in->g.m, r->algo->name,
                cli_variant_text(r), cli_push_text(r),
                row->tmpl == CLI_TEMPLATE_AUTO ? "auto" : clirr_template_name((clirr_template)row->tmpl),
                r->stats.template_name ? r->stats.template_name : "");
        const bench_row *b = ok(row) ? baseline_of(rows, nrows, row) : NULL;
        if (ok(row))
            fprintf(f, "%u,%u,%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%llu,", r->stats.lb_thres,
                    r->stats.iterations, r->trials, r->kernel_ms.median, r->kernel_ms.min, r->kernel_ms.max,
                    r->total_ms.median, r->total_ms.min, r->total_ms.max, r->transfer_ms.median,
                    cli_mteps(r, r->kernel_ms.median), cli_mteps(r, r->total_ms.median),
                    (unsigned long long)r->stats.child_launches);
        else
            fprintf(f, ",,,,,,,,,,,,,");
        if (b)
            fprintf(f, "%.4f", b->res.kernel_ms.median / r->kernel_ms.median);
        fputc(',', f);
        if (ok(row) && !strcmp(r->algo->name, "color"))
            fprintf(f, "%u", r->stats.colors);
        fprintf(f, ",%s,", !ok(row) || r->verified < 0 ? "" : r->verified ? "true" : "false");
        csv_field(f, row->skipped ? "skipped" : r->status == CLIRR_OK ? "ok" : r->error);
        fputc('\n', f);
    }
}

static json_object *ratios_json(const bench_row *rows, size_t n, const bench_config *cfg)
{
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < n; i++) {
        const bench_row *r = &rows[i];
        if (!ok(r))
            continue;
        const bench_row *t = cli_algo_shows_variant(r->res.algo) && r->res.opts.variant == CLIRR_VARIANT_DATA
                                 ? topo_of(rows, n, r) : NULL;
        const bench_row *b = r->tmpl != CLIRR_TEMPLATE_BASELINE ? baseline_of(rows, n, r) : NULL;
        if (!t && !b)
            continue;
        json_object *o = json_object_new_object();
        char tt[64];
        template_text(r, tt, sizeof tt);
        json_object_object_add(o, "device", json_object_new_string(r->res.device->caps.name));
        json_object_object_add(o, "input", json_object_new_string(bench_input_name(&cfg->inputs[r->input])));
        json_object_object_add(o, "algorithm", json_object_new_string(r->res.algo->name));
        json_object_object_add(o, "variant", json_object_new_string(cli_variant_text(&r->res)));
        json_object_object_add(o, "push", json_object_new_string(cli_push_text(&r->res)));
        json_object_object_add(o, "template", json_object_new_string(tt));
        if (t) {
            json_object_object_add(o, "data_over_topo_kernel",
                                   json_object_new_double(r->res.kernel_ms.median / t->res.kernel_ms.median));
            json_object_object_add(o, "data_over_topo_total",
                                   json_object_new_double(r->res.total_ms.median / t->res.total_ms.median));
        }
        if (b) {
            json_object_object_add(o, "speedup_over_baseline_kernel",
                                   json_object_new_double(b->res.kernel_ms.median / r->res.kernel_ms.median));
            json_object_object_add(o, "speedup_over_baseline_total",
                                   json_object_new_double(b->res.total_ms.median / r->res.total_ms.median));
        }
        json_object_array_add(arr, o);
    }
    return arr;
}

void bench_write_json(FILE *f, const bench_config *cfg, const bench_row *rows, size_t nrows,
                      int argc, char **argv, const clirr_device *devs, const size_t *picked,
                      size_t ndev)
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
    json_object_object_add(meta, "source", json_object_new_int64(cfg->params.source));
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
        json_object *o = cli_result_json(&rows[i].res, &in);
        json_object_object_add(o, "template_asked",
                               json_object_new_string(rows[i].tmpl == CLI_TEMPLATE_AUTO
                                                          ? "auto" : clirr_template_name((clirr_template)rows[i].tmpl)));
        if (rows[i].skipped)
            json_object_object_add(o, "skipped", json_object_new_boolean(true));
        json_object_array_add(jr, o);
    }
    json_object_object_add(root, "results", jr);
    json_object_object_add(root, "ratios", ratios_json(rows, nrows, cfg));
    cli_json_print(f, root);
    json_object_put(root);
}
