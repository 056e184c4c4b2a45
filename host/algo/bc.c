/* host/algo/bc.c - betweenness centrality on the device (Brandes; kernels:
 * cl/bc.cl and bfs_data of cl/bfs.cl; nested-loop study,
 * shared/papers/001). Per source: a level-synchronous BFS whose frontiers
 * are kept one after another in order[], the path counts of each new level
 * pulled over the transpose, then the dependencies level by level back to
 * the source. Every loop over arcs runs through the plan's template.
 * Scores, path counts and dependencies are doubles; levels are uint with
 * NONE for unreached. Pairs are ordered (not halved), as in clirr_ref_bc. */
#include "algo/input.h"
#include "algo/round.h"
#include "algo/run.h"
#include "cl/bc.def"
#include "cl/bfs.def"
#include "prim/prim.h"
#include "ref/ref.h"

#include <stdlib.h>

#define NONE UINT32_MAX

CLIRR_KARGS_STRUCT(bfs_data_args, BFS_DATA_ARGS);
CLIRR_KARGS_STRUCT(bc_sigma_args, BC_SIGMA_ARGS);
CLIRR_KARGS_STRUCT(bc_delta_args, BC_DELTA_ARGS);

typedef struct bc_session {
    clirr_ctx *ctx;
    const clirr_graph *g;
    const clirr_dgraph *dg, *dt; /* the input's graph and transpose, shared */
    uint32_t *sources;
    uint32_t nsources;
    clirr_round_loop discover;   /* bfs_data */
    clirr_nl sigma_loop, delta_loop;
    clirr_worklist wl;
    cl_mem level, sigma, delta, bc, order;
    uint32_t *offsets;           /* level d occupies order[offsets[d] .. offsets[d+1]) */
    double scale;                /* the reporting convention (scale_of) */
} bc_session;

enum { PARAM_NORMALIZE, PARAM_UNDIRECTED, PARAM_ESTIMATE };
static const clirr_param_desc bc_params[] = {
    [PARAM_NORMALIZE] = {"normalize", CLIRR_PARAM_BOOL, "off", 0, 0,
                         "divide by (n-1)(n-2), the number of ordered pairs apart from v"},
    [PARAM_UNDIRECTED] = {"undirected", CLIRR_PARAM_BOOL, "off", 0, 0,
                          "count each unordered pair once (halve), as NetworkX and igraph report "
                          "on undirected (symmetric) graphs"},
    [PARAM_ESTIMATE] = {"estimate", CLIRR_PARAM_BOOL, "off", 0, 0,
                        "scale a sample of k sources by n/k, an estimate of the full score"},
};

/* The factor the scores are reported with. The device and the reference
 * both sum over ordered pairs; NetworkX's conventions: normalized,
 * 1/((n-1)(n-2)) whether directed or not (undirected halving and doubling
 * cancel); else 1/2 for undirected; times n/k for a sample of k. */
static double scale_of(const clirr_plan *plan, uint32_t n, uint32_t nsources)
{
    const clirr_param_value *p = plan->params.v;
    double scale = 1;
    if (p[PARAM_NORMALIZE].b)
        scale = n > 2 ? 1.0 / ((double)(n - 1) * (n - 2)) : 1;
    else if (p[PARAM_UNDIRECTED].b)
        scale = 0.5;
    if (p[PARAM_ESTIMATE].b && nsources)
        scale *= (double)n / nsources;
    return scale;
}

static void apply_scale(double *bc, uint32_t n, double scale)
{
    for (uint32_t v = 0; scale != 1 && v < n; v++)
        bc[v] *= scale;
}

static void bc_release(void *state)
{
    bc_session *s = state;
    clirr_round_loop_release(&s->discover);
    clirr_nl_release(&s->sigma_loop);
    clirr_nl_release(&s->delta_loop);
    clirr_worklist_release(&s->wl);
    clirr_mem_release(&s->level);
    clirr_mem_release(&s->sigma);
    clirr_mem_release(&s->delta);
    clirr_mem_release(&s->bc);
    clirr_mem_release(&s->order);
    free(s->sources);
    free(s->offsets);
    free(s);
}

/* The roots plan->source picks on g (default: every vertex), in a new
 * array the caller frees. */
static int pick_sources(const clirr_plan *plan, const clirr_graph *g, uint32_t **sources,
                        uint32_t *count, clirr_error *err)
{
    *sources = malloc(((size_t)g->n + 1) * sizeof **sources);
    if (!*sources)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for BC sources");
    *count = clirr_sources_pick(g, &plan->source, *sources, g->n, err);
    if (*count == 0) {
        free(*sources);
        *sources = NULL;
        return err && err->status != CLIRR_OK ? err->status : CLIRR_ERR_USAGE;
    }
    return CLIRR_OK;
}

/* The three loops: discovery (BFS rounds over the worklist) and the two
 * per-level summing loops. */
static int build_loops(bc_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl_config loop_cfg = clirr_plan_loop(plan, 0);
    clirr_nl_config sum_cfg = clirr_plan_loop(plan, sizeof(double));
    const clirr_loop_spec discover = {"bfs.cl", "", "bfs_data", CLIRR_KNARGS(bfs_data_args),
                                      CLIRR_KARG(bfs_data_args, wl_in), NULL, 0, 0, 0, false, plan->fixed_grid};
    CLIRR_TRY(clirr_round_loop_init(&s->discover, s->ctx, &discover, s->g->n, plan->push, &loop_cfg, err));
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(s->ctx, "bc.cl", "", &prog, err));
    CLIRR_TRY(clirr_nl_init(&s->sigma_loop, s->ctx, prog, "bc_sigma", CLIRR_KNARGS(bc_sigma_args), s->g->n,
                            &sum_cfg, err));
    CLIRR_TRY(clirr_nl_init(&s->delta_loop, s->ctx, prog, "bc_delta", CLIRR_KNARGS(bc_delta_args), s->g->n,
                            &sum_cfg, err));
fail:
    return rc;
}

static int create_buffers(bc_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_ctx *ctx = s->ctx;
    size_t vb = (size_t)s->g->n * sizeof(double), ub = (size_t)s->g->n * sizeof(uint32_t);
    CLIRR_TRY(clirr_buf_create(ctx, "BC levels", ub, &s->level, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC path counts", vb, &s->sigma, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC dependencies", vb, &s->delta, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC scores", vb, &s->bc, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BC level order", ub, &s->order, err));
    CLIRR_TRY(clirr_worklist_init(&s->wl, ctx, s->g->n, plan->wl_capacity, CLIRR_PUSH_COMPACT, err));
    /* Levels 0 .. n-1 and the end of the last: at most n + 1 offsets. */
    if (!(s->offsets = malloc(((size_t)s->g->n + 2) * sizeof *s->offsets)))
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for BC level offsets");
fail:
    return rc;
}

/* The arrays every loop reads; per-level arguments are set as levels go. */
static int bind(bc_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_round_loop *rl = &s->discover;
    CLIRR_TRY(CLIRR_ROUND_SET(rl, bfs_data_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, bfs_data_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, bfs_data_args, level, s->level));

    clirr_nl *sig = &s->sigma_loop;
    CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, trow, s->dt->row));
    CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, tcol, s->dt->col));
    CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, level, s->level));
    CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, sigma, s->sigma));
    CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, order, s->order));

    clirr_nl *del = &s->delta_loop;
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, level, s->level));
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, sigma, s->sigma));
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, delta, s->delta));
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, bc, s->bc));
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, order, s->order));
fail:
    return rc;
}

static int bc_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                      clirr_error *err)
{
    int rc = CLIRR_OK;
    bc_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->g = clirr_input_graph(in);
    CLIRR_TRY(pick_sources(plan, s->g, &s->sources, &s->nsources, err));
    s->scale = scale_of(plan, s->g->n, s->nsources);
    CLIRR_TRY(build_loops(s, plan, err));
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_AS_IS, false, &s->dg, err));
    /* The path counts are pulled over in-arcs: the transpose. */
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_TRANSPOSED, false, &s->dt, err));
    CLIRR_TRY(create_buffers(s, plan, err));
    CLIRR_TRY(bind(s, err));
    *out = s;
    return CLIRR_OK;
fail:
    bc_release(s);
    return rc;
}

/* Zero n doubles (all-zero bits). */
static int zero_doubles(clirr_ctx *ctx, cl_mem buf, uint32_t n, clirr_error *err)
{
    return clirr_prim_fill_u32(ctx, buf, 0, 2 * (size_t)n, 0, err);
}

/* Level 0 is the source alone, with one path to itself. */
static int start_source(bc_session *s, uint32_t source, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_ctx *ctx = s->ctx;
    const double one = 1.0;
    CLIRR_TRY(clirr_prim_fill_u32(ctx, s->level, 0, s->g->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(ctx, s->level, source, 1, 0, err));
    CLIRR_TRY(zero_doubles(ctx, s->sigma, s->g->n, err));
    CLIRR_TRY(zero_doubles(ctx, s->delta, s->g->n, err));
    CLIRR_TRY(clirr_buf_write(ctx, s->sigma, (size_t)source * sizeof(double), sizeof one, &one, err));
    CLIRR_TRY(clirr_buf_write(ctx, s->order, 0, sizeof source, &source, err));
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &source, 1, err));
    s->offsets[0] = 0;
    s->offsets[1] = 1;
fail:
    return rc;
}

/* Discover level d+1 from level d, append it to order[], then pull its
 * path counts; *depth ends at the deepest level. */
static int forward(bc_session *s, uint32_t *depth, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *sig = &s->sigma_loop;
    for (uint32_t d = 0;; d++) {
        *depth = d;
        CLIRR_TRY(CLIRR_ROUND_SET(&s->discover, bfs_data_args, depth, d));
        CLIRR_TRY(clirr_round_loop_run(&s->discover, &s->wl, err));
        uint32_t found = clirr_worklist_size(&s->wl);
        if (found == 0)
            break;
        uint32_t first = s->offsets[d + 1];
        CLIRR_TRY(clirr_buf_copy(s->ctx, s->wl.items[s->wl.cur], 0, s->order,
                                 (size_t)first * sizeof(uint32_t), (size_t)found * sizeof(uint32_t), err));
        s->offsets[d + 2] = first + found;
        CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, first, first));
        CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, count, found));
        CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, depth, d));
        CLIRR_TRY(clirr_nl_run(sig, found, err));
    }
fail:
    return rc;
}

/* Dependencies of level d from level d+1, deepest first (the deepest
 * level's are zero), added to the scores. */
static int backward(bc_session *s, uint32_t source, uint32_t depth, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *del = &s->delta_loop;
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, source, source));
    for (uint32_t d = depth; d-- > 0;) {
        uint32_t first = s->offsets[d], count = s->offsets[d + 1] - first;
        CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, first, first));
        CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, count, count));
        CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, depth, d));
        CLIRR_TRY(clirr_nl_run(del, count, err));
    }
fail:
    return rc;
}

static int one_source(bc_session *s, uint32_t source, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t depth = 0;
    CLIRR_TRY(start_source(s, source, err));
    CLIRR_TRY(forward(s, &depth, err));
    CLIRR_TRY(backward(s, source, depth, err));
    stats->iterations += depth + 1;
    stats->reached += s->offsets[depth + 1];
fail:
    return rc;
}

/* Children the nested templates enqueued in this trial: the counters run
 * on from the session's first trial. */
static int count_child_launches(bc_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint64_t sigma = 0, delta = 0, discover = 0;
    CLIRR_TRY(clirr_nl_child_launches(&s->sigma_loop, &sigma, err));
    CLIRR_TRY(clirr_nl_child_launches(&s->delta_loop, &delta, err));
    CLIRR_TRY(clirr_round_loop_child_launches(&s->discover, &discover, err));
    stats->child_launches = sigma + delta + discover;
fail:
    return rc;
}

static int bc_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    bc_session *s = state;
    CLIRR_TRY(zero_doubles(s->ctx, s->bc, s->g->n, err));
    for (uint32_t i = 0; i < s->nsources; i++)
        CLIRR_TRY(one_source(s, s->sources[i], stats, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->bc, 0, (size_t)s->g->n * sizeof(double), result, err));
    apply_scale(result, s->g->n, s->scale);
    clirr_run_worklist_stats(&s->wl, stats);
    /* Every source's BFS and dependency pass each cross the reached arcs;
     * TEPS counts the graph's arcs once per source, as Graph500 does. */
    stats->edges_traversed = (uint64_t)s->g->m * s->nsources;
    CLIRR_TRY(count_child_launches(s, stats, err));
fail:
    return rc;
}

static int bc_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    const clirr_graph *g = clirr_input_graph(in);
    uint32_t *sources = NULL, count = 0;
    int rc = pick_sources(plan, g, &sources, &count, err);
    if (rc == CLIRR_OK)
        rc = clirr_ref_bc(g, sources, count, out, err);
    if (rc == CLIRR_OK)
        apply_scale(out, g->n, scale_of(plan, g->n, count));
    free(sources);
    return rc;
}

static bool bc_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                      const void *got, clirr_verify_report *r)
{
    (void)plan;
    return clirr_verify_real("scores", (uint32_t)clirr_input_items(in), expected, got, 1e-9, 1e-9, r);
}

static void bc_write(FILE *f, const void *result, uint64_t i)
{
    fprintf(f, "%.17g", ((const double *)result)[i]);
}

/* One unnamed variant (reported "-"); its discovery runs worklist rounds,
 * so the push mode matters. */
static const clirr_variant_desc bc_variants[] = {
    {NULL, "per source: worklist BFS discovery, path counts pulled over the transpose, "
           "dependencies level by level", true, false},
};

const clirr_algo clirr_algo_bc = {
    .name = "bc",
    .summary = "betweenness centrality (Brandes, ordered pairs) from a set of sources "
               "(default: every vertex)",
    .study = "shared/papers/001 (nested-loop templates)",
    .input = CLIRR_INPUT_GRAPH,
    .variants = bc_variants,
    .nvariants = 1,
    .default_variant = 0,
    .params = bc_params,
    .nparams = sizeof bc_params / sizeof bc_params[0],
    .sources = CLIRR_SOURCES_MANY,
    .needs_fp64 = true,
    .value_size = sizeof(double),
    .prepare = bc_prepare,
    .run = bc_run,
    .release = bc_release,
    .reference = bc_reference,
    .verify = bc_verify,
    .write_value = bc_write,
};
