/* tests/test_datasets.c - the optional tier over real graphs
 * (../shared/datasets, or $CLIRR_DATASETS): road networks, social graphs
 * and meshes, every registered algorithm in every variant on every device
 * (from the vertex of largest out-degree where it takes a source, a
 * sample of 16 where it takes many), verified against the CPU references;
 * and the lists and trees derived from them, through listrank and
 * treestats. Skips with a message when the folder is absent (it is,
 * outside the workplace that holds it). */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dataset {
    const char *file;
    const char *kind;
    bool symmetrize;
} dataset;

static const dataset sets[] = {
    {"rome99.gr.gz", "road", false},
    {"luxembourg_osm.mtx.gz", "road", false},
    {"facebook_combined.txt.gz", "social", true},
    {"wiki-Vote.txt.gz", "social", false},
    {"email-Eu-core.txt.gz", "social", false},
    {"p2p-Gnutella08.txt.gz", "p2p", false},
    {"delaunay_n16.mtx.gz", "mesh", false},
    {"jagmesh7.el.gz", "mesh", false},
    {"1k_128k.gr.gz", "random", false},
};

static void run_set(th_case *tc)
{
    const dataset *ds = tc->param;
    const char *why = NULL;
    const char *dir = th_datasets_dir(&why);
    if (!dir) {
        th_skip(tc, "%s", why);
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, ds->file);
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    void *expected = NULL, *got = NULL;
    TH_OK(tc, clirr_graph_read(path, &g, &err));
    if (ds->symmetrize)
        TH_OK(tc, clirr_graph_symmetrize(&g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, true, ds->file, &in, &err));
    uint64_t items = clirr_input_items(in);
    for (size_t a = 0; a < clirr_algo_count(); a++) {
        const clirr_algo *al = clirr_algo_at(a);
        if (al->input != CLIRR_INPUT_GRAPH)
            continue;
        expected = malloc((items + 1) * al->value_size);
        got = malloc((items + 1) * al->value_size);
        TH_REQUIRE(tc, expected && got, "out of memory");
        for (unsigned v = 0; v < al->nvariants; v++) {
            clirr_intent it;
            clirr_intent_default(al, &it);
            it.variant = (int)v;
            /* The highest-degree vertex reaches most of a graph. */
            it.source.rule = CLIRR_SOURCE_MAX_DEGREE;
            it.source.count = al->sources == CLIRR_SOURCES_MANY ? 16 : 1;
            clirr_plan plan;
            int rc = clirr_plan_make(al, &tc->device->caps, &it, in, &plan, &err);
            if (rc == CLIRR_ERR_UNSUPPORTED)
                continue;
            TH_OK(tc, rc);
            /* Some inputs are not for every algorithm (SSSP refuses
             * negative weights): the reference says so, the case goes on. */
            if (al->reference(in, &plan, expected, &err) == CLIRR_ERR_INPUT)
                continue;
            TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
            clirr_stats st;
            clirr_verify_report rep;
            memset(&rep, 0, sizeof rep);
            TH_OK(tc, clirr_session_run(s, got, &st, &err));
            TH_REQUIRE(tc, al->verify(in, &plan, expected, got, &rep), "%s %s %s: %s", ds->file, al->name,
                       clirr_plan_variant_name(&plan), rep.text);
            clirr_session_release(s);
            s = NULL;
        }
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

/* The lists and trees derived from the graphs above (lists/, trees/): the
 * readers take every one, and every variant of listrank or treestats
 * ranks or roots it on every device (trees from vertex 0 and from their
 * last vertex), verified against the serial references. */
static void run_list_or_tree(th_case *tc)
{
    const char *file = tc->param;
    const char *why = NULL;
    const char *dir = th_datasets_dir(&why);
    if (!dir) {
        th_skip(tc, "%s", why);
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    bool list = strstr(file, ".list") != NULL;
    const clirr_algo *al = clirr_algo_find(list ? "listrank" : "treestats");
    clirr_error err;
    clirr_list l = {0};
    clirr_tree t = {0};
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    void *expected = NULL, *got = NULL;
    for (int pass = 0; pass < (list ? 1 : 2); pass++) {
        if (list) {
            TH_OK(tc, clirr_list_read(path, &l, &err));
            TH_OK(tc, clirr_input_from_list(&l, true, file, &in, &err));
        } else {
            TH_OK(tc, clirr_tree_read(path, &t, &err));
            t.root = pass ? t.n - 1 : 0;
            TH_OK(tc, clirr_input_from_tree(&t, true, file, &in, &err));
        }
        uint64_t items = clirr_input_items(in);
        expected = malloc((items + 1) * al->value_size);
        got = malloc((items + 1) * al->value_size);
        TH_REQUIRE(tc, expected && got, "out of memory");
        for (unsigned v = 0; v < al->nvariants; v++) {
            clirr_intent it;
            clirr_intent_default(al, &it);
            it.variant = (int)v;
            clirr_plan plan;
            int rc = clirr_plan_make(al, &tc->device->caps, &it, in, &plan, &err);
            if (rc == CLIRR_ERR_UNSUPPORTED)
                continue;
            TH_OK(tc, rc);
            TH_OK(tc, al->reference(in, &plan, expected, &err));
            TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
            clirr_stats st;
            clirr_verify_report rep;
            memset(&rep, 0, sizeof rep);
            TH_OK(tc, clirr_session_run(s, got, &st, &err));
            TH_REQUIRE(tc, al->verify(in, &plan, expected, got, &rep), "%s %s %s: %s", file, al->name,
                       clirr_plan_variant_name(&plan), rep.text);
            clirr_session_release(s);
            s = NULL;
        }
        free(expected);
        free(got);
        expected = got = NULL;
        clirr_input_free(in);
        in = NULL;
    }
done:
    clirr_session_release(s);
    clirr_input_free(in);
    clirr_list_free(&l);
    clirr_tree_free(&t);
    free(expected);
    free(got);
}

static const char *const lists_and_trees[] = {
    "lists/single.list.gz", "lists/pair.list.gz", "lists/random-1000.list.gz",
    "lists/random-262144.list.gz", "lists/sequential-100000.list.gz", "lists/reverse-100000.list.gz",
    "lists/lux-bfs-order.list.gz", "lists/wiki-degree-order.list.gz",
    "trees/pair.tree.gz", "trees/email-Eu-core-bfs.tree.gz", "trees/facebook-bfs.tree.gz",
    "trees/rome99-bfs.tree.gz", "trees/lux-bfs.tree.gz", "trees/lux-dfs.tree.gz",
};

TH_REGISTER(register_dataset_tests)
{
    static char lt_names[sizeof lists_and_trees / sizeof lists_and_trees[0]][96];
    for (size_t i = 0; i < sizeof lists_and_trees / sizeof lists_and_trees[0]; i++) {
        snprintf(lt_names[i], sizeof lt_names[i], "datasets/%s", lists_and_trees[i]);
        th_add_device(lt_names[i], run_list_or_tree, lists_and_trees[i]);
    }
    static char names[sizeof sets / sizeof sets[0]][96];
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        snprintf(names[i], sizeof names[i], "datasets/%s/%s", sets[i].kind, sets[i].file);
        th_add_device(names[i], run_set, &sets[i]);
    }
}
