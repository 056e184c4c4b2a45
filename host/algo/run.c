/* host/algo/run.c - timing and statistics common to every algorithm run. */
#include "algo/run.h"

#include "templates/policy.h"

#include <string.h>

int clirr_run_check_source(const clirr_graph *g, uint32_t source, clirr_error *err)
{
    if (g->n == 0)
        return clirr_fail(err, CLIRR_ERR_USAGE, "the graph has no vertices, so no source vertex");
    if (source >= g->n)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "source vertex %u out of range: the graph has vertices 0..%u", source,
                          g->n - 1);
    return CLIRR_OK;
}

int clirr_run_require_fp64(clirr_ctx *ctx, const char *what, clirr_error *err)
{
    const clirr_caps *c = clirr_ctx_caps(ctx);
    if (!c->fp64)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "%s needs double precision, which %s lacks (no cl_khr_fp64)", what, c->name);
    return CLIRR_OK;
}

uint64_t clirr_run_start(clirr_ctx *ctx)
{
    clirr_ctx_timing_reset(ctx);
    return clirr_now_ns();
}

int clirr_run_stop(clirr_ctx *ctx, uint64_t start, clirr_algo_stats *stats, clirr_error *err)
{
    clirr_timing t;
    int rc = clirr_ctx_timing(ctx, &t, err);
    stats->total_ns = clirr_now_ns() - start;
    stats->kernel_ns = t.kernel_ns;
    stats->transfer_ns = t.transfer_ns;
    stats->launches = t.launches;
    return rc;
}

void clirr_run_count_reached(const clirr_graph *g, const uint32_t *value, uint32_t unreached,
                             clirr_algo_stats *stats)
{
    uint64_t edges = 0;
    uint32_t reached = 0;
    for (uint32_t v = 0; v < g->n; v++)
        if (value[v] != unreached) {
            reached++;
            edges += g->row[v + 1] - g->row[v];
        }
    stats->reached = reached;
    stats->edges_traversed = edges;
}

void clirr_run_worklist_stats(const clirr_worklist *wl, clirr_algo_stats *stats)
{
    stats->wl_grows = wl->grows;
    stats->wl_reruns = wl->reruns;
    stats->wl_max = wl->max_size;
    memcpy(stats->wl_rounds, wl->rounds, sizeof stats->wl_rounds);
}

void clirr_algo_plan(const clirr_caps *caps, const char *algo, const clirr_algo_opts *opts,
                     uint32_t n, clirr_template *tmpl, uint32_t *lb_thres, const char **reason)
{
    if (opts->template_auto) {
        clirr_policy_template(caps, algo, n, tmpl, lb_thres, reason);
    } else {
        *tmpl = opts->tmpl;
        *lb_thres = caps->simd_width ? caps->simd_width : 32;
        *reason = "asked for with --template";
    }
    if (opts->lb_thres)
        *lb_thres = opts->lb_thres;
}

void clirr_run_template(const clirr_caps *caps, const char *algo, const clirr_algo_opts *opts,
                        uint32_t n, size_t reduce_size, clirr_nl_config *cfg, clirr_algo_stats *stats)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->wg = opts->wg_size;
    cfg->group_wg = opts->group_wg;
    cfg->reduce_size = reduce_size;
    cfg->coarsen = opts->coarsen;
    clirr_algo_plan(caps, algo, opts, n, &cfg->tmpl, &cfg->thres, &stats->template_reason);
    stats->template_name = clirr_template_name(cfg->tmpl);
    stats->lb_thres = cfg->thres;
}
