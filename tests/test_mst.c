/* tests/test_mst.c - minimum spanning forests: the undirected form they
 * read, Kruskal's reference and its verifier on hand-made graphs with known
 * forests (and forests it must reject), then every variant (topo, data with
 * and without duplicates, hybrid at several switch points), with the 64-bit
 * atomic and with the two-pass fallback, through the thread-mapped and a
 * load-balancing template, on every device, against Kruskal on: rmat with
 * negative weights, uniform random, a grid, many isolated vertices, a
 * disconnected graph, parallel arcs of different weights, equal weights
 * everywhere, unweighted, self-loops, a path with increasing weights (long
 * hook chains), a star, a complete graph, and the 1- and 2-vertex graphs.
 * Each run's extras (total weight, components) and --output lines are
 * checked too, and the command line's contract: --output, JSON, and exit 2
 * for weights that are not 32-bit integers. */
#include "arcs.h"
#include "harness.h"
#include "ref/mst.h"
#include "ref/ref.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- graphs built by hand ------------------------------------------------ */

/* Two grids and a random piece side by side, no arc between them. */
static int disconnected(clirr_graph *g, clirr_error *err)
{
    const char *parts[] = {"grid:w=12,h=9,weights=1-9", "random:n=300,m=900,seed=3,weights=-5-5",
                           "grid:w=7,h=7,weights=2-2"};
    arcs a = {0};
    for (size_t p = 0; p < 3; p++) {
        clirr_graph part = {0};
        int rc = clirr_graph_generate(parts[p], &part, err);
        if (rc != CLIRR_OK)
            return rc;
        for (uint32_t u = 0; u < part.n; u++)
            for (uint32_t k = part.row[u]; k < part.row[u + 1]; k++)
                arc(&a, a.n + u, a.n + part.col[k], part.weight[k]);
        a.n += part.n;
        clirr_graph_free(&part);
    }
    return arcs_build(&a, true, g, err);
}

/* A ring whose pairs each have parallel arcs of different weights in both
 * directions, the lightest not first, plus chords: a form that kept any
 * but the lightest arc would give a heavier forest. */
static int parallel(clirr_graph *g, clirr_error *err)
{
    arcs a = {.n = 60};
    for (uint32_t i = 0; i < 60; i++) {
        uint32_t j = (i + 1) % 60;
        int32_t light = (int32_t)((i * 7) % 13);
        arc(&a, i, j, light + 40);
        arc(&a, j, i, light + 30);
        arc(&a, i, j, light);
        arc(&a, i, j, light + 50);
        if (i % 5 == 0)
            arc(&a, i, (i + 17) % 60, 20 + (int32_t)(i % 3));
    }
    return arcs_build(&a, true, g, err);
}

/* A random graph with a very light self-loop at every vertex. */
static int self_loops(clirr_graph *g, clirr_error *err)
{
    clirr_graph r = {0};
    int rc = clirr_graph_generate("random:n=500,m=1500,seed=11,weights=1-30", &r, err);
    if (rc != CLIRR_OK)
        return rc;
    arcs a = {.n = r.n};
    for (uint32_t u = 0; u < r.n; u++) {
        arc(&a, u, u, -1000);
        for (uint32_t k = r.row[u]; k < r.row[u + 1]; k++)
            arc(&a, u, r.col[k], r.weight[k]);
    }
    clirr_graph_free(&r);
    return arcs_build(&a, true, g, err);
}

/* A path with weights rising along it (each component hooks towards 0:
 * one long chain in one round), then falling. */
static int path(clirr_graph *g, bool rising, clirr_error *err)
{
    arcs a = {.n = 3000};
    for (uint32_t i = 0; i + 1 < a.n; i++)
        arc(&a, i, i + 1, rising ? (int32_t)i : (int32_t)(a.n - i));
    return arcs_build(&a, true, g, err);
}

static int star(clirr_graph *g, clirr_error *err)
{
    arcs a = {.n = 3001};
    for (uint32_t i = 1; i < a.n; i++)
        arc(&a, i % 2 ? 0 : i, i % 2 ? i : 0, (int32_t)((i * 37) % 101));
    return arcs_build(&a, true, g, err);
}

static int complete(clirr_graph *g, uint32_t n, clirr_error *err)
{
    arcs a = {.n = n};
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t v = 0; v < n; v++)
            if (u != v)
                arc(&a, u, v, 4);
    return arcs_build(&a, true, g, err);
}

/* The tiny graphs: one vertex, with a self-loop; two vertices with one
 * arc, with arcs both ways of different weights, with none. */
static int tiny(clirr_graph *g, int which, clirr_error *err)
{
    arcs a = {.n = which < 2 ? 1 : 2};
    switch (which) {
    case 1: arc(&a, 0, 0, -3); break;
    case 2: arc(&a, 1, 0, 9); break;
    case 3:
        arc(&a, 0, 1, 8);
        arc(&a, 1, 0, -2);
        arc(&a, 0, 1, 5);
        break;
    default: break;
    }
    return arcs_build(&a, true, g, err);
}

typedef struct mst_input {
    const char *name;
    const char *spec; /* a generator spec, or NULL for a built graph */
    int built;
} mst_input;

enum { B_DISCONNECTED = 1, B_PARALLEL, B_SELF_LOOPS, B_PATH_UP, B_PATH_DOWN, B_STAR, B_COMPLETE,
       B_TINY0, B_TINY1, B_TINY2, B_TINY3, B_TINY4 };

static const mst_input inputs[] = {
    {"rmat, negative weights", "rmat:scale=10,ef=8,seed=4,weights=-20-20", 0},
    {"uniform random", "random:n=3000,m=9000,seed=6,weights=1-1000", 0},
    {"grid", "grid:w=30,h=20,weights=1-3", 0},
    {"many isolated vertices", "random:n=4000,m=300,seed=7,weights=1-9", 0},
    {"disconnected", NULL, B_DISCONNECTED},
    {"parallel arcs of different weights", NULL, B_PARALLEL},
    {"equal weights", "rmat:scale=9,ef=6,seed=1,weights=3-3", 0},
    {"unweighted", "rmat:scale=9,ef=4,seed=5", 0},
    {"self-loops", NULL, B_SELF_LOOPS},
    {"path, rising weights", NULL, B_PATH_UP},
    {"path, falling weights", NULL, B_PATH_DOWN},
    {"star", NULL, B_STAR},
    {"complete K40, equal weights", NULL, B_COMPLETE},
    {"one vertex", NULL, B_TINY0},
    {"one vertex with a self-loop", NULL, B_TINY1},
    {"two vertices, one arc", NULL, B_TINY2},
    {"two vertices, parallel arcs both ways", NULL, B_TINY3},
    {"two vertices, no arc", NULL, B_TINY4},
};
#define NINPUTS (sizeof inputs / sizeof inputs[0])

static int load(const mst_input *mi, clirr_graph *g, clirr_error *err)
{
    if (mi->spec)
        return clirr_graph_generate(mi->spec, g, err);
    switch (mi->built) {
    case B_DISCONNECTED: return disconnected(g, err);
    case B_PARALLEL: return parallel(g, err);
    case B_SELF_LOOPS: return self_loops(g, err);
    case B_PATH_UP: return path(g, true, err);
    case B_PATH_DOWN: return path(g, false, err);
    case B_STAR: return star(g, err);
    case B_COMPLETE: return complete(g, 40, err);
    default: return tiny(g, mi->built - B_TINY0, err);
    }
}

/* ---- the undirected form --------------------------------------------------- */

static void undirected_form(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0}, u = {0};
    TH_OK(tc, parallel(&g, &err));
    TH_OK(tc, clirr_graph_undirected(&g, &u, &err));
    TH_REQUIRE(tc, u.n == g.n && u.weight, "form has %u vertices (%s weights)", u.n, u.weight ? "with" : "no");
    /* 60 ring pairs and 12 chords, both ways. */
    TH_REQUIRE(tc, u.m == 2 * (60 + 12), "form has %u arcs, expected %u", u.m, 2 * (60 + 12));
    for (uint32_t a = 0; a < u.n; a++)
        for (uint32_t k = u.row[a]; k < u.row[a + 1]; k++) {
            uint32_t b = u.col[k];
            TH_REQUIRE(tc, b != a, "self-loop at %u", a);
            TH_REQUIRE(tc, k == u.row[a] || u.col[k - 1] < b, "row %u not strictly increasing", a);
            /* The mirror arc, with the same weight. */
            bool back = false;
            for (uint32_t j = u.row[b]; j < u.row[b + 1]; j++)
                back |= u.col[j] == a && u.weight[j] == u.weight[k];
            TH_REQUIRE(tc, back, "arc %u -> %u has no mirror of weight %d", a, b, u.weight[k]);
            /* The lightest of the pair's arcs in g. */
            int32_t light = INT32_MAX;
            for (uint32_t x = 0; x < 2; x++) {
                uint32_t s = x ? b : a, d = x ? a : b;
                for (uint32_t j = g.row[s]; j < g.row[s + 1]; j++)
                    if (g.col[j] == d && g.weight[j] < light)
                        light = g.weight[j];
            }
            TH_REQUIRE(tc, u.weight[k] == light, "arc %u -> %u has weight %d, lightest %d", a, b, u.weight[k],
                       light);
        }
    clirr_graph_free(&u);
    clirr_graph_free(&g);
    /* Self-loops go, unweighted stays unweighted. */
    TH_OK(tc, clirr_graph_generate("rmat:scale=8,ef=4,seed=2", &g, &err));
    TH_OK(tc, clirr_graph_undirected(&g, &u, &err));
    TH_REQUIRE(tc, !u.weight, "an unweighted graph got weights");
    for (uint32_t a = 0; a < u.n; a++)
        for (uint32_t k = u.row[a]; k < u.row[a + 1]; k++)
            TH_REQUIRE(tc, u.col[k] != a, "self-loop at %u", a);
done:
    clirr_graph_free(&u);
    clirr_graph_free(&g);
}

/* ---- Kruskal and the verifier -------------------------------------------- */

/* The reference's forest as edge lists. */
static uint64_t edges_of(const uint32_t *parent, uint32_t n, uint32_t *a, uint32_t *b)
{
    uint64_t k = 0;
    for (uint32_t v = 0; v < n; v++)
        if (parent[v] != CLIRR_REF_NO_PARENT) {
            a[k] = v;
            b[k++] = parent[v];
        }
    return k;
}

static void kruskal(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    clirr_verify_report r;
    uint32_t *parent = NULL, *a = NULL, *b = NULL;
    int64_t total = 0;
    uint32_t trees = 0;
    /* Known answers: a triangle 1, 2, 3; the parallel arcs 8, -2, 5; the
     * tiny graphs. */
    arcs t = {.n = 3};
    arc(&t, 0, 1, 1);
    arc(&t, 1, 2, 2);
    arc(&t, 2, 0, 3);
    arc(&t, 2, 2, -50);
    TH_OK(tc, arcs_build(&t, true, &g, &err));
    parent = malloc(3 * sizeof *parent);
    TH_REQUIRE(tc, parent, "out of memory");
    TH_OK(tc, clirr_ref_mst(&g, parent, &total, &trees, &err));
    TH_REQUIRE(tc, total == 3 && trees == 1, "triangle: total %lld, %u trees", (long long)total, trees);
    TH_REQUIRE(tc, parent[0] == CLIRR_REF_NO_PARENT && parent[1] == 0 && parent[2] == 1,
               "triangle: parents %u %u %u", parent[0], parent[1], parent[2]);
    clirr_graph_free(&g);
    free(parent);
    parent = NULL;
    const struct {
        int which;
        int64_t total;
        uint32_t trees;
    } known[] = {{0, 0, 1}, {1, 0, 1}, {2, 9, 1}, {3, -2, 1}, {4, 0, 2}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        TH_OK(tc, tiny(&g, known[i].which, &err));
        parent = malloc(2 * sizeof *parent);
        TH_REQUIRE(tc, parent, "out of memory");
        TH_OK(tc, clirr_ref_mst(&g, parent, &total, &trees, &err));
        TH_REQUIRE(tc, total == known[i].total && trees == known[i].trees, "tiny graph %d: total %lld, %u trees",
                   known[i].which, (long long)total, trees);
        clirr_graph_free(&g);
        free(parent);
        parent = NULL;
    }
    /* The verifier accepts Kruskal's forest and rejects broken ones. */
    TH_OK(tc, clirr_graph_generate("random:n=400,m=1600,seed=9,weights=1-50", &g, &err));
    parent = malloc(g.n * sizeof *parent);
    a = malloc((g.n + 1) * sizeof *a);
    b = malloc((g.n + 1) * sizeof *b);
    TH_REQUIRE(tc, parent && a && b, "out of memory");
    TH_OK(tc, clirr_ref_mst(&g, parent, &total, &trees, &err));
    uint64_t k = edges_of(parent, g.n, a, b);
    TH_REQUIRE(tc, clirr_verify_mst(&g, parent, a, b, k, &r), "Kruskal's own forest fails: %s", r.text);
    /* Edge 0 swapped for another arc of the same vertex: no longer the
     * (unique) minimum forest, whatever else it is. */
    uint32_t sa = a[0], sb = b[0];
    for (uint32_t j = g.row[sa]; j < g.row[sa + 1]; j++)
        if (g.col[j] != sb && g.col[j] != sa) {
            b[0] = g.col[j];
            break;
        }
    TH_EXPECT(tc, b[0] == sb || !clirr_verify_mst(&g, parent, a, b, k, &r), "a swapped edge passed");
    b[0] = sb;
    TH_EXPECT(tc, !clirr_verify_mst(&g, parent, a, b, k - 1, &r), "a missing edge passed");
    a[k] = a[0];
    b[k] = b[0];
    TH_EXPECT(tc, !clirr_verify_mst(&g, parent, a, b, k + 1, &r), "a repeated edge passed");
    a[k] = 0;
    b[k] = g.n;
    TH_EXPECT(tc, !clirr_verify_mst(&g, parent, a, b, k + 1, &r), "a vertex out of range passed");
    /* An edge that is no arc: two vertices not adjacent. */
    uint32_t x = a[0], y = 0;
    for (y = 0; y < g.n; y++) {
        bool adj = y == x;
        for (uint32_t j = g.row[x]; j < g.row[x + 1]; j++)
            adj |= g.col[j] == y;
        for (uint32_t j = g.row[y]; j < g.row[y + 1]; j++)
            adj |= g.col[j] == x;
        if (!adj)
            break;
    }
    a[0] = x;
    b[0] = y;
    TH_EXPECT(tc, !clirr_verify_mst(&g, parent, a, b, k, &r), "a non-arc edge passed");
done:
    clirr_graph_free(&g);
    free(parent);
    free(a);
    free(b);
}

/* Real values that are not 32-bit integers are refused, not rounded. */
static void weight_range(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    uint32_t parent[4];
    const char *bodies[] = {"4 4 3\n1 2 1.5\n2 3 2\n3 4 1\n", "4 4 3\n1 2 3000000000\n2 3 2\n3 4 1\n"};
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/weights-%d.mtx", th_tmp_dir(), i);
        FILE *f = fopen(path, "w");
        TH_REQUIRE(tc, f, "cannot write %s", path);
        fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%s", bodies[i]);
        fclose(f);
        TH_OK(tc, clirr_graph_read(path, &g, &err));
        int rc = clirr_ref_mst(&g, parent, NULL, NULL, &err);
        TH_REQUIRE(tc, rc == CLIRR_ERR_INPUT, "%s: Kruskal gave %s", path, clirr_status_name(rc));
        TH_REQUIRE(tc, strstr(err.msg, "integer weights"), "%s: message '%s'", path, err.msg);
        clirr_graph_free(&g);
    }
done:
    clirr_graph_free(&g);
}

/* ---- every variant on every device ----------------------------------------- */

typedef struct mst_case {
    const char *variant;
    const char *dedup;
    const char *switch_at;
    const char *atomic64;
    int tmpl;        /* -1 = auto */
} mst_case;

static int set_param(const clirr_algo *a, const char *name, const char *value, clirr_params *p,
                     clirr_error *err)
{
    int k = clirr_algo_param(a, name);
    if (k < 0)
        return clirr_fail(err, CLIRR_ERR_USAGE, "mst has no parameter %s", name);
    return clirr_param_set(a, (unsigned)k, value, p, err);
}

/* The --output lines of a result: their edges and summed weight. */
static int output_edges(th_case *tc, clirr_session *s, const void *result, uint32_t n, uint32_t *a,
                        uint32_t *b, uint64_t *k, int64_t *sum)
{
    clirr_error err;
    char path[1024];
    snprintf(path, sizeof path, "%s/mst-out.txt", th_tmp_dir());
    FILE *f = fopen(path, "w+");
    if (!f)
        return clirr_fail(&err, CLIRR_ERR_IO, "cannot open %s", path);
    int rc = clirr_session_write_result(s, result, f, &err);
    rewind(f);
    *k = 0;
    *sum = 0;
    unsigned x, y;
    int w;
    while (rc == CLIRR_OK && fscanf(f, "%u %u %d", &x, &y, &w) == 3) {
        if (*k == n) {
            th_fail(tc, __FILE__, __LINE__, "more output lines than vertices");
            break;
        }
        if (x >= y)
            th_fail(tc, __FILE__, __LINE__, "output line '%u %u %d' not smaller end first", x, y, w);
        a[*k] = x;
        b[*k] = y;
        ++*k;
        *sum += w;
    }
    fclose(f);
    return rc;
}

static void run_variant(th_case *tc)
{
    const mst_case *mc = tc->param;
    const clirr_algo *a = clirr_algo_find("mst");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    uint32_t *expected = NULL, *got = NULL, *ea = NULL, *eb = NULL;
    TH_REQUIRE(tc, a, "mst is not in the registry");
    for (size_t i = 0; i < NINPUTS; i++) {
        const mst_input *mi = &inputs[i];
        TH_OK(tc, load(mi, &g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, true, mi->name, &in, &err));
        const clirr_graph *ig = clirr_input_graph(in);
        uint32_t n = ig->n;
        clirr_intent it;
        clirr_intent_default(a, &it);
        it.variant = clirr_algo_variant(a, mc->variant);
        it.tmpl = mc->tmpl;
        it.lb_thres = mc->tmpl > 0 ? 4 : 0;
        TH_OK(tc, set_param(a, "dedup", mc->dedup, &it.params, &err));
        TH_OK(tc, set_param(a, "switch", mc->switch_at, &it.params, &err));
        TH_OK(tc, set_param(a, "atomic64", mc->atomic64, &it.params, &err));
        clirr_plan plan;
        int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
        if (rc == CLIRR_ERR_UNSUPPORTED) {
            th_skip(tc, "%s", err.msg);
            goto done;
        }
        TH_OK(tc, rc);
        expected = malloc((n + 1) * sizeof *expected);
        got = malloc((n + 1) * sizeof *got);
        ea = malloc((n + 1) * sizeof *ea);
        eb = malloc((n + 1) * sizeof *eb);
        TH_REQUIRE(tc, expected && got && ea && eb, "out of memory");
        int64_t total = 0;
        uint32_t trees = 0;
        TH_OK(tc, clirr_ref_mst(ig, expected, &total, &trees, &err));
        TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
        for (int trial = 0; trial < 2; trial++) {
            clirr_stats st;
            memset(got, 0xA5, n * sizeof *got);
            TH_OK(tc, clirr_session_run(s, got, &st, &err));
            clirr_verify_report rep;
            TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep), "%s, trial %d: %s", mi->name, trial + 1,
                       rep.text);
            clirr_extras x;
            clirr_session_extras(s, got, &x);
            const clirr_extra *tw = th_extra(&x, "total_weight"), *cs = th_extra(&x, "components");
            TH_REQUIRE(tc, tw && cs, "%s: no total_weight or components", mi->name);
            TH_REQUIRE(tc, tw->i == total && cs->u == trees, "%s: total %lld, %llu components; Kruskal %lld, %u",
                       mi->name, (long long)tw->i, (unsigned long long)cs->u, (long long)total, trees);
        }
        /* The --output lines: Kruskal's forest, weights summing to its total. */
        uint64_t k = 0;
        int64_t sum = 0;
        TH_OK(tc, output_edges(tc, s, got, n, ea, eb, &k, &sum));
        clirr_verify_report rep;
        TH_REQUIRE(tc, clirr_verify_mst(ig, expected, ea, eb, k, &rep), "%s: --output lines: %s", mi->name,
                   rep.text);
        TH_REQUIRE(tc, sum == total, "%s: --output weights sum to %lld, Kruskal %lld", mi->name, (long long)sum,
                   (long long)total);
        clirr_session_release(s);
        s = NULL;
        clirr_input_free(in);
        in = NULL;
        free(expected);
        free(got);
        free(ea);
        free(eb);
        expected = got = ea = eb = NULL;
    }
done:
    clirr_session_release(s);
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(expected);
    free(got);
    free(ea);
    free(eb);
}

/* ---- the command line ------------------------------------------------------ */

static char out[1 << 20], errtext[1 << 14];

static int clirr_cmd(th_case *tc, char *const *args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)th_clirr_path();
    for (; *args && argc < 31; args++)
        argv[argc++] = *args;
    argv[argc] = NULL;
    int sig = 0;
    int rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, &sig);
    if (sig)
        th_fail(tc, __FILE__, __LINE__, "clirr died with signal %d", sig);
    return rc;
}

static void cli(th_case *tc)
{
    char dev[16], file[1024], outp[1024], bad[1024];
    clirr_error err;
    clirr_graph g = {0};
    uint32_t *parent = NULL, *a = NULL, *b = NULL;
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    snprintf(file, sizeof file, "%s/grid-32x32.gr", th_data_dir());
    snprintf(outp, sizeof outp, "%s/mst-forest-%s.txt", th_tmp_dir(), dev);
    char *run[] = {"run", "mst", "--graph", file, "--device", dev, "--output", outp, NULL};
    int rc = clirr_cmd(tc, run);
    TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
    TH_OK(tc, clirr_graph_read(file, &g, &err));
    parent = malloc(g.n * sizeof *parent);
    a = malloc(g.n * sizeof *a);
    b = malloc(g.n * sizeof *b);
    TH_REQUIRE(tc, parent && a && b, "out of memory");
    int64_t total = 0;
    uint32_t trees = 0;
    TH_OK(tc, clirr_ref_mst(&g, parent, &total, &trees, &err));
    FILE *f = fopen(outp, "r");
    TH_REQUIRE(tc, f, "no output file %s", outp);
    uint64_t k = 0;
    int64_t sum = 0;
    unsigned x, y;
    int w;
    while (k < g.n && fscanf(f, "%u %u %d", &x, &y, &w) == 3) {
        a[k] = x;
        b[k++] = y;
        sum += w;
    }
    fclose(f);
    clirr_verify_report rep;
    TH_REQUIRE(tc, clirr_verify_mst(&g, parent, a, b, k, &rep), "--output: %s", rep.text);
    TH_REQUIRE(tc, sum == total, "--output weights sum to %lld, Kruskal %lld", (long long)sum, (long long)total);
    /* JSON: total_weight and components. */
    char *json[] = {"run", "mst", "--graph", file, "--device", dev, "--json", NULL};
    rc = clirr_cmd(tc, json);
    TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
    json_object *doc = json_tokener_parse(out), *runs = NULL, *results = NULL, *v = NULL;
    TH_REQUIRE(tc, doc && json_object_object_get_ex(doc, "runs", &runs) &&
                       json_object_array_length(runs) == 1 &&
                       json_object_object_get_ex(json_object_array_get_idx(runs, 0), "results", &results),
               "no runs[0].results in the JSON");
    TH_EXPECT(tc, json_object_object_get_ex(results, "total_weight", &v) && json_object_get_int64(v) == total,
              "JSON total_weight %lld, Kruskal %lld", v ? (long long)json_object_get_int64(v) : -1LL,
              (long long)total);
    TH_EXPECT(tc, json_object_object_get_ex(results, "components", &v) && json_object_get_int64(v) == trees,
              "JSON components, Kruskal %u", trees);
    json_object_put(doc);
    /* A weight that is no 32-bit integer: exit 2, the arc named. */
    snprintf(bad, sizeof bad, "%s/mst-real.mtx", th_tmp_dir());
    f = fopen(bad, "w");
    TH_REQUIRE(tc, f, "cannot write %s", bad);
    fputs("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.25\n2 3 4\n", f);
    fclose(f);
    char *real[] = {"run", "mst", "--graph", bad, "--device", dev, NULL};
    rc = clirr_cmd(tc, real);
    TH_EXPECT(tc, rc == 2, "real weights: exit %d, expected 2 (%s)", rc, errtext);
    TH_EXPECT(tc, strstr(errtext, "integer weights"), "real weights: message '%s'", errtext);
done:
    clirr_graph_free(&g);
    free(parent);
    free(a);
    free(b);
}

TH_REGISTER(register_mst_tests)
{
    th_add("mst/undirected-form", undirected_form, NULL);
    th_add("mst/kruskal", kruskal, NULL);
    th_add("mst/weight-range", weight_range, NULL);
    static const mst_case cases[] = {
        {"topo", "on", "0.05", "on", CLIRR_TEMPLATE_BASELINE},
        {"topo", "on", "0.05", "off", CLIRR_TEMPLATE_BASELINE},
        {"topo", "on", "0.05", "on", CLIRR_TEMPLATE_DBUF_SHARED},
        {"data", "on", "0.05", "on", CLIRR_TEMPLATE_BASELINE},
        {"data", "off", "0.05", "on", CLIRR_TEMPLATE_BASELINE},
        {"data", "off", "0.05", "off", CLIRR_TEMPLATE_DUAL_QUEUE},
        {"data", "on", "0.05", "off", CLIRR_TEMPLATE_DBUF_GLOBAL},
        {"hybrid", "on", "0", "on", CLIRR_TEMPLATE_BASELINE},
        {"hybrid", "on", "0.5", "on", CLIRR_TEMPLATE_BASELINE},
        {"hybrid", "off", "1", "off", CLIRR_TEMPLATE_BASELINE},
        {"hybrid", "on", "0.05", "off", CLIRR_TEMPLATE_DBUF_SHARED},
    };
    static char names[sizeof cases / sizeof cases[0]][96];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mst_case *c = &cases[i];
        snprintf(names[i], sizeof names[i], "mst/%s/dedup-%s/switch-%s/atomic64-%s/%s", c->variant, c->dedup,
                 c->switch_at, c->atomic64, clirr_template_name((clirr_template)c->tmpl));
        th_add_device(names[i], run_variant, c);
    }
    th_add_device_noctx("mst/cli", cli, NULL);
}
