/* tests/test_treerec.c - tree descendants and heights through the recursion
 * templates (shared/papers/001, Fig. 3) on every device: flat everywhere,
 * rec-naive and rec-hier (with and without streams) where the device has
 * device-side enqueue, else refused naming what runs. Regular trees of the
 * study's generator (dense and sparse), a random binary tree, a star, a
 * path of 10^5 vertices rooted at an end and in the middle, one and two
 * vertices. Every result verified; with --count the device counters equal
 * the closed forms counted from the tree's shape (and, on dense regular
 * trees, the study's formulas 1 + K + K^2 and so on). Host cases: the two
 * serial versions agree, and the verifier fails on a wrong answer. */
#include "harness.h"
#include "ref/treerec.h"
#include "algo/treerec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tr_input {
    const char *spec;
    uint32_t root;
} tr_input;

static const tr_input inputs[] = {
    {"tree:kind=regular,depth=4,outdeg=8", 0},
    {"tree:kind=regular,depth=5,outdeg=6,sparsity=1,seed=3", 0},
    {"tree:kind=regular,depth=7,outdeg=3,sparsity=2,seed=4,shuffle=0", 0},
    {"tree:kind=regular,depth=2,outdeg=3000", 0},
    {"tree:kind=binary,n=20000,seed=4", 0},
    {"tree:kind=attach,n=5000,seed=5", 77},
    {"tree:kind=regular,depth=100000,outdeg=1", 0},
    {"tree:kind=regular,depth=100000,outdeg=1,shuffle=0", 50000},
    {"tree:kind=regular,depth=1,outdeg=1", 0},
    {"tree:kind=regular,depth=2,outdeg=1", 1},
};

typedef struct tr_case {
    const char *algo;
    clirr_template tmpl;       /* of the variant recursive */
    bool streams;
} tr_case;

static int load(const tr_input *ti, clirr_input **in, clirr_error *err)
{
    clirr_tree t = {0};
    int rc = clirr_tree_generate(ti->spec, &t, err);
    t.root = ti->root;
    if (rc == CLIRR_OK)
        rc = clirr_input_from_tree(&t, true, ti->spec, in, err);
    clirr_tree_free(&t);
    return rc;
}

static uint64_t extra(const clirr_extras *x, const char *name)
{
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->e[i].name, name))
            return x->e[i].u;
    return UINT64_MAX;
}

/* One algorithm and template over every input, counting on. */
static void run_case(th_case *tc)
{
    const tr_case *c = tc->param;
    const clirr_algo *a = clirr_algo_find(c->algo);
    clirr_error err;
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    uint32_t *expected = NULL, *got = NULL;
    clirr_rooted r = {0};
    TH_REQUIRE(tc, a, "no algorithm %s", c->algo);
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        TH_OK(tc, load(&inputs[i], &in, &err));
        clirr_intent it;
        clirr_intent_default(a, &it);
        it.variant = TREEREC_RECURSIVE;
        it.tmpl = (int)c->tmpl;
        TH_OK(tc, clirr_param_set(a, TREEREC_P_COUNT, "on", &it.params, &err));
        TH_OK(tc, clirr_param_set(a, TREEREC_P_STREAMS, c->streams ? "on" : "off", &it.params, &err));
        clirr_plan plan;
        int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
        if (!tc->device->caps.device_enqueue && c->tmpl != CLIRR_TEMPLATE_FLAT) {
            TH_REQUIRE(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, "device-side enqueue") &&
                               strstr(err.msg, "it can run: flat"),
                       "planned without device-side enqueue: %s (%s)", clirr_status_name(rc), err.msg);
            th_skip(tc, "%s", err.msg);
            goto done;
        }
        TH_OK(tc, rc);
        uint32_t n = (uint32_t)clirr_input_items(in);
        expected = malloc((size_t)n * sizeof *expected);
        got = malloc((size_t)n * sizeof *got);
        TH_REQUIRE(tc, expected && got, "out of memory");
        TH_OK(tc, a->reference(in, &plan, expected, &err));
        TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
        const clirr_tree_adj *adj;
        TH_OK(tc, clirr_input_tree_adj(in, &adj, &err));
        TH_OK(tc, clirr_rooted_make(adj, inputs[i].root, &r, &err));
        clirr_treerec_counts want;
        clirr_treerec_expected_counts(&r, &want);
        for (int trial = 0; trial < 2; trial++) {
            clirr_stats st;
            memset(got, 0xA5, (size_t)n * sizeof *got);
            TH_OK(tc, clirr_session_run(s, got, &st, &err));
            clirr_verify_report rep;
            TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep), "%s, trial %d: %s", inputs[i].spec,
                       trial + 1, rep.text);
            clirr_extras x = {0};
            clirr_session_extras(s, got, &x);
            uint64_t calls = extra(&x, "kernel_calls"), atomics = extra(&x, "atomics");
            uint64_t deferred = extra(&x, "deferred");
            if (c->tmpl == CLIRR_TEMPLATE_FLAT) {
                uint64_t band = extra(&x, "band_levels");
                if (r.max_depth <= band)
                    TH_REQUIRE(tc, atomics == want.flat_atomics, "%s: flat atomics %llu, want %llu",
                               inputs[i].spec, (unsigned long long)atomics, (unsigned long long)want.flat_atomics);
                /* The bound: at most n B steps, ceil(height / B) launches. */
                TH_REQUIRE(tc, atomics <= (uint64_t)n * band, "%s: %llu steps over n B", inputs[i].spec,
                           (unsigned long long)atomics);
                TH_REQUIRE(tc, calls == (r.max_depth + band - 1) / band, "%s: %llu launches for height %u",
                           inputs[i].spec, (unsigned long long)calls, r.max_depth);
            } else {
                bool naive = c->tmpl == CLIRR_TEMPLATE_REC_NAIVE;
                uint64_t wcalls = naive ? want.naive_calls : want.hier_calls;
                uint64_t watom = naive ? want.naive_atomics : want.hier_atomics;
                /* A vertex deferred to the host trades a child launch for a
                 * host launch: the sum stays. */
                TH_REQUIRE(tc, calls == wcalls, "%s: %llu kernel calls (%llu deferred), want %llu", inputs[i].spec,
                           (unsigned long long)calls, (unsigned long long)deferred, (unsigned long long)wcalls);
                TH_REQUIRE(tc, atomics == watom, "%s: %llu atomics, want %llu", inputs[i].spec,
                           (unsigned long long)atomics, (unsigned long long)watom);
                TH_REQUIRE(tc, st.child_launches + extra(&x, "host_launches") == calls, "%s: launches add up",
                           inputs[i].spec);
            }
        }
        /* The study's closed forms on the dense regular tree (K = 8, depth 4). */
        if (i == 0) {
            uint64_t K = 8;
            TH_REQUIRE(tc, want.naive_calls == 1 + K + K * K && want.hier_calls == 1 + K &&
                               want.hier_atomics == K + K * K && want.flat_atomics == K + 2 * K * K + 3 * K * K * K,
                       "closed forms of a regular tree disagree with the shape's counts");
        }
        clirr_rooted_free(&r);
        clirr_session_release(s);
        clirr_input_free(in);
        free(expected);
        free(got);
        s = NULL;
        in = NULL;
        expected = got = NULL;
    }
done:
    clirr_rooted_free(&r);
    clirr_session_release(s);
    clirr_input_free(in);
    free(expected);
    free(got);
}

/* Both serial versions agree on every input that the recursive one takes,
 * and the verifier rejects a wrong value, a wrong step, a root off by one. */
static void serial_and_verifier(th_case *tc)
{
    clirr_error err;
    clirr_input *in = NULL;
    clirr_rooted r = {0};
    uint32_t *a = NULL, *b = NULL;
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        TH_OK(tc, load(&inputs[i], &in, &err));
        const clirr_tree_adj *adj;
        TH_OK(tc, clirr_input_tree_adj(in, &adj, &err));
        TH_OK(tc, clirr_rooted_make(adj, inputs[i].root, &r, &err));
        a = malloc((size_t)r.n * sizeof *a);
        b = malloc((size_t)r.n * sizeof *b);
        TH_REQUIRE(tc, a && b, "out of memory");
        for (int op = 0; op < 2; op++) {
            clirr_ref_treerec_iterative(&r, (clirr_treerec_op)op, a);
            int rc = clirr_ref_treerec_recursive(&r, (clirr_treerec_op)op, b, &err);
            if (r.max_depth > CLIRR_TREEREC_SERIAL_DEPTH) {
                TH_REQUIRE(tc, rc == CLIRR_ERR_UNSUPPORTED, "%s: recursed %u deep", inputs[i].spec, r.max_depth);
            } else {
                TH_OK(tc, rc);
                TH_REQUIRE(tc, !memcmp(a, b, (size_t)r.n * sizeof *a), "%s: serial versions differ", inputs[i].spec);
            }
            clirr_verify_report rep;
            TH_REQUIRE(tc, clirr_verify_treerec(&r, (clirr_treerec_op)op, a, a, &rep), "%s: %s", inputs[i].spec,
                       rep.text);
            if (op == CLIRR_TREEREC_DESCENDANTS)
                TH_REQUIRE(tc, a[r.root] == r.n - 1, "%s: the root has %u descendants", inputs[i].spec, a[r.root]);
            else
                TH_REQUIRE(tc, a[r.root] == r.max_depth + 1, "%s: the root's height %u", inputs[i].spec, a[r.root]);
            /* A leaf's value changed; the root's value changed. */
            memcpy(b, a, (size_t)r.n * sizeof *a);
            b[r.order[r.n - 1]]++;
            TH_REQUIRE(tc, !clirr_verify_treerec(&r, (clirr_treerec_op)op, a, b, &rep) && rep.mismatches == 1,
                       "%s: a wrong leaf passed", inputs[i].spec);
            memcpy(b, a, (size_t)r.n * sizeof *a);
            b[r.root]++;
            TH_REQUIRE(tc, !clirr_verify_treerec(&r, (clirr_treerec_op)op, b, b, &rep),
                       "%s: a wrong root passed the properties", inputs[i].spec);
        }
        clirr_rooted_free(&r);
        clirr_input_free(in);
        in = NULL;
        free(a);
        free(b);
        a = b = NULL;
    }
done:
    clirr_rooted_free(&r);
    clirr_input_free(in);
    free(a);
    free(b);
}

/* --template auto picks a recursion template the device runs (flat); a
 * recursion variant refuses a loop template and a loop variant a
 * recursion template, each naming the family it runs (exit 2). */
static void auto_plan(th_case *tc)
{
    clirr_error err;
    clirr_input *in = NULL;
    clirr_graph g = {0};
    clirr_input *gin = NULL;
    clirr_plan plan;
    TH_OK(tc, load(&inputs[0], &in, &err));
    for (int k = 0; k < 2; k++) {
        const clirr_algo *a = clirr_algo_find(k ? "heights" : "descendants");
        clirr_intent it;
        clirr_intent_default(a, &it);
        TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
        TH_REQUIRE(tc, plan.variant == TREEREC_RECURSIVE && plan.tmpl == CLIRR_TEMPLATE_FLAT && plan.lb_thres == 0,
                   "auto planned %s/%s", clirr_plan_variant_name(&plan), clirr_template_name(plan.tmpl));
        it.tmpl = CLIRR_TEMPLATE_DBUF_GLOBAL;
        int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
        TH_REQUIRE(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "runs a recursion template"),
                   "a loop template on a recursion: %s (%s)", clirr_status_name(rc), err.msg);
    }
    const clirr_algo *bfs = clirr_algo_find("bfs");
    TH_OK(tc, clirr_graph_generate("grid:w=5,h=5", &g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, true, "grid", &gin, &err));
    clirr_intent it;
    clirr_intent_default(bfs, &it);
    it.tmpl = CLIRR_TEMPLATE_REC_HIER;
    int rc = clirr_plan_make(bfs, &tc->device->caps, &it, gin, &plan, &err);
    TH_REQUIRE(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "--variant recursive does"),
               "bfs data with rec-hier: %s (%s)", clirr_status_name(rc), err.msg);
done:
    clirr_input_free(gin);
    clirr_graph_free(&g);
    clirr_input_free(in);
}

/* The recursive BFS (bfs --variant recursive: rec-naive and rec-hier with
 * and without streams, and flat) on the study's kind of random graph
 * (out-degrees uniform in a range) and on sparse ones with unreached
 * vertices, a nesting limit of 4 forcing restarts from the host; levels
 * verified as bfs's. Flat runs on every device, rec-* where the device
 * has device-side enqueue (else refused naming flat). */
static void bfs_recursive(th_case *tc)
{
    static const char *specs[] = {"random:n=3000,deg=2-12,seed=5", "random:n=4000,deg=0-2,seed=6",
                                  "grid:w=40,h=30"};
    const clirr_algo *a = clirr_algo_find("bfs");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    int32_t *expected = NULL, *got = NULL;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(specs[i], &g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, true, specs[i], &in, &err));
        uint32_t n = (uint32_t)clirr_input_items(in);
        expected = malloc((size_t)n * sizeof *expected);
        got = malloc((size_t)n * sizeof *got);
        TH_REQUIRE(tc, expected && got, "out of memory");
        for (int k = 0; k < 9; k++) {
            bool flat = k == 8;
            clirr_intent it;
            clirr_intent_default(a, &it);
            it.variant = clirr_algo_variant(a, "recursive");
            it.tmpl = flat ? CLIRR_TEMPLATE_FLAT : k & 1 ? CLIRR_TEMPLATE_REC_HIER : CLIRR_TEMPLATE_REC_NAIVE;
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "streams"), k & 2 ? "on" : "off", &it.params, &err));
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "nest-limit"), k & 4 ? "4" : "512", &it.params,
                                      &err));
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "count"), "on", &it.params, &err));
            it.source.rule = CLIRR_SOURCE_VERTEX;
            it.source.vertex = 7;
            clirr_plan plan;
            int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
            if (!tc->device->caps.device_enqueue && !flat) {
                TH_REQUIRE(tc, rc == CLIRR_ERR_UNSUPPORTED && strstr(err.msg, "it can run: flat"),
                           "planned without device-side enqueue: %s", err.msg);
                continue;
            }
            TH_OK(tc, rc);
            TH_OK(tc, a->reference(in, &plan, expected, &err));
            TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
            clirr_stats st;
            TH_OK(tc, clirr_session_run(s, got, &st, &err));
            clirr_verify_report rep;
            TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep), "%s, %s%s: %s", specs[i],
                       clirr_template_name(plan.tmpl), k & 2 ? " streams" : "", rep.text);
            clirr_extras x = {0};
            if (flat) {
                clirr_session_release(s);
                s = NULL;
                continue;
            }
            clirr_session_extras(s, got, &x);
            TH_REQUIRE(tc, extra(&x, "kernel_calls") == st.child_launches + extra(&x, "host_launches"),
                       "%s: launches do not add up", specs[i]);
            TH_REQUIRE(tc, extra(&x, "atomics") >= (uint64_t)st.reached - 1, "%s: %llu atomics for %llu reached",
                       specs[i], (unsigned long long)extra(&x, "atomics"), (unsigned long long)st.reached);
            clirr_session_release(s);
            s = NULL;
        }
        clirr_input_free(in);
        in = NULL;
        free(expected);
        free(got);
        expected = got = NULL;
    }
done:
    clirr_session_release(s);
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(expected);
    free(got);
}

TH_REGISTER(register_treerec_tests)
{
    static const char *algos[] = {"descendants", "heights"};
    static tr_case cases[2][5];
    static char names[2][5][64];
    static const struct {
        clirr_template tmpl;
        bool streams;
        const char *name;
    } kinds[] = {{CLIRR_TEMPLATE_FLAT, false, "flat"},
                 {CLIRR_TEMPLATE_REC_NAIVE, false, "rec-naive"},
                 {CLIRR_TEMPLATE_REC_HIER, false, "rec-hier"},
                 {CLIRR_TEMPLATE_REC_NAIVE, true, "rec-naive/streams"},
                 {CLIRR_TEMPLATE_REC_HIER, true, "rec-hier/streams"}};
    for (int a = 0; a < 2; a++)
        for (int k = 0; k < 5; k++) {
            cases[a][k] = (tr_case){algos[a], kinds[k].tmpl, kinds[k].streams};
            snprintf(names[a][k], sizeof names[a][k], "treerec/%s/%s", algos[a], kinds[k].name);
            th_add_device(names[a][k], run_case, &cases[a][k]);
        }
    th_add("treerec/serial-and-verifier", serial_and_verifier, NULL);
    th_add_device("treerec/auto", auto_plan, NULL);
    th_add_device("treerec/bfs-recursive", bfs_recursive, NULL);
}
