/* tests/test_algo.c - BFS and SSSP on every device, both variants and every
 * push mode, verified against the CPU references on generated graphs
 * (skewed rmat, uniform random, grid), a data/ sample and small special
 * cases; worklist overflow (tiny initial capacity) must still give the
 * right answer; bad weights must be refused. */
#include "harness.h"
#include "ref/ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void register_real_algo_tests(void);

typedef struct algo_input {
    const char *spec;  /* generator spec, or NULL */
    const char *file;  /* file under data/, or NULL */
    bool symmetrize;
    uint32_t source;
} algo_input;

static const algo_input inputs[] = {
    {"rmat:scale=12,ef=8,seed=3,weights=1-100", NULL, false, 0},
    {"random:n=5000,m=20000,seed=5,weights=0-50", NULL, false, 17},
    {"grid:w=64,h=48,weights=1-9", NULL, false, 1000},
    {"rmat:scale=10,ef=4,seed=9", NULL, true, 3},
    {NULL, "grid-32x32.gr", false, 0},
    {NULL, "tiny.gr", false, 0},
};

static int load(const algo_input *in, clirr_graph *g, clirr_error *err)
{
    int rc;
    if (in->spec) {
        rc = clirr_graph_generate(in->spec, g, err);
    } else {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", th_data_dir(), in->file);
        rc = clirr_graph_read(path, g, err);
    }
    if (rc == CLIRR_OK && in->symmetrize)
        rc = clirr_graph_symmetrize(g, err);
    return rc;
}

/* One case: algorithm x variant x push mode x capacity over all inputs. */
typedef struct algo_case {
    bool sssp;
    clirr_variant variant;
    clirr_push_mode push;
    size_t capacity; /* 0 = default; 1 forces overflows */
    int tmpl;        /* -1 = the policy's choice, else a clirr_template */
    uint32_t thres;  /* lb_THRES; 0 = default */
} algo_case;

static void run_case(th_case *tc)
{
    const algo_case *ac = tc->param;
    clirr_error err;
    clirr_graph g = {0};
    void *expected = NULL, *got = NULL;
    const char *why = NULL;
    if (ac->tmpl >= 0 && !clirr_template_runnable(&tc->device->caps, (clirr_template)ac->tmpl, &why)) {
        th_skip(tc, "%s", why);
        return;
    }
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        const algo_input *in = &inputs[i];
        const char *name = in->spec ? in->spec : in->file;
        TH_OK(tc, load(in, &g, &err));
        expected = malloc((size_t)g.n * 4 + 4);
        got = malloc((size_t)g.n * 4 + 4);
        TH_REQUIRE(tc, expected && got, "out of memory");
        clirr_algo_opts o;
        clirr_algo_opts_default(&o);
        o.variant = ac->variant;
        o.push = ac->push;
        o.wl_capacity = ac->capacity;
        o.template_auto = ac->tmpl < 0;
        o.tmpl = ac->tmpl < 0 ? CLIRR_TEMPLATE_BASELINE : (clirr_template)ac->tmpl;
        o.lb_thres = ac->thres;
        o.source = in->source < g.n ? in->source : 0;
        clirr_algo_stats st;
        clirr_verify_report rep;
        bool ok;
        if (ac->sssp) {
            TH_OK(tc, clirr_ref_sssp(&g, o.source, expected, &err));
            TH_OK(tc, clirr_sssp(tc->ctx, &g, &o, got, &st, &err));
            ok = clirr_verify_sssp(&g, o.source, expected, got, &rep);
        } else {
            TH_OK(tc, clirr_ref_bfs(&g, o.source, expected, &err));
            TH_OK(tc, clirr_bfs(tc->ctx, &g, &o, got, &st, &err));
            ok = clirr_verify_bfs(&g, o.source, expected, got, &rep);
        }
        TH_REQUIRE(tc, ok, "%s: %s", name, rep.text);
        TH_REQUIRE(tc, st.iterations > 0 && st.reached >= 1, "%s: no rounds counted", name);
        /* A capacity of 1 must overflow whenever a round pushes two items. */
        if (ac->capacity == 1 && st.wl_max > 1)
            TH_REQUIRE(tc, st.wl_grows > 0 && (ac->push >= CLIRR_PUSH_SCAN || st.wl_reruns > 0),
                       "%s: tiny worklist never grew (grows %u reruns %u)", name, st.wl_grows,
                       st.wl_reruns);
        clirr_graph_free(&g);
        free(expected);
        free(got);
        expected = got = NULL;
    }
done:
    clirr_graph_free(&g);
    free(expected);
    free(got);
}

/* Graphs built arc by arc for the corner cases. */
static int arcs(clirr_graph *g, uint32_t n, uint32_t m, const uint32_t *s, const uint32_t *d,
                const int32_t *w, clirr_error *err)
{
    return clirr_graph_from_arcs(n, m, s, d, w, g, err);
}

static void corner_cases(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    int32_t level[8];
    uint32_t dist[8];
    clirr_algo_stats st;
    clirr_algo_opts o;
    clirr_algo_opts_default(&o);
    for (int v = 0; v <= CLIRR_VARIANT_DATA; v++) {
        o.variant = (clirr_variant)v;
        /* One vertex, no arcs. */
        TH_OK(tc, arcs(&g, 1, 0, NULL, NULL, NULL, &err));
        TH_OK(tc, clirr_bfs(tc->ctx, &g, &o, level, &st, &err));
        TH_REQUIRE(tc, level[0] == 0, "single vertex level %d", level[0]);
        TH_OK(tc, clirr_sssp(tc->ctx, &g, &o, dist, &st, &err));
        TH_REQUIRE(tc, dist[0] == 0, "single vertex distance %u", dist[0]);
        clirr_graph_free(&g);

        /* Source without out-arcs; unreachable rest; zero weights; a
         * self-loop and a duplicate arc. */
        static const uint32_t s[] = {1, 1, 2, 2, 3, 3, 4};
        static const uint32_t d[] = {2, 2, 3, 2, 4, 0, 5};
        static const int32_t w[] = {5, 3, 0, 1, 2, 7, 0};
        TH_OK(tc, arcs(&g, 6, 7, s, d, w, &err));
        o.source = 0;
        TH_OK(tc, clirr_bfs(tc->ctx, &g, &o, level, &st, &err));
        TH_REQUIRE(tc, level[0] == 0 && level[1] == -1 && level[5] == -1, "isolated source");
        o.source = 1;
        TH_OK(tc, clirr_sssp(tc->ctx, &g, &o, dist, &st, &err));
        TH_REQUIRE(tc, dist[1] == 0 && dist[2] == 3 && dist[3] == 3 && dist[4] == 5 && dist[0] == 10 &&
                           dist[5] == 5,
                   "distances %u %u %u %u %u %u", dist[0], dist[1], dist[2], dist[3], dist[4], dist[5]);
        o.source = 6;
        TH_REQUIRE(tc, clirr_bfs(tc->ctx, &g, &o, level, &st, &err) == CLIRR_ERR_USAGE,
                   "source out of range accepted");
        o.source = 0;
        clirr_graph_free(&g);
    }
done:
    clirr_graph_free(&g);
}

static void bad_weights(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    uint32_t dist[4];
    clirr_algo_stats st;
    clirr_algo_opts o;
    clirr_algo_opts_default(&o);
    static const uint32_t s[] = {0, 1, 2}, d[] = {1, 2, 3};
    static const int32_t neg[] = {4, -2, 1}, huge[] = {2147483647, 2147483647, 2147483647};
    TH_OK(tc, arcs(&g, 4, 3, s, d, neg, &err));
    for (int v = 0; v <= CLIRR_VARIANT_DATA; v++) {
        o.variant = (clirr_variant)v;
        int rc = clirr_sssp(tc->ctx, &g, &o, dist, &st, &err);
        TH_REQUIRE(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "negative weight -2"),
                   "negative weight: rc %d '%s'", rc, err.msg);
    }
    clirr_graph_free(&g);
    TH_OK(tc, arcs(&g, 4, 3, s, d, huge, &err));
    for (int v = 0; v <= CLIRR_VARIANT_DATA; v++) {
        o.variant = (clirr_variant)v;
        int rc = clirr_sssp(tc->ctx, &g, &o, dist, &st, &err);
        TH_REQUIRE(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "exceeds"),
                   "overflowing distances: rc %d '%s'", rc, err.msg);
    }
done:
    clirr_graph_free(&g);
}

#define CASE(name, sssp, variant, push, cap)                                   \
    do {                                                                       \
        static const algo_case c_ = {sssp, variant, push, cap, -1, 0};         \
        th_add_device(name, run_case, &c_);                                    \
    } while (0)

/* Every template on both algorithms and variants, with a small lb_THRES so
 * the block-mapped (and child-kernel) paths see plenty of items. */
static void template_cases(void)
{
    static algo_case cases[CLIRR_TEMPLATE_COUNT_][2][CLIRR_VARIANT_COUNT_];
    static char names[CLIRR_TEMPLATE_COUNT_][2][CLIRR_VARIANT_COUNT_][64];
    for (int t = 0; t < CLIRR_TEMPLATE_COUNT_; t++)
        for (int a = 0; a < 2; a++)
            for (int v = 0; v <= CLIRR_VARIANT_DATA; v++) {
                cases[t][a][v] = (algo_case){a == 1, (clirr_variant)v, CLIRR_PUSH_AUTO, 0, t, 4};
                snprintf(names[t][a][v], sizeof names[t][a][v], "algo/%s/%s/template/%s", a ? "sssp" : "bfs",
                         clirr_variant_name((clirr_variant)v), clirr_template_name((clirr_template)t));
                th_add_device(names[t][a][v], run_case, &cases[t][a][v]);
            }
}

TH_REGISTER(register_algo_tests)
{
    CASE("algo/bfs/topo", false, CLIRR_VARIANT_TOPO, CLIRR_PUSH_CHUNK, 0);
    CASE("algo/bfs/data/atomic", false, CLIRR_VARIANT_DATA, CLIRR_PUSH_ATOMIC, 0);
    CASE("algo/bfs/data/chunk", false, CLIRR_VARIANT_DATA, CLIRR_PUSH_CHUNK, 0);
    CASE("algo/bfs/data/scan", false, CLIRR_VARIANT_DATA, CLIRR_PUSH_SCAN, 0);
    CASE("algo/bfs/data/auto", false, CLIRR_VARIANT_DATA, CLIRR_PUSH_AUTO, 0);
    CASE("algo/bfs/data/auto/overflow", false, CLIRR_VARIANT_DATA, CLIRR_PUSH_AUTO, 1);
    CASE("algo/bfs/data/atomic/overflow", false, CLIRR_VARIANT_DATA, CLIRR_PUSH_ATOMIC, 1);
    CASE("algo/bfs/data/chunk/overflow", false, CLIRR_VARIANT_DATA, CLIRR_PUSH_CHUNK, 1);
    CASE("algo/bfs/data/scan/overflow", false, CLIRR_VARIANT_DATA, CLIRR_PUSH_SCAN, 1);
    CASE("algo/sssp/topo", true, CLIRR_VARIANT_TOPO, CLIRR_PUSH_CHUNK, 0);
    CASE("algo/sssp/data/atomic", true, CLIRR_VARIANT_DATA, CLIRR_PUSH_ATOMIC, 0);
    CASE("algo/sssp/data/chunk", true, CLIRR_VARIANT_DATA, CLIRR_PUSH_CHUNK, 0);
    CASE("algo/sssp/data/scan", true, CLIRR_VARIANT_DATA, CLIRR_PUSH_SCAN, 0);
    CASE("algo/sssp/data/auto", true, CLIRR_VARIANT_DATA, CLIRR_PUSH_AUTO, 0);
    CASE("algo/sssp/data/auto/overflow", true, CLIRR_VARIANT_DATA, CLIRR_PUSH_AUTO, 1);
    CASE("algo/sssp/data/atomic/overflow", true, CLIRR_VARIANT_DATA, CLIRR_PUSH_ATOMIC, 1);
    CASE("algo/sssp/data/chunk/overflow", true, CLIRR_VARIANT_DATA, CLIRR_PUSH_CHUNK, 1);
    CASE("algo/sssp/data/scan/overflow", true, CLIRR_VARIANT_DATA, CLIRR_PUSH_SCAN, 1);
    th_add_device("algo/corner-cases", corner_cases, NULL);
    template_cases();
    /* Overflow and rerun through the templates that defer work. */
    static const algo_case ovf[] = {
        {true, CLIRR_VARIANT_DATA, CLIRR_PUSH_CHUNK, 1, CLIRR_TEMPLATE_DBUF_GLOBAL, 4},
        {false, CLIRR_VARIANT_DATA, CLIRR_PUSH_ATOMIC, 1, CLIRR_TEMPLATE_DBUF_SHARED, 4},
        {true, CLIRR_VARIANT_DATA, CLIRR_PUSH_ATOMIC, 1, CLIRR_TEMPLATE_NESTED_OPT, 4},
        {false, CLIRR_VARIANT_DATA, CLIRR_PUSH_CHUNK, 1, CLIRR_TEMPLATE_NESTED_NAIVE, 4},
        {true, CLIRR_VARIANT_DATA, CLIRR_PUSH_ATOMIC, 1, CLIRR_TEMPLATE_DUAL_QUEUE, 4},
    };
    th_add_device("algo/sssp/data/template/dbuf-global/overflow", run_case, &ovf[0]);
    th_add_device("algo/bfs/data/template/dbuf-shared/overflow", run_case, &ovf[1]);
    th_add_device("algo/sssp/data/template/nested-opt/overflow", run_case, &ovf[2]);
    th_add_device("algo/bfs/data/template/nested-naive/overflow", run_case, &ovf[3]);
    th_add_device("algo/sssp/data/template/dual-queue/overflow", run_case, &ovf[4]);
    register_real_algo_tests();
    th_add_device("algo/sssp/bad-weights", bad_weights, NULL);
}

/* ---- BC, PageRank, SpMV on every template --------------------------------
 * Summing loops (the block-mapped work-group sums and child kernels) on
 * skewed, uniform and grid graphs, against the CPU references. */

typedef enum { REAL_BC, REAL_PAGERANK, REAL_SPMV } real_algo;

typedef struct real_case {
    real_algo algo;
    int tmpl; /* a clirr_template */
} real_case;

static const char *real_inputs[] = {
    "rmat:scale=10,ef=8,seed=4,weights=1-20",
    "random:n=1500,m=9000,seed=6,weights=1-5",
    "grid:w=30,h=20",
};

static void run_real_case(th_case *tc)
{
    const real_case *rc_ = tc->param;
    const char *why = NULL;
    if (!clirr_template_runnable(&tc->device->caps, (clirr_template)rc_->tmpl, &why)) {
        th_skip(tc, "%s", why);
        return;
    }
    if (!tc->device->caps.fp64) {
        th_skip(tc, "no double precision");
        return;
    }
    clirr_error err;
    clirr_graph g = {0};
    double *expected = NULL, *got = NULL, *x = NULL;
    uint32_t *sources = NULL;
    for (size_t i = 0; i < sizeof real_inputs / sizeof real_inputs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(real_inputs[i], &g, &err));
        expected = malloc((size_t)g.n * sizeof *expected);
        got = malloc((size_t)g.n * sizeof *got);
        x = malloc((size_t)g.n * sizeof *x);
        sources = malloc((size_t)g.n * sizeof *sources);
        TH_REQUIRE(tc, expected && got && x && sources, "out of memory");
        for (uint32_t v = 0; v < g.n; v++)
            x[v] = 0.5 + (v % 7) * 0.25;
        clirr_algo_opts o;
        clirr_algo_opts_default(&o);
        o.template_auto = false;
        o.tmpl = (clirr_template)rc_->tmpl;
        o.lb_thres = 4;
        o.bc_sources = 12;
        o.x = x;
        clirr_algo_stats st;
        clirr_verify_report rep;
        bool ok = false;
        switch (rc_->algo) {
        case REAL_BC: {
            uint32_t k = clirr_bc_sources(g.n, o.bc_sources, sources);
            TH_OK(tc, clirr_ref_bc(&g, sources, k, expected, &err));
            TH_OK(tc, clirr_bc(tc->ctx, &g, &o, got, &st, &err));
            ok = clirr_verify_real("scores", g.n, expected, got, 1e-9, 1e-9, &rep);
            break;
        }
        case REAL_PAGERANK:
            TH_OK(tc, clirr_ref_pagerank(&g, o.damping, o.tol, o.max_iter, expected, NULL, &err));
            TH_OK(tc, clirr_pagerank(tc->ctx, &g, &o, got, &st, &err));
            ok = clirr_verify_pagerank(g.n, expected, got, o.tol, &rep);
            break;
        case REAL_SPMV:
            TH_OK(tc, clirr_ref_spmv(&g, x, expected, &err));
            TH_OK(tc, clirr_spmv(tc->ctx, &g, &o, got, &st, &err));
            ok = clirr_verify_real("y", g.n, expected, got, 1e-12, 1e-12, &rep);
            break;
        }
        TH_REQUIRE(tc, ok, "%s: %s", real_inputs[i], rep.text);
        TH_REQUIRE(tc, !strcmp(st.template_name, clirr_template_name((clirr_template)rc_->tmpl)),
                   "ran %s", st.template_name);
        clirr_graph_free(&g);
        free(expected);
        free(got);
        free(x);
        free(sources);
        expected = got = x = NULL;
        sources = NULL;
    }
done:
    clirr_graph_free(&g);
    free(expected);
    free(got);
    free(x);
    free(sources);
}

void register_real_algo_tests(void)
{
    static real_case cases[3][CLIRR_TEMPLATE_COUNT_];
    static char names[3][CLIRR_TEMPLATE_COUNT_][64];
    static const char *algo_names[] = {"bc", "pagerank", "spmv"};
    for (int a = 0; a < 3; a++)
        for (int t = 0; t < CLIRR_TEMPLATE_COUNT_; t++) {
            cases[a][t] = (real_case){(real_algo)a, t};
            snprintf(names[a][t], sizeof names[a][t], "algo/%s/template/%s", algo_names[a],
                     clirr_template_name((clirr_template)t));
            th_add_device(names[a][t], run_real_case, &cases[a][t]);
        }
}
