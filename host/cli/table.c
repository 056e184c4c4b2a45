/* host/cli/table.c - the text table of an experiment: a legend of the
 * devices, a line per input, a row per case as it finishes (100 columns;
 * --wide adds spreads, build/prepare/upload times and launches), per-
 * kernel times with --kernels, and bench's summaries: data-driven over
 * topology-driven, each template over baseline, and whether auto picked
 * the fastest, all from the same run. */
#include "table.h"

#include <string.h>

const char *exp_input_name(const exp_config *cfg, size_t input)
{
    const exp_input *e = &cfg->inputs[input];
    return e->file ? e->file : e->spec;
}

const char *exp_push_text(const exp_row *r)
{
    if (!r->planned)
        return "-";
    return clirr_plan_uses_worklist(&r->plan) ? clirr_push_mode_name(r->plan.push) : "-";
}

const char *exp_verified_text(const exp_row *r)
{
    if (r->skipped)
        return "skip";
    if (r->status != CLIRR_OK)
        return "error";
    return r->verified < 0 ? "-" : r->verified ? "yes" : "NO";
}

void exp_template_text(const exp_row *r, char *buf, size_t size)
{
    const char *prefix = r->intent.tmpl < 0 ? "auto:" : "";
    if (!r->planned) {
        snprintf(buf, size, "%s", r->intent.tmpl < 0 ? "auto" : clirr_template_name((clirr_template)r->intent.tmpl));
        return;
    }
    if (!clirr_variant_uses_templates(r->plan.algo, r->plan.variant))
        snprintf(buf, size, "-");
    else if (r->plan.tmpl == CLIRR_TEMPLATE_BASELINE || clirr_template_is_recursion(r->plan.tmpl))
        snprintf(buf, size, "%s%s", prefix, clirr_template_name(r->plan.tmpl)); /* no lb_THRES */
    else
        snprintf(buf, size, "%s%s/%u", prefix, clirr_template_name(r->plan.tmpl), r->plan.lb_thres);
}

double exp_mteps(const exp_row *r, double ms)
{
    return ms > 0 ? (double)r->stats.edges_traversed / (ms * 1e3) : 0;
}

void table_devices(const exp_config *cfg, const clirr_device *devs, const size_t *picked, size_t ndev)
{
    (void)cfg;
    for (size_t i = 0; i < ndev; i++) {
        const clirr_caps *c = &devs[picked[i]].caps;
        printf("device [%u] %s (%s, %s)\n", devs[picked[i]].index, c->name, c->platform, c->driver);
    }
    fflush(stdout);
}

static bool header_printed;

static void header(const exp_config *cfg)
{
    printf("%3s %-8s %-7s %-6s %-20s %5s %9s %9s %9s %8s %5s", "dev", "algo", "var", "push",
           "template", "iters", "reached", "kernel ms", "total ms", "MTEPS", "ok");
    if (cfg->wide)
        printf(" %25s %25s %10s %10s %10s %8s %8s %8s %s", "kernel ms median [min-max]",
               "total ms median [min-max]", "build ms", "prep ms", "upload ms", "launch/r", "children",
               "source", "results");
    printf("\n");
}

void table_input(const exp_config *cfg, size_t input)
{
    const exp_input *e = &cfg->inputs[input];
    char what[256];
    clirr_input_describe(e->in, what, sizeof what);
    printf("\ninput: %s%s (%s)\n", exp_input_name(cfg, input),
           cfg->symmetrize && e->kind == CLIRR_INPUT_GRAPH ? ", symmetrized" : "", what);
    header(cfg);
    header_printed = true;
    fflush(stdout);
}

/* "colors 42" for the extras worth a column. */
static void extras_text(const exp_row *r, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; i < r->extras.n; i++) {
        const clirr_extra *e = &r->extras.e[i];
        size_t len = strlen(buf);
        if (e->in_table && e->type == CLIRR_EXTRA_UINT)
            snprintf(buf + len, size - len, "%s%s %llu", len ? ", " : "", e->name, (unsigned long long)e->u);
        if (e->in_table && e->type == CLIRR_EXTRA_INT)
            snprintf(buf + len, size - len, "%s%s %lld", len ? ", " : "", e->name, (long long)e->i);
        if (e->in_table && e->type == CLIRR_EXTRA_TEXT)
            snprintf(buf + len, size - len, "%s%s %s", len ? ", " : "", e->name, e->text ? e->text : "");
    }
}

static void kernels(const exp_row *r)
{
    printf("    %-40s %9s %9s %10s %6s\n", "kernel", "launches", "per round", "ms", "share");
    double total = 0;
    for (size_t i = 0; i < r->nkernels; i++)
        total += r->kernels[i].ns / 1e6;
    for (size_t i = 0; i < r->nkernels; i++) {
        const clirr_kernel_time *k = &r->kernels[i];
        double ms = k->ns / 1e6;
        printf("    %-40.40s %9llu %9.1f %10.3f %5.1f%%\n", k->name, (unsigned long long)k->launches,
               r->stats.iterations ? (double)k->launches / r->stats.iterations : 0.0, ms,
               total > 0 ? 100 * ms / total : 0.0);
    }
}

void table_row(const exp_config *cfg, const exp_row *r)
{
    if (!header_printed) {
        header(cfg);
        header_printed = true;
    }
    char t[40];
    exp_template_text(r, t, sizeof t);
    printf("%3u %-8s %-7s %-6s %-20.20s ", r->device->index, r->algo->name,
           r->planned ? clirr_plan_variant_name(&r->plan) : "-", exp_push_text(r), t);
    if (r->status != CLIRR_OK) {
        printf("%5s %9s %9s %9s %8s %5s  %s\n", "-", "-", "-", "-", "-", exp_verified_text(r),
               r->skipped ? r->error : "(error below)");
        fflush(stdout);
        return;
    }
    printf("%5u %9llu %9.3f %9.3f %8.1f %5s", r->stats.iterations, (unsigned long long)r->stats.reached,
           r->kernel_ms.median, r->total_ms.median, exp_mteps(r, r->kernel_ms.median), exp_verified_text(r));
    if (cfg->wide) {
        char k[64], tt[64], src[16] = "-", ex[128];
        snprintf(k, sizeof k, "%.3f [%.3f-%.3f]", r->kernel_ms.median, r->kernel_ms.min, r->kernel_ms.max);
        snprintf(tt, sizeof tt, "%.3f [%.3f-%.3f]", r->total_ms.median, r->total_ms.min, r->total_ms.max);
        if (r->algo->sources == CLIRR_SOURCES_ONE)
            snprintf(src, sizeof src, "%u", r->source);
        extras_text(r, ex, sizeof ex);
        printf(" %25s %25s %10.3f %10.3f %10.3f %8.1f %8llu %8s %s", k, tt, r->prep.build_ns / 1e6,
               r->prep.prepare_ns / 1e6, r->prep.upload_ns / 1e6,
               r->stats.iterations ? (double)r->stats.timing.launches / r->stats.iterations : 0.0,
               (unsigned long long)r->stats.child_launches, src, ex);
    }
    printf("\n");
    if (cfg->kernels)
        kernels(r);
    fflush(stdout);
}

/* ---- bench's summaries ------------------------------------------------- */

static bool ok(const exp_row *r) { return r->status == CLIRR_OK; }

/* Same input, device, algorithm, parameters and source. */
static bool same_case(const exp_row *a, const exp_row *b)
{
    return a->input == b->input && a->device == b->device && a->algo == b->algo &&
           a->source == b->source && !memcmp(&a->plan.params, &b->plan.params, sizeof a->plan.params);
}

/* Same case and variant and push: rows that differ in how loops run. */
static bool same_loop(const exp_row *a, const exp_row *b)
{
    return same_case(a, b) && a->plan.variant == b->plan.variant && a->plan.push == b->plan.push &&
           a->intent.wg_size == b->intent.wg_size;
}

static const exp_row *topo_of(const exp_row *rows, size_t n, const exp_row *d)
{
    int topo = clirr_algo_variant(d->algo, "topo");
    for (size_t i = 0; i < n; i++)
        if (ok(&rows[i]) && (int)rows[i].plan.variant == topo && same_case(&rows[i], d) &&
            rows[i].intent.tmpl == d->intent.tmpl && rows[i].intent.lb_thres == d->intent.lb_thres)
            return &rows[i];
    return NULL;
}

static const exp_row *baseline_of(const exp_row *rows, size_t n, const exp_row *r)
{
    for (size_t i = 0; i < n; i++)
        if (ok(&rows[i]) && rows[i].intent.tmpl == CLIRR_TEMPLATE_BASELINE && same_loop(&rows[i], r))
            return &rows[i];
    return NULL;
}

static const exp_row *fastest_of(const exp_row *rows, size_t n, const exp_row *r)
{
    const exp_row *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (ok(&rows[i]) && rows[i].intent.tmpl >= 0 && same_loop(&rows[i], r) &&
            (!best || rows[i].kernel_ms.median < best->kernel_ms.median))
            best = &rows[i];
    return best;
}

static void key(const exp_config *cfg, const exp_row *r)
{
    char t[40];
    exp_template_text(r, t, sizeof t);
    printf("%3u %-28.28s %-8s %-7s %-6s %-20s", r->device->index, exp_input_name(cfg, r->input),
           r->algo->name, clirr_plan_variant_name(&r->plan), exp_push_text(r), t);
}

static bool section(bool *printed, const char *title)
{
    if (!*printed)
        printf("\n%s\n", title);
    *printed = true;
    return true;
}

void table_summaries(const exp_config *cfg, const exp_row *rows, size_t n)
{
    if (!cfg->bench)
        return;
    bool printed = false;
    int data;
    for (size_t i = 0; i < n; i++) {
        const exp_row *d = &rows[i], *t;
        if (!ok(d) || (data = clirr_algo_variant(d->algo, "data")) < 0 || (int)d->plan.variant != data ||
            !(t = topo_of(rows, n, d)))
            continue;
        section(&printed, "data-driven time / topology-driven time (below 1: data-driven is faster)");
        key(cfg, d);
        printf(" kernel %7.3f  total %7.3f\n", d->kernel_ms.median / t->kernel_ms.median,
               d->total_ms.median / t->total_ms.median);
    }
    printed = false;
    for (size_t i = 0; i < n; i++) {
        const exp_row *r = &rows[i], *b;
        if (!ok(r) || r->intent.tmpl == CLIRR_TEMPLATE_BASELINE || !(b = baseline_of(rows, n, r)))
            continue;
        section(&printed, "speedup over the baseline template (baseline time / this time)");
        key(cfg, r);
        printf(" kernel %7.2fx total %7.2fx\n", b->kernel_ms.median / r->kernel_ms.median,
               b->total_ms.median / r->total_ms.median);
    }
    printed = false;
    for (size_t i = 0; i < n; i++) {
        const exp_row *r = &rows[i], *best;
        if (!ok(r) || r->intent.tmpl >= 0 || !(best = fastest_of(rows, n, r)))
            continue;
        section(&printed, "did auto pick the fastest? (kernel time)");
        char t[40];
        exp_template_text(best, t, sizeof t);
        key(cfg, r);
        printf(" %s: fastest %s %.3f ms, auto %.3f ms (%.2fx)\n",
               r->kernel_ms.median <= best->kernel_ms.median * 1.05 ? "yes" : "no", t,
               best->kernel_ms.median, r->kernel_ms.median, r->kernel_ms.median / best->kernel_ms.median);
    }
    printed = false;
    for (size_t i = 0; i < n; i++) {
        const exp_row *r = &rows[i];
        if (!ok(r) || r->reference_ms <= 0)
            continue;
        section(&printed, "speedup over the serial CPU reference (reference time / kernel time, total time)");
        key(cfg, r);
        printf(" ref %10.3f ms  kernel %8.2fx  total %8.2fx\n", r->reference_ms,
               r->reference_ms / r->kernel_ms.median, r->reference_ms / r->total_ms.median);
    }
    fflush(stdout);
}
