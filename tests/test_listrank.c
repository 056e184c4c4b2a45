/* tests/test_listrank.c - list ranking's corner cases on every device and
 * in every variant, against the serial reference: 1, 2 and 2^16 +- 1
 * elements, sequential, reverse, random, several and many lists, all
 * singletons, the balanced and unbalanced orders, heads that are not
 * splitters; rhj under both splitter rules, both handoffs and recursion to
 * the end; rhj-local under both rules, several scatter windows, recursion
 * to the end and its fallback to rhj's first level; Wyllie at several jumps a launch; what a variant cannot take
 * (wyllie32 past 2^16, scan on an unordered list) refused as unsupported;
 * and the command: malformed files exit 2 naming file, line and reason,
 * --output's format, bench skipping what a variant cannot run. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const specs[] = {
    "list:n=1,order=sequential",
    "list:n=2,order=sequential",
    "list:n=2,order=reverse",
    "list:n=2,order=random,lists=2",
    "list:n=3,order=random,seed=4",
    "list:n=1000,order=sequential",
    "list:n=1000,order=reverse",
    "list:n=65535,order=random,seed=1",
    "list:n=65536,order=random,seed=2",
    "list:n=65537,order=random,seed=3",
    "list:n=65537,order=sequential",
    "list:n=50000,order=random,lists=1000,seed=5",
    "list:n=5000,order=random,lists=5000,seed=6",
    "list:n=40000,order=ordered-unbalanced,seed=7",
    "list:n=40000,order=random-balanced,seed=8",
    "list:n=40000,order=random-balanced,lists=3,seed=8",
    "list:n=100000,order=random,lists=2,seed=9",
};

static int load(const char *spec, clirr_input **in, clirr_error *err)
{
    clirr_list l = {0};
    int rc;
    if (strncmp(spec, "list:", 5)) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", th_data_dir(), spec);
        rc = clirr_list_read(path, &l, err);
    } else {
        rc = clirr_list_generate(spec, &l, err);
    }
    if (rc == CLIRR_OK)
        rc = clirr_input_from_list(&l, true, spec, in, err);
    clirr_list_free(&l);
    return rc;
}

/* Plan, reference, prepare, two trials, each verified. Returns false
 * with the reason in tc when anything is wrong; *unsupported when the
 * plan was refused as such. */
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
        TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep), "%s %s on %s, trial %d: %s", a->name,
                   clirr_plan_variant_name(&plan), what, trial + 1, rep.text);
        TH_REQUIRE(tc, st.timing.build_ns == 0, "%s: trial %d compiled", what, trial + 1);
    }
    ok = true;
done:
    clirr_session_release(s);
    free(expected);
    free(got);
    return ok;
}

/* One variant on every input. */
static void variant_case(th_case *tc)
{
    const char *variant = tc->param;
    const clirr_algo *a = clirr_algo_find("listrank");
    clirr_error err;
    clirr_input *in = NULL;
    unsigned ran = 0;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0] + 1; i++) {
        const char *spec = i < sizeof specs / sizeof specs[0] ? specs[i] : "three.list";
        TH_OK(tc, load(spec, &in, &err));
        clirr_intent it;
        clirr_intent_default(a, &it);
        it.variant = clirr_algo_variant(a, variant);
        bool unsupported;
        if (!check_run(tc, a, in, &it, spec, &unsupported))
            goto done;
        const clirr_list *l = clirr_input_list(in);
        bool ordered = l->lists == 1 && (l->n == 1 || l->succ[0] == 1) && strstr(spec, "sequential");
        if (!strcmp(variant, "wyllie32"))
            TH_REQUIRE(tc, unsupported == (l->n >= 65535), "wyllie32 on %u elements: unsupported %d", l->n,
                       unsupported);
        else if (!strcmp(variant, "scan"))
            TH_REQUIRE(tc, unsupported == !ordered, "scan on %s: unsupported %d", spec, unsupported);
        else
            TH_REQUIRE(tc, !unsupported, "%s refused %s", variant, spec);
        ran += !unsupported;
        clirr_input_free(in);
        in = NULL;
    }
    TH_REQUIRE(tc, ran > 0, "nothing ran");
done:
    clirr_input_free(in);
}

/* rhj under its parameters: both rules, both handoffs, handoff at 1 (the
 * recursion to the end), 64 and never; Wyllie at 1 and 3 jumps. */
static void parameters(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("listrank");
    clirr_error err;
    clirr_input *in = NULL;
    static const char *inputs[] = {"list:n=100000,order=random,seed=11",
                                   "list:n=30000,order=random,lists=300,seed=12", "list:n=7,order=reverse"};
    static const char *rules[] = {"nlogn", "n2log2n"}, *handoffs[] = {"cpu", "wyllie"};
    static const char *below[] = {"1", "64", "4294967295"};
    for (size_t i = 0; i < 3; i++) {
        TH_OK(tc, load(inputs[i], &in, &err));
        for (int r = 0; r < 2; r++)
            for (int h = 0; h < 2; h++)
                for (int b = 0; b < 3; b++) {
                    clirr_intent it;
                    clirr_intent_default(a, &it);
                    it.variant = clirr_algo_variant(a, "rhj");
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "splitters"), rules[r], &it.params, &err));
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "handoff"), handoffs[h], &it.params, &err));
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "handoff-below"), below[b], &it.params, &err));
                    char what[256];
                    snprintf(what, sizeof what, "%s, %s, handoff %s below %s", inputs[i], rules[r], handoffs[h], below[b]);
                    bool unsupported;
                    if (!check_run(tc, a, in, &it, what, &unsupported))
                        goto done;
                }
        /* rhj-local: windows from the device's cache, of 1000 elements
         * (several bins) and of 1 (grown to the most bins); recursion to
         * the end, a handoff at 64, and never (rhj's own first level). */
        static const char *windows[] = {"0", "1000", "1"};
        for (int r = 0; r < 2; r++)
            for (int w = 0; w < 3; w++)
                for (int b = 0; b < 3; b++) {
                    clirr_intent it;
                    clirr_intent_default(a, &it);
                    it.variant = clirr_algo_variant(a, "rhj-local");
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "splitters"), rules[r], &it.params, &err));
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "window"), windows[w], &it.params, &err));
                    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "handoff-below"), below[b], &it.params, &err));
                    char what[256];
                    snprintf(what, sizeof what, "%s, rhj-local, %s, window %s, handoff below %s", inputs[i], rules[r],
                             windows[w], below[b]);
                    bool unsupported;
                    if (!check_run(tc, a, in, &it, what, &unsupported))
                        goto done;
                }
        static const char *variants[] = {"wyllie", "wyllie-opt"}, *jumps[] = {"1", "3"};
        for (int v = 0; v < 2; v++)
            for (int j = 0; j < 2; j++) {
                clirr_intent it;
                clirr_intent_default(a, &it);
                it.variant = clirr_algo_variant(a, variants[v]);
                TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "jumps"), jumps[j], &it.params, &err));
                bool unsupported;
                if (!check_run(tc, a, in, &it, inputs[i], &unsupported))
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

/* The malformed lists: each exits 2 naming file, line, reason. */
static void cli_malformed(th_case *tc)
{
    char dev[16], path[1024];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"1\n7\n-1\n", "bad.list:2: successor 7 of element 1 is out of range"},
        {"2\n2\n-1\n", "bad.list:2: element 2 has two predecessors: element 0 (line 1) and element 1"},
        {"-1\n2\n1\n", "bad.list:2: element 1 lies on a cycle"},
        {"# nothing\n", "bad.list: no elements in the file"},
        {"1\nfoo\n", "bad.list:2: expected a successor"},
    };
    snprintf(path, sizeof path, "%s/bad.list", th_tmp_dir());
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TH_REQUIRE(tc, th_write_text(path, cases[i].text), "cannot write");
        int rc = clirr(tc, "run", "listrank", "--list", path, "--device", dev, NULL);
        TH_EXPECT(tc, rc == 2 && strstr(errtext, cases[i].msg), "case %zu: exit %d, stderr: %s", i, rc, errtext);
    }
    int rc = clirr(tc, "run", "listrank", "--gen", "list:n=10,order=sideways", "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "key 'order'"), "bad spec: exit %d: %s", rc, errtext);
    snprintf(path, sizeof path, "%s/three.list", th_data_dir());
    rc = clirr(tc, "run", "bfs", "--list", path, "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "bfs reads a graph"), "bfs on a list: exit %d: %s", rc, errtext);
done:;
}

/* --output: line i = the rank of element i. */
static void cli_output(th_case *tc)
{
    char dev[16], path[1024];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    snprintf(path, sizeof path, "%s/three.list", th_data_dir());
    static const char *variants[] = {"rhj", "rhj-local", "wyllie", "wyllie32", "wyllie-stepwise", "wyllie-opt",
                                     "serial", "auto"};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        int rc = clirr(tc, "run", "listrank", "--list", path, "--variant", variants[v], "--device", dev,
                       "--output", "-", "--handoff-below", "1", NULL);
        TH_EXPECT(tc, rc == 0 && !strcmp(out, "1\n2\n0\n0\n3\n1\n0\n2\n1\n3\n"), "%s: exit %d, output:\n%s%s",
                  variants[v], rc, out, errtext);
    }
    /* rhj-local's own first level ran: 100 windows of 1000, walkers cut
     * and walking on in later rounds (caps of 2k = 34 steps on a random
     * list of 10^5, whose sublists are geometric of mean k = 17). */
    int rl = clirr(tc, "run", "listrank", "--gen", "list:n=100000,order=random", "--variant", "rhj-local", "--window",
                   "1000", "--device", dev, "--json", NULL);
    const char *rounds = strstr(out, "\"walk_rounds\":");
    TH_EXPECT(tc, rl == 0 && strstr(out, "\"windows\":100") && rounds && atoi(rounds + 14) >= 2 &&
                  strstr(out, "\"verified\":true"), "rhj-local's windows and rounds: exit %d: %s%s", rl, out, errtext);
    /* wyllie32 past 2^16: run refuses (exit 2), bench skips (exit 0). */
    int rc = clirr(tc, "run", "listrank", "--gen", "list:n=70000,order=random", "--variant", "wyllie32",
                   "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "at most 65534 elements"), "wyllie32 run: exit %d: %s", rc, errtext);
    rc = clirr(tc, "bench", "listrank", "--gen", "list:n=70000,order=random", "--variant", "wyllie32,rhj",
               "--device", dev, "--repeat", "1", NULL);
    TH_EXPECT(tc, rc == 0 && strstr(out, "skip"), "wyllie32 bench: exit %d: %s%s", rc, out, errtext);
}

/* gen and convert write lists the readers take back unchanged. */
static void cli_gen_convert(th_case *tc)
{
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/g.list.gz", th_tmp_dir());
    snprintf(b, sizeof b, "%s/g.list", th_tmp_dir());
    int rc = clirr(tc, "gen", "list:n=300,order=random,lists=4,seed=5", "-o", a, NULL);
    TH_REQUIRE(tc, rc == 0, "gen: exit %d: %s", rc, errtext);
    rc = clirr(tc, "convert", a, b, NULL);
    TH_REQUIRE(tc, rc == 0 && strstr(errtext, "300 elements in 4 lists"), "convert: exit %d: %s", rc, errtext);
    clirr_error err;
    clirr_list x = {0}, y = {0}, z = {0};
    TH_OK(tc, clirr_list_read(a, &x, &err));
    TH_OK(tc, clirr_list_read(b, &y, &err));
    TH_OK(tc, clirr_list_generate("list:n=300,order=random,lists=4,seed=5", &z, &err));
    TH_EXPECT(tc, clirr_list_hash(&x) == clirr_list_hash(&z) && clirr_list_hash(&y) == clirr_list_hash(&z),
              "round trip differs");
    rc = clirr(tc, "gen", "list:n=3,order=random", "-o", "x.el", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "written to a .list file"), "gen to .el: exit %d: %s", rc, errtext);
    rc = clirr(tc, "convert", a, "x.tree", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "lists convert to lists"), "list to tree: exit %d: %s", rc, errtext);
done:
    clirr_list_free(&x);
    clirr_list_free(&y);
    clirr_list_free(&z);
}

TH_REGISTER(register_listrank_tests)
{
    static const char *variants[] = {"wyllie", "wyllie32", "wyllie-stepwise", "wyllie-opt", "rhj", "rhj-local",
                                     "scan", "serial", "auto"};
    static char names[9][64];
    for (size_t v = 0; v < 9; v++) {
        snprintf(names[v], sizeof names[v], "listrank/%s", variants[v]);
        th_add_device(names[v], variant_case, variants[v]);
    }
    th_add_device("listrank/parameters", parameters, NULL);
    th_add_device_noctx("listrank/cli/malformed", cli_malformed, NULL);
    th_add_device_noctx("listrank/cli/output", cli_output, NULL);
    th_add("listrank/cli/gen-convert", cli_gen_convert, NULL);
}
