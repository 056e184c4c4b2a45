/* tests/test_datasets.c - the optional tier over real graphs
 * (../shared/datasets, or $CLIRR_DATASETS): road networks, social graphs
 * and meshes, BFS and SSSP in both variants on every device, verified
 * against the CPU references. Skips with a message when the folder is
 * absent (it is, outside the workplace that holds it). */
#include "harness.h"
#include "ref/ref.h"

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
    void *expected = NULL, *got = NULL;
    TH_OK(tc, clirr_graph_read(path, &g, &err));
    if (ds->symmetrize)
        TH_OK(tc, clirr_graph_symmetrize(&g, &err));
    expected = malloc((size_t)g.n * 4);
    got = malloc((size_t)g.n * 4);
    TH_REQUIRE(tc, expected && got, "out of memory");
    /* The highest-degree vertex reaches most of a graph. */
    uint32_t source = 0;
    for (uint32_t v = 0; v < g.n; v++)
        if (clirr_graph_degree(&g, v) > clirr_graph_degree(&g, source))
            source = v;
    for (int algo = 0; algo < 2; algo++) {
        if (algo == 0)
            TH_OK(tc, clirr_ref_bfs(&g, source, expected, &err));
        else
            TH_OK(tc, clirr_ref_sssp(&g, source, expected, &err));
        for (int v = 0; v <= CLIRR_VARIANT_DATA; v++) {
            clirr_algo_opts o;
            clirr_algo_opts_default(&o);
            o.variant = (clirr_variant)v;
            o.source = source;
            clirr_algo_stats st;
            clirr_verify_report rep;
            bool ok;
            if (algo == 0) {
                TH_OK(tc, clirr_bfs(tc->ctx, &g, &o, got, &st, &err));
                ok = clirr_verify_bfs(&g, source, expected, got, &rep);
            } else {
                TH_OK(tc, clirr_sssp(tc->ctx, &g, &o, got, &st, &err));
                ok = clirr_verify_sssp(&g, source, expected, got, &rep);
            }
            TH_REQUIRE(tc, ok, "%s %s %s: %s", ds->file, algo ? "sssp" : "bfs", clirr_variant_name(o.variant),
                       rep.text);
        }
    }
done:
    clirr_graph_free(&g);
    free(expected);
    free(got);
}

TH_REGISTER(register_dataset_tests)
{
    static char names[sizeof sets / sizeof sets[0]][96];
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        snprintf(names[i], sizeof names[i], "datasets/%s/%s", sets[i].kind, sets[i].file);
        th_add_device(names[i], run_set, &sets[i]);
    }
}
