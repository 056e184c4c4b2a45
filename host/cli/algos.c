/* host/cli/algos.c - the table of algorithms behind `run` and `bench`:
 * adapters from each algorithm's own device call, reference and verifier
 * to one shape. */
#include "algos.h"

#include <stdlib.h>
#include <string.h>

/* Real-valued results (BC, SpMV) agree with the reference to this relative
 * precision: sums run in another order on the device. */
#define REAL_REL_TOL 1e-9
#define REAL_ABS_TOL 1e-9

static void write_real(FILE *f, const void *res, uint32_t v)
{
    fprintf(f, "%.17g", ((const double *)res)[v]);
}

/* ---- bfs ---- */
static int bfs_run(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *o, void *out,
                   clirr_algo_stats *s, clirr_error *err)
{
    return clirr_bfs(ctx, g, o, out, s, err);
}
static int bfs_ref(const clirr_graph *g, const clirr_algo_opts *o, void *out, clirr_error *err)
{
    return clirr_ref_bfs(g, o->source, out, err);
}
static bool bfs_verify(const clirr_graph *g, const clirr_algo_opts *o, const void *e, const void *got,
                       clirr_verify_report *r)
{
    return clirr_verify_bfs(g, o->source, e, got, r);
}
static void bfs_write(FILE *f, const void *res, uint32_t v)
{
    fprintf(f, "%d", ((const int32_t *)res)[v]);
}

/* ---- sssp ---- */
static int sssp_run(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *o, void *out,
                    clirr_algo_stats *s, clirr_error *err)
{
    return clirr_sssp(ctx, g, o, out, s, err);
}
static int sssp_ref(const clirr_graph *g, const clirr_algo_opts *o, void *out, clirr_error *err)
{
    return clirr_ref_sssp(g, o->source, out, err);
}
static bool sssp_verify(const clirr_graph *g, const clirr_algo_opts *o, const void *e, const void *got,
                        clirr_verify_report *r)
{
    return clirr_verify_sssp(g, o->source, e, got, r);
}
static void sssp_write(FILE *f, const void *res, uint32_t v)
{
    uint32_t d = ((const uint32_t *)res)[v];
    if (d == CLIRR_SSSP_INF)
        fputs("inf", f);
    else
        fprintf(f, "%u", d);
}

/* ---- bc ---- */
static int bc_run(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *o, void *out,
                  clirr_algo_stats *s, clirr_error *err)
{
    return clirr_bc(ctx, g, o, out, s, err);
}
static int bc_ref(const clirr_graph *g, const clirr_algo_opts *o, void *out, clirr_error *err)
{
    uint32_t *src = malloc(((size_t)g->n + 1) * sizeof *src);
    if (!src)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for BC sources");
    uint32_t k = clirr_bc_sources(g->n, o->bc_sources, src);
    int rc = clirr_ref_bc(g, src, k, out, err);
    free(src);
    return rc;
}
static bool real_verify(const clirr_graph *g, const clirr_algo_opts *o, const void *e, const void *got,
                        clirr_verify_report *r)
{
    (void)o;
    return clirr_verify_real("values", g->n, e, got, REAL_REL_TOL, REAL_ABS_TOL, r);
}

/* ---- pagerank ---- */
static int pr_run(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *o, void *out,
                  clirr_algo_stats *s, clirr_error *err)
{
    return clirr_pagerank(ctx, g, o, out, s, err);
}
static int pr_ref(const clirr_graph *g, const clirr_algo_opts *o, void *out, clirr_error *err)
{
    return clirr_ref_pagerank(g, o->damping, o->tol, o->max_iter, out, NULL, err);
}
static bool pr_verify(const clirr_graph *g, const clirr_algo_opts *o, const void *e, const void *got,
                      clirr_verify_report *r)
{
    return clirr_verify_pagerank(g->n, e, got, o->tol, r);
}

/* ---- spmv ---- */
static int spmv_run(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *o, void *out,
                    clirr_algo_stats *s, clirr_error *err)
{
    return clirr_spmv(ctx, g, o, out, s, err);
}
static int spmv_ref(const clirr_graph *g, const clirr_algo_opts *o, void *out, clirr_error *err)
{
    double *ones = NULL;
    const double *x = o->x;
    if (!x) {
        if (!(ones = malloc(((size_t)g->n + 1) * sizeof *ones)))
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for x");
        for (uint32_t i = 0; i < g->n; i++)
            ones[i] = 1.0;
        x = ones;
    }
    int rc = clirr_ref_spmv(g, x, out, err);
    free(ones);
    return rc;
}

#define TOPO_DATA (1u << CLIRR_VARIANT_TOPO | 1u << CLIRR_VARIANT_DATA)

/* ---- color ---- */
static int color_run(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *o, void *out,
                     clirr_algo_stats *s, clirr_error *err)
{
    return clirr_color(ctx, g, o, out, s, err);
}
static int color_ref(const clirr_graph *g, const clirr_algo_opts *o, void *out, clirr_error *err)
{
    (void)o;
    return clirr_ref_color(g, false, out, err);
}
/* Proper, and how many colors against serial greedy (the reference). */
static bool color_verify(const clirr_graph *g, const clirr_algo_opts *o, const void *e, const void *got,
                         clirr_verify_report *r)
{
    (void)o;
    bool ok = clirr_verify_coloring(g, got, r);
    clirr_verify_note(r, "%scolors: %u, serial greedy %u.", ok ? "" : " ", clirr_color_count(g->n, got),
                      clirr_color_count(g->n, e));
    return ok;
}
static void color_write(FILE *f, const void *res, uint32_t v)
{
    fprintf(f, "%u", ((const uint32_t *)res)[v]);
}

static const cli_algo algos[] = {
    /* name, value size, source, variants, push */
    {"bfs", sizeof(int32_t), true, TOPO_DATA, true, bfs_run, bfs_ref, bfs_verify, bfs_write},
    {"sssp", sizeof(uint32_t), true, TOPO_DATA, true, sssp_run, sssp_ref, sssp_verify, sssp_write},
    {"bc", sizeof(double), false, 0, true, bc_run, bc_ref, real_verify, write_real},
    {"pagerank", sizeof(double), false, 0, false, pr_run, pr_ref, pr_verify, write_real},
    {"spmv", sizeof(double), false, 0, false, spmv_run, spmv_ref, real_verify, write_real},
    {"color", sizeof(uint32_t), false, TOPO_DATA | 1u << CLIRR_VARIANT_JP, true, color_run, color_ref,
     color_verify, color_write},
};

bool cli_algo_shows_variant(const cli_algo *algo) { return algo->variants != 0; }

bool cli_algo_has_variant(const cli_algo *algo, clirr_variant v)
{
    return !algo->variants || (algo->variants >> v & 1);
}

bool cli_algo_shows_push(const cli_algo *algo, const clirr_algo_opts *opts)
{
    return algo->uses_push && (!algo->variants || opts->variant == CLIRR_VARIANT_DATA);
}

bool cli_algo_same_run(const cli_algo *algo, const clirr_algo_opts *a, const clirr_algo_opts *b)
{
    if (a->template_auto != b->template_auto || (!a->template_auto && a->tmpl != b->tmpl) ||
        a->lb_thres != b->lb_thres)
        return false;
    if (algo->variants && a->variant != b->variant)
        return false;
    return !cli_algo_shows_push(algo, a) || a->push == b->push;
}

const cli_algo *cli_algo_find(const char *name)
{
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++)
        if (!strcmp(algos[i].name, name))
            return &algos[i];
    return NULL;
}

const cli_algo *cli_algo_at(size_t i)
{
    return i < sizeof algos / sizeof algos[0] ? &algos[i] : NULL;
}

const char *cli_algo_names(void) { return "bfs, sssp, bc, pagerank, spmv, color"; }
