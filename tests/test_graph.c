/* tests/test_graph.c - cases for the graph area (names start "graph/"):
 * the tiny graph shipped in data/ in every format, tables of malformed files
 * with the message each must give (after LAGraph's test_MMRead), a mutation
 * fuzzer over every reader (after igraph's fuzzing/), generator determinism
 * with pinned hashes, round trips through every writer, symmetrize, corrupt
 * binary CSR files, real values (Matrix Market, binary CSR), transpose and
 * dense vector files. */
#include "algo/input.h"
#include "harness.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- helpers -------------------------------------------------------------- */

static void tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", th_tmp_dir(), name);
}

static bool write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* The whole file, or NULL. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* CSR invariants every graph handed out must satisfy. */
static bool graph_valid(const clirr_graph *g, char *why, size_t size)
{
    if (!g->row || !g->col) {
        snprintf(why, size, "missing arrays");
        return false;
    }
    if (g->row[0] != 0 || g->row[g->n] != g->m) {
        snprintf(why, size, "row[0] = %u, row[n] = %u, m = %u", g->row[0], g->row[g->n], g->m);
        return false;
    }
    for (uint32_t u = 0; u < g->n; u++)
        if (g->row[u + 1] < g->row[u]) {
            snprintf(why, size, "row[%u] > row[%u]", u, u + 1);
            return false;
        }
    for (uint32_t k = 0; k < g->m; k++)
        if (g->col[k] >= g->n) {
            snprintf(why, size, "col[%u] = %u >= n = %u", k, g->col[k], g->n);
            return false;
        }
    return true;
}

/* "n=N[ rounded]:u>v/w,..." in CSR order: one string to compare a graph
 * against what a small input must give. */
static void graph_text(const clirr_graph *g, char *buf, size_t size)
{
    size_t k = (size_t)snprintf(buf, size, "n=%u%s:", g->n, g->weights_rounded ? " rounded" : "");
    for (uint32_t u = 0; u < g->n && k < size; u++)
        for (uint32_t e = g->row[u]; e < g->row[u + 1] && k < size; e++) {
            k += (size_t)snprintf(buf + k, size - k, "%s%u>%u", e ? "," : "", u, g->col[e]);
            if (g->weight && k < size)
                k += (size_t)snprintf(buf + k, size - k, "/%d", g->weight[e]);
        }
}

static bool same_arrays(const clirr_graph *a, const clirr_graph *b)
{
    return a->n == b->n && a->m == b->m &&
           !memcmp(a->row, b->row, ((size_t)a->n + 1) * sizeof *a->row) &&
           !memcmp(a->col, b->col, (size_t)a->m * sizeof *a->col);
}

/* splitmix64, for the fuzzer's choices. */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ---- the tiny graph in every format ---------------------------------------- */

/* data/tiny.*: arcs given out of order, a duplicate 0->1 and a self-loop. */
static const uint32_t tiny_row[] = {0, 3, 4, 6, 8, 9};
static const uint32_t tiny_col[] = {1, 2, 1, 2, 0, 3, 3, 4, 0};
static const int32_t tiny_w[] = {3, 1, 9, 7, 2, 5, 4, 6, 8};

static const struct {
    const char *file;
    bool weighted;
} tiny_files[] = {
    {"tiny.gr", true},   {"tiny.mtx", true}, {"tiny.el", false},    {"tiny.txt", false},
    {"tiny.wel", true},  {"tiny.csr", true}, {"tiny.wel.gz", true},
};

static void tiny_expected(clirr_graph *g)
{
    *g = (clirr_graph){.n = 5, .m = 9, .row = (uint32_t *)tiny_row,
                       .col = (uint32_t *)tiny_col, .weight = (int32_t *)tiny_w};
}

static void test_tiny_formats(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    char path[1024];
    for (size_t i = 0; i < sizeof tiny_files / sizeof tiny_files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", th_data_dir(), tiny_files[i].file);
        TH_OK(tc, clirr_graph_read(path, &g, &err));
        TH_REQUIRE(tc, g.n == 5 && g.m == 9, "%s: n=%u m=%u, expected 5 and 9",
                   tiny_files[i].file, g.n, g.m);
        TH_EXPECT(tc, !memcmp(g.row, tiny_row, sizeof tiny_row), "%s: row differs", tiny_files[i].file);
        TH_EXPECT(tc, !memcmp(g.col, tiny_col, sizeof tiny_col),
                  "%s: col differs (arcs must keep input order within a row)", tiny_files[i].file);
        TH_EXPECT(tc, (g.weight != NULL) == tiny_files[i].weighted, "%s: weights %s",
                  tiny_files[i].file, g.weight ? "present" : "missing");
        if (g.weight)
            TH_EXPECT(tc, !memcmp(g.weight, tiny_w, sizeof tiny_w), "%s: weights differ", tiny_files[i].file);
        /* Only Matrix Market carries real values (its integer entries). */
        bool valued = strstr(tiny_files[i].file, ".mtx") != NULL;
        TH_EXPECT(tc, (g.value != NULL) == valued, "%s: values %s", tiny_files[i].file,
                  g.value ? "present" : "missing");
        for (uint32_t k = 0; g.value && k < 9; k++)
            TH_EXPECT(tc, g.value[k] == tiny_w[k], "%s: value %u is %g, expected %d", tiny_files[i].file,
                      k, g.value[k], tiny_w[k]);
        TH_EXPECT(tc, !g.weights_rounded, "%s: weights_rounded set", tiny_files[i].file);
        TH_EXPECT(tc, clirr_graph_max_degree(&g) == 3, "%s: max degree %u", tiny_files[i].file,
                  clirr_graph_max_degree(&g));
        clirr_graph_free(&g);
    }
done:
    clirr_graph_free(&g);
}

static void test_format_from_path(th_case *tc)
{
    static const struct {
        const char *path;
        clirr_graph_format fmt;
        bool gz;
        const char *name;
    } cases[] = {
        {"a/b/road.gr", CLIRR_FMT_GR, false, "gr"},   {"x.mtx.gz", CLIRR_FMT_MTX, true, "mtx"},
        {"x.el", CLIRR_FMT_EL, false, "el"},          {"X.TXT.GZ", CLIRR_FMT_TXT, true, "txt"},
        {"w.wel", CLIRR_FMT_WEL, false, "wel"},       {"g.csr", CLIRR_FMT_CSR, false, "csr"},
        {"g.csr.gz", CLIRR_FMT_CSR, true, "csr"},     {"g.gz", CLIRR_FMT_UNKNOWN, true, "unknown"},
        {"graph", CLIRR_FMT_UNKNOWN, false, "unknown"}, {"gr", CLIRR_FMT_UNKNOWN, false, "unknown"},
        {"a.gr.bak", CLIRR_FMT_UNKNOWN, false, "unknown"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool gz = !cases[i].gz;
        clirr_graph_format f = clirr_graph_format_from_path(cases[i].path, &gz);
        TH_EXPECT(tc, f == cases[i].fmt && gz == cases[i].gz, "%s: format %d gz %d", cases[i].path, f, gz);
        TH_EXPECT(tc, !strcmp(clirr_graph_format_name(f), cases[i].name), "%s: name %s",
                  cases[i].path, clirr_graph_format_name(f));
    }
    clirr_error err;
    clirr_graph g;
    int rc = clirr_graph_read("graph.xyz", &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "graph.xyz") && strstr(err.msg, ".mtx"),
              "unknown extension: %d %s", rc, err.msg);
    TH_EXPECT(tc, g.row == NULL && g.n == 0, "graph not zeroed after failure");
}

/* ---- files that must be accepted ------------------------------------------- */

static const struct good_case {
    const char *ext;
    const char *text;
    const char *expect;   /* graph_text of the result */
} good_cases[] = {
    /* CRLF, tabs, trailing blanks, blank and comment lines, no final newline. */
    {"el", "0 1\r\n1\t2  \r\n\r\n% c\r\n  2 0", "n=3:0>1,1>2,2>0"},
    {"el", "# Nodes: 4\n", "n=4:"},
    {"el", "5 5\n", "n=6:5>5"},
    {"txt", "# Nodes: 3 Edges: 2\n# FromNodeId\tToNodeId\n0\t2\n2\t0\n", "n=3:0>2,2>0"},
    {"wel", "0 1 -5\n1 0 2147483647\n0 0 -2147483648\n", "n=2:0>1/-5,0>0/-2147483648,1>0/2147483647"},
    {"wel", "0 1 +7\n", "n=2:0>1/7"},
    {"gr", "c x\n\np sp 3 2\nc mid\na 1 2 5\n  a 3 3 -1\n", "n=3:0>1/5,2>2/-1"},
    {"gr", "p sp 4 1\na 1 2 1", "n=4:0>1/1"},
    {"gr", "p sp 0 0\n", "n=0:"},
    {"mtx", "%%MatrixMarket MATRIX Coordinate Pattern Symmetric\n%c\n\n3 3 3\n2 1\n3 3\n3 1\n",
     "n=3:0>1,0>2,1>0,2>2,2>0"},
    {"mtx", "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 2.5\n1 2 -2.5\n2 1 1e2\n2 2 0.49999\n",
     "n=2 rounded:0>0/3,0>1/-3,1>0/100,1>1/0"},
    {"mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.0\n1 2 2E0\n2 1 -3.000\n",
     "n=2:0>0/1,0>1/2,1>0/-3"},
    {"mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 3e9\n2 1 -1.5e300\n",
     "n=2 rounded:0>1/2147483647,1>0/-2147483648"},
    {"mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.000000000000000000000000123456789e25\n",
     "n=1 rounded:0>0/1"},
    {"mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 2\n2 1 5\n3 2 -7\n",
     "n=3:0>1/-5,1>0/5,1>2/7,2>1/-7"},
    {"mtx", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 4\n2 1 -6\n",
     "n=2:0>0/4,0>1/-6,1>0/-6"},
    {"mtx", "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n", "n=0:"},
};

static void test_accept(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    char path[1024], text[1024];
    for (size_t i = 0; i < sizeof good_cases / sizeof good_cases[0]; i++) {
        const struct good_case *c = &good_cases[i];
        char name[64];
        snprintf(name, sizeof name, "good-%02zu.%s", i, c->ext);
        tmp_path(path, sizeof path, name);
        TH_REQUIRE(tc, write_bytes(path, c->text, strlen(c->text)), "cannot write %s", path);
        int rc = clirr_graph_read(path, &g, &err);
        if (rc != CLIRR_OK) {
            TH_EXPECT(tc, false, "good case %zu (.%s): %s", i, c->ext, err.msg);
            continue;
        }
        graph_text(&g, text, sizeof text);
        TH_EXPECT(tc, !strcmp(text, c->expect), "good case %zu (.%s): got \"%s\", expected \"%s\"",
                  i, c->ext, text, c->expect);
        clirr_graph_free(&g);
    }
done:
    clirr_graph_free(&g);
}

/* ---- files that must be rejected ------------------------------------------- */

static const char galois_gr[] = {1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0,
                                 3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
                                 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};

#define MTX_REAL "%%MatrixMarket matrix coordinate real general\n"
#define MTX_INT "%%MatrixMarket matrix coordinate integer general\n"
#define MTX_PAT "%%MatrixMarket matrix coordinate pattern general\n"

/* Each malformed input, the status it must give, and a piece of the message:
 * ":LINE: " follows the file name whenever a line is to blame. */
static const struct bad_case {
    const char *ext;
    const char *text;
    size_t len;           /* 0: strlen(text) */
    int status;
    const char *msg;
} bad_cases[] = {
    /* DIMACS .gr */
    {"gr", "", 0, CLIRR_ERR_INPUT, ":1: expected a 'p sp N M' line, found end of file"},
    {"gr", "c only a comment\n", 0, CLIRR_ERR_INPUT, ":2: expected a 'p sp N M' line, found end of file"},
    {"gr", "a 1 2 3\n", 0, CLIRR_ERR_INPUT, ":1: expected the 'p sp N M' line before the first arc, found 'a'"},
    {"gr", "p sp 3 2\na 1 2 3\n", 0, CLIRR_ERR_INPUT, ":3: expected 2 arcs as the 'p' line (line 1) says, found end of file after 1"},
    {"gr", "p sp 3 1\na 1 2 3\na 2 3 1\n", 0, CLIRR_ERR_INPUT, ":3: expected no more arcs, found arc 2"},
    {"gr", "p sp 3 1\na 0 2 3\n", 0, CLIRR_ERR_INPUT, ":2: expected a tail vertex id from 1 to 3, found '0'"},
    {"gr", "p sp 3 1\na 1 4 3\n", 0, CLIRR_ERR_INPUT, ":2: expected a head vertex id from 1 to 3, found '4'"},
    {"gr", "p sp 3 1\na 1 2\n", 0, CLIRR_ERR_INPUT, ":2: expected an integer weight (32-bit), found end of line"},
    {"gr", "p sp 3 1\na 1 2 3 4\n", 0, CLIRR_ERR_INPUT, ":2: expected end of line after 'a U V W', found '4'"},
    {"gr", "p sp 3 1\na 1 x 3\n", 0, CLIRR_ERR_INPUT, ":2: expected a head vertex id from 1 to 3, found 'x'"},
    {"gr", "p sp 3 1\na 1 2 3x\n", 0, CLIRR_ERR_INPUT, ":2: expected an integer weight (32-bit), found '3x'"},
    {"gr", "p sp 3 1\na 1 2 2147483648\n", 0, CLIRR_ERR_INPUT, ":2: expected an integer weight (32-bit), found '2147483648'"},
    {"gr", "p sp 3 1\na 1 2 99999999999999999999999\n", 0, CLIRR_ERR_INPUT, ":2: expected an integer weight (32-bit), found '99999999999999999999999'"},
    {"gr", "p max 3 1\n", 0, CLIRR_ERR_INPUT, ":1: expected problem type 'sp', found 'max'"},
    {"gr", "p sp 3\n", 0, CLIRR_ERR_INPUT, ":1: expected an arc count M from 0 to 4294967294, found end of line"},
    {"gr", "p sp -3 1\n", 0, CLIRR_ERR_INPUT, ":1: expected a vertex count N from 0 to 4294967294, found '-3'"},
    {"gr", "p sp 4294967295 1\n", 0, CLIRR_ERR_INPUT, ":1: expected a vertex count N from 0 to 4294967294, found '4294967295'"},
    {"gr", "p sp 3 1 7\n", 0, CLIRR_ERR_INPUT, ":1: expected end of line after 'p sp N M', found '7'"},
    {"gr", "p sp 3 1\np sp 3 1\n", 0, CLIRR_ERR_INPUT, ":2: expected one 'p' line, found a second one (the first is line 1)"},
    {"gr", "c ok\nx 1 2\n", 0, CLIRR_ERR_INPUT, ":2: expected a line starting with 'c', 'p' or 'a', found 'x'"},
    {"gr", "p sp 3 1\na1 2 3\n", 0, CLIRR_ERR_INPUT, ":2: expected a line starting with 'c', 'p' or 'a', found 'a1'"},
    {"gr", "p sp 3 1\na 1 2 3\0\n", 19, CLIRR_ERR_INPUT, ":2: binary data (a NUL byte) in a text file"},
    {"gr", galois_gr, sizeof galois_gr, CLIRR_ERR_INPUT, "truncated: the header (version 1, n = 3, m = 2)"},
    /* An edge list without arcs or a "# Nodes:" header says so. */
    {"el", "", 0, CLIRR_ERR_INPUT, "no arcs in the file"},
    {"el", "# only\n% comments\n\n", 0, CLIRR_ERR_INPUT, "no arcs in the file"},
    /* Matrix Market */
    {"mtx", "", 0, CLIRR_ERR_INPUT, ":1: expected the banner '%%MatrixMarket matrix coordinate FIELD SYMMETRY', found end of file"},
    {"mtx", "2 2 1\n1 2\n", 0, CLIRR_ERR_INPUT, ":1: expected the banner '%%MatrixMarket matrix coordinate FIELD SYMMETRY', found '2'"},
    {"mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 0, CLIRR_ERR_INPUT, ":1: expected 'coordinate', found 'array': dense"},
    {"mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 0, CLIRR_ERR_INPUT, ":1: expected field 'pattern', 'integer' or 'real', found 'complex'"},
    {"mtx", "%%MatrixMarket matrix coordinate real hermitian\n", 0, CLIRR_ERR_INPUT, ":1: expected symmetry 'general', 'symmetric' or 'skew-symmetric', found 'hermitian'"},
    {"mtx", "%%MatrixMarket matrix coordinate double general\n", 0, CLIRR_ERR_INPUT, ":1: expected field 'pattern', 'integer' or 'real', found 'double'"},
    {"mtx", "%%MatrixMarket vector coordinate real general\n", 0, CLIRR_ERR_INPUT, ":1: expected 'matrix', found 'vector'"},
    {"mtx", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n", 0, CLIRR_ERR_INPUT, ":1: expected a field with values for a skew-symmetric matrix, found 'pattern'"},
    {"mtx", "%%MatrixMarket matrix coordinate real general extra\n", 0, CLIRR_ERR_INPUT, ":1: expected end of the banner line, found 'extra'"},
    {"mtx", MTX_REAL "2 3 1\n1 1 1.0\n", 0, CLIRR_ERR_INPUT, ":2: expected a square matrix (a graph), found 2 rows and 3 columns"},
    {"mtx", MTX_REAL "% just a comment\n", 0, CLIRR_ERR_INPUT, ":3: expected the size line 'ROWS COLUMNS ENTRIES', found end of file"},
    {"mtx", MTX_REAL "2 2 x\n", 0, CLIRR_ERR_INPUT, ":2: expected an entry count from 0 to 4294967294, found 'x'"},
    {"mtx", MTX_REAL "2 2 1 1\n", 0, CLIRR_ERR_INPUT, ":2: expected end of line after 'ROWS COLUMNS ENTRIES', found '1'"},
    {"mtx", MTX_REAL "2 2 2\n1 1 1.5\n", 0, CLIRR_ERR_INPUT, ":4: expected 2 entries as the size line (line 2) says, found end of file after 1"},
    {"mtx", MTX_REAL "2 2 1\n1 1 1.5\n2 2 1\n", 0, CLIRR_ERR_INPUT, ":4: expected no more entries, found entry 2"},
    {"mtx", MTX_PAT "2 2 1\n1 2 5\n", 0, CLIRR_ERR_INPUT, ":3: expected end of line after 'ROW COLUMN' (pattern matrix), found '5'"},
    {"mtx", MTX_INT "2 2 1\n1 2 1.5\n", 0, CLIRR_ERR_INPUT, ":3: expected an integer value (32-bit), found '1.5'"},
    {"mtx", MTX_INT "2 2 1\n1 2 3000000000\n", 0, CLIRR_ERR_INPUT, ":3: expected an integer value (32-bit), found '3000000000'"},
    {"mtx", MTX_REAL "2 2 1\n1 2 nan\n", 0, CLIRR_ERR_INPUT, ":3: expected a finite real value, found 'nan'"},
    {"mtx", MTX_REAL "2 2 1\n1 2 -inf\n", 0, CLIRR_ERR_INPUT, ":3: expected a finite real value, found '-inf'"},
    {"mtx", MTX_REAL "2 2 1\n1 2 1e999\n", 0, CLIRR_ERR_INPUT, ":3: expected a finite real value, found '1e999'"},
    {"mtx", MTX_REAL "2 2 1\n1 2 1.5.2\n", 0, CLIRR_ERR_INPUT, ":3: expected a finite real value, found '1.5.2'"},
    {"mtx", MTX_REAL "2 2 1\n1 2 0x10\n", 0, CLIRR_ERR_INPUT, ":3: expected a finite real value, found '0x10'"},
    {"mtx", MTX_REAL "2 2 1\n1 2\n", 0, CLIRR_ERR_INPUT, ":3: expected a finite real value, found end of line"},
    {"mtx", MTX_REAL "2 2 1\n0 1 1\n", 0, CLIRR_ERR_INPUT, ":3: expected a row index from 1 to 2, found '0'"},
    {"mtx", MTX_REAL "2 2 1\n1 3 1\n", 0, CLIRR_ERR_INPUT, ":3: expected a column index from 1 to 2, found '3'"},
    {"mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n", 0, CLIRR_ERR_INPUT, ":3: expected an entry on or below the diagonal (row >= column) in a symmetric matrix, found row 1 column 2"},
    {"mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 1\n2 2 1\n", 0, CLIRR_ERR_INPUT, ":3: expected an entry below the diagonal in a skew-symmetric matrix"},
    {"mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 1\n2 1 -2147483648\n", 0, CLIRR_ERR_INPUT, ":3: expected an integer value from -2147483647 to 2147483647"},
    {"mtx", MTX_REAL "2 2 1\n1\0 2 1\n", 56, CLIRR_ERR_INPUT, ":3: binary data (a NUL byte)"},
    /* edge lists */
    {"el", "0 1 5\n", 0, CLIRR_ERR_INPUT, ":1: expected end of line after 'u v' (weighted lists need the .wel extension), found '5'"},
    {"el", "0\n", 0, CLIRR_ERR_INPUT, ":1: expected a target vertex id from 0 to 4294967293, found end of line"},
    {"el", "0 1\n1 x\n", 0, CLIRR_ERR_INPUT, ":2: expected a target vertex id from 0 to 4294967293, found 'x'"},
    {"el", "0 -1\n", 0, CLIRR_ERR_INPUT, ":1: expected a target vertex id from 0 to 4294967293, found '-1'"},
    {"el", "4294967294 0\n", 0, CLIRR_ERR_INPUT, ":1: expected a source vertex id from 0 to 4294967293, found '4294967294'"},
    {"el", "# c\n\n0 1\n1 2 junk\n", 0, CLIRR_ERR_INPUT, ":4: expected end of line after 'u v'"},
    {"el", "0 1\n1 2.5\n", 0, CLIRR_ERR_INPUT, ":2: expected a target vertex id from 0 to 4294967293, found '2.5'"},
    {"el", "0,1\n", 0, CLIRR_ERR_INPUT, ":1: expected a source vertex id from 0 to 4294967293, found '0,1'"},
    {"el", "0 1\n\x01\x02\0\0\n", 9, CLIRR_ERR_INPUT, ":2: binary data (a NUL byte) in a text file"},
    {"el", "0 1\n\x7f" "ELF\x02\x01\n", 0, CLIRR_ERR_INPUT, ":2: expected a source vertex id from 0 to 4294967293, found '\\x7fELF\\x02\\x01'"},
    {"txt", "# Nodes: 3\n0\t1\n1\t2\t3\n", 0, CLIRR_ERR_INPUT, ":3: expected end of line after 'u v'"},
    {"txt", "0\t1\r\n1\r\n", 0, CLIRR_ERR_INPUT, ":2: expected a target vertex id from 0 to 4294967293, found end of line"},
    {"wel", "0 1\n", 0, CLIRR_ERR_INPUT, ":1: expected an integer weight (32-bit), found end of line"},
    {"wel", "0 1 2 3\n", 0, CLIRR_ERR_INPUT, ":1: expected end of line after 'u v w', found '3'"},
    {"wel", "0 1 2147483648\n", 0, CLIRR_ERR_INPUT, ":1: expected an integer weight (32-bit), found '2147483648'"},
    {"wel", "0 1 1\n0 1 1.5\n", 0, CLIRR_ERR_INPUT, ":2: expected an integer weight (32-bit), found '1.5'"},
    {"wel", "0 1 -\n", 0, CLIRR_ERR_INPUT, ":1: expected an integer weight (32-bit), found '-'"},
    /* binary CSR given a text file, and the reverse */
    {"csr", "0 1\n1 2\n", 0, CLIRR_ERR_INPUT, "not a clirr binary CSR file"},
    {"csr", "", 0, CLIRR_ERR_INPUT, "not a clirr binary CSR file"},
};

static void test_reject(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    char path[1024], name[64];
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *c = &bad_cases[i];
        snprintf(name, sizeof name, "bad-%03zu.%s", i, c->ext);
        tmp_path(path, sizeof path, name);
        TH_REQUIRE(tc, write_bytes(path, c->text, c->len ? c->len : strlen(c->text)),
                   "cannot write %s", path);
        clirr_error_clear(&err);
        int rc = clirr_graph_read(path, &g, &err);
        TH_EXPECT(tc, rc == c->status, "bad case %zu (.%s): status %s, expected %s (%s)", i,
                  c->ext, clirr_status_name(rc), clirr_status_name(c->status), err.msg);
        TH_EXPECT(tc, strstr(err.msg, name) == err.msg + strlen(th_tmp_dir()) + 1,
                  "bad case %zu: message does not start with the file: %s", i, err.msg);
        TH_EXPECT(tc, strstr(err.msg, c->msg) != NULL,
                  "bad case %zu (.%s): message \"%s\" lacks \"%s\"", i, c->ext, err.msg, c->msg);
        TH_EXPECT(tc, g.row == NULL && g.col == NULL && g.n == 0,
                  "bad case %zu: graph not zeroed", i);
        clirr_graph_free(&g);
    }
done:
    clirr_graph_free(&g);
}

static void test_unreadable(th_case *tc)
{
    clirr_error err;
    clirr_graph g;
    char path[1024];
    const char *exts[] = {"gr", "mtx", "el", "wel", "csr", "txt.gz"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "no-such-file.%s", exts[i]);
        tmp_path(path, sizeof path, name);
        int rc = clirr_graph_read(path, &g, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, path) && strstr(err.msg, strerror(ENOENT)),
                  "missing .%s: %s %s", exts[i], clirr_status_name(rc), err.msg);
    }
    /* A directory opens but cannot be read. */
    tmp_path(path, sizeof path, "dir.el");
    TH_REQUIRE(tc, mkdir(path, 0700) == 0 || errno == EEXIST, "mkdir %s", path);
    int rc = clirr_graph_read(path, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, path), "directory: %s %s",
              clirr_status_name(rc), err.msg);
    /* A truncated gzip stream. */
    size_t len = 0;
    char src[1024];
    snprintf(src, sizeof src, "%s/tiny.wel.gz", th_data_dir());
    unsigned char *gz = slurp(src, &len);
    TH_REQUIRE(tc, gz && len > 40, "cannot read %s", src);
    tmp_path(path, sizeof path, "cut.wel.gz");
    bool ok = write_bytes(path, gz, len - 12);
    free(gz);
    TH_REQUIRE(tc, ok, "cannot write %s", path);
    rc = clirr_graph_read(path, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "truncated gzip"), "cut gzip: %s %s",
              clirr_status_name(rc), err.msg);
done:;
}

/* ---- fuzzing ---------------------------------------------------------------- */

/* One random change: replace bytes, put in a character readers care about,
 * cut the file, delete or duplicate a stretch, or insert a long number. */
static size_t mutate(unsigned char *buf, size_t len, size_t cap, uint64_t *s)
{
    static const char special[] = "09 \n\t-+#%ape.\r\0\xff:xE";
    uint64_t r = next_rand(s);
    size_t at = len ? (size_t)(next_rand(s) % len) : 0;
    switch (r % 7) {
    case 0:
        for (int k = 1 + (int)(r >> 8) % 3; k > 0 && len; k--)
            buf[next_rand(s) % len] = (unsigned char)next_rand(s);
        return len;
    case 1:
    case 2:
        if (len)
            buf[at] = (unsigned char)special[next_rand(s) % (sizeof special - 1)];
        return len;
    case 3:
        return len ? (size_t)(next_rand(s) % len) : 0;
    case 4: {
        size_t k = (size_t)(next_rand(s) % 16);
        if (k > len - at)
            k = len - at;
        memmove(buf + at, buf + at + k, len - at - k);
        return len - k;
    }
    case 5: {
        size_t k = (size_t)(next_rand(s) % 24);
        if (k > len - at)
            k = len - at;
        if (len + k > cap)
            return len;
        memmove(buf + at + k, buf + at, len - at);
        return len + k;
    }
    default: {
        /* Numbers beyond every limit, or small: a valid header with two
         * billion vertices would only test how fast memory is zeroed. */
        static const char *nums[] = {"99999999999999999999", "4294967295", "-2147483649",
                                     "-1", "1e308", "0", "-0.5"};
        const char *num = nums[next_rand(s) % (sizeof nums / sizeof nums[0])];
        size_t k = strlen(num);
        if (len + k > cap)
            return len;
        memmove(buf + at + k, buf + at, len - at);
        memcpy(buf + at, num, k);
        return len + k;
    }
    }
}

static void test_fuzz(th_case *tc)
{
    static const char *exts[] = {"gr", "mtx", "el", "txt", "wel", "csr", "wel.gz"};
    enum { ROUNDS = 1200, CAP = 1 << 14 };
    clirr_error err;
    clirr_graph g = {0}, seed_graph = {0};
    unsigned char *base[2] = {NULL, NULL}, *buf = malloc(CAP);
    char path[1024], why[256];
    uint64_t rng = 42;
    TH_REQUIRE(tc, buf, "out of memory");
    /* A second, denser base: a small weighted random graph in each format. */
    TH_OK(tc, clirr_graph_generate("random:n=12,m=40,seed=3,weights=-9-99", &seed_graph, &err));
    for (size_t f = 0; f < sizeof exts / sizeof exts[0]; f++) {
        size_t blen[2];
        char src[1024];
        snprintf(src, sizeof src, "%s/tiny.%s", th_data_dir(), exts[f]);
        base[0] = slurp(src, &blen[0]);
        snprintf(src, sizeof src, "%s/fuzz-base.%s", th_tmp_dir(), exts[f]);
        /* .el and .txt hold no weights: they get the graph without them. */
        clirr_graph plain = seed_graph;
        if (!strcmp(exts[f], "el") || !strcmp(exts[f], "txt"))
            plain.weight = NULL;
        TH_OK(tc, clirr_graph_write(src, &plain, &err));
        base[1] = slurp(src, &blen[1]);
        TH_REQUIRE(tc, base[0] && base[1] && blen[0] < CAP / 2 && blen[1] < CAP / 2,
                   "cannot load the .%s bases", exts[f]);
        snprintf(path, sizeof path, "%s/fuzz.%s", th_tmp_dir(), exts[f]);
        size_t accepted = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int b = round & 1;
            size_t len = blen[b];
            memcpy(buf, base[b], len);
            for (int k = 1 + (int)(next_rand(&rng) % 3); k > 0; k--)
                len = mutate(buf, len, CAP, &rng);
            TH_REQUIRE(tc, write_bytes(path, buf, len), "cannot write %s", path);
            clirr_error_clear(&err);
            int rc = clirr_graph_read(path, &g, &err);
            TH_REQUIRE(tc, rc == CLIRR_OK || rc == CLIRR_ERR_INPUT,
                       ".%s round %d: status %s: %s", exts[f], round, clirr_status_name(rc), err.msg);
            if (rc == CLIRR_OK) {
                accepted++;
                TH_REQUIRE(tc, graph_valid(&g, why, sizeof why), ".%s round %d: accepted an invalid graph: %s",
                           exts[f], round, why);
            } else
                TH_REQUIRE(tc, strstr(err.msg, "fuzz."), ".%s round %d: message does not name the file: %s",
                           exts[f], round, err.msg);
            clirr_graph_free(&g);
        }
        /* Mutations that keep a file valid happen (a digit for a digit):
         * a fuzzer that only ever saw rejections would test one path. */
        TH_EXPECT(tc, accepted > 0, ".%s: no mutated file was accepted", exts[f]);
        free(base[0]);
        free(base[1]);
        base[0] = base[1] = NULL;
    }
done:
    free(base[0]);
    free(base[1]);
    free(buf);
    clirr_graph_free(&g);
    clirr_graph_free(&seed_graph);
}

/* ---- binary CSR corruption ------------------------------------------------------ */

static void test_csr_corrupt(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    char src[1024], path[1024];
    snprintf(src, sizeof src, "%s/tiny.csr", th_data_dir());
    size_t len = 0;
    unsigned char *good = slurp(src, &len), *buf = NULL;
    TH_REQUIRE(tc, good && len == 32 + 6 * 4 + 9 * 4 * 2, "%s: %zu bytes", src, len);
    buf = malloc(len + 8);
    TH_REQUIRE(tc, buf, "out of memory");
    tmp_path(path, sizeof path, "corrupt.csr");

    /* Every truncation is refused. */
    for (size_t cut = 0; cut < len; cut++) {
        TH_REQUIRE(tc, write_bytes(path, good, cut), "write");
        int rc = clirr_graph_read(path, &g, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && (strstr(err.msg, "truncated") || cut < 8),
                  "cut at %zu: %s %s", cut, clirr_status_name(rc), err.msg);
        clirr_graph_free(&g);
    }
    /* Offsets into the file: row at 32, col at 56, weights at 92. */
    static const struct {
        size_t at;
        uint32_t value;
        const char *msg;
    } edits[] = {
        {0, 0x52524943, "not a clirr binary CSR file"},      /* "CIRR" */
        {8, 3, "version 3, this clirr reads versions 1 to 2"},
        {8, 0, "version 0, this clirr reads versions 1 to 2"},
        {12, 5, "unknown flags 0x5"},                         /* values need version 2 */
        {16, 6, "implies"},                                   /* n = 6: size mismatch */
        {20, 1, "clirr handles at most"},                     /* n = 2^32 + 5 */
        {24, 10, "implies"},                                  /* m = 10 */
        {32, 1, "row[0] is 1, expected 0"},
        {36, 5, "offsets out of order, row[1] = 5 > row[2] = 4"},
        {52, 8, "row[n] = row[5] is 8, expected m = 9"},
        {56, 5, "col[0] = 5 is not a vertex (n = 5)"},
        {88, 0xffffffffu, "col[8] = 4294967295 is not a vertex"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        memcpy(buf, good, len);
        buf[edits[i].at] = (unsigned char)edits[i].value;
        buf[edits[i].at + 1] = (unsigned char)(edits[i].value >> 8);
        buf[edits[i].at + 2] = (unsigned char)(edits[i].value >> 16);
        buf[edits[i].at + 3] = (unsigned char)(edits[i].value >> 24);
        TH_REQUIRE(tc, write_bytes(path, buf, len), "write");
        int rc = clirr_graph_read(path, &g, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, edits[i].msg) && strstr(err.msg, "corrupt.csr"),
                  "edit %zu: %s \"%s\" lacks \"%s\"", i, clirr_status_name(rc), err.msg, edits[i].msg);
        clirr_graph_free(&g);
    }
    /* Trailing data. */
    memcpy(buf, good, len);
    buf[len] = 0;
    TH_REQUIRE(tc, write_bytes(path, buf, len + 1), "write");
    int rc = clirr_graph_read(path, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "trailing data"), "trailing: %s", err.msg);
    clirr_graph_free(&g);

    /* Gzipped, the length is unknown up front: a huge count in the header
     * must end in "truncated", not in an allocation of gigabytes. */
    clirr_graph tiny;
    tiny_expected(&tiny);
    tmp_path(path, sizeof path, "huge.csr.gz");
    TH_OK(tc, clirr_graph_write(path, &tiny, &err));
    TH_OK(tc, clirr_graph_read(path, &g, &err));
    TH_EXPECT(tc, same_arrays(&g, &tiny), "csr.gz round trip differs");
    clirr_graph_free(&g);
    {
        gzFile z = gzopen(path, "wb");
        TH_REQUIRE(tc, z, "gzopen %s", path);
        memcpy(buf, good, len);
        buf[16] = 0xfe, buf[17] = 0xff, buf[18] = 0xff, buf[19] = 0xff; /* n = 2^32 - 2 */
        gzwrite(z, buf, (unsigned)len);
        TH_REQUIRE(tc, gzclose(z) == Z_OK, "gzclose");
    }
    rc = clirr_graph_read(path, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "truncated"), "huge n in csr.gz: %s %s",
              clirr_status_name(rc), err.msg);
    clirr_graph_free(&g);
done:
    free(good);
    free(buf);
    clirr_graph_free(&g);
}

/* ---- round trips -------------------------------------------------------------- */

/* m doubles with random bits (finite ones: an all-ones exponent is cleared
 * to a large finite one), so that every kind of value goes through the
 * writers: huge, tiny, subnormal, negative zero, integers among them. */
static double *random_values(uint32_t m, uint64_t seed)
{
    double *x = malloc(((size_t)m + 1) * sizeof *x);
    for (uint32_t k = 0; x && k < m; k++) {
        uint64_t bits = next_rand(&seed);
        if (((bits >> 52) & 0x7ff) == 0x7ff)
            bits &= ~((uint64_t)1 << 62);
        memcpy(&x[k], &bits, sizeof x[k]);
        /* Some plain ones too, the values real matrices hold. */
        static const double plain[] = {-0.0, 0.0, 2.5, -2.5, 1.0 / 3, 1e-300, 5e-324, 3e9, -7};
        if (k % 3 == 0)
            x[k] = plain[(k / 3) % (sizeof plain / sizeof plain[0])];
    }
    return x;
}

/* The weight the Matrix Market reader gives a real value: nearest integer,
 * half away from zero, saturated at the int32 limits. */
static int32_t mtx_weight(double x)
{
    double r = round(x);
    return r < INT32_MIN ? INT32_MIN : r > INT32_MAX ? INT32_MAX : (int32_t)r;
}

static void test_roundtrip(th_case *tc)
{
    static const char *exts[] = {"gr", "mtx", "el", "txt", "wel", "csr"};
    /* The third graph also gets real values. */
    static const char *specs[] = {"random:n=40,m=200,seed=5,weights=-20-1000",
                                  "rmat:scale=6,ef=4,seed=9", "random:n=30,m=150,seed=6,weights=1-9"};
    clirr_error err;
    clirr_graph g = {0}, back = {0};
    int32_t *ones = NULL, *from_values = NULL;
    double *values = NULL, *from_weights = NULL;
    char path[1024], name[64];
    for (size_t s = 0; s < 3; s++) {
        TH_OK(tc, clirr_graph_generate(specs[s], &g, &err));
        if (s == 2) {
            values = random_values(g.m, 77);
            TH_REQUIRE(tc, values, "out of memory");
            TH_OK(tc, clirr_graph_set_values(&g, values, &err));
        }
        g.weights_rounded = g.weight != NULL; /* only the binary format keeps it */
        free(ones);
        free(from_values);
        free(from_weights);
        ones = malloc(((size_t)g.m + 1) * sizeof *ones);
        from_values = malloc(((size_t)g.m + 1) * sizeof *from_values);
        from_weights = malloc(((size_t)g.m + 1) * sizeof *from_weights);
        TH_REQUIRE(tc, ones && from_values && from_weights, "out of memory");
        bool inexact = false;
        for (uint32_t u = 0; u < g.n; u++)
            for (uint32_t k = g.row[u]; k < g.row[u + 1]; k++) {
                ones[k] = 1;
                if (g.weight)
                    from_weights[k] = g.weight[k];
                if (g.value) {
                    from_values[k] = mtx_weight(g.value[k]);
                    inexact |= from_values[k] != g.value[k];
                }
            }
        for (size_t f = 0; f < 2 * (sizeof exts / sizeof exts[0]); f++) {
            const char *ext = exts[f / 2];
            snprintf(name, sizeof name, "rt-%zu.%s%s", s, ext, f % 2 ? ".gz" : "");
            tmp_path(path, sizeof path, name);
            bool noweights = !strcmp(ext, "el") || !strcmp(ext, "txt");
            if (noweights && g.weight) {
                /* Weights would be lost: refused, naming the format to use. */
                int rc = clirr_graph_write(path, &g, &err);
                TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, ".wel"), "%s: weighted graph: %s %s",
                          name, clirr_status_name(rc), err.msg);
                continue;
            }
            TH_OK(tc, clirr_graph_write(path, &g, &err));
            TH_OK(tc, clirr_graph_read(path, &back, &err));
            /* What the format keeps: edge lists keep n (their "# Nodes:"
             * header), .gr/.wel write 1 when there are no weights.
             * Values: .csr keeps them with the weights; .mtx writes them
             * instead of the weights and reads them back as values and
             * rounded weights, or writes the weights and reads them back
             * as both; the others drop them. */
            clirr_graph want = g;
            bool mtx = !strcmp(ext, "mtx");
            if (!g.weight && (!strcmp(ext, "gr") || !strcmp(ext, "wel")))
                want.weight = ones;
            if (mtx && g.value)
                want.weight = from_values;
            else if (mtx && g.weight)
                want.value = from_weights;
            else if (strcmp(ext, "csr") != 0)
                want.value = NULL;
            TH_EXPECT(tc, back.n == want.n && back.m == want.m, "%s: n=%u m=%u, expected %u and %u",
                      name, back.n, back.m, want.n, want.m);
            TH_EXPECT(tc, (back.weight != NULL) == (want.weight != NULL), "%s: weights %s", name,
                      back.weight ? "present" : "absent");
            TH_EXPECT(tc, (back.value != NULL) == (want.value != NULL), "%s: values %s", name,
                      back.value ? "present" : "absent");
            for (uint32_t k = 0; back.value && want.value && k < back.m && k < want.m; k++)
                if (memcmp(&back.value[k], &want.value[k], sizeof back.value[k])) {
                    TH_EXPECT(tc, false, "%s: value %u is %.17g, expected %.17g", name, k,
                              back.value[k], want.value[k]);
                    break;
                }
            TH_EXPECT(tc, clirr_graph_hash(&back) == clirr_graph_hash(&want), "%s: graph differs", name);
            bool rounded = (!strcmp(ext, "csr") && g.weights_rounded) || (mtx && g.value && inexact);
            TH_EXPECT(tc, back.weights_rounded == rounded, "%s: weights_rounded %d", name,
                      back.weights_rounded);
            clirr_graph_free(&back);
        }
        clirr_graph_free(&g);
    }
done:
    free(ones);
    free(from_values);
    free(from_weights);
    free(values);
    clirr_graph_free(&g);
    clirr_graph_free(&back);
}

/* Files larger than the readers' 4 MiB buffer: lines cut by a refill, the
 * line number of a NUL found in a later block, an overlong line. */
static void test_large_text(th_case *tc)
{
    static const char *names[] = {"big.wel", "big.gr.gz", "big.mtx"};
    clirr_error err;
    clirr_graph g = {0}, back = {0};
    char path[1024];
    FILE *f = NULL;
    TH_OK(tc, clirr_graph_generate("random:n=300000,m=700000,seed=8,weights=1-2000000000", &g, &err));
    for (size_t i = 0; i < 3; i++) {
        tmp_path(path, sizeof path, names[i]);
        TH_OK(tc, clirr_graph_write(path, &g, &err));
        TH_OK(tc, clirr_graph_read(path, &back, &err));
        TH_EXPECT(tc, back.m == g.m && back.n <= g.n && !memcmp(back.col, g.col, (size_t)g.m * 4) &&
                      !memcmp(back.weight, g.weight, (size_t)g.m * 4),
                  "%s: round trip differs", names[i]);
        clirr_graph_free(&back);
    }

    enum { LINES = 1500000 }; /* 6 MB of "0 1\n" */
    tmp_path(path, sizeof path, "late-nul.el");
    f = fopen(path, "wb");
    TH_REQUIRE(tc, f, "cannot write %s", path);
    for (int i = 0; i < LINES; i++)
        fputs("0 1\n", f);
    fputs("1 2\n3 ", f);
    fputc(0, f);
    fputs(" 4\n", f);
    TH_REQUIRE(tc, fclose(f) == 0, "cannot write %s", path);
    f = NULL;
    int rc = clirr_graph_read(path, &back, &err);
    char want[64];
    snprintf(want, sizeof want, ":%d: binary data", LINES + 2);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, want), "late NUL: %s %s (wanted %s)",
              clirr_status_name(rc), err.msg, want);
    clirr_graph_free(&back);

    tmp_path(path, sizeof path, "long-line.el");
    f = fopen(path, "wb");
    TH_REQUIRE(tc, f, "cannot write %s", path);
    fputs("0 1\n", f);
    for (int i = 0; i < (5 << 20); i++)
        fputc('7', f);
    TH_REQUIRE(tc, fclose(f) == 0, "cannot write %s", path);
    f = NULL;
    rc = clirr_graph_read(path, &back, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, ":2: line longer than"), "long line: %s %s",
              clirr_status_name(rc), err.msg);
done:
    if (f)
        fclose(f);
    clirr_graph_free(&g);
    clirr_graph_free(&back);
}

static void test_write_errors(th_case *tc)
{
    clirr_error err;
    clirr_graph tiny;
    tiny_expected(&tiny);
    char path[1024];
    tmp_path(path, sizeof path, "no-such-dir/x.gr");
    int rc = clirr_graph_write(path, &tiny, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_IO && strstr(err.msg, path) && strstr(err.msg, strerror(ENOENT)),
              "missing directory: %s %s", clirr_status_name(rc), err.msg);
    rc = clirr_graph_write("x.unknown", &tiny, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "x.unknown"), "unknown ext: %s", err.msg);
    /* A full disk: /dev/full behind a name with the right extension. */
    if (access("/dev/full", W_OK) == 0) {
        const char *exts[] = {"full.gr", "full.csr", "full.wel.gz"};
        for (size_t i = 0; i < 3; i++) {
            tmp_path(path, sizeof path, exts[i]);
            unlink(path);
            TH_REQUIRE(tc, symlink("/dev/full", path) == 0, "symlink %s", path);
            rc = clirr_graph_write(path, &tiny, &err);
            TH_EXPECT(tc, rc == CLIRR_ERR_IO && strstr(err.msg, path), "%s: %s %s", exts[i],
                      clirr_status_name(rc), err.msg);
        }
    }
done:;
}

/* ---- generators ------------------------------------------------------------------ */

/* Hashes pinned on the machine that wrote these tests: a different value
 * anywhere means the generator (or the hash) is not machine-independent. */
static const struct {
    const char *spec;
    uint64_t hash;
} pinned[] = {
    {"rmat:scale=8,ef=4,seed=3", 0x608535215a7ba9f5ULL},
    {"rmat:scale=7,ef=8,weights=1-50,permute=0", 0xb65023e0ac39d1f1ULL},
    {"rmat:scale=5,a=0.45,b=0.25,c=0.15,d=0.15,seed=11", 0x7b644c27b880a420ULL},
    {"random:n=100,m=500,seed=7,weights=-3-3", 0x357f4247643ecff7ULL},
    {"grid:w=5,h=4,weights=1-9", 0x8453b3740b4e7c21ULL},
    {"grid:w=3,h=2", 0xebb1b533f62e6740ULL},
    {"random:n=300,deg=2-9,seed=4", 0x265518309620b000ULL},
};

/* random:n=N,deg=LO-HI (the recursion study's BFS graphs): every
 * vertex's out-degree within [LO, HI], both ends met, heads in range. */
static void test_generate_degrees(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    TH_OK(tc, clirr_graph_generate("random:n=5000,deg=3-17,seed=9", &g, &err));
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t v = 0; v < g.n; v++) {
        uint32_t d = g.row[v + 1] - g.row[v];
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
        for (uint32_t e = g.row[v]; e < g.row[v + 1]; e++)
            TH_REQUIRE(tc, g.col[e] < g.n, "arc %u -> %u out of range", v, g.col[e]);
    }
    TH_REQUIRE(tc, lo == 3 && hi == 17, "out-degrees from %u to %u, want 3 to 17", lo, hi);
    TH_REQUIRE(tc, g.m > 5000 * 9 && g.m < 5000 * 11, "%llu arcs, want about 50000", (unsigned long long)g.m);
done:
    clirr_graph_free(&g);
}

static void test_generate_pinned(th_case *tc)
{
    clirr_error err;
    clirr_graph a = {0}, b = {0};
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        TH_OK(tc, clirr_graph_generate(pinned[i].spec, &a, &err));
        TH_OK(tc, clirr_graph_generate(pinned[i].spec, &b, &err));
        uint64_t h = clirr_graph_hash(&a);
        TH_EXPECT(tc, h == clirr_graph_hash(&b), "%s: two runs differ", pinned[i].spec);
        TH_EXPECT(tc, h == pinned[i].hash, "%s: hash 0x%016llx, pinned 0x%016llx", pinned[i].spec,
                  (unsigned long long)h, (unsigned long long)pinned[i].hash);
        clirr_graph_free(&a);
        clirr_graph_free(&b);
    }
    /* The hash itself is pinned too, on the tiny graph. */
    clirr_graph tiny;
    tiny_expected(&tiny);
    TH_EXPECT(tc, clirr_graph_hash(&tiny) == 0x782255f2f75c2f34ULL, "tiny hash 0x%016llx",
              (unsigned long long)clirr_graph_hash(&tiny));
done:
    clirr_graph_free(&a);
    clirr_graph_free(&b);
}

static void test_generate_seeds(th_case *tc)
{
    static const char *pairs[][2] = {
        {"rmat:scale=8,ef=4", "rmat:scale=8,ef=4,seed=2"},
        {"rmat:scale=8,ef=4,seed=5", "rmat:scale=8,ef=4,seed=5,permute=0"},
        {"random:n=50,m=200,seed=1", "random:n=50,m=200,seed=2"},
        {"grid:w=6,h=6,weights=1-100,seed=1", "grid:w=6,h=6,weights=1-100,seed=2"},
        {"rmat:scale=8,ef=4,weights=1-100,seed=1", "rmat:scale=8,ef=4,weights=1-101,seed=1"},
    };
    clirr_error err;
    clirr_graph a = {0}, b = {0};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(pairs[i][0], &a, &err));
        TH_OK(tc, clirr_graph_generate(pairs[i][1], &b, &err));
        TH_EXPECT(tc, clirr_graph_hash(&a) != clirr_graph_hash(&b), "'%s' and '%s' are the same graph",
                  pairs[i][0], pairs[i][1]);
        clirr_graph_free(&a);
        clirr_graph_free(&b);
    }
    /* Without weights a grid has nothing random: the seed changes nothing. */
    TH_OK(tc, clirr_graph_generate("grid:w=6,h=3,seed=1", &a, &err));
    TH_OK(tc, clirr_graph_generate("grid:w=6,h=3,seed=9", &b, &err));
    TH_EXPECT(tc, clirr_graph_hash(&a) == clirr_graph_hash(&b), "unweighted grids differ by seed");
done:
    clirr_graph_free(&a);
    clirr_graph_free(&b);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void test_generate_shape(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0}, h = {0};
    uint32_t *da = NULL, *db = NULL;
    char why[256];

    TH_OK(tc, clirr_graph_generate("rmat:scale=4", &g, &err));
    TH_EXPECT(tc, g.n == 16 && g.m == 256 && !g.weight, "rmat defaults: n=%u m=%u", g.n, g.m);
    clirr_graph_free(&g);

    /* Unpermuted R-MAT with a > b, c > d: vertex 0 is the hub. Permuting
     * relabels vertices, so the multiset of degrees stays the same. */
    TH_OK(tc, clirr_graph_generate("rmat:scale=10,ef=8,permute=0,weights=-5-5", &g, &err));
    TH_OK(tc, clirr_graph_generate("rmat:scale=10,ef=8,weights=-5-5", &h, &err));
    TH_EXPECT(tc, g.n == 1024 && g.m == 8192, "rmat: n=%u m=%u", g.n, g.m);
    TH_EXPECT(tc, graph_valid(&g, why, sizeof why) && graph_valid(&h, why, sizeof why), "%s", why);
    TH_EXPECT(tc, clirr_graph_degree(&g, 0) == clirr_graph_max_degree(&g), "unpermuted: vertex 0 has degree %u of max %u",
              clirr_graph_degree(&g, 0), clirr_graph_max_degree(&g));
    TH_EXPECT(tc, clirr_graph_degree(&h, 0) < clirr_graph_max_degree(&h), "permuted: vertex 0 is still the hub");
    da = malloc(g.n * sizeof *da);
    db = malloc(g.n * sizeof *db);
    TH_REQUIRE(tc, da && db, "out of memory");
    for (uint32_t u = 0; u < g.n; u++)
        da[u] = clirr_graph_degree(&g, u), db[u] = clirr_graph_degree(&h, u);
    qsort(da, g.n, sizeof *da, cmp_u32);
    qsort(db, g.n, sizeof *db, cmp_u32);
    TH_EXPECT(tc, !memcmp(da, db, g.n * sizeof *da), "permuting changed the degree distribution");
    int32_t lo = INT32_MAX, hi = INT32_MIN;
    for (uint32_t k = 0; k < g.m; k++)
        lo = g.weight[k] < lo ? g.weight[k] : lo, hi = g.weight[k] > hi ? g.weight[k] : hi;
    TH_EXPECT(tc, lo == -5 && hi == 5, "weights=-5-5 gave %d..%d", lo, hi);
    clirr_graph_free(&g);
    clirr_graph_free(&h);

    TH_OK(tc, clirr_graph_generate("random:n=100,m=1000,weights=7-7", &g, &err));
    TH_EXPECT(tc, g.n == 100 && g.m == 1000 && graph_valid(&g, why, sizeof why), "random: n=%u m=%u %s", g.n, g.m, why);
    for (uint32_t k = 0; k < g.m; k++)
        TH_REQUIRE(tc, g.weight[k] == 7, "weights=7-7 gave %d", g.weight[k]);
    clirr_graph_free(&g);
    TH_OK(tc, clirr_graph_generate("random:n=1,m=0", &g, &err));
    TH_EXPECT(tc, g.n == 1 && g.m == 0 && g.row[1] == 0, "random:n=1,m=0");
    clirr_graph_free(&g);

    /* Grid: exactly the 4 neighbours in increasing id, symmetric weights. */
    uint32_t w = 7, hh = 5;
    TH_OK(tc, clirr_graph_generate("grid:w=7,h=5,weights=1-1000,seed=4", &g, &err));
    TH_REQUIRE(tc, g.n == w * hh && g.m == 2 * ((w - 1) * hh + w * (hh - 1)), "grid: n=%u m=%u", g.n, g.m);
    for (uint32_t y = 0; y < hh; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t id = y * w + x, nb[4], d = 0;
            if (y > 0) nb[d++] = id - w;
            if (x > 0) nb[d++] = id - 1;
            if (x + 1 < w) nb[d++] = id + 1;
            if (y + 1 < hh) nb[d++] = id + w;
            TH_REQUIRE(tc, clirr_graph_degree(&g, id) == d, "grid vertex %u: degree %u, expected %u", id,
                       clirr_graph_degree(&g, id), d);
            for (uint32_t j = 0; j < d; j++) {
                uint32_t k = g.row[id] + j, v = nb[j];
                TH_REQUIRE(tc, g.col[k] == v, "grid vertex %u: neighbour %u is %u, expected %u", id, j, g.col[k], v);
                TH_REQUIRE(tc, g.weight[k] >= 1 && g.weight[k] <= 1000, "grid weight %d", g.weight[k]);
                uint32_t back = g.row[v];
                while (back < g.row[v + 1] && g.col[back] != id)
                    back++;
                TH_REQUIRE(tc, back < g.row[v + 1] && g.weight[back] == g.weight[k],
                           "grid edge %u-%u: weights differ by direction", id, v);
            }
        }
    clirr_graph_free(&g);
    TH_OK(tc, clirr_graph_generate("grid:w=1,h=1", &g, &err));
    TH_EXPECT(tc, g.n == 1 && g.m == 0, "1x1 grid: n=%u m=%u", g.n, g.m);
done:
    free(da);
    free(db);
    clirr_graph_free(&g);
    clirr_graph_free(&h);
}

static const struct {
    const char *spec;
    const char *msg;
} bad_specs[] = {
    {"", "empty generator spec"},
    {"foo:n=3", "unknown kind 'foo' (valid: rmat, random, grid)"},
    {"rmat", "missing required key 'scale'"},
    {"rmat:ef=4", "missing required key 'scale'"},
    {"rmat:scale=0", "key 'scale': expected an integer from 1 to 31, found '0'"},
    {"rmat:scale=32", "key 'scale': expected an integer from 1 to 31, found '32'"},
    {"rmat:scale=x", "key 'scale': expected an integer from 1 to 31, found 'x'"},
    {"rmat:scale=4,ef=-1", "key 'ef'"},
    {"rmat:scale=4,sc=3", "unknown key 'sc' for rmat (valid: scale, ef, a, b, c, d, seed, permute, weights)"},
    {"rmat:scale=4,scale=5", "key 'scale' is given twice"},
    {"rmat:scale=4,a=0.5", "keys 'a', 'b', 'c', 'd': they must sum to 1"},
    {"rmat:scale=4,a=1.5,b=0,c=0,d=-0.5", "key 'a': expected a probability from 0 to 1, found '1.5'"},
    {"rmat:scale=4,a=nan", "key 'a'"},
    {"rmat:scale=4,b=0x1p-2", "key 'b'"},
    {"rmat:scale=4,permute=2", "key 'permute'"},
    {"rmat:scale=31,ef=4", "keys 'scale', 'ef'"},
    {"rmat:scale=4,weights=5-1", "key 'weights': expected LO-HI"},
    {"rmat:scale=4,weights=1", "key 'weights'"},
    {"rmat:scale=4,weights=0-3000000000", "key 'weights'"},
    {"rmat:scale=4,seed=18446744073709551616", "key 'seed'"},
    {"random:n=10", "either m=M (arcs) or deg=LO-HI"},
    {"random:n=10,m=5,deg=1-2", "not both"},
    {"random:n=10,deg=5-2", "key 'deg': expected LO-HI"},
    {"random:n=10,deg=5", "key 'deg'"},
    {"random:n=4000000000,deg=100-200", "more than clirr's limit"},
    {"random:m=10", "missing required key 'n'"},
    {"random:n=0,m=1", "key 'n': expected an integer from 1"},
    {"random:n=10,m=5,scale=3", "unknown key 'scale' for random (valid: n, m, deg, seed, weights)"},
    {"grid:w=3", "missing required key 'h'"},
    {"grid:w=3,h=0", "key 'h'"},
    {"grid:w=100000,h=100000", "keys 'w', 'h'"},
    {"grid:w=3,h=3,", "expected key=value, found ''"},
    {"grid:w=3,=4", "expected key=value, found '=4'"},
    {"grid:w=3,h=3,seed=", "key 'seed'"},
    {"grid:w=3 ,h=3", "key 'w': expected an integer from 1 to 4294967294, found '3 '"},
};

static void test_generate_bad(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++) {
        clirr_error_clear(&err);
        int rc = clirr_graph_generate(bad_specs[i].spec, &g, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "'%s': status %s", bad_specs[i].spec, clirr_status_name(rc));
        TH_EXPECT(tc, strstr(err.msg, bad_specs[i].msg), "'%s': message \"%s\" lacks \"%s\"",
                  bad_specs[i].spec, err.msg, bad_specs[i].msg);
        TH_EXPECT(tc, !*bad_specs[i].spec || strstr(err.msg, bad_specs[i].spec), "'%s': message does not quote the spec: %s",
                  bad_specs[i].spec, err.msg);
        TH_EXPECT(tc, g.row == NULL, "'%s': graph not zeroed", bad_specs[i].spec);
        clirr_graph_free(&g);
    }
}

/* The sample in data/ is the generator's output with two comment lines. */
static void test_grid_sample(th_case *tc)
{
    clirr_error err;
    clirr_graph a = {0}, b = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/grid-32x32.gr", th_data_dir());
    TH_OK(tc, clirr_graph_read(path, &a, &err));
    TH_OK(tc, clirr_graph_generate("grid:w=32,h=32,weights=1-100", &b, &err));
    TH_EXPECT(tc, clirr_graph_hash(&a) == clirr_graph_hash(&b), "data/grid-32x32.gr differs from its spec");
done:
    clirr_graph_free(&a);
    clirr_graph_free(&b);
}

/* ---- CSR construction and symmetrize ---------------------------------------------- */

static void test_from_arcs(th_case *tc)
{
    /* The tiny graph in file order. */
    static const uint32_t src[] = {2, 0, 0, 1, 0, 3, 2, 3, 4}, dst[] = {0, 1, 2, 2, 1, 3, 3, 4, 0};
    static const int32_t w[] = {2, 3, 1, 7, 9, 4, 5, 6, 8};
    clirr_error err;
    clirr_graph g = {0}, tiny;
    tiny_expected(&tiny);
    TH_OK(tc, clirr_graph_from_arcs(5, 9, src, dst, w, &g, &err));
    TH_EXPECT(tc, same_arrays(&g, &tiny) && !memcmp(g.weight, tiny_w, sizeof tiny_w), "tiny from arcs differs");
    TH_EXPECT(tc, clirr_graph_hash(&g) == clirr_graph_hash(&tiny), "hash differs");
    clirr_graph_free(&g);
    TH_OK(tc, clirr_graph_from_arcs(5, 9, src, dst, NULL, &g, &err));
    TH_EXPECT(tc, g.weight == NULL && same_arrays(&g, &tiny), "unweighted differs");
    clirr_graph_free(&g);

    TH_OK(tc, clirr_graph_from_arcs(0, 0, NULL, NULL, NULL, &g, &err));
    TH_EXPECT(tc, g.n == 0 && g.m == 0 && g.row && g.row[0] == 0, "empty graph");
    clirr_graph_free(&g);
    TH_OK(tc, clirr_graph_from_arcs(3, 0, NULL, NULL, NULL, &g, &err));
    TH_EXPECT(tc, g.n == 3 && g.row[3] == 0 && clirr_graph_max_degree(&g) == 0, "no arcs");
    clirr_graph_free(&g);

    int rc = clirr_graph_from_arcs(4, 9, src, dst, w, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "arc 7 (3 -> 4)"), "endpoint >= n: %s %s",
              clirr_status_name(rc), err.msg);
    TH_EXPECT(tc, g.row == NULL, "graph not zeroed");
    rc = clirr_graph_from_arcs(5, 2, NULL, dst, NULL, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "NULL arcs: %s", clirr_status_name(rc));
    rc = clirr_graph_from_arcs(5, (uint64_t)1 << 32, src, dst, NULL, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_TOO_LARGE, "2^32 arcs: %s", clirr_status_name(rc));

    /* The hash sees every array. */
    TH_OK(tc, clirr_graph_from_arcs(5, 9, src, dst, w, &g, &err));
    uint64_t h0 = clirr_graph_hash(&g);
    g.weight[4]++;
    TH_EXPECT(tc, clirr_graph_hash(&g) != h0, "hash ignores weights");
    g.weight[4]--;
    g.col[8] = 1;
    TH_EXPECT(tc, clirr_graph_hash(&g) != h0, "hash ignores col");
done:
    clirr_graph_free(&g);
}

static void test_symmetrize_tiny(th_case *tc)
{
    static const char *expect =
        "n=5:0>1/3,0>2/1,0>1/9,0>4/8,1>2/7,1>0/3,2>0/2,2>3/5,2>1/7,3>3/4,3>4/6,3>2/5,4>0/8,4>3/6";
    clirr_error err;
    clirr_graph g = {0}, tiny;
    char path[1024], text[1024];
    tiny_expected(&tiny);
    snprintf(path, sizeof path, "%s/tiny.gr", th_data_dir());
    TH_OK(tc, clirr_graph_read(path, &g, &err));
    TH_OK(tc, clirr_graph_symmetrize(&g, &err));
    graph_text(&g, text, sizeof text);
    TH_EXPECT(tc, !strcmp(text, expect), "got \"%s\", expected \"%s\"", text, expect);
    uint64_t h = clirr_graph_hash(&g);
    TH_OK(tc, clirr_graph_symmetrize(&g, &err));
    TH_EXPECT(tc, clirr_graph_hash(&g) == h, "symmetrizing twice changed the graph");
done:
    clirr_graph_free(&g);
}

/* Properties on random graphs, checked against an adjacency matrix. */
static void test_symmetrize_props(th_case *tc)
{
    enum { N = 40 };
    static const char *specs[] = {"random:n=40,m=120,seed=1,weights=1-9", "random:n=40,m=400,seed=2",
                                  "rmat:scale=5,ef=6,seed=3,weights=0-3", "grid:w=5,h=8"};
    clirr_error err;
    clirr_graph g = {0}, s = {0};
    char why[256];
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(specs[i], &g, &err));
        TH_REQUIRE(tc, g.n <= N, "graph too large for the check");
        static bool adj[N][N];
        memset(adj, 0, sizeof adj);
        for (uint32_t u = 0; u < g.n; u++)
            for (uint32_t k = g.row[u]; k < g.row[u + 1]; k++)
                adj[u][g.col[k]] = true;
        uint64_t missing = 0;
        for (uint32_t u = 0; u < g.n; u++)
            for (uint32_t v = 0; v < g.n; v++)
                missing += adj[v][u] && !adj[u][v];
        /* Copy g into s through the arc interface, then symmetrize s. */
        uint32_t *src = malloc(((size_t)g.m + 1) * sizeof *src);
        TH_REQUIRE(tc, src, "out of memory");
        for (uint32_t u = 0; u < g.n; u++)
            for (uint32_t k = g.row[u]; k < g.row[u + 1]; k++)
                src[k] = u;
        int rc = clirr_graph_from_arcs(g.n, g.m, src, g.col, g.weight, &s, &err);
        free(src);
        TH_OK(tc, rc);
        TH_OK(tc, clirr_graph_symmetrize(&s, &err));
        TH_REQUIRE(tc, graph_valid(&s, why, sizeof why), "%s: %s", specs[i], why);
        TH_EXPECT(tc, s.m == g.m + missing, "%s: m %u, expected %u + %llu", specs[i], s.m, g.m,
                  (unsigned long long)missing);
        TH_EXPECT(tc, (s.weight != NULL) == (g.weight != NULL), "%s: weights lost", specs[i]);
        for (uint32_t u = 0; u < g.n; u++) {
            uint32_t deg = clirr_graph_degree(&g, u), sdeg = clirr_graph_degree(&s, u);
            TH_REQUIRE(tc, sdeg >= deg && !memcmp(s.col + s.row[u], g.col + g.row[u], deg * 4),
                       "%s: row %u does not start with the original arcs", specs[i], u);
            uint32_t prev = 0;
            for (uint32_t k = s.row[u] + deg; k < s.row[u + 1]; k++) {
                uint32_t v = s.col[k];
                TH_REQUIRE(tc, adj[v][u] && !adj[u][v], "%s: added %u->%u without reason", specs[i], u, v);
                TH_REQUIRE(tc, k == s.row[u] + deg || v > prev, "%s: row %u: added arcs not increasing", specs[i], u);
                prev = v;
                if (s.weight) {
                    /* The weight of the first v -> u arc. */
                    uint32_t j = g.row[v];
                    while (g.col[j] != u)
                        j++;
                    TH_REQUIRE(tc, s.weight[k] == g.weight[j], "%s: weight of added %u->%u", specs[i], u, v);
                }
            }
        }
        uint64_t h = clirr_graph_hash(&s);
        TH_OK(tc, clirr_graph_symmetrize(&s, &err));
        TH_EXPECT(tc, clirr_graph_hash(&s) == h, "%s: not idempotent", specs[i]);
        if (specs[i][0] == 'g')
            TH_EXPECT(tc, missing == 0 && clirr_graph_hash(&s) == clirr_graph_hash(&g),
                      "a grid is symmetric already");
        clirr_graph_free(&g);
        clirr_graph_free(&s);
    }
done:
    clirr_graph_free(&g);
    clirr_graph_free(&s);
}

/* ---- real values ------------------------------------------------------------------ */

static bool same_bits(double a, double b) { return !memcmp(&a, &b, sizeof a); }

/* Matrix Market values are kept exactly beside the rounded weights, mirrored
 * (negated for skew) like them; pattern files and other formats have none. */
static void test_mtx_values(th_case *tc)
{
    static const struct {
        const char *text;
        uint32_t m;
        double value[6];
    } cases[] = {
        {MTX_REAL "2 2 4\n1 1 2.5\n1 2 -2.5\n2 1 1e2\n2 2 0.1\n", 4, {2.5, -2.5, 100, 0.1}},
        {MTX_REAL "1 1 1\n1 1 -0\n", 1, {-0.0}},
        {MTX_REAL "2 2 2\n1 2 0.30000000000000004\n2 1 4.9406564584124654e-324\n", 2,
         {0.30000000000000004, 4.9406564584124654e-324}},
        {MTX_INT "2 2 2\n1 2 -2147483648\n2 2 7\n", 2, {-2147483648.0, 7}},
        {"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 1.25\n3 3 -4\n3 1 1e-3\n", 5,
         {1.25, 1e-3, 1.25, -4, 1e-3}},
        {"%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 2 -0.25\n", 4,
         {-1.5, 1.5, 0.25, -0.25}},
        {"%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 5\n", 2, {-5, 5}},
    };
    clirr_error err;
    clirr_graph g = {0};
    char path[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tmp_path(path, sizeof path, "values.mtx");
        TH_REQUIRE(tc, write_bytes(path, cases[i].text, strlen(cases[i].text)), "write");
        TH_OK(tc, clirr_graph_read(path, &g, &err));
        TH_REQUIRE(tc, g.m == cases[i].m && g.value && g.weight, "case %zu: m=%u, values %p", i, g.m,
                   (void *)g.value);
        for (uint32_t k = 0; k < g.m; k++) {
            TH_EXPECT(tc, same_bits(g.value[k], cases[i].value[k]), "case %zu: value %u is %.17g, expected %.17g",
                      i, k, g.value[k], cases[i].value[k]);
            TH_EXPECT(tc, g.weight[k] == mtx_weight(cases[i].value[k]), "case %zu: weight %u is %d", i, k,
                      g.weight[k]);
        }
        clirr_graph_free(&g);
    }
    static const char pattern[] = MTX_PAT "2 2 1\n1 2\n";
    TH_REQUIRE(tc, write_bytes(path, pattern, strlen(pattern)), "write");
    TH_OK(tc, clirr_graph_read(path, &g, &err));
    TH_EXPECT(tc, !g.value && !g.weight, "pattern file has values or weights");
done:
    clirr_graph_free(&g);
}

static void test_set_values(th_case *tc)
{
    static const uint32_t src[] = {0, 1, 1}, dst[] = {1, 0, 1};
    const double x[] = {1.5, -2, 0.25}, bad[] = {1, NAN, 2}, inf[] = {INFINITY, 1, 2};
    clirr_error err;
    clirr_graph g = {0};
    TH_OK(tc, clirr_graph_from_arcs(2, 3, src, dst, NULL, &g, &err));
    TH_EXPECT(tc, g.value == NULL, "from_arcs made values");
    uint64_t h0 = clirr_graph_hash(&g);
    TH_OK(tc, clirr_graph_set_values(&g, x, &err));
    TH_REQUIRE(tc, g.value && g.value != x && !memcmp(g.value, x, sizeof x), "values not copied");
    uint64_t h1 = clirr_graph_hash(&g);
    TH_EXPECT(tc, h1 != h0, "hash ignores values");
    g.value[2] = -0.0;
    TH_EXPECT(tc, clirr_graph_hash(&g) != h1, "hash ignores a changed value");
    g.value[2] = 0.25;
    int rc = clirr_graph_set_values(&g, bad, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "value 1"), "NaN: %s %s", clirr_status_name(rc), err.msg);
    rc = clirr_graph_set_values(&g, inf, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && strstr(err.msg, "value 0"), "inf: %s %s", clirr_status_name(rc), err.msg);
    TH_EXPECT(tc, clirr_graph_hash(&g) == h1, "a refused set changed the graph");
    TH_OK(tc, clirr_graph_set_values(&g, NULL, &err));
    TH_EXPECT(tc, g.value == NULL && clirr_graph_hash(&g) == h0, "values not removed");
done:
    clirr_graph_free(&g);
}

/* Binary CSR version 2 with values: old version 1 files still load, a v1
 * header may not claim values, and values are validated like the rest. */
static void test_csr_values(th_case *tc)
{
    static const uint32_t src[] = {0, 1, 2, 2}, dst[] = {1, 2, 0, 0};
    static const int32_t w[] = {4, 5, 6, 7};
    const double x[] = {0.5, -1e300, 3, 1.0 / 3};
    clirr_error err;
    clirr_graph g = {0}, back = {0};
    unsigned char *buf = NULL;
    char path[1024];
    tmp_path(path, sizeof path, "values.csr");
    TH_OK(tc, clirr_graph_from_arcs(3, 4, src, dst, w, &g, &err));
    TH_OK(tc, clirr_graph_set_values(&g, x, &err));
    TH_OK(tc, clirr_graph_write(path, &g, &err));
    size_t len = 0;
    buf = slurp(path, &len);
    TH_REQUIRE(tc, buf && len == 32 + 4 * 4 + 4 * 4 * 2 + 4 * 8, "%zu bytes", len);
    TH_EXPECT(tc, buf[8] == 2 && buf[12] == 5, "header: version %u flags %u", buf[8], buf[12]);
    TH_OK(tc, clirr_graph_read(path, &back, &err));
    TH_EXPECT(tc, back.value && !memcmp(back.value, x, sizeof x) && clirr_graph_hash(&back) == clirr_graph_hash(&g),
              "values lost in .csr");
    clirr_graph_free(&back);

    /* A value that is not a number; the values cut short; a version 1
     * header claiming values. */
    unsigned char save[8];
    memcpy(save, buf + 32 + 16 + 32 + 8, 8);
    static const unsigned char nan_bits[8] = {0, 0, 0, 0, 0, 0, 0xf8, 0x7f};
    memcpy(buf + 32 + 16 + 32 + 8, nan_bits, 8);
    TH_REQUIRE(tc, write_bytes(path, buf, len), "write");
    int rc = clirr_graph_read(path, &back, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "value[1]") && strstr(err.msg, "not a finite"),
              "NaN value: %s %s", clirr_status_name(rc), err.msg);
    clirr_graph_free(&back);
    memcpy(buf + 32 + 16 + 32 + 8, save, 8);
    TH_REQUIRE(tc, write_bytes(path, buf, len - 4), "write");
    rc = clirr_graph_read(path, &back, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "truncated") && strstr(err.msg, "values"),
              "cut values: %s %s", clirr_status_name(rc), err.msg);
    clirr_graph_free(&back);
    buf[8] = 1;
    TH_REQUIRE(tc, write_bytes(path, buf, len), "write");
    rc = clirr_graph_read(path, &back, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "unknown flags 0x5"), "v1 with values: %s %s",
              clirr_status_name(rc), err.msg);
    clirr_graph_free(&back);
    /* Gzipped, the length is not known up front: the cut is found inside
     * the value array. */
    buf[8] = 2;
    tmp_path(path, sizeof path, "values.csr.gz");
    {
        gzFile z = gzopen(path, "wb");
        TH_REQUIRE(tc, z, "gzopen %s", path);
        gzwrite(z, buf, (unsigned)len - 4);
        TH_REQUIRE(tc, gzclose(z) == Z_OK, "gzclose");
    }
    rc = clirr_graph_read(path, &back, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "inside value"), "cut values (gz): %s %s",
              clirr_status_name(rc), err.msg);
    clirr_graph_free(&back);
    free(buf);
    buf = NULL;

    /* data/tiny.csr is version 1; marked version 2 it is the same graph. */
    char src_path[1024];
    snprintf(src_path, sizeof src_path, "%s/tiny.csr", th_data_dir());
    buf = slurp(src_path, &len);
    TH_REQUIRE(tc, buf && len > 12 && buf[8] == 1, "%s is not version 1", src_path);
    buf[8] = 2;
    tmp_path(path, sizeof path, "tiny-v2.csr");
    TH_REQUIRE(tc, write_bytes(path, buf, len), "write");
    TH_OK(tc, clirr_graph_read(path, &back, &err));
    clirr_graph tiny;
    tiny_expected(&tiny);
    TH_EXPECT(tc, clirr_graph_hash(&back) == clirr_graph_hash(&tiny) && !back.value, "v2 tiny differs");
done:
    free(buf);
    clirr_graph_free(&g);
    clirr_graph_free(&back);
}

/* ---- transpose -------------------------------------------------------------------- */

typedef struct arc_key {
    uint32_t col;
    int32_t w;
    uint64_t bits;
} arc_key;

static int cmp_arc_key(const void *x, const void *y)
{
    const arc_key *a = x, *b = y;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    if (a->w != b->w)
        return a->w < b->w ? -1 : 1;
    return a->bits < b->bits ? -1 : a->bits > b->bits;
}

/* Row u of g as sorted (head, weight, value bits) triples into keys. */
static void row_keys(const clirr_graph *g, uint32_t u, arc_key *keys)
{
    uint32_t d = 0;
    for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++, d++) {
        keys[d] = (arc_key){.col = g->col[k], .w = g->weight ? g->weight[k] : 0};
        if (g->value)
            memcpy(&keys[d].bits, &g->value[k], 8);
    }
    qsort(keys, d, sizeof *keys, cmp_arc_key);
}

static void test_transpose(th_case *tc)
{
    static const char *specs[] = {"random:n=60,m=400,seed=3,weights=-5-5", "rmat:scale=7,ef=8,seed=4",
                                  "grid:w=6,h=4,weights=1-9", "random:n=5,m=0"};
    clirr_error err;
    clirr_graph g = {0}, t = {0}, tt = {0}, tiny;
    arc_key *ka = NULL, *kb = NULL;
    double *values = NULL;
    uint32_t *indeg = NULL;
    char text[1024], why[256];

    /* The tiny graph: in-arcs by increasing source, the duplicate 0->1
     * twice in its order (weights 3 then 9), the self-loop 3->3 kept. */
    tiny_expected(&tiny);
    TH_OK(tc, clirr_graph_transpose(&tiny, &t, &err));
    graph_text(&t, text, sizeof text);
    TH_EXPECT(tc, !strcmp(text, "n=5:0>2/2,0>4/8,1>0/3,1>0/9,2>0/1,2>1/7,3>2/5,3>3/4,4>3/6"),
              "tiny transpose: %s", text);
    clirr_graph_free(&t);
    int rc = clirr_graph_transpose(&tiny, &tiny, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "transposing in place: %s", clirr_status_name(rc));

    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(specs[i], &g, &err));
        if (i % 2 == 0) {
            values = random_values(g.m, i);
            TH_REQUIRE(tc, values, "out of memory");
            TH_OK(tc, clirr_graph_set_values(&g, values, &err));
            free(values);
            values = NULL;
        }
        g.weights_rounded = i == 0;
        TH_OK(tc, clirr_graph_transpose(&g, &t, &err));
        TH_REQUIRE(tc, graph_valid(&t, why, sizeof why), "%s: %s", specs[i], why);
        TH_EXPECT(tc, t.n == g.n && t.m == g.m && (t.weight != NULL) == (g.weight != NULL) &&
                          (t.value != NULL) == (g.value != NULL) && t.weights_rounded == g.weights_rounded,
                  "%s: shape n=%u m=%u weights %d values %d", specs[i], t.n, t.m, t.weight != NULL,
                  t.value != NULL);
        /* Degrees of t are in-degrees of g; rows of t go by source. */
        indeg = calloc((size_t)g.n + 1, sizeof *indeg);
        TH_REQUIRE(tc, indeg, "out of memory");
        for (uint32_t k = 0; k < g.m; k++)
            indeg[g.col[k]]++;
        for (uint32_t v = 0; v < g.n; v++) {
            TH_REQUIRE(tc, clirr_graph_degree(&t, v) == indeg[v], "%s: vertex %u: degree %u in t, in-degree %u",
                       specs[i], v, clirr_graph_degree(&t, v), indeg[v]);
            for (uint32_t k = t.row[v] + 1; k < t.row[v + 1]; k++)
                TH_REQUIRE(tc, t.col[k - 1] <= t.col[k], "%s: row %u of t not by source", specs[i], v);
        }
        /* Every arc of t is an arc of g reversed, with its weight and value:
         * walking g row by row meets them in t's order, one cursor a row. */
        for (uint32_t v = 0; v < g.n; v++)
            indeg[v] = t.row[v];
        for (uint32_t u = 0; u < g.n; u++)
            for (uint32_t k = g.row[u]; k < g.row[u + 1]; k++) {
                uint32_t at = indeg[g.col[k]]++;
                TH_REQUIRE(tc, t.col[at] == u && (!g.weight || t.weight[at] == g.weight[k]) &&
                                   (!g.value || same_bits(t.value[at], g.value[k])),
                           "%s: arc %u->%u not carried to position %u", specs[i], u, g.col[k], at);
            }
        /* Twice: the same arc multiset in every row. */
        TH_OK(tc, clirr_graph_transpose(&t, &tt, &err));
        TH_REQUIRE(tc, tt.n == g.n && tt.m == g.m && !memcmp(tt.row, g.row, ((size_t)g.n + 1) * 4),
                   "%s: transposed twice, the degrees differ", specs[i]);
        ka = malloc(((size_t)clirr_graph_max_degree(&g) + 1) * sizeof *ka);
        kb = malloc(((size_t)clirr_graph_max_degree(&g) + 1) * sizeof *kb);
        TH_REQUIRE(tc, ka && kb, "out of memory");
        for (uint32_t u = 0; u < g.n; u++) {
            row_keys(&g, u, ka);
            row_keys(&tt, u, kb);
            TH_REQUIRE(tc, !memcmp(ka, kb, clirr_graph_degree(&g, u) * sizeof *ka),
                       "%s: transposed twice, row %u differs", specs[i], u);
        }
        free(ka);
        free(kb);
        free(indeg);
        ka = kb = NULL;
        indeg = NULL;
        clirr_graph_free(&g);
        clirr_graph_free(&t);
        clirr_graph_free(&tt);
    }
    TH_OK(tc, clirr_graph_from_arcs(0, 0, NULL, NULL, NULL, &g, &err));
    TH_OK(tc, clirr_graph_transpose(&g, &t, &err));
    TH_EXPECT(tc, t.n == 0 && t.m == 0 && t.row && t.row[0] == 0, "empty transpose");
done:
    free(ka);
    free(kb);
    free(indeg);
    free(values);
    clirr_graph_free(&g);
    clirr_graph_free(&t);
    clirr_graph_free(&tt);
}

/* Added reverse arcs carry the value of the arc they mirror, as weights. */
static void test_symmetrize_values(th_case *tc)
{
    static const uint32_t src[] = {0, 1, 2, 0}, dst[] = {1, 0, 0, 2};
    static const int32_t w[] = {1, 2, 3, 4};
    const double x[] = {0.5, 0.25, -3.5, 1e-9};
    static const uint32_t src2[] = {0, 2, 1}, dst2[] = {1, 1, 2};
    const double x2[] = {1.5, 7, -2.5}; /* in CSR order: 0->1, 1->2, 2->1 */
    clirr_error err;
    clirr_graph g = {0};
    TH_OK(tc, clirr_graph_from_arcs(3, 4, src, dst, w, &g, &err));
    TH_OK(tc, clirr_graph_set_values(&g, x, &err));
    uint64_t h = clirr_graph_hash(&g);
    TH_OK(tc, clirr_graph_symmetrize(&g, &err));
    TH_EXPECT(tc, g.m == 4 && clirr_graph_hash(&g) == h, "symmetric graph changed");
    clirr_graph_free(&g);
    /* 0->1 (1.5), 1->2 (7), 2->1 (-2.5): 1 gets 1->0 with 1.5; 1->2 and
     * 2->1 exist both ways, so nothing else is added. */
    TH_OK(tc, clirr_graph_from_arcs(3, 3, src2, dst2, NULL, &g, &err));
    TH_OK(tc, clirr_graph_set_values(&g, x2, &err));
    TH_OK(tc, clirr_graph_symmetrize(&g, &err));
    static const uint32_t col[] = {1, 2, 0, 1};
    static const double val[] = {1.5, 7, 1.5, -2.5};
    TH_REQUIRE(tc, g.m == 4 && g.value && !g.weight, "m=%u", g.m);
    for (uint32_t k = 0; k < 4; k++)
        TH_EXPECT(tc, g.col[k] == col[k] && g.value[k] == val[k], "arc %u: %u/%g, expected %u/%g", k,
                  g.col[k], g.value[k], col[k], val[k]);
done:
    clirr_graph_free(&g);
}

/* ---- dense vectors ---------------------------------------------------------------- */

static void test_vector_read(th_case *tc)
{
    static const struct {
        const char *text;
        uint32_t n;
        double x[4];
    } good[] = {
        {"1\n2.5\n-3e2\n", 3, {1, 2.5, -300}},
        {"# c\n% c\n\n  1.0  \r\n\t-0\n7", 3, {1, -0.0, 7}},
        {"", 0, {0}},
        {"# only a comment\n", 0, {0}},
        {"0.1\n0.30000000000000004\n", 2, {0.1, 0.30000000000000004}},
        {"%%MatrixMarket matrix array real general\n% c\n3 1\n1\n2\n3.5\n", 3, {1, 2, 3.5}},
        {"%%MatrixMarket MATRIX Array Integer General\n1 2\n-4\n5\n", 2, {-4, 5}},
    };
    static const struct {
        const char *text;
        size_t len;
        uint32_t n;
        const char *msg;
    } bad[] = {
        {"1\n2\n", 0, 3, ":3: expected 3 values, found end of file after 2"},
        {"1\n2\n3\n\n4\n", 0, 3, ":5: expected end of file after 3 values, found '4'"},
        {"1\nabc\n3\n", 0, 3, ":2: expected a finite real number, found 'abc'"},
        {"1\nnan\n", 0, 2, ":2: expected a finite real number, found 'nan'"},
        {"-inf\n", 0, 1, ":1: expected a finite real number, found '-inf'"},
        {"1e999\n", 0, 1, ":1: expected a finite real number, found '1e999'"},
        {"1,5\n", 0, 1, ":1: expected a finite real number, found '1,5'"},
        {"1 2\n", 0, 2, ":1: expected end of line after the value (one number per line), found '2'"},
        {"0x10\n", 0, 1, ":1: expected a finite real number, found '0x10'"},
        {"1\n", 0, 0, ":1: expected end of file after 0 values, found '1'"},
        {"1\n\0\n", 4, 2, ":2: binary data (a NUL byte)"},
        {"%%MatrixMarket matrix coordinate real general\n3 1 3\n", 0, 3,
         ":1: expected 'array' (a dense vector), found 'coordinate'"},
        {"%%MatrixMarket matrix array complex general\n", 0, 1, ":1: expected field 'real' or 'integer', found 'complex'"},
        {"%%MatrixMarket matrix array real symmetric\n", 0, 1, ":1: expected symmetry 'general', found 'symmetric'"},
        {"%%MatrixMarket matrix array real general\n2 1\n1\n2\n", 0, 3,
         ":2: expected a vector of 3 entries (size 'N 1' or '1 N'), found 2 rows and 1 columns"},
        {"%%MatrixMarket matrix array real general\n% c\n", 0, 3, ":3: expected the size line 'ROWS COLUMNS', found end of file"},
        {"%%MatrixMarket matrix array real general\n3\n", 0, 3, ":2: expected a column count, found end of line"},
    };
    clirr_error err;
    double *x = NULL;
    char path[1024];
    tmp_path(path, sizeof path, "vec.txt");
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        TH_REQUIRE(tc, write_bytes(path, good[i].text, strlen(good[i].text)), "write");
        int rc = clirr_vector_read(path, good[i].n, &x, &err);
        TH_EXPECT(tc, rc == CLIRR_OK && x, "good vector %zu: %s", i, err.msg);
        for (uint32_t k = 0; rc == CLIRR_OK && k < good[i].n; k++)
            TH_EXPECT(tc, same_bits(x[k], good[i].x[k]), "good vector %zu: x[%u] = %.17g, expected %.17g", i,
                      k, x[k], good[i].x[k]);
        free(x);
        x = NULL;
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TH_REQUIRE(tc, write_bytes(path, bad[i].text, bad[i].len ? bad[i].len : strlen(bad[i].text)), "write");
        x = (double *)path; /* must come back NULL */
        int rc = clirr_vector_read(path, bad[i].n, &x, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "vec.txt") && strstr(err.msg, bad[i].msg),
                  "bad vector %zu: %s \"%s\" lacks \"%s\"", i, clirr_status_name(rc), err.msg, bad[i].msg);
        TH_EXPECT(tc, x == NULL, "bad vector %zu: *x not NULL", i);
        x = NULL;
    }
    /* Gzipped, and a file that is not there. */
    tmp_path(path, sizeof path, "vec.txt.gz");
    {
        gzFile z = gzopen(path, "wb");
        TH_REQUIRE(tc, z, "gzopen %s", path);
        gzputs(z, "# x\n4\n-5.5\n");
        TH_REQUIRE(tc, gzclose(z) == Z_OK, "gzclose");
    }
    TH_OK(tc, clirr_vector_read(path, 2, &x, &err));
    TH_EXPECT(tc, x[0] == 4 && x[1] == -5.5, "gz vector: %g %g", x[0], x[1]);
    free(x);
    x = NULL;
    tmp_path(path, sizeof path, "no-such-vector.txt");
    int rc = clirr_vector_read(path, 2, &x, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, path) && strstr(err.msg, strerror(ENOENT)),
              "missing vector: %s %s", clirr_status_name(rc), err.msg);
done:
    free(x);
}

/* Issue 17: a .csr header whose flags contradict the rest (weights
 * rounded, but no weights) is malformed, not a false note; a Matrix Market
 * real of any length (here 200 digits) reads. */
static void test_flags_and_long_reals(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    char path[1024];
    tmp_path(path, sizeof path, "rounded-unweighted.csr");
    TH_OK(tc, clirr_graph_generate("grid:w=2,h=2", &g, &err));
    TH_OK(tc, clirr_graph_write(path, &g, &err));
    clirr_graph_free(&g);
    size_t len = 0;
    unsigned char *buf = slurp(path, &len);
    TH_REQUIRE(tc, buf && len > 16, "cannot read back %s", path);
    buf[12] = 2; /* flags: rounded weights, no weights */
    TH_REQUIRE(tc, write_bytes(path, buf, len), "write");
    free(buf);
    int rc = clirr_graph_read(path, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "rounded") && strstr(err.msg, "no weights"),
              "rounded without weights: %s '%s'", clirr_status_name(rc), err.msg);
    clirr_graph_free(&g);

    char text[1024] = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1.";
    for (int i = 0; i < 200; i++)
        strcat(text, i == 199 ? "1" : "0");
    strcat(text, "\n");
    tmp_path(path, sizeof path, "long-real.mtx");
    TH_REQUIRE(tc, write_bytes(path, text, strlen(text)), "write");
    TH_OK(tc, clirr_graph_read(path, &g, &err));
    TH_EXPECT(tc, g.m == 1 && g.value && g.value[0] == 1.0, "long real: m %u value %.17g", g.m,
              g.value ? g.value[0] : -1.0);
done:
    clirr_graph_free(&g);
}

/* SNAP's "# Nodes: N" header gives the vertex count: isolated vertices
 * past the largest id survive; ids beyond N (SNAP's are not compact) still
 * count; a count beyond clirr's limit is refused with the line. */
static void test_snap_nodes_header(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    char path[1024];
    static const struct {
        const char *text;
        uint32_t n;
    } cases[] = {
        {"# Directed graph\n# Nodes: 10 Edges: 1\n0 1\n", 10},
        {"# Nodes: 2 Edges: 1\n0 5\n", 6},
        {"0 1\n# Nodes: 4\n", 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tmp_path(path, sizeof path, "snap.txt");
        TH_REQUIRE(tc, write_bytes(path, cases[i].text, strlen(cases[i].text)), "write");
        TH_OK(tc, clirr_graph_read(path, &g, &err));
        TH_EXPECT(tc, g.n == cases[i].n && g.m == 1, "case %zu: n %u m %u, expected n %u", i, g.n, g.m, cases[i].n);
        clirr_graph_free(&g);
    }
    const char *huge = "# Nodes: 99999999999 Edges: 1\n0 1\n";
    TH_REQUIRE(tc, write_bytes(path, huge, strlen(huge)), "write");
    int rc = clirr_graph_read(path, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "snap.txt:1"), "huge header: %s %s",
              clirr_status_name(rc), err.msg);
done:
    clirr_graph_free(&g);
}

/* Galois binary .gr (LonestarGPU's inputs), built byte by byte: version 1
 * with 32-bit heads, an odd arc count (padding) and int32 weights; version
 * 2 with 64-bit heads and no edge data; each field corrupted in turn. */
static size_t put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
    return 8;
}

static size_t put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
    return 4;
}

/* 0 -> 1, 0 -> 2, 2 -> 1 with weights 7, -3, 9 (v1) or none (v2). */
static size_t galois_file(unsigned char *b, int version)
{
    size_t k = 0;
    k += put64(b + k, (uint64_t)version);
    k += put64(b + k, version == 1 ? 4 : 0);
    k += put64(b + k, 3);
    k += put64(b + k, 3);
    static const uint64_t end[] = {2, 2, 3};
    static const uint32_t head[] = {1, 2, 1};
    static const int32_t w[] = {7, -3, 9};
    for (int i = 0; i < 3; i++)
        k += put64(b + k, end[i]);
    for (int i = 0; i < 3; i++)
        k += version == 1 ? put32(b + k, head[i]) : put64(b + k, head[i]);
    if (version == 1) {
        k += put32(b + k, 0); /* padding: m is odd */
        for (int i = 0; i < 3; i++)
            k += put32(b + k, (uint32_t)w[i]);
    }
    return k;
}

static void test_galois(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0};
    unsigned char buf[256];
    char path[1024];
    tmp_path(path, sizeof path, "galois.gr");
    for (int version = 1; version <= 2; version++) {
        size_t len = galois_file(buf, version);
        TH_REQUIRE(tc, write_bytes(path, buf, len), "write");
        TH_OK(tc, clirr_graph_read(path, &g, &err));
        TH_EXPECT(tc, g.n == 3 && g.m == 3 && g.row[1] == 2 && g.row[2] == 2 && g.row[3] == 3 &&
                          g.col[0] == 1 && g.col[1] == 2 && g.col[2] == 1,
                  "version %d: wrong CSR", version);
        if (version == 1)
            TH_EXPECT(tc, g.weight && g.weight[0] == 7 && g.weight[1] == -3 && g.weight[2] == 9,
                      "version 1: weights");
        else
            TH_EXPECT(tc, !g.weight, "version 2 without edge data has weights");
        clirr_graph_free(&g);
    }
    /* Offsets into the version-1 file: out_index at 32, heads at 56,
     * padding at 68, weights at 72. */
    static const struct {
        size_t at;
        int width;
        uint64_t value;
        const char *msg;
    } edits[] = {
        {8, 8, 8, "8-byte edge data"},
        {16, 8, 5000000000ull, "clirr handles at most"},
        {32, 8, 3, "out_index[1] = 2 is out of order"},
        {48, 8, 2, "expected m = 3"},
        {56, 4, 3, "head 3 of arc 0 is not a vertex"},
    };
    size_t len = galois_file(buf, 1);
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        unsigned char copy[256];
        memcpy(copy, buf, len);
        if (edits[i].width == 8)
            put64(copy + edits[i].at, edits[i].value);
        else
            put32(copy + edits[i].at, (uint32_t)edits[i].value);
        TH_REQUIRE(tc, write_bytes(path, copy, len), "write");
        int rc = clirr_graph_read(path, &g, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, edits[i].msg) && strstr(err.msg, "galois.gr"),
                  "edit %zu: %s '%s' lacks '%s'", i, clirr_status_name(rc), err.msg, edits[i].msg);
        clirr_graph_free(&g);
    }
    buf[len] = 1;
    TH_REQUIRE(tc, write_bytes(path, buf, len + 1), "write");
    int rc = clirr_graph_read(path, &g, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "trailing"), "trailing byte: %s", err.msg);
    /* Written by clirr (odd and even arc counts, with and without weights,
     * plain and gzipped) and read back: the same graph. */
    static const char *specs[] = {"random:n=20,m=31,seed=2,weights=-4-9", "rmat:scale=5,ef=4,seed=1"};
    for (size_t i = 0; i < 2; i++)
        for (int gz = 0; gz < 2; gz++) {
            clirr_graph w = {0}, r = {0};
            char wpath[1024];
            tmp_path(wpath, sizeof wpath, gz ? "written.gr.gz" : "written.gr");
            TH_OK(tc, clirr_graph_generate(specs[i], &w, &err));
            TH_OK(tc, clirr_graph_write_galois(wpath, &w, &err));
            rc = clirr_graph_read(wpath, &r, &err);
            bool same = rc == CLIRR_OK && clirr_graph_equal(&r, &w);
            TH_EXPECT(tc, same, "%s%s: written and read back differ (%s)", specs[i], gz ? " gz" : "", err.msg);
            clirr_graph_free(&w);
            clirr_graph_free(&r);
        }
    for (size_t cut = 33; cut < len; cut += 5) {
        TH_REQUIRE(tc, write_bytes(path, buf, cut), "write");
        rc = clirr_graph_read(path, &g, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "truncated"), "cut at %zu: %s", cut, err.msg);
        clirr_graph_free(&g);
    }
done:
    clirr_graph_free(&g);
}

/* Every pair of formats: a graph written as A, read, written as B and read
 * again is the graph, as far as both formats hold it: the weighted one
 * through the formats with weights, the unweighted one through all (.gr
 * and .wel give it weights 1, which then travel on). */
static void test_roundtrip_pairs(th_case *tc)
{
    static const char *all[] = {"gr", "mtx", "el", "txt", "wel", "csr"};
    clirr_error err;
    clirr_graph g = {0}, mid = {0}, back = {0};
    char a_path[1024], b_path[1024];
    for (int weighted = 0; weighted < 2; weighted++) {
        TH_OK(tc, clirr_graph_generate(weighted ? "random:n=60,m=300,seed=8,weights=-7-70"
                                                : "rmat:scale=6,ef=5,seed=2", &g, &err));
        for (size_t a = 0; a < 6; a++)
            for (size_t b = 0; b < 6; b++) {
                bool noweights_a = !strcmp(all[a], "el") || !strcmp(all[a], "txt");
                bool noweights_b = !strcmp(all[b], "el") || !strcmp(all[b], "txt");
                if (weighted && (noweights_a || noweights_b))
                    continue; /* refused: graph/roundtrip checks that */
                tmp_path(a_path, sizeof a_path, "pair-a");
                snprintf(a_path + strlen(a_path), sizeof a_path - strlen(a_path), ".%s", all[a]);
                tmp_path(b_path, sizeof b_path, "pair-b");
                snprintf(b_path + strlen(b_path), sizeof b_path - strlen(b_path), ".%s", all[b]);
                TH_OK(tc, clirr_graph_write(a_path, &g, &err));
                TH_OK(tc, clirr_graph_read(a_path, &mid, &err));
                /* Weights a format invented (1s from .gr/.wel) cannot go
                 * to .el/.txt: drop them there, as the user would. */
                if (noweights_b && mid.weight) {
                    free(mid.weight);
                    mid.weight = NULL;
                }
                TH_OK(tc, clirr_graph_write(b_path, &mid, &err));
                TH_OK(tc, clirr_graph_read(b_path, &back, &err));
                bool same = back.n == g.n && back.m == g.m &&
                            !memcmp(back.row, g.row, ((size_t)g.n + 1) * sizeof *g.row) &&
                            !memcmp(back.col, g.col, (size_t)g.m * sizeof *g.col);
                for (uint32_t e = 0; same && e < g.m && g.weight; e++)
                    same = back.weight && back.weight[e] == g.weight[e];
                TH_EXPECT(tc, same, "%s -> %s: the graph changed (n %u/%u, m %u/%u)", all[a], all[b], back.n,
                          g.n, back.m, g.m);
                clirr_graph_free(&mid);
                clirr_graph_free(&back);
            }
        clirr_graph_free(&g);
    }
done:
    clirr_graph_free(&g);
    clirr_graph_free(&mid);
    clirr_graph_free(&back);
}

/* The reader fuzz harnesses (tests/fuzz; libFuzzer binaries with
 * -Dfuzz=true), smoke-run: each over its data/ sample and 300 seeded
 * mutations of it, none may crash. */
static void test_fuzz_harnesses(th_case *tc)
{
    static const char *exts[] = {"gr", "mtx", "el", "txt", "wel", "csr"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        char exe[1024], sample[1024], out[4096], errtext[4096];
        snprintf(exe, sizeof exe, "%s/fuzz-read-%s", CLIRR_TEST_FUZZ_DIR, exts[i]);
        snprintf(sample, sizeof sample, "%s/tiny.%s", th_data_dir(), exts[i]);
        if (access(exe, X_OK) != 0) {
            th_skip(tc, "%s not built", exe);
            return;
        }
        char *argv[] = {exe, "--mutate", "300", "--seed", "7", sample, NULL};
        int sig = 0, rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, &sig);
        TH_EXPECT(tc, rc == 0 && strstr(out, "no crash"), "fuzz-read-%s: exit %d, signal %d: %s%s", exts[i], rc, sig,
                  out, errtext);
    }
}

/* The derived forms share their work among host threads on graphs of a
 * million arcs and more: every thread count must give the serial result,
 * order within rows included. rmat's hubs make the ranges uneven. */
static void test_derived_threads(th_case *tc)
{
    static const char *specs[] = {"rmat:scale=17,ef=9,seed=5,weights=1-50", "random:n=70000,m=1200000,seed=6"};
    static const char *threads[] = {"1", "3", "7"};
    static const char *form[] = {"transpose", "undirected", "symmetric closure"};
    clirr_error err;
    clirr_graph g = {0}, want[3] = {{0}}, got[3] = {{0}};
    double *values = NULL;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        TH_OK(tc, clirr_graph_generate(specs[i], &g, &err));
        TH_REQUIRE(tc, g.m >= (1u << 20), "%s: %u arcs, under the parallel threshold", specs[i], g.m);
        values = random_values(g.m, 11 + i);
        TH_REQUIRE(tc, values, "out of memory");
        TH_OK(tc, clirr_graph_set_values(&g, values, &err));
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            setenv("CLIRR_HOST_THREADS", threads[t], 1);
            clirr_graph *out = t == 0 ? want : got;
            TH_OK(tc, clirr_graph_transpose(&g, &out[0], &err));
            TH_OK(tc, clirr_graph_undirected(&g, &out[1], &err));
            TH_OK(tc, clirr_graph_copy(&g, &out[2], &err));
            TH_OK(tc, clirr_graph_symmetrize(&out[2], &err));
            for (int f = 0; t > 0 && f < 3; f++) {
                TH_EXPECT(tc, clirr_graph_equal(&want[f], &got[f]),
                          "%s: the %s with %s threads differs from one thread's", specs[i], form[f], threads[t]);
                clirr_graph_free(&got[f]);
            }
        }
        for (int f = 0; f < 3; f++)
            clirr_graph_free(&want[f]);
        clirr_graph_free(&g);
        free(values);
        values = NULL;
    }
done:
    unsetenv("CLIRR_HOST_THREADS");
    for (int f = 0; f < 3; f++) {
        clirr_graph_free(&want[f]);
        clirr_graph_free(&got[f]);
    }
    clirr_graph_free(&g);
    free(values);
}

/* clirr_graph_equal tells every array apart: a change in a row offset, an
 * arc head, a weight or a value, or one graph lacking the weights. */
static void test_equal(th_case *tc)
{
    clirr_error err;
    clirr_graph a = {0}, b = {0};
    double *values = NULL;
    TH_OK(tc, clirr_graph_generate("random:n=300,m=1500,seed=3,weights=1-9", &a, &err));
    values = random_values(a.m, 5);
    TH_REQUIRE(tc, values, "out of memory");
    TH_OK(tc, clirr_graph_set_values(&a, values, &err));
    for (int change = 0; change < 6; change++) {
        TH_OK(tc, clirr_graph_copy(&a, &b, &err));
        TH_REQUIRE(tc, clirr_graph_equal(&a, &b), "a copy differs from its graph");
        switch (change) {
        case 0: b.row[150]++; break;
        case 1: b.col[a.m - 1] ^= 1; break;
        case 2: b.weight[0]++; break;
        case 3: b.value[a.m / 2] = nextafter(b.value[a.m / 2], 1e300); break;
        case 4: free(b.weight); b.weight = NULL; break;
        default: b.m--; break;
        }
        TH_EXPECT(tc, !clirr_graph_equal(&a, &b) && !clirr_graph_equal(&b, &a), "change %d is not seen", change);
        clirr_graph_free(&b);
    }
done:
    clirr_graph_free(&a);
    clirr_graph_free(&b);
    free(values);
}

/* A derived form that comes out the graph itself (a grid's transpose and
 * symmetric closure) is the graph, on the host and on the device: one
 * copy. A directed graph's transpose, and a symmetric graph's whose rows
 * are not sorted, stay forms of their own. */
static void test_forms_shared(th_case *tc)
{
    static const struct {
        const char *spec;
        bool symmetrize, shared;
    } cases[] = {
        {"grid:w=40,h=30", false, true},
        {"rmat:scale=10,ef=4,seed=2", false, false},
        {"rmat:scale=10,ef=4,seed=2", true, false},
    };
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TH_OK(tc, clirr_graph_generate(cases[i].spec, &g, &err));
        if (cases[i].symmetrize)
            TH_OK(tc, clirr_graph_symmetrize(&g, &err));
        TH_OK(tc, clirr_input_from_graph(&g, true, cases[i].spec, &in, &err));
        const clirr_graph *as_is, *t;
        const clirr_dgraph *d_as_is, *d_t;
        TH_OK(tc, clirr_input_graph_form(in, CLIRR_FORM_AS_IS, &as_is, &err));
        TH_OK(tc, clirr_input_graph_form(in, CLIRR_FORM_TRANSPOSED, &t, &err));
        TH_OK(tc, clirr_input_device_graph(in, tc->ctx, CLIRR_FORM_TRANSPOSED, false, &d_t, &err));
        TH_OK(tc, clirr_input_device_graph(in, tc->ctx, CLIRR_FORM_AS_IS, false, &d_as_is, &err));
        TH_EXPECT(tc, (t == as_is) == cases[i].shared && (d_t == d_as_is) == cases[i].shared,
                  "%s%s: the transpose is %sthe graph on the host, %son the device", cases[i].spec,
                  cases[i].symmetrize ? " symmetrized" : "", t == as_is ? "" : "not ", d_t == d_as_is ? "" : "not ");
        clirr_graph want = {0};
        TH_OK(tc, clirr_graph_transpose(as_is, &want, &err));
        TH_EXPECT(tc, clirr_graph_equal(&want, t), "%s: the transposed form is not the transpose", cases[i].spec);
        clirr_graph_free(&want);
        if (cases[i].shared) {
            const clirr_graph *sym;
            TH_OK(tc, clirr_input_graph_form(in, CLIRR_FORM_SYMMETRIC, &sym, &err));
            TH_EXPECT(tc, sym == as_is, "%s: the symmetric closure is not the graph", cases[i].spec);
        }
        clirr_input_free(in);
        in = NULL;
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

TH_REGISTER(register_graph_tests)
{
    th_add("graph/tiny-formats", test_tiny_formats, NULL);
    th_add("graph/flags-and-long-reals", test_flags_and_long_reals, NULL);
    th_add("graph/snap-nodes-header", test_snap_nodes_header, NULL);
    th_add("graph/galois", test_galois, NULL);
    th_add("graph/roundtrip-pairs", test_roundtrip_pairs, NULL);
    th_add("graph/fuzz-harnesses", test_fuzz_harnesses, NULL);
    th_add("graph/format-from-path", test_format_from_path, NULL);
    th_add("graph/accept", test_accept, NULL);
    th_add("graph/reject", test_reject, NULL);
    th_add("graph/unreadable", test_unreadable, NULL);
    th_add("graph/fuzz", test_fuzz, NULL);
    th_add("graph/csr-corrupt", test_csr_corrupt, NULL);
    th_add("graph/roundtrip", test_roundtrip, NULL);
    th_add("graph/large-text", test_large_text, NULL);
    th_add("graph/write-errors", test_write_errors, NULL);
    th_add("graph/generate-pinned", test_generate_pinned, NULL);
    th_add("graph/generate-degrees", test_generate_degrees, NULL);
    th_add("graph/generate-seeds", test_generate_seeds, NULL);
    th_add("graph/generate-shape", test_generate_shape, NULL);
    th_add("graph/generate-bad-specs", test_generate_bad, NULL);
    th_add("graph/grid-sample", test_grid_sample, NULL);
    th_add("graph/from-arcs", test_from_arcs, NULL);
    th_add("graph/symmetrize-tiny", test_symmetrize_tiny, NULL);
    th_add("graph/symmetrize-props", test_symmetrize_props, NULL);
    th_add("graph/mtx-values", test_mtx_values, NULL);
    th_add("graph/set-values", test_set_values, NULL);
    th_add("graph/csr-values", test_csr_values, NULL);
    th_add("graph/transpose", test_transpose, NULL);
    th_add("graph/symmetrize-values", test_symmetrize_values, NULL);
    th_add("graph/derived-threads", test_derived_threads, NULL);
    th_add("graph/equal", test_equal, NULL);
    th_add_device("graph/forms-shared", test_forms_shared, NULL);
    th_add("graph/vector-read", test_vector_read, NULL);
}
