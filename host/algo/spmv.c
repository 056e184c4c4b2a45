/* host/algo/spmv.c - y = A x on the device over the graph's CSR matrix
 * (kernels: cl/spmv.cl; nested-loop study, shared/papers/001): one row a
 * nested-loop item through the plan's template. Entries a_ij are the
 * graph's real values, else its weights, else 1 (then the kernel is built
 * with -DSPMV_UNIT and reads none); x is read from --vector (one number a
 * line, or a Matrix Market array), else all ones. Doubles on the device
 * and in the result. */
#include "algo/input.h"
#include "algo/run.h"
#include "cl/spmv.def"
#include "ref/ref.h"

#include <stdlib.h>

CLIRR_KARGS_STRUCT(spmv_rows_args, SPMV_ROWS_ARGS);

enum { PARAM_VECTOR };

typedef struct spmv_session {
    clirr_ctx *ctx;
    uint32_t n;
    uint64_t m;
    const clirr_dgraph *dg; /* the input's, shared */
    clirr_nl rows;
    cl_mem val;             /* the entries; a placeholder when all are 1 */
    cl_mem x, y;
} spmv_session;

static void spmv_release(void *state)
{
    spmv_session *s = state;
    clirr_nl_release(&s->rows);
    clirr_mem_release(&s->val);
    clirr_mem_release(&s->x);
    clirr_mem_release(&s->y);
    free(s);
}

/* x as the plan asks: the --vector file's n values, else all ones. The
 * caller frees *x. */
static int load_x(const clirr_plan *plan, uint32_t n, double **x, clirr_error *err)
{
    const char *path = plan->params.v[PARAM_VECTOR].path;
    if (path)
        return clirr_vector_read(path, n, x, err);
    if (!(*x = malloc(((size_t)n + 1) * sizeof **x)))
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for x");
    for (uint32_t i = 0; i < n; i++)
        (*x)[i] = 1.0;
    return CLIRR_OK;
}

/* The matrix entries as doubles: the values, else the weights converted
 * (into *owned, which the caller frees), else NULL: every entry is 1. */
static int matrix_entries(const clirr_graph *g, const double **entries, double **owned,
                          clirr_error *err)
{
    *owned = NULL;
    *entries = g->value;
    if (g->value || !g->weight)
        return CLIRR_OK;
    if (!(*owned = malloc(((size_t)g->m + 1) * sizeof **owned)))
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for SpMV entries");
    for (uint32_t e = 0; e < g->m; e++)
        (*owned)[e] = g->weight[e];
    *entries = *owned;
    return CLIRR_OK;
}

/* The entries and x on the device, y allocated. */
static int upload(spmv_session *s, const double *entries, const double *x, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t vbytes = (size_t)s->n * sizeof(double), ebytes = entries ? s->m * sizeof(double) : 0;
    CLIRR_TRY(clirr_buf_create(s->ctx, "the matrix entries", ebytes, &s->val, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "x", vbytes, &s->x, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "y", vbytes, &s->y, err));
    if (entries)
        CLIRR_TRY(clirr_buf_write(s->ctx, s->val, 0, ebytes, entries, err));
    CLIRR_TRY(clirr_buf_write(s->ctx, s->x, 0, vbytes, x, err));
fail:
    return rc;
}

static int bind(spmv_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *nl = &s->rows;
    CLIRR_TRY(CLIRR_NL_SET(nl, spmv_rows_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_NL_SET(nl, spmv_rows_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_NL_SET(nl, spmv_rows_args, val, s->val));
    CLIRR_TRY(CLIRR_NL_SET(nl, spmv_rows_args, x, s->x));
    CLIRR_TRY(CLIRR_NL_SET(nl, spmv_rows_args, y, s->y));
    CLIRR_TRY(CLIRR_NL_SET(nl, spmv_rows_args, n, s->n));
fail:
    return rc;
}

static int spmv_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                        clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_graph *g = clirr_input_graph(in);
    double *x = NULL, *owned = NULL;
    const double *entries = NULL;
    spmv_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->n = g->n;
    s->m = g->m;
    CLIRR_TRY(load_x(plan, g->n, &x, err));
    CLIRR_TRY(matrix_entries(g, &entries, &owned, err));
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(ctx, "spmv.cl", entries ? "" : "-DSPMV_UNIT", &prog, err));
    clirr_nl_config cfg = clirr_plan_loop(plan, sizeof(double));
    CLIRR_TRY(clirr_nl_init(&s->rows, ctx, prog, "spmv_rows", CLIRR_KNARGS(spmv_rows_args), g->n, &cfg, err));
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_AS_IS, false, &s->dg, err));
    CLIRR_TRY(upload(s, entries, x, err));
    CLIRR_TRY(bind(s, err));
    free(x);
    free(owned);
    *out = s;
    return CLIRR_OK;
fail:
    free(x);
    free(owned);
    spmv_release(s);
    return rc;
}

static int spmv_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    spmv_session *s = state;
    CLIRR_TRY(clirr_nl_run(&s->rows, s->n, err));
    stats->iterations = 1;
    CLIRR_TRY(clirr_buf_read(s->ctx, s->y, 0, (size_t)s->n * sizeof(double), result, err));
    stats->reached = s->n;
    stats->edges_traversed = s->m;
    CLIRR_TRY(clirr_nl_child_launches(&s->rows, &stats->child_launches, err));
fail:
    return rc;
}

static int spmv_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    const clirr_graph *g = clirr_input_graph(in);
    double *x = NULL;
    int rc = load_x(plan, g->n, &x, err);
    if (rc == CLIRR_OK)
        rc = clirr_ref_spmv(g, x, out, err);
    free(x);
    return rc;
}

/* Sums run in another order on the device: equal to the reference within
 * a relative 1e-12 (plus 1e-12 for entries near zero). */
static bool spmv_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                        const void *got, clirr_verify_report *r)
{
    (void)plan;
    return clirr_verify_real("y", clirr_input_graph(in)->n, expected, got, 1e-12, 1e-12, r);
}

static void spmv_write(FILE *f, const void *result, uint64_t i)
{
    fprintf(f, "%.17g", ((const double *)result)[i]);
}

static const clirr_variant_desc spmv_variants[] = {
    {NULL, "one row a nested-loop item, its entries summed", false, false},
};

static const clirr_param_desc spmv_params[] = {
    [PARAM_VECTOR] = {"vector", CLIRR_PARAM_PATH, "", 0, 0,
                      "the vector x, one number per line (all ones without one)"},
};

const clirr_algo clirr_algo_spmv = {
    .name = "spmv",
    .summary = "sparse matrix-vector product y = A x (entries: values, else weights, else 1)",
    .study = "shared/papers/001 (nested-loop templates)",
    .input = CLIRR_INPUT_GRAPH,
    .variants = spmv_variants,
    .nvariants = 1,
    .default_variant = 0,
    .params = spmv_params,
    .nparams = sizeof spmv_params / sizeof spmv_params[0],
    .sources = CLIRR_SOURCES_NONE,
    .needs_fp64 = true,
    .value_size = sizeof(double),
    .prepare = spmv_prepare,
    .run = spmv_run,
    .release = spmv_release,
    .reference = spmv_reference,
    .verify = spmv_verify,
    .write_value = spmv_write,
};
