/* tests/test_ref.c - the CPU references against independent brute force
 * (Bellman-Ford for SSSP, repeated relaxation for BFS) on random graphs,
 * and the verifiers: each must reject a result with one wrong entry, and
 * its property checks must catch a wrong answer even when the "expected"
 * array is wrong in the same way. */
#include "harness.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

/* Bellman-Ford in 64 bits: the slow, obviously correct oracle. */
static void bellman_ford(const clirr_graph *g, uint32_t src, uint64_t *d)
{
    for (uint32_t v = 0; v < g->n; v++)
        d[v] = UINT64_MAX;
    d[src] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t u = 0; u < g->n; u++) {
            if (d[u] == UINT64_MAX)
                continue;
            for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
                uint64_t nd = d[u] + (uint64_t)(g->weight ? g->weight[e] : 1);
                if (nd < d[g->col[e]]) {
                    d[g->col[e]] = nd;
                    changed = true;
                }
            }
        }
    }
}

static const char *specs[] = {
    "random:n=300,m=1500,seed=11,weights=0-20",
    "rmat:scale=8,ef=6,seed=2,weights=1-1000",
    "grid:w=17,h=13,weights=1-4",
    "random:n=200,m=150,seed=4",
};

static void against_brute_force(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    uint64_t *bf = NULL;
    uint32_t *dist = NULL;
    int32_t *level = NULL;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(specs[i], &g, &err));
        bf = malloc(g.n * sizeof *bf);
        dist = malloc(g.n * sizeof *dist);
        level = malloc(g.n * sizeof *level);
        TH_REQUIRE(tc, bf && dist && level, "out of memory");
        for (uint32_t src = 0; src < g.n; src += g.n / 5 + 1) {
            bellman_ford(&g, src, bf);
            TH_OK(tc, clirr_ref_sssp(&g, src, dist, &err));
            for (uint32_t v = 0; v < g.n; v++)
                TH_REQUIRE(tc, (bf[v] == UINT64_MAX ? UINT32_MAX : bf[v]) == dist[v],
                           "%s src %u: sssp(%u) expected %llu got %u", specs[i], src, v,
                           (unsigned long long)bf[v], dist[v]);
            /* BFS levels are SSSP with unit weights. */
            int32_t *saved = g.weight;
            g.weight = NULL;
            bellman_ford(&g, src, bf);
            g.weight = saved;
            TH_OK(tc, clirr_ref_bfs(&g, src, level, &err));
            for (uint32_t v = 0; v < g.n; v++)
                TH_REQUIRE(tc, (bf[v] == UINT64_MAX ? -1 : (int64_t)bf[v]) == level[v],
                           "%s src %u: bfs(%u) expected %lld got %d", specs[i], src, v,
                           bf[v] == UINT64_MAX ? -1LL : (long long)bf[v], level[v]);
        }
        clirr_graph_free(&g);
        free(bf);
        free(dist);
        free(level);
        bf = NULL;
        dist = NULL;
        level = NULL;
    }
done:
    clirr_graph_free(&g);
    free(bf);
    free(dist);
    free(level);
}

static void verifiers_can_fail(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    int32_t *lv = NULL, *lv2 = NULL;
    uint32_t *d = NULL, *d2 = NULL;
    clirr_verify_report r;
    TH_OK(tc, clirr_graph_generate("rmat:scale=9,ef=8,seed=7,weights=1-50", &g, &err));
    lv = malloc(g.n * sizeof *lv);
    lv2 = malloc(g.n * sizeof *lv2);
    d = malloc(g.n * sizeof *d);
    d2 = malloc(g.n * sizeof *d2);
    TH_REQUIRE(tc, lv && lv2 && d && d2, "out of memory");
    TH_OK(tc, clirr_ref_bfs(&g, 0, lv, &err));
    TH_OK(tc, clirr_ref_sssp(&g, 0, d, &err));
    TH_REQUIRE(tc, clirr_verify_bfs(&g, 0, lv, lv, &r), "correct levels rejected: %s", r.text);
    TH_REQUIRE(tc, clirr_verify_sssp(&g, 0, d, d, &r), "correct distances rejected: %s", r.text);

    /* Find a reached vertex other than the source to damage. */
    uint32_t victim = 1;
    while (victim < g.n && lv[victim] <= 0)
        victim++;
    TH_REQUIRE(tc, victim < g.n, "nothing reached from 0");

    memcpy(lv2, lv, g.n * sizeof *lv);
    lv2[victim] += 1;
    TH_EXPECT(tc, !clirr_verify_bfs(&g, 0, lv, lv2, &r) && r.mismatches == 1 && strstr(r.text, "expected"),
              "one wrong level accepted: %s", r.text);
    TH_EXPECT(tc, !clirr_verify_bfs(&g, 0, lv2, lv2, &r), "property check missed a wrong level");
    lv2[victim] = -1;
    TH_EXPECT(tc, !clirr_verify_bfs(&g, 0, lv2, lv2, &r), "property check missed an unreached vertex");

    memcpy(d2, d, g.n * sizeof *d);
    d2[victim] += 1;
    TH_EXPECT(tc, !clirr_verify_sssp(&g, 0, d, d2, &r) && r.mismatches == 1, "one wrong distance accepted");
    TH_EXPECT(tc, !clirr_verify_sssp(&g, 0, d2, d2, &r), "property check missed a too-long distance");
    d2[victim] = d[victim] ? d[victim] - 1 : 0;
    if (d[victim] > 0)
        TH_EXPECT(tc, !clirr_verify_sssp(&g, 0, d2, d2, &r), "property check missed a too-short distance");
done:
    clirr_graph_free(&g);
    free(lv);
    free(lv2);
    free(d);
    free(d2);
}

static void negative_weight(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    uint32_t d[3];
    static const uint32_t s[] = {0, 1}, t[] = {1, 2};
    static const int32_t w[] = {3, -1};
    TH_OK(tc, clirr_graph_from_arcs(3, 2, s, t, w, &g, &err));
    int rc = clirr_ref_sssp(&g, 0, d, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "negative"), "rc %d '%s'", rc, err.msg);
    rc = clirr_ref_bfs(&g, 5, (int32_t *)d, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "bad source accepted");
done:
    clirr_graph_free(&g);
}

void register_ref_tests(void)
{
    th_add("ref/brute-force", against_brute_force, NULL);
    th_add("ref/verifiers-can-fail", verifiers_can_fail, NULL);
    th_add("ref/negative-weight", negative_weight, NULL);
}
