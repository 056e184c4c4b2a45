/* tests/test_cnf.c - SAT formulas as inputs: the DIMACS reader on good
 * files (comments, clauses across lines and sharing lines, CRLF, gzip,
 * SATLIB's '%' end mark) and a table of malformed ones with the line and
 * reason each must give, the writer's round trip, the ksat generator
 * (hashes pinned so every machine makes the same formula, clauses of
 * distinct variables, planted formulas satisfiable, bad specs refused),
 * the factor graph's two directions, the satisfied-clause count, and
 * mutated files (accepted valid or refused naming the file, never a
 * crash). */
#include "harness.h"
#include "reader_fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void read_good(th_case *tc)
{
    clirr_error err;
    clirr_cnf f = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/good.cnf", th_tmp_dir());
    /* Comments anywhere, a clause over two lines, two on one line, CRLF,
     * tabs, SATLIB's end mark and the 0 after it. */
    TH_REQUIRE(tc, th_write_text(path, "c a comment\r\np cnf 4 3\r\n1 -2\t0 c\n"), "cannot write");
    TH_REQUIRE(tc, clirr_cnf_read(path, &f, &err) == CLIRR_ERR_INPUT, "a 'c' inside a clause line is no comment");
    TH_REQUIRE(tc, th_write_text(path, "c a comment\r\np cnf 4 3\r\n1 -2\t0 3\n-4 2\n0\nc late\n-1 4 0\n%\n0\n\n"),
               "cannot write");
    TH_OK(tc, clirr_cnf_read(path, &f, &err));
    static const uint32_t off[] = {0, 2, 5, 7};
    static const int32_t lits[] = {1, -2, 3, -4, 2, -1, 4};
    TH_REQUIRE(tc, f.nvars == 4 && f.nclauses == 3 && f.nlits == 7, "counts %u %u %u", f.nvars, f.nclauses,
               f.nlits);
    TH_REQUIRE(tc, !memcmp(f.clause_off, off, sizeof off) && !memcmp(f.lits, lits, sizeof lits), "clauses differ");
    /* Written and read again, plain and gzipped: the same formula. */
    uint64_t h = clirr_cnf_hash(&f);
    const char *names[] = {"copy.cnf", "copy.cnf.gz"};
    for (int i = 0; i < 2; i++) {
        char out[1024];
        snprintf(out, sizeof out, "%s/%s", th_tmp_dir(), names[i]);
        TH_OK(tc, clirr_cnf_write(out, &f, &err));
        clirr_cnf g = {0};
        TH_OK(tc, clirr_cnf_read(out, &g, &err));
        uint64_t hg = clirr_cnf_hash(&g);
        clirr_cnf_free(&g);
        TH_REQUIRE(tc, hg == h, "%s: round trip changed the formula", names[i]);
    }
done:
    clirr_cnf_free(&f);
}

/* Each malformed file and a piece of its message (":LINE: " first). */
static const struct bad_cnf {
    const char *text;
    const char *line;
    const char *msg;
} bad_cnfs[] = {
    {"", NULL, "no 'p cnf VARIABLES CLAUSES' header"},
    {"c only comments\n", NULL, "no 'p cnf"},
    {"1 2 0\n", ":1: ", "a clause before the 'p cnf"},
    {"p cnf 3 1\np cnf 3 1\n1 0\n", ":2: ", "a second 'p' header"},
    {"p dnf 3 1\n1 0\n", ":1: ", "'p dnf'"},
    {"p cnf 3\n1 0\n", ":1: ", "the number of clauses"},
    {"p cnf 0 1\n1 0\n", ":1: ", "the number of variables"},
    {"p cnf 3 0\n", ":1: ", "the number of clauses (1 or more)"},
    {"p cnf 3 1 7\n1 0\n", ":1: ", "end of line after 'p cnf"},
    {"p cnf -3 1\n1 0\n", ":1: ", "the number of variables"},
    {"p cnf 3 1\n1 x 0\n", ":2: ", "found 'x'"},
    {"p cnf 3 1\n1 2.5 0\n", ":2: ", "a literal"},
    {"p cnf 3 1\n1 4 0\n", ":2: ", "literal 4 names variable 4; the header declares 3"},
    {"p cnf 3 1\n-9 1 0\n", ":2: ", "literal -9 names variable 9"},
    {"p cnf 3 1\n1 99999999999 0\n", ":2: ", "a literal"},
    {"p cnf 3 2\n1 2 0\n0\n", ":3: ",
     "clause 2 is empty (a 0 with no literal before it): the formula is trivially unsatisfiable"},
    {"p cnf 3 1\n2 1 2 0\n", ":2: ", "holds literal 2 twice"},
    {"p cnf 3 1\n1 2\n-1 0\n", ":3: ", "holds both 1 and -1: it is always true"},
    {"p cnf 3 1\n1 2 0\n3 0\n", ":3: ", "more clauses than the 1 the header declares"},
    {"p cnf 3 3\n1 2 0\n3 0\n", ":3: ", "the header declares 3 clauses, the file holds 2"},
    {"p cnf 3 2\n1 2 0\n3\n", ":3: ", "the last clause (from line 3) is not ended by 0"},
    {"p cnf 3 1\n1 2 0\n%\n0\n5 0\n", ":5: ", "nothing after the '%' end mark"},
    {"p cnf 3 1\n1 2\0 0\n", NULL, "binary"},
};

static void read_bad(th_case *tc)
{
    clirr_error err;
    char path[1024];
    snprintf(path, sizeof path, "%s/bad.cnf", th_tmp_dir());
    for (size_t i = 0; i < sizeof bad_cnfs / sizeof bad_cnfs[0]; i++) {
        const struct bad_cnf *b = &bad_cnfs[i];
        FILE *fp = fopen(path, "wb");
        TH_REQUIRE(tc, fp, "cannot write");
        size_t len = strlen(b->text);
        if (strstr(b->msg, "binary"))
            len = 19; /* the NUL and what follows it */
        fwrite(b->text, 1, len, fp);
        fclose(fp);
        clirr_cnf f = {0};
        clirr_error_clear(&err);
        int rc = clirr_cnf_read(path, &f, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT, "case %zu: status %s, not INPUT (%s)", i, clirr_status_name(rc),
                  err.msg);
        TH_EXPECT(tc, f.lits == NULL && f.nclauses == 0, "case %zu: the formula was not cleared", i);
        char want[1200];
        if (b->line)
            snprintf(want, sizeof want, "%s%s", path, b->line);
        TH_EXPECT(tc, !b->line || strstr(err.msg, want), "case %zu: no '%s' in: %s", i, want, err.msg);
        TH_EXPECT(tc, strstr(err.msg, strstr(b->msg, "binary") ? "NUL" : b->msg) || strstr(err.msg, b->msg),
                  "case %zu: no '%s' in: %s", i, b->msg, err.msg);
        clirr_cnf_free(&f);
    }
    clirr_cnf f = {0};
    TH_EXPECT(tc, clirr_cnf_read("/nonexistent/x.cnf", &f, &err) == CLIRR_ERR_INPUT, "a missing file");
done:;
}

static void generate(th_case *tc)
{
    clirr_error err;
    clirr_cnf f = {0}, g = {0};
    /* Pinned: the same formula on every machine, now and later. */
    static const struct {
        const char *spec;
        uint64_t hash;
    } pinned[] = {
        {"ksat:n=1000,m=4200,seed=1", 0xb979be7727398bc0ull},
        {"ksat:n=50,m=300,k=5,seed=7", 0x9621d978a76037ecull},
        {"ksat:n=200,m=800,seed=3,planted=1", 0xc38bea556ab2f232ull},
    };
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        TH_OK(tc, clirr_cnf_generate(pinned[i].spec, &f, &err));
        TH_OK(tc, clirr_cnf_check(&f, &err));
        uint64_t h = clirr_cnf_hash(&f);
        TH_EXPECT(tc, h == pinned[i].hash, "%s: hash %#llx, pinned %#llx", pinned[i].spec, (unsigned long long)h,
                  (unsigned long long)pinned[i].hash);
        TH_OK(tc, clirr_cnf_generate(pinned[i].spec, &g, &err));
        TH_EXPECT(tc, clirr_cnf_hash(&g) == h, "%s: twice, two formulas", pinned[i].spec);
        clirr_cnf_free(&f);
        clirr_cnf_free(&g);
    }
    TH_OK(tc, clirr_cnf_generate("ksat:n=1000,m=4200,seed=2", &f, &err));
    TH_OK(tc, clirr_cnf_generate("ksat:n=1000,m=4200,seed=1", &g, &err));
    TH_EXPECT(tc, clirr_cnf_hash(&f) != clirr_cnf_hash(&g), "seeds 1 and 2 gave one formula");
    TH_EXPECT(tc, f.nvars == 1000 && f.nclauses == 4200 && f.nlits == 12600, "counts");
    /* Signs are random: about half of them negative. */
    uint32_t neg = 0;
    for (uint32_t e = 0; e < f.nlits; e++)
        neg += f.lits[e] < 0;
    TH_EXPECT(tc, neg > 5800 && neg < 6800, "%u of 12600 literals negative", neg);
    clirr_cnf_free(&f);
    clirr_cnf_free(&g);
    /* k = n: every clause holds every variable once. */
    TH_OK(tc, clirr_cnf_generate("ksat:n=6,m=40,k=6", &f, &err));
    TH_OK(tc, clirr_cnf_check(&f, &err));
    clirr_cnf_free(&f);
    static const char *const bad[] = {"ksat:n=2,m=5", "ksat:n=10,m=5,k=33", "ksat:n=10", "ksat:m=5,n=0",
                                      "ksat:n=10,m=5,q=1", "ksat:n=10,m=5,planted=2", "ksat:n=10,m=5,n=3",
                                      "ksat:n=10,m=x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        clirr_error_clear(&err);
        int rc = clirr_cnf_generate(bad[i], &f, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_USAGE && err.msg[0], "%s: status %s", bad[i], clirr_status_name(rc));
        clirr_cnf_free(&f);
    }
    TH_EXPECT(tc, clirr_cnf_spec("ksat:n=3,m=1") && !clirr_cnf_spec("list:n=3,order=random"), "spec kinds");
done:
    clirr_cnf_free(&f);
    clirr_cnf_free(&g);
}

/* Every literal's variable lists the edge once, in clause order, and the
 * edge names its clause; a planted formula has an assignment satisfying
 * it; the count of satisfied clauses is right by hand. */
static void factor_and_count(th_case *tc)
{
    clirr_error err;
    clirr_cnf f = {0};
    clirr_cnf_factor fg = {0};
    uint32_t *seen = NULL;
    /* The second is large enough for the build's threads (2^20 literals). */
    static const char *const specs[] = {"ksat:n=300,m=1300,k=4,seed=5", "ksat:n=200000,m=300000,k=4,seed=5"};
    for (size_t i = 0; i < 2; i++) {
        clirr_cnf_free(&f);
        clirr_cnf_factor_free(&fg);
        free(seen);
        TH_OK(tc, clirr_cnf_generate(specs[i], &f, &err));
        TH_OK(tc, clirr_cnf_factor_build(&f, &fg, &err));
        seen = calloc(f.nlits, sizeof *seen);
        TH_REQUIRE(tc, seen && fg.var_off[0] == 0 && fg.var_off[f.nvars] == f.nlits, "offsets");
        for (uint32_t v = 0; v < f.nvars; v++)
            for (uint32_t k = fg.var_off[v]; k < fg.var_off[v + 1]; k++) {
                uint32_t e = fg.var_edge[k], c = fg.edge_clause[e];
                TH_REQUIRE(tc, (uint32_t)abs(f.lits[e]) == v + 1, "edge %u under variable %u", e, v + 1);
                TH_REQUIRE(tc, f.clause_off[c] <= e && e < f.clause_off[c + 1], "edge %u not in clause %u", e, c);
                TH_REQUIRE(tc, k == fg.var_off[v] || fg.var_edge[k - 1] < e, "variable %u: edges out of order", v + 1);
                seen[e]++;
            }
        for (uint32_t e = 0; e < f.nlits; e++)
            TH_REQUIRE(tc, seen[e] == 1, "edge %u listed %u times", e, seen[e]);
    }
    /* One thread's graph and three threads' are the same, array for array. */
    clirr_cnf_factor one = {0}, three = {0};
    setenv("CLIRR_HOST_THREADS", "1", 1);
    int rc1 = clirr_cnf_factor_build(&f, &one, &err);
    setenv("CLIRR_HOST_THREADS", "3", 1);
    int rc3 = clirr_cnf_factor_build(&f, &three, &err);
    unsetenv("CLIRR_HOST_THREADS");
    bool same = rc1 == CLIRR_OK && rc3 == CLIRR_OK &&
                !memcmp(one.var_off, three.var_off, ((size_t)f.nvars + 1) * sizeof *one.var_off) &&
                !memcmp(one.var_edge, three.var_edge, (size_t)f.nlits * sizeof *one.var_edge) &&
                !memcmp(one.edge_clause, three.edge_clause, (size_t)f.nlits * sizeof *one.edge_clause);
    clirr_cnf_factor_free(&one);
    clirr_cnf_factor_free(&three);
    TH_EXPECT(tc, same, "the factor graph built on 3 threads differs from 1 thread's");
    clirr_cnf_free(&f);
    /* (1 or -2) (2 or 3) (-1 or -3): x = (1, 0, 1) satisfies the first
     * two only. */
    int32_t lits[] = {1, -2, 2, 3, -1, -3};
    uint32_t off[] = {0, 2, 4, 6};
    clirr_cnf h = {3, 3, 6, off, lits};
    uint32_t x[] = {1, 0, 1}, y[] = {1, 1, 0};
    TH_EXPECT(tc, clirr_cnf_count_satisfied(&h, x) == 2, "count of x");
    TH_EXPECT(tc, clirr_cnf_count_satisfied(&h, y) == 3, "count of y");
    TH_OK(tc, clirr_cnf_check(&h, &err));
    lits[1] = 1;
    TH_EXPECT(tc, clirr_cnf_check(&h, &err) == CLIRR_ERR_INPUT && strstr(err.msg, "clause 1"), "a repeat: %s",
              err.msg);
    lits[1] = 4;
    TH_EXPECT(tc, clirr_cnf_check(&h, &err) == CLIRR_ERR_INPUT && strstr(err.msg, "out of range"), "range: %s",
              err.msg);
done:
    free(seen);
    clirr_cnf_free(&f);
    clirr_cnf_factor_free(&fg);
}

static int read_checked(const char *path, clirr_error *err)
{
    clirr_cnf f = {0};
    int rc = clirr_cnf_read(path, &f, err);
    if (rc == CLIRR_OK && clirr_cnf_check(&f, err) != CLIRR_OK)
        rc = CLIRR_ERR_VERIFY;
    clirr_cnf_free(&f);
    return rc;
}

/* Mutations of a sample formula: accepted as a valid formula or refused
 * naming the file (tests/reader_fuzz.c), then the fuzz harness's smoke run. */
static void fuzz(th_case *tc)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/unsat.cnf", th_data_dir());
    th_fuzz_reader(tc, src, "fuzz.cnf", read_checked, "fuzz-read-cnf");
}

TH_REGISTER(register_cnf_tests)
{
    th_add("cnf/read-good", read_good, NULL);
    th_add("cnf/read-bad", read_bad, NULL);
    th_add("cnf/generate", generate, NULL);
    th_add("cnf/factor-count", factor_and_count, NULL);
    th_add("cnf/fuzz", fuzz, NULL);
}
