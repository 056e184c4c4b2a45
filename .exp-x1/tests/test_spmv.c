/* tests/test_spmv.c - SpMV's own cases through the registry's descriptor
 * (clirr_algo_find("spmv")) on every device: x read from a --vector file
 * (exact sums by hand on a small matrix of values, weights or ones, and a
 * generated weighted graph against the descriptor's reference and
 * verifier, through a block-mapped template too); a vector file of the
 * wrong length refused in prepare and by the reference, naming the file.
 * (The default all-ones x on every template is in test_algo.c.) */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Write x[0..n) to a file in the test's temporary folder, one number a
 * line after a comment; path gets its name. */
static bool write_vector(const char *name, const double *x, uint32_t n, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", th_tmp_dir(), name);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "# x for tests/test_spmv.c\n");
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%.17g\n", x[i]);
    return fclose(f) == 0;
}

/* The auto template, and one that block-maps rows. */
static const int templates[] = {-1, CLIRR_TEMPLATE_DBUF_GLOBAL};

/* SpMV computes in double precision: skipped on a device without it. */
static bool have_fp64(th_case *tc)
{
    if (!tc->device->caps.fp64)
        th_skip(tc, "%s has no double precision", tc->device->caps.name);
    return tc->device->caps.fp64;
}

/* SpMV of the graph of in with x from file `vector` (NULL = all ones),
 * template tmpl (-1 = auto, else with lb_THRES 1: rows of two entries or
 * more are block-mapped). */
static int spmv_with(clirr_ctx *ctx, const clirr_input *in, const char *vector, int tmpl, double *y,
                     clirr_error *err)
{
    const clirr_algo *a = clirr_algo_find("spmv");
    if (!a)
        return clirr_fail(err, CLIRR_ERR_USAGE, "spmv is not in the registry");
    clirr_intent it;
    clirr_intent_default(a, &it);
    it.tmpl = tmpl;
    it.lb_thres = tmpl < 0 ? 0 : 1;
    int rc = clirr_param_set(a, (unsigned)clirr_algo_param(a, "vector"), vector ? vector : "", &it.params, err);
    if (rc == CLIRR_OK)
        rc = clirr_algo_run(ctx, a, in, &it, y, NULL, err);
    return rc;
}

/* 4 x 4: row 0 = 2 x0 + 3 x2, row 1 = 1 x0 (twice: duplicates add up),
 * row 2 empty, row 3 = 5 x3 + 7 x1. */
static const uint32_t small_src[] = {0, 0, 1, 1, 3, 3};
static const uint32_t small_dst[] = {0, 2, 0, 0, 3, 1};
static const int32_t small_w[] = {2, 3, 1, 1, 5, 7};
static const double small_val[] = {0.5, -1.25, 4, 4, -0.75, 8};
static const double small_x[] = {0.5, -2, 1024, 3.25};

/* y of the small matrix by hand, every sum exact in binary. */
static void small_expected(const double *entry, double *y)
{
    y[0] = entry[0] * small_x[0] + entry[1] * small_x[2];
    y[1] = (entry[2] + entry[3]) * small_x[0];
    y[2] = 0;
    y[3] = entry[4] * small_x[3] + entry[5] * small_x[1];
}

static void small_matrix(th_case *tc)
{
    static const double ones[] = {1, 1, 1, 1, 1, 1}, weights[] = {2, 3, 1, 1, 5, 7};
    const double *entries[] = {small_val, weights, ones};
    const char *what[] = {"values", "weights", "ones"};
    if (!have_fp64(tc))
        return;
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    char path[1024];
    double y[4], want[4];
    TH_REQUIRE(tc, write_vector("small-x.txt", small_x, 4, path, sizeof path), "cannot write %s", path);
    for (int k = 0; k < 3; k++) {
        TH_OK(tc, clirr_graph_from_arcs(4, 6, small_src, small_dst, k < 2 ? small_w : NULL, &g, &err));
        if (k == 0)
            TH_OK(tc, clirr_graph_set_values(&g, small_val, &err));
        TH_OK(tc, clirr_input_from_graph(&g, false, what[k], &in, &err));
        small_expected(entries[k], want);
        for (size_t t = 0; t < sizeof templates / sizeof templates[0]; t++) {
            memset(y, 0xA5, sizeof y);
            TH_OK(tc, spmv_with(tc->ctx, in, path, templates[t], y, &err));
            for (int i = 0; i < 4; i++)
                TH_REQUIRE(tc, y[i] == want[i], "%s, template %d: y[%d] = %.17g, expected %.17g", what[k],
                           templates[t], i, y[i], want[i]);
        }
        clirr_input_free(in);
        clirr_graph_free(&g);
        in = NULL;
    }
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

/* A generated weighted graph: the descriptor's reference and verifier with
 * the same vector file, and an answer unlike the all-ones one. */
static void generated(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("spmv");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    double *x = NULL, *y = NULL, *ones = NULL, *expected = NULL;
    char path[1024];
    TH_REQUIRE(tc, a, "spmv is not in the registry");
    if (!have_fp64(tc))
        return;
    TH_OK(tc, clirr_graph_generate("rmat:scale=11,ef=6,seed=4,weights=1-9", &g, &err));
    x = malloc(g.n * sizeof *x);
    y = malloc(g.n * sizeof *y);
    ones = malloc(g.n * sizeof *ones);
    expected = malloc(g.n * sizeof *expected);
    TH_REQUIRE(tc, x && y && ones && expected, "out of memory");
    /* Positive, so no sum cancels below the verifier's relative tolerance. */
    for (uint32_t i = 0; i < g.n; i++)
        x[i] = 1 + (i % 13) / 8.0 + i * 1e-4;
    TH_REQUIRE(tc, write_vector("rmat-x.txt", x, g.n, path, sizeof path), "cannot write %s", path);
    TH_OK(tc, clirr_input_from_graph(&g, false, "rmat", &in, &err));
    clirr_intent it;
    clirr_intent_default(a, &it);
    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "vector"), path, &it.params, &err));
    clirr_plan plan;
    TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
    TH_OK(tc, a->reference(in, &plan, expected, &err));
    for (size_t t = 0; t < sizeof templates / sizeof templates[0]; t++) {
        TH_OK(tc, spmv_with(tc->ctx, in, path, templates[t], y, &err));
        clirr_verify_report r;
        memset(&r, 0, sizeof r);
        TH_REQUIRE(tc, a->verify(in, &plan, expected, y, &r), "template %d: %s", templates[t], r.text);
    }
    TH_OK(tc, spmv_with(tc->ctx, in, NULL, -1, ones, &err));
    uint32_t differ = 0;
    for (uint32_t i = 0; i < g.n; i++)
        differ += y[i] != ones[i];
    TH_REQUIRE(tc, differ > g.n / 4, "only %u of %u entries differ from x = ones: was the file read?", differ,
               g.n);
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
    free(x);
    free(y);
    free(ones);
    free(expected);
}

/* A vector one entry short: prepare and the reference both refuse it as
 * bad input, naming the file. */
static void wrong_length(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("spmv");
    clirr_error err;
    clirr_graph g = {0};
    clirr_input *in = NULL;
    char path[1024];
    double y[4];
    TH_REQUIRE(tc, a, "spmv is not in the registry");
    if (!have_fp64(tc))
        return;
    TH_REQUIRE(tc, write_vector("short-x.txt", small_x, 3, path, sizeof path), "cannot write %s", path);
    TH_OK(tc, clirr_graph_from_arcs(4, 6, small_src, small_dst, small_w, &g, &err));
    TH_OK(tc, clirr_input_from_graph(&g, false, "small", &in, &err));
    int rc = spmv_with(tc->ctx, in, path, -1, y, &err);
    TH_REQUIRE(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "short-x.txt"), "prepare: %s '%s'",
               clirr_status_name(rc), err.msg);
    clirr_intent it;
    clirr_intent_default(a, &it);
    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "vector"), path, &it.params, &err));
    clirr_plan plan;
    TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
    rc = a->reference(in, &plan, y, &err);
    TH_REQUIRE(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, "short-x.txt"), "reference: %s '%s'",
               clirr_status_name(rc), err.msg);
done:
    clirr_input_free(in);
    clirr_graph_free(&g);
}

TH_REGISTER(register_spmv_tests)
{
    th_add_device("spmv/small-matrix", small_matrix, NULL);
    th_add_device("spmv/generated", generated, NULL);
    th_add_device("spmv/wrong-length", wrong_length, NULL);
}
