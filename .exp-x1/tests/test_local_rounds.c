/* tests/test_local_rounds.c - many data-driven rounds in one work-group
 * (cl/templates/local_rounds.clh, --local-rounds) for BFS, SSSP and CC's
 * label propagation on every device: high-diameter inputs (a 5000-level path, a 1000x10 grid) through
 * the local path, the wide path and their switch both ways (a grid whose
 * frontier outgrows a small threshold and shrinks back, an rmat graph whose
 * hubs the work-group expands together), and a worklist too small to hold
 * every vertex, which keeps to the wide path. Each result is verified
 * against the reference, and the round count must equal the wide path's:
 * an early exit never skips a round that had work. */
#include "harness.h"
#include "ref/cc.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

typedef struct lr_input {
    const char *spec;
    uint32_t source;
} lr_input;

static const lr_input inputs[] = {
    {"grid:w=5000,h=1", 0},                  /* a path: 5000 levels, > 1024 rounds a launch */
    {"grid:w=1000,h=10,weights=1-100", 0},   /* SSSP pushes vertices again and again */
    {"grid:w=60,h=60", 0},                   /* a frontier from 1 to 60 and back */
    {"rmat:scale=11,ef=8,seed=3,weights=1-50", 0}, /* hubs in a small worklist */
};

/* Thresholds: off (the wide path alone), 8 (both paths and the switch),
 * auto (the device's). */
static const int64_t thresholds[] = {0, 8, -1};

static int run(clirr_ctx *ctx, const clirr_algo *a, clirr_input *in, uint32_t source, int64_t local,
               size_t capacity, void *result, clirr_stats *st, clirr_error *err)
{
    clirr_intent it;
    clirr_intent_default(a, &it);
    it.variant = clirr_algo_variant(a, "data");
    it.source.rule = CLIRR_SOURCE_VERTEX;
    it.source.vertex = source;
    it.source_given = true;
    it.local_rounds = local;
    it.wl_capacity = capacity;
    memset(st, 0, sizeof *st);
    return clirr_algo_run(ctx, a, in, &it, result, st, err);
}

static void local_rounds(th_case *tc)
{
    static const char *const algos[] = {"bfs", "sssp", "cc"};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    uint32_t *want = NULL, *got = NULL;
    uint64_t cc_local = 0;
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(inputs[i].spec, &g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, inputs[i].spec, &in, &err));
        want = malloc(g.n * sizeof *want);
        got = malloc(g.n * sizeof *got);
        TH_REQUIRE(tc, want && got, "out of memory");
        for (size_t k = 0; k < 3; k++) {
            const clirr_algo *a = clirr_algo_find(algos[k]);
            TH_REQUIRE(tc, a, "%s is not in the registry", algos[k]);
            bool bfs = k == 0;
            bool cc = k == 2;
            if (bfs)
                TH_OK(tc, clirr_ref_bfs(&g, inputs[i].source, (int32_t *)want, &err));
            else if (cc)
                TH_OK(tc, clirr_ref_cc(&g, want, &err));
            else
                TH_OK(tc, clirr_ref_sssp(&g, inputs[i].source, want, &err));
            uint32_t wide_rounds = 0;
            for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++) {
                clirr_stats st;
                clirr_verify_report r;
                TH_OK(tc, run(tc->ctx, a, in, inputs[i].source, thresholds[t], 0, got, &st, &err));
                bool ok = bfs  ? clirr_verify_bfs(&g, inputs[i].source, (int32_t *)want, (int32_t *)got, &r)
                          : cc ? clirr_verify_cc(&g, want, got, &r)
                               : clirr_verify_sssp(&g, inputs[i].source, want, got, &r);
                TH_EXPECT(tc, ok, "%s on %s, --local-rounds %lld: %s", algos[k], inputs[i].spec,
                          (long long)thresholds[t], r.text);
                if (thresholds[t] == 0) {
                    wide_rounds = st.iterations;
                    TH_EXPECT(tc, st.local_rounds == 0 && st.local_launches == 0,
                              "%s on %s: --local-rounds off ran %u local rounds", algos[k], inputs[i].spec,
                              st.local_rounds);
                    continue;
                }
                /* BFS's rounds are its levels, whichever path runs them. */
                if (bfs)
                    TH_EXPECT(tc, st.iterations == wide_rounds, "bfs on %s, --local-rounds %lld: %u rounds, wide %u",
                              inputs[i].spec, (long long)thresholds[t], st.iterations, wide_rounds);
                /* CC starts from every vertex, and how far labels run in
                 * one round depends on the device's order: counted over
                 * all inputs below. */
                cc_local += cc ? st.local_rounds : 0;
                TH_EXPECT(tc, (cc || st.local_rounds > 0) && st.local_rounds <= st.iterations,
                          "%s on %s, --local-rounds %lld: %u local rounds of %u", algos[k], inputs[i].spec,
                          (long long)thresholds[t], st.local_rounds, st.iterations);
                if (!cc && i == 0 && thresholds[t] < 0)
                    TH_EXPECT(tc, st.local_launches >= 5 && st.local_rounds == st.iterations,
                              "%s on the path: %u launches for %u rounds (1024 at most each)", algos[k],
                              st.local_launches, st.local_rounds);
                if (!cc && i == 2 && thresholds[t] == 8)
                    TH_EXPECT(tc, st.local_rounds < st.iterations && st.local_launches >= 2,
                              "%s on the 60x60 grid with 8: %u local rounds in %u launches of %u rounds: "
                              "no switch both ways",
                              algos[k], st.local_rounds, st.local_launches, st.iterations);
            }
            /* A worklist that cannot hold every vertex grows on demand and
             * never runs local rounds (their spills need room for all);
             * CC's first worklist is every vertex, which grows it to n. */
            clirr_stats st;
            clirr_verify_report r;
            TH_OK(tc, run(tc->ctx, a, in, inputs[i].source, -1, 4, got, &st, &err));
            bool ok = bfs  ? clirr_verify_bfs(&g, inputs[i].source, (int32_t *)want, (int32_t *)got, &r)
                      : cc ? clirr_verify_cc(&g, want, got, &r)
                           : clirr_verify_sssp(&g, inputs[i].source, want, got, &r);
            TH_EXPECT(tc, ok && (cc || st.local_rounds == 0), "%s on %s, capacity 4: %u local rounds, %s", algos[k],
                      inputs[i].spec, st.local_rounds, ok ? "verified" : r.text);
        }
        clirr_input_free(in);
        in = NULL;
        clirr_graph_free(&g);
        free(want);
        free(got);
        want = got = NULL;
    }
    TH_EXPECT(tc, cc_local > 0, "cc's label propagation never ran a local round");
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(want);
    free(got);
}

/* The extra named `name` of a prepared session's last trial. */
static uint64_t extra(clirr_session *s, const void *result, const char *name)
{
    clirr_extras x;
    memset(&x, 0, sizeof x);
    clirr_session_extras(s, result, &x);
    for (size_t i = 0; i < x.n; i++)
        if (!strcmp(x.e[i].name, name))
            return x.e[i].u;
    return UINT64_MAX;
}

/* Direction-optimizing BFS: a random graph switches to bottom-up, a
 * directed rmat graph to bottom-up and back for its tail, a path never
 * does, a graph with unreachable parts keeps them unreached; every result
 * equals the reference, with local rounds on and off. */
static void direction_optimizing(th_case *tc)
{
    static const struct {
        const char *spec;
        unsigned switches;
    } cases[] = {{"random:n=20000,m=200000,seed=5", 1}, {"rmat:scale=13,ef=16,seed=2", 2},
                 {"grid:w=2000,h=1", 0}, {"random:n=5000,m=6000,seed=7", 0}};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *sess = NULL;
    int32_t *want = NULL, *got = NULL;
    const clirr_algo *a = clirr_algo_find("bfs");
    TH_REQUIRE(tc, a, "bfs is not in the registry");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TH_OK(tc, clirr_graph_generate(cases[i].spec, &g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, cases[i].spec, &in, &err));
        want = malloc(g.n * sizeof *want);
        got = malloc(g.n * sizeof *got);
        TH_REQUIRE(tc, want && got, "out of memory");
        uint32_t source = 0;
        while (source + 1 < g.n && clirr_graph_degree(&g, source) == 0)
            source++;
        TH_OK(tc, clirr_ref_bfs(&g, source, want, &err));
        for (int local = 0; local < 2; local++) {
            clirr_intent it;
            clirr_intent_default(a, &it);
            it.variant = clirr_algo_variant(a, "do");
            it.source.rule = CLIRR_SOURCE_VERTEX;
            it.source.vertex = source;
            it.source_given = true;
            it.local_rounds = local ? -1 : 0;
            clirr_plan plan;
            clirr_stats st;
            memset(&st, 0, sizeof st);
            TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
            TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &sess, &err));
            TH_OK(tc, clirr_session_run(sess, got, &st, &err));
            clirr_verify_report r;
            TH_EXPECT(tc, clirr_verify_bfs(&g, source, want, got, &r), "%s, local rounds %s: %s", cases[i].spec,
                      local ? "auto" : "off", r.text);
            uint64_t bottom = extra(sess, got, "bottom_up_rounds"), switches = extra(sess, got, "direction_switches");
            if (cases[i].switches)
                TH_EXPECT(tc, bottom > 0 && switches >= cases[i].switches, "%s: %llu bottom-up rounds, %llu switches",
                          cases[i].spec, (unsigned long long)bottom, (unsigned long long)switches);
            else
                TH_EXPECT(tc, bottom == 0, "%s: %llu bottom-up rounds", cases[i].spec, (unsigned long long)bottom);
            clirr_session_release(sess);
            sess = NULL;
        }
        clirr_input_free(in);
        in = NULL;
        clirr_graph_free(&g);
        free(want);
        free(got);
        want = got = NULL;
    }
done:
    clirr_session_release(sess);
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(want);
    free(got);
}

TH_REGISTER(register_local_rounds_tests)
{
    th_add_device("rounds/local", local_rounds, NULL);
    th_add_device("bfs/direction-optimizing", direction_optimizing, NULL);
}
