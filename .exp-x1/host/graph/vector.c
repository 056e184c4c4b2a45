/* host/graph/vector.c - dense vectors of reals (the x of SpMV): one number
 * per line, blanks around it allowed, blank lines and lines starting with
 * '#' or '%' skipped, plain or gzipped. A Matrix Market dense vector (banner
 * "%%MatrixMarket matrix array real|integer general" on line 1, then the
 * size line "N 1" or "1 N", then the values) is read as well, since that is
 * how SuiteSparse ships right-hand sides. Lines go through the graph
 * readers' text input (textin.c), so messages name file and line the same
 * way, and NaN and infinity are refused there. */
#include "graph_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The rest of a Matrix Market banner after "%%MatrixMarket" at p. */
static int read_banner(tin *t, const char *p, clirr_error *err)
{
    char word[32];
    const char *w0 = p;
    int rc = clirr_tin_word(t, &p, word, sizeof word, true, "'matrix'", err);
    if (rc != CLIRR_OK)
        return rc;
    if (strcmp(word, "matrix") != 0)
        return clirr_tin_expected(t, w0, "'matrix'", err);
    w0 = p;
    if ((rc = clirr_tin_word(t, &p, word, sizeof word, true, "'array'", err)))
        return rc;
    if (strcmp(word, "coordinate") == 0)
        return clirr_tin_fail(t, t->line, err,
                        "expected 'array' (a dense vector), found 'coordinate': sparse "
                        "vectors are not supported");
    if (strcmp(word, "array") != 0)
        return clirr_tin_expected(t, w0, "'array'", err);
    w0 = p;
    if ((rc = clirr_tin_word(t, &p, word, sizeof word, true, "field 'real' or 'integer'", err)))
        return rc;
    if (strcmp(word, "real") != 0 && strcmp(word, "integer") != 0)
        return clirr_tin_expected(t, w0, "field 'real' or 'integer'", err);
    w0 = p;
    if ((rc = clirr_tin_word(t, &p, word, sizeof word, true, "symmetry 'general'", err)))
        return rc;
    if (strcmp(word, "general") != 0)
        return clirr_tin_expected(t, w0, "symmetry 'general'", err);
    return clirr_tin_end(t, p, "end of the banner line", err);
}

/* The Matrix Market size line: one row or one column of n entries. */
static int read_size(tin *t, const char *p, uint32_t n, clirr_error *err)
{
    uint64_t rows, cols;
    int rc;
    if ((rc = clirr_tin_u64(t, &p, 0, UINT64_MAX, &rows, "the size line 'ROWS COLUMNS'", err)) ||
        (rc = clirr_tin_u64(t, &p, 0, UINT64_MAX, &cols, "a column count", err)) ||
        (rc = clirr_tin_end(t, p, "end of line after 'ROWS COLUMNS'", err)))
        return rc;
    if (!((rows == n && cols == 1) || (rows == 1 && cols == n)))
        return clirr_tin_fail(t, t->line, err,
                        "expected a vector of %u entries (size 'N 1' or '1 N'), found %llu rows "
                        "and %llu columns", n, (unsigned long long)rows, (unsigned long long)cols);
    return CLIRR_OK;
}

int clirr_vector_read(const char *path, uint32_t n, double **x, clirr_error *err)
{
    *x = NULL;
    double *v = malloc((n ? (size_t)n : 1) * sizeof *v);
    if (!v)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a vector of %u entries", n);
    tin t;
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK) {
        free(v);
        return rc;
    }
    static const char mm[] = "%%MatrixMarket";
    bool need_size = false;
    char more[64];
    snprintf(more, sizeof more, "end of file after %u values", n);
    uint64_t k = 0;
    for (;;) {
        if ((rc = clirr_tin_next(&t, err)))
            goto fail;
        if (!t.ls)
            break;
        const char *p = t.ls;
        if (clirr_tin_blank_rest(&t, &p))
            continue;
        size_t len = (size_t)(t.le - p);
        if (t.line == 1 && len >= sizeof mm - 1 && strncasecmp(p, mm, sizeof mm - 1) == 0) {
            if ((rc = read_banner(&t, p + sizeof mm - 1, err)))
                goto fail;
            need_size = true;
            continue;
        }
        if (*p == '#' || *p == '%')
            continue;
        if (need_size) {
            if ((rc = read_size(&t, p, n, err)))
                goto fail;
            need_size = false;
            continue;
        }
        if (k == n) {
            rc = clirr_tin_expected(&t, p, more, err);
            goto fail;
        }
        if ((rc = clirr_tin_real(&t, &p, &v[k], "a finite real number", err)) ||
            (rc = clirr_tin_end(&t, p, "end of line after the value (one number per line)", err)))
            goto fail;
        k++;
    }
    if (need_size) {
        rc = clirr_tin_expected(&t, NULL, "the size line 'ROWS COLUMNS'", err);
        goto fail;
    }
    if (k < n) {
        rc = clirr_tin_fail(&t, t.line + 1, err, "expected %u values, found end of file after %llu",
                      n, (unsigned long long)k);
        goto fail;
    }
    clirr_tin_close(&t);
    *x = v;
    return CLIRR_OK;
fail:
    clirr_tin_close(&t);
    free(v);
    return rc;
}
