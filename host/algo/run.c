/* host/algo/run.c - helpers every algorithm file shares. */
#include "algo/run.h"

#include "clirr/file.h"

#include "ref/ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

clirr_nl_config clirr_plan_loop(const clirr_plan *plan, size_t reduce_size)
{
    clirr_nl_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tmpl = plan->tmpl;
    cfg.thres = plan->lb_thres;
    cfg.wg = plan->wg_size;
    cfg.group_wg = plan->group_wg;
    cfg.coarsen = plan->coarsen;
    cfg.reduce_size = reduce_size;
    return cfg;
}

void clirr_run_vertex_ranges(const clirr_graph *g, uint32_t nranges, uint32_t align, uint32_t *bounds)
{
    uint64_t total = (uint64_t)g->n + g->m;
    uint32_t v = 0;
    bounds[0] = 0;
    for (uint32_t w = 1; w < nranges; w++) {
        uint64_t goal = total * w / nranges;
        while (v < g->n && (uint64_t)v + g->row[v] < goal)
            v++;
        uint32_t cut = v / align * align;
        bounds[w] = cut > bounds[w - 1] ? cut : bounds[w - 1];
    }
    bounds[nranges] = g->n;
}

void clirr_run_count_reached(const clirr_graph *g, const uint32_t *value, uint32_t unreached,
                             clirr_stats *stats)
{
    uint64_t edges = 0, reached = 0;
    for (uint32_t v = 0; v < g->n; v++)
        if (value[v] != unreached) {
            reached++;
            edges += g->row[v + 1] - g->row[v];
        }
    stats->reached = reached;
    stats->edges_traversed = edges;
}

void clirr_run_worklist_stats(clirr_worklist *wl, clirr_stats *stats)
{
    stats->wl_grows = wl->grows;
    stats->wl_reruns = wl->reruns;
    stats->wl_max = wl->max_size;
    stats->wl_grow_ns = wl->grow_ns;
    wl->grow_ns = 0;
    stats->wl_scan_pushes = wl->scan_pushes;
    stats->wl_scan_spills = wl->scan_spills;
    wl->scan_pushes = wl->scan_spills = 0;
    memcpy(stats->wl_rounds, wl->rounds, sizeof stats->wl_rounds);
    wl->grows = wl->reruns = 0;
    wl->max_size = 0;
    memset(wl->rounds, 0, sizeof wl->rounds);
}

int clirr_run_write_tree(const char *path, const clirr_graph *g, uint32_t source, const void *result,
                         bool levels, clirr_error *err)
{
    if (!path)
        return CLIRR_OK;
    int64_t *parent = malloc(((size_t)g->n + 1) * sizeof *parent);
    if (!parent)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the tree");
    clirr_out_file out;
    int rc = clirr_ref_tree(g, source, result, levels, parent, err);
    if (rc == CLIRR_OK)
        rc = clirr_out_open(&out, path, err);
    for (uint32_t v = 0; rc == CLIRR_OK && v < g->n; v++)
        fprintf(out.f, "%lld\n", (long long)parent[v]);
    if (rc == CLIRR_OK)
        rc = clirr_out_close(&out, err);
    free(parent);
    return rc;
}

int clirr_run_source(const clirr_plan *plan, const clirr_graph *g, uint32_t *source,
                     clirr_error *err)
{
    return clirr_sources_pick(g, &plan->source, source, 1, err) == 1 ? CLIRR_OK
                                                                     : (err ? err->status : CLIRR_ERR_USAGE);
}

int clirr_run_typed(clirr_ctx *ctx, const char *name, const clirr_graph *g, uint32_t source,
                    void *result, clirr_stats *stats, clirr_error *err)
{
    const clirr_algo *a = clirr_algo_find(name);
    clirr_input *in = NULL;
    clirr_intent it;
    clirr_intent_default(a, &it);
    it.source.rule = CLIRR_SOURCE_VERTEX;
    it.source.vertex = source;
    int rc = clirr_input_from_graph((clirr_graph *)g, false, name, &in, err);
    if (rc == CLIRR_OK)
        rc = clirr_algo_run(ctx, a, in, &it, result, stats, err);
    clirr_input_free(in);
    return rc;
}
