/* tests/test_list.c - lists as inputs: the .list reader on good files
 * (comments, CRLF, gzip, several lists) and a table of malformed ones
 * with the line and reason each must give, the writer's round trip, the
 * generators (every order valid, the balanced and unbalanced orders
 * placed as defined, hashes pinned so every machine makes the same list,
 * bad specs refused) and the array limits checked before memory is taken. */
#include "harness.h"
#include "reader_fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", th_tmp_dir(), name);
}

static void read_good(th_case *tc)
{
    clirr_error err;
    clirr_list l = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/three.list", th_data_dir());
    TH_OK(tc, clirr_list_read(path, &l, &err));
    static const uint32_t want[] = {2, 5, CLIRR_LIST_END, CLIRR_LIST_END, 7, 3, CLIRR_LIST_END, 0, 6, 1};
    TH_REQUIRE(tc, l.n == 10 && l.lists == 3, "n %u lists %u", l.n, l.lists);
    TH_REQUIRE(tc, !memcmp(l.succ, want, sizeof want), "successors differ");
    clirr_list_free(&l);
    /* Blanks, tabs, CRLF, '%' comments; a single element is a list. */
    tmp_path(path, sizeof path, "crlf.list");
    const char *text = "% comment\r\n\t1 \r\n\r\n-1\r\n";
    TH_REQUIRE(tc, th_write_bytes(path, text, strlen(text)), "cannot write");
    TH_OK(tc, clirr_list_read(path, &l, &err));
    TH_REQUIRE(tc, l.n == 2 && l.succ[0] == 1 && l.succ[1] == CLIRR_LIST_END && l.lists == 1, "crlf");
    clirr_list_free(&l);
    tmp_path(path, sizeof path, "one.list");
    TH_REQUIRE(tc, th_write_bytes(path, "-1\n", 3), "cannot write");
    TH_OK(tc, clirr_list_read(path, &l, &err));
    TH_REQUIRE(tc, l.n == 1 && l.lists == 1, "one element");
done:
    clirr_list_free(&l);
}

/* Each malformed file and a piece of its message (":LINE: " when a line
 * is to blame). */
static const struct bad_list {
    const char *text;
    const char *msg;
} bad_lists[] = {
    {"", "no elements in the file"},
    {"# only a comment\n\n", "no elements in the file"},
    {"1\n2\n3\n", ":3: successor 3 of element 2 is out of range: the file has 3 elements"},
    {"1\n-1\n5\n", ":3: successor 5 of element 2 is out of range"},
    {"2\n2\n-1\n", ":2: element 2 has two predecessors: element 0 (line 1) and element 1 (this line)"},
    {"# c\n1\n0\n", ":2: element 0 lies on a cycle"},
    {"-1\n2\n3\n1\n", ":2: element 1 lies on a cycle"},
    {"0\n", ":1: element 0 lies on a cycle"},
    {"1\n-2\n", ":2: expected a successor: -1 (a tail) or an element id, found '-2'"},
    {"1\nx\n", ":2: expected a successor: -1 (a tail) or an element id, found 'x'"},
    {"1.5\n-1\n", ":1: expected a successor: -1 (a tail) or an element id, found '1.5'"},
    {"1 2\n-1\n", ":1: expected end of line after the successor (one per line), found '2'"},
    {"99999999999999999999\n", ":1: expected a successor"},
    {"4294967295\n", ":1: expected a successor"},
    {"-1\n\x7f" "ELF\n", ":2: expected a successor"},
};

static void read_bad(th_case *tc)
{
    clirr_error err;
    clirr_list l = {0};
    char path[1024], name[64];
    for (size_t i = 0; i < sizeof bad_lists / sizeof bad_lists[0]; i++) {
        snprintf(name, sizeof name, "bad-%02zu.list", i);
        tmp_path(path, sizeof path, name);
        TH_REQUIRE(tc, th_write_bytes(path, bad_lists[i].text, strlen(bad_lists[i].text)), "cannot write");
        clirr_error_clear(&err);
        int rc = clirr_list_read(path, &l, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT, "case %zu: status %s (%s)", i, clirr_status_name(rc), err.msg);
        TH_EXPECT(tc, strstr(err.msg, path) == err.msg, "case %zu: message does not start with the file: %s",
                  i, err.msg);
        TH_EXPECT(tc, strstr(err.msg, bad_lists[i].msg), "case %zu: \"%s\" lacks \"%s\"", i, err.msg,
                  bad_lists[i].msg);
        TH_EXPECT(tc, l.succ == NULL && l.n == 0, "case %zu: list not zeroed", i);
        clirr_list_free(&l);
    }
    /* A NUL byte: binary data in a text file. */
    tmp_path(path, sizeof path, "nul.list");
    TH_REQUIRE(tc, th_write_bytes(path, "1\n-1\0\n", 6), "cannot write");
    TH_EXPECT(tc, clirr_list_read(path, &l, &err) == CLIRR_ERR_INPUT && strstr(err.msg, ":2: binary data"),
              "NUL: %s", err.msg);
    tmp_path(path, sizeof path, "missing.list");
    TH_EXPECT(tc, clirr_list_read(path, &l, &err) == CLIRR_ERR_INPUT && strstr(err.msg, "cannot open"),
              "missing file: %s", err.msg);
done:
    clirr_list_free(&l);
}

static void round_trip(th_case *tc)
{
    clirr_error err;
    clirr_list a = {0}, b = {0};
    char path[1024];
    static const char *names[] = {"rt.list", "rt.list.gz"};
    TH_OK(tc, clirr_list_generate("list:n=5000,order=random,lists=7,seed=3", &a, &err));
    for (int k = 0; k < 2; k++) {
        tmp_path(path, sizeof path, names[k]);
        TH_OK(tc, clirr_list_write(path, &a, &err));
        TH_OK(tc, clirr_list_read(path, &b, &err));
        TH_REQUIRE(tc, clirr_list_hash(&a) == clirr_list_hash(&b) && b.lists == 7, "%s differs", names[k]);
        clirr_list_free(&b);
    }
done:
    clirr_list_free(&a);
    clirr_list_free(&b);
}

/* The elements along each list, from its head. */
static uint32_t *order_of(const clirr_list *l)
{
    uint32_t *pred = malloc((size_t)l->n * sizeof *pred), *ord = malloc((size_t)l->n * sizeof *ord);
    if (!pred || !ord) {
        free(pred);
        free(ord);
        return NULL;
    }
    memset(pred, 0xff, (size_t)l->n * sizeof *pred);
    for (uint32_t i = 0; i < l->n; i++)
        if (l->succ[i] != CLIRR_LIST_END)
            pred[l->succ[i]] = i;
    uint32_t k = 0;
    for (uint32_t h = 0; h < l->n; h++)
        if (pred[h] == CLIRR_LIST_END)
            for (uint32_t e = h; e != CLIRR_LIST_END; e = l->succ[e])
                ord[k++] = e;
    free(pred);
    return ord;
}

static void generators(th_case *tc)
{
    clirr_error err;
    clirr_list l = {0};
    uint32_t *ord = NULL;
    static const char *orders[] = {"sequential", "reverse", "random", "random-balanced", "ordered-unbalanced"};
    static const uint32_t sizes[] = {1, 2, 3, 1000, 65535, 65536, 65537};
    char spec[128];
    for (size_t o = 0; o < 5; o++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (uint32_t lists = 1; lists <= 3 && lists <= sizes[s]; lists += 2) {
                snprintf(spec, sizeof spec, "list:n=%u,order=%s,lists=%u", sizes[s], orders[o], lists);
                TH_OK(tc, clirr_list_generate(spec, &l, &err));
                TH_REQUIRE(tc, l.n == sizes[s] && l.lists == lists, "%s: n %u lists %u", spec, l.n, l.lists);
                TH_OK(tc, clirr_list_check(&l, &err));
                TH_REQUIRE(tc, l.lists == lists, "%s: check counts %u lists", spec, l.lists);
                clirr_list_free(&l);
            }
    /* sequential and reverse are what they say. */
    TH_OK(tc, clirr_list_generate("list:n=100,order=sequential", &l, &err));
    for (uint32_t i = 0; i < 100; i++)
        TH_REQUIRE(tc, l.succ[i] == (i < 99 ? i + 1 : CLIRR_LIST_END), "sequential at %u", i);
    clirr_list_free(&l);
    TH_OK(tc, clirr_list_generate("list:n=100,order=reverse", &l, &err));
    for (uint32_t i = 0; i < 100; i++)
        TH_REQUIRE(tc, l.succ[i] == (i > 0 ? i - 1 : CLIRR_LIST_END), "reverse at %u", i);
    clirr_list_free(&l);
    /* random-balanced: a splitter (multiple of K) every K positions. */
    TH_OK(tc, clirr_list_generate("list:n=1000,order=random-balanced,interval=7,seed=4", &l, &err));
    TH_REQUIRE(tc, (ord = order_of(&l)), "out of memory");
    for (uint32_t p = 0; p < 1000; p++)
        TH_REQUIRE(tc, (ord[p] % 7 == 0) == (p % 7 == 0), "random-balanced: position %u holds %u", p, ord[p]);
    free(ord);
    ord = NULL;
    clirr_list_free(&l);
    /* ordered-unbalanced: the others in increasing order along the list,
     * the splitters not every K positions. */
    TH_OK(tc, clirr_list_generate("list:n=1000,order=ordered-unbalanced,interval=10,seed=2", &l, &err));
    TH_REQUIRE(tc, (ord = order_of(&l)), "out of memory");
    uint32_t last = 0, misplaced = 0;
    for (uint32_t p = 0; p < 1000; p++) {
        if (ord[p] % 10) {
            TH_REQUIRE(tc, ord[p] > last || last == 0, "ordered-unbalanced: %u after %u", ord[p], last);
            last = ord[p];
        }
        misplaced += (ord[p] % 10 == 0) != (p % 10 == 0);
    }
    TH_REQUIRE(tc, misplaced > 50, "ordered-unbalanced: splitters sit where balanced ones would");
done:
    free(ord);
    clirr_list_free(&l);
}

/* The same spec, the same list, on every machine. */
static void pinned(th_case *tc)
{
    clirr_error err;
    clirr_list l = {0};
    static const struct {
        const char *spec;
        uint64_t hash;
    } cases[] = {
        {"list:n=100000,order=random,seed=1", 0x13018e62d61908f1ull},
        {"list:n=4097,order=random-balanced,seed=9", 0x0ea966d4e5116705ull},
        {"list:n=4097,order=ordered-unbalanced,seed=9,lists=5", 0x3d073370c779d31eull},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TH_OK(tc, clirr_list_generate(cases[i].spec, &l, &err));
        uint64_t h = clirr_list_hash(&l);
        TH_EXPECT(tc, h == cases[i].hash, "%s: hash 0x%016llx, pinned 0x%016llx", cases[i].spec,
                  (unsigned long long)h, (unsigned long long)cases[i].hash);
        clirr_list_free(&l);
    }
done:
    clirr_list_free(&l);
}

static void bad_specs(th_case *tc)
{
    clirr_error err;
    clirr_list l = {0};
    static const struct {
        const char *spec, *msg;
    } cases[] = {
        {"list:order=random", "missing required key 'n'"},
        {"list:n=10", "missing required key 'order'"},
        {"list:n=0,order=random", "key 'n': expected an integer from 1"},
        {"list:n=10,order=shuffled", "expected one of sequential, reverse, random"},
        {"list:n=10,order=random,lists=11", "lists=11 is more than n=10"},
        {"list:n=10,order=random,depth=3", "unknown key 'depth'"},
        {"list:n=10,n=11,order=random", "key 'n' is given twice"},
        {"lists:n=10", "unknown list kind"},
        {"list:n=4294967295,order=random", "key 'n': expected an integer from 1 to 4294967294"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clirr_error_clear(&err);
        int rc = clirr_list_generate(cases[i].spec, &l, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, cases[i].msg), "%s: %s (%s)", cases[i].spec,
                  clirr_status_name(rc), err.msg);
        clirr_list_free(&l);
    }
    TH_EXPECT(tc, clirr_list_spec("list:n=3,order=random") && !clirr_list_spec("rmat:scale=3") &&
                      !clirr_list_spec("listx:n=3"), "clirr_list_spec");
}

/* Limits: refused with the numbers before the memory is taken. */
static void limits(th_case *tc)
{
    clirr_error err;
    clirr_list l = {0};
    char path[1024];
    clirr_graph_set_array_limits(8 * 1000, 0);
    int rc = clirr_list_generate("list:n=1001,order=random", &l, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_TOO_LARGE && strstr(err.msg, "1001 elements"), "device limit: %s", err.msg);
    TH_EXPECT(tc, clirr_list_generate("list:n=1000,order=random", &l, &err) == CLIRR_OK, "at the limit: %s",
              err.msg);
    clirr_list_free(&l);
    clirr_graph_set_array_limits(0, 4 * 100);
    rc = clirr_list_generate("list:n=101,order=random", &l, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "an eighth"), "host limit: %s", err.msg);
    tmp_path(path, sizeof path, "long.list");
    FILE *f = fopen(path, "w");
    TH_REQUIRE(tc, f, "cannot write");
    for (int i = 0; i < 150; i++)
        fprintf(f, "%d\n", i < 149 ? i + 1 : -1);
    fclose(f);
    rc = clirr_list_read(path, &l, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "long.list:101:"), "reader: %s", err.msg);
done:
    clirr_graph_set_array_limits(0, 0);
    clirr_list_free(&l);
}

/* A reading of a mutated file, for th_fuzz_reader: an accepted list
 * must pass the structure check. */
static int read_checked(const char *path, clirr_error *err)
{
    clirr_list x = {0};
    int rc = clirr_list_read(path, &x, err);
    if (rc == CLIRR_OK && clirr_list_check(&x, err) != CLIRR_OK)
        rc = CLIRR_ERR_VERIFY;
    clirr_list_free(&x);
    return rc;
}

/* Mutations of the sample: accepted as a valid list or refused naming the
 * file (tests/reader_fuzz.c), then the fuzz harness's smoke run. */
static void fuzz(th_case *tc)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/three.list", th_data_dir());
    th_fuzz_reader(tc, src, "fuzz.list", read_checked, "fuzz-read-list");
}

TH_REGISTER(register_list_tests)
{
    th_add("list/read", read_good, NULL);
    th_add("list/reject", read_bad, NULL);
    th_add("list/round-trip", round_trip, NULL);
    th_add("list/fuzz", fuzz, NULL);
    th_add("list/generators", generators, NULL);
    th_add("list/pinned", pinned, NULL);
    th_add("list/bad-specs", bad_specs, NULL);
    th_add("list/limits", limits, NULL);
}
