/* host/cli/driver.c - the experiment driver: the case matrix (inputs x
 * algorithms x parameter values x roots x devices x variants x push modes
 * x templates x lb_THRES x work-group sizes), one context per device for
 * every case, each case planned once, prepared once (builds and uploads
 * apart), then warm-up and timed trials, verified outside the timed part.
 * Rows stream to the outputs as cases finish; a failing case is a row with
 * its error and the others go on. */
#include "experiment.h"

#include <errno.h>
#include <stdlib.h>
#include <xxhash.h>
#include <string.h>
#include <unistd.h>

typedef struct driver {
    exp_config *cfg;
    clirr_device *devs;
    size_t *picked, ndev;
    clirr_ctx **ctx;           /* per picked device, opened on first use */
    int *ctx_status;
    char (*ctx_error)[CLIRR_MSG_MAX];
    bool **prepared;           /* [device][algorithm]: kernels built once */
    exp_outputs *out;
    exp_row *rows;
    size_t nrows, crows;
    size_t total, done;        /* cases, for progress */
    uint64_t t0;
    bool counting;             /* first pass: count the cases only */
    int code;
    const void *expected;      /* reference of the current group, or NULL */
    const clirr_algo *ref_algo; /* what the reference was computed for */
    size_t ref_input;
    clirr_intent ref_intent;
    double reference_ms;
    int reference_status;
    char reference_error[CLIRR_MSG_MAX];
    void *result;              /* one case's values */
    size_t result_size;
    clirr_trace trace;         /* --trace: the current case's rounds */
} driver;

/* What varies inside one (input, algorithm, parameters, root) group. */
typedef struct group {
    size_t input;
    const clirr_algo *algo;
    clirr_intent base;         /* parameters and source set */
    uint32_t source;
} group;

static int worse(int a, int b) { return a > b ? a : b; }

static void progress(driver *d, const char *fmt, const char *a, const char *b, const char *c)
{
    if (!d->cfg->progress)
        return;
    double el = (clirr_now_ns() - d->t0) / 1e9;
    double eta = d->done ? el / d->done * (d->total - d->done) : 0;
    fprintf(stderr, "[%zu/%zu %.0f s, ETA %.0f s] ", d->done + 1, d->total, el, eta);
    fprintf(stderr, fmt, a, b, c);
    fputc('\n', stderr);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static exp_spread spread(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    exp_spread s = {v[n / 2], v[0], v[n - 1]};
    if (n % 2 == 0)
        s.median = (v[n / 2 - 1] + v[n / 2]) / 2;
    return s;
}

/* Per-kernel times summed over the timed trials (divided at the end). */
static void add_kernels(exp_row *r, const clirr_timing *t)
{
    for (size_t i = 0; i < t->nkernels; i++) {
        size_t k = 0;
        while (k < r->nkernels && strcmp(r->kernels[k].name, t->kernels[i].name))
            k++;
        if (k == r->nkernels) {
            if (k == CLIRR_MAX_TIMED_KERNELS)
                continue;
            r->kernels[r->nkernels++] = t->kernels[i];
            continue;
        }
        r->kernels[k].launches += t->kernels[i].launches;
        r->kernels[k].ns += t->kernels[i].ns;
    }
}

static clirr_ctx *context(driver *d, size_t dev, exp_row *row)
{
    if (!d->ctx[dev] && d->ctx_status[dev] == CLIRR_OK) {
        clirr_error err;
        clirr_error_clear(&err);
        d->ctx_status[dev] = clirr_ctx_create(&d->devs[d->picked[dev]], &d->ctx[dev], &err);
        if (d->ctx_status[dev] == CLIRR_OK) {
            clirr_ctx_set_upload_mode(d->ctx[dev], d->cfg->upload);
            clirr_ctx_set_huge_pages(d->ctx[dev], !d->cfg->no_huge_pages);
        }
        /* profile: every program of this context instrumented. */
        if (d->ctx_status[dev] == CLIRR_OK && d->cfg->profile &&
            (d->ctx_status[dev] = clirr_ctx_irr_enable(d->ctx[dev], &d->cfg->irr, &err)) != CLIRR_OK) {
            clirr_ctx_release(d->ctx[dev]);
            d->ctx[dev] = NULL;
        }
        memcpy(d->ctx_error[dev], err.msg, CLIRR_MSG_MAX);
    }
    if (!d->ctx[dev]) {
        row->status = d->ctx_status[dev];
        memcpy(row->error, d->ctx_error[dev], sizeof row->error);
    }
    return d->ctx[dev];
}

/* Write a result (one line per item, the algorithm's own lines, or its own
 * files under path as a prefix), whole or not at all ("-": standard
 * output). */
static int write_output(const char *path, clirr_session *s, const void *values)
{
    clirr_out_file out;
    clirr_error err;
    if (clirr_session_writes_prefix(s)) /* the algorithm's own files */
        return clirr_session_write_prefix(s, values, path, &err) == CLIRR_OK ? 0 : cli_report(&err);
    int rc = clirr_out_open(&out, path, &err);
    if (rc == CLIRR_OK) {
        rc = clirr_session_write_result(s, values, out.f, &err);
        if (rc == CLIRR_OK)
            rc = clirr_out_close(&out, &err);
        else
            clirr_out_abandon(&out);
    }
    return rc == CLIRR_OK ? 0 : cli_report(&err);
}

static void warn_reach(const driver *d, const exp_row *r)
{
    uint64_t n = clirr_input_items(d->cfg->inputs[r->input].in);
    if (r->algo->sources == CLIRR_SOURCES_ONE && n >= 100 && r->stats.reached * 100 < n)
        fprintf(stderr,
                "clirr: warning: %s from vertex %u reached %llu of %llu vertices (under 1%%); "
                "--source max-degree or random picks a better-connected root\n",
                r->algo->name, r->source, (unsigned long long)r->stats.reached,
                (unsigned long long)n);
}

/* Verify a timed trial's result, outside its timing: a result equal to
 * one already verified (same hash) needs no second check, so a
 * deterministic algorithm pays the verifier once, while a trial that
 * differs (a wrong one, or another valid coloring) is checked in full.
 * The first failure is kept. */
static void verify_trial(driver *d, exp_row *row, const clirr_input *in, unsigned trial, unsigned trials,
                         uint64_t *good_hash, bool *have_hash)
{
    if (!d->expected || row->verified == 0)
        return;
    size_t bytes = clirr_input_items(in) * row->algo->value_size;
    uint64_t h = XXH3_64bits(d->result, bytes);
    if (*have_hash && h == *good_hash)
        return;
    clirr_verify_report rep;
    memset(&rep, 0, sizeof rep);
    row->verified = row->algo->verify(in, &row->plan, d->expected, d->result, &rep);
    if (row->verified) {
        *good_hash = h;
        *have_hash = true;
    } else {
        snprintf(row->verify_text, sizeof row->verify_text, "trial %u of %u: %.960s", trial + 1, trials,
                 rep.text);
    }
}

/* CLIRR_CORRUPT_TRIAL=K flips a bit of timed trial K's result (1-based)
 * before it is verified: a way to see that a wrong trial other than the
 * first or last is caught (the tests do). 0 when unset. */
static unsigned corrupt_trial(void)
{
    const char *v = getenv("CLIRR_CORRUPT_TRIAL");
    return v ? (unsigned)strtoul(v, NULL, 10) : 0;
}

/* Trials of a prepared session: the warm-up; the timed trials with kernel
 * timing off, for the wall clock (a profiling event costs host time at
 * every launch: clirr_ctx_set_kernel_timing); then as many again with it
 * on, for the kernel times and the per-kernel table. Each trial is
 * verified; the last result stays in d->result. profile and --trace time
 * every trial's kernels (one set): both read them per launch or round. */
static int trials(driver *d, clirr_ctx *ctx, clirr_session *s, const clirr_input *in, exp_row *row,
                  clirr_error *err)
{
    uint64_t good_hash = 0;
    bool have_hash = false;
    row->verified = d->expected ? 1 : -1;
    unsigned rep = d->cfg->repeat, corrupt = corrupt_trial();
    bool split = !d->cfg->profile && !d->cfg->trace_file;
    unsigned timed = split ? 2 * rep : rep;
    double *t = calloc(4 * (size_t)rep, sizeof *t); /* total, kernel, transfer, kernel-timed total */
    if (!t)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    int rc = CLIRR_OK;
    for (unsigned i = 0; i < d->cfg->warmup + timed && rc == CLIRR_OK; i++) {
        /* profile counts the timed trials only: what preparing and the
         * warm-up recorded is dropped. */
        if (d->cfg->profile && i == d->cfg->warmup &&
            (rc = clirr_ctx_irr_take(ctx, &row->irr, err)) != CLIRR_OK)
            break;
        bool kernel_timed = !split || i >= d->cfg->warmup + rep;
        clirr_ctx_set_kernel_timing(ctx, kernel_timed);
        rc = clirr_session_run(s, d->result, &row->stats, err);
        if (rc == CLIRR_OK && i < d->cfg->warmup)
            row->warmup_ms += row->stats.total_ns / 1e6;
        if (rc != CLIRR_OK || i < d->cfg->warmup)
            continue;
        unsigned k = i - d->cfg->warmup, j = k % rep;
        if (!split || !kernel_timed) {
            t[j] = row->stats.total_ns / 1e6;
            t[2 * rep + j] = row->stats.timing.transfer_ns / 1e6;
        }
        if (kernel_timed) {
            t[rep + j] = row->stats.timing.kernel_ns / 1e6;
            t[3 * rep + j] = row->stats.total_ns / 1e6;
            add_kernels(row, &row->stats.timing);
        }
        if (k + 1 == corrupt && clirr_input_items(in))
            ((unsigned char *)d->result)[0] ^= 1;
        verify_trial(d, row, in, k, timed, &good_hash, &have_hash);
    }
    clirr_ctx_set_kernel_timing(ctx, true);
    if (rc == CLIRR_OK) {
        row->trials = rep;
        row->total_ms = spread(t, rep);
        row->kernel_ms = spread(t + rep, rep);
        row->transfer_ms = spread(t + 2 * rep, rep);
        row->kernel_timed_total_ms = spread(t + 3 * rep, rep);
        for (size_t k = 0; k < row->nkernels; k++) {
            row->kernels[k].ns /= rep;
            row->kernels[k].launches /= rep;
        }
    }
    free(t);
    return rc;
}

/* profile with the default buffer: when a launch wanted more records than
 * the buffer holds, grow it to what that launch wanted (a quarter more:
 * a data-driven run's next trial may differ) and say that the trials run
 * again; true when they should. An explicit --irr-records is kept. */
static bool grow_records(driver *d, clirr_ctx *ctx, exp_row *row, unsigned attempt)
{
    clirr_irr_kernel all;
    clirr_irr_total(&row->irr, &all);
    if (!all.dropped || d->cfg->irr.records || attempt >= 3)
        return false;
    uint64_t want = row->irr.largest_launch + row->irr.largest_launch / 4;
    clirr_error err;
    clirr_error_clear(&err);
    if (clirr_ctx_irr_grow(ctx, want, &err) != CLIRR_OK) {
        fprintf(stderr, "clirr profile: %s: %s\n", row->algo->name, err.msg);
        return false;
    }
    fprintf(stderr,
            "clirr profile: %s: a launch wanted %llu records, the buffer held %llu: grown to %llu, "
            "trials run again\n",
            row->algo->name, (unsigned long long)row->irr.largest_launch,
            (unsigned long long)row->irr.capacity, (unsigned long long)want);
    return true;
}

/* Plan, prepare, time and verify one case. */
static void run_case(driver *d, const group *g, size_t dev, exp_row *row)
{
    exp_config *cfg = d->cfg;
    const clirr_input *in = cfg->inputs[g->input].in;
    clirr_error err;
    clirr_error_clear(&err);
    clirr_session *s = NULL;
    clirr_ctx *ctx = context(d, dev, row);
    if (!ctx)
        return;
    const clirr_device *device = &d->devs[d->picked[dev]];
    /* A profiling context runs no device-side enqueue (clirr_ctx_caps
     * says so): plan from what it can run. */
    row->status = clirr_plan_make(g->algo, clirr_ctx_caps(ctx), &row->intent, in, &row->plan, &err);
    row->planned = row->status == CLIRR_OK;
    if (row->planned && cfg->bench && !cfg->variants_given)
        row->plan.variant_reason = "bench runs every variant";
    if (row->status == CLIRR_ERR_UNSUPPORTED && cfg->bench)
        row->skipped = true;
    if (row->status != CLIRR_OK)
        goto fail;
    if (d->reference_status != CLIRR_OK) {
        row->status = d->reference_status;
        memcpy(row->error, d->reference_error, sizeof row->error);
        return;
    }
    row->reference_ms = d->reference_ms;
    if (cfg->explain && !cfg->json)
        exp_explain(stdout, cfg, row);
    size_t a = 0;
    while (cfg->algos[a] != g->algo)
        a++;
    if (!d->prepared[dev][a]) {
        progress(d, "preparing %s on %s (kernels compile on first use, then come from the cache)",
                 g->algo->name, device->caps.name, "");
        d->prepared[dev][a] = true;
    }
    row->status = clirr_session_prepare(ctx, in, &row->plan, &s, &err);
    if (row->status != CLIRR_OK)
        goto fail;
    clirr_session_prepare_times(s, &row->prep);
    for (unsigned attempt = 0;; attempt++) {
        row->nkernels = 0;
        row->status = trials(d, ctx, s, in, row, &err);
        if (row->status != CLIRR_OK || !cfg->profile)
            break;
        row->status = clirr_ctx_irr_take(ctx, &row->irr, &err);
        row->irr_taken = row->status == CLIRR_OK;
        if (row->status != CLIRR_OK || !grow_records(d, ctx, row, attempt))
            break;
    }
    if (row->status != CLIRR_OK)
        goto fail;
    if (cfg->profile) {
        clirr_irr_kernel all;
        clirr_irr_total(&row->irr, &all);
        if (all.dropped) {
            row->status = CLIRR_ERR_TOO_LARGE;
            snprintf(row->error, sizeof row->error,
                     "%s: the record buffer overflowed, %llu records lost (the counts are "
                     "incomplete): raise --irr-records or record every K-th work-group with "
                     "--irr-sample K",
                     g->algo->name, (unsigned long long)all.dropped);
            goto fail;
        }
    }
    clirr_session_extras(s, d->result, &row->extras);
    /* Files the algorithm's own parameters name (--parents, ...), from the
     * last trial's result. */
    row->status = clirr_session_write_outputs(s, d->result, &err);
    if (row->status != CLIRR_OK)
        goto fail;
    warn_reach(d, row);
    if (cfg->output)
        d->code = worse(d->code, write_output(cfg->output, s, d->result));
fail:
    if (row->status != CLIRR_OK && !row->error[0])
        memcpy(row->error, err.msg, sizeof row->error);
    clirr_session_release(s);
}

static void finish_row(driver *d, exp_row *row)
{
    exp_outputs_row(d->out, d->cfg, row);
    if (row->status != CLIRR_OK && !row->skipped) {
        fprintf(stderr, "clirr %s: %s\n", d->cfg->command, row->error);
        d->code = worse(d->code, clirr_status_exit_code(row->status));
    } else if (row->verified == 0) {
        fprintf(stderr, "clirr %s: %s %s on %s: verification FAILED: %s\n", d->cfg->command,
                row->algo->name, clirr_plan_variant_name(&row->plan), row->device->caps.name,
                row->verify_text);
        d->code = worse(d->code, 1);
    }
}

/* One case: counted on the first pass, run and streamed on the second. */
static void visit(driver *d, const group *g, size_t dev, const clirr_intent *it)
{
    if (d->counting) {
        d->total++;
        return;
    }
    if (d->nrows == d->crows) {
        size_t c = d->crows ? 2 * d->crows : 64;
        exp_row *r = realloc(d->rows, c * sizeof *r);
        if (!r) {
            d->code = 3;
            return;
        }
        d->rows = r;
        d->crows = c;
    }
    exp_row *row = &d->rows[d->nrows++];
    memset(row, 0, sizeof *row);
    row->index = d->nrows;
    row->input = g->input;
    row->device = &d->devs[d->picked[dev]];
    row->algo = g->algo;
    row->intent = *it;
    if (d->cfg->trace_file)
        row->intent.trace = &d->trace;
    row->source = g->source;
    row->verified = -1;
    progress(d, "%s on %s", g->algo->name, row->device->caps.name, "");
    run_case(d, g, dev, row);
    d->done++;
    finish_row(d, row);
}

/* The variants of a asked for: indices, -1 for the default. */
static size_t variants_of(const exp_config *cfg, const clirr_algo *a, int *out)
{
    size_t n = 0;
    if (cfg->nvariants == 0) {
        out[n++] = -1;
        return n;
    }
    for (size_t v = 0; v < cfg->nvariants; v++)
        for (unsigned k = 0; k < a->nvariants; k++) {
            bool match = !strcmp(cfg->variants[v], "all") ||
                         (a->variants[k].name && !strcmp(cfg->variants[v], a->variants[k].name));
            bool dup = false;
            for (size_t j = 0; j < n; j++)
                dup |= out[j] == (int)k;
            if (match && !dup)
                out[n++] = (int)k;
        }
    return n;
}

/* A parameter only some variants read (its descriptor says which) makes
 * cases of those only: another variant runs with the first value listed. */
static bool variant_reads_group(const exp_config *cfg, const group *g, unsigned variant)
{
    const clirr_algo *a = g->algo;
    for (size_t k = 0; k < cfg->nparams; k++) {
        int i = clirr_algo_param(a, cfg->params[k].name);
        if (i < 0 || !a->params[i].variants || (a->params[i].variants >> variant & 1) ||
            cfg->params[k].nvalues < 2)
            continue;
        clirr_params first = g->base.params;
        (void)clirr_param_set(a, (unsigned)i, cfg->params[k].values[0], &first, NULL);
        if (memcmp(&first.v[i], &g->base.params.v[i], sizeof first.v[i]))
            return false;
    }
    return true;
}

/* Does the variant take template tmpl (-1 = auto: every variant)? A
 * recursion variant takes the recursion family, any other the loops. */
static bool variant_takes(const clirr_algo *a, unsigned variant, int tmpl)
{
    return tmpl < 0 || clirr_template_is_recursion((clirr_template)tmpl) == a->variants[variant].recursion;
}

/* Devices x variants x push x template x lb_THRES x wg-size of a group. A
 * variant makes no case with a template of the other family; when no
 * variant of the group takes any template listed, one case with the first
 * lets the plan say why. */
static void expand_group(driver *d, const group *g)
{
    const exp_config *cfg = d->cfg;
    int vars[64];
    size_t nv = variants_of(cfg, g->algo, vars);
    bool any = false;
    for (size_t v = 0; v < nv; v++)
        for (size_t t = 0; t < cfg->ntemplates; t++)
            any |= variant_takes(g->algo, vars[v] < 0 ? g->algo->default_variant : (unsigned)vars[v],
                                 cfg->templates[t]);
    for (size_t dev = 0; dev < d->ndev; dev++)
        for (size_t v = 0; v < nv; v++) {
            unsigned vi = vars[v] < 0 ? g->algo->default_variant : (unsigned)vars[v];
            if (!variant_reads_group(cfg, g, vi))
                continue;
            bool wl = g->algo->variants[vi].worklist;
            for (size_t p = 0; p < (wl ? cfg->npushes : 1); p++)
                for (size_t t = 0; t < cfg->ntemplates; t++) {
                    int tmpl = cfg->templates[t];
                    if (!clirr_variant_uses_templates(g->algo, vi)) { /* one case */
                        if (t)
                            break;
                        tmpl = -1;
                    } else if (!variant_takes(g->algo, vi, tmpl) && (any || v || t)) {
                        continue;
                    }
                    /* lb_THRES means nothing to the thread-mapped baseline
                     * and the recursion templates; under auto it overrides
                     * the policy's value. */
                    bool thres = tmpl != CLIRR_TEMPLATE_BASELINE &&
                                 !(tmpl >= 0 && clirr_template_is_recursion((clirr_template)tmpl));
                    size_t nl = thres && cfg->nlb_thres ? cfg->nlb_thres : 1;
                    size_t nw = cfg->nwg_sizes ? cfg->nwg_sizes : 1;
                    for (size_t l = 0; l < nl; l++)
                        for (size_t w = 0; w < nw; w++) {
                            clirr_intent it = g->base;
                            it.variant = vars[v];
                            it.push = wl ? cfg->pushes[p] : CLIRR_PUSH_AUTO;
                            it.tmpl = tmpl;
                            it.lb_thres = thres && cfg->nlb_thres ? cfg->lb_thres[l] : 0;
                            it.wg_size = cfg->nwg_sizes ? cfg->wg_sizes[w] : 0;
                            visit(d, g, dev, &it);
                        }
                }
        }
}

/* Does g need the same reference as the last one computed? Parameters
 * that only some variants read are tuning knobs (clirr_param_desc): their
 * values do not change the answer. */
static bool same_reference(const driver *d, const group *g)
{
    if (d->ref_algo != g->algo || d->ref_input != g->input ||
        memcmp(&d->ref_intent.source, &g->base.source, sizeof g->base.source))
        return false;
    for (unsigned i = 0; i < g->algo->nparams; i++)
        if (!g->algo->params[i].variants &&
            memcmp(&d->ref_intent.params.v[i], &g->base.params.v[i], sizeof g->base.params.v[i]))
            return false;
    return true;
}

static void drop_reference(driver *d)
{
    free((void *)d->expected);
    d->expected = NULL;
    d->ref_algo = NULL;
}

/* The group's reference result (once for every device and variant, and
 * for every value of a tuning knob). */
static void reference(driver *d, const group *g)
{
    if (d->counting || !d->cfg->verify)
        return;
    if (d->ref_algo && same_reference(d, g))
        return;
    drop_reference(d);
    d->ref_algo = g->algo;
    d->ref_input = g->input;
    d->ref_intent = g->base;
    d->reference_status = CLIRR_OK;
    d->reference_ms = 0;
    const clirr_input *in = d->cfg->inputs[g->input].in;
    clirr_plan plan;
    clirr_error err;
    clirr_error_clear(&err);
    /* The reference reads the plan's parameters and source only, which
     * any device's plan shares: plan on the first. */
    int rc = clirr_plan_make(g->algo, &d->devs[d->picked[0]].caps, &g->base, in, &plan, &err);
    if (rc == CLIRR_ERR_UNSUPPORTED) {
        /* fp64 missing on the first device: the plan still carries the
         * parameters and source, which is all a reference reads. */
        memset(&plan, 0, sizeof plan);
        plan.algo = g->algo;
        plan.source = g->base.source;
        plan.params = g->base.params;
        rc = CLIRR_OK;
    }
    size_t need = (clirr_input_items(in) + 1) * g->algo->value_size;
    void *exp = malloc(need);
    if (rc == CLIRR_OK && !exp)
        rc = clirr_fail(&err, CLIRR_ERR_NOMEM, "out of memory for the reference result");
    progress(d, "reference %s on %s (serial CPU)", g->algo->name, clirr_input_name(in), "");
    uint64_t t0 = clirr_now_ns();
    if (rc == CLIRR_OK)
        rc = g->algo->reference(in, &plan, exp, &err);
    d->reference_ms = (clirr_now_ns() - t0) / 1e6;
    d->reference_status = rc;
    if (rc != CLIRR_OK) {
        free(exp);
        snprintf(d->reference_error, sizeof d->reference_error, "%s on %s: %.3800s", g->algo->name,
                 clirr_input_name(in), err.msg);
        return;
    }
    d->expected = exp;
}

/* Parameter value combinations of algorithm a: the cartesian product of
 * the values given for its parameters. */
static void expand_params(driver *d, group *g, size_t k)
{
    const exp_config *cfg = d->cfg;
    if (k == cfg->nparams) {
        const exp_input *ein = &cfg->inputs[g->input];
        bool one = g->algo->sources == CLIRR_SOURCES_ONE;
        /* Roots are a graph's: on a list or tree, one case, which
         * planning refuses for reading the wrong kind of input. */
        one = one && ein->kind == CLIRR_INPUT_GRAPH;
        uint32_t nroots = one ? ein->nroots : 1;
        for (uint32_t r = 0; r < nroots; r++) {
            g->source = one ? ein->roots[r] : 0;
            if (one) {
                g->base.source.rule = CLIRR_SOURCE_VERTEX;
                g->base.source.vertex = g->source;
                g->base.source.count = 1;
            }
            reference(d, g);
            expand_group(d, g);
        }
        return;
    }
    const exp_param_opt *p = &cfg->params[k];
    int i = clirr_algo_param(g->algo, p->name);
    if (i < 0) {
        expand_params(d, g, k + 1);
        return;
    }
    for (size_t v = 0; v < p->nvalues; v++) {
        (void)clirr_param_set(g->algo, (unsigned)i, p->values[v], &g->base.params, NULL);
        expand_params(d, g, k + 1);
    }
}

static void expand_all(driver *d)
{
    exp_config *cfg = d->cfg;
    for (size_t i = 0; i < cfg->ninputs; i++) {
        if (!cfg->inputs[i].in)
            continue;
        if (!d->counting)
            exp_outputs_input(d->out, cfg, i);
        /* Algorithms of another input kind pass over an input when some
         * algorithm asked for reads it (bench over graphs and lists);
         * when none does, planning says why not. */
        bool some_reads = false;
        for (size_t a = 0; a < cfg->nalgos; a++)
            some_reads |= cfg->algos[a]->input == cfg->inputs[i].kind;
        for (size_t a = 0; a < cfg->nalgos; a++) {
            if (some_reads && cfg->algos[a]->input != cfg->inputs[i].kind)
                continue;
            group g = {.input = i, .algo = cfg->algos[a]};
            clirr_intent_default(g.algo, &g.base);
            g.base.group_wg = cfg->group_wg;
            g.base.coarsen = cfg->coarsen;
            g.base.wl_capacity = cfg->wl_capacity;
            g.base.local_rounds = cfg->local_rounds;
            g.base.queue_rounds = cfg->queue_rounds;
            g.base.fixed_grid = cfg->fixed_grid;
            g.base.reorder = cfg->reorder;
            /* A multi-source sample: K evenly spaced, or K by --source's rule;
             * a vertex number with K > 1 is the single-source algorithms'. */
            if (g.algo->sources == CLIRR_SOURCES_MANY && (cfg->source_given || cfg->source.count)) {
                g.base.source = cfg->source;
                if (!cfg->source_given || (cfg->source.rule == CLIRR_SOURCE_VERTEX && cfg->source.count > 1))
                    g.base.source.rule = CLIRR_SOURCE_SPREAD;
            }
            expand_params(d, &g, 0);
        }
        drop_reference(d);
        /* The input's device copies are not needed by later inputs. */
        for (size_t dev = 0; !d->counting && dev < d->ndev; dev++)
            if (d->ctx[dev])
                clirr_input_detach(cfg->inputs[i].in, d->ctx[dev]);
    }
}

static int load_graph(const exp_config *cfg, exp_input *e, const char *name, clirr_error *err)
{
    clirr_graph g = {0};
    int rc = e->file ? clirr_graph_read(e->file, &g, err) : clirr_graph_generate(e->spec, &g, err);
    if (rc == CLIRR_OK && cfg->symmetrize)
        rc = clirr_graph_symmetrize(&g, err);
    if (rc == CLIRR_OK && g.weights_rounded)
        fprintf(stderr, "clirr: note: %s has real values; they were rounded to integer weights\n", name);
    if (rc == CLIRR_OK)
        rc = clirr_input_from_graph(&g, true, name, &e->in, err);
    clirr_graph_free(&g);
    return rc;
}

/* A list, a formula, bodies, a mesh or a tree (with --root), read or generated. */
static int load_other(const exp_config *cfg, exp_input *e, const char *name, clirr_error *err)
{
    if (e->kind == CLIRR_INPUT_MESH) {
        clirr_mesh m = {0};
        int rc = e->file ? clirr_mesh_read(e->file, &m, err) : clirr_mesh_generate(e->spec, &m, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_mesh(&m, true, name, &e->in, err);
        clirr_mesh_free(&m);
        return rc;
    }
    if (e->kind == CLIRR_INPUT_CNF) {
        clirr_cnf f = {0};
        int rc = e->file ? clirr_cnf_read(e->file, &f, err) : clirr_cnf_generate(e->spec, &f, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_cnf(&f, true, name, &e->in, err);
        clirr_cnf_free(&f);
        return rc;
    }
    if (e->kind == CLIRR_INPUT_BODIES) {
        clirr_bodies b = {0};
        int rc = e->file ? clirr_bodies_read(e->file, &b, err) : clirr_bodies_generate(e->spec, &b, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_bodies(&b, true, name, &e->in, err);
        clirr_bodies_free(&b);
        return rc;
    }
    if (e->kind == CLIRR_INPUT_LIST) {
        clirr_list l = {0};
        int rc = e->file ? clirr_list_read(e->file, &l, err) : clirr_list_generate(e->spec, &l, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_list(&l, true, name, &e->in, err);
        clirr_list_free(&l);
        return rc;
    }
    clirr_tree t = {0};
    int rc = e->file ? clirr_tree_read(e->file, &t, err) : clirr_tree_generate(e->spec, &t, err);
    if (rc == CLIRR_OK && cfg->root >= t.n)
        rc = clirr_fail(err, CLIRR_ERR_USAGE, "--root %u: %s has vertices 0 to %u", cfg->root, name, t.n - 1);
    t.root = cfg->root;
    if (rc == CLIRR_OK)
        rc = clirr_input_from_tree(&t, true, name, &e->in, err);
    clirr_tree_free(&t);
    return rc;
}

/* Read or generate every input; pick the roots of single-source runs. A
 * graph no chosen device could hold is refused while it is read, before
 * its memory is taken (a 13-byte edge list can name vertex 2^32). */
static void load_inputs(driver *d)
{
    exp_config *cfg = d->cfg;
    uint64_t largest = 0;
    for (size_t i = 0; i < d->ndev; i++) {
        uint64_t m = d->devs[d->picked[i]].caps.max_alloc;
        largest = m > largest ? m : largest;
    }
    /* A run keeps several arrays of the graph's size besides it (the
     * reference's, results, device copies): an eighth of the memory per
     * array leaves them room. */
    clirr_graph_set_array_limits(largest, clirr_physical_memory() / 8);
    for (size_t i = 0; i < cfg->ninputs; i++) {
        exp_input *e = &cfg->inputs[i];
        const char *name = exp_input_name(cfg, i);
        clirr_error err;
        clirr_error_clear(&err);
        if (cfg->progress)
            fprintf(stderr, "loading %s ...\n", name);
        int rc = e->kind == CLIRR_INPUT_GRAPH ? load_graph(cfg, e, name, &err) : load_other(cfg, e, name, &err);
        clirr_source_spec spec = cfg->source;
        if (!cfg->source_given && spec.count > 1)
            spec.rule = CLIRR_SOURCE_RANDOM;
        if (spec.rule == CLIRR_SOURCE_VERTEX)
            spec.count = 1;
        uint32_t k = spec.count ? spec.count : 1;
        if (rc == CLIRR_OK && !(e->roots = malloc(k * sizeof *e->roots)))
            rc = clirr_fail(&err, CLIRR_ERR_NOMEM, "out of memory");
        if (rc == CLIRR_OK) {
            bool any_one = false;
            for (size_t a = 0; a < cfg->nalgos; a++)
                any_one |= cfg->algos[a]->sources == CLIRR_SOURCES_ONE;
            any_one = any_one && e->kind == CLIRR_INPUT_GRAPH;
            e->nroots = any_one ? clirr_sources_pick(clirr_input_graph(e->in), &spec, e->roots, k, &err) : 0;
            if (any_one && e->nroots == 0)
                rc = err.status ? err.status : CLIRR_ERR_USAGE;
        }
        if (rc != CLIRR_OK) {
            e->status = rc;
            snprintf(e->error, sizeof e->error, "%s", err.msg);
            clirr_input_free(e->in);
            e->in = NULL;
            fprintf(stderr, "clirr %s: %s\n", cfg->command, err.msg);
            d->code = worse(d->code, clirr_status_exit_code(rc));
        }
    }
}

static void free_driver(driver *d)
{
    for (size_t i = 0; i < d->ndev; i++) {
        /* Inputs' device copies go before their context. */
        for (size_t k = 0; d->ctx && k < d->cfg->ninputs; k++)
            if (d->ctx[i] && d->cfg->inputs[k].in)
                clirr_input_detach(d->cfg->inputs[k].in, d->ctx[i]);
        if (d->ctx)
            clirr_ctx_release(d->ctx[i]);
        if (d->prepared)
            free(d->prepared[i]);
    }
    clirr_trace_free(&d->trace);
    free(d->ctx);
    free(d->ctx_status);
    free(d->ctx_error);
    free(d->prepared);
    free(d->rows);
    free(d->result);
    free(d->devs);
    free(d->picked);
}

int exp_run(exp_config *cfg)
{
    driver d;
    memset(&d, 0, sizeof d);
    d.cfg = cfg;
    d.t0 = clirr_now_ns();
    cfg->progress = cfg->progress || isatty(STDERR_FILENO);
    clirr_error err;
    clirr_error_clear(&err);
    int rc = cli_devices_pick(cfg->selector, &d.devs, &d.picked, &d.ndev, &err);
    if (rc != CLIRR_OK) {
        exp_outputs *out = NULL;
        if (exp_outputs_open(&out, cfg, NULL, NULL, 0) == 0) {
            exp_outputs_error(out, "devices", rc, err.msg);
            exp_outputs_close(out, cfg, NULL, 0);
        }
        free(d.devs);
        free(d.picked);
        return cli_report(&err);
    }
    d.ctx = calloc(d.ndev, sizeof *d.ctx);
    d.ctx_status = calloc(d.ndev, sizeof *d.ctx_status);
    d.ctx_error = calloc(d.ndev, sizeof *d.ctx_error);
    d.prepared = calloc(d.ndev, sizeof *d.prepared);
    for (size_t i = 0; d.prepared && i < d.ndev; i++)
        d.prepared[i] = calloc(cfg->nalgos, sizeof **d.prepared);
    if (!d.ctx || !d.ctx_status || !d.ctx_error || !d.prepared) {
        free_driver(&d);
        return 3;
    }
    if ((d.code = exp_outputs_open(&d.out, cfg, d.devs, d.picked, d.ndev)) != 0) {
        free_driver(&d);
        return d.code;
    }
    load_inputs(&d);
    for (size_t i = 0; i < cfg->ninputs; i++)
        if (!cfg->inputs[i].in)
            exp_outputs_error(d.out, exp_input_name(cfg, i), cfg->inputs[i].status, cfg->inputs[i].error);
    /* Room for any algorithm's result on the largest input. */
    uint64_t items = 0;
    for (size_t i = 0; i < cfg->ninputs; i++)
        if (cfg->inputs[i].in && clirr_input_items(cfg->inputs[i].in) > items)
            items = clirr_input_items(cfg->inputs[i].in);
    size_t value_size = sizeof(uint64_t);
    for (size_t a = 0; a < cfg->nalgos; a++)
        if (cfg->algos[a]->value_size > value_size)
            value_size = cfg->algos[a]->value_size;
    d.result = malloc((items + 1) * value_size);
    d.counting = true;
    expand_all(&d);
    d.counting = false;
    if (cfg->output && d.total != 1) {
        char msg[256];
        snprintf(msg, sizeof msg, "--output needs exactly one case (one algorithm, input, device, "
                                  "variant, root...); this run has %zu", d.total);
        int code = cli_usage_error(cfg->command, "%s", msg);
        exp_outputs_error(d.out, "--output", CLIRR_ERR_USAGE, msg);
        exp_outputs_close(d.out, cfg, NULL, 0);
        free_driver(&d);
        return code;
    }
    if (!d.result) {
        d.code = 3;
    } else {
        expand_all(&d);
    }
    d.code = worse(d.code, exp_outputs_close(d.out, cfg, d.rows, d.nrows));
    int code = d.code;
    free_driver(&d);
    return code;
}
