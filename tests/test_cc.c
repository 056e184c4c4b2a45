/* tests/test_cc.c - connected components: the serial reference on graphs
 * with known components and the verifier on labels it must reject, then
 * every variant (label propagation topo and data in each push mode,
 * Afforest with 0, 1, 2 and 5 neighbour rounds, auto) through the
 * thread-mapped and load-balancing templates on every device, against the
 * serial reference on: rmat, uniform random, a grid, many isolated
 * vertices, a disconnected graph, one-way arcs (the graph is read as
 * undirected), self-loops, a long path whose smallest id is at its far
 * end, a star, and the 1- and 2-vertex graphs; auto says what it ran; and
 * the command line's --output and JSON. */
#include "arcs.h"
#include "harness.h"
#include "ref/cc.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Components of sizes 1, 2, 3, ...: a path each, arcs pointing one way
 * (from the larger id down), the component's smallest id last. */
static int pieces(clirr_graph *g, clirr_error *err)
{
    arcs a = {0};
    for (uint32_t size = 1; size <= 30; size++) {
        for (uint32_t i = 0; i + 1 < size; i++)
            arc(&a, a.n + i + 1, a.n + i, 1);
        a.n += size;
    }
    return arcs_build(&a, false, g, err);
}

/* A path 0 - 1 - ... - n-1 whose arcs all point from i to i+1, with a
 * self-loop every tenth vertex: read as undirected, one component. */
static int path(clirr_graph *g, uint32_t n, clirr_error *err)
{
    arcs a = {.n = n};
    for (uint32_t i = 0; i + 1 < n; i++) {
        arc(&a, i + 1, i, 1);
        if (i % 10 == 0)
            arc(&a, i, i, 1);
    }
    return arcs_build(&a, false, g, err);
}

static int star(clirr_graph *g, clirr_error *err)
{
    arcs a = {.n = 5001};
    for (uint32_t i = 1; i < a.n; i++)
        arc(&a, 2500, i == 2500 ? 0 : i, 1);
    return arcs_build(&a, false, g, err);
}

static int tiny(clirr_graph *g, int which, clirr_error *err)
{
    arcs a = {.n = which < 2 ? 1 : 2};
    if (which == 1)
        arc(&a, 0, 0, 1);
    if (which == 2)
        arc(&a, 1, 0, 1);
    return arcs_build(&a, false, g, err);
}

typedef struct cc_input {
    const char *name;
    const char *spec;
    int built;
} cc_input;

enum { B_PIECES = 1, B_PATH, B_STAR, B_TINY0, B_TINY1, B_TINY2, B_TINY3 };

static const cc_input inputs[] = {
    {"rmat", "rmat:scale=11,ef=4,seed=4", 0},
    {"uniform random", "random:n=4000,m=5000,seed=6", 0},
    {"grid", "grid:w=40,h=25", 0},
    {"many isolated vertices", "random:n=5000,m=400,seed=7", 0},
    {"disconnected paths with one-way arcs", NULL, B_PIECES},
    {"long path with self-loops", NULL, B_PATH},
    {"star", NULL, B_STAR},
    {"one vertex", NULL, B_TINY0},
    {"one vertex with a self-loop", NULL, B_TINY1},
    {"two vertices, one arc", NULL, B_TINY2},
    {"two vertices, no arc", NULL, B_TINY3},
};
#define NINPUTS (sizeof inputs / sizeof inputs[0])

static int load(const cc_input *ci, clirr_graph *g, clirr_error *err)
{
    if (ci->spec)
        return clirr_graph_generate(ci->spec, g, err);
    switch (ci->built) {
    case B_PIECES: return pieces(g, err);
    case B_PATH: return path(g, 1500, err);
    case B_STAR: return star(g, err);
    default: return tiny(g, ci->built - B_TINY0, err);
    }
}

static void reference(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    uint32_t *label = NULL, *bad = NULL;
    clirr_verify_report r;
    TH_OK(tc, pieces(&g, &err));
    label = malloc(g.n * sizeof *label);
    bad = malloc(g.n * sizeof *bad);
    TH_REQUIRE(tc, label && bad, "out of memory");
    TH_OK(tc, clirr_ref_cc(&g, label, &err));
    /* Piece of size s starts at s(s-1)/2. */
    for (uint32_t size = 1, start = 0; size <= 30; start += size, size++)
        for (uint32_t i = 0; i < size; i++)
            TH_REQUIRE(tc, label[start + i] == start, "vertex %u has label %u, expected %u", start + i,
                       label[start + i], start);
    TH_REQUIRE(tc, clirr_verify_cc(&g, label, label, &r), "the reference fails: %s", r.text);
    /* Rejected: a label that is not the smallest id, two pieces merged
     * under one label, a piece split. */
    memcpy(bad, label, g.n * sizeof *bad);
    bad[2] = 2;
    bad[1] = 2; /* piece {1, 2} labelled by its larger id */
    TH_EXPECT(tc, !clirr_verify_cc(&g, label, bad, &r), "a non-minimal label passed");
    memcpy(bad, label, g.n * sizeof *bad);
    bad[3] = bad[4] = bad[5] = 1; /* piece {3, 4, 5} merged into {1, 2} */
    TH_EXPECT(tc, !clirr_verify_cc(&g, label, bad, &r), "merged components passed");
    memcpy(bad, label, g.n * sizeof *bad);
    bad[5] = 5; /* piece {3, 4, 5} split */
    TH_EXPECT(tc, !clirr_verify_cc(&g, label, bad, &r), "a split component passed");
    memcpy(bad, label, g.n * sizeof *bad);
    bad[0] = g.n + 7;
    TH_EXPECT(tc, !clirr_verify_cc(&g, label, bad, &r), "a label out of range passed");
done:
    clirr_graph_free(&g);
    free(label);
    free(bad);
}

typedef struct cc_case {
    const char *variant;
    const char *rounds;   /* afforest's neighbor-rounds */
    clirr_push_mode push;
    int tmpl;             /* -1 = auto */
} cc_case;

static void run_variant(th_case *tc)
{
    const cc_case *cc = tc->param;
    const clirr_algo *a = clirr_algo_find("cc");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    uint32_t *expected = NULL, *got = NULL;
    TH_REQUIRE(tc, a, "cc is not in the registry");
    for (size_t i = 0; i < NINPUTS; i++) {
        const cc_input *ci = &inputs[i];
        TH_OK(tc, load(ci, &g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, true, ci->name, &in, &err));
        const clirr_graph *ig = clirr_input_graph(in);
        clirr_intent it;
        clirr_intent_default(a, &it);
        it.variant = clirr_algo_variant(a, cc->variant);
        it.push = cc->push;
        it.tmpl = cc->tmpl;
        it.lb_thres = cc->tmpl > 0 ? 4 : 0;
        int k = clirr_algo_param(a, "neighbor-rounds");
        TH_REQUIRE(tc, k >= 0, "cc has no neighbor-rounds");
        TH_OK(tc, clirr_param_set(a, (unsigned)k, cc->rounds, &it.params, &err));
        clirr_plan plan;
        int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
        if (rc == CLIRR_ERR_UNSUPPORTED) {
            th_skip(tc, "%s", err.msg);
            goto done;
        }
        TH_OK(tc, rc);
        expected = malloc((ig->n + 1) * sizeof *expected);
        got = malloc((ig->n + 1) * sizeof *got);
        TH_REQUIRE(tc, expected && got, "out of memory");
        TH_OK(tc, clirr_ref_cc(ig, expected, &err));
        uint64_t components = 0;
        for (uint32_t v = 0; v < ig->n; v++)
            components += expected[v] == v;
        TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
        for (int trial = 0; trial < 2; trial++) {
            clirr_stats st;
            memset(got, 0xA5, ig->n * sizeof *got);
            TH_OK(tc, clirr_session_run(s, got, &st, &err));
            clirr_verify_report rep;
            TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep), "%s, trial %d: %s", ci->name, trial + 1,
                       rep.text);
            clirr_extras x;
            clirr_session_extras(s, got, &x);
            const clirr_extra *c = th_extra(&x, "components"), *ran = th_extra(&x, "variant_run");
            TH_REQUIRE(tc, c && c->u == components, "%s: components %llu, expected %llu", ci->name,
                       c ? (unsigned long long)c->u : 0ULL, (unsigned long long)components);
            TH_REQUIRE(tc, ran && ran->text, "%s: no variant_run", ci->name);
            if (strcmp(cc->variant, "auto"))
                TH_REQUIRE(tc, !strcmp(ran->text, cc->variant), "%s: ran %s, asked %s", ci->name, ran->text,
                           cc->variant);
            else
                TH_REQUIRE(tc, strcmp(ran->text, "auto") && clirr_algo_variant(a, ran->text) >= 0,
                           "%s: auto ran '%s'", ci->name, ran->text);
        }
        clirr_session_release(s);
        s = NULL;
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

static char out[1 << 20], errtext[1 << 14];

static void cli(th_case *tc)
{
    char dev[16], file[1024], outp[1024];
    clirr_error err;
    clirr_graph g = {0};
    uint32_t *label = NULL;
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    snprintf(outp, sizeof outp, "%s/cc-labels-%s.txt", th_tmp_dir(), dev);
    TH_OK(tc, clirr_graph_generate("random:n=3000,m=2000,seed=2", &g, &err));
    snprintf(file, sizeof file, "%s/cc-input-%s.el", th_tmp_dir(), dev);
    TH_OK(tc, clirr_graph_write(file, &g, &err));
    label = malloc(g.n * sizeof *label);
    TH_REQUIRE(tc, label, "out of memory");
    TH_OK(tc, clirr_ref_cc(&g, label, &err));
    uint64_t components = 0;
    for (uint32_t v = 0; v < g.n; v++)
        components += label[v] == v;
    const char *variants[] = {"topo", "data", "afforest", "auto"};
    for (int i = 0; i < 4; i++) {
        char *argv[] = {(char *)th_clirr_path(), "run", "cc", "--graph", file, "--device", dev, "--variant",
                        (char *)variants[i], "--output", outp, NULL};
        int sig = 0;
        int rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, &sig);
        TH_REQUIRE(tc, rc == 0 && !sig, "%s: exit %d: %s", variants[i], rc, errtext);
        FILE *f = fopen(outp, "r");
        TH_REQUIRE(tc, f, "no output file %s", outp);
        uint32_t v = 0, x;
        while (v < g.n && fscanf(f, "%u", &x) == 1) {
            if (x != label[v])
                break;
            v++;
        }
        fclose(f);
        TH_REQUIRE(tc, v == g.n, "%s: --output line %u differs from the serial labels", variants[i], v + 1);
    }
    char *argv[] = {(char *)th_clirr_path(), "run", "cc", "--graph", file, "--device", dev, "--json", NULL};
    int sig = 0;
    int rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, &sig);
    TH_REQUIRE(tc, rc == 0 && !sig, "--json: exit %d: %s", rc, errtext);
    json_object *doc = json_tokener_parse(out), *runs = NULL, *results = NULL, *c = NULL;
    TH_REQUIRE(tc, doc && json_object_object_get_ex(doc, "runs", &runs) &&
                       json_object_object_get_ex(json_object_array_get_idx(runs, 0), "results", &results) &&
                       json_object_object_get_ex(results, "components", &c),
               "no runs[0].results.components in the JSON");
    TH_EXPECT(tc, (uint64_t)json_object_get_int64(c) == components, "JSON components %lld, expected %llu",
              (long long)json_object_get_int64(c), (unsigned long long)components);
    json_object_put(doc);
done:
    clirr_graph_free(&g);
    free(label);
}

TH_REGISTER(register_cc_tests)
{
    th_add("cc/reference", reference, NULL);
    static const cc_case cases[] = {
        {"topo", "2", CLIRR_PUSH_AUTO, CLIRR_TEMPLATE_BASELINE},
        {"topo", "2", CLIRR_PUSH_AUTO, CLIRR_TEMPLATE_DBUF_SHARED},
        {"data", "2", CLIRR_PUSH_ATOMIC, CLIRR_TEMPLATE_BASELINE},
        {"data", "2", CLIRR_PUSH_CHUNK, CLIRR_TEMPLATE_DUAL_QUEUE},
        {"data", "2", CLIRR_PUSH_COMPACT, CLIRR_TEMPLATE_DBUF_GLOBAL},
        {"afforest", "0", CLIRR_PUSH_AUTO, CLIRR_TEMPLATE_BASELINE},
        {"afforest", "1", CLIRR_PUSH_AUTO, CLIRR_TEMPLATE_DBUF_SHARED},
        {"afforest", "2", CLIRR_PUSH_AUTO, CLIRR_TEMPLATE_BASELINE},
        {"afforest", "5", CLIRR_PUSH_AUTO, CLIRR_TEMPLATE_DUAL_QUEUE},
        {"auto", "2", CLIRR_PUSH_AUTO, -1},
    };
    static char names[sizeof cases / sizeof cases[0]][96];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const cc_case *c = &cases[i];
        snprintf(names[i], sizeof names[i], "cc/%s/rounds-%s/%s/%s", c->variant, c->rounds,
                 clirr_push_mode_name(c->push),
                 c->tmpl < 0 ? "auto" : clirr_template_name((clirr_template)c->tmpl));
        th_add_device(names[i], run_variant, c);
    }
    th_add_device_noctx("cc/cli", cli, NULL);
}
