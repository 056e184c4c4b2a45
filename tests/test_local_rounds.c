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

static void intent(const clirr_algo *a, uint32_t source, int64_t local, int64_t queue, size_t capacity,
                   clirr_intent *it)
{
    clirr_intent_default(a, it);
    it->variant = clirr_algo_variant(a, "data");
    it->source.rule = CLIRR_SOURCE_VERTEX;
    it->source.vertex = source;
    it->source_given = true;
    it->local_rounds = local;
    it->queue_rounds = queue;
    it->wl_capacity = capacity;
}

/* Local rounds below, one round a launch (no queued rounds) otherwise. */
static int run(clirr_ctx *ctx, const clirr_algo *a, clirr_input *in, uint32_t source, int64_t local,
               size_t capacity, void *result, clirr_stats *st, clirr_error *err)
{
    clirr_intent it;
    intent(a, source, local, 0, capacity, &it);
    memset(st, 0, sizeof *st);
    return clirr_algo_run(ctx, a, in, &it, result, st, err);
}

/* The reference of algos[algo] (bfs, sssp, cc). */
static int reference(int algo, const clirr_graph *g, uint32_t source, uint32_t *want, clirr_error *err)
{
    return algo == 0   ? clirr_ref_bfs(g, source, (int32_t *)want, err)
           : algo == 2 ? clirr_ref_cc(g, want, err)
                       : clirr_ref_sssp(g, source, want, err);
}

/* Graph spec as an input, with result buffers for its vertices. */
static int load(const char *spec, clirr_graph *g, clirr_input **in, uint32_t **want, uint32_t **got,
                clirr_error *err)
{
    int rc = clirr_graph_generate(spec, g, err);
    if (rc == CLIRR_OK)
        rc = clirr_input_from_graph(g, false, spec, in, err);
    if (rc != CLIRR_OK)
        return rc;
    *want = malloc(g->n * sizeof **want);
    *got = malloc(g->n * sizeof **got);
    return *want && *got ? CLIRR_OK : clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
}

static void unload(clirr_graph *g, clirr_input **in, uint32_t **want, uint32_t **got)
{
    clirr_input_free(*in);
    *in = NULL;
    clirr_graph_free(g);
    free(*want);
    free(*got);
    *want = *got = NULL;
}

static bool verify(const clirr_graph *g, int algo, uint32_t source, const uint32_t *want, const uint32_t *got,
                   clirr_verify_report *r)
{
    return algo == 0   ? clirr_verify_bfs(g, source, (const int32_t *)want, (const int32_t *)got, r)
           : algo == 2 ? clirr_verify_cc(g, want, got, r)
                       : clirr_verify_sssp(g, source, want, got, r);
}

/* The vertex count of BFS's most populous level. */
static uint64_t largest_level(const int32_t *level, uint32_t n)
{
    uint32_t *count = calloc((size_t)n + 1, sizeof *count);
    uint64_t most = 0;
    for (uint32_t v = 0; count && v < n; v++)
        if (level[v] >= 0 && (uint32_t)level[v] < n && ++count[level[v]] > most)
            most = count[level[v]];
    free(count);
    return count ? most : UINT64_MAX;
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
        TH_OK(tc, load(inputs[i].spec, &g, &in, &want, &got, &err));
        for (size_t k = 0; k < 3; k++) {
            const clirr_algo *a = clirr_algo_find(algos[k]);
            TH_REQUIRE(tc, a, "%s is not in the registry", algos[k]);
            bool bfs = k == 0;
            bool cc = k == 2;
            TH_OK(tc, reference((int)k, &g, inputs[i].source, want, &err));
            uint32_t wide_rounds = 0;
            for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++) {
                clirr_stats st;
                clirr_verify_report r;
                TH_OK(tc, run(tc->ctx, a, in, inputs[i].source, thresholds[t], 0, got, &st, &err));
                bool ok = verify(&g, (int)k, inputs[i].source, want, got, &r);
                TH_EXPECT(tc, ok, "%s on %s, --local-rounds %lld: %s", algos[k], inputs[i].spec,
                          (long long)thresholds[t], r.text);
                if (thresholds[t] == 0) {
                    wide_rounds = st.iterations;
                    TH_EXPECT(tc, st.local_rounds == 0 && st.local_launches == 0,
                              "%s on %s: --local-rounds off ran %u local rounds", algos[k], inputs[i].spec,
                              st.local_rounds);
                    continue;
                }
                /* BFS's rounds are its levels, whichever path runs them,
                 * and a worklist holds a level's vertices once each. */
                if (bfs) {
                    TH_EXPECT(tc, st.iterations == wide_rounds, "bfs on %s, --local-rounds %lld: %u rounds, wide %u",
                              inputs[i].spec, (long long)thresholds[t], st.iterations, wide_rounds);
                    uint64_t widest = largest_level((const int32_t *)want, g.n);
                    TH_EXPECT(tc, st.wl_max <= widest, "bfs on %s, --local-rounds %lld: a worklist of %llu items, the "
                              "widest level has %llu", inputs[i].spec, (long long)thresholds[t],
                              (unsigned long long)st.wl_max, (unsigned long long)widest);
                }
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
            bool ok = verify(&g, (int)k, inputs[i].source, want, got, &r);
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

/* The most vertices on one BFS level. */
static uint32_t widest_level(const int32_t *level, uint32_t n)
{
    uint32_t most = 0, *count = calloc(n + 1, sizeof *count);
    for (uint32_t v = 0; count && v < n; v++)
        if (level[v] >= 0 && ++count[level[v]] > most)
            most = count[level[v]];
    free(count);
    return most;
}

/* The largest worklist a queued round runs on under --push auto
 * (host/algo/round.c): the device's resident work-items, and below the
 * rounds the policy places with a compaction (1/256 of the vertices). */
static uint32_t queue_limit(const clirr_caps *caps, uint32_t n)
{
    uint64_t resident = (uint64_t)caps->compute_units * caps->max_wg_size, small = n ? (n - 1) / 256 : 0;
    return (uint32_t)(resident < small ? resident : small);
}

/* Rounds queued ahead (--queue-rounds) for BFS, SSSP and CC's label
 * propagation: batches of 1, 3 and 16 rounds alone and after local rounds
 * (8 items), on the path (every batch ends mid-way at the end), the
 * grid, and an rmat graph whose worklist outgrows what a queued round
 * takes inside a batch. Verified; BFS's rounds equal the one-round-a-
 * launch path's (no round with work skipped, none counted twice); queued
 * rounds ran wherever the plan queues them. */
static void queued_rounds(th_case *tc)
{
    static const char *const algos[] = {"bfs", "sssp", "cc"};
    static const lr_input qinputs[] = {{"grid:w=5000,h=1", 0},
                                       {"grid:w=1000,h=10,weights=1-100", 0},
                                       {"rmat:scale=14,ef=8,seed=3,weights=1-50", 0}};
    static const struct {
        int64_t local, queue;
    } modes[] = {{0, 0}, {0, 1}, {0, 3}, {0, 16}, {8, 3}};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    uint32_t *want = NULL, *got = NULL;
    for (size_t i = 0; i < sizeof qinputs / sizeof qinputs[0]; i++) {
        TH_OK(tc, load(qinputs[i].spec, &g, &in, &want, &got, &err));
        for (int k = 0; k < 3; k++) {
            const clirr_algo *a = clirr_algo_find(algos[k]);
            TH_REQUIRE(tc, a, "%s is not in the registry", algos[k]);
            TH_OK(tc, reference(k, &g, qinputs[i].source, want, &err));
            uint32_t one_a_launch = 0;
            for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
                clirr_intent it;
                clirr_plan plan;
                clirr_stats st;
                clirr_verify_report r;
                intent(a, qinputs[i].source, modes[m].local, modes[m].queue, 0, &it);
                TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
                memset(&st, 0, sizeof st);
                TH_OK(tc, clirr_algo_run(tc->ctx, a, in, &it, got, &st, &err));
                TH_EXPECT(tc, verify(&g, k, qinputs[i].source, want, got, &r), "%s on %s, local %lld, queue %lld: %s",
                          algos[k], qinputs[i].spec, (long long)modes[m].local, (long long)modes[m].queue, r.text);
                if (m == 0) {
                    one_a_launch = st.iterations;
                    TH_EXPECT(tc, st.queued_rounds == 0, "%s: --queue-rounds off queued %u rounds", algos[k],
                              st.queued_rounds);
                    continue;
                }
                if (k == 0)
                    TH_EXPECT(tc, st.iterations == one_a_launch, "bfs on %s, local %lld, queue %lld: %u rounds, %u "
                              "one a launch", qinputs[i].spec, (long long)modes[m].local, (long long)modes[m].queue,
                              st.iterations, one_a_launch);
                /* A BFS level larger than what a queued round takes stops
                 * the batch: that level runs wide. */
                if (k == 0 && widest_level((const int32_t *)want, g.n) > queue_limit(&tc->device->caps, g.n))
                    TH_EXPECT(tc, st.queued_rounds < st.iterations, "bfs on %s, queue %lld: all %u rounds queued, "
                              "a level of %u past the limit %u", qinputs[i].spec, (long long)modes[m].queue,
                              st.iterations, widest_level((const int32_t *)want, g.n),
                              queue_limit(&tc->device->caps, g.n));
                TH_EXPECT(tc, st.queued_rounds <= st.iterations && st.queued_batches <= st.queued_rounds,
                          "%s on %s: %u queued rounds in %u batches of %u rounds", algos[k], qinputs[i].spec,
                          st.queued_rounds, st.queued_batches, st.iterations);
                /* CC's first worklist is every vertex, past the queue's
                 * threshold on big devices; BFS and SSSP start from one
                 * (and under local rounds the path never leaves them). */
                if (k != 2 && modes[m].local == 0)
                    TH_EXPECT(tc, (st.queued_rounds > 0) == (plan.queue_rounds > 0),
                              "%s on %s, queue %lld: %u queued rounds, plan %u (%s)", algos[k], qinputs[i].spec,
                              (long long)modes[m].queue, st.queued_rounds, plan.queue_rounds,
                              plan.queue_rounds_reason);
            }
        }
        unload(&g, &in, &want, &got);
    }
done:
    unload(&g, &in, &want, &got);
    unsetenv("CLIRR_LOCAL_PHASES"); /* a device's cases share its process */
}

/* Direction-optimizing BFS, do and do-bit: a random graph switches to
 * bottom-up, a directed rmat graph to bottom-up and back for its tail, a
 * path never does, a graph with unreachable parts keeps them unreached, a
 * vertex count off a multiple of 32 ends the bitmaps mid-word; every
 * result equals the reference, with local rounds on and off, in two trials
 * of one session. */
static void direction_optimizing(th_case *tc)
{
    static const struct {
        const char *spec;
        unsigned switches;
    } cases[] = {{"random:n=20000,m=200000,seed=5", 1}, {"rmat:scale=13,ef=16,seed=2", 2},
                 {"grid:w=2000,h=1", 0}, {"random:n=5000,m=6000,seed=7", 0},
                 {"random:n=20011,m=200000,seed=6", 1}};
    static const char *const variants[] = {"do", "do-bit"};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *sess = NULL;
    uint32_t *want = NULL, *got = NULL;
    const clirr_algo *a = clirr_algo_find("bfs");
    TH_REQUIRE(tc, a, "bfs is not in the registry");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TH_OK(tc, load(cases[i].spec, &g, &in, &want, &got, &err));
        uint32_t source = 0;
        while (source + 1 < g.n && clirr_graph_degree(&g, source) == 0)
            source++;
        TH_OK(tc, reference(0, &g, source, want, &err));
        for (int vk = 0; vk < 4; vk++) {
            int local = vk & 1;
            const char *vname = variants[vk >> 1];
            clirr_intent it;
            clirr_intent_default(a, &it);
            it.variant = clirr_algo_variant(a, vname);
            it.source.rule = CLIRR_SOURCE_VERTEX;
            it.source.vertex = source;
            it.source_given = true;
            it.local_rounds = local ? -1 : 0;
            clirr_plan plan;
            clirr_stats st;
            memset(&st, 0, sizeof st);
            TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
            TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &sess, &err));
            /* two trials of one session: the second starts from the first's bitmaps */
            for (int trial = 0; trial < 2; trial++) {
                clirr_verify_report r;
                memset(got, 0xa5, (size_t)g.n * sizeof *got);
                TH_OK(tc, clirr_session_run(sess, got, &st, &err));
                TH_EXPECT(tc, verify(&g, 0, source, want, got, &r), "%s, %s, local rounds %s, trial %d: %s",
                          cases[i].spec, vname, local ? "auto" : "off", trial, r.text);
            }
            uint64_t bottom = th_session_extra_u(sess, got, "bottom_up_rounds"),
                     switches = th_session_extra_u(sess, got, "direction_switches");
            if (cases[i].switches)
                TH_EXPECT(tc, bottom > 0 && switches >= cases[i].switches, "%s: %llu bottom-up rounds, %llu switches",
                          cases[i].spec, (unsigned long long)bottom, (unsigned long long)switches);
            else
                TH_EXPECT(tc, bottom == 0, "%s: %llu bottom-up rounds", cases[i].spec, (unsigned long long)bottom);
            clirr_session_release(sess);
            sess = NULL;
        }
        unload(&g, &in, &want, &got);
    }
done:
    clirr_session_release(sess);
    unload(&g, &in, &want, &got);
}

/* The temporal hybrid of BFS and SSSP (--variant hybrid --hybrid F):
 * every round topology-driven at F = 0, none at F = 1.2 (above every
 * worklist), and both ways on a grid whose worklist grows past F n and
 * shrinks back; with local and queued rounds off and on (they must stop
 * below F n). Each result verified; BFS's rounds counted once each (as
 * many as levels). */
static void temporal_hybrid(th_case *tc)
{
    static const char *const specs[] = {"grid:w=60,h=60,weights=1-100", "rmat:scale=13,ef=16,seed=2,weights=1-20",
                                        "random:n=20000,m=200000,seed=5"};
    static const char *const fractions[] = {"0", "0.005", "0.05", "1.2"};
    static const char *const topo_names[] = {"topology_rounds", "topology_sweeps"};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *sess = NULL;
    uint32_t *want = NULL, *got = NULL;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, load(specs[i], &g, &in, &want, &got, &err));
        uint32_t source = 0;
        while (source + 1 < g.n && clirr_graph_degree(&g, source) == 0)
            source++;
        for (int algo = 0; algo < 2; algo++) {
            const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
            TH_REQUIRE(tc, a, "bfs or sssp is not in the registry");
            TH_OK(tc, reference(algo, &g, source, want, &err));
            uint32_t levels = 0;
            for (uint32_t v = 0; v < g.n && !algo; v++)
                if ((int32_t)want[v] >= 0 && want[v] + 1 > levels)
                    levels = want[v] + 1;
            for (size_t f = 0; f < sizeof fractions / sizeof fractions[0]; f++)
                for (int many = 0; many < 2; many++) {
                    clirr_intent it;
                    intent(a, source, many ? -1 : 0, many ? 4 : 0, 0, &it);
                    it.variant = clirr_algo_variant(a, "hybrid");
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "hybrid"), fractions[f], &it.params,
                                              &err));
                    clirr_plan plan;
                    clirr_stats st;
                    memset(&st, 0, sizeof st);
                    TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
                    TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &sess, &err));
                    TH_OK(tc, clirr_session_run(sess, got, &st, &err));
                    clirr_verify_report r;
                    TH_EXPECT(tc, verify(&g, algo, source, want, got, &r), "%s %s, F %s, %s: %s", a->name, specs[i],
                              fractions[f], many ? "local and queued rounds" : "one round a launch", r.text);
                    uint64_t topo = th_session_extra_u(sess, got, topo_names[algo]),
                             switches = th_session_extra_u(sess, got, "switches");
                    if (!algo)
                        TH_EXPECT(tc, st.iterations == levels, "bfs %s, F %s: %u rounds for %u levels", specs[i],
                                  fractions[f], st.iterations, levels);
                    if (f == 0)
                        TH_EXPECT(tc, topo == st.iterations && switches == 1,
                                  "%s %s, F 0: %llu of %u rounds topology-driven, %llu switches", a->name, specs[i],
                                  (unsigned long long)topo, st.iterations, (unsigned long long)switches);
                    if (f == 3)
                        TH_EXPECT(tc, topo == 0 && switches == 0, "%s %s, F 1.2: %llu topology-driven rounds",
                                  a->name, specs[i], (unsigned long long)topo);
                    if (i == 0 && f == 1)
                        TH_EXPECT(tc, topo > 0 && topo < st.iterations && switches >= 2,
                                  "%s grid, F 0.005: %llu of %u rounds topology-driven, %llu switches", a->name,
                                  (unsigned long long)topo, st.iterations, (unsigned long long)switches);
                    clirr_session_release(sess);
                    sess = NULL;
                }
        }
        unload(&g, &in, &want, &got);
    }
done:
    clirr_session_release(sess);
    unload(&g, &in, &want, &got);
}

/* Per-round traces (intent.trace, --trace): one row a round for every
 * BFS and SSSP variant that runs rounds, whatever its rounds' kind; a data
 * round's output is the next data round's input (unless empty: near-far's
 * next phase starts from its far pile); the rows' kernel time
 * is part of the trial's; a BFS data run's rows relax every reached
 * vertex's arcs once (the run's edges_traversed); local and queued rounds
 * are off, with the plan's reason. */
static void traces(th_case *tc)
{
    static const char *const specs[] = {"grid:w=40,h=40,weights=1-100", "rmat:scale=12,ef=8,seed=4,weights=1-50"};
    static const char *const variants[2][5] = {{"data", "topo", "level", "hybrid", "do"},
                                               {"data", "topo", "hybrid", "nearfar", "regions"}};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *sess = NULL;
    uint32_t *want = NULL, *got = NULL;
    clirr_trace trace = {0};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, load(specs[i], &g, &in, &want, &got, &err));
        uint32_t source = 0;
        for (uint32_t v = 0; v < g.n; v++)
            if (clirr_graph_degree(&g, v) > clirr_graph_degree(&g, source))
                source = v;
        for (int algo = 0; algo < 2; algo++) {
            const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
            TH_OK(tc, reference(algo, &g, source, want, &err));
            for (int k = 0; k < 5 && variants[algo][k]; k++) {
                clirr_intent it;
                intent(a, source, -1, -1, 0, &it);
                it.variant = clirr_algo_variant(a, variants[algo][k]);
                it.trace = &trace;
                TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "hybrid"), "0.02", &it.params, &err));
                clirr_plan plan;
                clirr_stats st;
                TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
                TH_EXPECT(tc, plan.local_rounds == 0 && plan.queue_rounds == 0 &&
                                  strstr(plan.local_rounds_reason, "--trace"),
                          "a traced plan runs local (%u) or queued (%u) rounds", plan.local_rounds, plan.queue_rounds);
                TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &sess, &err));
                for (int trial = 0; trial < 2; trial++) /* the second trial's rows only */
                    TH_OK(tc, clirr_session_run(sess, got, &st, &err));
                clirr_verify_report r;
                TH_EXPECT(tc, verify(&g, algo, source, want, got, &r), "%s %s: %s", a->name, variants[algo][k], r.text);
                TH_EXPECT(tc, trace.n == st.iterations && trace.arcs == g.m,
                          "%s %s on %s: %zu rows for %u rounds", a->name, variants[algo][k], specs[i], trace.n,
                          st.iterations);
                uint64_t ns = 0, arcs = 0;
                for (size_t j = 0; j < trace.n; j++) {
                    const clirr_trace_round *x = &trace.rounds[j];
                    ns += x->kernel_ns;
                    arcs += x->arcs;
                    TH_EXPECT(tc, x->launches > 0, "%s %s: round %zu has no launch", a->name, variants[algo][k], j + 1);
                    /* (near-far refills an emptied worklist from its far pile; regions'
                     * rows count the pending vertices before and after a launch) */
                    if (j + 1 < trace.n && x->items_out && (!strcmp(x->kind, "data") || !strcmp(x->kind, "regions")) &&
                        !strcmp(trace.rounds[j + 1].kind, x->kind))
                        TH_EXPECT(tc, x->items_out == trace.rounds[j + 1].items_in,
                                  "%s %s: round %zu pushed %llu, round %zu took %llu", a->name, variants[algo][k],
                                  j + 1, (unsigned long long)x->items_out, j + 2,
                                  (unsigned long long)trace.rounds[j + 1].items_in);
                }
                TH_EXPECT(tc, ns <= st.timing.kernel_ns, "%s %s: rounds' kernel time %llu over the trial's %llu",
                          a->name, variants[algo][k], (unsigned long long)ns,
                          (unsigned long long)st.timing.kernel_ns);
                if (!algo && k == 0)
                    TH_EXPECT(tc, arcs == st.edges_traversed, "bfs data on %s: rows relax %llu arcs, the run %llu",
                              specs[i], (unsigned long long)arcs, (unsigned long long)st.edges_traversed);
                clirr_session_release(sess);
                sess = NULL;
            }
        }
        unload(&g, &in, &want, &got);
    }
done:
    clirr_trace_free(&trace);
    clirr_session_release(sess);
    unload(&g, &in, &want, &got);
}

/* --no-dedup (the study's duplicate pushes): every worklist variant of
 * BFS and SSSP with a one-item initial capacity grows, reruns and
 * verifies, on every loop template the device runs (chunked pushes); the
 * trace finds no repeated item in any round with dedup and some in SSSP's
 * without; the compact push, which drops them by construction, is refused. */
static void keep_duplicates(th_case *tc)
{
    static const char *const variants[2][3] = {{"data", "hybrid", NULL}, {"data", "nearfar", "hybrid"}};
    const char *spec = "rmat:scale=12,ef=8,seed=4,weights=1-50";
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *sess = NULL;
    uint32_t *want = NULL, *got = NULL;
    clirr_trace trace = {0};
    TH_OK(tc, load(spec, &g, &in, &want, &got, &err));
    uint32_t source = 0;
    for (uint32_t v = 0; v < g.n; v++)
        if (clirr_graph_degree(&g, v) > clirr_graph_degree(&g, source))
            source = v;
    for (int algo = 0; algo < 2; algo++) {
        const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
        TH_OK(tc, reference(algo, &g, source, want, &err));
        for (int k = 0; k < 3 && variants[algo][k]; k++)
            for (int t = 0; t < CLIRR_TEMPLATE_FIRST_RECURSION; t++) {
                if (!clirr_template_runnable(&tc->device->caps, (clirr_template)t, NULL))
                    continue;
                uint64_t dups[2] = {0, 0};
                for (int dedup = 0; dedup < 2; dedup++) {
                    clirr_intent it;
                    intent(a, source, -1, -1, dedup ? 0 : 1, &it);
                    it.variant = clirr_algo_variant(a, variants[algo][k]);
                    it.tmpl = t;
                    it.trace = &trace;
                    it.push = CLIRR_PUSH_CHUNK; /* the compaction drops duplicates */
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "dedup"), dedup ? "on" : "off",
                                              &it.params, &err));
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "hybrid"), "0.05", &it.params, &err));
                    clirr_plan plan;
                    clirr_stats st;
                    TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
                    TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &sess, &err));
                    TH_OK(tc, clirr_session_run(sess, got, &st, &err));
                    clirr_verify_report r;
                    TH_EXPECT(tc, verify(&g, algo, source, want, got, &r), "%s %s, %s, dedup %s: %s", a->name,
                              variants[algo][k], clirr_template_name((clirr_template)t), dedup ? "on" : "off", r.text);
                    if (!dedup)
                        TH_EXPECT(tc, st.wl_grows > 0 && st.wl_reruns > 0 && plan.local_rounds == 0,
                                  "%s %s without dedup from one item of room: %u grows, %u reruns", a->name,
                                  variants[algo][k], st.wl_grows, st.wl_reruns);
                    for (size_t j = 0; j < trace.n; j++)
                        dups[dedup] += trace.rounds[j].duplicates;
                    clirr_session_release(sess);
                    sess = NULL;
                }
                TH_EXPECT(tc, dups[1] == 0, "%s %s, %s: %llu repeated items with dedup on", a->name,
                          variants[algo][k], clirr_template_name((clirr_template)t), (unsigned long long)dups[1]);
                if (algo && k == 0)
                    TH_EXPECT(tc, dups[0] > 0, "sssp data, %s: no repeated item without dedup",
                              clirr_template_name((clirr_template)t));
            }
        clirr_intent it;
        intent(a, source, -1, -1, 0, &it);
        it.variant = clirr_algo_variant(a, "data");
        it.push = CLIRR_PUSH_COMPACT;
        TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "dedup"), "off", &it.params, &err));
        clirr_stats st;
        int rc = clirr_algo_run(tc->ctx, a, in, &it, got, &st, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, "duplicates"), "%s --push compact --no-dedup: %s (%s)",
                  a->name, clirr_status_name(rc), err.msg);
    }
done:
    clirr_trace_free(&trace);
    clirr_session_release(sess);
    unload(&g, &in, &want, &got);
}

/* --grid fixed (the study's fixed kernel configuration): BFS, SSSP and
 * CC's data-driven rounds launch min(resident work-items, n) work-items
 * that stride over the worklist, on the templates that allow it and in
 * every push mode, and verify; a template that sizes launches from the
 * worklist (dual-queue) is refused. */
static void fixed_grid(th_case *tc)
{
    static const char *const specs[] = {"grid:w=300,h=300,weights=1-20", "rmat:scale=13,ef=8,seed=6,weights=1-50"};
    static const clirr_template templates[] = {CLIRR_TEMPLATE_BASELINE, CLIRR_TEMPLATE_DBUF_GLOBAL,
                                               CLIRR_TEMPLATE_DBUF_SHARED};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    uint32_t *want = NULL, *got = NULL;
    const clirr_caps *caps = &tc->device->caps;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, load(specs[i], &g, &in, &want, &got, &err));
        uint64_t resident = (uint64_t)caps->compute_units * caps->max_wg_size;
        uint32_t grid = (uint32_t)(resident < g.n ? resident : g.n);
        for (int algo = 0; algo < 3; algo++) {
            const clirr_algo *a = clirr_algo_find(algo == 0 ? "bfs" : algo == 1 ? "sssp" : "cc");
            TH_OK(tc, reference(algo, &g, 0, want, &err));
            for (size_t t = 0; t < sizeof templates / sizeof templates[0]; t++)
                for (int p = 0; p < CLIRR_PUSH_COUNT_; p++) {
                    if (!clirr_template_runnable(caps, templates[t], NULL))
                        continue;
                    /* the scan push refuses dbuf-global's two pushing kernels (rounds/scan) */
                    if (p == CLIRR_PUSH_SCAN && templates[t] == CLIRR_TEMPLATE_DBUF_GLOBAL)
                        continue;
                    clirr_intent it;
                    intent(a, 0, -1, -1, 0, &it);
                    it.tmpl = (int)templates[t];
                    it.push = (clirr_push_mode)p;
                    it.fixed_grid = true;
                    clirr_plan plan;
                    clirr_stats st;
                    TH_OK(tc, clirr_plan_make(a, caps, &it, in, &plan, &err));
                    TH_EXPECT(tc, plan.fixed_grid == grid, "%s: a grid of %u, want %u", a->name, plan.fixed_grid, grid);
                    TH_OK(tc, clirr_algo_run(tc->ctx, a, in, &it, got, &st, &err));
                    clirr_verify_report r;
                    TH_EXPECT(tc, verify(&g, algo, 0, want, got, &r), "%s on %s, %s, %s, fixed grid: %s", a->name,
                              specs[i], clirr_template_name(templates[t]), clirr_push_mode_name((clirr_push_mode)p),
                              r.text);
                }
            clirr_intent it;
            intent(a, 0, -1, -1, 0, &it);
            it.tmpl = CLIRR_TEMPLATE_DUAL_QUEUE;
            it.fixed_grid = true;
            clirr_plan plan;
            int rc = clirr_plan_make(a, caps, &it, in, &plan, &err);
            TH_EXPECT(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, "--grid fixed"),
                      "%s dual-queue with a fixed grid: %s (%s)", a->name, clirr_status_name(rc), err.msg);
        }
        unload(&g, &in, &want, &got);
    }
done:
    unload(&g, &in, &want, &got);
    unsetenv("CLIRR_LOCAL_PHASES"); /* a device's cases share its process */
}

/* The spatial hybrid (--partition P): BFS and SSSP data-driven rounds
 * over partitions of 1, 2, 7, 64 and all n vertices (n: topology-driven,
 * one item), in every push mode, verify; BFS runs as many rounds as
 * levels; the plan turns local and queued rounds off and says why. */
static void partitions(th_case *tc)
{
    static const char *const specs[] = {"grid:w=40,h=30,weights=1-20", "rmat:scale=12,ef=8,seed=5,weights=1-50"};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    uint32_t *want = NULL, *got = NULL;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, load(specs[i], &g, &in, &want, &got, &err));
        uint32_t source = 0;
        for (uint32_t v = 0; v < g.n; v++)
            source = clirr_graph_degree(&g, v) > clirr_graph_degree(&g, source) ? v : source;
        char all[16];
        snprintf(all, sizeof all, "%u", g.n);
        const char *sizes[] = {"1", "2", "7", "64", all};
        for (int algo = 0; algo < 2; algo++) {
            const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
            TH_OK(tc, reference(algo, &g, source, want, &err));
            uint32_t levels = 0;
            for (uint32_t v = 0; v < g.n && !algo; v++)
                if ((int32_t)want[v] >= 0 && want[v] + 1 > levels)
                    levels = want[v] + 1;
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
                for (int p = 0; p < CLIRR_PUSH_COUNT_; p++) {
                    clirr_intent it;
                    intent(a, source, -1, -1, 0, &it);
                    it.push = (clirr_push_mode)p;
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "partition"), sizes[k], &it.params,
                                              &err));
                    clirr_plan plan;
                    clirr_stats st;
                    TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
                    if (k > 0)
                        TH_EXPECT(tc, plan.local_rounds == 0 && plan.queue_rounds == 0 &&
                                          strstr(plan.local_rounds_reason, "--partition"),
                                  "%s --partition %s: local %u, queued %u rounds", a->name, sizes[k],
                                  plan.local_rounds, plan.queue_rounds);
                    TH_OK(tc, clirr_algo_run(tc->ctx, a, in, &it, got, &st, &err));
                    clirr_verify_report r;
                    TH_EXPECT(tc, verify(&g, algo, source, want, got, &r), "%s on %s, --partition %s, %s: %s",
                              a->name, specs[i], sizes[k], clirr_push_mode_name((clirr_push_mode)p), r.text);
                    if (!algo)
                        TH_EXPECT(tc, st.iterations == levels, "bfs --partition %s: %u rounds for %u levels",
                                  sizes[k], st.iterations, levels);
                    if (k == 4)
                        TH_EXPECT(tc, st.wl_max <= 1, "--partition n: a worklist of %llu items",
                                  (unsigned long long)st.wl_max);
                }
        }
        unload(&g, &in, &want, &got);
    }
done:
    unload(&g, &in, &want, &got);
    unsetenv("CLIRR_LOCAL_PHASES"); /* a device's cases share its process */
}

/* do-bit's way back from the bitmaps: a dense random core (20,000
 * vertices, its frontiers run as bitmap steps) with a path of 2,000
 * vertices hanging off it, whose one-vertex frontiers fall under n / 4096
 * and are listed from the bitmap back into the worklist, where local
 * rounds take them (and SSSP's bits, whose tail comes back through the
 * stamps). Levels and distances equal the reference's, with local rounds
 * on and off. */
static void bitmap_tail(th_case *tc)
{
    const uint32_t core = 20000, tail = 2000;
    clirr_error err;
    clirr_graph r = {0}, g = {0};
    clirr_input *in = NULL;
    clirr_session *sess = NULL;
    uint32_t *src = NULL, *dst = NULL, *want = NULL, *got = NULL;
    int32_t *w = NULL;
    TH_OK(tc, clirr_graph_generate("random:n=20000,m=200000,seed=5,weights=1-20", &r, &err));
    uint64_t m = r.m + 2ull * tail;
    src = malloc(m * sizeof *src), dst = malloc(m * sizeof *dst), w = malloc(m * sizeof *w);
    want = malloc((core + tail) * sizeof *want), got = malloc((core + tail) * sizeof *got);
    TH_REQUIRE(tc, src && dst && w && want && got, "out of memory");
    uint64_t k = 0;
    for (uint32_t u = 0; u < r.n; u++)
        for (uint32_t e = r.row[u]; e < r.row[u + 1]; e++, k++)
            src[k] = u, dst[k] = r.col[e], w[k] = r.weight[e];
    for (uint32_t i = 0; i < tail; i++) { /* core vertex 1 - core - core+1 - ... both ways */
        uint32_t a = i ? core + i - 1 : 1, b = core + i;
        src[k] = a, dst[k] = b, w[k++] = 3;
        src[k] = b, dst[k] = a, w[k++] = 3;
    }
    TH_OK(tc, clirr_graph_from_arcs(core + tail, m, src, dst, w, &g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, "core and tail", &in, &err));
    for (int algo = 0; algo < 2; algo++) {
        const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
        TH_OK(tc, reference(algo, &g, 0, want, &err));
        for (int local = 0; local < 2; local++) {
            clirr_intent it;
            clirr_plan plan;
            clirr_stats st;
            clirr_verify_report vr;
            memset(&st, 0, sizeof st);
            intent(a, 0, local ? -1 : 0, -1, 0, &it);
            it.variant = clirr_algo_variant(a, algo ? "bits" : "do-bit");
            TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
            TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &sess, &err));
            TH_OK(tc, clirr_session_run(sess, got, &st, &err));
            TH_EXPECT(tc, verify(&g, algo, 0, want, got, &vr), "%s, local rounds %s: %s", a->name,
                      local ? "auto" : "off", vr.text);
            uint64_t steps = th_session_extra_u(sess, got, algo ? "bitmap_rounds" : "bottom_up_rounds");
            TH_EXPECT(tc, steps > 0 && steps != UINT64_MAX, "%s: %llu bitmap or bottom-up rounds", a->name,
                      (unsigned long long)steps);
            if (local)
                TH_EXPECT(tc, st.local_rounds >= tail - 10, "%s: %u of %u rounds local, the tail %u", a->name,
                          st.local_rounds, st.iterations, tail);
            clirr_session_release(sess);
            sess = NULL;
        }
    }
done:
    clirr_session_release(sess);
    clirr_input_free(in);
    clirr_graph_free(&g);
    clirr_graph_free(&r);
    free(src), free(dst), free(w), free(want), free(got);
}

/* Each spec's graph makes algorithm `algo`'s auto choose want[i]. */
static void auto_choices(th_case *tc, const char *algo, const char *const *specs, const char *const *want, size_t n)
{
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    const clirr_algo *a = clirr_algo_find(algo);
    TH_REQUIRE(tc, a, "%s is not in the registry", algo);
    for (size_t i = 0; i < n; i++) {
        TH_OK(tc, clirr_graph_generate(specs[i], &g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, specs[i], &in, &err));
        clirr_intent it;
        clirr_intent_default(a, &it);
        it.variant = clirr_algo_variant(a, "auto");
        clirr_plan plan;
        TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
        TH_EXPECT(tc, !strcmp(a->variants[plan.variant].name, want[i]), "%s %s: auto chose %s, not %s", algo,
                  specs[i], a->variants[plan.variant].name, want[i]);
        clirr_input_free(in);
        in = NULL;
        clirr_graph_free(&g);
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

/* bfs auto: regions for graphs of at most 8 neighbours a vertex from
 * 2^16 vertices on a CPU device (a 256 x 256 grid; 255 x 256 is one row
 * short), from 2^18 elsewhere (512 x 512; 511 x 512 short); else on a CPU
 * device do-bit, elsewhere do where hubs hold many arcs and data
 * elsewhere; the choice is the plan's, before anything runs. */
static void bfs_auto_choice(th_case *tc)
{
    static const char *const specs[] = {"rmat:scale=12,ef=8,seed=1", "grid:w=64,h=64",
                                        "random:n=4096,m=16384,seed=1", "grid:w=2000,h=1",
                                        "grid:w=512,h=512", "grid:w=511,h=512",
                                        "grid:w=256,h=256", "grid:w=255,h=256"};
    static const char *const gpu[] = {"do", "data", "data", "data", "regions", "data", "data", "data"};
    static const char *const cpu[] = {"do-bit", "do-bit", "do-bit", "do-bit", "regions", "regions", "regions",
                                      "do-bit"};
    auto_choices(tc, "bfs", specs, tc->device->caps.is_cpu ? cpu : gpu, 8);
}

/* SSSP's auto (host/algo/sssp.c): for graphs of at most 8 neighbours a
 * vertex (a grid, a path) regions from 2^16 vertices on a CPU device (a
 * 256 x 256 grid; 255 x 256 is one row short) and from 2^18 elsewhere (512
 * x 512; 511 x 512 short), near-far below; on a CPU device regions too
 * for weighted graphs with hubs from 2^16 vertices (rmat 16; rmat 15 is
 * too small, an unweighted rmat 16 has no weights, a weighted uniform
 * graph of 2^16 vertices no hubs); for the others (rmat hubs; a uniform
 * graph of mean degree 8, whose largest is above 8) bits on a CPU, data
 * elsewhere. */
static void sssp_auto_choice(th_case *tc)
{
    static const char *const specs[] = {"grid:w=64,h=64", "grid:w=2000,h=1", "rmat:scale=12,ef=8,seed=1",
                                        "random:n=4096,m=16384,seed=1", "grid:w=512,h=512", "grid:w=511,h=512",
                                        "grid:w=256,h=256", "grid:w=255,h=256",
                                        "rmat:scale=16,ef=8,seed=1,weights=1-255",
                                        "rmat:scale=15,ef=8,seed=1,weights=1-255", "rmat:scale=16,ef=8,seed=1",
                                        "random:n=65536,m=262144,seed=1,weights=1-255"};
    static const char *const gpu[] = {"nearfar", "nearfar", "data", "data", "regions", "nearfar", "nearfar",
                                      "nearfar", "data", "data", "data", "data"};
    static const char *const cpu[] = {"nearfar", "nearfar", "bits", "bits", "regions", "regions", "regions",
                                      "nearfar", "regions", "bits", "bits", "bits"};
    auto_choices(tc, "sssp", specs, tc->device->caps.is_cpu ? cpu : gpu, sizeof specs / sizeof specs[0]);
}

/* The other form of the local kernels' arc work (CLIRR_LOCAL_PHASES,
 * cl/templates/local_rounds.clh): in phases on CPUs, one arc after another
 * on GPUs. The checks of rounds/local, and near-far's local rounds on the
 * same inputs at thresholds 8 and auto: every distance the reference's,
 * and some rounds local. */
static void local_rounds_other_form(th_case *tc)
{
    setenv("CLIRR_LOCAL_PHASES", tc->device->caps.is_cpu ? "1" : "0", 1);
    local_rounds(tc);
    static const int64_t nf_thresholds[] = {8, -1};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    uint32_t *want = NULL, *got = NULL;
    const clirr_algo *a = clirr_algo_find("sssp");
    TH_REQUIRE(tc, a, "sssp is not in the registry");
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        TH_OK(tc, load(inputs[i].spec, &g, &in, &want, &got, &err));
        TH_OK(tc, clirr_ref_sssp(&g, inputs[i].source, want, &err));
        for (size_t t = 0; t < sizeof nf_thresholds / sizeof nf_thresholds[0]; t++) {
            clirr_intent it;
            intent(a, inputs[i].source, nf_thresholds[t], 0, 0, &it);
            it.variant = clirr_algo_variant(a, "nearfar");
            clirr_stats st;
            memset(&st, 0, sizeof st);
            TH_OK(tc, clirr_algo_run(tc->ctx, a, in, &it, got, &st, &err));
            clirr_verify_report r;
            TH_EXPECT(tc, clirr_verify_sssp(&g, inputs[i].source, want, got, &r), "nearfar on %s, --local-rounds %lld: %s",
                      inputs[i].spec, (long long)nf_thresholds[t], r.text);
            TH_EXPECT(tc, st.local_rounds > 0 && st.local_rounds <= st.iterations,
                      "nearfar on %s, --local-rounds %lld: %u local rounds of %u", inputs[i].spec,
                      (long long)nf_thresholds[t], st.local_rounds, st.iterations);
        }
        unload(&g, &in, &want, &got);
    }
done:
    unload(&g, &in, &want, &got);
    unsetenv("CLIRR_LOCAL_PHASES"); /* a device's cases share its process */
}

/* Near-far's phases started by the local rounds themselves (sssp_nf_local
 * refilling its worklist from the pile): grids whose piles the work-group
 * splits, a path of million-weight arcs whose splits must jump past empty
 * windows, rmat hubs; delta 7 and auto, local rounds at 8 (the wide rounds
 * between) and auto, two trials of one session (the second's phase stamps
 * go on from the first's). Every distance is the reference's, the local
 * rounds start phases on every grid at delta 7, the phases add up, and the
 * delta run is the one asked for or auto's. */
static void nearfar_local_phases(th_case *tc)
{
    static const char *const specs[] = {"grid:w=1000,h=10,weights=1-100", "grid:w=60,h=60,weights=1-100",
                                        "grid:w=3000,h=1,weights=1000000-1000000",
                                        "rmat:scale=11,ef=8,seed=3,weights=1-50"};
    static const char *const deltas[] = {"7", "0"};
    static const int64_t local[] = {8, -1};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *sess = NULL;
    uint32_t *want = NULL, *got = NULL;
    const clirr_algo *a = clirr_algo_find("sssp");
    TH_REQUIRE(tc, a, "sssp is not in the registry");
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, load(specs[i], &g, &in, &want, &got, &err));
        TH_OK(tc, clirr_ref_sssp(&g, 0, want, &err));
        bool grid = !strncmp(specs[i], "grid:", 5);
        /* Auto's delta: eight mean arc weights on a CPU, 32 elsewhere. */
        double sum = 0;
        for (uint64_t e = 0; e < g.m; e++)
            sum += g.weight[e];
        const uint64_t auto_delta = (uint64_t)((tc->device->caps.is_cpu ? 8 : 32) * sum / (double)g.m);
        for (size_t d = 0; d < sizeof deltas / sizeof deltas[0]; d++)
            for (size_t t = 0; t < sizeof local / sizeof local[0]; t++) {
                clirr_intent it;
                intent(a, 0, local[t], -1, 0, &it);
                it.variant = clirr_algo_variant(a, "nearfar");
                TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "delta"), deltas[d], &it.params, &err));
                clirr_plan plan;
                TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
                TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &sess, &err));
                for (int trial = 0; trial < 2; trial++) {
                    clirr_stats st;
                    clirr_verify_report r;
                    memset(&st, 0, sizeof st);
                    TH_OK(tc, clirr_session_run(sess, got, &st, &err));
                    TH_EXPECT(tc, clirr_verify_sssp(&g, 0, want, got, &r), "%s, delta %s, local %lld, trial %d: %s",
                              specs[i], deltas[d], (long long)local[t], trial, r.text);
                    uint64_t phases = th_session_extra_u(sess, got, "phases"),
                             mine = th_session_extra_u(sess, got, "phases_local");
                    /* At delta 7 every grid has phases the work-group starts; auto's
                     * delta on a GPU (32 mean weights) leaves the 60 x 60 grid 3
                     * phases, none local at local rounds 8 (H200). */
                    TH_EXPECT(tc, phases != UINT64_MAX && mine <= phases && (!grid || d != 0 || mine > 0),
                              "%s, delta %s, local %lld, trial %d: %llu phases, %llu started locally", specs[i],
                              deltas[d], (long long)local[t], trial, (unsigned long long)phases,
                              (unsigned long long)mine);
                    uint64_t delta = th_session_extra_u(sess, got, "delta"), want_delta = d == 0 ? 7 : auto_delta;
                    TH_EXPECT(tc, delta == want_delta, "%s, delta %s: ran with delta %llu, not %llu", specs[i],
                              deltas[d], (unsigned long long)delta, (unsigned long long)want_delta);
                }
                clirr_session_release(sess);
                sess = NULL;
            }
        unload(&g, &in, &want, &got);
    }
done:
    clirr_session_release(sess);
    unload(&g, &in, &want, &got);
}

/* Auto's local-rounds size on a GPU where queued rounds take the larger
 * worklists: 1024 for BFS and SSSP alike (measured on an H200 without
 * launch events; BFS had 2048 before), but 4096 on a graph of at most
 * 256 x 1024 vertices, whose worklists queued rounds do not take; a CPU
 * (no queued rounds) gets the 4096 its local memory holds. */
static void local_rounds_auto_size(th_case *tc)
{
    static const struct {
        const char *algo, *grid;
        uint32_t gpu, cpu;
    } cases[] = {{"bfs", "grid:w=1024,h=1024,weights=1-9", 1024, 4096},
                 {"sssp", "grid:w=1024,h=1024,weights=1-9", 1024, 4096},
                 {"bfs", "grid:w=512,h=512,weights=1-9", 4096, 4096}};
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_caps gpu = tc->device->caps, cpu = tc->device->caps;
    gpu.is_gpu = true;
    gpu.is_cpu = false;
    cpu.is_gpu = false;
    cpu.is_cpu = true;
    gpu.local_mem = cpu.local_mem = 48 * 1024;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const clirr_algo *a = clirr_algo_find(cases[k].algo);
        TH_REQUIRE(tc, a, "%s is not in the registry", cases[k].algo);
        clirr_input_free(in);
        clirr_graph_free(&g);
        in = NULL;
        TH_OK(tc, clirr_graph_generate(cases[k].grid, &g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, cases[k].grid, &in, &err));
        for (int dev = 0; dev < 2; dev++) {
            clirr_intent it;
            clirr_intent_default(a, &it);
            it.variant = clirr_algo_variant(a, "data");
            it.tmpl = CLIRR_TEMPLATE_BASELINE;
            clirr_plan plan;
            TH_OK(tc, clirr_plan_make(a, dev ? &cpu : &gpu, &it, in, &plan, &err));
            uint32_t want = dev ? cases[k].cpu : cases[k].gpu;
            TH_EXPECT(tc, plan.local_rounds == want && (dev || plan.queue_rounds > 0),
                      "%s on a %s, %s: local rounds %u (%s), queued %u; want %u", cases[k].algo,
                      dev ? "CPU" : "GPU", cases[k].grid, plan.local_rounds, plan.local_rounds_reason,
                      plan.queue_rounds, want);
        }
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

TH_REGISTER(register_local_rounds_tests)
{
    th_add_device("rounds/local-auto-size", local_rounds_auto_size, NULL);
    th_add_device("rounds/nearfar-local-phases", nearfar_local_phases, NULL);
    th_add_device("rounds/local", local_rounds, NULL);
    th_add_device("rounds/local-other-form", local_rounds_other_form, NULL);
    th_add_device("rounds/queued", queued_rounds, NULL);
    th_add_device("bfs/direction-optimizing", direction_optimizing, NULL);
    th_add_device("bfs/auto-choice", bfs_auto_choice, NULL);
    th_add_device("sssp/auto-choice", sssp_auto_choice, NULL);
    th_add_device("rounds/bitmap-tail", bitmap_tail, NULL);
    th_add_device("rounds/temporal-hybrid", temporal_hybrid, NULL);
    th_add_device("rounds/trace", traces, NULL);
    th_add_device("rounds/no-dedup", keep_duplicates, NULL);
    th_add_device("rounds/fixed-grid", fixed_grid, NULL);
    th_add_device("rounds/partition", partitions, NULL);
}
