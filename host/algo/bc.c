/* host/algo/bc.c - betweenness centrality on the device (Brandes; kernels:
 * cl/bc.cl and bfs_data of cl/bfs.cl; nested-loop study,
 * shared/papers/001). Per source: a level-synchronous BFS whose frontiers
 * are kept one after another in order[], the path counts of each new level
 * pulled over the transpose, then the dependencies level by level back to
 * the source. Every loop over arcs runs through the plan's template.
 * Scores, path counts and dependencies are doubles; levels are uint with
 * NONE for unreached. Pairs are ordered (not halved), as in clirr_ref_bc.
 *
 * Small levels (at most the plan's local_rounds vertices, few arcs) run
 * many at a time in one work-group (bc_forward_local, bc_backward_local):
 * a road network's thousand levels per source then cost a few launches
 * instead of four each. */
#include "algo/input.h"
#include "algo/round.h"
#include "algo/run.h"
#include "cl/bc.def"
#include "cl/bfs.def"
#include "prim/prim.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

CLIRR_KARGS_STRUCT(bfs_data_args, BFS_DATA_ARGS);
CLIRR_KARGS_STRUCT(bc_sigma_args, BC_SIGMA_ARGS);
CLIRR_KARGS_STRUCT(bc_delta_args, BC_DELTA_ARGS);
CLIRR_KARGS_STRUCT(bc_forward_local_args, BC_FORWARD_LOCAL_ARGS);
CLIRR_KARGS_STRUCT(bc_backward_local_args, BC_BACKWARD_LOCAL_ARGS);

/* Levels per local launch, so that no launch runs for long. */
#define LOCAL_MAX_LEVELS 1024

/* Many small levels in one work-group; kernels NULL when off. */
typedef struct bc_local {
    cl_kernel forward, backward;
    size_t wg;
    uint32_t threshold;    /* the largest level it starts on */
    cl_mem offsets, state; /* level offsets on the device; {depth, first, count, pending, levels} */
    uint8_t *expanded;     /* per level: expanded by bc_forward_local */
    bool used;             /* by the current source */
    uint32_t levels, launches; /* this trial's */
} bc_local;

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
    bc_local local;
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
    clirr_mem_release(&s->local.offsets);
    clirr_mem_release(&s->local.state);
    free(s->local.expanded);
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
    if (plan->local_rounds) {
        bc_local *l = &s->local;
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bc_forward_local", CLIRR_KNARGS(bc_forward_local_args),
                                           &l->forward, err));
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bc_backward_local",
                                           CLIRR_KNARGS(bc_backward_local_args), &l->backward, err));
        size_t fw = clirr_wg_size(s->ctx, l->forward, 1024), bw = clirr_wg_size(s->ctx, l->backward, 1024);
        l->wg = fw < bw ? fw : bw;
        l->threshold = plan->local_rounds;
    }
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
    if (rc == CLIRR_OK && s->local.forward) {
        CLIRR_TRY(clirr_buf_create(ctx, "BC level offsets", ((size_t)s->g->n + 2) * sizeof(uint32_t),
                                   &s->local.offsets, err));
        CLIRR_TRY(clirr_buf_create(ctx, "BC local levels state", 5 * sizeof(uint32_t), &s->local.state, err));
        if (!(s->local.expanded = calloc((size_t)s->g->n + 2, 1)))
            rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for BC level flags");
    }
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

    cl_kernel fw = s->local.forward, bw = s->local.backward;
    if (fw) {
        const cl_uint item_switch = s->local.threshold, max_levels = LOCAL_MAX_LEVELS;
        /* Arcs one work-group expands well in a level, as for BFS's local
         * rounds (host/algo/round.c); and no vertex of more than 32, which
         * one work-item would loop over while the group waits (measured on
         * the H100, rmat scale 18, 16 sources: 47.5 ms end to end with the
         * arc budget alone, 22.7 with no local levels at all). */
        const cl_uint arc_switch = 8 * s->local.threshold, degree_switch = 32;
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, row), s->dg->row));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, col), s->dg->col));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, trow), s->dt->row));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, tcol), s->dt->col));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, level), s->level));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, sigma), s->sigma));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, order), s->order));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, offsets), s->local.offsets));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, item_switch), item_switch));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, arc_switch), arc_switch));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, degree_switch), degree_switch));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, max_levels), max_levels));
        CLIRR_TRY(CLIRR_ARG(fw, CLIRR_KARG(bc_forward_local_args, state), s->local.state));
        CLIRR_TRY(CLIRR_ARG(bw, CLIRR_KARG(bc_backward_local_args, row), s->dg->row));
        CLIRR_TRY(CLIRR_ARG(bw, CLIRR_KARG(bc_backward_local_args, col), s->dg->col));
        CLIRR_TRY(CLIRR_ARG(bw, CLIRR_KARG(bc_backward_local_args, level), s->level));
        CLIRR_TRY(CLIRR_ARG(bw, CLIRR_KARG(bc_backward_local_args, sigma), s->sigma));
        CLIRR_TRY(CLIRR_ARG(bw, CLIRR_KARG(bc_backward_local_args, delta), s->delta));
        CLIRR_TRY(CLIRR_ARG(bw, CLIRR_KARG(bc_backward_local_args, bc), s->bc));
        CLIRR_TRY(CLIRR_ARG(bw, CLIRR_KARG(bc_backward_local_args, order), s->order));
        CLIRR_TRY(CLIRR_ARG(bw, CLIRR_KARG(bc_backward_local_args, offsets), s->local.offsets));
    }
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

/* Path counts of level d + 1 (order[first .. first+count)) from level d. */
static int pull_sigma(bc_session *s, uint32_t d, uint32_t first, uint32_t count, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *sig = &s->sigma_loop;
    CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, first, first));
    CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, count, count));
    CLIRR_TRY(CLIRR_NL_SET(sig, bc_sigma_args, depth, d));
    CLIRR_TRY(clirr_nl_run(sig, count, err));
fail:
    return rc;
}

/* Dependencies of level d (order[first .. first+count)) from level d + 1,
 * on the wide kernel. */
static int sum_delta(bc_session *s, uint32_t d, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *del = &s->delta_loop;
    uint32_t first = s->offsets[d], count = s->offsets[d + 1] - first;
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, first, first));
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, count, count));
    CLIRR_TRY(CLIRR_NL_SET(del, bc_delta_args, depth, d));
    CLIRR_TRY(clirr_nl_run(del, count, err));
fail:
    return rc;
}

/* One launch of bc_forward_local from level *d (count vertices). Returns
 * with *d and *count at the level it stopped on (count 0: *d was the
 * last), host offsets filled, or *count unchanged and no level run when
 * level *d has too many arcs for one work-group. */
static int forward_local(bc_session *s, uint32_t *d, uint32_t *count, bool *ran, clirr_error *err)
{
    int rc = CLIRR_OK;
    bc_local *l = &s->local;
    cl_uint depth = *d, first = s->offsets[*d], n = *count;
    uint32_t st[5];
    CLIRR_TRY(CLIRR_ARG(l->forward, CLIRR_KARG(bc_forward_local_args, depth), depth));
    CLIRR_TRY(CLIRR_ARG(l->forward, CLIRR_KARG(bc_forward_local_args, first), first));
    CLIRR_TRY(CLIRR_ARG(l->forward, CLIRR_KARG(bc_forward_local_args, count), n));
    CLIRR_TRY(clirr_launch(s->ctx, l->forward, l->wg, l->wg, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, l->state, 0, sizeof st, st, err));
    uint32_t levels = st[4];
    if (levels > LOCAL_MAX_LEVELS || st[0] != depth + levels - (st[2] == 0) || st[1] > s->g->n ||
        st[2] > s->g->n - st[1])
        return clirr_fail(err, CLIRR_ERR_OPENCL, "bc_forward_local reported level %u at %u (%u vertices) after %u levels",
                          st[0], st[1], st[2], levels);
    *ran = levels > 0;
    if (!*ran)
        return CLIRR_OK;
    l->used = true;
    l->launches++;
    l->levels += levels;
    memset(l->expanded + depth, 1, levels);
    /* The offsets of the levels it found: offsets[depth + 2 ..]. */
    uint32_t found = st[2] == 0 ? levels - 1 : levels;
    if (found)
        CLIRR_TRY(clirr_buf_read(s->ctx, l->offsets, ((size_t)depth + 2) * sizeof(uint32_t),
                                 found * sizeof(uint32_t), s->offsets + depth + 2, err));
    *d = st[0];
    *count = st[2];
    if (st[3]) /* the last level's in-arcs were too many for one work-group */
        CLIRR_TRY(pull_sigma(s, *d - 1, st[1], st[2], err));
fail:
    return rc;
}

/* Discover level d+1 from level d, append it to order[], then pull its
 * path counts; *depth ends at the deepest level. Small levels run in
 * bc_forward_local; the worklist then holds a stale level, refilled from
 * order[] when the wide rounds take over. */
static int forward(bc_session *s, uint32_t *depth, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t d = 0, count = 1;
    bool wl_current = true;
    for (;;) {
        if (s->local.forward && count <= s->local.threshold) {
            bool ran = false;
            CLIRR_TRY(forward_local(s, &d, &count, &ran, err));
            if (ran) {
                wl_current = false;
                if (count == 0)
                    break;
                continue;
            }
        }
        if (!wl_current)
            CLIRR_TRY(clirr_worklist_reset_from(&s->wl, s->order, s->offsets[d], count, err));
        wl_current = true;
        CLIRR_TRY(CLIRR_ROUND_SET(&s->discover, bfs_data_args, depth, d));
        CLIRR_TRY(clirr_round_loop_run(&s->discover, &s->wl, err));
        uint32_t found = clirr_worklist_size(&s->wl);
        if (found == 0)
            break;
        uint32_t first = s->offsets[d + 1];
        CLIRR_TRY(clirr_buf_copy(s->ctx, s->wl.items[s->wl.cur], 0, s->order,
                                 (size_t)first * sizeof(uint32_t), (size_t)found * sizeof(uint32_t), err));
        s->offsets[d + 2] = first + found;
        CLIRR_TRY(pull_sigma(s, d, first, found, err));
        d++;
        count = found;
    }
    *depth = d;
fail:
    return rc;
}

/* Dependencies of level d from level d+1, deepest first (the deepest
 * level's are zero), added to the scores. Runs of levels the forward pass
 * expanded in one work-group go back the same way, in one launch each. */
static int backward(bc_session *s, uint32_t source, uint32_t depth, clirr_error *err)
{
    int rc = CLIRR_OK;
    bc_local *l = &s->local;
    CLIRR_TRY(CLIRR_NL_SET(&s->delta_loop, bc_delta_args, source, source));
    if (l->used) {
        cl_uint src = source;
        CLIRR_TRY(clirr_buf_write(s->ctx, l->offsets, 0, ((size_t)depth + 1) * sizeof(uint32_t), s->offsets, err));
        CLIRR_TRY(CLIRR_ARG(l->backward, CLIRR_KARG(bc_backward_local_args, source), src));
    }
    for (uint32_t d = depth; d > 0;) {
        if (l->forward && l->expanded[d - 1]) {
            cl_uint hi = d, lo = d - 1;
            while (lo > 0 && l->expanded[lo - 1] && hi - lo < LOCAL_MAX_LEVELS)
                lo--;
            CLIRR_TRY(CLIRR_ARG(l->backward, CLIRR_KARG(bc_backward_local_args, depth_hi), hi));
            CLIRR_TRY(CLIRR_ARG(l->backward, CLIRR_KARG(bc_backward_local_args, depth_lo), lo));
            CLIRR_TRY(clirr_launch(s->ctx, l->backward, l->wg, l->wg, err));
            l->launches++;
            d = lo;
            continue;
        }
        CLIRR_TRY(sum_delta(s, --d, err));
    }
fail:
    return rc;
}

static int one_source(bc_session *s, uint32_t source, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t depth = 0;
    bc_local *l = &s->local;
    CLIRR_TRY(start_source(s, source, err));
    CLIRR_TRY(forward(s, &depth, err));
    CLIRR_TRY(backward(s, source, depth, err));
    if (l->used)
        memset(l->expanded, 0, (size_t)depth + 1);
    l->used = false;
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
    s->local.levels = s->local.launches = 0;
    CLIRR_TRY(zero_doubles(s->ctx, s->bc, s->g->n, err));
    for (uint32_t i = 0; i < s->nsources; i++)
        CLIRR_TRY(one_source(s, s->sources[i], stats, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->bc, 0, (size_t)s->g->n * sizeof(double), result, err));
    apply_scale(result, s->g->n, s->scale);
    clirr_run_worklist_stats(&s->wl, stats);
    /* Every source's BFS and dependency pass each cross the reached arcs;
     * TEPS counts the graph's arcs once per source, as Graph500 does. */
    stats->edges_traversed = (uint64_t)s->g->m * s->nsources;
    stats->local_rounds = s->local.levels;
    stats->local_launches = s->local.launches;
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
