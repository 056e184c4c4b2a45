/* host/cnf/cnf_read.c - reading DIMACS CNF: every field is checked where it
 * stands (header, literal ranges, empty clauses, a variable twice in a
 * clause, the clause count), so each problem is reported with its file and
 * line. Arrays grow with what was read, never with what the header claims,
 * and the limits are checked before they grow. */
#include "cnf/cnf_internal.h"

#include "graph/textio.h"

#include <stdlib.h>
#include <string.h>

typedef struct reader {
    tin t;
    clirr_cnf f;
    uint64_t declared_clauses;
    uint64_t cap_lits, cap_clauses;
    uint32_t *stamp, *pos;  /* per variable, for repeats within a clause */
    uint64_t clause_line;   /* where the open clause began */
} reader;

static int grow(reader *r, clirr_error *err)
{
    uint64_t nl = r->f.nlits, nc = r->f.nclauses;
    if (nl + 1 > r->cap_lits) {
        if (clirr_cnf_fits(r->f.nvars, nc, nl + 1, r->t.path, err) != CLIRR_OK)
            return clirr_fail_context(err, "%s:%llu", r->t.path, (unsigned long long)r->t.line);
        uint64_t cap = r->cap_lits ? r->cap_lits * 2 : 1 << 16;
        if (cap > CLIRR_CNF_MAX_LITERALS)
            cap = CLIRR_CNF_MAX_LITERALS;
        int32_t *bigger = realloc(r->f.lits, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "%s:%llu: out of memory for %llu literals", r->t.path,
                              (unsigned long long)r->t.line, (unsigned long long)cap);
        r->f.lits = bigger;
        r->cap_lits = cap;
    }
    if (nc + 2 > r->cap_clauses) {
        uint64_t cap = r->cap_clauses ? r->cap_clauses * 2 : 1 << 14;
        if (cap > r->declared_clauses + 1)
            cap = r->declared_clauses + 1;
        uint32_t *bigger = realloc(r->f.clause_off, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "%s:%llu: out of memory for %llu clauses", r->t.path,
                              (unsigned long long)r->t.line, (unsigned long long)cap);
        r->f.clause_off = bigger;
        r->cap_clauses = cap;
    }
    return CLIRR_OK;
}

/* "p cnf V C" on the current line, p at its start. */
static int header(reader *r, const char *p, clirr_error *err)
{
    char word[16];
    uint64_t v, c;
    p++; /* the 'p' */
    int rc;
    if ((rc = clirr_tin_word(&r->t, &p, word, sizeof word, true, "'cnf' after 'p'", err)) != CLIRR_OK)
        return rc;
    if (strcmp(word, "cnf"))
        return clirr_tin_fail(&r->t, r->t.line, err, "the header says 'p %s'; clirr reads 'p cnf VARIABLES "
                              "CLAUSES' (CNF formulas only)", word);
    if ((rc = clirr_tin_u64(&r->t, &p, 1, CLIRR_CNF_MAX_VARS, &v, "the number of variables (1 or more)",
                            err)) != CLIRR_OK ||
        (rc = clirr_tin_u64(&r->t, &p, 1, CLIRR_CNF_MAX_CLAUSES, &c, "the number of clauses (1 or more)",
                            err)) != CLIRR_OK ||
        (rc = clirr_tin_end(&r->t, p, "end of line after 'p cnf VARIABLES CLAUSES'", err)) != CLIRR_OK)
        return rc;
    if ((rc = clirr_cnf_fits(v, c, 0, r->t.path, err)) != CLIRR_OK)
        return clirr_fail_context(err, "%s:%llu", r->t.path, (unsigned long long)r->t.line);
    r->f.nvars = (uint32_t)v;
    r->declared_clauses = c;
    r->stamp = calloc((size_t)v + 1, sizeof *r->stamp);
    r->pos = malloc(((size_t)v + 1) * sizeof *r->pos);
    if (!r->stamp || !r->pos)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "%s: out of memory for %llu variables", r->t.path,
                          (unsigned long long)v);
    return grow(r, err);
}

/* A 0 on the current line: the open clause ends. */
static int end_clause(reader *r, const char *at, clirr_error *err)
{
    uint32_t b = r->f.clause_off[r->f.nclauses], len = r->f.nlits - b;
    uint64_t no = (uint64_t)r->f.nclauses + 1;
    if (len == 0)
        return clirr_tin_fail(&r->t, r->t.line, err,
                              "clause %llu is empty (a 0 with no literal before it): the formula is "
                              "trivially unsatisfiable, and clirr reads only clauses with literals",
                              (unsigned long long)no);
    if (no > r->declared_clauses)
        return clirr_tin_fail(&r->t, r->t.line, err, "more clauses than the %llu the header declares",
                              (unsigned long long)r->declared_clauses);
    uint32_t i, j;
    clirr_cnf_find_repeat(r->f.lits + b, len, r->stamp, (uint32_t)no, r->pos, &i, &j);
    if (j != UINT32_MAX) {
        int32_t a = r->f.lits[b + i], c = r->f.lits[b + j];
        if (a == c)
            return clirr_tin_fail(&r->t, r->t.line, err, "clause %llu (from line %llu) holds literal %d twice",
                                  (unsigned long long)no, (unsigned long long)r->clause_line, a);
        return clirr_tin_fail(&r->t, r->t.line, err,
                              "clause %llu (from line %llu) holds both %d and %d: it is always true, and "
                              "clirr does not drop clauses silently (remove it)",
                              (unsigned long long)no, (unsigned long long)r->clause_line, a, c);
    }
    (void)at;
    r->f.nclauses++;
    r->f.clause_off[r->f.nclauses] = r->f.nlits;
    return CLIRR_OK;
}

/* The common literal, quickly: blanks, an optional '-', 1 to 9 digits
 * without a leading zero (or a lone 0), then a blank or the end of the
 * line. Anything else (a '+', leading zeros, a long number, a bad token)
 * goes to clirr_tin_i64, which reads or reports it: the reading time of a
 * large formula is mostly spent on its numbers. */
static inline bool quick_literal(const char **pp, const char *e, int64_t *l)
{
    const char *p = *pp;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    bool neg = p < e && *p == '-';
    p += neg;
    const char *s = p;
    int64_t x = 0;
    while (p < e && (unsigned char)(*p - '0') < 10 && p - s < 10)
        x = x * 10 + (*p++ - '0');
    if (p == s || p - s > 9 || (*s == '0' && p - s > 1) || (p < e && *p != ' ' && *p != '\t'))
        return false;
    *l = neg ? -x : x;
    *pp = p;
    return true;
}

/* The literals and 0s of one line. */
static int clause_line(reader *r, const char *p, clirr_error *err)
{
    int rc;
    const int64_t most = CLIRR_CNF_MAX_VARS;
    while (!clirr_tin_blank_rest(&r->t, &p)) {
        const char *at = p;
        int64_t l;
        if (!quick_literal(&p, r->t.le, &l) &&
            (rc = clirr_tin_i64(&r->t, &p, -most, most, &l,
                                "a literal (a variable number, negative for its negation) or 0 ending a clause",
                                err)) != CLIRR_OK)
            return rc;
        if (l == 0) {
            if ((rc = end_clause(r, at, err)) != CLIRR_OK)
                return rc;
            continue;
        }
        if ((uint64_t)(l < 0 ? -l : l) > r->f.nvars)
            return clirr_tin_fail(&r->t, r->t.line, err,
                                  "literal %lld names variable %lld; the header declares %u variables",
                                  (long long)l, (long long)(l < 0 ? -l : l), r->f.nvars);
        if (r->f.nclauses >= r->declared_clauses)
            return clirr_tin_fail(&r->t, r->t.line, err, "more clauses than the %llu the header declares",
                                  (unsigned long long)r->declared_clauses);
        if (r->f.nlits == r->f.clause_off[r->f.nclauses])
            r->clause_line = r->t.line;
        if ((rc = grow(r, err)) != CLIRR_OK)
            return rc;
        r->f.lits[r->f.nlits++] = (int32_t)l;
    }
    return CLIRR_OK;
}

/* After SATLIB's '%' line: only blank lines, comments and a lone 0. */
static int after_end_mark(reader *r, clirr_error *err)
{
    for (;;) {
        int rc = clirr_tin_next(&r->t, err);
        if (rc != CLIRR_OK || !r->t.ls)
            return rc;
        const char *p = r->t.ls;
        if (clirr_tin_blank_rest(&r->t, &p) || *p == 'c')
            continue;
        int64_t z;
        if (clirr_tin_i64(&r->t, &p, 0, 0, &z, "nothing after the '%' end mark but a lone 0", err) != CLIRR_OK ||
            clirr_tin_end(&r->t, p, "end of line after the 0 that follows the '%' end mark", err) != CLIRR_OK)
            return CLIRR_ERR_INPUT;
    }
}

int clirr_cnf_read(const char *path, clirr_cnf *out, clirr_error *err)
{
    memset(out, 0, sizeof *out);
    reader r;
    memset(&r, 0, sizeof r);
    int rc = clirr_tin_open(&r.t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    bool have_header = false;
    for (;;) {
        if ((rc = clirr_tin_next(&r.t, err)) != CLIRR_OK)
            goto fail;
        if (!r.t.ls)
            break;
        const char *p = r.t.ls;
        if (clirr_tin_blank_rest(&r.t, &p) || *p == 'c')
            continue;
        if (*p == 'p') {
            if (have_header) {
                rc = clirr_tin_fail(&r.t, r.t.line, err, "a second 'p' header line (one per file)");
                goto fail;
            }
            if ((rc = header(&r, p, err)) != CLIRR_OK)
                goto fail;
            have_header = true;
            r.f.clause_off[0] = 0;
            continue;
        }
        if (!have_header) {
            rc = clirr_tin_fail(&r.t, r.t.line, err, "a clause before the 'p cnf VARIABLES CLAUSES' header");
            goto fail;
        }
        if (*p == '%') {
            if ((rc = after_end_mark(&r, err)) != CLIRR_OK)
                goto fail;
            break;
        }
        if ((rc = clause_line(&r, p, err)) != CLIRR_OK)
            goto fail;
    }
    if (!have_header) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT, "%s: no 'p cnf VARIABLES CLAUSES' header (is it a DIMACS CNF file?)",
                        path);
        goto fail;
    }
    if (r.f.nlits != r.f.clause_off[r.f.nclauses]) {
        rc = clirr_tin_fail(&r.t, r.t.line, err, "the last clause (from line %llu) is not ended by 0",
                            (unsigned long long)r.clause_line);
        goto fail;
    }
    if (r.f.nclauses != r.declared_clauses) {
        rc = clirr_tin_fail(&r.t, r.t.line, err, "the header declares %llu clauses, the file holds %u",
                            (unsigned long long)r.declared_clauses, r.f.nclauses);
        goto fail;
    }
    clirr_tin_close(&r.t);
    free(r.stamp);
    free(r.pos);
    *out = r.f;
    return CLIRR_OK;
fail:
    clirr_tin_close(&r.t);
    free(r.stamp);
    free(r.pos);
    clirr_cnf_free(&r.f);
    return rc;
}
