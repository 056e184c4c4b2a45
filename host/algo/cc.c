/* host/algo/cc.c - connected components on the device (kernels:
 * cl/cc.cl): label propagation topology-driven or data-driven (the study
 * of shared/papers/000), or Afforest's hooking and pointer jumping; `auto`
 * picks one from the input's shape by the measurements of
 * tests/bench/RESULTS.md. The graph is read as undirected: the input's
 * simple undirected form, derived and uploaded once. The result is, for
 * every vertex, the smallest vertex id of its component. */
#include "algo/input.h"
#include "algo/round.h"
#include "algo/run.h"
#include "cl/cc.def"
#include "prim/prim.h"
#include "ref/cc.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define KERNEL_SET(k, tag, name, var) clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err)

CLIRR_KARGS_STRUCT(cc_lp_topo_args, CC_LP_TOPO_ARGS);
CLIRR_KARGS_STRUCT(cc_lp_data_args, CC_LP_DATA_ARGS);
CLIRR_KARGS_STRUCT(cc_link_neighbor_args, CC_LINK_NEIGHBOR_ARGS);
CLIRR_KARGS_STRUCT(cc_compress_args, CC_COMPRESS_ARGS);
CLIRR_KARGS_STRUCT(cc_sample_args, CC_SAMPLE_ARGS);
CLIRR_KARGS_STRUCT(cc_link_rest_args, CC_LINK_REST_ARGS);

enum { VARIANT_TOPO, VARIANT_DATA, VARIANT_AFFOREST, VARIANT_AUTO };
enum { PARAM_NEIGHBOR_ROUNDS };

#define SAMPLE 1024 /* Afforest's sample for the largest component (GAPBS's) */

static const char *const variant_names[] = {"topo", "data", "afforest"};

typedef struct cc_session {
    clirr_ctx *ctx;
    unsigned variant;           /* a concrete one: auto resolved at prepare */
    bool picked;                /* chosen by auto */
    uint32_t n, m;
    cl_uint rounds;             /* Afforest's neighbour rounds */
    const clirr_dgraph *dg;     /* the undirected form (the input's) */
    cl_mem label, changed, sample;
    clirr_nl lp, rest;          /* topo LP; Afforest's remaining arcs */
    clirr_round_loop rl;        /* data LP */
    clirr_worklist wl;
    cl_kernel link, compress, sampler;
    size_t wg_link, wg_compress, wg_sample;
    uint32_t skip_root;         /* the last trial's largest component */
} cc_session;

static void cc_release(void *state)
{
    cc_session *s = state;
    clirr_nl_release(&s->lp);
    clirr_nl_release(&s->rest);
    clirr_round_loop_release(&s->rl);
    clirr_worklist_release(&s->wl);
    clirr_mem_release(&s->label);
    clirr_mem_release(&s->changed);
    clirr_mem_release(&s->sample);
    free(s);
}

/* ---- auto ---------------------------------------------------------------- */

/* auto's choice. Measured on rmat 12 and 22, luxembourg_osm and grids of
 * 1024^2 and 2048^2 (tests/bench/RESULTS.md, "Connected components and
 * minimum spanning forests"): Afforest was the fastest variant on every
 * input on the H100, by 2.4x (rmat 12) to 550x (the 2048^2 grid) in kernel
 * time over the best label propagation, whose rounds grow with the
 * diameter (1000-4000 on the road and grid inputs); on PoCL on every input
 * but rmat 12 (4K vertices), where topology-driven label propagation was
 * ahead by 0.1 ms. No input shape measured favours another variant, so
 * auto runs Afforest everywhere. */
static unsigned auto_variant(void) { return VARIANT_AFFOREST; }

/* ---- prepare ------------------------------------------------------------- */

static int build(cc_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(s->ctx, "cc.cl", "", &prog, err));
    clirr_nl_config flag = clirr_plan_loop(plan, sizeof(cl_uint));
    clirr_nl_config plain = clirr_plan_loop(plan, 0);
    if (s->variant == VARIANT_TOPO)
        return clirr_nl_init(&s->lp, s->ctx, prog, "cc_lp_topo", CLIRR_KNARGS(cc_lp_topo_args), s->n, &flag,
                             err);
    if (s->variant == VARIANT_DATA) {
        const clirr_loop_spec data = {"cc.cl", "", "cc_lp_data", CLIRR_KNARGS(cc_lp_data_args),
                                      CLIRR_KARG(cc_lp_data_args, wl_in), "cc_lp_local", plan->local_rounds,
                                      plan->queue_rounds, 0, false, plan->fixed_grid};
        CLIRR_TRY(clirr_round_loop_init(&s->rl, s->ctx, &data, s->n, plan->push, &plain, err));
        return clirr_worklist_init(&s->wl, s->ctx, s->n, plan->wl_capacity, CLIRR_PUSH_COMPACT, err);
    }
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "cc_link_neighbor", CLIRR_KNARGS(cc_link_neighbor_args),
                                       &s->link, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "cc_compress", CLIRR_KNARGS(cc_compress_args),
                                       &s->compress, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "cc_sample", CLIRR_KNARGS(cc_sample_args), &s->sampler,
                                       err));
    s->wg_link = clirr_wg_size(s->ctx, s->link, plan->wg_size);
    s->wg_compress = clirr_wg_size(s->ctx, s->compress, plan->wg_size);
    s->wg_sample = clirr_wg_size(s->ctx, s->sampler, plan->wg_size);
    CLIRR_TRY(clirr_nl_init(&s->rest, s->ctx, prog, "cc_link_rest", CLIRR_KNARGS(cc_link_rest_args), s->n,
                            &plain, err));
fail:
    return rc;
}

static int bind(cc_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (s->variant == VARIANT_TOPO) {
        clirr_nl *nl = &s->lp;
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_lp_topo_args, row, s->dg->row));
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_lp_topo_args, col, s->dg->col));
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_lp_topo_args, label, s->label));
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_lp_topo_args, changed, s->changed));
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_lp_topo_args, n, s->n));
    } else if (s->variant == VARIANT_DATA) {
        clirr_round_loop *rl = &s->rl;
        CLIRR_TRY(CLIRR_ROUND_SET(rl, cc_lp_data_args, row, s->dg->row));
        CLIRR_TRY(CLIRR_ROUND_SET(rl, cc_lp_data_args, col, s->dg->col));
        CLIRR_TRY(CLIRR_ROUND_SET(rl, cc_lp_data_args, label, s->label));
    } else {
        CLIRR_TRY(KERNEL_SET(s->link, cc_link_neighbor_args, row, s->dg->row));
        CLIRR_TRY(KERNEL_SET(s->link, cc_link_neighbor_args, col, s->dg->col));
        CLIRR_TRY(KERNEL_SET(s->link, cc_link_neighbor_args, parent, s->label));
        CLIRR_TRY(KERNEL_SET(s->link, cc_link_neighbor_args, n, s->n));
        CLIRR_TRY(KERNEL_SET(s->compress, cc_compress_args, parent, s->label));
        CLIRR_TRY(KERNEL_SET(s->compress, cc_compress_args, n, s->n));
        cl_uint nsample = s->n < SAMPLE ? s->n : SAMPLE;
        CLIRR_TRY(KERNEL_SET(s->sampler, cc_sample_args, parent, s->label));
        CLIRR_TRY(KERNEL_SET(s->sampler, cc_sample_args, out, s->sample));
        CLIRR_TRY(KERNEL_SET(s->sampler, cc_sample_args, nsample, nsample));
        CLIRR_TRY(KERNEL_SET(s->sampler, cc_sample_args, n, s->n));
        clirr_nl *nl = &s->rest;
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_link_rest_args, row, s->dg->row));
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_link_rest_args, col, s->dg->col));
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_link_rest_args, parent, s->label));
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_link_rest_args, rounds, s->rounds));
        CLIRR_TRY(CLIRR_NL_SET(nl, cc_link_rest_args, n, s->n));
    }
fail:
    return rc;
}

static int cc_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                      clirr_error *err)
{
    int rc = CLIRR_OK;
    cc_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->rounds = (cl_uint)plan->params.v[PARAM_NEIGHBOR_ROUNDS].u;
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_UNDIRECTED, false, &s->dg, err));
    s->n = s->dg->n;
    s->m = s->dg->m;
    s->variant = plan->variant;
    if (s->variant == VARIANT_AUTO) {
        s->variant = auto_variant();
        s->picked = true;
    }
    CLIRR_TRY(clirr_buf_create(ctx, "component labels", (size_t)s->n * sizeof(uint32_t), &s->label, err));
    CLIRR_TRY(clirr_buf_create(ctx, "the changed flag", sizeof(cl_uint), &s->changed, err));
    CLIRR_TRY(clirr_buf_create(ctx, "Afforest's sample", SAMPLE * sizeof(cl_uint), &s->sample, err));
    CLIRR_TRY(build(s, plan, err));
    CLIRR_TRY(bind(s, err));
    *out = s;
    return CLIRR_OK;
fail:
    cc_release(s);
    return rc;
}

/* ---- run ----------------------------------------------------------------- */

static int run_topo(cc_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (;;) {
        uint32_t changed = 0;
        CLIRR_TRY(clirr_buf_write(s->ctx, s->changed, 0, sizeof changed, &changed, err));
        CLIRR_TRY(clirr_nl_run(&s->lp, s->n, err));
        CLIRR_TRY(clirr_buf_read(s->ctx, s->changed, 0, sizeof changed, &changed, err));
        stats->iterations++;
        if (!changed)
            break;
    }
fail:
    return rc;
}

static int run_data(cc_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(clirr_worklist_reset(&s->wl, NULL, s->n, err));
    while (clirr_worklist_size(&s->wl) > 0) {
        uint32_t rounds = 0;
        CLIRR_TRY(clirr_round_loop_run_many(&s->rl, &s->wl, &rounds, err));
        stats->iterations += rounds;
    }
    clirr_run_worklist_stats(&s->wl, stats);
    clirr_round_loop_local_stats(&s->rl, stats);
fail:
    return rc;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The most frequent root in the sample (ties: the smaller root), by
 * sorting it: a quadratic count cost a millisecond per trial. */
static uint32_t most_frequent(uint32_t *v, uint32_t k)
{
    qsort(v, k, sizeof *v, cmp_u32);
    uint32_t best = NONE, best_count = 0;
    for (uint32_t i = 0; i < k;) {
        uint32_t j = i;
        while (j < k && v[j] == v[i])
            j++;
        if (j - i > best_count) {
            best = v[i];
            best_count = j - i;
        }
        i = j;
    }
    return best;
}

/* Afforest: neighbour rounds, each linked then compressed; the largest
 * intermediate component from a sample; the other vertices' remaining
 * arcs; a last compression. */
static int run_afforest(cc_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (cl_uint r = 0; r < s->rounds; r++) {
        CLIRR_TRY(KERNEL_SET(s->link, cc_link_neighbor_args, r, r));
        CLIRR_TRY(clirr_launch(s->ctx, s->link, s->n, s->wg_link, err));
        CLIRR_TRY(clirr_launch(s->ctx, s->compress, s->n, s->wg_compress, err));
        stats->iterations++;
    }
    uint32_t sample[SAMPLE], k = s->n < SAMPLE ? s->n : SAMPLE;
    s->skip_root = NONE;
    if (s->rounds > 0 && k > 0) {
        CLIRR_TRY(clirr_launch(s->ctx, s->sampler, k, s->wg_sample, err));
        CLIRR_TRY(clirr_buf_read(s->ctx, s->sample, 0, k * sizeof(uint32_t), sample, err));
        s->skip_root = most_frequent(sample, k);
    }
    CLIRR_TRY(CLIRR_NL_SET(&s->rest, cc_link_rest_args, skip_root, s->skip_root));
    CLIRR_TRY(clirr_nl_run(&s->rest, s->n, err));
    CLIRR_TRY(clirr_launch(s->ctx, s->compress, s->n, s->wg_compress, err));
    stats->iterations++;
fail:
    return rc;
}

static int cc_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    cc_session *s = state;
    CLIRR_TRY(clirr_prim_iota_u32(s->ctx, s->label, s->n, 0, err));
    if (s->variant == VARIANT_TOPO)
        CLIRR_TRY(run_topo(s, stats, err));
    else if (s->variant == VARIANT_DATA)
        CLIRR_TRY(run_data(s, stats, err));
    else
        CLIRR_TRY(run_afforest(s, stats, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->label, 0, (size_t)s->n * sizeof(uint32_t), result, err));
    stats->reached = s->n;
    stats->edges_traversed = s->m;
    uint64_t a = 0, b = 0, c = 0;
    CLIRR_TRY(clirr_nl_child_launches(&s->lp, &a, err));
    CLIRR_TRY(clirr_nl_child_launches(&s->rest, &b, err));
    CLIRR_TRY(clirr_round_loop_child_launches(&s->rl, &c, err));
    stats->child_launches = a + b + c;
fail:
    return rc;
}

/* ---- results --------------------------------------------------------------- */

static void cc_extras(void *state, const void *result, clirr_extras *x)
{
    cc_session *s = state;
    const uint32_t *label = result;
    uint64_t components = 0;
    for (uint32_t v = 0; v < s->n; v++)
        components += label[v] == v;
    clirr_extra *e = clirr_extras_add(x, "components", CLIRR_EXTRA_UINT);
    e->u = components;
    e->in_table = true;
    e = clirr_extras_add(x, "variant_run", CLIRR_EXTRA_TEXT);
    e->text = variant_names[s->variant];
    e->in_table = s->picked;
}

static int cc_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    (void)plan;
    return clirr_ref_cc(clirr_input_graph(in), out, err);
}

static bool cc_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                      const void *got, clirr_verify_report *r)
{
    (void)plan;
    return clirr_verify_cc(clirr_input_graph(in), expected, got, r);
}

static void cc_write(FILE *f, const void *result, uint64_t i)
{
    fprintf(f, "%u", ((const uint32_t *)result)[i]);
}

static const clirr_param_desc cc_params[] = {
    [PARAM_NEIGHBOR_ROUNDS] = {"neighbor-rounds", CLIRR_PARAM_UINT, "2", 0, 64,
                               "afforest: neighbours linked per vertex before the largest component is "
                               "sampled (0: link every arc at once)"},
};

static const clirr_variant_desc cc_variants[] = {
    [VARIANT_TOPO] = {"topo", "label propagation: every vertex takes its neighbours' smallest label, "
                              "each round", false},
    [VARIANT_DATA] = {"data", "label propagation over a worklist of vertices whose label dropped", true},
    [VARIANT_AFFOREST] = {"afforest", "Afforest: hooking of neighbour samples and pointer jumping, the "
                                      "largest component skipped", false},
    [VARIANT_AUTO] = {"auto", "one of the above, picked from the input's shape by measurement", false},
};

const clirr_algo clirr_algo_cc = {
    .name = "cc",
    .summary = "connected components of the graph read as undirected: the smallest vertex id of each "
               "vertex's component",
    .study = "shared/papers/000 (data-driven vs topology-driven); Afforest (Sutton et al., IPDPS 2018)",
    .input = CLIRR_INPUT_GRAPH,
    .values_are_ids = true,
    .variants = cc_variants,
    .nvariants = 4,
    .default_variant = VARIANT_AUTO,
    .params = cc_params,
    .nparams = sizeof cc_params / sizeof cc_params[0],
    .sources = CLIRR_SOURCES_NONE,
    .value_size = sizeof(uint32_t),
    .prepare = cc_prepare,
    .run = cc_run,
    .release = cc_release,
    .reference = cc_reference,
    .verify = cc_verify,
    .write_value = cc_write,
    .extras = cc_extras,
};
