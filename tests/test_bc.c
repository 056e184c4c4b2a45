/* tests/test_bc.c - betweenness centrality's own cases through the generic
 * API, on every device with double precision: exact scores on small graphs
 * (ordered pairs, duplicate arcs as distinct paths, self-loops on no path),
 * the roots the source rules pick (evenly spaced K by default, every vertex
 * without a count, random, max-degree, one vertex), Graph500-style arc
 * counts, bad sources, a device without fp64, and small levels run many
 * at a time in one work-group (--local-rounds). (Every push mode and
 * template is in test_algo.c.) */
#include "harness.h"
#include "ref/ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* BC on g with roots `spec` and every other choice automatic; result
 * holds g->n doubles. */
static int run_bc(clirr_ctx *ctx, const clirr_graph *g, const clirr_source_spec *spec, double *result,
                  clirr_stats *stats, clirr_error *err)
{
    const clirr_algo *a = clirr_algo_find("bc");
    if (!a)
        return clirr_fail(err, CLIRR_ERR_USAGE, "bc is not in the registry");
    clirr_intent it;
    clirr_intent_default(a, &it);
    if (spec) {
        it.source = *spec;
        it.source_given = true;
    }
    clirr_input *in = NULL;
    int rc = clirr_input_from_graph((clirr_graph *)g, false, "bc", &in, err);
    if (rc == CLIRR_OK)
        rc = clirr_algo_run(ctx, a, in, &it, result, stats, err);
    clirr_input_free(in);
    return rc;
}

static bool need_fp64(th_case *tc)
{
    if (tc->device->caps.fp64)
        return true;
    th_skip(tc, "no double precision");
    return false;
}

/* A small graph and its scores with every vertex a source. */
typedef struct small_case {
    const char *name;
    uint32_t n, m;
    uint32_t src[8], dst[8];
    double bc[4];
} small_case;

static const small_case smalls[] = {
    {"one vertex", 1, 0, {0}, {0}, {0}},
    {"path 0->1->2", 3, 2, {0, 1}, {1, 2}, {0, 1, 0}},
    /* Ordered pairs: (0,2) and (2,0) both pass through 1. */
    {"symmetric path", 3, 4, {0, 1, 1, 2}, {1, 0, 2, 1}, {0, 2, 0}},
    /* Three shortest 0-3 paths, two through the doubled arc 0->1; the
     * self-loop 3->3 lies on none. */
    {"diamond", 4, 6, {0, 0, 0, 1, 2, 3}, {1, 1, 2, 3, 3, 3}, {0, 2.0 / 3, 1.0 / 3, 0}},
};

static void small_graphs(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    double got[4];
    clirr_stats st;
    if (!need_fp64(tc))
        return;
    for (size_t i = 0; i < sizeof smalls / sizeof smalls[0]; i++) {
        const small_case *c = &smalls[i];
        TH_OK(tc, clirr_graph_from_arcs(c->n, c->m, c->src, c->dst, NULL, &g, &err));
        TH_OK(tc, run_bc(tc->ctx, &g, NULL, got, &st, &err));
        for (uint32_t v = 0; v < c->n; v++)
            TH_REQUIRE(tc, fabs(got[v] - c->bc[v]) < 1e-12, "%s: bc[%u] = %.17g, expected %.17g", c->name, v,
                       got[v], c->bc[v]);
        /* Every source's BFS counts the graph's arcs once (Graph500). */
        TH_REQUIRE(tc, st.edges_traversed == (uint64_t)c->m * c->n, "%s: %llu arcs traversed", c->name,
                   (unsigned long long)st.edges_traversed);
        clirr_graph_free(&g);
    }
    /* The path from each source: 3 + 2 + 1 vertices reached over
     * 3 + 2 + 1 levels. */
    TH_OK(tc, clirr_graph_from_arcs(3, 2, smalls[1].src, smalls[1].dst, NULL, &g, &err));
    TH_OK(tc, run_bc(tc->ctx, &g, NULL, got, &st, &err));
    TH_REQUIRE(tc, st.reached == 6 && st.iterations == 6, "path: reached %llu, %u levels",
               (unsigned long long)st.reached, st.iterations);
done:
    clirr_graph_free(&g);
}

/* The device's scores for `spec` against the reference's for `roots`. */
static void check_roots(th_case *tc, const clirr_graph *g, const char *what, const clirr_source_spec *spec,
                        const uint32_t *roots, uint32_t nroots, double *expected, double *got)
{
    clirr_error err;
    clirr_stats st;
    clirr_verify_report rep;
    TH_OK(tc, clirr_ref_bc(g, roots, nroots, expected, &err));
    TH_OK(tc, run_bc(tc->ctx, g, spec, got, &st, &err));
    TH_REQUIRE(tc, clirr_verify_real("scores", g->n, expected, got, 1e-9, 1e-9, &rep), "%s: %s", what,
               rep.text);
    TH_REQUIRE(tc, st.edges_traversed == (uint64_t)g->m * (roots ? nroots : g->n),
               "%s: %llu arcs traversed", what, (unsigned long long)st.edges_traversed);
done:;
}

/* --sources K keeps meaning K evenly spaced roots; no count means every
 * vertex; the other rules pick what clirr_sources_pick picks. */
static void sources(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    double *expected = NULL, *got = NULL;
    uint32_t *roots = NULL;
    if (!need_fp64(tc))
        return;
    TH_OK(tc, clirr_graph_generate("rmat:scale=8,ef=6,seed=11", &g, &err));
    expected = malloc(g.n * sizeof *expected);
    got = malloc(g.n * sizeof *got);
    roots = malloc(g.n * sizeof *roots);
    TH_REQUIRE(tc, expected && got && roots, "out of memory");

    clirr_source_spec spec = {.rule = CLIRR_SOURCE_SPREAD, .count = 7};
    for (uint32_t i = 0; i < spec.count; i++)
        roots[i] = (uint32_t)((uint64_t)i * g.n / spec.count);
    check_roots(tc, &g, "7 spread", &spec, roots, spec.count, expected, got);
    TH_REQUIRE(tc, !tc->failed, "(above)");

    spec.count = 0;
    check_roots(tc, &g, "every vertex", &spec, NULL, 0, expected, got);
    TH_REQUIRE(tc, !tc->failed, "(above)");

    const clirr_source_spec others[] = {
        {.rule = CLIRR_SOURCE_RANDOM, .count = 5, .seed = 7},
        {.rule = CLIRR_SOURCE_MAX_DEGREE, .count = 3},
        {.rule = CLIRR_SOURCE_VERTEX, .vertex = 5},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        uint32_t k = clirr_sources_pick(&g, &others[i], roots, g.n, &err);
        TH_REQUIRE(tc, k > 0, "picking %s: %s", clirr_source_rule_name(others[i].rule), err.msg);
        check_roots(tc, &g, clirr_source_rule_name(others[i].rule), &others[i], roots, k, expected, got);
        TH_REQUIRE(tc, !tc->failed, "(above)");
    }
done:
    clirr_graph_free(&g);
    free(expected);
    free(got);
    free(roots);
}

/* A vertex out of range and a graph without vertices are usage errors,
 * on the device and in the reference. */
static void bad_sources(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    double got[4];
    const clirr_algo *bc = clirr_algo_find("bc");
    clirr_input *in = NULL;
    if (!need_fp64(tc))
        return;
    TH_REQUIRE(tc, bc, "bc is not in the registry");
    static const uint32_t s[] = {0, 1}, d[] = {1, 2};
    TH_OK(tc, clirr_graph_from_arcs(3, 2, s, d, NULL, &g, &err));
    clirr_source_spec spec = {.rule = CLIRR_SOURCE_VERTEX, .vertex = 3};
    int rc = run_bc(tc->ctx, &g, &spec, got, NULL, &err);
    TH_REQUIRE(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "out of range"), "vertex 3 of 3: rc %d '%s'", rc,
               err.msg);
    clirr_intent it;
    clirr_intent_default(bc, &it);
    it.source = spec;
    clirr_plan plan;
    TH_OK(tc, clirr_input_from_graph(&g, false, "path", &in, &err));
    TH_OK(tc, clirr_plan_make(bc, &tc->device->caps, &it, in, &plan, &err));
    rc = bc->reference(in, &plan, got, &err);
    TH_REQUIRE(tc, rc == CLIRR_ERR_USAGE, "reference, vertex 3 of 3: rc %d '%s'", rc, err.msg);
    clirr_input_free(in);
    in = NULL;
    clirr_graph_free(&g);

    TH_OK(tc, clirr_graph_from_arcs(0, 0, NULL, NULL, NULL, &g, &err));
    rc = run_bc(tc->ctx, &g, NULL, got, NULL, &err);
    TH_REQUIRE(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "no vertices"), "empty graph: rc %d '%s'", rc,
               err.msg);
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

/* Without cl_khr_fp64 the plan says BC cannot run, and why. */
static void no_fp64(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    const clirr_algo *bc = clirr_algo_find("bc");
    TH_REQUIRE(tc, bc && bc->needs_fp64, "bc missing or not marked fp64");
    TH_OK(tc, clirr_graph_generate("random:n=50,m=200,seed=2", &g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, "random", &in, &err));
    clirr_caps caps = tc->device->caps;
    caps.fp64 = false;
    clirr_intent it;
    clirr_intent_default(bc, &it);
    clirr_plan plan;
    int rc = clirr_plan_make(bc, &caps, &it, in, &plan, &err);
    TH_REQUIRE(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, "double precision"), "rc %d '%s'", rc,
               err.msg);
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

/* The reporting conventions, against NetworkX's values: a symmetric star
 * of 5 (centre 0) gives 6 undirected (12 over ordered pairs) and 1.0
 * normalized; the directed path 0->1->2 gives 0.5 normalized; a sample of
 * 2 of the 5 star vertices, as an estimate, scales by 5/2. */
static void conventions(th_case *tc)
{
    if (!need_fp64(tc))
        return;
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    double bc[5];
    const clirr_algo *a = clirr_algo_find("bc");
    static const uint32_t ss[] = {0, 1, 0, 2, 0, 3, 0, 4}, sd[] = {1, 0, 2, 0, 3, 0, 4, 0};
    static const uint32_t ps[] = {0, 1}, pd[] = {1, 2};
    static const struct {
        int graph; /* 0 star, 1 path */
        const char *normalize, *undirected, *estimate;
        uint32_t sample;
        double want0, want1;
    } cases[] = {
        {0, "off", "off", "off", 0, 12, 0},
        {0, "off", "on", "off", 0, 6, 0},
        {0, "on", "off", "off", 0, 1.0, 0},
        {0, "on", "on", "off", 0, 1.0, 0},
        {1, "on", "off", "off", 0, 0, 0.5},
        /* sources 0 and 2 (evenly spaced): through 0, the pairs from 2
         * to 1, 3, 4 = 3; estimate 3 * 5/2 */
        {0, "off", "off", "on", 2, 7.5, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].graph == 0)
            TH_OK(tc, clirr_graph_from_arcs(5, 8, ss, sd, NULL, &g, &err));
        else
            TH_OK(tc, clirr_graph_from_arcs(3, 2, ps, pd, NULL, &g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, "bc", &in, &err));
        clirr_intent it;
        clirr_intent_default(a, &it);
        TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "normalize"), cases[i].normalize, &it.params, &err));
        TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "undirected"), cases[i].undirected, &it.params, &err));
        TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "estimate"), cases[i].estimate, &it.params, &err));
        it.source.count = cases[i].sample;
        TH_OK(tc, clirr_algo_run(tc->ctx, a, in, &it, bc, NULL, &err));
        TH_EXPECT(tc, fabs(bc[0] - cases[i].want0) < 1e-12 && fabs(bc[1] - cases[i].want1) < 1e-12,
                  "case %zu: bc[0] %.17g bc[1] %.17g, expected %g and %g", i, bc[0], bc[1], cases[i].want0,
                  cases[i].want1);
        clirr_plan plan;
        double ref[5];
        TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
        TH_OK(tc, a->reference(in, &plan, ref, &err));
        TH_EXPECT(tc, fabs(ref[0] - bc[0]) < 1e-12, "case %zu: the reference's convention differs", i);
        clirr_input_free(in);
        in = NULL;
        clirr_graph_free(&g);
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

/* A graph whose level 1 is one vertex with more in-arcs than a local
 * launch pulls (8 x the threshold 8): 0 -> 1 -> 2 -> ... -> 9, and 100
 * vertices beyond reach of 0 pointing at 1. */
static int fan_in(clirr_graph *g, clirr_error *err)
{
    uint32_t src[109], dst[109], m = 0;
    for (uint32_t v = 0; v < 9; v++, m++) {
        src[m] = v;
        dst[m] = v + 1;
    }
    for (uint32_t v = 10; v < 110; v++, m++) {
        src[m] = v;
        dst[m] = 1;
    }
    return clirr_graph_from_arcs(110, m, src, dst, NULL, g, err);
}

/* Levels of at most --local-rounds vertices run many in one work-group
 * (bc_forward_local, bc_backward_local), bigger ones and hubs on the wide
 * kernels: every mix gives the reference's scores, the same levels, and
 * local levels where they should run. Inputs: a path of 3000 levels (more
 * than a launch's 1024), a 60x60 grid (fronts of 1 to 60: with 8, local,
 * wide, local again), rmat (hubs: levels too heavy for one work-group) and
 * the fan-in (path counts of a level pulled by the wide kernel). */
static void local_levels(th_case *tc)
{
    static const char *specs[] = {"grid:w=3000,h=1", "grid:w=60,h=60", "rmat:scale=10,ef=8,seed=2", NULL};
    static const int64_t thresholds[] = {0, 8, -1};
    const clirr_algo *a = clirr_algo_find("bc");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    double *want = NULL, *got = NULL;
    uint32_t roots[3];
    if (!need_fp64(tc))
        return;
    TH_REQUIRE(tc, a, "bc is not in the registry");
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        const char *name = specs[i] ? specs[i] : "fan-in";
        TH_OK(tc, specs[i] ? clirr_graph_generate(specs[i], &g, &err) : fan_in(&g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, name, &in, &err));
        want = malloc(g.n * sizeof *want);
        got = malloc(g.n * sizeof *got);
        TH_REQUIRE(tc, want && got, "out of memory");
        clirr_source_spec spec = {.rule = CLIRR_SOURCE_SPREAD, .count = 3};
        uint32_t k = clirr_sources_pick(&g, &spec, roots, 3, &err);
        TH_REQUIRE(tc, k == 3, "picking roots: %s", err.msg);
        TH_OK(tc, clirr_ref_bc(&g, roots, k, want, &err));
        uint32_t wide_levels = 0;
        for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++) {
            clirr_intent it;
            clirr_intent_default(a, &it);
            it.source = spec;
            it.source_given = true;
            it.local_rounds = thresholds[t];
            it.queue_rounds = 0;
            clirr_stats st;
            clirr_verify_report rep;
            memset(&st, 0, sizeof st);
            TH_OK(tc, clirr_algo_run(tc->ctx, a, in, &it, got, &st, &err));
            TH_EXPECT(tc, clirr_verify_real("scores", g.n, want, got, 1e-9, 1e-9, &rep), "%s, --local-rounds %lld: %s",
                      name, (long long)thresholds[t], rep.text);
            if (t == 0) {
                wide_levels = st.iterations;
                TH_EXPECT(tc, st.local_rounds == 0, "%s: --local-rounds off ran %u local levels", name, st.local_rounds);
                continue;
            }
            TH_EXPECT(tc, st.iterations == wide_levels, "%s, --local-rounds %lld: %u levels, wide %u", name,
                      (long long)thresholds[t], st.iterations, wide_levels);
            TH_EXPECT(tc, st.local_rounds > 0 && st.local_rounds <= st.iterations,
                      "%s, --local-rounds %lld: %u local levels of %u", name, (long long)thresholds[t],
                      st.local_rounds, st.iterations);
            if (i == 0 && thresholds[t] < 0)
                TH_EXPECT(tc, st.local_rounds == st.iterations && st.local_launches >= 3 * 4,
                          "the path: %u local levels of %u in %u launches (1024 levels at most each, both "
                          "passes)", st.local_rounds, st.iterations, st.local_launches);
            if ((i == 1 || i == 2) && thresholds[t] == 8)
                TH_EXPECT(tc, st.local_rounds < st.iterations, "%s with 8: every level local (%u)", name,
                          st.local_rounds);
        }
        clirr_input_free(in);
        in = NULL;
        clirr_graph_free(&g);
        free(want);
        free(got);
        want = got = NULL;
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(want);
    free(got);
}

TH_REGISTER(register_bc_tests)
{
    th_add_device("bc/conventions", conventions, NULL);
    th_add_device("bc/small-graphs", small_graphs, NULL);
    th_add_device("bc/sources", sources, NULL);
    th_add_device("bc/bad-sources", bad_sources, NULL);
    th_add_device("bc/no-fp64", no_fp64, NULL);
    th_add_device("bc/local-levels", local_levels, NULL);
}
