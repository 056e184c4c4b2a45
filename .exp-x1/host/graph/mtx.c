/* host/graph/mtx.c - Matrix Market coordinate files (.mtx): entry (i, j) is
 * the arc i-1 -> j-1. Fields pattern (unweighted), integer (32-bit) and real
 * (rounded to the nearest integer weight, half away from zero, saturating at
 * the int32 limits; weights_rounded tells that it happened; NaN and infinity
 * are refused). Integer and real entries also keep their exact value in
 * g->value, for algorithms on real matrices (SpMV). Symmetry general,
 * symmetric and skew-symmetric, where only the lower triangle is stored and
 * the mirrored arc (negated for skew) is added. Dense (array), complex and
 * hermitian files are refused.
 *
 * The writer writes "integer general" from weights, or "real general" from
 * the values when the graph has them, with 17 significant digits so that
 * every double reads back to the same bits. */
#include "graph_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum mtx_field { MTX_PATTERN, MTX_INTEGER, MTX_REAL };
enum mtx_sym { MTX_GENERAL, MTX_SYMMETRIC, MTX_SKEW };

/* The banner "%%MatrixMarket matrix coordinate FIELD SYMMETRY" (words after
 * the first are case-insensitive, as in the NIST reference reader). */
static int read_banner(tin *t, enum mtx_field *field, enum mtx_sym *sym,
                       clirr_error *err)
{
    static const char *banner =
        "the banner '%%MatrixMarket matrix coordinate FIELD SYMMETRY'";
    int rc = clirr_tin_next(t, err);
    if (rc != CLIRR_OK)
        return rc;
    if (!t->ls)
        return clirr_tin_expected(t, NULL, banner, err);
    const char *p = t->ls, *w0;
    char word[32];
    if (clirr_tin_word(t, &p, word, sizeof word, true, banner, err) ||
        strcmp(word, "%%matrixmarket") != 0)
        return clirr_tin_expected(t, t->ls, banner, err);

    w0 = p;
    if ((rc = clirr_tin_word(t, &p, word, sizeof word, true, "'matrix'", err)))
        return rc;
    if (strcmp(word, "matrix") != 0)
        return clirr_tin_expected(t, w0, "'matrix'", err);

    w0 = p;
    if ((rc = clirr_tin_word(t, &p, word, sizeof word, true, "'coordinate'", err)))
        return rc;
    if (strcmp(word, "array") == 0)
        return clirr_tin_fail(t, t->line, err,
                        "expected 'coordinate', found 'array': dense Matrix Market "
                        "files are not supported, only sparse coordinate ones");
    if (strcmp(word, "coordinate") != 0)
        return clirr_tin_expected(t, w0, "'coordinate'", err);

    static const char *fields = "field 'pattern', 'integer' or 'real'";
    w0 = p;
    if ((rc = clirr_tin_word(t, &p, word, sizeof word, true, fields, err)))
        return rc;
    if (strcmp(word, "pattern") == 0)
        *field = MTX_PATTERN;
    else if (strcmp(word, "integer") == 0)
        *field = MTX_INTEGER;
    else if (strcmp(word, "real") == 0)
        *field = MTX_REAL;
    else if (strcmp(word, "complex") == 0)
        return clirr_tin_fail(t, t->line, err,
                        "expected %s, found 'complex': complex matrices are not supported",
                        fields);
    else
        return clirr_tin_expected(t, w0, fields, err);

    static const char *syms = "symmetry 'general', 'symmetric' or 'skew-symmetric'";
    w0 = p;
    if ((rc = clirr_tin_word(t, &p, word, sizeof word, true, syms, err)))
        return rc;
    if (strcmp(word, "general") == 0)
        *sym = MTX_GENERAL;
    else if (strcmp(word, "symmetric") == 0)
        *sym = MTX_SYMMETRIC;
    else if (strcmp(word, "skew-symmetric") == 0)
        *sym = MTX_SKEW;
    else if (strcmp(word, "hermitian") == 0)
        return clirr_tin_fail(t, t->line, err,
                        "expected %s, found 'hermitian': hermitian matrices are not supported",
                        syms);
    else
        return clirr_tin_expected(t, w0, syms, err);
    if (*field == MTX_PATTERN && *sym == MTX_SKEW)
        return clirr_tin_fail(t, t->line, err,
                        "expected a field with values for a skew-symmetric matrix, found 'pattern'");
    return clirr_tin_end(t, p, "end of the banner line", err);
}

/* Next line that is neither blank nor a '%' comment; t->ls NULL at the end. */
static int next_data_line(tin *t, const char **p, clirr_error *err)
{
    for (;;) {
        int rc = clirr_tin_next(t, err);
        if (rc != CLIRR_OK || !t->ls)
            return rc;
        *p = t->ls;
        if (!clirr_tin_blank_rest(t, p) && **p != '%')
            return CLIRR_OK;
    }
}

/* The value of an entry: exact in *v, as a weight in *w. */
static int read_value(tin *t, const char **p, enum mtx_field field, bool skew,
                      int32_t *w, double *v, bool *rounded, clirr_error *err)
{
    /* A skew-symmetric value is negated for the mirror: INT32_MIN cannot be. */
    int64_t lo = skew ? -INT32_MAX : INT32_MIN;
    if (field == MTX_INTEGER) {
        int64_t x;
        int rc = clirr_tin_i64(t, p, lo, INT32_MAX, &x,
                         skew ? "an integer value from -2147483647 to 2147483647"
                              : "an integer value (32-bit)", err);
        *w = (int32_t)x;
        *v = (double)x;
        return rc;
    }
    double x;
    int rc = clirr_tin_real(t, p, &x, "a finite real value", err);
    if (rc != CLIRR_OK)
        return rc;
    *v = x;
    /* Real matrices are read for their structure as often as for their
     * values, and some hold values beyond 32 bits (SuiteSparse bcsstk13 has
     * 2.6e9): those saturate rather than make the file unreadable, and are
     * reported through weights_rounded like any other inexact value. */
    double r = round(x);
    if (r < (double)lo)
        r = (double)lo;
    if (r > (double)INT32_MAX)
        r = (double)INT32_MAX;
    if (r != x)
        *rounded = true;
    *w = (int32_t)r;
    return CLIRR_OK;
}

int clirr_graph_read_mtx(const char *path, clirr_graph *g, clirr_error *err)
{
    tin t;
    arcbuf a = {0};
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    enum mtx_field field = MTX_PATTERN;
    enum mtx_sym sym = MTX_GENERAL;
    if ((rc = read_banner(&t, &field, &sym, err)))
        goto fail;

    const char *p;
    if ((rc = next_data_line(&t, &p, err)))
        goto fail;
    static const char *size_what = "the size line 'ROWS COLUMNS ENTRIES'";
    if (!t.ls) {
        rc = clirr_tin_expected(&t, NULL, size_what, err);
        goto fail;
    }
    uint64_t rows, cols, nnz;
    char what[96];
    snprintf(what, sizeof what, "a row count from 0 to %llu",
             (unsigned long long)CLIRR_GRAPH_MAX_NODES);
    if ((rc = clirr_tin_u64(&t, &p, 0, CLIRR_GRAPH_MAX_NODES, &rows, what, err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, UINT64_MAX, &cols, "a column count", err)))
        goto fail;
    snprintf(what, sizeof what, "an entry count from 0 to %llu",
             (unsigned long long)CLIRR_GRAPH_MAX_EDGES);
    if ((rc = clirr_tin_u64(&t, &p, 0, CLIRR_GRAPH_MAX_EDGES, &nnz, what, err)) ||
        (rc = clirr_tin_end(&t, p, "end of line after 'ROWS COLUMNS ENTRIES'", err)))
        goto fail;
    if (rows != cols) {
        rc = clirr_tin_fail(&t, t.line, err,
                      "expected a square matrix (a graph), found %llu rows and %llu columns",
                      (unsigned long long)rows, (unsigned long long)cols);
        goto fail;
    }
    uint64_t size_line = t.line;
    bool mirror = sym != MTX_GENERAL;
    if ((rc = clirr_arcbuf_init_values(&a, field != MTX_PATTERN, field != MTX_PATTERN,
                                 mirror ? 2 * nnz : nnz, err)))
        goto fail;

    char what_i[96], what_j[96];
    snprintf(what_i, sizeof what_i, "a row index from 1 to %llu", (unsigned long long)rows);
    snprintf(what_j, sizeof what_j, "a column index from 1 to %llu", (unsigned long long)rows);
    const char *after = field == MTX_PATTERN ? "end of line after 'ROW COLUMN' (pattern matrix)"
                                             : "end of line after 'ROW COLUMN VALUE'";
    bool rounded = false;
    uint64_t k = 0;
    for (;;) {
        if ((rc = next_data_line(&t, &p, err)))
            goto fail;
        if (!t.ls)
            break;
        if (k == nnz) {
            rc = clirr_tin_fail(&t, t.line, err,
                          "expected no more entries, found entry %llu (the size line on line %llu says %llu)",
                          (unsigned long long)k + 1, (unsigned long long)size_line,
                          (unsigned long long)nnz);
            goto fail;
        }
        uint64_t i, j;
        int32_t w = 0;
        double x = 0;
        if ((rc = clirr_tin_u64(&t, &p, 1, rows, &i, what_i, err)) ||
            (rc = clirr_tin_u64(&t, &p, 1, rows, &j, what_j, err)) ||
            (field != MTX_PATTERN &&
             (rc = read_value(&t, &p, field, sym == MTX_SKEW, &w, &x, &rounded, err))) ||
            (rc = clirr_tin_end(&t, p, after, err)))
            goto fail;
        if (mirror && i < j) {
            rc = clirr_tin_fail(&t, t.line, err,
                          "expected an entry on or below the diagonal (row >= column) in a "
                          "%s matrix, found row %llu column %llu",
                          sym == MTX_SKEW ? "skew-symmetric" : "symmetric",
                          (unsigned long long)i, (unsigned long long)j);
            goto fail;
        }
        if (sym == MTX_SKEW && i == j) {
            rc = clirr_tin_fail(&t, t.line, err,
                          "expected an entry below the diagonal in a skew-symmetric matrix, "
                          "found one on it (row and column %llu)", (unsigned long long)i);
            goto fail;
        }
        bool skew = sym == MTX_SKEW;
        if ((rc = arcbuf_push_value(&a, (uint32_t)(i - 1), (uint32_t)(j - 1), w, x, err)) ||
            (mirror && i != j &&
             (rc = arcbuf_push_value(&a, (uint32_t)(j - 1), (uint32_t)(i - 1),
                                     skew ? -w : w, skew ? -x : x, err)))) {
            clirr_fail_context(err, "%s:%llu", path, (unsigned long long)t.line);
            goto fail;
        }
        k++;
    }
    if (k != nnz) {
        rc = clirr_tin_fail(&t, t.line + 1, err,
                      "expected %llu entries as the size line (line %llu) says, found end of file after %llu (truncated?)",
                      (unsigned long long)nnz, (unsigned long long)size_line,
                      (unsigned long long)k);
        goto fail;
    }
    clirr_tin_close(&t);
    rc = clirr_arcbuf_to_graph(&a, (uint32_t)rows, g, err);
    if (rc == CLIRR_OK)
        g->weights_rounded = rounded;
    return rc;
fail:
    clirr_tin_close(&t);
    clirr_arcbuf_free(&a);
    return rc;
}

/* x with 17 significant digits (enough for any double to read back to the
 * same bits), with '.' whatever the locale's decimal point is. */
static void put_real(tout *t, double x)
{
    char tmp[40];
    int k = snprintf(tmp, sizeof tmp, "%.17g", x);
    for (int i = 0; i < k; i++) {
        char c = tmp[i];
        tout_char(t, isalnum((unsigned char)c) || c == '-' || c == '+' ? c : '.');
    }
}

int clirr_graph_write_mtx(const char *path, bool gz, const clirr_graph *g, clirr_error *err)
{
    tout t;
    int rc = clirr_tout_open(&t, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    clirr_tout_str(&t, g->value    ? "%%MatrixMarket matrix coordinate real general\n"
                 : g->weight ? "%%MatrixMarket matrix coordinate integer general\n"
                             : "%%MatrixMarket matrix coordinate pattern general\n");
    clirr_tout_room(&t);
    clirr_tout_u64(&t, g->n);
    tout_char(&t, ' ');
    clirr_tout_u64(&t, g->n);
    tout_char(&t, ' ');
    clirr_tout_u64(&t, g->m);
    tout_char(&t, '\n');
    for (uint32_t u = 0; u < g->n && !t.failed; u++) {
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++) {
            clirr_tout_room(&t);
            clirr_tout_u64(&t, (uint64_t)u + 1);
            tout_char(&t, ' ');
            clirr_tout_u64(&t, (uint64_t)g->col[k] + 1);
            if (g->value) {
                tout_char(&t, ' ');
                put_real(&t, g->value[k]);
            } else if (g->weight) {
                tout_char(&t, ' ');
                clirr_tout_i64(&t, g->weight[k]);
            }
            tout_char(&t, '\n');
        }
    }
    return clirr_tout_close(&t, err);
}
