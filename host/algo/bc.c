/* host/algo/bc.c - betweenness centrality on the device (Brandes; kernels:
 * cl/bc.cl and bfs_data of cl/bfs.cl; nested-loop study,
 * shared/papers/001). Per source: a level-synchronous BFS whose frontiers
 * are kept one after another in order[], the path counts of each new level
 * pulled over the transpose, then the dependencies level by level back to
 * the source. Every loop over arcs runs through the run's template. */
#include "algo/dgraph.h"
#include "algo/round.h"
#include "algo/run.h"
#include "prim/prim.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
/* Argument positions of the three loops (cl/bfs.cl bfs_data, cl/bc.cl). */
enum { DISC_LEVEL = 2, DISC_DEPTH = 3, DISCOVER_PARAMS = 12 /* + WL_PARAMS */ };
enum { SIG_LEVEL = 2, SIG_SIGMA, SIG_ORDER, SIG_FIRST, SIG_COUNT, SIG_DEPTH, SIGMA_PARAMS };
enum { DEL_LEVEL = 2, DEL_SIGMA, DEL_DELTA, DEL_BC, DEL_ORDER, DEL_FIRST, DEL_COUNT, DEL_DEPTH,
       DEL_SOURCE, DELTA_PARAMS };

typedef struct bc_state {
    clirr_ctx *ctx;
    clirr_round_loop discover;
    clirr_nl sigma_loop, delta_loop;
    clirr_worklist wl;
    clirr_dgraph dg, dt;
    cl_mem level, sigma, delta, bc, order;
    uint32_t *offsets; /* level d occupies order[offsets[d] .. offsets[d+1]) */
} bc_state;

/* Zero n doubles (all-zero bits). */
static int zero_doubles(clirr_ctx *ctx, cl_mem buf, uint32_t n, clirr_error *err)
{
    return clirr_prim_fill_u32(ctx, buf, 0, 2 * (size_t)n, 0, err);
}

static int one_source(bc_state *s, uint32_t n, uint32_t source, clirr_algo_stats *stats,
                      clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_ctx *ctx = s->ctx;
    const double one = 1.0;
    CLIRR_TRY(clirr_prim_fill_u32(ctx, s->level, 0, n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, s->level, source, 1, 0, err));
    CLIRR_TRY(zero_doubles(ctx, s->sigma, n, err));
    CLIRR_TRY(zero_doubles(ctx, s->delta, n, err));
    CLIRR_TRY(clirr_buf_write(ctx, s->sigma, (size_t)source * sizeof(double), sizeof one, &one, err));
    CLIRR_TRY(clirr_buf_write(ctx, s->order, 0, sizeof source, &source, err));
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &source, 1, err));
    s->offsets[0] = 0;
    s->offsets[1] = 1;

    /* Forward: discover level d+1 from level d, then its path counts. */
    uint32_t depth = 0;
    for (;; depth++) {
        CLIRR_TRY(CLIRR_ROUND_ARG(&s->discover, DISC_DEPTH, depth));
        CLIRR_TRY(clirr_round_loop_run(&s->discover, &s->wl, err));
        uint32_t found = clirr_worklist_size(&s->wl);
        if (found == 0)
            break;
        uint32_t first = s->offsets[depth + 1];
        CLIRR_TRY(clirr_buf_copy(ctx, s->wl.items[s->wl.cur], 0, s->order, (size_t)first * sizeof(uint32_t),
                                 (size_t)found * sizeof(uint32_t), err));
        s->offsets[depth + 2] = first + found;
        CLIRR_TRY(CLIRR_NL_ARG(&s->sigma_loop, SIG_FIRST, first));
        CLIRR_TRY(CLIRR_NL_ARG(&s->sigma_loop, SIG_COUNT, found));
        CLIRR_TRY(CLIRR_NL_ARG(&s->sigma_loop, SIG_DEPTH, depth));
        CLIRR_TRY(clirr_nl_run(&s->sigma_loop, found, err));
    }
    /* Backward: dependencies of level d from level d+1, deepest first (the
     * deepest level's are zero). */
    CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_SOURCE, source));
    for (uint32_t d = depth; d-- > 0;) {
        uint32_t first = s->offsets[d], count = s->offsets[d + 1] - first;
        CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_FIRST, first));
        CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_COUNT, count));
        CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_DEPTH, d));
        CLIRR_TRY(clirr_nl_run(&s->delta_loop, count, err));
    }
    stats->iterations += depth + 1;
    stats->reached += s->offsets[depth + 1];
fail:
    return rc;
}

/* Bind the arrays every loop reads; per-level arguments come later. */
static int bind(bc_state *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    const cl_kernel *k;
    unsigned nk;
    cl_uint next = 0;
    CLIRR_TRY(clirr_round_loop_bind_graph(&s->discover, &s->dg, false, &next, err));
    CLIRR_TRY(CLIRR_ROUND_ARG(&s->discover, DISC_LEVEL, s->level));

    nk = clirr_nl_kernels(&s->sigma_loop, &k);
    CLIRR_TRY(clirr_dgraph_bind_all(&s->dt, k, nk, 0, false, &next, err));
    CLIRR_TRY(CLIRR_NL_ARG(&s->sigma_loop, SIG_LEVEL, s->level));
    CLIRR_TRY(CLIRR_NL_ARG(&s->sigma_loop, SIG_SIGMA, s->sigma));
    CLIRR_TRY(CLIRR_NL_ARG(&s->sigma_loop, SIG_ORDER, s->order));

    nk = clirr_nl_kernels(&s->delta_loop, &k);
    CLIRR_TRY(clirr_dgraph_bind_all(&s->dg, k, nk, 0, false, &next, err));
    CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_LEVEL, s->level));
    CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_SIGMA, s->sigma));
    CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_DELTA, s->delta));
    CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_BC, s->bc));
    CLIRR_TRY(CLIRR_NL_ARG(&s->delta_loop, DEL_ORDER, s->order));
fail:
    return rc;
}

int clirr_bc(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *opts, double *bc_out,
             clirr_algo_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    bc_state s;
    clirr_graph t = {0};
    clirr_nl_config loop_cfg, sum_cfg;
    uint32_t *sources = NULL;
    memset(&s, 0, sizeof s);
    memset(&sum_cfg, 0, sizeof sum_cfg);
    memset(stats, 0, sizeof *stats);
    s.ctx = ctx;
    if (g->n == 0)
        return clirr_fail(err, CLIRR_ERR_USAGE, "bc: the graph has no vertices");
    CLIRR_TRY(clirr_run_require_fp64(ctx, "betweenness centrality", err));
    clirr_run_template(clirr_ctx_caps(ctx), "bc", opts, g->n, 0, &loop_cfg, stats);
    clirr_run_template(clirr_ctx_caps(ctx), "bc", opts, g->n, sizeof(double), &sum_cfg, stats);
    if (!(sources = malloc((size_t)g->n * sizeof *sources)) ||
        !(s.offsets = malloc(((size_t)g->n + 2) * sizeof *s.offsets))) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    uint32_t nsources = clirr_bc_sources(g->n, opts->bc_sources, sources);
    /* The path counts are pulled over in-arcs: the transpose. */
    CLIRR_TRY(clirr_graph_transpose(g, &t, err));
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(ctx, "bc.cl", "", &prog, err));
    CLIRR_TRY(clirr_nl_init(&s.sigma_loop, ctx, prog, "bc_sigma", SIGMA_PARAMS, g->n, &sum_cfg, err));
    CLIRR_TRY(clirr_nl_init(&s.delta_loop, ctx, prog, "bc_delta", DELTA_PARAMS, g->n, &sum_cfg, err));
    CLIRR_TRY(clirr_round_loop_init(&s.discover, ctx, "bfs.cl", "", "bfs_data", DISCOVER_PARAMS, g->n,
                                    opts->push, &loop_cfg, err));
    stats->wg_size = (unsigned)s.sigma_loop.wg;

    uint64_t start = clirr_run_start(ctx);
    size_t vb = (size_t)g->n * sizeof(double), ub = (size_t)g->n * sizeof(uint32_t);
    CLIRR_TRY(clirr_dgraph_upload(ctx, g, false, &s.dg, err));
    CLIRR_TRY(clirr_dgraph_upload(ctx, &t, false, &s.dt, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC levels", ub, &s.level, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC path counts", vb, &s.sigma, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC dependencies", vb, &s.delta, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC scores", vb, &s.bc, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC level order", ub, &s.order, err));
    CLIRR_TRY(clirr_worklist_init(&s.wl, ctx, g->n, opts->wl_capacity, CLIRR_PUSH_SCAN, err));
    CLIRR_TRY(zero_doubles(ctx, s.bc, g->n, err));
    CLIRR_TRY(bind(&s, err));
    for (uint32_t i = 0; i < nsources; i++)
        CLIRR_TRY(one_source(&s, g->n, sources[i], stats, err));
    CLIRR_TRY(clirr_buf_read(ctx, s.bc, 0, vb, bc_out, err));
    CLIRR_TRY(clirr_run_stop(ctx, start, stats, err));
    clirr_run_worklist_stats(&s.wl, stats);
    /* Every source's BFS and dependency pass each cross the reached arcs;
     * TEPS counts the graph's arcs once per source, as Graph500 does. */
    stats->edges_traversed = (uint64_t)g->m * nsources;
    uint64_t c1 = 0, c2 = 0, c3 = 0;
    CLIRR_TRY(clirr_nl_child_launches(&s.sigma_loop, &c1, err));
    CLIRR_TRY(clirr_nl_child_launches(&s.delta_loop, &c2, err));
    CLIRR_TRY(clirr_round_loop_child_launches(&s.discover, &c3, err));
    stats->child_launches = c1 + c2 + c3;
fail:
    clirr_round_loop_release(&s.discover);
    clirr_nl_release(&s.sigma_loop);
    clirr_nl_release(&s.delta_loop);
    clirr_worklist_release(&s.wl);
    clirr_dgraph_release(&s.dg);
    clirr_dgraph_release(&s.dt);
    clirr_mem_release(&s.level);
    clirr_mem_release(&s.sigma);
    clirr_mem_release(&s.delta);
    clirr_mem_release(&s.bc);
    clirr_mem_release(&s.order);
    clirr_graph_free(&t);
    free(sources);
    free(s.offsets);
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "bc (%s) on %s", stats->template_name ? stats->template_name : "?",
                           clirr_ctx_caps(ctx)->name);
    return rc;
}
