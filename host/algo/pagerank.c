/* host/algo/pagerank.c - PageRank on the device by Jacobi iteration in pull
 * form over the transpose graph (kernels: cl/pagerank.cl; nested-loop
 * study, shared/papers/001), one vertex's in-arcs a nested-loop item
 * through the plan's template. The same recurrence, start and stopping rule
 * as the reference (host/ref/pagerank.c): r = 1/n; each iteration
 * r' = (1-d)/n + d (sum over in-arcs u of r(u)/outdeg(u) + dangling/n);
 * stop when |r' - r|_1 <= tol or after max-iter iterations. Scores are
 * doubles on the device and in the result; out-degrees come from the
 * graph as given, in-arcs from its transpose (both shared by the input). */
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

/* Set argument `name` of plain kernel k, whose parameter list is `tag`. */
#define KERNEL_SET(k, tag, name, var) clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err)

enum { PARAM_DAMPING, PARAM_TOL, PARAM_MAX_ITER };
enum { VARIANT_PULL, VARIANT_RANGE, VARIANT_AUTO };

/* range: ranges a compute unit (enough for the cores to balance the
 * ranges' uneven gathers) and work-items a work-group: one, so that no
 * CPU compiler runs ranges of unequal rows in lockstep (PoCL, uniform
 * graph scale 21, 20 iterations: 500-576 ms at 1, 521-787 at 4, 702-869
 * at 16, pull 600-661). */
#define RANGES_PER_UNIT 32
#define RANGE_WG 1

typedef struct pr_session {
    clirr_ctx *ctx;
    uint32_t n;
    uint64_t m;
    double damping, tol;
    uint64_t max_iter;
    const clirr_dgraph *dg; /* the graph as is (out-degrees), the input's */
    const clirr_dgraph *dt; /* its transpose (in-arcs), the input's */
    cl_kernel init, prep;   /* context-owned */
    size_t wg_init, wg_prep;
    clirr_nl pull;
    cl_mem r, rnew;         /* scores; swapped every iteration */
    cl_mem contrib, dangling, diff;
    /* range: the whole iteration in pr_range over nranges vertex ranges */
    cl_kernel range;        /* context-owned; NULL: the pull variant */
    uint32_t nranges;
    cl_mem bounds, partial, contrib_next;
    double *partial_host;   /* 2 sums a range, read back every iteration */
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
    clirr_mem_release(&s->partial);
    clirr_mem_release(&s->contrib_next);
    free(s->partial_host);
    free(s);
}

/* The program, its kernels (each checked against its list in
 * cl/pagerank.def) and the pull loop over the plan's template. */
static int build(pr_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(s->ctx, "pagerank.cl", "", &prog, err));
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
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank contributions", bytes, &s->contrib, err));
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

/* Cut the transpose's vertices into ranges of about equal in-arcs plus
 * vertices (a hub's range holds few vertices), bounds[0..nranges]. */
static void range_bounds(const clirr_graph *gt, uint32_t nranges, uint32_t *bounds)
{
    uint64_t total = (uint64_t)gt->n + gt->m;
    uint32_t v = 0;
    bounds[0] = 0;
    for (uint32_t w = 1; w < nranges; w++) {
        uint64_t goal = total * w / nranges;
        while (v < gt->n && (uint64_t)v + gt->row[v] < goal)
            v++;
        bounds[w] = v;
    }
    bounds[nranges] = gt->n;
}

/* range: the kernel, the bounds (from the host's transpose, the input's)
 * and the buffers only it needs. */
static int prepare_range(pr_session *s, const clirr_input *in, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    const clirr_graph *gt = NULL;
    uint32_t *bounds = NULL;
    uint64_t want = (uint64_t)clirr_ctx_caps(s->ctx)->compute_units * RANGES_PER_UNIT;
    s->nranges = (uint32_t)(want < 1 ? 1 : want > s->n ? s->n : want);
    CLIRR_TRY(clirr_input_graph_form(in, CLIRR_FORM_TRANSPOSED, &gt, err));
    CLIRR_TRY(clirr_program_get(s->ctx, "pagerank.cl", "", &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "pr_range", CLIRR_KNARGS(pr_range_args), &s->range, err));
    bounds = malloc(((size_t)s->nranges + 1) * sizeof *bounds);
    s->partial_host = malloc((size_t)s->nranges * 2 * sizeof(double));
    if (!bounds || !s->partial_host)
        CLIRR_TRY(clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory"));
    range_bounds(gt, s->nranges, bounds);
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank ranges", ((size_t)s->nranges + 1) * sizeof *bounds, &s->bounds,
                               err));
    CLIRR_TRY(clirr_buf_write(s->ctx, s->bounds, 0, ((size_t)s->nranges + 1) * sizeof *bounds, bounds, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank range sums", (size_t)s->nranges * 2 * sizeof(double),
                               &s->partial, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "PageRank next contributions", (size_t)s->n * sizeof(double),
                               &s->contrib_next, err));
    cl_kernel k = s->range;
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, trow, s->dt->row));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, tcol, s->dt->col));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, row, s->dg->row));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, bounds, s->bounds));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, partial, s->partial));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, damping, s->damping));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, nranges, s->nranges));
fail:
    free(bounds);
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
    CLIRR_TRY(build(s, plan, err));
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_AS_IS, false, &s->dg, err));
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_TRANSPOSED, false, &s->dt, err));
    CLIRR_TRY(allocate(s, err));
    CLIRR_TRY(bind(s, err));
    if (plan->variant == VARIANT_RANGE)
        CLIRR_TRY(prepare_range(s, in, err));
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

/* range: one Jacobi step in one launch. *dangling holds the dangling mass
 * of s->r on entry and gets that of the new scores; contributions swap as
 * the scores do. */
static int iterate_range(pr_session *s, double *dangling, double *l1, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->range;
    double base = (1.0 - s->damping) / s->n + s->damping * *dangling / s->n;
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, contrib, s->contrib));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, r, s->r));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, rnew, s->rnew));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, contrib_next, s->contrib_next));
    CLIRR_TRY(KERNEL_SET(k, pr_range_args, base, base));
    size_t wg = clirr_wg_size(s->ctx, k, RANGE_WG);
    CLIRR_TRY(clirr_launch(s->ctx, k, s->nranges, wg, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->partial, 0, (size_t)s->nranges * 2 * sizeof(double), s->partial_host,
                             err));
    *l1 = *dangling = 0;
    for (uint32_t w = 0; w < s->nranges; w++) {
        *l1 += s->partial_host[2 * w];
        *dangling += s->partial_host[2 * w + 1];
    }
    cl_mem swap = s->r;
    s->r = s->rnew;
    s->rnew = swap;
    swap = s->contrib;
    s->contrib = s->contrib_next;
    s->contrib_next = swap;
fail:
    return rc;
}

static int pr_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    pr_session *s = state;
    CLIRR_TRY(KERNEL_SET(s->init, pr_init_args, r, s->r));
    CLIRR_TRY(clirr_launch(s->ctx, s->init, s->n, s->wg_init, err));
    double dangling = 0;
    if (s->range) { /* the first contributions; each iteration makes the next
                       (into whichever buffer the swaps left as s->contrib) */
        CLIRR_TRY(KERNEL_SET(s->prep, pr_prepare_args, r, s->r));
        CLIRR_TRY(KERNEL_SET(s->prep, pr_prepare_args, contrib, s->contrib));
        CLIRR_TRY(clirr_launch(s->ctx, s->prep, s->n, s->wg_prep, err));
        CLIRR_TRY(clirr_prim_sum_f64(s->ctx, s->dangling, s->n, &dangling, err));
    }
    for (uint64_t it = 0; it < s->max_iter; it++) {
        double l1 = 0;
        if (s->range)
            CLIRR_TRY(iterate_range(s, &dangling, &l1, err));
        else
            CLIRR_TRY(iterate(s, &l1, err));
        stats->iterations++;
        /* <=: tol 0 stops at an exact fixed point too. */
        if (l1 <= s->tol)
            break;
    }
    CLIRR_TRY(clirr_buf_read(s->ctx, s->r, 0, (size_t)s->n * sizeof(double), result, err));
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
    return clirr_verify_pagerank(clirr_input_graph(in), p->v[PARAM_DAMPING].r, p->v[PARAM_TOL].r,
                                 (uint32_t)p->v[PARAM_MAX_ITER].u, got, r);
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
    {"auto", "range on CPU devices, else pull", false, false},
};

/* auto: range on CPUs, where a core streaming its own vertex range beats
 * one vertex a work-item plus a prepare and two reductions a iteration
 * (PoCL on the H100 machine's 16-core Xeon, 20 iterations: GAPBS's kron
 * scale 22 385 against pull's 446 ms, its uniform graph 590 against 656,
 * luxembourg_osm 7.8 against 35.8; tests/bench/RESULTS.md, "PoCL against
 * GAPBS, CPU paths"); a GPU wants neighbouring work-items on neighbouring
 * vertices. */
static unsigned pr_choose(const clirr_input *in, const clirr_caps *caps, const char **reason)
{
    (void)in;
    *reason = caps->is_cpu ? "auto: range, a CPU device (a core streams a contiguous vertex range; measured on PoCL)"
                           : "auto: pull, not a CPU device (neighbouring work-items read neighbouring rows)";
    return caps->is_cpu ? VARIANT_RANGE : VARIANT_PULL;
}

static const clirr_param_desc pr_params[] = {
    [PARAM_DAMPING] = {"damping", CLIRR_PARAM_REAL, "0.85", 0, 1, "PageRank damping factor"},
    [PARAM_TOL] = {"tol", CLIRR_PARAM_REAL, "1e-9", 0, 1,
                   "stop when the L1 change is at most X"},
    [PARAM_MAX_ITER] = {"max-iter", CLIRR_PARAM_UINT, "1000", 1, 1e9,
                        "at most X iterations"},
};

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
    .value_size = sizeof(double),
    .prepare = pr_prepare,
    .run = pr_run,
    .release = pr_release,
    .reference = pr_reference,
    .verify = pr_verify,
    .write_value = pr_write,
};
