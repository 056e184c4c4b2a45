/* host/algo/color.c - graph coloring on the device (kernels: cl/color.cl;
 * coloring study, shared/papers/004): speculative greedy topology-driven
 * (Algorithm 6: first-fit for every uncolored vertex, then resolution with a
 * final mask, until nothing changes) or data-driven (Algorithm 7: a
 * worklist of vertices to (re)color, first-fit over it, resolution pushing
 * the losers), with the study's refinements as switches, and
 * Jones-Plassmann with hash priorities. Every neighbour loop runs through
 * the run's nested-loop template. */
#include "algo/dgraph.h"
#include "algo/round.h"
#include "algo/run.h"
#include "prim/prim.h"
#include <stdlib.h>
#include <string.h>

/* Argument positions of the loops in cl/color.cl (row, col, color first). */
enum { FF_ITEMS = 3, FF_NITEMS, FF_USE_ITEMS, FF_BITSET, FF_CHANGED, FF_PARAMS };
enum { RT_FINAL = 3, RT_N, RT_HEURISTIC, RT_CONFLICTS, RT_PARAMS };
enum { RD_FINAL = 3, RD_HEURISTIC, RD_FUSED, RD_BITSET, RD_PARAMS = RD_BITSET + 1 + 8 };
enum { JP_N = 3, JP_BASE, JP_REMAINING, JP_PARAMS };
#define JP_CLASSES 8 /* 2 * NHASH of cl/color.cl: colors per round */

typedef struct color_run {
    clirr_ctx *ctx;
    const clirr_algo_opts *opts;
    clirr_dgraph dg;
    cl_mem color, final_, changed, counter;
    clirr_nl ff, resolve, jp;
    clirr_round_loop rl;
} color_run;

static void record_conflicts(clirr_algo_stats *stats, uint32_t conflicts)
{
    if (stats->iterations < sizeof stats->conflicts / sizeof stats->conflicts[0])
        stats->conflicts[stats->iterations] = conflicts;
}

/* A uint on the device set to value. */
static int set_u32(clirr_ctx *ctx, cl_mem buf, uint32_t value, clirr_error *err)
{
    return clirr_buf_write(ctx, buf, 0, sizeof value, &value, err);
}

static int get_u32(clirr_ctx *ctx, cl_mem buf, uint32_t *value, clirr_error *err)
{
    return clirr_buf_read(ctx, buf, 0, sizeof *value, value, err);
}

/* One first-fit pass over items[0..n) or, with items NULL, over every
 * uncolored vertex of the n. */
static int first_fit(color_run *r, cl_mem items, uint32_t n, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint use = items != NULL;
    cl_mem list = items ? items : r->color; /* unread when !use */
    CLIRR_TRY(CLIRR_NL_ARG(&r->ff, FF_ITEMS, list));
    CLIRR_TRY(CLIRR_NL_ARG(&r->ff, FF_NITEMS, n));
    CLIRR_TRY(CLIRR_NL_ARG(&r->ff, FF_USE_ITEMS, use));
    CLIRR_TRY(clirr_nl_run(&r->ff, n, err));
fail:
    return rc;
}

static int run_topo(color_run *r, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (;;) {
        uint32_t changed = 0, conflicts = 0;
        CLIRR_TRY(set_u32(r->ctx, r->changed, 0, err));
        CLIRR_TRY(set_u32(r->ctx, r->counter, 0, err));
        CLIRR_TRY(first_fit(r, NULL, r->dg.n, err));
        CLIRR_TRY(clirr_nl_run(&r->resolve, r->dg.n, err));
        CLIRR_TRY(get_u32(r->ctx, r->changed, &changed, err));
        if (!changed)
            break;
        CLIRR_TRY(get_u32(r->ctx, r->counter, &conflicts, err));
        record_conflicts(stats, conflicts);
        stats->iterations++;
    }
fail:
    return rc;
}

static int run_data(color_run *r, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_worklist wl;
    memset(&wl, 0, sizeof wl);
    CLIRR_TRY(clirr_worklist_init(&wl, r->ctx, r->dg.n, r->opts->wl_capacity, CLIRR_PUSH_SCAN, err));
    CLIRR_TRY(clirr_worklist_reset(&wl, NULL, r->dg.n, err));
    /* Fused rounds recolor their own losers; the first first-fit is then
     * the only separate one. */
    if (r->opts->color_fuse)
        CLIRR_TRY(first_fit(r, wl.items[wl.cur], wl.size, err));
    while (clirr_worklist_size(&wl) > 0) {
        if (!r->opts->color_fuse)
            CLIRR_TRY(first_fit(r, wl.items[wl.cur], wl.size, err));
        CLIRR_TRY(clirr_round_loop_run(&r->rl, &wl, err));
        record_conflicts(stats, clirr_worklist_size(&wl));
        stats->iterations++;
    }
    clirr_run_worklist_stats(&wl, stats);
fail:
    clirr_worklist_release(&wl);
    return rc;
}

static int run_jp(color_run *r, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (cl_uint base = 0;; base += JP_CLASSES) {
        uint32_t remaining = 0;
        CLIRR_TRY(set_u32(r->ctx, r->counter, 0, err));
        CLIRR_TRY(CLIRR_NL_ARG(&r->jp, JP_BASE, base));
        CLIRR_TRY(clirr_nl_run(&r->jp, r->dg.n, err));
        CLIRR_TRY(get_u32(r->ctx, r->counter, &remaining, err));
        record_conflicts(stats, 0);
        stats->iterations++;
        if (remaining == 0)
            break;
        if (base > UINT32_MAX - 2 * JP_CLASSES) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "jp: ran out of 32-bit colors");
            goto fail;
        }
    }
fail:
    return rc;
}

/* Bind row, col, color to every kernel of nl. */
static int bind_graph(color_run *r, clirr_nl *nl, clirr_error *err)
{
    const cl_kernel *k;
    unsigned nk = clirr_nl_kernels(nl, &k);
    cl_uint next = 0;
    int rc = clirr_dgraph_bind_all(&r->dg, k, nk, 0, false, &next, err);
    if (rc == CLIRR_OK)
        rc = CLIRR_NL_ARG(nl, next, r->color);
    return rc;
}

/* Build the loops the variant needs (before the clock starts). */
static int setup(color_run *r, const clirr_graph *g, clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl_config cfg;
    const clirr_caps *caps = clirr_ctx_caps(r->ctx);
    clirr_run_template(caps, "color", r->opts, g->n, sizeof(cl_ulong), &cfg, stats);
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(r->ctx, "color.cl", "", &prog, err));
    if (r->opts->variant == CLIRR_VARIANT_JP) {
        clirr_nl_config c = cfg;
        c.reduce_size = sizeof(cl_uint);
        CLIRR_TRY(clirr_nl_init(&r->jp, r->ctx, prog, "color_jp", JP_PARAMS, g->n, &c, err));
        stats->wg_size = (unsigned)r->jp.wg;
        return CLIRR_OK;
    }
    CLIRR_TRY(clirr_nl_init(&r->ff, r->ctx, prog, "color_ff", FF_PARAMS, g->n, &cfg, err));
    stats->wg_size = (unsigned)r->ff.wg;
    clirr_nl_config c = cfg;
    c.reduce_size = sizeof(cl_uint);
    if (r->opts->variant == CLIRR_VARIANT_TOPO)
        CLIRR_TRY(clirr_nl_init(&r->resolve, r->ctx, prog, "color_resolve_topo", RT_PARAMS, g->n, &c, err));
    else
        CLIRR_TRY(clirr_round_loop_init(&r->rl, r->ctx, "color.cl", "", "color_resolve_data", RD_PARAMS,
                                        g->n, r->opts->push, &c, err));
fail:
    return rc;
}

/* Bind the arguments that stay for the whole run. */
static int bind(color_run *r, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint heuristic = r->opts->color_heuristic, bitset = r->opts->color_bitset;
    cl_uint fused = r->opts->color_fuse, n = r->dg.n;
    if (r->opts->variant == CLIRR_VARIANT_JP) {
        CLIRR_TRY(bind_graph(r, &r->jp, err));
        CLIRR_TRY(CLIRR_NL_ARG(&r->jp, JP_N, n));
        CLIRR_TRY(CLIRR_NL_ARG(&r->jp, JP_REMAINING, r->counter));
        return CLIRR_OK;
    }
    CLIRR_TRY(bind_graph(r, &r->ff, err));
    CLIRR_TRY(CLIRR_NL_ARG(&r->ff, FF_BITSET, bitset));
    CLIRR_TRY(CLIRR_NL_ARG(&r->ff, FF_CHANGED, r->changed));
    if (r->opts->variant == CLIRR_VARIANT_TOPO) {
        CLIRR_TRY(bind_graph(r, &r->resolve, err));
        CLIRR_TRY(CLIRR_NL_ARG(&r->resolve, RT_FINAL, r->final_));
        CLIRR_TRY(CLIRR_NL_ARG(&r->resolve, RT_N, n));
        CLIRR_TRY(CLIRR_NL_ARG(&r->resolve, RT_HEURISTIC, heuristic));
        CLIRR_TRY(CLIRR_NL_ARG(&r->resolve, RT_CONFLICTS, r->counter));
        return CLIRR_OK;
    }
    cl_uint next = 0;
    CLIRR_TRY(clirr_round_loop_bind_graph(&r->rl, &r->dg, false, &next, err));
    CLIRR_TRY(CLIRR_ROUND_ARG(&r->rl, next, r->color));
    CLIRR_TRY(CLIRR_ROUND_ARG(&r->rl, RD_FINAL, r->final_));
    CLIRR_TRY(CLIRR_ROUND_ARG(&r->rl, RD_HEURISTIC, heuristic));
    CLIRR_TRY(CLIRR_ROUND_ARG(&r->rl, RD_FUSED, fused));
    CLIRR_TRY(CLIRR_ROUND_ARG(&r->rl, RD_BITSET, bitset));
fail:
    return rc;
}

int clirr_color(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, uint32_t *color_out,
                clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    color_run r;
    clirr_graph sym = {0};
    memset(&r, 0, sizeof r);
    memset(stats, 0, sizeof *stats);
    r.ctx = ctx;
    r.opts = opts;
    /* Undirected: every arc in both directions (prepared on the host). */
    CLIRR_TRY(clirr_graph_copy(g, &sym, err));
    CLIRR_TRY(clirr_graph_symmetrize(&sym, err));
    CLIRR_TRY(setup(&r, &sym, stats, err));

    uint64_t start = clirr_run_start(ctx);
    size_t ub = (size_t)g->n * sizeof(uint32_t);
    CLIRR_TRY(clirr_dgraph_upload(ctx, &sym, false, &r.dg, err));
    CLIRR_TRY(clirr_buf_create(ctx, "colors", ub, &r.color, err));
    CLIRR_TRY(clirr_buf_create(ctx, "final colors", ub, &r.final_, err));
    CLIRR_TRY(clirr_buf_create(ctx, "changed flag", sizeof(cl_uint), &r.changed, err));
    CLIRR_TRY(clirr_buf_create(ctx, "coloring counter", sizeof(cl_uint), &r.counter, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, r.color, 0, g->n, 0, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, r.final_, 0, g->n, 0, err));
    CLIRR_TRY(bind(&r, err));
    if (opts->variant == CLIRR_VARIANT_TOPO)
        CLIRR_TRY(run_topo(&r, stats, err));
    else if (opts->variant == CLIRR_VARIANT_DATA)
        CLIRR_TRY(run_data(&r, stats, err));
    else
        CLIRR_TRY(run_jp(&r, stats, err));
    CLIRR_TRY(clirr_buf_read(ctx, r.color, 0, ub, color_out, err));
    CLIRR_TRY(clirr_run_stop(ctx, start, stats, err));
    stats->colors = clirr_color_count(g->n, color_out);
    stats->reached = g->n;
    stats->edges_traversed = sym.m;
    uint64_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    CLIRR_TRY(clirr_nl_child_launches(&r.ff, &c1, err));
    CLIRR_TRY(clirr_nl_child_launches(&r.resolve, &c2, err));
    CLIRR_TRY(clirr_nl_child_launches(&r.jp, &c3, err));
    CLIRR_TRY(clirr_round_loop_child_launches(&r.rl, &c4, err));
    stats->child_launches = c1 + c2 + c3 + c4;
fail:
    clirr_nl_release(&r.ff);
    clirr_nl_release(&r.resolve);
    clirr_nl_release(&r.jp);
    clirr_round_loop_release(&r.rl);
    clirr_dgraph_release(&r.dg);
    clirr_mem_release(&r.color);
    clirr_mem_release(&r.final_);
    clirr_mem_release(&r.changed);
    clirr_mem_release(&r.counter);
    clirr_graph_free(&sym);
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "color (%s, %s) on %s", clirr_variant_name(opts->variant),
                           stats->template_name ? stats->template_name : "?", clirr_ctx_caps(ctx)->name);
    return rc;
}

uint32_t clirr_color_count(uint32_t n, const uint32_t *color)
{
    uint32_t maxc = 0, count = 0;
    for (uint32_t v = 0; v < n; v++)
        maxc = color[v] > maxc ? color[v] : maxc;
    bool *used = calloc((size_t)maxc + 1, sizeof *used);
    if (!used)
        return maxc; /* an upper bound, when memory is short */
    for (uint32_t v = 0; v < n; v++)
        if (!used[color[v]]) {
            used[color[v]] = true;
            count++;
        }
    free(used);
    return count;
}
