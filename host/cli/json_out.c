/* host/cli/json_out.c - the outputs of an experiment: the table (table.c)
 * or one JSON document on stdout, the JSON document to a file, CSV rows.
 * Every sink gets each row as its case finishes. The JSON document is
 *
 *   {"clirr": {version, commit, command, date}, "devices": [...],
 *    "inputs": [...], "runs": [...], "errors": [...]}
 *
 * whatever the number of runs, and stays one valid document when cases
 * or inputs fail. Reals are printed with the shortest text that reads
 * back as the same double; times in milliseconds to 0.1 us. */
#include "experiment.h"
#include "table.h"

#include "clirr_vcs.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct exp_outputs {
    FILE *json[2];            /* stdout (--json) and/or a file (--json=FILE) */
    clirr_out_file json_file, csv_file, trace_file; /* written whole or not at all */
    FILE *trace;              /* --trace: a row per round of each case's last trial */
    size_t njson;
    bool json_first_run;
    json_object *errors;
    FILE *csv;
    bool table;
    const clirr_device *devs;
    const size_t *picked;
    size_t ndev;
    int code;
};

/* A double with the shortest round-trip text. */
static json_object *jreal(double x)
{
    if (!isfinite(x))
        return NULL;
    char buf[32];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return json_object_new_double_s(x, buf);
}

/* Milliseconds, to 0.1 microsecond: more digits are noise. */
static json_object *jms(double ms) { return jreal(round(ms * 1e4) / 1e4); }

static json_object *jspread(const exp_spread *s)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "median", jms(s->median));
    json_object_object_add(o, "min", jms(s->min));
    json_object_object_add(o, "max", jms(s->max));
    return o;
}

static json_object *jdevice(const clirr_device *d)
{
    json_object *o = cli_json_device(&d->caps);
    json_object_object_add(o, "index", json_object_new_int((int)d->index));
    return o;
}

static json_object *jinput(const exp_config *cfg, size_t i)
{
    const exp_input *e = &cfg->inputs[i];
    json_object *o = json_object_new_object();
    if (e->file)
        json_object_object_add(o, "file", json_object_new_string(e->file));
    if (e->spec)
        json_object_object_add(o, "spec", json_object_new_string(e->spec));
    json_object_object_add(o, "kind", json_object_new_string(clirr_input_kind_name(e->kind)));
    json_object_object_add(o, "symmetrized",
                           json_object_new_boolean(cfg->symmetrize && e->kind == CLIRR_INPUT_GRAPH));
    const clirr_graph *g = e->in ? clirr_input_graph(e->in) : NULL;
    const clirr_list *l = e->in ? clirr_input_list(e->in) : NULL;
    const clirr_tree *t = e->in ? clirr_input_tree(e->in) : NULL;
    if (l) {
        json_object_object_add(o, "elements", json_object_new_int64(l->n));
        json_object_object_add(o, "lists", json_object_new_int64(l->lists));
    }
    if (t) {
        json_object_object_add(o, "nodes", json_object_new_int64(t->n));
        json_object_object_add(o, "root", json_object_new_int64(t->root));
    }
    if (g) {
        json_object_object_add(o, "nodes", json_object_new_int64(g->n));
        json_object_object_add(o, "edges", json_object_new_int64(g->m));
        json_object_object_add(o, "weighted", json_object_new_boolean(g->weight != NULL));
    }
    return o;
}

static json_object *jplan(const exp_row *r)
{
    const clirr_plan *p = &r->plan;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "variant", json_object_new_string(clirr_plan_variant_name(p)));
    json_object_object_add(o, "variant_reason", json_object_new_string(p->variant_reason));
    json_object_object_add(o, "template", json_object_new_string(clirr_template_name(p->tmpl)));
    json_object_object_add(o, "template_reason", json_object_new_string(p->template_reason));
    json_object_object_add(o, "lb_thres", json_object_new_int64(p->lb_thres));
    json_object_object_add(o, "lb_thres_reason", json_object_new_string(p->lb_thres_reason));
    json_object_object_add(o, "wg_size", json_object_new_int64(p->wg_size));
    json_object_object_add(o, "group_wg", json_object_new_int64(p->group_wg));
    json_object_object_add(o, "coarsen", json_object_new_int64(p->coarsen));
    json_object_object_add(o, "wg_reason", json_object_new_string(p->wg_reason));
    if (clirr_plan_uses_worklist(p)) {
        json_object_object_add(o, "push", json_object_new_string(clirr_push_mode_name(p->push)));
        json_object_object_add(o, "push_reason", json_object_new_string(p->push_reason));
        json_object_object_add(o, "wl_capacity", json_object_new_int64((int64_t)p->wl_capacity));
        json_object_object_add(o, "local_rounds", json_object_new_int64(p->local_rounds));
        json_object_object_add(o, "local_rounds_reason", json_object_new_string(p->local_rounds_reason));
        json_object_object_add(o, "queue_rounds", json_object_new_int64(p->queue_rounds));
        json_object_object_add(o, "queue_rounds_reason", json_object_new_string(p->queue_rounds_reason));
        json_object_object_add(o, "grid", json_object_new_string(p->fixed_grid ? "fixed" : "worklist"));
        json_object_object_add(o, "grid_items", json_object_new_int64(p->fixed_grid));
        json_object_object_add(o, "grid_reason", json_object_new_string(p->grid_reason));
    }
    json_object_object_add(o, "reorder", json_object_new_string(clirr_reorder_name(p->reorder)));
    json_object_object_add(o, "reorder_reason", json_object_new_string(p->reorder_reason ? p->reorder_reason : ""));
    json_object_object_add(o, "build_options", json_object_new_string(p->build_options));
    json_object *params = json_object_new_object();
    for (unsigned i = 0; i < r->algo->nparams; i++) {
        char text[512];
        clirr_param_text(r->algo, i, &p->params, text, sizeof text);
        json_object_object_add(params, r->algo->params[i].name, json_object_new_string(text));
    }
    json_object_object_add(o, "params", params);
    return o;
}

/* The object a dotted name "a.b.c" goes in (a, then b, made on first
 * use) and its last part. */
static json_object *jnest(json_object *o, const char *name, const char **last)
{
    const char *dot;
    while ((dot = strchr(name, '.'))) {
        char part[128];
        snprintf(part, sizeof part, "%.*s", (int)(dot - name), name);
        json_object *in = NULL;
        if (!json_object_object_get_ex(o, part, &in) || !json_object_is_type(in, json_type_object)) {
            in = json_object_new_object();
            json_object_object_add(o, part, in);
        }
        o = in;
        name = dot + 1;
    }
    *last = name;
    return o;
}

static json_object *jextras(const clirr_extras *x)
{
    json_object *o = json_object_new_object();
    for (size_t i = 0; i < x->n; i++) {
        const clirr_extra *e = &x->e[i];
        json_object *v = NULL;
        switch (e->type) {
        case CLIRR_EXTRA_UINT: v = json_object_new_int64((int64_t)e->u); break;
        case CLIRR_EXTRA_INT: v = json_object_new_int64(e->i); break;
        case CLIRR_EXTRA_TEXT: v = json_object_new_string(e->text ? e->text : ""); break;
        case CLIRR_EXTRA_REAL: v = jreal(e->r); break;
        case CLIRR_EXTRA_BOOL: v = json_object_new_boolean(e->b); break;
        case CLIRR_EXTRA_UINTS:
            v = json_object_new_array();
            for (size_t k = 0; k < e->nlist; k++)
                json_object_array_add(v, json_object_new_int64(e->list[k]));
            break;
        case CLIRR_EXTRA_REALS:
            v = json_object_new_array();
            for (size_t k = 0; k < e->nreals; k++)
                json_object_array_add(v, jreal(e->reals[k]));
            break;
        }
        const char *last = e->name;
        json_object *in = jnest(o, e->name, &last);
        json_object_object_add(in, last, v);
    }
    return o;
}

static json_object *jkernels(const exp_row *r)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < r->nkernels; i++) {
        json_object *k = json_object_new_object();
        json_object_object_add(k, "name", json_object_new_string(r->kernels[i].name));
        json_object_object_add(k, "launches", json_object_new_int64((int64_t)r->kernels[i].launches));
        json_object_object_add(k, "ms", jms(r->kernels[i].ns / 1e6));
        json_object_array_add(a, k);
    }
    return a;
}

static json_object *exp_row_json(const exp_config *cfg, const exp_row *r)
{
    const clirr_stats *s = &r->stats;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "case", json_object_new_int64((int64_t)r->index));
    json_object_object_add(o, "algorithm", json_object_new_string(r->algo->name));
    json_object_object_add(o, "input", json_object_new_string(exp_input_name(cfg, r->input)));
    json_object_object_add(o, "device", json_object_new_int((int)r->device->index));
    json_object_object_add(o, "device_name", json_object_new_string(r->device->caps.name));
    if (r->algo->sources == CLIRR_SOURCES_ONE)
        json_object_object_add(o, "source", json_object_new_int64(r->source));
    if (r->algo->sources == CLIRR_SOURCES_MANY) {
        const clirr_source_spec *sp = &r->intent.source;
        json_object *src = json_object_new_object();
        json_object_object_add(src, "rule", json_object_new_string(clirr_source_rule_name(sp->rule)));
        if (sp->rule == CLIRR_SOURCE_VERTEX)
            json_object_object_add(src, "vertex", json_object_new_int64(sp->vertex));
        else
            json_object_object_add(src, "count", json_object_new_int64(sp->count));
        if (sp->rule == CLIRR_SOURCE_RANDOM)
            json_object_object_add(src, "seed", json_object_new_int64((int64_t)sp->seed));
        json_object_object_add(o, "sources", src);
    }
    json_object_object_add(o, "template_asked", json_object_new_string(
        r->intent.tmpl < 0 ? "auto" : clirr_template_name((clirr_template)r->intent.tmpl)));
    if (r->planned)
        json_object_object_add(o, "plan", jplan(r));
    if (r->status != CLIRR_OK) {
        json_object_object_add(o, "status", json_object_new_string(r->skipped ? "skipped" : "error"));
        json_object_object_add(o, "error", json_object_new_string(r->error));
        json_object_object_add(o, "exit_code", json_object_new_int(r->skipped ? 0 : clirr_status_exit_code(r->status)));
        json_object_object_add(o, "verified", NULL);
        return o;
    }
    json_object_object_add(o, "status", json_object_new_string("ok"));
    json_object_object_add(o, "iterations", json_object_new_int64(s->iterations));
    json_object *t = json_object_new_object();
    json_object_object_add(t, "build", jms(r->prep.build_ns / 1e6));
    json_object_object_add(t, "prepare", jms(r->prep.prepare_ns / 1e6));
    json_object_object_add(t, "upload", jms(r->prep.upload_ns / 1e6));
    json_object_object_add(t, "warmup", jms(r->warmup_ms));
    json_object_object_add(t, "kernel", jms(r->kernel_ms.median));
    json_object_object_add(t, "transfer", jms(r->transfer_ms.median));
    json_object_object_add(t, "total", jms(r->total_ms.median));
    json_object_object_add(t, "total_kernel_timed", jms(r->kernel_timed_total_ms.median));
    json_object_object_add(o, "time_ms", t);
    json_object *up = json_object_new_object();
    json_object_object_add(up, "bytes", json_object_new_uint64(r->prep.upload_bytes));
    json_object_object_add(up, "pinned_bytes", json_object_new_uint64(r->prep.upload_pinned_bytes));
    json_object_object_add(up, "huge_page_bytes", json_object_new_uint64(r->prep.huge_page_bytes));
    json_object_object_add(up, "gb_per_s", r->prep.upload_ns && r->prep.upload_bytes
                                               ? jms((double)r->prep.upload_bytes / (double)r->prep.upload_ns)
                                               : NULL);
    json_object_object_add(o, "upload", up);
    json_object *sp = json_object_new_object();
    json_object_object_add(sp, "kernel", jspread(&r->kernel_ms));
    json_object_object_add(sp, "transfer", jspread(&r->transfer_ms));
    json_object_object_add(sp, "total", jspread(&r->total_ms));
    json_object_object_add(sp, "total_kernel_timed", jspread(&r->kernel_timed_total_ms));
    json_object_object_add(o, "time_spread_ms", sp);
    json_object_object_add(o, "trials", json_object_new_int((int)r->trials));
    json_object_object_add(o, "warmup", json_object_new_int((int)cfg->warmup));
    json_object_object_add(o, "kernels", jkernels(r));
    json_object_object_add(o, "launches", json_object_new_int64((int64_t)s->timing.launches));
    json_object_object_add(o, "child_launches", json_object_new_int64((int64_t)s->child_launches));
    json_object *m = json_object_new_object();
    json_object_object_add(m, "kernel", jreal(round(exp_mteps(r, r->kernel_ms.median) * 10) / 10));
    json_object_object_add(m, "total", jreal(round(exp_mteps(r, r->total_ms.median) * 10) / 10));
    json_object_object_add(o, "mteps", m);
    json_object_object_add(o, "reached", json_object_new_int64((int64_t)s->reached));
    json_object_object_add(o, "edges_traversed", json_object_new_int64((int64_t)s->edges_traversed));
    if (clirr_plan_uses_worklist(&r->plan)) {
        json_object *wl = json_object_new_object();
        json_object_object_add(wl, "grows", json_object_new_int64(s->wl_grows));
        json_object_object_add(wl, "reruns", json_object_new_int64(s->wl_reruns));
        json_object_object_add(wl, "grow_ms", jreal((double)s->wl_grow_ns / 1e6));
        json_object_object_add(wl, "max_size", json_object_new_int64((int64_t)s->wl_max));
        json_object *rounds = json_object_new_object();
        for (int k = 0; k < CLIRR_PUSH_AUTO; k++)
            json_object_object_add(rounds, clirr_push_mode_name((clirr_push_mode)k),
                                   json_object_new_int64(s->wl_rounds[k]));
        json_object_object_add(wl, "rounds_by_push", rounds);
        if (s->wl_rounds[CLIRR_PUSH_SCAN]) {
            json_object_object_add(wl, "scan_pushes", json_object_new_int64((int64_t)s->wl_scan_pushes));
            json_object_object_add(wl, "scan_spills", json_object_new_int64((int64_t)s->wl_scan_spills));
        }
        json_object_object_add(wl, "local_rounds", json_object_new_int64(s->local_rounds));
        json_object_object_add(wl, "local_launches", json_object_new_int64(s->local_launches));
        json_object_object_add(wl, "queued_rounds", json_object_new_int64(s->queued_rounds));
        json_object_object_add(wl, "queued_batches", json_object_new_int64(s->queued_batches));
        json_object_object_add(o, "worklist", wl);
    }
    if (r->extras.n)
        json_object_object_add(o, "results", jextras(&r->extras));
    if (r->reference_ms > 0)
        json_object_object_add(o, "reference_ms", jms(r->reference_ms));
    json_object_object_add(o, "verified", r->verified < 0 ? NULL : json_object_new_boolean(r->verified));
    if (r->verified == 0)
        json_object_object_add(o, "verify_report", json_object_new_string(r->verify_text));
    if (r->irr_taken)
        json_object_object_add(o, "irregularity", prof_json(r));
    return o;
}

static void json_print_part(exp_outputs *out, const char *text)
{
    for (size_t i = 0; i < out->njson; i++)
        fputs(text, out->json[i]);
}

static void json_begin(exp_outputs *out, const exp_config *cfg)
{
    json_object *meta = json_object_new_object();
    json_object_object_add(meta, "version", json_object_new_string(clirr_version()));
    json_object_object_add(meta, "commit", json_object_new_string(CLIRR_VCS_TAG));
    json_object *cmd = json_object_new_array();
    json_object_array_add(cmd, json_object_new_string("clirr"));
    for (int i = 0; i < cfg->argc; i++)
        json_object_array_add(cmd, json_object_new_string(cfg->argv[i]));
    json_object_object_add(meta, "command", cmd);
    char when[64];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    json_object_object_add(meta, "date", json_object_new_string(when));
    json_object_object_add(meta, "repeat", json_object_new_int((int)cfg->repeat));
    json_object_object_add(meta, "warmup", json_object_new_int((int)cfg->warmup));
    json_object *devs = json_object_new_array();
    for (size_t i = 0; i < out->ndev; i++)
        json_object_array_add(devs, jdevice(&out->devs[out->picked[i]]));
    json_print_part(out, "{\n\"clirr\": ");
    json_print_part(out, json_object_to_json_string_ext(meta, JSON_C_TO_STRING_NOSLASHESCAPE));
    json_print_part(out, ",\n\"devices\": ");
    json_print_part(out, json_object_to_json_string_ext(devs, JSON_C_TO_STRING_NOSLASHESCAPE));
    json_print_part(out, ",\n\"runs\": [");
    json_object_put(meta);
    json_object_put(devs);
    for (size_t i = 0; i < out->njson; i++)
        fflush(out->json[i]);
}

void exp_csv_field(FILE *f, const char *s)
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

static void csv_header(FILE *f)
{
    fputs("case,device,platform,driver,input,algorithm,variant,push,template_asked,template,"
          "lb_thres,source,iterations,trials,build_ms,prepare_ms,upload_ms,kernel_ms_median,"
          "kernel_ms_min,kernel_ms_max,total_ms_median,total_ms_min,total_ms_max,"
          "transfer_ms_median,mteps_kernel,mteps_total,launches,child_launches,reached,verified,"
          "status\n", f);
}

static void csv_row(FILE *f, const exp_config *cfg, const exp_row *r)
{
    fprintf(f, "%zu,", r->index);
    exp_csv_field(f, r->device->caps.name);
    fputc(',', f);
    exp_csv_field(f, r->device->caps.platform);
    fputc(',', f);
    exp_csv_field(f, r->device->caps.driver);
    fputc(',', f);
    exp_csv_field(f, exp_input_name(cfg, r->input));
    char t[64];
    exp_template_text(r, t, sizeof t);
    fprintf(f, ",%s,%s,%s,%s,%s,", r->algo->name, r->planned ? clirr_plan_variant_name(&r->plan) : "-",
            exp_push_text(r), r->intent.tmpl < 0 ? "auto" : clirr_template_name((clirr_template)r->intent.tmpl),
            r->planned ? clirr_template_name(r->plan.tmpl) : "");
    if (r->status == CLIRR_OK)
        fprintf(f, "%u,%u,%u,%u,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%llu,%llu,%llu,",
                r->plan.lb_thres, r->source, r->stats.iterations, r->trials, r->prep.build_ns / 1e6,
                r->prep.prepare_ns / 1e6, r->prep.upload_ns / 1e6, r->kernel_ms.median, r->kernel_ms.min,
                r->kernel_ms.max, r->total_ms.median, r->total_ms.min, r->total_ms.max,
                r->transfer_ms.median, exp_mteps(r, r->kernel_ms.median), exp_mteps(r, r->total_ms.median),
                (unsigned long long)r->stats.timing.launches, (unsigned long long)r->stats.child_launches,
                (unsigned long long)r->stats.reached);
    else
        fputs(",,,,,,,,,,,,,,,,,,,", f);
    fprintf(f, "%s,", r->verified < 0 ? "" : r->verified ? "true" : "false");
    exp_csv_field(f, r->skipped ? "skipped" : r->status == CLIRR_OK ? "ok" : r->error);
    fputc('\n', f);
    fflush(f);
}

/* --trace FILE: a row per round of each case's last trial (clirr/trace.h);
 * arcs_pct is the round's arcs as a share of the input's. */
static void trace_header(FILE *f)
{
    fputs("case,device,input,algorithm,variant,round,kind,items_in,items_out,duplicates,arcs,arcs_pct,push,"
          "launches,kernel_ms,donated_g0\n", f);
}

static void trace_rows(FILE *f, const exp_config *cfg, const exp_row *r)
{
    const clirr_trace *t = r->intent.trace;
    if (!t || r->status != CLIRR_OK)
        return;
    for (size_t i = 0; i < t->n; i++) {
        const clirr_trace_round *x = &t->rounds[i];
        fprintf(f, "%zu,", r->index);
        exp_csv_field(f, r->device->caps.name);
        fputc(',', f);
        exp_csv_field(f, exp_input_name(cfg, r->input));
        fprintf(f, ",%s,%s,%zu,%s,%llu,%llu,%llu,%llu,%.4f,%s,%llu,%.6f,%llu\n", r->algo->name,
                clirr_plan_variant_name(&r->plan), i + 1, x->kind, (unsigned long long)x->items_in,
                (unsigned long long)x->items_out, (unsigned long long)x->duplicates, (unsigned long long)x->arcs,
                t->arcs ? 100.0 * (double)x->arcs / (double)t->arcs : 0.0, x->push, (unsigned long long)x->launches,
                x->kernel_ns / 1e6, (unsigned long long)x->donated_g0);
    }
    fflush(f);
}

int exp_outputs_open(exp_outputs **outp, const exp_config *cfg, const clirr_device *devs,
                     const size_t *picked, size_t ndev)
{
    exp_outputs *out = calloc(1, sizeof *out);
    if (!out)
        return 3;
    out->devs = devs;
    out->picked = picked;
    out->ndev = ndev;
    out->errors = json_object_new_array();
    out->json_first_run = true;
    if (cfg->json)
        out->json[out->njson++] = stdout;
    clirr_error err;
    if (cfg->json_file) {
        if (clirr_out_open(&out->json_file, cfg->json_file, &err) != CLIRR_OK) {
            free(out);
            return cli_report(&err);
        }
        out->json[out->njson++] = out->json_file.f;
    }
    if (cfg->csv_file) {
        if (clirr_out_open(&out->csv_file, cfg->csv_file, &err) != CLIRR_OK) {
            clirr_out_abandon(&out->json_file);
            free(out);
            return cli_report(&err);
        }
        out->csv = out->csv_file.f;
    }
    if (cfg->trace_file) {
        if (clirr_out_open(&out->trace_file, cfg->trace_file, &err) != CLIRR_OK) {
            clirr_out_abandon(&out->json_file);
            clirr_out_abandon(&out->csv_file);
            free(out);
            return cli_report(&err);
        }
        out->trace = out->trace_file.f;
        trace_header(out->trace);
    }
    /* --output - puts the values on stdout: no table beside them. */
    out->table = !cfg->json && !(cfg->output && !strcmp(cfg->output, "-"));
    if (out->njson)
        json_begin(out, cfg);
    if (out->csv && cfg->profile)
        prof_csv_header(out->csv);
    else if (out->csv)
        csv_header(out->csv);
    if (out->table)
        table_devices(cfg, devs, picked, ndev);
    *outp = out;
    return 0;
}

void exp_outputs_input(exp_outputs *out, const exp_config *cfg, size_t input)
{
    if (out->table)
        table_input(cfg, input);
}

void exp_outputs_row(exp_outputs *out, const exp_config *cfg, const exp_row *row)
{
    if (out->table)
        table_row(cfg, row);
    if (out->table && cfg->profile)
        prof_table(cfg, row);
    if (out->njson) {
        json_object *o = exp_row_json(cfg, row);
        json_print_part(out, out->json_first_run ? "\n" : ",\n");
        json_print_part(out, json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(o);
        out->json_first_run = false;
        for (size_t i = 0; i < out->njson; i++)
            fflush(out->json[i]);
    }
    if (out->csv && cfg->profile)
        prof_csv_row(out->csv, cfg, row);
    else if (out->csv)
        csv_row(out->csv, cfg, row);
    if (out->trace)
        trace_rows(out->trace, cfg, row);
}

void exp_outputs_error(exp_outputs *out, const char *what, int status, const char *msg)
{
    json_object *e = json_object_new_object();
    json_object_object_add(e, "input", json_object_new_string(what));
    json_object_object_add(e, "error", json_object_new_string(msg));
    json_object_object_add(e, "exit_code", json_object_new_int(clirr_status_exit_code(status)));
    json_object_array_add(out->errors, e);
    (void)what;
    if (out->table)
        printf("error: %s\n", msg);
}

int exp_outputs_close(exp_outputs *out, const exp_config *cfg, const exp_row *rows, size_t nrows)
{
    int code = 0;
    if (out->njson) {
        json_print_part(out, "\n],\n\"inputs\": ");
        json_object *ins = json_object_new_array();
        for (size_t i = 0; i < cfg->ninputs; i++)
            json_object_array_add(ins, jinput(cfg, i));
        json_print_part(out, json_object_to_json_string_ext(ins, JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(ins);
        json_print_part(out, ",\n\"errors\": ");
        json_print_part(out, json_object_to_json_string_ext(out->errors, JSON_C_TO_STRING_NOSLASHESCAPE));
        json_print_part(out, "\n}\n");
    }
    if (out->table && rows)
        table_summaries(cfg, rows, nrows);
    clirr_error err;
    if (cfg->json_file && clirr_out_close(&out->json_file, &err) != CLIRR_OK)
        code = cli_report(&err);
    if (cfg->csv_file && clirr_out_close(&out->csv_file, &err) != CLIRR_OK)
        code = cli_report(&err);
    if (cfg->trace_file && clirr_out_close(&out->trace_file, &err) != CLIRR_OK)
        code = cli_report(&err);
    json_object_put(out->errors);
    free(out);
    return code;
}
