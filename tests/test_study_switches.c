/* tests/test_study_switches.c - switches of the data-driven vs
 * topology-driven study (shared/papers/000) on BFS and SSSP.
 * The worklist push modes beyond atomic and chunk (section III): the
 * hierarchical push
 * (--push hier, a work-group queue in local memory spilling to the global
 * worklist) for BFS's and SSSP's data-driven rounds on every template that
 * can declare the queue, with and without dedup, from a worklist large
 * enough and from one that must grow and rerun. The input has a hub whose
 * first round pushes more vertices than a work-group's queue holds, so the
 * spill path runs too. Every result is verified against the reference;
 * the rounds must have run in hier mode; the nested templates are refused
 * at planning with a message that names them.
 * And the scan push (--push scan, section III-D: per-work-item counts, a
 * prefix sum, reserved ranges) the same way on the templates that push
 * from one kernel a round (baseline, dbuf-shared), plus a fixed grid, where
 * baseline's hub round must spill past its work-item's slots while other
 * pushes go through the prefix sum; the templates that push from two
 * kernels or child kernels are refused naming them, and --template auto
 * plans one that can.
 * And work donation (--donate T, section III-E) on the same input: BFS and
 * SSSP verify at several thresholds, in several push modes; the hub's
 * first round, which work-group 0 runs, must donate (traced: its row
 * counts work-group 0's donations), and a template other than baseline is
 * refused.
 * And growth on demand (--wl-capacity N, the study's Figure 14): every
 * trial of a session starts at the asked capacity again, so each one
 * grows, reruns and times its growth, and still verifies.
 * And kernel unrolling of the topology-driven sweeps (--unroll K, section
 * IV-B): BFS and SSSP topo verify at K = 2, 8 and 64 on a grid and the hub
 * input; a template other than baseline is refused; on a path of 64
 * vertices from its last one, K = 64 settles every vertex in the first sweep
 * (the source's work-item walks the whole path), so the run takes exactly
 * two sweeps whatever the scheduling.
 * And the degree pre-sort of the topology-driven sweep (--presort degree):
 * the order on the device is a permutation in decreasing out-degree, ties
 * by id; BFS and SSSP topo verify with it on every loop template the
 * device runs and with --unroll; and bfs_topo's sweep takes its vertices
 * from the order: given an order that names the source only, a sweep
 * reaches the source's neighbours and no farther. */
#include "algo/dgraph.h"
#include "algo/presort.h"
#include "arcs.h"
#include "cl/common/kargs.h"
#include "cl/bfs.def"
#include "harness.h"
#include "ref/ref.h"
#include "templates/policy.h"

#include <stdlib.h>
#include <string.h>

/* A hub (vertex 0) with `leaves` out-neighbours, each leaf with two arcs
 * to other leaves and one to a tail vertex: round 1 is one work-item's
 * `leaves` pushes, round 2 many work-items' pushes, and SSSP's weights
 * make later rounds lower distances again. */
static int hub_graph(uint32_t leaves, clirr_graph *g, clirr_error *err)
{
    arcs a = {0};
    a.n = 1 + 2 * leaves;
    for (uint32_t i = 1; i <= leaves; i++) {
        arc(&a, 0, i, (int32_t)(1 + i % 97));
        arc(&a, i, 1 + (i * 7u) % leaves, (int32_t)(1 + i % 5));
        arc(&a, i, 1 + (i * 13u + 3) % leaves, 2);
        arc(&a, i, leaves + i, 1);
    }
    return arcs_build(&a, true, g, err);
}

/* A graph (a generator spec, or the hub graph of `leaves` leaves when spec
 * is NULL) with room for the reference's and the device's values. */
typedef struct case_input {
    clirr_graph g;
    clirr_input *in;
    uint32_t *want, *got;
} case_input;

static void input_free(case_input *c)
{
    clirr_input_free(c->in);
    clirr_graph_free(&c->g);
    free(c->want);
    free(c->got);
    memset(c, 0, sizeof *c);
}

static int input_load(case_input *c, const char *spec, uint32_t leaves, clirr_error *err)
{
    input_free(c);
    int rc = spec ? clirr_graph_generate(spec, &c->g, err) : hub_graph(leaves, &c->g, err);
    if (rc == CLIRR_OK)
        rc = clirr_input_from_graph(&c->g, false, spec ? spec : "hub", &c->in, err);
    if (rc != CLIRR_OK)
        return rc;
    c->want = malloc(c->g.n * sizeof *c->want);
    c->got = malloc(c->g.n * sizeof *c->got);
    return c->want && c->got ? CLIRR_OK : clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
}

/* algo 0: BFS levels, 1: SSSP distances, from src into c->want. */
static int reference(int algo, case_input *c, uint32_t src, clirr_error *err)
{
    return algo ? clirr_ref_sssp(&c->g, src, c->want, err) : clirr_ref_bfs(&c->g, src, (int32_t *)c->want, err);
}

static bool verify(int algo, const case_input *c, uint32_t src, clirr_verify_report *r)
{
    return algo ? clirr_verify_sssp(&c->g, src, c->want, c->got, r)
                : clirr_verify_bfs(&c->g, src, (const int32_t *)c->want, (const int32_t *)c->got, r);
}

static const clirr_template templates[] = {CLIRR_TEMPLATE_BASELINE, CLIRR_TEMPLATE_DUAL_QUEUE,
                                           CLIRR_TEMPLATE_DBUF_GLOBAL, CLIRR_TEMPLATE_DBUF_SHARED};

static void intent(const clirr_algo *a, clirr_template t, size_t capacity, bool dedup, clirr_intent *it,
                   clirr_error *err)
{
    clirr_intent_default(a, it);
    it->variant = clirr_algo_variant(a, "data");
    it->source.rule = CLIRR_SOURCE_VERTEX;
    it->source.vertex = 0;
    it->source_given = true;
    it->tmpl = (int)t;
    it->lb_thres = 8;
    it->push = CLIRR_PUSH_HIER;
    it->wl_capacity = capacity;
    /* Queued rounds (on by default) also push through the queue. */
    it->local_rounds = 0;
    clirr_param_set(a, (unsigned)clirr_algo_param(a, "dedup"), dedup ? "on" : "off", &it->params, err);
}

/* Template t refuses push mode `push` (exit 2, the plan's message naming
 * the mode and the template; where the device has no device-side enqueue,
 * that refuses the nested templates first). */
static void expect_refused(th_case *tc, const clirr_algo *a, const clirr_input *in, clirr_template t,
                           clirr_push_mode push, const char *option)
{
    clirr_error err;
    clirr_intent it;
    intent(a, t, 0, true, &it, &err);
    it.push = push;
    clirr_plan plan;
    int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
    const char *says = clirr_template_runnable(&tc->device->caps, t, NULL) ? option : "device-side enqueue";
    TH_EXPECT(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, says) && strstr(err.msg, clirr_template_name(t)),
              "%s on %s with %s: %s (%s)", a->name, clirr_template_name(t), option, clirr_status_name(rc),
              rc ? err.msg : "planned");
}

static void hier_push(th_case *tc)
{
    clirr_error err;
    case_input c = {0};
    const clirr_caps *caps = &tc->device->caps;
    uint32_t cap = clirr_policy_hier_capacity(caps);
    TH_REQUIRE(tc, cap >= 64, "%s: a hier queue of %u items", caps->name, cap);
    /* More leaves than the queue holds: the hub's round spills. */
    TH_OK(tc, input_load(&c, NULL, cap + cap / 2 + 17, &err));
    for (int algo = 0; algo < 2; algo++) {
        const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
        TH_REQUIRE(tc, a, "no %s", algo ? "sssp" : "bfs");
        TH_OK(tc, reference(algo, &c, 0, &err));
        for (size_t t = 0; t < sizeof templates / sizeof templates[0]; t++)
            for (int k = 0; k < 3; k++) {
                /* k: room for all, capacity 1 (grow and rerun), no dedup at capacity 1 */
                if (!clirr_template_runnable(caps, templates[t], NULL))
                    continue;
                clirr_intent it;
                intent(a, templates[t], k ? 1 : 0, k < 2, &it, &err);
                clirr_stats st;
                memset(&st, 0, sizeof st);
                memset(c.got, 0xff, c.g.n * sizeof *c.got);
                TH_OK(tc, clirr_algo_run(tc->ctx, a, c.in, &it, c.got, &st, &err));
                clirr_verify_report r;
                bool ok = verify(algo, &c, 0, &r);
                TH_EXPECT(tc, ok, "%s, %s, hier, capacity %d, dedup %s: %s", a->name,
                          clirr_template_name(templates[t]), k ? 1 : 0, k < 2 ? "on" : "off", r.text);
                TH_EXPECT(tc, st.wl_rounds[CLIRR_PUSH_HIER] > 0 && st.wl_rounds[CLIRR_PUSH_ATOMIC] == 0 &&
                                  st.wl_rounds[CLIRR_PUSH_CHUNK] == 0 && st.wl_rounds[CLIRR_PUSH_COMPACT] == 0,
                          "%s, %s: %u rounds in hier mode, %u atomic, %u chunk, %u scan", a->name,
                          clirr_template_name(templates[t]), st.wl_rounds[CLIRR_PUSH_HIER],
                          st.wl_rounds[CLIRR_PUSH_ATOMIC], st.wl_rounds[CLIRR_PUSH_CHUNK],
                          st.wl_rounds[CLIRR_PUSH_COMPACT]);
                if (k)
                    TH_EXPECT(tc, st.wl_grows > 0 && st.wl_reruns > 0,
                              "%s, %s, capacity 1: %u grows, %u reruns", a->name,
                              clirr_template_name(templates[t]), st.wl_grows, st.wl_reruns);
            }
        for (clirr_template t = CLIRR_TEMPLATE_NESTED_NAIVE; t <= CLIRR_TEMPLATE_NESTED_OPT; t++)
            expect_refused(tc, a, c.in, t, CLIRR_PUSH_HIER, "--push hier");
    }
done:
    input_free(&c);
}

static void scan_push(th_case *tc)
{
    static const clirr_template ok[] = {CLIRR_TEMPLATE_BASELINE, CLIRR_TEMPLATE_DBUF_SHARED};
    clirr_error err;
    case_input c = {0};
    const clirr_caps *caps = &tc->device->caps;
    TH_OK(tc, input_load(&c, NULL, 600, &err));
    for (int algo = 0; algo < 2; algo++) {
        const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
        TH_REQUIRE(tc, a, "no %s", algo ? "sssp" : "bfs");
        TH_OK(tc, reference(algo, &c, 0, &err));
        for (size_t t = 0; t < sizeof ok / sizeof ok[0]; t++)
            for (int k = 0; k < 4; k++) {
                /* k: room for all, capacity 1 (grow, and rerun when the hub's spills
                 * overflow), no dedup at capacity 1, a fixed grid */
                clirr_intent it;
                intent(a, ok[t], k == 1 || k == 2 ? 1 : 0, k != 2, &it, &err);
                it.push = CLIRR_PUSH_SCAN;
                it.fixed_grid = k == 3;
                clirr_stats st;
                memset(&st, 0, sizeof st);
                memset(c.got, 0xff, c.g.n * sizeof *c.got);
                TH_OK(tc, clirr_algo_run(tc->ctx, a, c.in, &it, c.got, &st, &err));
                clirr_verify_report r;
                bool good = verify(algo, &c, 0, &r);
                const char *tn = clirr_template_name(ok[t]);
                TH_EXPECT(tc, good, "%s, %s, scan, setting %d: %s", a->name, tn, k, r.text);
                uint32_t other = 0;
                for (int m = 0; m < CLIRR_PUSH_AUTO; m++)
                    other += m != CLIRR_PUSH_SCAN ? st.wl_rounds[m] : 0;
                TH_EXPECT(tc, st.wl_rounds[CLIRR_PUSH_SCAN] > 0 && other == 0,
                          "%s, %s: %u rounds in scan mode, %u in others", a->name, tn,
                          st.wl_rounds[CLIRR_PUSH_SCAN], other);
                TH_EXPECT(tc, st.wl_scan_pushes > 0, "%s, %s, setting %d: nothing placed by the prefix sum",
                          a->name, tn, k);
                if (k == 1 || k == 2)
                    TH_EXPECT(tc, st.wl_grows > 0, "%s, %s, capacity 1: never grew", a->name, tn);
                /* A launch over every vertex gives each work-item a few slots:
                 * the hub's 600 pushes cannot fit where one work-item makes them
                 * (dbuf-shared spreads them over its work-group). */
                if (k == 3 && ok[t] == CLIRR_TEMPLATE_BASELINE)
                    TH_EXPECT(tc, st.wl_scan_spills > 0, "%s, %s, fixed grid: the hub spilled nothing", a->name,
                              tn);
            }
        for (clirr_template t = 0; t < CLIRR_TEMPLATE_COUNT_; t++) {
            if (clirr_template_is_recursion(t) || t == CLIRR_TEMPLATE_BASELINE || t == CLIRR_TEMPLATE_DBUF_SHARED)
                continue;
            expect_refused(tc, a, c.in, t, CLIRR_PUSH_SCAN, "--push scan");
        }
        clirr_intent it;
        intent(a, CLIRR_TEMPLATE_BASELINE, 0, true, &it, &err);
        it.push = CLIRR_PUSH_SCAN;
        it.tmpl = -1;
        clirr_plan plan;
        TH_OK(tc, clirr_plan_make(a, caps, &it, c.in, &plan, &err));
        TH_EXPECT(tc, plan.tmpl == CLIRR_TEMPLATE_BASELINE || plan.tmpl == CLIRR_TEMPLATE_DBUF_SHARED,
                  "%s, --template auto with --push scan planned %s", a->name, clirr_template_name(plan.tmpl));
    }
done:
    input_free(&c);
}

static void donation(th_case *tc)
{
    static const char *const thresholds[] = {"1", "4", "64"};
    static const clirr_push_mode pushes[] = {CLIRR_PUSH_ATOMIC, CLIRR_PUSH_HIER, CLIRR_PUSH_AUTO};
    clirr_error err;
    case_input c = {0};
    clirr_trace trace = {0};
    TH_OK(tc, input_load(&c, NULL, 3000, &err));
    for (int algo = 0; algo < 2; algo++) {
        const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
        TH_REQUIRE(tc, a, "no %s", algo ? "sssp" : "bfs");
        TH_OK(tc, reference(algo, &c, 0, &err));
        unsigned donate = (unsigned)clirr_algo_param(a, "donate");
        for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++)
            for (size_t p = 0; p < sizeof pushes / sizeof pushes[0]; p++) {
                clirr_intent it;
                intent(a, CLIRR_TEMPLATE_BASELINE, 0, true, &it, &err);
                it.push = pushes[p];
                it.queue_rounds = 0;
                /* The first case of each threshold traced: every round a row. */
                it.trace = p == 0 ? &trace : NULL;
                TH_OK(tc, clirr_param_set(a, donate, thresholds[t], &it.params, &err));
                clirr_stats st;
                memset(&st, 0, sizeof st);
                memset(c.got, 0xff, c.g.n * sizeof *c.got);
                TH_OK(tc, clirr_algo_run(tc->ctx, a, c.in, &it, c.got, &st, &err));
                clirr_verify_report r;
                bool ok = verify(algo, &c, 0, &r);
                TH_EXPECT(tc, ok, "%s, donate %s, %s: %s", a->name, thresholds[t],
                          clirr_push_mode_name(pushes[p]), r.text);
                if (p == 0) {
                    /* Round 1 is the hub alone, in work-group 0: 3000 arcs
                     * against an average of 3000 / work-group size. */
                    TH_EXPECT(tc, trace.n == st.iterations && trace.n > 1 && trace.rounds[0].donated_g0 > 0,
                              "%s, donate %s: %zu rows for %u rounds, round 1 donated %llu chunks in work-group 0",
                              a->name, thresholds[t], trace.n, st.iterations,
                              trace.n ? (unsigned long long)trace.rounds[0].donated_g0 : 0ull);
                }
            }
        clirr_intent it;
        intent(a, CLIRR_TEMPLATE_DBUF_GLOBAL, 0, true, &it, &err);
        it.push = CLIRR_PUSH_AUTO;
        TH_OK(tc, clirr_param_set(a, donate, "8", &it.params, &err));
        clirr_stats st;
        int rc = clirr_algo_run(tc->ctx, a, c.in, &it, c.got, &st, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, "--donate") && strstr(err.msg, "dbuf-global"),
                  "%s --donate on dbuf-global: %s (%s)", a->name, clirr_status_name(rc), rc ? err.msg : "ran");
    }
done:
    clirr_trace_free(&trace);
    input_free(&c);
}

static void growth_each_trial(th_case *tc)
{
    clirr_error err;
    case_input c = {0};
    clirr_session *sess = NULL;
    TH_OK(tc, input_load(&c, NULL, 1500, &err));
    for (int algo = 0; algo < 2; algo++) {
        const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
        TH_REQUIRE(tc, a, "no %s", algo ? "sssp" : "bfs");
        TH_OK(tc, reference(algo, &c, 0, &err));
        clirr_intent it;
        /* n/5 as the study; the hub's round alone pushes 1500 of 3001 */
        intent(a, CLIRR_TEMPLATE_BASELINE, c.g.n / 5, true, &it, &err);
        it.push = CLIRR_PUSH_ATOMIC;
        clirr_plan plan;
        TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, c.in, &plan, &err));
        TH_OK(tc, clirr_session_prepare(tc->ctx, c.in, &plan, &sess, &err));
        for (int trial = 0; trial < 2; trial++) {
            clirr_stats st;
            memset(&st, 0, sizeof st);
            memset(c.got, 0xff, c.g.n * sizeof *c.got);
            TH_OK(tc, clirr_session_run(sess, c.got, &st, &err));
            clirr_verify_report r;
            bool ok = verify(algo, &c, 0, &r);
            TH_EXPECT(tc, ok, "%s, trial %d at capacity n/5: %s", a->name, trial + 1, r.text);
            TH_EXPECT(tc, st.wl_grows > 0 && st.wl_reruns > 0 && st.wl_grow_ns > 0,
                      "%s, trial %d at capacity n/5: %u grows, %u reruns, %llu ns growing", a->name, trial + 1,
                      st.wl_grows, st.wl_reruns, (unsigned long long)st.wl_grow_ns);
        }
        clirr_session_release(sess);
        sess = NULL;
    }
done:
    clirr_session_release(sess);
    input_free(&c);
}

static void unrolling(th_case *tc)
{
    static const char *const ks[] = {"2", "8", "64"};
    clirr_error err;
    case_input c = {0};
    for (int input = 0; input < 3; input++) {
        static const char *const specs[] = {"grid:w=60,h=50,weights=1-20", NULL, "grid:w=64,h=1,weights=1-9"};
        TH_OK(tc, input_load(&c, specs[input], 500, &err));
        for (int algo = 0; algo < 2; algo++) {
            const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
            TH_REQUIRE(tc, a, "no %s", algo ? "sssp" : "bfs");
            /* the path from its far end: a sweep in id order advances one hop */
            uint32_t src = input == 2 ? c.g.n - 1 : 0;
            TH_OK(tc, reference(algo, &c, src, &err));
            unsigned unroll = (unsigned)clirr_algo_param(a, "unroll");
            for (size_t k = 0; k <= sizeof ks / sizeof ks[0]; k++) {
                clirr_intent it;
                clirr_intent_default(a, &it);
                it.variant = clirr_algo_variant(a, "topo");
                it.source.rule = CLIRR_SOURCE_VERTEX;
                it.source.vertex = src;
                it.source_given = true;
                /* the last: a template the unrolled sweep does not run */
                it.tmpl = k < sizeof ks / sizeof ks[0] ? CLIRR_TEMPLATE_BASELINE : CLIRR_TEMPLATE_DBUF_GLOBAL;
                TH_OK(tc, clirr_param_set(a, unroll, k < sizeof ks / sizeof ks[0] ? ks[k] : "4", &it.params, &err));
                clirr_stats st;
                memset(&st, 0, sizeof st);
                memset(c.got, 0xff, c.g.n * sizeof *c.got);
                int rc = clirr_algo_run(tc->ctx, a, c.in, &it, c.got, &st, &err);
                if (k == sizeof ks / sizeof ks[0]) {
                    TH_EXPECT(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, "--unroll") &&
                                      strstr(err.msg, "dbuf-global"),
                              "%s --unroll on dbuf-global: %s (%s)", a->name, clirr_status_name(rc),
                              rc ? err.msg : "ran");
                    continue;
                }
                TH_OK(tc, rc);
                clirr_verify_report r;
                bool ok = verify(algo, &c, src, &r);
                TH_EXPECT(tc, ok, "%s topo, input %d, unroll %s: %s", a->name, input, ks[k], r.text);
                if (input == 2 && !strcmp(ks[k], "64"))
                    TH_EXPECT(tc, st.iterations == 2, "%s topo on a 64-vertex path, unroll 64: %u sweeps, not 2",
                              a->name, st.iterations);
            }
        }
    }
done:
    input_free(&c);
}

CLIRR_KARGS_STRUCT(bfs_topo_args, BFS_TOPO_ARGS);

/* The order on the device: every vertex once, out-degrees not increasing,
 * ties in id order. */
static bool check_order(th_case *tc, const clirr_graph *g, char *why, size_t size)
{
    clirr_error err;
    cl_mem order = NULL;
    cl_uint on = 0;
    uint32_t *ids = malloc(((size_t)g->n + 1) * sizeof *ids);
    bool *seen = calloc((size_t)g->n + 1, sizeof *seen);
    bool ok = ids && seen;
    snprintf(why, size, "out of memory");
    if (ok && (clirr_presort_upload(tc->ctx, g, CLIRR_PRESORT_DEGREE, &order, &on, &err) != CLIRR_OK || !on ||
               clirr_buf_read(tc->ctx, order, 0, (size_t)g->n * sizeof *ids, ids, &err) != CLIRR_OK)) {
        snprintf(why, size, "upload: %.200s", err.msg);
        ok = false;
    }
    for (uint32_t k = 0; ok && k < g->n; k++) {
        uint32_t v = ids[k], dv = v < g->n ? g->row[v + 1] - g->row[v] : 0;
        ok = v < g->n && !seen[v];
        if (ok && k) {
            uint32_t u = ids[k - 1], du = g->row[u + 1] - g->row[u];
            ok = du > dv || (du == dv && u < v);
        }
        if (!ok)
            snprintf(why, size, "place %u holds vertex %u (out of order, repeated or no vertex)", k, v);
        else
            seen[v] = true;
    }
    clirr_mem_release(&order);
    free(ids);
    free(seen);
    return ok;
}

static void presort(th_case *tc)
{
    clirr_error err;
    case_input c = {0};
    clirr_dgraph dg = {0};
    cl_mem level = NULL, changed = NULL, order = NULL;
    uint32_t *lv = NULL;
    const clirr_caps *caps = &tc->device->caps;
    char why[256];
    for (int input = 0; input < 2; input++) {
        TH_OK(tc, input_load(&c, input ? "rmat:scale=10,weights=1-50" : NULL, 300, &err));
        TH_EXPECT(tc, check_order(tc, &c.g, why, sizeof why), "input %d: %s", input, why);
        for (int algo = 0; algo < 2; algo++) {
            const clirr_algo *a = clirr_algo_find(algo ? "sssp" : "bfs");
            TH_REQUIRE(tc, a, "no %s", algo ? "sssp" : "bfs");
            TH_OK(tc, reference(algo, &c, 0, &err));
            for (int t = 0; t <= CLIRR_TEMPLATE_COUNT_; t++) {
                /* every loop template, then baseline with --unroll 8 */
                clirr_template tm = t < CLIRR_TEMPLATE_COUNT_ ? (clirr_template)t : CLIRR_TEMPLATE_BASELINE;
                if (clirr_template_is_recursion(tm) || !clirr_template_runnable(caps, tm, NULL))
                    continue;
                clirr_intent it;
                clirr_intent_default(a, &it);
                it.variant = clirr_algo_variant(a, "topo");
                it.source.rule = CLIRR_SOURCE_VERTEX;
                it.source.vertex = 0;
                it.source_given = true;
                it.tmpl = (int)tm;
                it.lb_thres = 8;
                TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "presort"), "degree", &it.params, &err));
                if (t == CLIRR_TEMPLATE_COUNT_)
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "unroll"), "8", &it.params, &err));
                clirr_plan plan;
                TH_OK(tc, clirr_plan_make(a, caps, &it, c.in, &plan, &err));
                TH_EXPECT(tc, plan.params.v[clirr_algo_param(a, "presort")].u == CLIRR_PRESORT_DEGREE,
                          "%s: the plan lost --presort degree", a->name);
                clirr_stats st;
                memset(&st, 0, sizeof st);
                memset(c.got, 0xff, c.g.n * sizeof *c.got);
                TH_OK(tc, clirr_algo_run(tc->ctx, a, c.in, &it, c.got, &st, &err));
                clirr_verify_report r;
                bool ok = verify(algo, &c, 0, &r);
                TH_EXPECT(tc, ok, "%s topo --presort degree, input %d, %s%s: %s", a->name, input,
                          clirr_template_name(tm), t == CLIRR_TEMPLATE_COUNT_ ? " --unroll 8" : "", r.text);
            }
        }
    }
    /* The hub graph: vertex 0 -> leaves 1..300 -> the rest. An order naming
     * vertex 0 at every place sweeps it alone: the leaves get level 1, no
     * vertex level 2; in id order (presorted 0) the sweeps reach level 2. */
    TH_OK(tc, input_load(&c, NULL, 300, &err));
    cl_program prog = NULL;
    cl_kernel k = NULL;
    TH_OK(tc, clirr_program_get(tc->ctx, "bfs.cl", "", &prog, &err));
    TH_OK(tc, clirr_kernel_get_checked(tc->ctx, prog, "bfs_topo_baseline", CLIRR_KNARGS(bfs_topo_args), &k, &err));
    TH_OK(tc, clirr_dgraph_upload(tc->ctx, &c.g, false, &dg, &err));
    size_t bytes = (size_t)c.g.n * sizeof(uint32_t);
    lv = malloc(bytes);
    TH_REQUIRE(tc, lv, "out of memory");
    TH_OK(tc, clirr_buf_create(tc->ctx, "levels", bytes, &level, &err));
    TH_OK(tc, clirr_buf_create(tc->ctx, "changed", sizeof(uint32_t), &changed, &err));
    TH_OK(tc, clirr_buf_create(tc->ctx, "order", bytes, &order, &err));
    memset(lv, 0, bytes); /* every place: vertex 0 */
    TH_OK(tc, clirr_buf_write(tc->ctx, order, 0, bytes, lv, &err));
    for (cl_uint on = 0; on < 2; on++) {
        memset(lv, 0xff, bytes);
        lv[0] = 0;
        TH_OK(tc, clirr_buf_write(tc->ctx, level, 0, bytes, lv, &err));
        cl_uint n = c.g.n;
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(bfs_topo_args, row), sizeof dg.row, &dg.row, &err));
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(bfs_topo_args, col), sizeof dg.col, &dg.col, &err));
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(bfs_topo_args, level), sizeof level, &level, &err));
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(bfs_topo_args, n), sizeof n, &n, &err));
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(bfs_topo_args, changed), sizeof changed, &changed, &err));
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(bfs_topo_args, order), sizeof order, &order, &err));
        TH_OK(tc, clirr_arg(k, CLIRR_KARG(bfs_topo_args, presorted), sizeof on, &on, &err));
        for (int sweep = 0; sweep < 3; sweep++)
            TH_OK(tc, clirr_launch(tc->ctx, k, n, 0, &err));
        TH_OK(tc, clirr_buf_read(tc->ctx, level, 0, bytes, lv, &err));
        uint32_t ones = 0, twos = 0;
        for (uint32_t v = 0; v < c.g.n; v++) {
            ones += lv[v] == 1;
            twos += lv[v] == 2;
        }
        TH_EXPECT(tc, ones == 300 && (on ? twos == 0 : twos > 0),
                  "bfs_topo, presorted %u with an order of vertex 0 only: %u vertices at level 1, %u at 2", on, ones,
                  twos);
    }
done:
    clirr_mem_release(&level);
    clirr_mem_release(&changed);
    clirr_mem_release(&order);
    clirr_dgraph_release(&dg);
    free(lv);
    input_free(&c);
}

TH_REGISTER(register_study_switch_tests)
{
    th_add_device("rounds/hier", hier_push, NULL);
    th_add_device("rounds/scan", scan_push, NULL);
    th_add_device("rounds/donate", donation, NULL);
    th_add_device("rounds/growth", growth_each_trial, NULL);
    th_add_device("rounds/unroll", unrolling, NULL);
    th_add_device("rounds/presort", presort, NULL);
}
