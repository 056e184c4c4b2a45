/* tests/test_algo.c - every registered algorithm on every device, through
 * the registry alone: each variant, push mode and template the device can
 * run, verified by the algorithm's own verifier against its CPU reference
 * on generated graphs (skewed rmat, uniform random, grid), a data/ sample
 * and a symmetrized graph; list, tree and formula algorithms on generated
 * and sample lists, trees and formulas; Barnes-Hut on a Plummer sphere;
 * mesh refinement on a generated disk.
 * Each case prepares once and runs two trials, which must both verify and
 * compile nothing; a worklist of capacity 1 must still give the right
 * answer. Algorithm-specific corner cases live
 * in the algorithms' own test files. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct algo_input {
    clirr_input_kind kind;
    const char *spec;  /* generator spec, or NULL */
    const char *file;  /* file under data/, or NULL */
    bool symmetrize;
    uint32_t source;   /* graphs: the source; trees: the root */
} algo_input;

static const algo_input inputs[] = {
    {CLIRR_INPUT_GRAPH, "rmat:scale=12,ef=8,seed=3,weights=1-100", NULL, false, 0},
    {CLIRR_INPUT_GRAPH, "random:n=5000,m=20000,seed=5,weights=0-50", NULL, false, 17},
    {CLIRR_INPUT_GRAPH, "grid:w=64,h=48,weights=1-9", NULL, false, 1000},
    {CLIRR_INPUT_GRAPH, "rmat:scale=10,ef=4,seed=9", NULL, true, 3},
    {CLIRR_INPUT_GRAPH, NULL, "grid-32x32.gr", false, 0},
    {CLIRR_INPUT_GRAPH, NULL, "tiny.gr", false, 0},
    {CLIRR_INPUT_LIST, "list:n=30000,order=random,seed=2", NULL, false, 0},
    {CLIRR_INPUT_LIST, "list:n=20000,order=ordered-unbalanced,lists=9,seed=3", NULL, false, 0},
    {CLIRR_INPUT_LIST, "list:n=30000,order=sequential", NULL, false, 0},
    {CLIRR_INPUT_LIST, NULL, "three.list", false, 0},
    {CLIRR_INPUT_TREE, "tree:kind=binary,n=20000,seed=4", NULL, false, 0},
    {CLIRR_INPUT_TREE, "tree:kind=attach,n=5000,seed=5", NULL, false, 77},
    {CLIRR_INPUT_TREE, NULL, "small.tree", false, 5},
    {CLIRR_INPUT_BODIES, "plummer:n=3000,seed=2", NULL, false, 0},
    {CLIRR_INPUT_TREE, "tree:kind=regular,depth=5,outdeg=6,sparsity=1,seed=3", NULL, false, 0},
    {CLIRR_INPUT_CNF, "ksat:n=2000,m=8000,seed=6,planted=1", NULL, false, 0},
    {CLIRR_INPUT_CNF, NULL, "planted.cnf", false, 0},
    {CLIRR_INPUT_CNF, NULL, "unsat.cnf", false, 0},
    {CLIRR_INPUT_MESH, "mesh:n=2000,seed=4,shape=disk", NULL, false, 0},
};

/* A list, a formula or a tree input (trees rooted at ai->source). */
static int load_other(const algo_input *ai, const char *path, clirr_input **in, clirr_error *err)
{
    const char *name = ai->spec ? ai->spec : ai->file;
    int rc;
    if (ai->kind == CLIRR_INPUT_BODIES) {
        clirr_bodies b = {0};
        rc = clirr_bodies_generate(ai->spec, &b, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_bodies(&b, true, name, in, err);
        clirr_bodies_free(&b);
        return rc;
    }
    if (ai->kind == CLIRR_INPUT_MESH) {
        clirr_mesh m = {0};
        rc = clirr_mesh_generate(ai->spec, &m, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_mesh(&m, true, name, in, err);
        clirr_mesh_free(&m);
        return rc;
    }
    if (ai->kind == CLIRR_INPUT_CNF) {
        clirr_cnf f = {0};
        rc = ai->spec ? clirr_cnf_generate(ai->spec, &f, err) : clirr_cnf_read(path, &f, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_cnf(&f, true, name, in, err);
        clirr_cnf_free(&f);
        return rc;
    }
    if (ai->kind == CLIRR_INPUT_LIST) {
        clirr_list l = {0};
        rc = ai->spec ? clirr_list_generate(ai->spec, &l, err) : clirr_list_read(path, &l, err);
        if (rc == CLIRR_OK)
            rc = clirr_input_from_list(&l, true, name, in, err);
        clirr_list_free(&l);
        return rc;
    }
    clirr_tree t = {0};
    rc = ai->spec ? clirr_tree_generate(ai->spec, &t, err) : clirr_tree_read(path, &t, err);
    t.root = ai->source;
    if (rc == CLIRR_OK)
        rc = clirr_input_from_tree(&t, true, name, in, err);
    clirr_tree_free(&t);
    return rc;
}

static int load(const algo_input *ai, clirr_input **in, clirr_error *err)
{
    clirr_graph g = {0};
    int rc;
    char path[1024];
    if (ai->file)
        snprintf(path, sizeof path, "%s/%s", th_data_dir(), ai->file);
    if (ai->kind != CLIRR_INPUT_GRAPH)
        return load_other(ai, path, in, err);
    if (ai->spec) {
        rc = clirr_graph_generate(ai->spec, &g, err);
    } else {
        snprintf(path, sizeof path, "%s/%s", th_data_dir(), ai->file);
        rc = clirr_graph_read(path, &g, err);
    }
    if (rc == CLIRR_OK && ai->symmetrize)
        rc = clirr_graph_symmetrize(&g, err);
    if (rc == CLIRR_OK)
        rc = clirr_input_from_graph(&g, true, ai->spec ? ai->spec : ai->file, in, err);
    clirr_graph_free(&g);
    return rc;
}

/* One case: an algorithm's variant with a push mode, worklist capacity and
 * template, over every input. */
typedef struct algo_case {
    const clirr_algo *algo;
    int variant;           /* index into algo->variants */
    clirr_push_mode push;
    size_t capacity;       /* 0 = default; 1 forces overflows */
    int tmpl;              /* -1 = the policy's choice, else a clirr_template */
    uint32_t thres;        /* lb_THRES; 0 = default */
} algo_case;

/* Intent for a case on an input: small samples where an algorithm takes
 * many sources, so the suite stays quick. */
static void case_intent(const algo_case *ac, const algo_input *ai, uint32_t n, clirr_intent *it)
{
    clirr_intent_default(ac->algo, it);
    it->variant = ac->variant;
    it->push = ac->push;
    it->wl_capacity = ac->capacity;
    it->tmpl = ac->tmpl;
    it->lb_thres = ac->thres;
    if (ac->algo->sources == CLIRR_SOURCES_ONE) {
        it->source.rule = CLIRR_SOURCE_VERTEX;
        it->source.vertex = ai->source < n ? ai->source : 0;
    } else if (ac->algo->sources == CLIRR_SOURCES_MANY) {
        it->source.count = 12;
    }
}

static void run_case(th_case *tc)
{
    const algo_case *ac = tc->param;
    const clirr_algo *a = ac->algo;
    clirr_error err;
    clirr_error_clear(&err);
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    void *expected = NULL, *got = NULL;
    size_t tried = 0, unsupported = 0;
    char why[CLIRR_MSG_MAX] = "";
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        const algo_input *ai = &inputs[i];
        if (ai->kind != a->input)
            continue;
        tried++;
        TH_OK(tc, load(ai, &in, &err));
        const char *name = clirr_input_name(in);
        uint64_t items = clirr_input_items(in);
        clirr_intent it;
        case_intent(ac, ai, (uint32_t)items, &it);
        clirr_plan plan;
        int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
        if (rc == CLIRR_ERR_UNSUPPORTED) {
            /* A device that cannot run it, or an input the variant rules
             * out (wyllie32 and long lists): the next input may do. */
            unsupported++;
            snprintf(why, sizeof why, "%s", err.msg);
            clirr_input_free(in);
            in = NULL;
            continue;
        }
        TH_OK(tc, rc);
        if (ac->tmpl >= 0)
            TH_REQUIRE(tc, plan.tmpl == (clirr_template)ac->tmpl, "planned %s", clirr_template_name(plan.tmpl));
        expected = malloc((items + 1) * a->value_size);
        got = malloc((items + 1) * a->value_size);
        TH_REQUIRE(tc, expected && got, "out of memory");
        TH_OK(tc, a->reference(in, &plan, expected, &err));
        TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
        for (int trial = 0; trial < 2; trial++) {
            clirr_stats st;
            memset(got, 0xA5, items * a->value_size);
            TH_OK(tc, clirr_session_run(s, got, &st, &err));
            clirr_verify_report rep;
            memset(&rep, 0, sizeof rep);
            TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep), "%s, trial %d: %s", name, trial + 1,
                       rep.text);
            TH_REQUIRE(tc, st.timing.build_ns == 0, "%s: trial %d compiled kernels (%.3f ms)", name,
                       trial + 1, st.timing.build_ns / 1e6);
            TH_REQUIRE(tc, st.iterations > 0, "%s: no rounds counted", name);
            /* A capacity of 1 must overflow whenever a round pushes two items. */
            if (ac->capacity == 1 && st.wl_max > 1)
                TH_REQUIRE(tc, st.wl_grows > 0 || trial > 0,
                           "%s: tiny worklist never grew (grows %u reruns %u)", name, st.wl_grows,
                           st.wl_reruns);
        }
        clirr_session_release(s);
        clirr_input_free(in);
        free(expected);
        free(got);
        s = NULL;
        in = NULL;
        expected = got = NULL;
    }
    if (tried && unsupported == tried)
        th_skip(tc, "%s", why);
done:
    clirr_session_release(s);
    clirr_input_free(in);
    free(expected);
    free(got);
}

/* Every descriptor is complete and its defaults are valid. */
static void descriptors(th_case *tc)
{
    clirr_error err;
    TH_REQUIRE(tc, clirr_algo_count() > 0, "empty registry");
    for (size_t i = 0; i < clirr_algo_count(); i++) {
        const clirr_algo *a = clirr_algo_at(i);
        TH_REQUIRE(tc, a->name && a->summary && a->study, "algorithm %zu lacks a name or summary", i);
        TH_REQUIRE(tc, clirr_algo_find(a->name) == a, "%s: found another descriptor by name", a->name);
        TH_REQUIRE(tc, a->nvariants >= 1 && a->default_variant < a->nvariants, "%s: variants", a->name);
        TH_REQUIRE(tc, a->nparams <= CLIRR_MAX_PARAMS, "%s: too many parameters", a->name);
        TH_REQUIRE(tc, a->value_size > 0 && a->prepare && a->run && a->release && a->reference &&
                           a->verify && (a->write_value || a->write_result || a->write_prefix),
                   "%s: a step is missing", a->name);
        clirr_params p;
        memset(&p, 0, sizeof p);
        for (unsigned k = 0; k < a->nparams; k++) {
            TH_OK(tc, clirr_param_set(a, k, a->params[k].def, &p, &err));
            TH_REQUIRE(tc, clirr_algo_param(a, a->params[k].name) == (int)k, "%s: parameter %s twice",
                       a->name, a->params[k].name);
        }
        for (unsigned v = 0; v < a->nvariants; v++)
            TH_REQUIRE(tc, a->nvariants == 1 || a->variants[v].name, "%s: variant %u unnamed", a->name, v);
    }
done:;
}

/* The registry's cases: algo/NAME/VARIANT[/PUSH][/template/T][/overflow]. */
static void add_case(const char *name, const algo_case *c)
{
    algo_case *copy = malloc(sizeof *copy);
    char *text = strdup(name);
    if (!copy || !text)
        abort();
    *copy = *c;
    th_add_device(text, run_case, copy);
}

TH_REGISTER(register_algo_tests)
{
    th_add("algo/descriptors", descriptors, NULL);
    char name[160];
    for (size_t i = 0; i < clirr_algo_count(); i++) {
        const clirr_algo *a = clirr_algo_at(i);
        for (unsigned v = 0; v < a->nvariants; v++) {
            const char *vn = a->variants[v].name ? a->variants[v].name : "-";
            algo_case c = {a, (int)v, CLIRR_PUSH_AUTO, 0, -1, 0};
            if (a->variants[v].worklist) {
                for (int p = 0; p < CLIRR_PUSH_COUNT_; p++) {
                    c.push = (clirr_push_mode)p;
                    c.capacity = 0;
                    snprintf(name, sizeof name, "algo/%s/%s/%s", a->name, vn, clirr_push_mode_name(c.push));
                    add_case(name, &c);
                    c.capacity = 1;
                    snprintf(name, sizeof name, "algo/%s/%s/%s/overflow", a->name, vn,
                             clirr_push_mode_name(c.push));
                    add_case(name, &c);
                }
                c.push = CLIRR_PUSH_AUTO;
                c.capacity = 0;
            } else {
                snprintf(name, sizeof name, "algo/%s/%s", a->name, vn);
                add_case(name, &c);
            }
            /* Every template of the variant's family: the recursion
             * templates for a recursion, else the loop templates, with a
             * small lb_THRES so the block-mapped (and child-kernel) paths
             * see plenty of items; deferring templates also under
             * overflow. Lists and trees meet the loop templates only
             * through a worklist variant (treestats' BFS). */
            bool recursion = a->variants[v].recursion;
            bool loops = clirr_variant_uses_templates(a, v);
            for (int t = 0; loops && t < CLIRR_TEMPLATE_COUNT_; t++) {
                if (clirr_template_is_recursion((clirr_template)t) != recursion)
                    continue;
                c.tmpl = t;
                c.thres = 4;
                c.capacity = 0;
                snprintf(name, sizeof name, "algo/%s/%s/template/%s", a->name, vn,
                         clirr_template_name((clirr_template)t));
                add_case(name, &c);
                if (a->variants[v].worklist && t != CLIRR_TEMPLATE_BASELINE) {
                    c.capacity = 1;
                    c.push = t % 2 ? CLIRR_PUSH_ATOMIC : CLIRR_PUSH_CHUNK;
                    snprintf(name, sizeof name, "algo/%s/%s/template/%s/overflow", a->name, vn,
                             clirr_template_name((clirr_template)t));
                    add_case(name, &c);
                    c.push = CLIRR_PUSH_AUTO;
                }
            }
        }
    }
}
