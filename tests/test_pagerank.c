/* tests/test_pagerank.c - PageRank's own cases through the registry's
 * descriptor (clirr_algo_find("pagerank")): the ranges of its parameters
 * (host only); on every device, max-iter cutting the run (tol 0: exactly
 * max-iter iterations, the reference's iterate), damping 0 (1/n after one
 * iteration), dangling and isolated vertices (their mass spread, scores
 * summing to 1), a graph without vertices refused as bad usage, the
 * pull, range and fused variants agreeing with the reference over repeated
 * trials of one session (range and fused alternate their buffers every
 * iteration), and the queued variants stopping where the reference stops,
 * mid-batch too, with the scores of a run cut there by max-iter, and
 * --precision float verified to float's rounding and no further.
 * (Default parameters on every template are in test_algo.c.) */
#include "harness.h"
#include "ref/ref.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Set parameter `name` of a from text. */
static int set_param(const clirr_algo *a, const char *name, const char *text, clirr_params *p,
                     clirr_error *err)
{
    int k = clirr_algo_param(a, name);
    if (k < 0)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s has no parameter %s", a->name, name);
    return clirr_param_set(a, (unsigned)k, text, p, err);
}

static void param_ranges(th_case *tc)
{
    static const struct {
        const char *name, *text;
        bool ok;
    } cases[] = {
        {"damping", "0", true},    {"damping", "1", true},        {"damping", "1.5", false},
        {"damping", "-0.1", false}, {"damping", "x", false},      {"tol", "0", true},
        {"tol", "-1e-9", false},   {"tol", "2", false},           {"max-iter", "1", true},
        {"max-iter", "1000000000", true}, {"max-iter", "0", false}, {"max-iter", "1000000001", false},
        {"max-iter", "2.5", false}, {"max-iter", "-3", false}, {"blocks", "1", true},
        {"blocks", "64", true},    {"blocks", "0", false},       {"blocks", "65", false},
        {"blocks", "-1", false},   {"precision", "float", true}, {"precision", "double", true},
        {"precision", "half", false},
    };
    const clirr_algo *a = clirr_algo_find("pagerank");
    clirr_error err;
    TH_REQUIRE(tc, a, "pagerank is not in the registry");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clirr_params p;
        clirr_params_default(a, &p);
        clirr_error_clear(&err);
        int rc = set_param(a, cases[i].name, cases[i].text, &p, &err);
        if (cases[i].ok)
            TH_EXPECT(tc, rc == CLIRR_OK, "--%s %s refused: %s", cases[i].name, cases[i].text, err.msg);
        else
            TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, cases[i].name),
                      "--%s %s: %s '%s'", cases[i].name, cases[i].text, clirr_status_name(rc), err.msg);
    }
done:;
}

/* Parameters as text; NULL keeps the default. */
typedef struct pr_params {
    const char *damping, *tol, *max_iter;
} pr_params;

/* One PageRank trial of g with parameters pp, checked by the descriptor's
 * reference and verifier; scores and stats of the trial. */
static int pagerank_checked(th_case *tc, const clirr_graph *g, const pr_params *pp, double *rank,
                            clirr_stats *st, clirr_verify_report *r, bool *verified, clirr_error *err)
{
    const clirr_algo *a = clirr_algo_find("pagerank");
    clirr_input *in = NULL;
    double *expected = malloc(((size_t)g->n + 1) * sizeof *expected);
    clirr_intent it;
    clirr_plan plan;
    clirr_intent_default(a, &it);
    int rc = expected ? CLIRR_OK : clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    if (rc == CLIRR_OK && pp->damping)
        rc = set_param(a, "damping", pp->damping, &it.params, err);
    if (rc == CLIRR_OK && pp->tol)
        rc = set_param(a, "tol", pp->tol, &it.params, err);
    if (rc == CLIRR_OK && pp->max_iter)
        rc = set_param(a, "max-iter", pp->max_iter, &it.params, err);
    if (rc == CLIRR_OK)
        rc = clirr_input_from_graph((clirr_graph *)g, false, "graph", &in, err);
    if (rc == CLIRR_OK)
        rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, err);
    if (rc == CLIRR_OK)
        rc = a->reference(in, &plan, expected, err);
    if (rc == CLIRR_OK)
        rc = clirr_algo_run(tc->ctx, a, in, &it, rank, st, err);
    if (rc == CLIRR_OK) {
        memset(r, 0, sizeof *r);
        *verified = a->verify(in, &plan, expected, rank, r);
    }
    clirr_input_free(in);
    free(expected);
    return rc;
}

/* PageRank computes in double precision: skipped on a device without it. */
static bool have_fp64(th_case *tc)
{
    if (!tc->device->caps.fp64)
        th_skip(tc, "%s has no double precision", tc->device->caps.name);
    return tc->device->caps.fp64;
}

/* With tol 0 no iteration is small enough: max-iter stops the run, and the
 * scores are the reference's after as many iterations. */
static void max_iter_cut(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    double *rank = NULL;
    clirr_stats st;
    clirr_verify_report r;
    bool ok = false;
    uint32_t ref_iters = 0;
    if (!have_fp64(tc))
        return;
    TH_OK(tc, clirr_graph_generate("rmat:scale=10,ef=6,seed=12", &g, &err));
    rank = malloc(g.n * sizeof *rank);
    TH_REQUIRE(tc, rank, "out of memory");
    const pr_params pp = {"0.5", "0", "7"};
    TH_OK(tc, pagerank_checked(tc, &g, &pp, rank, &st, &r, &ok, &err));
    TH_REQUIRE(tc, ok, "%s", r.text);
    TH_REQUIRE(tc, st.iterations == 7, "%u iterations, max-iter 7", st.iterations);
    TH_REQUIRE(tc, st.edges_traversed == 7ull * g.m, "%llu arcs traversed in 7 iterations of %llu arcs",
               (unsigned long long)st.edges_traversed, (unsigned long long)g.m);
    TH_OK(tc, clirr_ref_pagerank(&g, 0.5, 0, 7, rank, &ref_iters, &err));
    TH_REQUIRE(tc, ref_iters == 7, "the reference did %u iterations", ref_iters);
done:
    clirr_graph_free(&g);
    free(rank);
}

/* Damping 0: every score is 1/n exactly, and the first change is 0. */
static void damping_zero(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    double *rank = NULL;
    clirr_stats st;
    clirr_verify_report r;
    bool ok = false;
    if (!have_fp64(tc))
        return;
    TH_OK(tc, clirr_graph_generate("random:n=1000,m=5000,seed=3", &g, &err));
    rank = malloc(g.n * sizeof *rank);
    TH_REQUIRE(tc, rank, "out of memory");
    const pr_params pp = {"0", NULL, NULL};
    TH_OK(tc, pagerank_checked(tc, &g, &pp, rank, &st, &r, &ok, &err));
    TH_REQUIRE(tc, ok, "%s", r.text);
    TH_REQUIRE(tc, st.iterations == 1, "%u iterations", st.iterations);
    for (uint32_t v = 0; v < g.n; v++)
        TH_REQUIRE(tc, rank[v] == 1.0 / g.n, "rank[%u] = %.17g, not 1/%u", v, rank[v], g.n);
    /* --tol 0 stops at an exact fixed point (the change is 0 <= 0) rather
     * than running to max-iter. */
    const pr_params exact = {"0", "0", NULL};
    TH_OK(tc, pagerank_checked(tc, &g, &exact, rank, &st, &r, &ok, &err));
    TH_REQUIRE(tc, ok && st.iterations == 1, "tol 0 at a fixed point: %u iterations (%s)", st.iterations, r.text);
done:
    clirr_graph_free(&g);
    free(rank);
}

/* 0 -> 1 -> 2 -> {0, 3}; 3 has no out-arcs, 4 no arcs at all: their mass
 * goes to every vertex, so none is lost, and 4, which no arc reaches, still
 * gets its share (less than 0, which 2 links to). */
static void dangling(th_case *tc)
{
    static const uint32_t src[] = {0, 1, 2, 2}, dst[] = {1, 2, 0, 3};
    clirr_error err;
    clirr_graph g = {0};
    double rank[5];
    clirr_stats st;
    clirr_verify_report r;
    bool ok = false;
    if (!have_fp64(tc))
        return;
    TH_OK(tc, clirr_graph_from_arcs(5, 4, src, dst, NULL, &g, &err));
    const pr_params pp = {NULL, NULL, NULL};
    TH_OK(tc, pagerank_checked(tc, &g, &pp, rank, &st, &r, &ok, &err));
    TH_REQUIRE(tc, ok, "%s", r.text);
    double sum = 0;
    for (int v = 0; v < 5; v++)
        sum += rank[v];
    TH_REQUIRE(tc, sum > 1 - 1e-9 && sum < 1 + 1e-9, "scores sum to %.17g", sum);
    TH_REQUIRE(tc, rank[4] > 0 && rank[4] < rank[0], "isolated %.17g, vertex 0 %.17g", rank[4], rank[0]);
done:
    clirr_graph_free(&g);
}

/* No vertices: no scores to spread 1 over, refused as bad usage. */
static void empty(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("pagerank");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    double rank[1];
    if (!have_fp64(tc))
        return;
    TH_REQUIRE(tc, a, "pagerank is not in the registry");
    TH_OK(tc, clirr_graph_from_arcs(0, 0, NULL, NULL, NULL, &g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, "empty", &in, &err));
    int rc = clirr_algo_run(tc->ctx, a, in, NULL, rank, NULL, &err);
    TH_REQUIRE(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "no vertices"), "%s '%s'", clirr_status_name(rc),
               err.msg);
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

/* pull, range and fused: three trials of one session each verify and take the
 * reference's iteration count (a trial that started from the previous
 * trial's contributions would converge in another count), and every trial
 * gives the same scores; the two variants' scores differ only by the order
 * of their sums. A hub-heavy graph with dangling vertices, so the ranges
 * are uneven and the dangling mass matters. */
static void variants_trials(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("pagerank");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    double *rank = NULL, *first = NULL, *pull = NULL, *expected = NULL;
    uint32_t ref_iters = 0;
    if (!have_fp64(tc))
        return;
    TH_REQUIRE(tc, a, "pagerank is not in the registry");
    TH_OK(tc, clirr_graph_generate("rmat:scale=12,ef=4,seed=5", &g, &err));
    size_t bytes = (size_t)g.n * sizeof(double);
    rank = malloc(bytes), first = malloc(bytes), pull = malloc(bytes), expected = malloc(bytes);
    TH_REQUIRE(tc, rank && first && pull && expected, "out of memory");
    TH_OK(tc, clirr_ref_pagerank(&g, 0.85, 1e-9, 1000, expected, &ref_iters, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, "graph", &in, &err));
    const char *names[] = {"pull", "range", "fused"};
    for (int k = 0; k < 3; k++) {
        clirr_intent it;
        clirr_plan plan;
        clirr_intent_default(a, &it);
        it.variant = clirr_algo_variant(a, names[k]);
        TH_REQUIRE(tc, it.variant >= 0, "pagerank has no variant %s", names[k]);
        TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
        TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
        for (int trial = 0; trial < 3; trial++) {
            clirr_stats st = {0};
            clirr_verify_report r = {0};
            TH_OK(tc, clirr_session_run(s, rank, &st, &err));
            TH_REQUIRE(tc, a->verify(in, &plan, expected, rank, &r), "%s trial %d: %s", names[k], trial, r.text);
            TH_REQUIRE(tc, st.iterations == ref_iters, "%s trial %d: %u iterations, the reference %u", names[k],
                       trial, st.iterations, ref_iters);
            if (trial == 0)
                memcpy(first, rank, bytes);
            TH_REQUIRE(tc, !memcmp(first, rank, bytes), "%s trial %d: other scores than trial 0", names[k], trial);
        }
        clirr_session_release(s);
        s = NULL;
        if (k == 0)
            memcpy(pull, rank, bytes);
        for (uint32_t v = 0; v < g.n; v++)
            TH_REQUIRE(tc, fabs(pull[v] - rank[v]) <= 1e-12, "vertex %u: pull %.17g, %s %.17g", v, pull[v],
                       names[k], rank[v]);
    }
done:
    clirr_session_release(s);
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(rank);
    free(first);
    free(pull);
    free(expected);
}

/* One trial of variant `name` in a session of its own, with the
 * parameters of `params` (name, value as text, ..., NULL): the scores, the
 * iteration count, *blocks_used (when not NULL) the blocks the run
 * reported and *plan (when not NULL) its plan, for the verifier. */
static int run_with(th_case *tc, const clirr_algo *a, const clirr_input *in, const char *name,
                    const char *const *params, double *rank, uint32_t *iterations, uint64_t *blocks_used,
                    clirr_plan *plan_out, clirr_error *err)
{
    clirr_intent it;
    clirr_plan plan;
    clirr_session *s = NULL;
    clirr_stats st = {0};
    clirr_intent_default(a, &it);
    it.variant = clirr_algo_variant(a, name);
    int rc = it.variant < 0 ? clirr_fail(err, CLIRR_ERR_USAGE, "pagerank has no variant %s", name) : CLIRR_OK;
    for (size_t k = 0; rc == CLIRR_OK && params[k]; k += 2)
        rc = set_param(a, params[k], params[k + 1], &it.params, err);
    if (rc == CLIRR_OK)
        rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, err);
    if (rc == CLIRR_OK)
        rc = clirr_session_prepare(tc->ctx, in, &plan, &s, err);
    if (rc == CLIRR_OK)
        rc = clirr_session_run(s, rank, &st, err);
    *iterations = st.iterations;
    if (rc == CLIRR_OK && blocks_used) {
        uint64_t b = th_session_extra_u(s, rank, "blocks");
        *blocks_used = b == UINT64_MAX ? 0 : b;
    }
    if (rc == CLIRR_OK && plan_out)
        *plan_out = plan;
    clirr_session_release(s);
    return rc;
}

/* run_with's trial for tol, max-iter and blocks (NULL: the default). */
static int run_blocks(th_case *tc, const clirr_algo *a, const clirr_input *in, const char *name, const char *tol,
                      const char *max_iter, const char *blocks, double *rank, uint32_t *iterations,
                      uint64_t *blocks_used, clirr_error *err)
{
    const char *params[] = {"tol", tol, "max-iter", max_iter, blocks ? "blocks" : NULL, blocks, NULL};
    return run_with(tc, a, in, name, params, rank, iterations, blocks_used, NULL, err);
}

static int run_variant(th_case *tc, const clirr_algo *a, const clirr_input *in, const char *name, const char *tol,
                       const char *max_iter, double *rank, uint32_t *iterations, clirr_error *err)
{
    return run_blocks(tc, a, in, name, tol, max_iter, NULL, rank, iterations, NULL, err);
}

/* Whether the descriptor's verifier accepts scores `rank` for tol and
 * max-iter (as text); *r says why not. */
static int verify_scores(th_case *tc, const clirr_algo *a, const clirr_input *in, const char *tol,
                         const char *max_iter, const double *expected, const double *rank, bool *ok,
                         clirr_verify_report *r, clirr_error *err)
{
    clirr_intent it;
    clirr_plan plan;
    clirr_intent_default(a, &it);
    memset(r, 0, sizeof *r);
    int rc = set_param(a, "tol", tol, &it.params, err);
    if (rc == CLIRR_OK)
        rc = set_param(a, "max-iter", max_iter, &it.params, err);
    if (rc == CLIRR_OK)
        rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, err);
    *ok = rc == CLIRR_OK && a->verify(in, &plan, expected, rank, r);
    return rc;
}

/* range and fused queue iterations in batches of 8 (pagerank.c's
 * QUEUE_BATCH) and test the step on the device; the launches after the
 * stop must do nothing. For tolerances whose stop falls at several places
 * in a batch (in the first batch, mid-batch, on a batch's end), and for
 * max-iter cutting mid-batch: the run takes the reference's iteration
 * count, verifies, and its scores are bit for bit those of a run of the
 * same variant cut at that count by max-iter with tol 0 (which queues no
 * launch past it). A launch past the stop that still computed would change
 * both. */
static void queued_stop(th_case *tc)
{
    static const char *tols[] = {"1e-2", "1e-3", "1e-4", "1e-6", "1e-9", "1e-12"};
    const clirr_algo *a = clirr_algo_find("pagerank");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    double *rank = NULL, *cut = NULL, *expected = NULL;
    if (!have_fp64(tc))
        return;
    TH_REQUIRE(tc, a, "pagerank is not in the registry");
    /* Hubs and dangling vertices: fused's work-group path and the
     * dangling mass both take part. */
    TH_OK(tc, clirr_graph_generate("rmat:scale=11,ef=8,seed=9", &g, &err));
    size_t bytes = (size_t)g.n * sizeof(double);
    rank = malloc(bytes), cut = malloc(bytes), expected = malloc(bytes);
    TH_REQUIRE(tc, rank && cut && expected, "out of memory");
    TH_OK(tc, clirr_input_from_graph(&g, false, "graph", &in, &err));
    const char *names[] = {"range", "fused"};
    unsigned mid = 0;
    for (size_t t = 0; t <= sizeof tols / sizeof tols[0]; t++) {
        /* The last case: tol 0, max-iter 13 (a stop by max-iter mid-batch). */
        const char *tol = t < sizeof tols / sizeof tols[0] ? tols[t] : "0";
        const char *max_iter = t < sizeof tols / sizeof tols[0] ? "1000" : "13";
        uint32_t ref_iters = 0;
        TH_OK(tc, clirr_ref_pagerank(&g, 0.85, strtod(tol, NULL), (uint32_t)strtoul(max_iter, NULL, 10), expected,
                                     &ref_iters, &err));
        mid += ref_iters % 8 != 0;
        char count[16];
        snprintf(count, sizeof count, "%u", ref_iters);
        for (int k = 0; k < 2; k++) {
            uint32_t iters = 0, cut_iters = 0;
            TH_OK(tc, run_variant(tc, a, in, names[k], tol, max_iter, rank, &iters, &err));
            TH_REQUIRE(tc, iters == ref_iters, "%s, tol %s: %u iterations, the reference %u", names[k], tol, iters,
                       ref_iters);
            clirr_verify_report r;
            bool ok = false;
            TH_OK(tc, verify_scores(tc, a, in, tol, max_iter, expected, rank, &ok, &r, &err));
            TH_REQUIRE(tc, ok, "%s, tol %s: %s", names[k], tol, r.text);
            TH_OK(tc, run_variant(tc, a, in, names[k], "0", count, cut, &cut_iters, &err));
            TH_REQUIRE(tc, cut_iters == ref_iters, "%s, max-iter %s: %u iterations", names[k], count, cut_iters);
            for (uint32_t v = 0; v < g.n; v++)
                TH_REQUIRE(tc, rank[v] == cut[v], "%s, tol %s: vertex %u has %.17g, cut at %u iterations %.17g",
                           names[k], tol, v, rank[v], ref_iters, cut[v]);
        }
    }
    TH_REQUIRE(tc, mid >= 3, "only %u of the cases stop mid-batch", mid);
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(rank);
    free(cut);
    free(expected);
}

/* fused and range in blocks: for several block counts (one block a
 * vertex or two on the last), with hubs (fused's work-group path gathers
 * them whole) and
 * dangling vertices, the run takes the reference's iterations, verifies,
 * reports its blocks, agrees with one block to rounding, and a run
 * stopped by tol mid-batch has bit for bit the scores of a run cut there
 * by max-iter: a block pass after the stop writes into the buffer that
 * holds the result, so one that still computed would change them. */
static void queued_blocks(th_case *tc)
{
    static const char *blocks[] = {"2", "3", "5", "64"};
    static const char *variants[] = {"fused", "range"};
    const clirr_algo *a = clirr_algo_find("pagerank");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    double *rank = NULL, *one = NULL, *cut = NULL, *expected = NULL;
    if (!have_fp64(tc))
        return;
    TH_REQUIRE(tc, a, "pagerank is not in the registry");
    TH_OK(tc, clirr_graph_generate("rmat:scale=7,ef=12,seed=5", &g, &err));
    size_t bytes = (size_t)g.n * sizeof(double);
    rank = malloc(bytes), one = malloc(bytes), cut = malloc(bytes), expected = malloc(bytes);
    TH_REQUIRE(tc, rank && one && cut && expected, "out of memory");
    TH_OK(tc, clirr_input_from_graph(&g, false, "graph", &in, &err));
    uint32_t heavy = 0, dangling = 0, *indeg = calloc(g.n, sizeof *indeg);
    TH_REQUIRE(tc, indeg, "out of memory");
    for (uint64_t k = 0; k < g.m; k++)
        indeg[g.col[k]]++;
    for (uint32_t v = 0; v < g.n; v++) {
        dangling += g.row[v + 1] == g.row[v];
        heavy += indeg[v] > 128; /* pagerank.c's FUSED_HEAVY_DEG */
    }
    free(indeg);
    TH_REQUIRE(tc, heavy > 0 && dangling > 0, "the graph has %u vertices of over 128 in-arcs, %u dangling", heavy,
               dangling);
    uint32_t ref_iters = 0, iters = 0;
    TH_OK(tc, clirr_ref_pagerank(&g, 0.85, 1e-9, 1000, expected, &ref_iters, &err));
    TH_REQUIRE(tc, ref_iters % 8 != 0, "the stop (iteration %u) falls on a batch's end", ref_iters);
    char count[16];
    snprintf(count, sizeof count, "%u", ref_iters);
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        const char *var = variants[k];
        TH_OK(tc, run_blocks(tc, a, in, var, "1e-9", "1000", "1", one, &iters, NULL, &err));
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
            uint64_t used = 0;
            TH_OK(tc, run_blocks(tc, a, in, var, "1e-9", "1000", blocks[b], rank, &iters, &used, &err));
            TH_REQUIRE(tc, used == strtoull(blocks[b], NULL, 10), "%s --blocks %s: the run reports %llu blocks", var,
                       blocks[b], (unsigned long long)used);
            TH_REQUIRE(tc, iters == ref_iters, "%s --blocks %s: %u iterations, the reference %u", var, blocks[b],
                       iters, ref_iters);
            clirr_verify_report r;
            bool ok = false;
            TH_OK(tc, verify_scores(tc, a, in, "1e-9", "1000", expected, rank, &ok, &r, &err));
            TH_REQUIRE(tc, ok, "%s --blocks %s: %s", var, blocks[b], r.text);
            for (uint32_t v = 0; v < g.n; v++)
                TH_REQUIRE(tc, fabs(rank[v] - one[v]) <= 1e-12, "%s --blocks %s: vertex %u has %.17g, one block %.17g",
                           var, blocks[b], v, rank[v], one[v]);
            TH_OK(tc, run_blocks(tc, a, in, var, "0", count, blocks[b], cut, &iters, NULL, &err));
            for (uint32_t v = 0; v < g.n; v++)
                TH_REQUIRE(tc, rank[v] == cut[v], "%s --blocks %s: vertex %u has %.17g, cut at %u iterations %.17g",
                           var, blocks[b], v, rank[v], ref_iters, cut[v]);
        }
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(rank);
    free(one);
    free(cut);
    free(expected);
}

/* --precision float on every variant: the scores verify (to float's
 * rounding), lie further from the double run's than double rounding and
 * within the verifier's float allowance (2^-22 * d / (1 - d) in L1) twice
 * over, one for each run's distance from the iterate; the
 * double verifier refuses them, and the float one refuses them for another
 * damping, so the looser check still catches a wrong operator. */
static void float_contributions(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("pagerank");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    double *single = NULL, *twice = NULL, *expected = NULL;
    if (!have_fp64(tc))
        return;
    TH_REQUIRE(tc, a, "pagerank is not in the registry");
    TH_OK(tc, clirr_graph_generate("rmat:scale=12,ef=4,seed=5", &g, &err));
    size_t bytes = (size_t)g.n * sizeof(double);
    single = malloc(bytes), twice = malloc(bytes), expected = malloc(bytes);
    TH_REQUIRE(tc, single && twice && expected, "out of memory");
    TH_OK(tc, clirr_ref_pagerank(&g, 0.85, 1e-9, 1000, expected, NULL, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, "graph", &in, &err));
    const char *names[] = {"pull", "range", "fused"};
    double bound = 2 * 2 * FLT_EPSILON * 0.85 / 0.15;
    for (int k = 0; k < 3; k++) {
        clirr_verify_report r = {0};
        clirr_plan plan;
        uint32_t iters = 0;
        const char *doubles[] = {"precision", "double", NULL}, *floats[] = {"precision", "float", NULL};
        TH_OK(tc, run_with(tc, a, in, names[k], doubles, twice, &iters, NULL, &plan, &err));
        TH_REQUIRE(tc, a->verify(in, &plan, expected, twice, &r), "%s, double: %s", names[k], r.text);
        TH_OK(tc, run_with(tc, a, in, names[k], floats, single, &iters, NULL, &plan, &err));
        TH_REQUIRE(tc, a->verify(in, &plan, expected, single, &r), "%s, float: %s", names[k], r.text);
        double dist = 0;
        for (uint32_t v = 0; v < g.n; v++)
            dist += fabs(single[v] - twice[v]);
        TH_REQUIRE(tc, dist > 100.0 * g.n * DBL_EPSILON && dist <= bound,
                   "%s: float and double scores %.3g apart in L1 (expected above double rounding %.3g, at most "
                   "%.3g)", names[k], dist, 100.0 * g.n * DBL_EPSILON, bound);
        TH_REQUIRE(tc, !clirr_verify_pagerank(&g, 0.85, 1e-9, 1000, single, &r),
                   "%s: the double verifier accepts float scores", names[k]);
        TH_REQUIRE(tc, !clirr_verify_pagerank_as(&g, 0.8, 1e-9, 1000, true, single, &r),
                   "%s: float scores of damping 0.85 verify as damping 0.8", names[k]);
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(single);
    free(twice);
    free(expected);
}

TH_REGISTER(register_pagerank_tests)
{
    th_add_device("pagerank/float", float_contributions, NULL);
    th_add_device("pagerank/blocks", queued_blocks, NULL);
    th_add("pagerank/param-ranges", param_ranges, NULL);
    th_add_device("pagerank/max-iter", max_iter_cut, NULL);
    th_add_device("pagerank/damping-zero", damping_zero, NULL);
    th_add_device("pagerank/dangling", dangling, NULL);
    th_add_device("pagerank/empty", empty, NULL);
    th_add_device("pagerank/variants-trials", variants_trials, NULL);
    th_add_device("pagerank/queued-stop", queued_stop, NULL);
}
