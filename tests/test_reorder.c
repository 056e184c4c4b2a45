/* tests/test_reorder.c - locality layouts (--reorder; host/graph/reorder.c
 * and the session's relabelling): each layout is a permutation with its
 * defining property (bfs: levels never fall along the new ids; rcm: a
 * path keeps bandwidth 1; degree: out-degrees never rise), relabelling
 * keeps every arc with its weight, and on every device every algorithm
 * with one value per vertex runs on the relabelled graph and verifies
 * against the original's reference, while the ones it would corrupt are
 * refused by name; auto (the default) picks degree where it should (BFS
 * and PageRank on CPU devices, graphs with hubs) and none elsewhere. */
#include "algo/input.h"
#include "harness.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

static const char *const specs[] = {"rmat:scale=11,ef=8,seed=2,weights=1-40", "grid:w=30,h=20,weights=1-9",
                                    "random:n=3000,m=6000,seed=3"};

/* perm is a bijection on 0..n-1. */
static bool bijection(const uint32_t *perm, uint32_t n)
{
    bool *hit = calloc(n + 1, sizeof *hit), ok = hit != NULL;
    for (uint32_t v = 0; ok && v < n; v++) {
        ok = perm[v] < n && !hit[perm[v]];
        if (ok)
            hit[perm[v]] = true;
    }
    free(hit);
    return ok;
}

static void layouts(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0}, p = {0};
    uint32_t *perm = NULL, *level = NULL;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(specs[i], &g, &err));
        TH_REQUIRE(tc, (perm = malloc(g.n * sizeof *perm)) && (level = malloc(g.n * sizeof *level)), "out of memory");
        for (int r = CLIRR_REORDER_NONE; r < CLIRR_REORDER_COUNT_; r++) {
            TH_OK(tc, clirr_graph_reorder(&g, (clirr_reorder)r, perm, &err));
            TH_REQUIRE(tc, bijection(perm, g.n), "%s, %s: not a permutation", specs[i], clirr_reorder_name(r));
            TH_OK(tc, clirr_graph_permute(&g, perm, &p, &err));
            /* every arc, with its weight, under its new names */
            bool same = p.n == g.n && p.m == g.m;
            for (uint32_t u = 0; same && u < g.n; u++) {
                uint32_t e2 = p.row[perm[u]];
                same = p.row[perm[u] + 1] - e2 == g.row[u + 1] - g.row[u];
                for (uint32_t e = g.row[u]; same && e < g.row[u + 1]; e++, e2++)
                    same = p.col[e2] == perm[g.col[e]] && (!g.weight || p.weight[e2] == g.weight[e]);
            }
            TH_EXPECT(tc, same, "%s, %s: the relabelled graph lost or changed an arc", specs[i], clirr_reorder_name(r));
            if (r == CLIRR_REORDER_DEGREE)
                for (uint32_t k = 0; k + 1 < p.n; k++)
                    TH_EXPECT(tc, p.row[k + 1] - p.row[k] >= p.row[k + 2] - p.row[k + 1],
                              "%s, degree: vertex %u has fewer arcs than %u", specs[i], k, k + 1);
            /* degree: ties keep the id order (a stable layout) */
            for (uint32_t u = 0; r == CLIRR_REORDER_DEGREE && u + 1 < g.n; u++)
                if (clirr_graph_degree(&g, u) == clirr_graph_degree(&g, u + 1))
                    TH_EXPECT(tc, perm[u] < perm[u + 1], "%s, degree: vertices %u and %u of one degree swapped",
                              specs[i], u, u + 1);
            if (r == CLIRR_REORDER_BFS && i == 1) { /* connected: one traversal from new id 0 */
                TH_OK(tc, clirr_ref_bfs(&p, 0, (int32_t *)level, &err));
                for (uint32_t k = 0; k + 1 < p.n; k++)
                    TH_EXPECT(tc, level[k] <= level[k + 1], "grid, bfs: new id %u at level %u before level %u", k,
                              level[k], level[k + 1]);
            }
            clirr_graph_free(&p);
        }
        free(perm);
        free(level);
        perm = level = NULL;
        clirr_graph_free(&g);
    }
    /* reverse Cuthill-McKee keeps a path's bandwidth at 1 */
    TH_OK(tc, clirr_graph_generate("grid:w=50,h=1", &g, &err));
    TH_REQUIRE(tc, (perm = malloc(g.n * sizeof *perm)), "out of memory");
    TH_OK(tc, clirr_graph_reorder(&g, CLIRR_REORDER_RCM, perm, &err));
    for (uint32_t u = 0; u < g.n; u++)
        for (uint32_t e = g.row[u]; e < g.row[u + 1]; e++)
            TH_EXPECT(tc, abs((int)perm[u] - (int)perm[g.col[e]]) == 1, "rcm on a path: arc %u-%u spans %d", u,
                      g.col[e], abs((int)perm[u] - (int)perm[g.col[e]]));
done:
    free(perm);
    free(level);
    clirr_graph_free(&p);
    clirr_graph_free(&g);
}

/* Every graph algorithm with one value per vertex, its default variant, on
 * every layout: verified on the original input; the others refused. */
static void runs(th_case *tc)
{
    static const char *const algos[] = {"bfs", "sssp", "bc", "pagerank", "spmv", "color"};
    static const char *const refused[] = {"cc", "mst"};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    void *expected = NULL, *got = NULL;
    TH_OK(tc, clirr_graph_generate(specs[0], &g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, specs[0], &in, &err));
    TH_REQUIRE(tc, (expected = malloc(g.n * 8)) && (got = malloc(g.n * 8)), "out of memory");
    uint32_t source = 0;
    for (uint32_t v = 0; v < g.n; v++)
        source = clirr_graph_degree(&g, v) > clirr_graph_degree(&g, source) ? v : source;
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        const clirr_algo *al = clirr_algo_find(algos[a]);
        TH_REQUIRE(tc, al, "no %s", algos[a]);
        for (int r = CLIRR_REORDER_BFS; r < CLIRR_REORDER_COUNT_; r++) {
            clirr_intent it;
            clirr_intent_default(al, &it);
            if (al->sources == CLIRR_SOURCES_ONE) {
                it.source.rule = CLIRR_SOURCE_VERTEX;
                it.source.vertex = source;
            }
            it.reorder = (clirr_reorder)r;
            clirr_plan plan;
            clirr_stats st;
            TH_OK(tc, clirr_plan_make(al, &tc->device->caps, &it, in, &plan, &err));
            TH_OK(tc, al->reference(in, &plan, expected, &err));
            TH_OK(tc, clirr_algo_run(tc->ctx, al, in, &it, got, &st, &err));
            clirr_verify_report rep;
            TH_EXPECT(tc, al->verify(in, &plan, expected, got, &rep), "%s, --reorder %s: %s", algos[a],
                      clirr_reorder_name(r), rep.text);
        }
    }
    for (size_t a = 0; a < sizeof refused / sizeof refused[0]; a++) {
        const clirr_algo *al = clirr_algo_find(refused[a]);
        clirr_intent it;
        clirr_intent_default(al, &it);
        it.reorder = CLIRR_REORDER_RCM;
        clirr_plan plan;
        int rc = clirr_plan_make(al, &tc->device->caps, &it, in, &plan, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, "--reorder rcm"), "%s --reorder: %s (%s)",
                  refused[a], clirr_status_name(rc), err.msg);
    }
done:
    free(expected);
    free(got);
    clirr_input_free(in);
    clirr_graph_free(&g);
}

/* --reorder auto (the default): degree for BFS and PageRank on CPU
 * devices where the graph has hubs, verified on the original input; none
 * on other devices, on a grid (no hubs), for an algorithm that did not ask
 * for it, and for a random source (which the layout would move). */
static void auto_layout(th_case *tc)
{
    static const char *const algos[] = {"bfs", "sssp", "pagerank", "bc"};
    clirr_error err;
    clirr_graph g = {0}, grid = {0};
    clirr_input *in = NULL, *gin = NULL;
    void *expected = NULL, *got = NULL;
    bool cpu = tc->device->caps.is_cpu;
    TH_OK(tc, clirr_graph_generate(specs[0], &g, &err));
    TH_REQUIRE(tc, clirr_graph_has_hubs(&g, 32), "%s has no hubs: the case tests nothing", specs[0]);
    TH_OK(tc, clirr_input_from_graph(&g, false, specs[0], &in, &err));
    TH_OK(tc, clirr_graph_generate(specs[1], &grid, &err));
    TH_OK(tc, clirr_input_from_graph(&grid, false, specs[1], &gin, &err));
    TH_REQUIRE(tc, (expected = malloc(g.n * 8)) && (got = malloc(g.n * 8)), "out of memory");
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        const clirr_algo *al = clirr_algo_find(algos[a]);
        TH_REQUIRE(tc, al, "no %s", algos[a]);
        bool asks = !strcmp(algos[a], "bfs") || !strcmp(algos[a], "pagerank");
        clirr_intent it;
        clirr_intent_default(al, &it);
        TH_EXPECT(tc, it.reorder == CLIRR_REORDER_AUTO, "%s: the default layout is %s, not auto", algos[a],
                  clirr_reorder_name(it.reorder));
        clirr_plan plan;
        clirr_stats st;
        TH_OK(tc, clirr_plan_make(al, &tc->device->caps, &it, in, &plan, &err));
        clirr_reorder want = cpu && asks ? CLIRR_REORDER_DEGREE : CLIRR_REORDER_NONE;
        TH_EXPECT(tc, plan.reorder == want, "%s on %s: auto gave %s (%s), not %s", algos[a], specs[0],
                  clirr_reorder_name(plan.reorder), plan.reorder_reason, clirr_reorder_name(want));
        TH_OK(tc, al->reference(in, &plan, expected, &err));
        TH_OK(tc, clirr_algo_run(tc->ctx, al, in, &it, got, &st, &err));
        clirr_verify_report rep;
        TH_EXPECT(tc, al->verify(in, &plan, expected, got, &rep), "%s, --reorder auto: %s", algos[a], rep.text);
        TH_OK(tc, clirr_plan_make(al, &tc->device->caps, &it, gin, &plan, &err));
        TH_EXPECT(tc, plan.reorder == CLIRR_REORDER_NONE, "%s on %s (no hubs): auto gave %s", algos[a], specs[1],
                  clirr_reorder_name(plan.reorder));
        if (al->sources == CLIRR_SOURCES_ONE) {
            it.source.rule = CLIRR_SOURCE_RANDOM;
            TH_OK(tc, clirr_plan_make(al, &tc->device->caps, &it, in, &plan, &err));
            TH_EXPECT(tc, plan.reorder == CLIRR_REORDER_NONE, "%s from a random source: auto gave %s", algos[a],
                      clirr_reorder_name(plan.reorder));
        }
    }
done:
    free(expected);
    free(got);
    clirr_input_free(in);
    clirr_input_free(gin);
    clirr_graph_free(&g);
    clirr_graph_free(&grid);
}

/* The relabelled graph is made once per input and layout and kept with
 * the input (algo/input.h): asked again, the same input and permutation;
 * a second session on it relabels nothing and uploads nothing (the first
 * one's device copies serve: BFS and PageRank, whose transpose belongs to
 * the relabelled input too), and its results still verify. */
static void shared_relabelling(th_case *tc)
{
    static const char *const algos[] = {"bfs", "pagerank"};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *s1 = NULL, *s2 = NULL;
    void *expected = NULL, *got = NULL;
    TH_OK(tc, clirr_graph_generate(specs[0], &g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, specs[0], &in, &err));
    TH_REQUIRE(tc, (expected = malloc(g.n * 8)) && (got = malloc(g.n * 8)), "out of memory");
    const clirr_input *r1, *r2;
    const uint32_t *p1, *p2;
    TH_OK(tc, clirr_input_relabelled(in, CLIRR_REORDER_DEGREE, &r1, &p1, &err));
    TH_OK(tc, clirr_input_relabelled(in, CLIRR_REORDER_DEGREE, &r2, &p2, &err));
    TH_EXPECT(tc, r1 == r2 && p1 == p2 && bijection(p1, g.n), "the degree layout was made twice, or is no "
              "permutation");
    TH_OK(tc, clirr_input_relabelled(in, CLIRR_REORDER_RCM, &r2, &p2, &err));
    TH_EXPECT(tc, r1 != r2 && p1 != p2, "the rcm layout is the degree layout's input");
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        /* A new input each: nothing of it on the device yet. */
        clirr_input_free(in);
        in = NULL;
        TH_OK(tc, clirr_input_from_graph(&g, false, specs[0], &in, &err));
        const clirr_algo *al = clirr_algo_find(algos[a]);
        TH_REQUIRE(tc, al, "no %s", algos[a]);
        clirr_intent it;
        clirr_intent_default(al, &it);
        it.reorder = CLIRR_REORDER_DEGREE;
        clirr_plan plan;
        clirr_stats st;
        clirr_prepare_times t1, t2;
        TH_OK(tc, clirr_plan_make(al, &tc->device->caps, &it, in, &plan, &err));
        TH_OK(tc, al->reference(in, &plan, expected, &err));
        TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s1, &err));
        clirr_session_prepare_times(s1, &t1);
        TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s2, &err));
        clirr_session_prepare_times(s2, &t2);
        TH_EXPECT(tc, t1.upload_bytes >= (uint64_t)g.m * 4 && t2.upload_bytes < t1.upload_bytes / 4,
                  "%s: the second session uploaded %llu bytes, the first %llu (the graph has %u arcs)", algos[a],
                  (unsigned long long)t2.upload_bytes, (unsigned long long)t1.upload_bytes, g.m);
        TH_OK(tc, clirr_session_run(s2, got, &st, &err));
        clirr_verify_report rep;
        TH_EXPECT(tc, al->verify(in, &plan, expected, got, &rep), "%s, second session: %s", algos[a], rep.text);
        clirr_session_release(s1);
        clirr_session_release(s2);
        s1 = s2 = NULL;
    }
done:
    clirr_session_release(s1);
    clirr_session_release(s2);
    free(expected);
    free(got);
    clirr_input_free(in);
    clirr_graph_free(&g);
}

TH_REGISTER(register_reorder_tests)
{
    th_add("graph/reorder", layouts, NULL);
    th_add_device("algo/reorder", runs, NULL);
    th_add_device("algo/reorder-auto", auto_layout, NULL);
    th_add_device("algo/reorder-shared", shared_relabelling, NULL);
}
