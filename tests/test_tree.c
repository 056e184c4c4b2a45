/* tests/test_tree.c - trees as inputs: the .tree reader on good files and
 * a table of malformed ones (each with its line and reason: a self-loop,
 * an id out of range, a cycle with the vertex it disconnects, a header
 * that disagrees), the writer's round trip, the generators (one tree each,
 * the binary kind at most two children, hashes pinned), bad specs, the
 * limits, and the Euler tour's adjacency (rows sorted, sib an involution
 * onto the reverse arc, next around each row). */
#include "harness.h"
#include "reader_fuzz.h"

#include <stdio.h>
#include <math.h>
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
    clirr_tree t = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/small.tree", th_data_dir());
    TH_OK(tc, clirr_tree_read(path, &t, &err));
    TH_REQUIRE(tc, t.n == 12 && t.root == 0 && t.u[10] == 0 && t.v[10] == 9, "small.tree: n %u", t.n);
    clirr_tree_free(&t);
    static const struct {
        const char *text;
        uint32_t n;
    } good[] = {
        {"", 1},                              /* one vertex, no edge */
        {"# Nodes: 1 Edges: 0\n", 1},
        {"1 0\n", 2},
        {"% c\r\n0\t2\r\n\r\n2 1 \r\n", 3},
        {"# Nodes: 4 Edges: 3\n3 0\n0 1\n2 0\n", 4},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        tmp_path(path, sizeof path, "good.tree");
        TH_REQUIRE(tc, th_write_text(path, good[i].text), "cannot write");
        TH_OK(tc, clirr_tree_read(path, &t, &err));
        TH_REQUIRE(tc, t.n == good[i].n, "good %zu: n %u, want %u", i, t.n, good[i].n);
        TH_OK(tc, clirr_tree_check(&t, &err));
        clirr_tree_free(&t);
    }
done:
    clirr_tree_free(&t);
}

static const struct bad_tree {
    const char *text;
    const char *msg;
} bad_trees[] = {
    {"0 0\n", ":1: self-loop at vertex 0"},
    {"0 1\n1 2\n2 2\n", ":3: self-loop at vertex 2"},
    {"0 1\n1 3\n", ":2: vertex 3 is out of range: the file's 2 edges make a tree of 3 vertices"},
    {"0 1\n0 1\n", ":2: edge 0 1 closes a cycle (the vertices are already connected), so with 2 edges vertex 2 is disconnected"},
    {"0 1\n1 2\n2 0\n", ":3: edge 2 0 closes a cycle"},
    {"# Nodes: 5 Edges: 4\n0 1\n1 2\n", ":1: wrong edge count: the header says 5 vertices and 4 edges, the file has 2 edges"},
    {"# Nodes: 3 Edges: 3\n0 1\n1 2\n2 0\n", ":1: wrong edge count"},
    {"0 1 2\n", ":1: expected end of line after the edge 'u v', found '2'"},
    {"0\n", ":1: expected a vertex id from 0 to 2147483646, found end of line"},
    {"0 -1\n", ":1: expected a vertex id from 0 to 2147483646, found '-1'"},
    {"a b\n", ":1: expected a vertex id"},
    {"0 2147483647\n", ":1: expected a vertex id from 0 to 2147483646"},
};

static void read_bad(th_case *tc)
{
    clirr_error err;
    clirr_tree t = {0};
    char path[1024], name[64];
    for (size_t i = 0; i < sizeof bad_trees / sizeof bad_trees[0]; i++) {
        snprintf(name, sizeof name, "bad-%02zu.tree", i);
        tmp_path(path, sizeof path, name);
        TH_REQUIRE(tc, th_write_text(path, bad_trees[i].text), "cannot write");
        clirr_error_clear(&err);
        int rc = clirr_tree_read(path, &t, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT, "case %zu: status %s (%s)", i, clirr_status_name(rc), err.msg);
        TH_EXPECT(tc, strstr(err.msg, path) == err.msg, "case %zu: message does not start with the file: %s",
                  i, err.msg);
        TH_EXPECT(tc, strstr(err.msg, bad_trees[i].msg), "case %zu: \"%s\" lacks \"%s\"", i, err.msg,
                  bad_trees[i].msg);
        TH_EXPECT(tc, t.u == NULL && t.n == 0, "case %zu: tree not zeroed", i);
        clirr_tree_free(&t);
    }
done:
    clirr_tree_free(&t);
}

static void round_trip(th_case *tc)
{
    clirr_error err;
    clirr_tree a = {0}, b = {0};
    char path[1024];
    static const char *names[] = {"rt.tree", "rt.tree.gz"};
    TH_OK(tc, clirr_tree_generate("tree:kind=attach,n=3000,seed=7", &a, &err));
    for (int k = 0; k < 2; k++) {
        tmp_path(path, sizeof path, names[k]);
        TH_OK(tc, clirr_tree_write(path, &a, &err));
        TH_OK(tc, clirr_tree_read(path, &b, &err));
        TH_REQUIRE(tc, clirr_tree_hash(&a) == clirr_tree_hash(&b), "%s differs", names[k]);
        clirr_tree_free(&b);
    }
done:
    clirr_tree_free(&a);
    clirr_tree_free(&b);
}

/* The recursion study's regular trees (shared/papers/001, III.C): depth D
 * counts the root's level; at sparsity 0 every vertex above the last
 * level has K children (1 + K + ... + K^(D-1) vertices); at sparsity S
 * the root keeps its K children, the others have K or none, and about a
 * 2^-S share of each middle level is expanded. */
static void regular(th_case *tc)
{
    clirr_error err;
    clirr_tree t = {0};
    uint32_t *kids = NULL, *depth = NULL;
    static const struct {
        uint32_t depth, k, sparsity;
    } shapes[] = {{1, 5, 0}, {2, 7, 0}, {4, 3, 0}, {4, 32, 0}, {5, 2, 1}, {4, 64, 2}, {3, 512, 3}, {20, 2, 1}};
    char spec[160];
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        uint32_t D = shapes[i].depth, K = shapes[i].k, S = shapes[i].sparsity;
        snprintf(spec, sizeof spec, "tree:kind=regular,depth=%u,outdeg=%u,sparsity=%u,seed=%zu", D, K, S, i);
        TH_OK(tc, clirr_tree_generate(spec, &t, &err));
        TH_OK(tc, clirr_tree_check(&t, &err));
        uint64_t want = 0, level = 1;
        for (uint32_t d = 0; d < D; d++, level *= K)
            want += level;
        if (S == 0)
            TH_REQUIRE(tc, t.n == want, "%s: %u vertices, want %llu", spec, t.n, (unsigned long long)want);
        free(kids);
        free(depth);
        TH_REQUIRE(tc, (kids = calloc(t.n, sizeof *kids)) && (depth = calloc(t.n, sizeof *depth)), "out of memory");
        /* Edges are "parent child" with the parent first seen earlier
         * (level by level), so depths fill in edge order. */
        uint64_t expanded_mid = 0, mid = 0;
        for (uint32_t e = 0; e + 1 < t.n; e++) {
            kids[t.u[e]]++;
            depth[t.v[e]] = depth[t.u[e]] + 1;
        }
        for (uint32_t v = 0; v < t.n; v++) {
            TH_REQUIRE(tc, kids[v] == 0 || kids[v] == K, "%s: vertex %u has %u children", spec, v, kids[v]);
            TH_REQUIRE(tc, depth[v] < D, "%s: vertex %u at depth %u", spec, v, depth[v]);
            TH_REQUIRE(tc, (depth[v] == D - 1) <= (kids[v] == 0), "%s: last-level vertex %u has children", spec, v);
            if (S == 0)
                TH_REQUIRE(tc, (kids[v] == 0) == (depth[v] == D - 1), "%s: vertex %u at depth %u is a leaf", spec,
                           v, depth[v]);
            if (depth[v] > 0 && depth[v] + 1 < D) {
                mid++;
                expanded_mid += kids[v] > 0;
            }
        }
        TH_REQUIRE(tc, D == 1 || kids[t.root] == K, "%s: the root has %u children", spec, kids[t.root]);
        /* The expanded share of the middle levels: within 5 standard
         * deviations of 2^-S. */
        if (mid > 100) {
            double p = 1.0 / (1u << S), got = (double)expanded_mid / (double)mid;
            double sd = sqrt(p * (1 - p) / (double)mid) + 1e-12;
            TH_REQUIRE(tc, fabs(got - p) <= 5 * sd, "%s: %.4f of the middle vertices expanded, want %.4f", spec,
                       got, p);
        }
        clirr_tree_free(&t);
    }
    static const struct {
        const char *spec;
        uint64_t hash;
    } pinned[] = {
        {"tree:kind=regular,depth=4,outdeg=32", 0x1a12189251fd0ec3ull},
        {"tree:kind=regular,depth=4,outdeg=64,sparsity=3,seed=5", 0xabf7b96ffe077caaull},
        {"tree:kind=regular,depth=6,outdeg=4,sparsity=1,shuffle=0", 0x2b7fa56823ac9bf3ull},
    };
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        TH_OK(tc, clirr_tree_generate(pinned[i].spec, &t, &err));
        uint64_t h = clirr_tree_hash(&t);
        TH_EXPECT(tc, h == pinned[i].hash, "%s: hash 0x%016llx, pinned 0x%016llx", pinned[i].spec,
                  (unsigned long long)h, (unsigned long long)pinned[i].hash);
        clirr_tree_free(&t);
    }
done:
    free(kids);
    free(depth);
    clirr_tree_free(&t);
}

static void generators(th_case *tc)
{
    clirr_error err;
    clirr_tree t = {0};
    uint32_t *children = NULL;
    static const char *kinds[] = {"binary", "attach"};
    static const uint32_t sizes[] = {1, 2, 3, 100, 4097};
    char spec[128];
    for (int k = 0; k < 2; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int shuffle = 0; shuffle < 2; shuffle++) {
                snprintf(spec, sizeof spec, "tree:kind=%s,n=%u,shuffle=%d,seed=%zu", kinds[k], sizes[s], shuffle, s);
                TH_OK(tc, clirr_tree_generate(spec, &t, &err));
                TH_REQUIRE(tc, t.n == sizes[s] && t.root == 0, "%s: n %u", spec, t.n);
                TH_OK(tc, clirr_tree_check(&t, &err));
                /* Edges are "parent child": the binary kind has at most two
                 * children a vertex. */
                free(children);
                TH_REQUIRE(tc, (children = calloc(t.n, sizeof *children)), "out of memory");
                for (uint32_t e = 0; e + 1 < t.n; e++)
                    if (++children[t.u[e]] > 2 && k == 0)
                        TH_REQUIRE(tc, false, "%s: vertex %u has 3 children", spec, t.u[e]);
                clirr_tree_free(&t);
            }
    static const struct {
        const char *spec;
        uint64_t hash;
    } pinned[] = {
        {"tree:kind=binary,n=100000,seed=1", 0x4fe67b852adeb423ull},
        {"tree:kind=attach,n=4097,seed=9", 0x33258a10e75c1155ull},
        {"tree:kind=binary,n=1000,seed=3,shuffle=0", 0xbb7c2bcc62f91bccull},
    };
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        TH_OK(tc, clirr_tree_generate(pinned[i].spec, &t, &err));
        uint64_t h = clirr_tree_hash(&t);
        TH_EXPECT(tc, h == pinned[i].hash, "%s: hash 0x%016llx, pinned 0x%016llx", pinned[i].spec,
                  (unsigned long long)h, (unsigned long long)pinned[i].hash);
        clirr_tree_free(&t);
    }
    static const struct {
        const char *spec, *msg;
    } bad[] = {
        {"tree:n=10", "missing required key 'kind'"},
        {"tree:kind=binary", "this kind of tree needs n=N"},
        {"tree:kind=ternary,n=3", "expected one of binary, attach"},
        {"tree:kind=binary,n=0", "key 'n': expected an integer from 1"},
        {"tree:kind=binary,n=10,shuffle=2", "key 'shuffle': expected an integer from 0 to 1"},
        {"tree:kind=binary,n=10,depth=2", "belong to kind=regular"},
        {"tree:kind=binary,n=10,degree=2", "unknown key 'degree'"},
        {"tree:kind=regular,depth=4", "needs depth=D and outdeg=K"},
        {"tree:kind=regular,outdeg=4", "needs depth=D and outdeg=K"},
        {"tree:kind=regular,depth=4,outdeg=2,n=31", "not n"},
        {"tree:kind=regular,depth=0,outdeg=2", "key 'depth': expected an integer from 1"},
        {"tree:kind=regular,depth=40,outdeg=2", "more than 2147483647 vertices"},
        {"tree:kind=regular,depth=4,outdeg=2,sparsity=64", "key 'sparsity'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = clirr_tree_generate(bad[i].spec, &t, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, bad[i].msg), "%s: %s (%s)", bad[i].spec,
                  clirr_status_name(rc), err.msg);
        clirr_tree_free(&t);
    }
done:
    free(children);
    clirr_tree_free(&t);
}

static void limits(th_case *tc)
{
    clirr_error err;
    clirr_tree t = {0};
    char path[1024];
    clirr_graph_set_array_limits(16 * 999, 0);
    int rc = clirr_tree_generate("tree:kind=binary,n=1001", &t, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_TOO_LARGE && strstr(err.msg, "1001 vertices"), "device limit: %s", err.msg);
    TH_EXPECT(tc, clirr_tree_generate("tree:kind=binary,n=1000", &t, &err) == CLIRR_OK, "at the limit: %s",
              err.msg);
    clirr_tree_free(&t);
    clirr_graph_set_array_limits(0, 8 * 99);
    tmp_path(path, sizeof path, "long.tree");
    FILE *f = fopen(path, "w");
    TH_REQUIRE(tc, f, "cannot write");
    for (int i = 0; i < 150; i++)
        fprintf(f, "%d %d\n", i, i + 1);
    fclose(f);
    rc = clirr_tree_read(path, &t, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "long.tree:100:"), "reader: %s", err.msg);
done:
    clirr_graph_set_array_limits(0, 0);
    clirr_tree_free(&t);
}

static void adjacency(th_case *tc)
{
    clirr_error err;
    clirr_tree t = {0};
    clirr_tree_adj a = {0};
    static const char *specs[] = {"tree:kind=binary,n=1", "tree:kind=binary,n=2", "tree:kind=attach,n=5000,seed=2"};
    for (size_t i = 0; i < 3; i++) {
        TH_OK(tc, clirr_tree_generate(specs[i], &t, &err));
        TH_OK(tc, clirr_tree_adjacency(&t, &a, &err));
        TH_REQUIRE(tc, a.n == t.n && a.arcs == 2 * (t.n - 1) && a.row[a.n] == a.arcs, "%s: counts", specs[i]);
        for (uint32_t x = 0; x < a.n; x++)
            for (uint32_t e = a.row[x]; e < a.row[x + 1]; e++) {
                uint32_t s = a.sib[e];
                TH_REQUIRE(tc, e + 1 == a.row[x + 1] || a.col[e] < a.col[e + 1], "%s: row %u unsorted", specs[i], x);
                TH_REQUIRE(tc, s < a.arcs && a.sib[s] == e && a.col[s] == x && s != e, "%s: sib of arc %u", specs[i], e);
                TH_REQUIRE(tc, a.next[e] == (e + 1 < a.row[x + 1] ? e + 1 : a.row[x]), "%s: next of arc %u", specs[i], e);
            }
        clirr_tree_adj_free(&a);
        clirr_tree_free(&t);
    }
done:
    clirr_tree_adj_free(&a);
    clirr_tree_free(&t);
}

/* A reading of a mutated file, for th_fuzz_reader: an accepted tree
 * must pass the structure check. */
static int read_checked(const char *path, clirr_error *err)
{
    clirr_tree x = {0};
    int rc = clirr_tree_read(path, &x, err);
    if (rc == CLIRR_OK && clirr_tree_check(&x, err) != CLIRR_OK)
        rc = CLIRR_ERR_VERIFY;
    clirr_tree_free(&x);
    return rc;
}

/* Mutations of the sample: accepted as a valid tree or refused naming the
 * file (tests/reader_fuzz.c), then the fuzz harness's smoke run. */
static void fuzz(th_case *tc)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/small.tree", th_data_dir());
    th_fuzz_reader(tc, src, "fuzz.tree", read_checked, "fuzz-read-tree");
}

TH_REGISTER(register_tree_tests)
{
    th_add("tree/read", read_good, NULL);
    th_add("tree/reject", read_bad, NULL);
    th_add("tree/round-trip", round_trip, NULL);
    th_add("tree/fuzz", fuzz, NULL);
    th_add("tree/generators", generators, NULL);
    th_add("tree/regular", regular, NULL);
    th_add("tree/limits", limits, NULL);
    th_add("tree/adjacency", adjacency, NULL);
}
