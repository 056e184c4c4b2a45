/* tests/test_treestats.c - tree computations on every device and in every
 * variant, against the serial DFS: trees of 1 and 2 vertices, a star
 * rooted at its centre and at a leaf, a path of 10^5 vertices rooted at an
 * end and in the middle, random binary and recursive trees, the data/
 * sample from several roots; the tour ranked by rhj under its parameters;
 * and the command: malformed trees exit 2 with file, line and reason,
 * --root out of range, --output's format, gen and convert. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tree_input {
    const char *what;   /* spec, "star:N", "path:N" or a data/ file */
    uint32_t root;
} tree_input;

static const tree_input inputs[] = {
    {"tree:kind=binary,n=1", 0},
    {"tree:kind=binary,n=2", 0},
    {"tree:kind=binary,n=2", 1},
    {"star:2000", 0},
    {"star:2000", 1234},
    {"path:100000", 0},
    {"path:100000", 50000},
    {"tree:kind=binary,n=30001,seed=3", 0},
    {"tree:kind=attach,n=20000,seed=4", 17},
    {"tree:kind=binary,n=3000,seed=5,shuffle=0", 2999},
    {"small.tree", 0},
    {"small.tree", 7},
};

/* A star (edges 0-i) or a path (edges i-(i+1)) of n vertices. */
static int shaped(const char *what, clirr_tree *t, clirr_error *err)
{
    uint32_t n = (uint32_t)strtoul(strchr(what, ':') + 1, NULL, 10);
    bool star = !strncmp(what, "star", 4);
    t->n = n;
    t->u = malloc((size_t)n * sizeof *t->u);
    t->v = malloc((size_t)n * sizeof *t->v);
    if (!t->u || !t->v)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i + 1 < n; i++) {
        t->u[i] = star ? 0 : i;
        t->v[i] = i + 1;
    }
    return clirr_tree_check(t, err);
}

static int load(const tree_input *ti, clirr_input **in, clirr_error *err)
{
    clirr_tree t = {0};
    int rc;
    if (!strncmp(ti->what, "tree:", 5)) {
        rc = clirr_tree_generate(ti->what, &t, err);
    } else if (strchr(ti->what, ':')) {
        rc = shaped(ti->what, &t, err);
    } else {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", th_data_dir(), ti->what);
        rc = clirr_tree_read(path, &t, err);
    }
    t.root = ti->root;
    if (rc == CLIRR_OK)
        rc = clirr_input_from_tree(&t, true, ti->what, in, err);
    clirr_tree_free(&t);
    return rc;
}

static bool check_run(th_case *tc, const clirr_algo *a, const clirr_input *in, const clirr_intent *it,
                      const char *what, bool *unsupported)
{
    clirr_error err;
    clirr_plan plan;
    clirr_session *s = NULL;
    bool ok = false;
    uint64_t items = clirr_input_items(in);
    void *expected = malloc((items + 1) * a->value_size), *got = malloc((items + 1) * a->value_size);
    *unsupported = false;
    TH_REQUIRE(tc, expected && got, "out of memory");
    int rc = clirr_plan_make(a, &tc->device->caps, it, in, &plan, &err);
    if (rc == CLIRR_ERR_UNSUPPORTED) {
        *unsupported = true;
        ok = true;
        goto done;
    }
    TH_OK(tc, rc);
    TH_OK(tc, a->reference(in, &plan, expected, &err));
    TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
    for (int trial = 0; trial < 2; trial++) {
        clirr_stats st;
        clirr_verify_report rep;
        memset(&rep, 0, sizeof rep);
        memset(got, 0x5a, items * a->value_size);
        TH_OK(tc, clirr_session_run(s, got, &st, &err));
        TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep), "%s on %s (root %u), trial %d: %s",
                   clirr_plan_variant_name(&plan), what, clirr_input_tree(in)->root, trial + 1, rep.text);
    }
    ok = true;
done:
    clirr_session_release(s);
    free(expected);
    free(got);
    return ok;
}

static void variant_case(th_case *tc)
{
    const char *variant = tc->param;
    const clirr_algo *a = clirr_algo_find("treestats");
    clirr_error err;
    clirr_input *in = NULL;
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        /* BFS on the path takes 10^5 rounds: once is enough. */
        if (!strcmp(variant, "bfs") && inputs[i].root == 50000)
            continue;
        TH_OK(tc, load(&inputs[i], &in, &err));
        clirr_intent it;
        clirr_intent_default(a, &it);
        it.variant = clirr_algo_variant(a, variant);
        bool unsupported;
        if (!check_run(tc, a, in, &it, inputs[i].what, &unsupported))
            goto done;
        uint32_t n = clirr_input_tree(in)->n;
        TH_REQUIRE(tc, unsupported == (!strcmp(variant, "wyllie32") && 2 * ((uint64_t)n - 1) >= 0xffff),
                   "%s on %u vertices: unsupported %d", variant, n, unsupported);
        clirr_input_free(in);
        in = NULL;
    }
done:
    clirr_input_free(in);
}

static void parameters(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("treestats");
    clirr_error err;
    clirr_input *in = NULL;
    static const tree_input trees[] = {{"tree:kind=binary,n=50000,seed=8", 0}, {"path:3000", 1500}};
    static const char *rules[] = {"nlogn", "n2log2n"}, *handoffs[] = {"cpu", "wyllie"}, *below[] = {"1", "300"};
    for (size_t i = 0; i < 2; i++) {
        TH_OK(tc, load(&trees[i], &in, &err));
        for (int r = 0; r < 2; r++)
            for (int h = 0; h < 2; h++)
                for (int b = 0; b < 2; b++) {
                    clirr_intent it;
                    clirr_intent_default(a, &it);
                    it.variant = clirr_algo_variant(a, "rhj");
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "splitters"), rules[r], &it.params, &err));
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "handoff"), handoffs[h], &it.params, &err));
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "handoff-below"), below[b], &it.params, &err));
                    bool unsupported;
                    if (!check_run(tc, a, in, &it, trees[i].what, &unsupported))
                        goto done;
                }
        clirr_input_free(in);
        in = NULL;
    }
done:
    clirr_input_free(in);
}

/* ---- the command ------------------------------------------------------------ */

static char out[1 << 20], errtext[1 << 16];

/* clirr's output into out and errtext. */
#define clirr(tc, ...) th_clirr_run((tc), out, sizeof out, errtext, sizeof errtext, __VA_ARGS__)

/* The malformed trees: each exits 2 naming file, line, reason. */
static void cli_malformed(th_case *tc)
{
    char dev[16], path[1024];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"# Nodes: 4 Edges: 3\n0 1\n1 2\n", "bad.tree:1: wrong edge count"},
        {"0 1\n1 2\n2 0\n", "bad.tree:3: edge 2 0 closes a cycle"},
        {"0 1\n0 1\n", "vertex 2 is disconnected"},
        {"0 1\n1 9\n", "bad.tree:2: vertex 9 is out of range"},
        {"0 1\n1 1\n", "bad.tree:2: self-loop at vertex 1"},
        {"0 x\n", "bad.tree:1: expected a vertex id"},
    };
    snprintf(path, sizeof path, "%s/bad.tree", th_tmp_dir());
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TH_REQUIRE(tc, th_write_text(path, cases[i].text), "cannot write");
        int rc = clirr(tc, "run", "treestats", "--tree", path, "--device", dev, NULL);
        TH_EXPECT(tc, rc == 2 && strstr(errtext, cases[i].msg), "case %zu: exit %d, stderr: %s", i, rc, errtext);
    }
    snprintf(path, sizeof path, "%s/small.tree", th_data_dir());
    int rc = clirr(tc, "run", "treestats", "--tree", path, "--root", "12", "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "--root 12"), "root out of range: exit %d: %s", rc, errtext);
done:;
}

/* --output: "parent preorder level size" per vertex; bfs leaves "-". */
static void cli_output(th_case *tc)
{
    char dev[16], path[1024];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    snprintf(path, sizeof path, "%s/small.tree", th_data_dir());
    static const char *want =
        "-1 0 0 12\n3 2 2 1\n5 5 2 4\n0 1 1 3\n11 8 4 1\n0 4 1 7\n10 10 3 1\n3 3 2 1\n"
        "2 6 3 1\n0 11 1 1\n5 9 2 2\n2 7 3 2\n";
    static const char *variants[] = {"rhj", "wyllie", "wyllie32", "wyllie-stepwise", "wyllie-opt", "serial", "auto"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        int rc = clirr(tc, "run", "treestats", "--tree", path, "--variant", variants[v], "--device", dev,
                       "--output", "-", NULL);
        TH_EXPECT(tc, rc == 0 && !strcmp(out, want), "%s: exit %d, output:\n%s%s", variants[v], rc, out, errtext);
    }
    int rc = clirr(tc, "run", "treestats", "--tree", path, "--root", "4", "--variant", "bfs", "--device", dev,
                   "--output", "-", NULL);
    TH_EXPECT(tc, rc == 0 && !strncmp(out, "5 - 4 -\n3 - 6 -\n11 - 2 -\n", 25) && strstr(out, "\n-1 - 0 -\n"),
              "bfs: exit %d, output:\n%s%s", rc, out, errtext);
}

static void cli_gen_convert(th_case *tc)
{
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/g.tree", th_tmp_dir());
    snprintf(b, sizeof b, "%s/g.tree.gz", th_tmp_dir());
    int rc = clirr(tc, "gen", "tree:kind=binary,n=500,seed=5", "-o", a, NULL);
    TH_REQUIRE(tc, rc == 0, "gen: exit %d: %s", rc, errtext);
    rc = clirr(tc, "convert", a, b, NULL);
    TH_REQUIRE(tc, rc == 0 && strstr(errtext, "a tree of 500 vertices"), "convert: exit %d: %s", rc, errtext);
    clirr_error err;
    clirr_tree x = {0}, y = {0}, z = {0};
    TH_OK(tc, clirr_tree_read(a, &x, &err));
    TH_OK(tc, clirr_tree_read(b, &y, &err));
    TH_OK(tc, clirr_tree_generate("tree:kind=binary,n=500,seed=5", &z, &err));
    TH_EXPECT(tc, clirr_tree_hash(&x) == clirr_tree_hash(&z) && clirr_tree_hash(&y) == clirr_tree_hash(&z),
              "round trip differs");
    rc = clirr(tc, "gen", "tree:kind=attach,n=5", "-o", a, "--symmetrize", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "--symmetrize is for graphs"), "symmetrize: exit %d: %s", rc, errtext);
done:
    clirr_tree_free(&x);
    clirr_tree_free(&y);
    clirr_tree_free(&z);
}

TH_REGISTER(register_treestats_tests)
{
    static const char *variants[] = {"rhj", "wyllie", "wyllie32", "wyllie-stepwise", "wyllie-opt", "bfs",
                                     "serial", "auto"};
    static char names[8][64];
    for (size_t v = 0; v < 8; v++) {
        snprintf(names[v], sizeof names[v], "treestats/%s", variants[v]);
        th_add_device(names[v], variant_case, variants[v]);
    }
    th_add_device("treestats/parameters", parameters, NULL);
    th_add_device_noctx("treestats/cli/malformed", cli_malformed, NULL);
    th_add_device_noctx("treestats/cli/output", cli_output, NULL);
    th_add("treestats/cli/gen-convert", cli_gen_convert, NULL);
}
