/* host/cli/report.c - result tables and JSON objects. */
#include "report.h"

#include <string.h>

json_object *cli_input_json(const cli_input *in)
{
    json_object *o = json_object_new_object();
    if (in->file)
        json_object_object_add(o, "file", json_object_new_string(in->file));
    if (in->spec)
        json_object_object_add(o, "spec", json_object_new_string(in->spec));
    json_object_object_add(o, "symmetrized", json_object_new_boolean(in->symmetrized));
    json_object_object_add(o, "nodes", json_object_new_int64(in->g->n));
    json_object_object_add(o, "edges", json_object_new_int64(in->g->m));
    json_object_object_add(o, "weighted", json_object_new_boolean(in->g->weight != NULL));
    return o;
}

static json_object *spread_json(const cli_spread *s)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "median", json_object_new_double(s->median));
    json_object_object_add(o, "min", json_object_new_double(s->min));
    json_object_object_add(o, "max", json_object_new_double(s->max));
    return o;
}

static json_object *refinements_json(const clirr_algo_opts *o)
{
    json_object *j = json_object_new_object();
    json_object_object_add(j, "heuristic", json_object_new_boolean(o->color_heuristic));
    json_object_object_add(j, "bitset", json_object_new_boolean(o->color_bitset));
    json_object_object_add(j, "fuse", json_object_new_boolean(o->color_fuse));
    json_object_object_add(j, "coarsen", json_object_new_int((int)(o->coarsen ? o->coarsen : 1)));
    return j;
}

json_object *cli_result_json(const cli_result *r, const cli_input *in)
{
    const clirr_algo_stats *s = &r->stats;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "algorithm", json_object_new_string(r->algo->name));
    json_object_object_add(o, "variant", cli_algo_shows_variant(r->algo)
                                             ? json_object_new_string(clirr_variant_name(r->opts.variant)) : NULL);
    json_object_object_add(o, "template", json_object_new_string(s->template_name ? s->template_name : "baseline"));
    if (s->template_name) {
        json_object_object_add(o, "lb_thres", json_object_new_int64(s->lb_thres));
        json_object_object_add(o, "template_reason", json_object_new_string(s->template_reason));
        json_object_object_add(o, "child_launches", json_object_new_int64((int64_t)s->child_launches));
    }
    if (cli_algo_shows_push(r->algo, &r->opts))
        json_object_object_add(o, "push", json_object_new_string(clirr_push_mode_name(r->opts.push)));
    json_object_object_add(o, "device", cli_json_device(&r->device->caps));
    json_object_object_add(o, "graph", cli_input_json(in));
    json_object_object_add(o, "nodes", json_object_new_int64(in->g->n));
    json_object_object_add(o, "edges", json_object_new_int64(in->g->m));
    json_object_object_add(o, "source", json_object_new_int64(r->opts.source));
    if (r->status != CLIRR_OK) {
        json_object_object_add(o, "error", json_object_new_string(r->error));
        json_object_object_add(o, "exit_code", json_object_new_int(clirr_status_exit_code(r->status)));
        json_object_object_add(o, "verified", NULL);
        return o;
    }
    json_object_object_add(o, "iterations", json_object_new_int64(s->iterations));
    json_object *t = json_object_new_object();
    json_object_object_add(t, "total", json_object_new_double(r->total_ms.median));
    json_object_object_add(t, "kernel", json_object_new_double(r->kernel_ms.median));
    json_object_object_add(t, "transfer", json_object_new_double(r->transfer_ms.median));
    json_object_object_add(o, "time_ms", t);
    json_object *spreads = json_object_new_object();
    json_object_object_add(spreads, "total", spread_json(&r->total_ms));
    json_object_object_add(spreads, "kernel", spread_json(&r->kernel_ms));
    json_object_object_add(spreads, "transfer", spread_json(&r->transfer_ms));
    json_object_object_add(o, "time_spread_ms", spreads);
    json_object_object_add(o, "trials", json_object_new_int((int)r->trials));
    json_object *mteps = json_object_new_object();
    json_object_object_add(mteps, "kernel", json_object_new_double(cli_mteps(r, r->kernel_ms.median)));
    json_object_object_add(mteps, "total", json_object_new_double(cli_mteps(r, r->total_ms.median)));
    json_object_object_add(o, "mteps", mteps);
    json_object_object_add(o, "reached", json_object_new_int64(s->reached));
    json_object_object_add(o, "edges_traversed", json_object_new_int64((int64_t)s->edges_traversed));
    json_object_object_add(o, "launches", json_object_new_int64((int64_t)s->launches));
    json_object_object_add(o, "wg_size", json_object_new_int((int)s->wg_size));
    if (cli_algo_shows_push(r->algo, &r->opts)) {
        json_object *wl = json_object_new_object();
        json_object_object_add(wl, "initial_capacity",
                               json_object_new_int64(r->opts.wl_capacity ? (int64_t)r->opts.wl_capacity : in->g->n));
        json_object_object_add(wl, "grows", json_object_new_int64(s->wl_grows));
        json_object_object_add(wl, "reruns", json_object_new_int64(s->wl_reruns));
        json_object_object_add(wl, "max_size", json_object_new_int64((int64_t)s->wl_max));
        json_object *rounds = json_object_new_object();
        for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
            json_object_object_add(rounds, clirr_push_mode_name((clirr_push_mode)m),
                                   json_object_new_int64(s->wl_rounds[m]));
        json_object_object_add(wl, "rounds_by_push", rounds);
        json_object_object_add(o, "worklist", wl);
    }
    if (!strcmp(r->algo->name, "color")) {
        json_object_object_add(o, "colors", json_object_new_int64(s->colors));
        json_object *c = json_object_new_array();
        size_t rounds = s->iterations < 64 ? s->iterations : 64;
        for (size_t i = 0; i < rounds; i++)
            json_object_array_add(c, json_object_new_int64(s->conflicts[i]));
        json_object_object_add(o, "conflicts_per_round", c);
        json_object_object_add(o, "refinements", refinements_json(&r->opts));
    }
    json_object_object_add(o, "verified", r->verified < 0 ? NULL : json_object_new_boolean(r->verified));
    if (r->verified == 0)
        json_object_object_add(o, "verify_report", json_object_new_string(r->verify_text));
    return o;
}

const char *cli_variant_text(const cli_result *r)
{
    return cli_algo_shows_variant(r->algo) ? clirr_variant_name(r->opts.variant) : "-";
}

const char *cli_push_text(const cli_result *r)
{
    return cli_algo_shows_push(r->algo, &r->opts) ? clirr_push_mode_name(r->opts.push) : "-";
}

const char *cli_verified_text(const cli_result *r)
{
    if (r->status != CLIRR_OK)
        return "error";
    return r->verified < 0 ? "-" : r->verified ? "yes" : "NO";
}

void cli_table_header(FILE *f)
{
    fprintf(f, "%-32s %-8s %-7s %-6s %-12s %6s %6s %11s %11s %9s %8s\n", "device", "algo", "variant",
            "push", "template", "lb", "iters", "kernel ms", "total ms", "MTEPS", "verified");
}

void cli_table_row(FILE *f, const cli_result *r)
{
    fprintf(f, "%-32.32s %-8s %-7s %-6s ", r->device->caps.name, r->algo->name, cli_variant_text(r),
            cli_push_text(r));
    if (r->status != CLIRR_OK) {
        fprintf(f, "%-12s %6s %6s %11s %11s %9s %8s\n", "-", "-", "-", "-", "-", "-", "error");
        return;
    }
    fprintf(f, "%-12s %6u ", r->stats.template_name ? r->stats.template_name : "baseline", r->stats.lb_thres);
    fprintf(f, "%6u %11.3f %11.3f %9.1f %8s\n", r->stats.iterations, r->kernel_ms.median,
            r->total_ms.median, cli_mteps(r, r->kernel_ms.median), cli_verified_text(r));
}
