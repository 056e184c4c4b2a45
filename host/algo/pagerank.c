/* host/algo/pagerank.c - PageRank on the device by Jacobi iteration in pull
 * form over the transpose graph (kernels: cl/pagerank.cl; nested-loop
 * study, shared/papers/001), one vertex's in-arcs a nested-loop item
 * through the plan's template. The same recurrence, start and stopping rule
 * as the reference (host/ref/pagerank.c): r = 1/n; each iteration
 * r' = (1-d)/n + d (sum over in-arcs u of r(u)/outdeg(u) + dangling/n);
 * stop when |r' - r|_1 <= tol or after max-iter iterations. Scores are
 * doubles on the device and in the result; out-degrees come from the
 * graph as given, in-arcs from its transpose (both shared by the input).
 * pull checks the change after every iteration (a read-back each); range
 * (CPUs) and fused (GPUs) are one launch an iteration, queued ahead in
 * batches with the stopping test on the device (run_queued). */
#include "algo/input.h"
#include "algo/run.h"
#include "cl/pagerank.def"
#include "prim/prim.h"
#include "ref/ref.h"

#include <stdlib.h>

CLIRR_KARGS_STRUCT(pr_init_args, PR_INIT_ARGS);
CLIRR_KARGS_STRUCT(pr_prepare_args, PR_PREPARE_ARGS);
CLIRR_KARGS_STRUCT(pr_pull_args, PR_PULL_ARGS);
CLIRR_KARGS_STRUCT(pr_range_args, PR_RANGE_ARGS);
CLIRR_KARGS_STRUCT(pr_start_args, PR_START_ARGS);
CLIRR_KARGS_STRUCT(pr_fused_args, PR_FUSED_ARGS);
CLIRR_KARGS_STRUCT(pr_block_split_args, PR_BLOCK_SPLIT_ARGS);
CLIRR_KARGS_STRUCT(pr_gather_block_args, PR_GATHER_BLOCK_ARGS);
CLIRR_KARGS_STRUCT(pr_scores_args, PR_SCORES_ARGS);

/* Set argument `name` of plain kernel k, whose parameter list is `tag`. */
#define KERNEL_SET(k, tag, name, var) clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err)
/* Set argument `name` of the queued step, a parameter range's and fused's
 * lists share (each at its own index). */
#define STEP_SET(s, name, var)                                                 \
    clirr_arg((s)->step,                                                       \
              (s)->variant == VARIANT_FUSED ? CLIRR_KARG(pr_fused_args, name)  \
                                            : CLIRR_KARG(pr_range_args, name), \
              sizeof(var), &(var), err)

enum { PARAM_DAMPING, PARAM_TOL, PARAM_MAX_ITER, PARAM_BLOCKS, PARAM_PRECISION };
enum { PRECISION_DOUBLE, PRECISION_FLOAT };
enum { VARIANT_PULL, VARIANT_RANGE, VARIANT_FUSED, VARIANT_AUTO };

/* range: ranges a compute unit (enough for the cores to balance the
 * ranges' uneven gathers) and work-items a work-group: one, so that no
 * CPU compiler runs ranges of unequal rows in lockstep (PoCL, uniform
 * graph scale 21, 20 iterations: 500-576 ms at 1, 521-787 at 4, 702-869
 * at 16, pull 600-661). */
#define RANGES_PER_UNIT 32
#define RANGE_WG 1

/* fused: work-groups a compute unit (of 256 work-items: enough to fill an
 * H100's SM; each work-group adds up every work-group's sums of the launch
 * before, so there are no more of them than that), and the in-degree above
 * which a whole work-group pulls a vertex (below it, a work-item's serial
 * loop is no longer than the work-group's tree). */
#define FUSED_GROUPS_PER_UNIT 8
#define FUSED_WG 256
#define FUSED_HEAVY_DEG 128

/* Queued iterations: enqueued in batches, one read of the run's state a
 * batch, waited for one batch later (so the device always has a batch to
 * run while the host waits); a run that stops mid-batch leaves at most two
 * batches of launches that return at once. */
#define QUEUE_BATCH 8

typedef struct pr_session {
    clirr_ctx *ctx;
    uint32_t n;
    uint64_t m;
    double damping, tol;
    uint64_t max_iter;
    size_t contrib_size;    /* bytes a contribution: double, or float (--precision) */
    const char *options;    /* the program's build options */
    const clirr_dgraph *dg; /* the graph as is (out-degrees), the input's */
    const clirr_dgraph *dt; /* its transpose (in-arcs), the input's */
    cl_kernel init, prep;   /* context-owned */
    size_t wg_init, wg_prep;
    clirr_nl pull;
    cl_mem r, rnew;         /* scores; swapped every iteration */
    cl_mem contrib, dangling, diff;
    /* range and fused: one launch an iteration, queued (run_queued); the
     * scores, contributions and sums alternate between [0] and [1] */
    cl_kernel step;         /* pr_range or pr_fused, context-owned; NULL: pull */
    cl_kernel start;        /* pr_start */
    unsigned variant;
    uint32_t nranges;       /* range: vertex ranges, one a work-item */
    uint32_t ngroups;       /* fused: work-groups */
    size_t wg_step, wg_start;
    uint32_t nsums;         /* sums a launch: nranges or ngroups */
    uint32_t nheavy;        /* fused: vertices pulled by a work-group */
    uint32_t nblocks;       /* fused, range: passes an iteration (1: the step alone) */
    cl_kernel gather;       /* in blocks: pr_gather_block, context-owned */
    size_t wg_gather;
    /* doubles: the scores live in the contributions (cl/pagerank.cl,
     * PR_SCORES_IN_CONTRIB); pr_scores makes them at the end */
    cl_kernel scores;       /* context-owned; NULL with float contributions */
    size_t wg_scores;
    cl_mem bounds, heavy, contrib_next, partial[2], state, tsplit;
    clirr_pinned seen;      /* the state as each batch left it, read ahead */
} pr_session;

static void pr_release(void *state)
{
    pr_session *s = state;
    clirr_nl_release(&s->pull);
    clirr_mem_release(&s->r);
    clirr_mem_release(&s->rnew);
    clirr_mem_release(&s->contrib);
    clirr_mem_release(&s->dangling);
    clirr_mem_release(&s->diff);
    clirr_mem_release(&s->bounds);
    clirr_mem_release(&s->heavy);
    clirr_mem_release(&s->partial[0]);
    clirr_mem_release(&s->partial[1]);
    clirr_mem_release(&s->state);
    clirr_mem_release(&s->contrib_next);
    clirr_mem_release(&s->tsplit);
    clirr_pinned_free(s->ctx, &s->seen);
    free(s);
}

/* The program, its kernels (each checked against its list in
 * cl/pagerank.def) and the pull loop over the plan's template. */
static int build(pr_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(s->ctx, "pagerank.cl", s->options, &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_init", CLIRR_KNARGS(pr_init_args), &s->init, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_prepare", CLIRR_KNARGS(pr_prepare_args), &s->prep,
                                       err));
    s->wg_init = clirr_wg_size(s->ctx, s->init, plan->wg_size);
    s->wg_prep = clirr_wg_size(s->ctx, s->prep, plan->wg_size);
    clirr_nl_config cfg = clirr_plan_loop(plan, sizeof(double));
    CLIRR_TRY(clirr_nl_init(&s->pull, s->ctx, prog, "pr_pull", CLIRR_KNARGS(pr_pull_args), s->n, &cfg, err));
fail:
    return rc;
}

static int allocate(pr_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t bytes = (size_t)s->n * sizeof(double);
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank scores", bytes, &s->r, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank new scores", bytes, &s->rnew, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank contributions", (size_t)s->n * s->contrib_size, &s->contrib,
                               err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank dangling mass", bytes, &s->dangling, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank changes", bytes, &s->diff, err));
fail:
    return rc;
}

/* The arguments that stay the same in every iteration of every trial (the
 * scores, swapped each iteration, and base are set as the run goes). */
static int bind(pr_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    double start = 1.0 / s->n;
    CLIRR_TRY(KERNEL_SET(s->init, pr_init_args, value, start));
    CLIRR_TRY(KERNEL_SET(s->init, pr_init_args, n, s->n));
    CLIRR_TRY(KERNEL_SET(s->prep, pr_prepare_args, row, s->dg->row));
    CLIRR_TRY(KERNEL_SET(s->prep, pr_prepare_args, contrib, s->contrib));
    CLIRR_TRY(KERNEL_SET(s->prep, pr_prepare_args, dangling, s->dangling));
    CLIRR_TRY(KERNEL_SET(s->prep, pr_prepare_args, n, s->n));
    clirr_nl *nl = &s->pull;
    CLIRR_TRY(CLIRR_NL_SET(nl, pr_pull_args, trow, s->dt->row));
    CLIRR_TRY(CLIRR_NL_SET(nl, pr_pull_args, tcol, s->dt->col));
    CLIRR_TRY(CLIRR_NL_SET(nl, pr_pull_args, contrib, s->contrib));
    CLIRR_TRY(CLIRR_NL_SET(nl, pr_pull_args, diff, s->diff));
    CLIRR_TRY(CLIRR_NL_SET(nl, pr_pull_args, damping, s->damping));
    CLIRR_TRY(CLIRR_NL_SET(nl, pr_pull_args, n, s->n));
fail:
    return rc;
}

/* The vertices a fused work-group pulls whole: more than FUSED_HEAVY_DEG
 * in-arcs (the rule pr_fused's work-items skip them by). */
static int heavy_list(pr_session *s, const clirr_graph *gt, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t *heavy = NULL, count = 0;
    for (uint32_t v = 0; v < gt->n; v++)
        count += gt->row[v + 1] - gt->row[v] > FUSED_HEAVY_DEG;
    s->nheavy = count;
    heavy = malloc(((size_t)count + 1) * sizeof *heavy);
    if (!heavy)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    count = 0;
    for (uint32_t v = 0; v < gt->n; v++)
        if (gt->row[v + 1] - gt->row[v] > FUSED_HEAVY_DEG)
            heavy[count++] = v;
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank heavy vertices", ((size_t)count + 1) * sizeof *heavy, &s->heavy,
                               err));
    CLIRR_TRY(clirr_buf_write(s->ctx, s->heavy, 0, (size_t)count * sizeof *heavy, heavy, err));
fail:
    free(heavy);
    return rc;
}

/* range: the bounds of the ranges (from the host's transpose). */
static int range_layout(pr_session *s, const clirr_graph *gt, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint64_t want = (uint64_t)clirr_ctx_caps(s->ctx)->compute_units * RANGES_PER_UNIT;
    s->nranges = (uint32_t)(want < 1 ? 1 : want > s->n ? s->n : want);
    s->nsums = s->nranges;
    uint32_t *bounds = malloc(((size_t)s->nranges + 1) * sizeof *bounds);
    if (!bounds)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    clirr_run_vertex_ranges(gt, s->nranges, 1, bounds);
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank ranges", ((size_t)s->nranges + 1) * sizeof *bounds, &s->bounds,
                               err));
    CLIRR_TRY(clirr_buf_write(s->ctx, s->bounds, 0, ((size_t)s->nranges + 1) * sizeof *bounds, bounds, err));
fail:
    free(bounds);
    return rc;
}

/* fused: the grid (a few work-groups a compute unit, no more than the
 * vertices need) and the heavy vertices. */
static int fused_layout(pr_session *s, const clirr_plan *plan, const clirr_graph *gt, clirr_error *err)
{
    const clirr_caps *caps = clirr_ctx_caps(s->ctx);
    s->wg_step = clirr_wg_size(s->ctx, s->step, plan->wg_size ? plan->wg_size : FUSED_WG);
    /* tmp: two doubles a work-item */
    while (s->wg_step > 1 && s->wg_step * 2 * sizeof(double) > caps->local_mem / 2)
        s->wg_step /= 2;
    uint64_t need = ((uint64_t)s->n + s->wg_step - 1) / s->wg_step;
    uint64_t most = (uint64_t)(caps->compute_units ? caps->compute_units : 1) * FUSED_GROUPS_PER_UNIT;
    s->ngroups = (uint32_t)(need < most ? need : most);
    s->nsums = s->ngroups;
    return heavy_list(s, gt, err);
}

/* fused and range: the passes an iteration, --blocks (at most one a
 * vertex). The case for blocks: on an H200, 20 iterations of uniform
 * random graphs took 0.011-0.013 ns an arc while the 8 n bytes of
 * contributions fit its cache, 0.020 at 2^23 vertices, 0.025 at 2^24. Two blocks then gained 9%
 * at 2^23 and 5% at 2^24 but lost on kron, a grid and a road network
 * (tests/bench/RESULTS.md, "Buckets for bits, PageRank's blocks on the
 * GPU"), and NVIDIA's OpenCL reports no usable cache size (4 MiB on the
 * H200, not its L2) to choose by. On PoCL's 16-core Xeon range in 2-4
 * blocks took 1.5-2.6x as long on urand 2^23 ("Scores in the
 * contributions"): one block unless asked. */
static uint32_t blocks_for(const pr_session *s, const clirr_plan *plan)
{
    uint64_t asked = plan->params.v[PARAM_BLOCKS].u;
    return (uint32_t)(asked < s->n ? asked : s->n);
}

/* fused or range in blocks: the block pass's kernel and where each block
 * starts in each row (pr_block_split, once). A block pass walks the
 * vertices as the step does: range's work-items their ranges (and every
 * vertex, having no work-group path for hubs), fused's one a work-item. */
static int blocks_layout(pr_session *s, cl_program prog, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    bool fused = s->variant == VARIANT_FUSED;
    uint32_t block = (uint32_t)(((uint64_t)s->n + s->nblocks - 1) / s->nblocks);
    cl_uint nblocks = s->nblocks, n = s->n;
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_gather_block", CLIRR_KNARGS(pr_gather_block_args),
                                       &s->gather, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_block_split", CLIRR_KNARGS(pr_block_split_args), &k,
                                       err));
    s->wg_gather = clirr_wg_size(s->ctx, s->gather, s->wg_step);
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank block starts", (size_t)(nblocks - 1) * n * sizeof(cl_uint),
                               &s->tsplit, err));
    CLIRR_TRY(KERNEL_SET(k, pr_block_split_args, trow, s->dt->row));
    CLIRR_TRY(KERNEL_SET(k, pr_block_split_args, tcol, s->dt->col));
    CLIRR_TRY(KERNEL_SET(k, pr_block_split_args, tsplit, s->tsplit));
    CLIRR_TRY(KERNEL_SET(k, pr_block_split_args, nblocks, nblocks));
    CLIRR_TRY(KERNEL_SET(k, pr_block_split_args, block, block));
    CLIRR_TRY(KERNEL_SET(k, pr_block_split_args, n, n));
    size_t split_items = fused ? (size_t)s->ngroups * s->wg_step : s->n;
    CLIRR_TRY(clirr_launch(s->ctx, k, split_items, clirr_wg_size(s->ctx, k, fused ? s->wg_step : 0), err));
    cl_uint heavy_deg = fused ? FUSED_HEAVY_DEG : UINT32_MAX, nranges = fused ? 0 : s->nranges;
    cl_mem bounds = fused ? s->heavy : s->bounds; /* fused: unused, any buffer */
    k = s->gather;
    CLIRR_TRY(KERNEL_SET(k, pr_gather_block_args, trow, s->dt->row));
    CLIRR_TRY(KERNEL_SET(k, pr_gather_block_args, tcol, s->dt->col));
    CLIRR_TRY(KERNEL_SET(k, pr_gather_block_args, bounds, bounds));
    CLIRR_TRY(KERNEL_SET(k, pr_gather_block_args, nranges, nranges));
    CLIRR_TRY(KERNEL_SET(k, pr_gather_block_args, tsplit, s->tsplit));
    CLIRR_TRY(KERNEL_SET(k, pr_gather_block_args, state, s->state));
    CLIRR_TRY(KERNEL_SET(k, pr_gather_block_args, heavy_deg, heavy_deg));
    CLIRR_TRY(KERNEL_SET(k, pr_gather_block_args, n, n));
fail:
    return rc;
}

/* range and fused: the kernels, their layout and the buffers only they
 * need, and the arguments that stay. */
static int prepare_queued(pr_session *s, const clirr_input *in, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    const clirr_graph *gt = NULL;
    bool fused = s->variant == VARIANT_FUSED;
    CLIRR_TRY(clirr_input_graph_form(in, CLIRR_FORM_TRANSPOSED, &gt, err));
    CLIRR_TRY(clirr_program_get(s->ctx, "pagerank.cl", s->options, &prog, err));
    if (fused)
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_fused", CLIRR_KNARGS(pr_fused_args), &s->step, err));
    else
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_range", CLIRR_KNARGS(pr_range_args), &s->step, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_start", CLIRR_KNARGS(pr_start_args), &s->start, err));
    if (fused)
        CLIRR_TRY(fused_layout(s, plan, gt, err));
    else
        CLIRR_TRY(range_layout(s, gt, err));
    s->wg_start = fused ? clirr_wg_size(s->ctx, s->start, s->wg_step) : clirr_wg_size(s->ctx, s->start, RANGE_WG);
    if (!fused)
        s->wg_step = clirr_wg_size(s->ctx, s->step, RANGE_WG);
    for (int i = 0; i < 2; i++)
        CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank sums", (size_t)s->nsums * 2 * sizeof(double), &s->partial[i],
                                   err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank next contributions", (size_t)s->n * s->contrib_size,
                               &s->contrib_next, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank state", sizeof(cl_uint), &s->state, err));
    CLIRR_TRY(clirr_pinned_alloc(s->ctx, 2 * sizeof(cl_uint), &s->seen, err));
    s->nblocks = blocks_for(s, plan);
    if (s->nblocks > 1)
        CLIRR_TRY(blocks_layout(s, prog, err));
    if (s->contrib_size == sizeof(double)) {
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_scores", CLIRR_KNARGS(pr_scores_args), &s->scores,
                                           err));
        s->wg_scores = clirr_wg_size(s->ctx, s->scores, plan->wg_size);
        CLIRR_TRY(KERNEL_SET(s->scores, pr_scores_args, row, s->dg->row));
        CLIRR_TRY(KERNEL_SET(s->scores, pr_scores_args, r, s->r));
        CLIRR_TRY(KERNEL_SET(s->scores, pr_scores_args, n, s->n));
    }

    cl_kernel k = s->start;
    cl_uint ranges = fused ? 0 : s->nranges;
    cl_mem bounds = fused ? s->heavy : s->bounds; /* fused: unused, any buffer */
    double start = 1.0 / s->n;
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, row, s->dg->row));
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, bounds, bounds));
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, nranges, ranges));
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, r, s->r));
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, contrib, s->contrib));
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, partial, s->partial[0]));
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, state, s->state));
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, value, start));
    CLIRR_TRY(KERNEL_SET(k, pr_start_args, n, s->n));
    CLIRR_TRY(clirr_arg(k, CLIRR_KARG(pr_start_args, tmp), s->wg_start * 2 * sizeof(double), NULL, err));

    k = s->step;
    CLIRR_TRY(STEP_SET(s, trow, s->dt->row));
    CLIRR_TRY(STEP_SET(s, tcol, s->dt->col));
    CLIRR_TRY(STEP_SET(s, row, s->dg->row));
    CLIRR_TRY(STEP_SET(s, damping, s->damping));
    CLIRR_TRY(STEP_SET(s, nsums, s->nsums));
    CLIRR_TRY(STEP_SET(s, state, s->state));
    CLIRR_TRY(STEP_SET(s, tol, s->tol));
    CLIRR_TRY(STEP_SET(s, n, s->n));
    cl_uint nblocks = s->nblocks;
    cl_mem tsplit = s->tsplit ? s->tsplit : s->state; /* one block: unused, any buffer */
    CLIRR_TRY(STEP_SET(s, tsplit, tsplit));
    CLIRR_TRY(STEP_SET(s, nblocks, nblocks));
    if (fused) {
        cl_uint heavy_deg = FUSED_HEAVY_DEG;
        CLIRR_TRY(KERNEL_SET(k, pr_fused_args, heavy, s->heavy));
        CLIRR_TRY(KERNEL_SET(k, pr_fused_args, nheavy, s->nheavy));
        CLIRR_TRY(KERNEL_SET(k, pr_fused_args, heavy_deg, heavy_deg));
        CLIRR_TRY(clirr_arg(k, CLIRR_KARG(pr_fused_args, tmp), s->wg_step * 2 * sizeof(double), NULL, err));
    } else {
        CLIRR_TRY(KERNEL_SET(k, pr_range_args, bounds, s->bounds));
        CLIRR_TRY(KERNEL_SET(k, pr_range_args, nranges, s->nranges));
    }
fail:
    return rc;
}

static int pr_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                      clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_graph *g = clirr_input_graph(in);
    if (g->n == 0)
        return clirr_fail(err, CLIRR_ERR_USAGE, "pagerank: the graph has no vertices");
    pr_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->n = g->n;
    s->m = g->m;
    s->damping = plan->params.v[PARAM_DAMPING].r;
    s->tol = plan->params.v[PARAM_TOL].r;
    s->max_iter = plan->params.v[PARAM_MAX_ITER].u;
    bool single = plan->params.v[PARAM_PRECISION].u == PRECISION_FLOAT;
    s->contrib_size = single ? sizeof(float) : sizeof(double);
    s->options = single ? "-DPR_CONTRIB_FLOAT" : "";
    CLIRR_TRY(build(s, plan, err));
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_AS_IS, false, &s->dg, err));
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_TRANSPOSED, false, &s->dt, err));
    CLIRR_TRY(allocate(s, err));
    CLIRR_TRY(bind(s, err));
    s->variant = plan->variant;
    if (plan->variant == VARIANT_RANGE || plan->variant == VARIANT_FUSED)
        CLIRR_TRY(prepare_queued(s, in, plan, err));
    *out = s;
    return CLIRR_OK;
fail:
    pr_release(s);
    return rc;
}

/* One Jacobi step from s->r into s->rnew, then the two swap; *l1 gets the
 * L1 norm of the change. */
static int iterate(pr_session *s, double *l1, clirr_error *err)
{
    int rc = CLIRR_OK;
    double dangling = 0;
    CLIRR_TRY(KERNEL_SET(s->prep, pr_prepare_args, r, s->r));
    CLIRR_TRY(clirr_launch(s->ctx, s->prep, s->n, s->wg_prep, err));
    CLIRR_TRY(clirr_prim_sum_f64(s->ctx, s->dangling, s->n, &dangling, err));
    double base = (1.0 - s->damping) / s->n + s->damping * dangling / s->n;
    CLIRR_TRY(CLIRR_NL_SET(&s->pull, pr_pull_args, r, s->r));
    CLIRR_TRY(CLIRR_NL_SET(&s->pull, pr_pull_args, rnew, s->rnew));
    CLIRR_TRY(CLIRR_NL_SET(&s->pull, pr_pull_args, base, base));
    CLIRR_TRY(clirr_nl_run(&s->pull, s->n, err));
    CLIRR_TRY(clirr_prim_sum_f64(s->ctx, s->diff, s->n, l1, err));
    cl_mem swap = s->r;
    s->r = s->rnew;
    s->rnew = swap;
fail:
    return rc;
}

/* range and fused: iteration `iter` (from 1) from scores [(iter - 1) % 2]
 * into [iter % 2], enqueued only. */
static int launch_step(pr_session *s, uint32_t iter, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_mem r[2] = {s->r, s->rnew}, c[2] = {s->contrib, s->contrib_next};
    int in = (iter - 1) & 1, out = iter & 1;
    CLIRR_TRY(STEP_SET(s, contrib, c[in]));
    CLIRR_TRY(STEP_SET(s, r, r[in]));
    CLIRR_TRY(STEP_SET(s, rnew, r[out]));
    CLIRR_TRY(STEP_SET(s, contrib_next, c[out]));
    CLIRR_TRY(STEP_SET(s, sums, s->partial[in]));
    CLIRR_TRY(STEP_SET(s, partial, s->partial[out]));
    CLIRR_TRY(STEP_SET(s, iter, iter));
    size_t items = s->variant == VARIANT_FUSED ? (size_t)s->ngroups * s->wg_step : s->nranges;
    for (cl_uint pass = 0; pass + 1 < s->nblocks; pass++) { /* into the new scores, which fused adds to */
        CLIRR_TRY(KERNEL_SET(s->gather, pr_gather_block_args, contrib, c[in]));
        CLIRR_TRY(KERNEL_SET(s->gather, pr_gather_block_args, acc, r[out]));
        CLIRR_TRY(KERNEL_SET(s->gather, pr_gather_block_args, pass, pass));
        CLIRR_TRY(clirr_launch(s->ctx, s->gather, items, s->wg_gather, err));
    }
    CLIRR_TRY(clirr_launch(s->ctx, s->step, items, s->wg_step, err));
fail:
    return rc;
}

/* range and fused: the start, then iterations in batches of QUEUE_BATCH
 * with no read-back between them. After each batch but the last, a read
 * of the state into pinned memory is enqueued, and the read of the batch
 * before is waited for: once it shows the run stopped, no more batches.
 * The device stops exactly where the reference does (the launch after a
 * step <= tol does nothing and records that step's iteration; max-iter
 * ends the queue), so *iterations is the reference's count and the scores
 * are in [*iterations % 2]. */
static int run_queued(pr_session *s, uint32_t *iterations, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_event ev[2] = {NULL, NULL};
    cl_uint *seen = s->seen.host;
    size_t start_items = s->variant == VARIANT_FUSED ? (size_t)s->ngroups * s->wg_start : s->nranges;
    CLIRR_TRY(clirr_launch(s->ctx, s->start, start_items, s->wg_start, err));
    uint32_t done = 0, max = s->max_iter > UINT32_MAX ? UINT32_MAX : (uint32_t)s->max_iter;
    for (unsigned b = 0; done < max; b++) {
        for (uint32_t j = 0; j < QUEUE_BATCH && done < max; j++)
            CLIRR_TRY(launch_step(s, ++done, err));
        if (done == max)
            break;
        CLIRR_TRY(clirr_buf_read_async(s->ctx, s->state, 0, sizeof(cl_uint), &seen[b & 1], &ev[b & 1], err));
        if (b > 0) {
            CLIRR_TRY(clirr_event_wait(&ev[(b - 1) & 1], err));
            if (seen[(b - 1) & 1])
                break;
        }
    }
    for (int i = 0; i < 2; i++)
        CLIRR_TRY(clirr_event_wait(&ev[i], err));
    cl_uint stop = 0;
    CLIRR_TRY(clirr_buf_read(s->ctx, s->state, 0, sizeof stop, &stop, err));
    if (stop > done)
        CLIRR_TRY(clirr_fail(err, CLIRR_ERR_OPENCL, "pagerank: the device stopped at iteration %u of %u queued",
                             stop, done));
    *iterations = stop ? stop : done;
fail:
    for (int i = 0; i < 2; i++)
        if (ev[i])
            clirr_event_wait(&ev[i], err);
    return rc;
}

static int pr_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    pr_session *s = state;
    cl_mem scores = s->r;
    if (s->step) {
        uint32_t iterations = 0;
        CLIRR_TRY(run_queued(s, &iterations, err));
        stats->iterations = iterations;
        /* launch_step's [iterations % 2] holds the last iterate */
        scores = iterations & 1 ? s->rnew : s->r;
        if (s->scores) { /* doubles: the scores from the last contributions */
            cl_mem last = iterations & 1 ? s->contrib_next : s->contrib;
            CLIRR_TRY(KERNEL_SET(s->scores, pr_scores_args, contrib, last));
            CLIRR_TRY(clirr_launch(s->ctx, s->scores, s->n, s->wg_scores, err));
            scores = s->r;
        }
    } else {
        CLIRR_TRY(KERNEL_SET(s->init, pr_init_args, r, s->r));
        CLIRR_TRY(clirr_launch(s->ctx, s->init, s->n, s->wg_init, err));
        for (uint64_t it = 0; it < s->max_iter; it++) {
            double l1 = 0;
            CLIRR_TRY(iterate(s, &l1, err));
            stats->iterations++;
            /* <=: tol 0 stops at an exact fixed point too. */
            if (l1 <= s->tol)
                break;
        }
        scores = s->r; /* iterate() swaps r and rnew: the last iterate is r now */
    }
    CLIRR_TRY(clirr_buf_read(s->ctx, scores, 0, (size_t)s->n * sizeof(double), result, err));
    stats->reached = s->n;
    stats->edges_traversed = s->m * stats->iterations; /* every arc, every iteration */
    CLIRR_TRY(clirr_nl_child_launches(&s->pull, &stats->child_launches, err));
fail:
    return rc;
}

static int pr_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    const clirr_params *p = &plan->params;
    return clirr_ref_pagerank(clirr_input_graph(in), p->v[PARAM_DAMPING].r, p->v[PARAM_TOL].r,
                              (uint32_t)p->v[PARAM_MAX_ITER].u, out, NULL, err);
}

static bool pr_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                      const void *got, clirr_verify_report *r)
{
    (void)expected; /* the verifier walks the iterates itself */
    const clirr_params *p = &plan->params;
    return clirr_verify_pagerank_as(clirr_input_graph(in), p->v[PARAM_DAMPING].r, p->v[PARAM_TOL].r,
                                    (uint32_t)p->v[PARAM_MAX_ITER].u,
                                    p->v[PARAM_PRECISION].u == PRECISION_FLOAT, got, r);
}

static void pr_write(FILE *f, const void *result, uint64_t i)
{
    fprintf(f, "%.17g", ((const double *)result)[i]);
}

static const clirr_variant_desc pr_variants[] = {
    {"pull", "pull over in-arcs (the transpose), Jacobi iteration, one vertex a nested-loop item through the "
             "plan's template", false, false},
    {"range", "the same iteration in one launch: a work-item pulls a contiguous range of vertices (about equal "
              "arcs) and makes the next contributions and the range's sums itself (CPUs)", false, false},
    {"fused", "the same iteration in one launch over a grid of a few work-groups a compute unit: one vertex a "
              "work-item, vertices of many in-arcs a work-group each; iterations queued ahead, the stopping "
              "test on the device (GPUs); --blocks gathers in a pass a block of sources", false, false},
    {"auto", "range on CPU devices, else fused", false, false},
};

/* auto: range on CPUs, where a core streaming its own vertex range beats
 * one vertex a work-item plus a prepare and two reductions a iteration
 * (PoCL on the H100 machine's 16-core Xeon, 20 iterations: GAPBS's kron
 * scale 22 385 against pull's 446 ms, its uniform graph 590 against 656,
 * luxembourg_osm 7.8 against 35.8; tests/bench/RESULTS.md, "PoCL against
 * GAPBS, CPU paths"); fused elsewhere: a GPU wants neighbouring work-items
 * on neighbouring vertices, and one queued launch an iteration instead of
 * pull's six to eight and a read-back (the H100, 20 iterations, ms without
 * the scores' read-back, fused against pull: luxembourg_osm 0.56 / 3.18,
 * grid 2048^2 2.93 / 4.82, uniform 18.6 / 21.9, GAPBS's kron 8.9 / 11.2;
 * RESULTS.md, "PageRank: one launch an iteration, queued"). */
static unsigned pr_choose(const clirr_input *in, const clirr_caps *caps, const char **reason)
{
    (void)in;
    *reason = caps->is_cpu ? "auto: range, a CPU device (a core streams a contiguous vertex range; measured on PoCL)"
                           : "auto: fused, not a CPU device (one queued launch an iteration; measured on the H100)";
    return caps->is_cpu ? VARIANT_RANGE : VARIANT_FUSED;
}

static const char *const precisions[] = {"double", "float", NULL};

static const clirr_param_desc pr_params[] = {
    [PARAM_DAMPING] = {"damping", CLIRR_PARAM_REAL, "0.85", 0, 1, "PageRank damping factor"},
    [PARAM_TOL] = {"tol", CLIRR_PARAM_REAL, "1e-9", 0, 1,
                   "stop when the L1 change is at most X"},
    [PARAM_MAX_ITER] = {"max-iter", CLIRR_PARAM_UINT, "1000", 1, 1e9,
                        "at most X iterations"},
    [PARAM_BLOCKS] = {"blocks", CLIRR_PARAM_UINT, "1", 1, 64,
                      "fused and range: gather the in-arcs in X passes an iteration, one a block of sources, so "
                      "that a pass's random reads stay in the device's cache (for devices whose cache holds "
                      "less than 8 bytes a vertex)",
                      NULL, (1u << VARIANT_RANGE) | (1u << VARIANT_FUSED)},
    [PARAM_PRECISION] = {"precision", CLIRR_PARAM_CHOICE, "double", 0, 0,
                         "the contributions (score / out-degree) the gathers read: double, or float (half the "
                         "bytes, as GAPBS and Pannotia; scores and sums stay double, verified to float's "
                         "rounding, and a tol below about 1e-7 may not be reached)",
                         precisions},
};

static void pr_extras(void *state, const void *result, clirr_extras *x)
{
    (void)result;
    const pr_session *s = state;
    if (s->step)
        clirr_extras_add(x, "blocks", CLIRR_EXTRA_UINT)->u = s->nblocks;
}

const clirr_algo clirr_algo_pagerank = {
    .name = "pagerank",
    .summary = "PageRank score of every vertex (pull over in-arcs, dangling mass spread evenly)",
    .study = "shared/papers/001 (nested-loop templates)",
    .input = CLIRR_INPUT_GRAPH,
    .variants = pr_variants,
    .nvariants = sizeof pr_variants / sizeof pr_variants[0],
    .default_variant = VARIANT_AUTO,
    .choose_variant = pr_choose,
    .params = pr_params,
    .nparams = sizeof pr_params / sizeof pr_params[0],
    .sources = CLIRR_SOURCES_NONE,
    .needs_fp64 = true,
    .cpu_degree_layout = true, /* CPUs, graphs with hubs: host/templates/plan.c */
    .value_size = sizeof(double),
    .prepare = pr_prepare,
    .run = pr_run,
    .release = pr_release,
    .reference = pr_reference,
    .verify = pr_verify,
    .write_value = pr_write,
    .extras = pr_extras,
};
