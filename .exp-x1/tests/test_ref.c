/* tests/test_ref.c - the CPU references against independent brute force
 * (Bellman-Ford for SSSP, repeated relaxation for BFS, all-pairs path
 * counting for BC, dense power iteration for PageRank, a dense matrix for
 * SpMV) on random and hand-made graphs, and the verifiers: each must reject
 * a result with one wrong entry, and its property checks must catch a wrong
 * answer even when the "expected" array is wrong in the same way. */
#include "harness.h"
#include "ref/ref.h"

#include <float.h>
#include <math.h>
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

/* ---- betweenness centrality ---------------------------------------------- */

/* BC by definition: BFS from every vertex counting shortest paths arc by
 * arc (a duplicate arc is a second path), then for every ordered triple
 * s, v, t of distinct vertices with v on a shortest s-t path add
 * sigma(s, v) sigma(v, t) / sigma(s, t). Sources: src[0..ns) or all. */
static bool brute_bc(const clirr_graph *g, const uint32_t *src, uint32_t ns, double *bc)
{
    uint32_t n = g->n;
    int64_t *dist = malloc((size_t)n * n * sizeof *dist);
    double *sigma = malloc((size_t)n * n * sizeof *sigma);
    uint32_t *queue = malloc((size_t)n * sizeof *queue);
    if (!dist || !sigma || !queue) {
        free(dist);
        free(sigma);
        free(queue);
        return false;
    }
    for (uint32_t s = 0; s < n; s++) {
        int64_t *d = dist + (size_t)s * n;
        double *sg = sigma + (size_t)s * n;
        for (uint32_t v = 0; v < n; v++)
            d[v] = -1, sg[v] = 0;
        size_t head = 0, tail = 0;
        d[s] = 0;
        sg[s] = 1;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t u = queue[head++];
            for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
                uint32_t v = g->col[e];
                if (d[v] < 0) {
                    d[v] = d[u] + 1;
                    queue[tail++] = v;
                }
                if (d[v] == d[u] + 1)
                    sg[v] += sg[u];
            }
        }
    }
    for (uint32_t v = 0; v < n; v++)
        bc[v] = 0;
    for (uint32_t i = 0; i < (src ? ns : n); i++) {
        uint32_t s = src ? src[i] : i;
        for (uint32_t t = 0; t < n; t++) {
            int64_t dst = dist[(size_t)s * n + t];
            if (t == s || dst < 0)
                continue;
            for (uint32_t v = 0; v < n; v++) {
                int64_t a = dist[(size_t)s * n + v], b = dist[(size_t)v * n + t];
                if (v != s && v != t && a >= 0 && b >= 0 && a + b == dst)
                    bc[v] += sigma[(size_t)s * n + v] * sigma[(size_t)v * n + t] / sigma[(size_t)s * n + t];
            }
        }
    }
    free(dist);
    free(sigma);
    free(queue);
    return true;
}

static void bc_brute_force(th_case *tc)
{
    /* Dense random graphs hold duplicate arcs and self-loops. */
    static const char *bc_specs[] = {
        "random:n=60,m=240,seed=1", "random:n=40,m=400,seed=2", "random:n=90,m=130,seed=3",
        "rmat:scale=7,ef=6,seed=4", "grid:w=9,h=7",
    };
    clirr_error err;
    clirr_graph g = {0};
    double *want = NULL, *got = NULL;
    clirr_verify_report r;
    for (size_t i = 0; i < sizeof bc_specs / sizeof bc_specs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(bc_specs[i], &g, &err));
        want = malloc(g.n * sizeof *want);
        got = malloc(g.n * sizeof *got);
        TH_REQUIRE(tc, want && got && brute_bc(&g, NULL, 0, want), "out of memory");
        TH_OK(tc, clirr_ref_bc(&g, NULL, 0, got, &err));
        TH_EXPECT(tc, clirr_verify_real("bc", g.n, want, got, 1e-12, 1e-12, &r), "%s: %s", bc_specs[i], r.text);
        double total = 0;
        for (uint32_t v = 0; v < g.n; v++)
            total += want[v];
        TH_EXPECT(tc, total > 0, "%s: no vertex lies between two others", bc_specs[i]);
        clirr_graph_free(&g);
        free(want);
        free(got);
        want = got = NULL;
    }
done:
    clirr_graph_free(&g);
    free(want);
    free(got);
}

static void bc_shapes(th_case *tc)
{
    enum { N = 7 };
    clirr_error err;
    clirr_graph g = {0};
    uint32_t src[2 * N], dst[2 * N];
    double bc[N], want[N];
    clirr_verify_report r;

    /* Directed path 0 -> 1 -> ... -> 6: v lies between v * (N - 1 - v) pairs. */
    for (uint32_t i = 0; i + 1 < N; i++)
        src[i] = i, dst[i] = i + 1;
    TH_OK(tc, clirr_graph_from_arcs(N, N - 1, src, dst, NULL, &g, &err));
    TH_OK(tc, clirr_ref_bc(&g, NULL, 0, bc, &err));
    for (uint32_t v = 0; v < N; v++)
        want[v] = (double)v * (N - 1 - v);
    TH_EXPECT(tc, clirr_verify_real("path bc", N, want, bc, 0, 0, &r), "%s", r.text);
    clirr_graph_free(&g);

    /* Undirected star, center 0: every ordered pair of leaves goes through
     * it, (N - 1)(N - 2) pairs, not halved. */
    for (uint32_t i = 1; i < N; i++) {
        src[2 * i - 2] = 0, dst[2 * i - 2] = i;
        src[2 * i - 1] = i, dst[2 * i - 1] = 0;
    }
    TH_OK(tc, clirr_graph_from_arcs(N, 2 * (N - 1), src, dst, NULL, &g, &err));
    TH_OK(tc, clirr_ref_bc(&g, NULL, 0, bc, &err));
    for (uint32_t v = 0; v < N; v++)
        want[v] = v ? 0 : (double)(N - 1) * (N - 2);
    TH_EXPECT(tc, clirr_verify_real("star bc", N, want, bc, 0, 0, &r), "%s", r.text);
    clirr_graph_free(&g);

    /* 0 -> 1 twice, 1 -> 2, 0 -> 3, 3 -> 2, self-loop 1 -> 1: three
     * shortest 0-2 paths, two through 1 (one per copy of 0 -> 1), one
     * through 3. */
    static const uint32_t ds[] = {0, 0, 1, 0, 3, 1}, dd[] = {1, 1, 2, 3, 2, 1};
    TH_OK(tc, clirr_graph_from_arcs(4, 6, ds, dd, NULL, &g, &err));
    TH_OK(tc, clirr_ref_bc(&g, NULL, 0, bc, &err));
    const double dup[] = {0, 2.0 / 3, 0, 1.0 / 3};
    TH_EXPECT(tc, clirr_verify_real("duplicate-arc bc", 4, dup, bc, 1e-15, 0, &r), "%s", r.text);
    clirr_graph_free(&g);

    /* No vertices, no arcs: nothing to do; a bad source is refused. */
    TH_OK(tc, clirr_graph_from_arcs(0, 0, NULL, NULL, NULL, &g, &err));
    TH_OK(tc, clirr_ref_bc(&g, NULL, 0, bc, &err));
    clirr_graph_free(&g);
    TH_OK(tc, clirr_graph_from_arcs(3, 0, NULL, NULL, NULL, &g, &err));
    TH_OK(tc, clirr_ref_bc(&g, NULL, 0, bc, &err));
    TH_EXPECT(tc, bc[0] == 0 && bc[1] == 0 && bc[2] == 0, "bc without arcs");
    uint32_t bad = 3;
    int rc = clirr_ref_bc(&g, &bad, 1, bc, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "source 3"), "bad source: %s %s",
              clirr_status_name(rc), err.msg);
done:
    clirr_graph_free(&g);
}

/* Path counts beyond the range of double are an error, not inf or NaN:
 * a chain of 1100 diamonds has 2^1100 shortest paths end to end. */
static void bc_overflow(th_case *tc)
{
    enum { D = 1100, N = 3 * D + 1, M = 4 * D };
    clirr_error err;
    clirr_graph g = {0};
    uint32_t *src = malloc(M * sizeof *src), *dst = malloc(M * sizeof *dst);
    double *bc = malloc(N * sizeof *bc);
    TH_REQUIRE(tc, src && dst && bc, "out of memory");
    for (uint32_t i = 0; i < D; i++) {
        uint32_t a = 3 * i, k = 4 * i;
        src[k] = a, dst[k] = a + 1;
        src[k + 1] = a, dst[k + 1] = a + 2;
        src[k + 2] = a + 1, dst[k + 2] = a + 3;
        src[k + 3] = a + 2, dst[k + 3] = a + 3;
    }
    TH_OK(tc, clirr_graph_from_arcs(N, M, src, dst, NULL, &g, &err));
    uint32_t s = 0;
    int rc = clirr_ref_bc(&g, &s, 1, bc, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "range of double"), "overflow: %s %s",
              clirr_status_name(rc), err.msg);
    s = 3 * (D - 1000);
    TH_OK(tc, clirr_ref_bc(&g, &s, 1, bc, &err));
    for (uint32_t v = 0; v < N; v++)
        TH_REQUIRE(tc, isfinite(bc[v]), "bc[%u] = %g", v, bc[v]);
done:
    clirr_graph_free(&g);
    free(src);
    free(dst);
    free(bc);
}

static void bc_sources(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    double *want = NULL, *got = NULL, *sum = NULL;
    clirr_verify_report r;
    /* A subset in no order, with a repeat: the repeat counts twice. */
    static const uint32_t subset[] = {17, 3, 0, 44, 3, 59};
    TH_OK(tc, clirr_graph_generate("random:n=60,m=300,seed=9", &g, &err));
    want = malloc(g.n * sizeof *want);
    got = malloc(g.n * sizeof *got);
    sum = calloc(g.n, sizeof *sum);
    TH_REQUIRE(tc, want && got && sum && brute_bc(&g, subset, 6, want), "out of memory");
    TH_OK(tc, clirr_ref_bc(&g, subset, 6, got, &err));
    TH_EXPECT(tc, clirr_verify_real("subset bc", g.n, want, got, 1e-12, 1e-12, &r), "%s", r.text);
    /* One source at a time adds up to all of them. */
    for (uint32_t s = 0; s < g.n; s++) {
        TH_OK(tc, clirr_ref_bc(&g, &s, 1, got, &err));
        TH_REQUIRE(tc, got[s] == 0, "source %u scores %g for itself", s, got[s]);
        for (uint32_t v = 0; v < g.n; v++)
            sum[v] += got[v];
    }
    TH_OK(tc, clirr_ref_bc(&g, NULL, 0, got, &err));
    TH_EXPECT(tc, clirr_verify_real("per-source bc", g.n, got, sum, 1e-12, 1e-12, &r), "%s", r.text);
    TH_OK(tc, clirr_ref_bc(&g, subset, 0, got, &err));
    for (uint32_t v = 0; v < g.n; v++)
        TH_REQUIRE(tc, got[v] == 0, "no sources, yet bc[%u] = %g", v, got[v]);
done:
    clirr_graph_free(&g);
    free(want);
    free(got);
    free(sum);
}

/* Brandes' algorithm as the paper writes it: BFS with a stack and
 * predecessor lists (an arc given twice makes its tail a predecessor twice),
 * then dependencies popped off the stack. Independent of the reference's
 * successor form, and linear per source, for graphs too large for
 * brute_bc. */
static bool textbook_bc(const clirr_graph *g, const uint32_t *src, uint32_t ns, double *bc)
{
    uint32_t n = g->n;
    int64_t *d = malloc(n * sizeof *d);
    double *sigma = malloc(n * sizeof *sigma), *delta = malloc(n * sizeof *delta);
    uint32_t *queue = malloc(n * sizeof *queue), *pstart = malloc((n + 1) * sizeof *pstart);
    uint32_t *pcount = malloc(n * sizeof *pcount), *pred = malloc((g->m + 1) * sizeof *pred);
    bool ok = d && sigma && delta && queue && pstart && pcount && pred;
    for (uint32_t v = 0; ok && v < n; v++)
        bc[v] = 0;
    /* Predecessor slots: at most the in-degree of each vertex. */
    if (ok) {
        memset(pstart, 0, (n + 1) * sizeof *pstart);
        for (uint32_t k = 0; k < g->m; k++)
            pstart[g->col[k] + 1]++;
        for (uint32_t v = 0; v < n; v++)
            pstart[v + 1] += pstart[v];
    }
    for (uint32_t i = 0; ok && i < ns; i++) {
        for (uint32_t v = 0; v < n; v++)
            d[v] = -1, sigma[v] = 0, delta[v] = 0, pcount[v] = 0;
        size_t head = 0, tail = 0;
        d[src[i]] = 0;
        sigma[src[i]] = 1;
        queue[tail++] = src[i];
        while (head < tail) {
            uint32_t u = queue[head++];
            for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
                uint32_t v = g->col[e];
                if (d[v] < 0) {
                    d[v] = d[u] + 1;
                    queue[tail++] = v;
                }
                if (d[v] == d[u] + 1) {
                    sigma[v] += sigma[u];
                    pred[pstart[v] + pcount[v]++] = u;
                }
            }
        }
        while (tail-- > 0) {
            uint32_t w = queue[tail];
            for (uint32_t k = 0; k < pcount[w]; k++) {
                uint32_t v = pred[pstart[w] + k];
                delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
            }
            if (w != src[i])
                bc[w] += delta[w];
        }
    }
    free(d);
    free(sigma);
    free(delta);
    free(queue);
    free(pstart);
    free(pcount);
    free(pred);
    return ok;
}

/* Levels of thousands of vertices take the reference's sorted path. */
static void bc_large_levels(th_case *tc)
{
    static const char *big[] = {"rmat:scale=14,ef=8,seed=21", "random:n=20000,m=120000,seed=22"};
    clirr_error err;
    clirr_graph g = {0};
    double *want = NULL, *got = NULL;
    clirr_verify_report r;
    for (size_t i = 0; i < 2; i++) {
        TH_OK(tc, clirr_graph_generate(big[i], &g, &err));
        uint32_t src[6], ns = 0;
        for (uint32_t v = 0; v < g.n && ns < 6; v += 997)
            src[ns++] = v;
        want = malloc(g.n * sizeof *want);
        got = malloc(g.n * sizeof *got);
        TH_REQUIRE(tc, want && got && textbook_bc(&g, src, ns, want), "out of memory");
        TH_OK(tc, clirr_ref_bc(&g, src, ns, got, &err));
        TH_EXPECT(tc, clirr_verify_real("bc", g.n, want, got, 1e-11, 1e-11, &r), "%s: %s", big[i], r.text);
        /* The first source alone must have a level of SORT_MIN (4096)
         * vertices or more, or this case tests nothing new. */
        int32_t level[20000];
        uint32_t width[64] = {0}, widest = 0;
        TH_REQUIRE(tc, g.n <= 20000, "graph too large");
        TH_OK(tc, clirr_ref_bfs(&g, src[0], level, &err));
        for (uint32_t v = 0; v < g.n; v++)
            if (level[v] >= 0 && level[v] < 64 && ++width[level[v]] > widest)
                widest = width[level[v]];
        TH_EXPECT(tc, widest >= 4096, "%s: widest level has %u vertices", big[i], widest);
        clirr_graph_free(&g);
        free(want);
        free(got);
        want = got = NULL;
    }
done:
    clirr_graph_free(&g);
    free(want);
    free(got);
}

/* ---- PageRank --------------------------------------------------------------- */

/* The same iteration on a dense matrix of arc counts, written as the
 * formula reads; dangling == false drops the dangling term (a wrong
 * implementation for the verifier to reject). Returns the iterations. */
static uint32_t dense_pagerank(const clirr_graph *g, double d, double tol, uint32_t max_iter,
                               bool dangling, double *r)
{
    uint32_t n = g->n, it = 0;
    double *a = calloc((size_t)n * n, sizeof *a), *next = malloc(n * sizeof *next);
    if (!a || !next) {
        free(a);
        free(next);
        return UINT32_MAX;
    }
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++)
            a[(size_t)g->col[e] * n + u] += 1;
    for (uint32_t v = 0; v < n; v++)
        r[v] = 1.0 / n;
    while (it < max_iter) {
        double dmass = 0, change = 0;
        for (uint32_t u = 0; u < n; u++)
            if (clirr_graph_degree(g, u) == 0)
                dmass += r[u];
        for (uint32_t v = 0; v < n; v++) {
            double in = 0;
            for (uint32_t u = 0; u < n; u++)
                if (a[(size_t)v * n + u] != 0)
                    in += a[(size_t)v * n + u] * r[u] / clirr_graph_degree(g, u);
            next[v] = (1 - d) / n + d * (in + (dangling ? dmass / n : 0));
            change += fabs(next[v] - r[v]);
        }
        memcpy(r, next, n * sizeof *r);
        it++;
        if (change <= tol)
            break;
    }
    free(a);
    free(next);
    return it;
}

static void pagerank_dense(th_case *tc)
{
    /* random:n=50,m=60 leaves many vertices without out-arcs. */
    static const char *pr_specs[] = {"random:n=50,m=60,seed=1", "random:n=80,m=800,seed=2",
                                     "rmat:scale=7,ef=4,seed=3", "grid:w=6,h=5", "random:n=9,m=0"};
    clirr_error err;
    clirr_graph g = {0};
    double *want = NULL, *got = NULL;
    clirr_verify_report r;
    for (size_t i = 0; i < sizeof pr_specs / sizeof pr_specs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(pr_specs[i], &g, &err));
        want = malloc(g.n * sizeof *want);
        got = malloc(g.n * sizeof *got);
        TH_REQUIRE(tc, want && got, "out of memory");
        static const struct {
            double d, tol;
            uint32_t max_iter;
        } runs[] = {{0.85, 1e-10, 1000}, {0.85, 1e-4, 1000}, {0.5, 1e-12, 1000}, {0.85, 0, 7},
                    {1.0, 1e-9, 300}, {0, 1e-9, 100}, {0.85, 1e-9, 0}};
        for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
            uint32_t it = 0, wit = dense_pagerank(&g, runs[k].d, runs[k].tol, runs[k].max_iter, true, want);
            TH_REQUIRE(tc, wit != UINT32_MAX, "out of memory");
            TH_OK(tc, clirr_ref_pagerank(&g, runs[k].d, runs[k].tol, runs[k].max_iter, got, &it, &err));
            TH_EXPECT(tc, it == wit, "%s d=%g tol=%g: %u iterations, dense %u", pr_specs[i], runs[k].d,
                      runs[k].tol, it, wit);
            TH_EXPECT(tc, clirr_verify_real("pagerank", g.n, want, got, 1e-12, 1e-15, &r), "%s d=%g tol=%g: %s",
                      pr_specs[i], runs[k].d, runs[k].tol, r.text);
            double sum = 0;
            for (uint32_t v = 0; v < g.n; v++)
                sum += got[v];
            TH_EXPECT(tc, fabs(sum - 1) < 1e-12, "%s: scores sum to %.17g", pr_specs[i], sum);
            if (runs[k].tol > 0 && runs[k].max_iter == 1000)
                TH_EXPECT(tc, clirr_verify_pagerank(&g, runs[k].d, runs[k].tol, runs[k].max_iter, want, &r),
                          "%s d=%g: %s", pr_specs[i], runs[k].d, r.text);
        }
        /* Without arcs every vertex is dangling and 1/n is the answer at once. */
        if (g.m == 0) {
            uint32_t it = 0;
            TH_OK(tc, clirr_ref_pagerank(&g, 0.85, 1e-9, 100, got, &it, &err));
            TH_EXPECT(tc, it == 1 && fabs(got[0] - 1.0 / g.n) < 1e-16, "no arcs: %u iterations, r[0] = %g", it, got[0]);
        }
        clirr_graph_free(&g);
        free(want);
        free(got);
        want = got = NULL;
    }
    /* Bad arguments. */
    TH_OK(tc, clirr_graph_generate("random:n=4,m=4", &g, &err));
    double tiny[4];
    int rc = clirr_ref_pagerank(&g, 1.5, 1e-6, 10, tiny, NULL, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "damping 1.5 accepted");
    rc = clirr_ref_pagerank(&g, NAN, 1e-6, 10, tiny, NULL, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "damping NaN accepted");
    rc = clirr_ref_pagerank(&g, 0.85, -1, 10, tiny, NULL, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "negative tolerance accepted");
done:
    clirr_graph_free(&g);
    free(want);
    free(got);
}

/* ---- SpMV ------------------------------------------------------------------- */

static void spmv_dense(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    double *a = NULL, *x = NULL, *y = NULL, *want = NULL, *vals = NULL;
    clirr_verify_report r;
    uint64_t seed = 5;
    for (int kind = 0; kind < 3; kind++) { /* values, weights only, unweighted */
        TH_OK(tc, clirr_graph_generate(kind < 2 ? "random:n=70,m=900,seed=4,weights=-9-9"
                                                : "random:n=70,m=900,seed=4", &g, &err));
        uint32_t n = g.n;
        a = calloc((size_t)n * n, sizeof *a);
        x = malloc(n * sizeof *x);
        y = malloc(n * sizeof *y);
        want = malloc(n * sizeof *want);
        vals = malloc(g.m * sizeof *vals);
        TH_REQUIRE(tc, a && x && y && want && vals, "out of memory");
        for (uint32_t k = 0; k < g.m; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            vals[k] = (double)(seed >> 11) / 9007199254740992.0 * 20 - 10;
        }
        if (kind == 0)
            TH_OK(tc, clirr_graph_set_values(&g, vals, &err));
        for (uint32_t i = 0; i < n; i++) {
            x[i] = sin(i + 1.0);
            for (uint32_t k = g.row[i]; k < g.row[i + 1]; k++)
                a[(size_t)i * n + g.col[k]] += kind == 0 ? vals[k] : kind == 1 ? g.weight[k] : 1;
        }
        for (uint32_t i = 0; i < n; i++) {
            want[i] = 0;
            for (uint32_t j = 0; j < n; j++)
                want[i] += a[(size_t)i * n + j] * x[j];
        }
        TH_OK(tc, clirr_ref_spmv(&g, x, y, &err));
        TH_EXPECT(tc, clirr_verify_real("y", n, want, y, 1e-12, 1e-12, &r), "kind %d: %s", kind, r.text);
        clirr_graph_free(&g);
        free(a);
        free(x);
        free(y);
        free(want);
        free(vals);
        a = x = y = want = vals = NULL;
    }
    /* The tiny graph with its duplicate 0->1 (weights 3 and 9): y0 = 12 x1 + x2. */
    static const uint32_t s[] = {0, 0, 0}, t[] = {1, 2, 1};
    static const int32_t w[] = {3, 1, 9};
    const double xx[3] = {100, 2, 5};
    double yy[3];
    TH_OK(tc, clirr_graph_from_arcs(3, 3, s, t, w, &g, &err));
    TH_OK(tc, clirr_ref_spmv(&g, xx, yy, &err));
    TH_EXPECT(tc, yy[0] == 29 && yy[1] == 0 && yy[2] == 0, "tiny spmv: %g %g %g", yy[0], yy[1], yy[2]);
    int rc = clirr_ref_spmv(&g, yy, yy, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "y == x accepted");
done:
    clirr_graph_free(&g);
    free(a);
    free(x);
    free(y);
    free(want);
    free(vals);
}

/* ---- real verifiers ---------------------------------------------------------- */

static void verify_real_can_fail(th_case *tc)
{
    enum { N = 50 };
    double e[N], g[N];
    clirr_verify_report r;
    for (uint32_t i = 0; i < N; i++)
        e[i] = g[i] = (i % 7) * 1.5 - 3 + i * 1e-3;
    TH_EXPECT(tc, clirr_verify_real("x", N, e, g, 0, 0, &r) && r.mismatches == 0, "equal rejected: %s", r.text);
    g[13] = e[13] * (1 + 1e-10);
    TH_EXPECT(tc, clirr_verify_real("x", N, e, g, 1e-9, 0, &r), "within rel_tol rejected: %s", r.text);
    TH_EXPECT(tc, !clirr_verify_real("x", N, e, g, 1e-11, 0, &r) && r.mismatches == 1 &&
                      strstr(r.text, "(13, expected"),
              "beyond rel_tol accepted: %s", r.text);
    g[13] = e[13];
    g[0] = e[0] + 1e-7;
    TH_EXPECT(tc, clirr_verify_real("x", N, e, g, 0, 2e-7, &r), "within abs_tol rejected: %s", r.text);
    TH_EXPECT(tc, !clirr_verify_real("x", N, e, g, 1e-9, 1e-9, &r) && r.mismatches == 1, "beyond abs_tol accepted");
    g[0] = NAN;
    TH_EXPECT(tc, !clirr_verify_real("x", N, e, g, 1, 1, &r) && strstr(r.text, "nan"), "NaN accepted: %s", r.text);
    g[0] = e[0];
    e[5] = g[5] = INFINITY;
    TH_EXPECT(tc, clirr_verify_real("x", N, e, g, 0, 0, &r), "equal infinities rejected: %s", r.text);
    g[5] = -INFINITY;
    TH_EXPECT(tc, !clirr_verify_real("x", N, e, g, 1, 1, &r), "opposite infinities accepted");
    e[5] = 1;
    g[5] = INFINITY;
    TH_EXPECT(tc, !clirr_verify_real("x", N, e, g, 1, 1, &r), "infinity for 1 accepted");
    for (uint32_t i = 0; i < N; i++)
        g[i] = e[i] + 1;
    TH_EXPECT(tc, !clirr_verify_real("x", N, e, g, 0, 0.5, &r) && r.mismatches == N && strstr(r.text, "50 of 50"),
              "all wrong: %s", r.text);
}

/* Run the reference and return its iterations (UINT32_MAX on failure). */
static uint32_t pr(const clirr_graph *g, double d, double tol, uint32_t max_iter, double *rank)
{
    clirr_error err;
    uint32_t it = 0;
    return clirr_ref_pagerank(g, d, tol, max_iter, rank, &it, &err) == CLIRR_OK ? it : UINT32_MAX;
}

static double l1(uint32_t n, const double *a, const double *b)
{
    double s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += fabs(a[i] - b[i]);
    return s;
}

static void verify_pagerank_can_fail(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    double *want = NULL, *got = NULL, *prev = NULL;
    clirr_verify_report r;
    const double tol = 1e-7;
    /* Many dangling vertices (rmat leaves most without out-arcs at ef=2). */
    TH_OK(tc, clirr_graph_generate("rmat:scale=9,ef=2,seed=5", &g, &err));
    uint32_t n = g.n, dangling = 0;
    for (uint32_t u = 0; u < n; u++)
        dangling += clirr_graph_degree(&g, u) == 0;
    TH_REQUIRE(tc, dangling > n / 4, "only %u dangling vertices", dangling);
    want = malloc(n * sizeof *want);
    got = malloc(n * sizeof *got);
    prev = malloc(n * sizeof *prev);
    TH_REQUIRE(tc, want && got && prev, "out of memory");
    uint32_t it = pr(&g, 0.85, tol, 1000, want);
    TH_REQUIRE(tc, it != UINT32_MAX && it < 1000, "reference did not converge");
#define VERIFY(d_, tol_, max_) clirr_verify_pagerank(&g, (d_), (tol_), (max_), got, &r)

    /* A correct result from another summation order passes. */
    TH_REQUIRE(tc, dense_pagerank(&g, 0.85, tol, 1000, true, got) == it, "dense iterations differ");
    TH_EXPECT(tc, VERIFY(0.85, tol, 1000), "correct scores rejected: %s", r.text);

    /* Missing dangling mass. */
    dense_pagerank(&g, 0.85, tol, 1000, false, got);
    TH_EXPECT(tc, !VERIFY(0.85, tol, 1000) && strstr(r.text, "sum"), "lost dangling mass accepted: %s", r.text);
    /* A wrong operator fails at any tolerance: damping 0.8 instead of 0.85,
     * and damping x 0.999 at tol 0.02, which the old distance bound (tol / 2)
     * let through. */
    pr(&g, 0.8, tol, 1000, got);
    TH_EXPECT(tc, !VERIFY(0.85, tol, 1000) && strstr(r.text, "no iterate"), "damping 0.8 accepted: %s", r.text);
    uint32_t loose = pr(&g, 0.85 * 0.999, 0.02, 1000, got);
    pr(&g, 0.85, 0.02, 1000, want);
    TH_REQUIRE(tc, l1(n, want, got) < 0.01, "not the reported case: L1 %g", l1(n, want, got));
    TH_EXPECT(tc, !VERIFY(0.85, 0.02, 1000) && strstr(r.text, "no iterate"),
              "damping x 0.999 at tol 0.02 accepted (%u iterations): %s", loose, r.text);
    pr(&g, 0.85, 0.02, 1000, got);
    TH_EXPECT(tc, VERIFY(0.85, 0.02, 1000), "right scores at tol 0.02 rejected: %s", r.text);
    /* A wrong graph: the scores of the graph without its last arc. */
    clirr_graph cut = g;
    cut.m--;
    uint32_t *row = malloc((n + 1) * sizeof *row);
    TH_REQUIRE(tc, row, "out of memory");
    memcpy(row, g.row, (n + 1) * sizeof *row);
    for (uint32_t v = 0; v <= n; v++)
        row[v] = row[v] > cut.m ? cut.m : row[v];
    cut.row = row;
    pr(&cut, 0.85, tol, 1000, got);
    free(row);
    TH_EXPECT(tc, !VERIFY(0.85, tol, 1000), "scores of another graph accepted: %s", r.text);

    /* One iteration short, after convergence: a step of more than tol was
     * the last one; the residual (d times the next step at most) shows it
     * when that next step is above d * tol. */
    pr(&g, 0.85, tol, it - 1, got);
    pr(&g, 0.85, tol, it - 2, prev);
    double before = l1(n, got, prev);
    TH_REQUIRE(tc, before > tol, "not a case: the step before the last is %g", before);
    TH_EXPECT(tc, !VERIFY(0.85, tol, 1000), "one iteration short accepted (step %g of tol %g): %s", before, tol,
              r.text);
    /* Iterations past the stop converge further and pass (a device that
     * checks convergence late is right, only slower). */
    for (uint32_t extra = 1; extra <= 40; extra += 13) {
        pr(&g, 0.85, 0, it + extra, got);
        TH_EXPECT(tc, VERIFY(0.85, tol, 1000), "%u iterations more rejected: %s", extra, r.text);
    }
    /* When max_iter ends the run, the scores must be that iterate. */
    pr(&g, 0.85, tol, 11, got);
    TH_EXPECT(tc, !VERIFY(0.85, tol, 12), "one short of max_iter accepted: %s",
              r.text);
    pr(&g, 0.85, tol, 13, got);
    TH_EXPECT(tc, !VERIFY(0.85, tol, 12), "one past max_iter accepted: %s", r.text);
    pr(&g, 0.85, tol, 12, got);
    TH_EXPECT(tc, VERIFY(0.85, tol, 12), "same run rejected: %s", r.text);

    /* Properties. */
    got[7] = -got[7];
    TH_EXPECT(tc, !VERIFY(0.85, tol, 12) && strstr(r.text, "vertex 7"), "negative score accepted: %s", r.text);
    got[7] = -got[7];
    got[3] += 0.5;
    TH_EXPECT(tc, !VERIFY(0.85, tol, 12) && strstr(r.text, "sum"), "scores summing to 1.5 accepted: %s", r.text);
    got[3] = NAN;
    TH_EXPECT(tc, !VERIFY(0.85, tol, 12), "NaN accepted: %s", r.text);
    /* Moving mass between two entries by rounding's size passes, by a
     * thousandth of tol fails and names them. */
    pr(&g, 0.85, tol, 12, got);
    got[0] += 8 * n * DBL_EPSILON, got[1] -= 8 * n * DBL_EPSILON;
    TH_EXPECT(tc, VERIFY(0.85, tol, 12), "rounding-sized change rejected: %s", r.text);
    got[0] += 1e-3 * tol, got[1] -= 1e-3 * tol;
    TH_EXPECT(tc, !VERIFY(0.85, tol, 12) && strstr(r.text, "(0: iterate") && strstr(r.text, "(1: iterate"),
              "change of 2e-3 tol in L1 accepted: %s", r.text);
#undef VERIFY
done:
    clirr_graph_free(&g);
    free(want);
    free(got);
    free(prev);
}

TH_REGISTER(register_ref_tests)
{
    th_add("ref/brute-force", against_brute_force, NULL);
    th_add("ref/verifiers-can-fail", verifiers_can_fail, NULL);
    th_add("ref/negative-weight", negative_weight, NULL);
    th_add("ref/bc-brute-force", bc_brute_force, NULL);
    th_add("ref/bc-shapes", bc_shapes, NULL);
    th_add("ref/bc-overflow", bc_overflow, NULL);
    th_add("ref/bc-sources", bc_sources, NULL);
    th_add("ref/bc-large-levels", bc_large_levels, NULL);
    th_add("ref/pagerank-dense", pagerank_dense, NULL);
    th_add("ref/spmv-dense", spmv_dense, NULL);
    th_add("ref/verify-real-can-fail", verify_real_can_fail, NULL);
    th_add("ref/verify-pagerank-can-fail", verify_pagerank_can_fail, NULL);
}
