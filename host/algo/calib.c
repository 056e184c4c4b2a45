/* host/algo/calib.c - the calibration kernels of cl/calib.cl on a device
 * (include/clirr/calib.h): generated data of a fixed size, one launch,
 * the answer checked against host/ref/calib.c. Not algorithms (no input,
 * no variants): the regular yardsticks `clirr profile --calib` measures
 * beside the irregular kernels. */
#include "clirr/calib.h"
#include "ref/calib.h"
#include "runtime/runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HIST_N = 1 << 18, MM_N = 64, NB_N = 1024, BS_N = 1 << 16, WG = 256 };

typedef int (*calib_fn)(clirr_ctx *ctx, cl_program prog, clirr_calib_result *r, clirr_error *err);

/* Deterministic data: a 64-bit xorshift from a fixed seed. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static float uniform(uint64_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)((next(s) >> 40) / (double)(1 << 24));
}

static double kernel_ms(clirr_ctx *ctx, clirr_error *err)
{
    clirr_timing t;
    if (clirr_ctx_timing(ctx, &t, err) != CLIRR_OK)
        return 0;
    return t.kernel_ns / 1e6;
}

static int histogram(clirr_ctx *ctx, cl_program prog, clirr_calib_result *r, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    cl_mem data = NULL, bins = NULL;
    uint32_t *h = malloc(HIST_N * sizeof *h), got[256], want[256] = {0};
    if (!h)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    uint64_t s = 88172645463325252ull;
    for (size_t i = 0; i < HIST_N; i++)
        h[i] = (uint32_t)next(&s);
    snprintf(r->size, sizeof r->size, "%d values", HIST_N);
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "calib_histogram", 3, &k, err));
    CLIRR_TRY(clirr_buf_create(ctx, "histogram data", HIST_N * sizeof *h, &data, err));
    CLIRR_TRY(clirr_buf_create(ctx, "histogram bins", sizeof got, &bins, err));
    CLIRR_TRY(clirr_buf_write(ctx, data, 0, HIST_N * sizeof *h, h, err));
    CLIRR_TRY(clirr_buf_write(ctx, bins, 0, sizeof want, want, err));
    cl_uint n = HIST_N;
    CLIRR_TRY(clirr_arg(k, 0, sizeof data, &data, err));
    CLIRR_TRY(CLIRR_ARG(k, 1, n));
    CLIRR_TRY(clirr_arg(k, 2, sizeof bins, &bins, err));
    size_t local = clirr_wg_size(ctx, k, WG);
    CLIRR_TRY(clirr_ctx_timing(ctx, &(clirr_timing){0}, err));
    CLIRR_TRY(clirr_launch(ctx, k, 64 * local, local, err));
    r->kernel_ms = kernel_ms(ctx, err);
    CLIRR_TRY(clirr_buf_read(ctx, bins, 0, sizeof got, got, err));
    clirr_ref_calib_histogram(h, HIST_N, want);
    r->verified = true;
    for (int b = 0; b < 256 && r->verified; b++)
        if (got[b] != want[b]) {
            r->verified = false;
            snprintf(r->report, sizeof r->report, "bin %d: expected %u, got %u", b, want[b], got[b]);
        }
fail:
    clirr_mem_release(&data);
    clirr_mem_release(&bins);
    free(h);
    return rc;
}

static int matmul(clirr_ctx *ctx, cl_program prog, clirr_calib_result *r, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    cl_mem a = NULL, b = NULL, c = NULL;
    size_t nn = (size_t)MM_N * MM_N, bytes = nn * sizeof(float);
    float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes), *want = malloc(bytes);
    if (!ha || !hb || !hc || !want) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    uint64_t s = 2463534242ull;
    for (size_t i = 0; i < nn; i++) {
        ha[i] = uniform(&s, -1, 1);
        hb[i] = uniform(&s, -1, 1);
    }
    snprintf(r->size, sizeof r->size, "%d x %d floats", MM_N, MM_N);
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "calib_matmul", 4, &k, err));
    if (clirr_wg_size(ctx, k, WG) != WG) {
        rc = clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "calib_matmul needs work-groups of %d", WG);
        goto fail;
    }
    CLIRR_TRY(clirr_buf_create(ctx, "matrix A", bytes, &a, err));
    CLIRR_TRY(clirr_buf_create(ctx, "matrix B", bytes, &b, err));
    CLIRR_TRY(clirr_buf_create(ctx, "matrix C", bytes, &c, err));
    CLIRR_TRY(clirr_buf_write(ctx, a, 0, bytes, ha, err));
    CLIRR_TRY(clirr_buf_write(ctx, b, 0, bytes, hb, err));
    cl_uint n = MM_N;
    CLIRR_TRY(clirr_arg(k, 0, sizeof a, &a, err));
    CLIRR_TRY(clirr_arg(k, 1, sizeof b, &b, err));
    CLIRR_TRY(clirr_arg(k, 2, sizeof c, &c, err));
    CLIRR_TRY(CLIRR_ARG(k, 3, n));
    CLIRR_TRY(clirr_ctx_timing(ctx, &(clirr_timing){0}, err));
    CLIRR_TRY(clirr_launch(ctx, k, nn, WG, err));
    r->kernel_ms = kernel_ms(ctx, err);
    CLIRR_TRY(clirr_buf_read(ctx, c, 0, bytes, hc, err));
    clirr_ref_calib_matmul(ha, hb, want, MM_N);
    r->verified = true;
    /* Contracted multiply-adds may round differently: a relative bound. */
    for (size_t i = 0; i < nn && r->verified; i++)
        if (!(fabsf(hc[i] - want[i]) <= 1e-4f * (1.0f + fabsf(want[i])))) {
            r->verified = false;
            snprintf(r->report, sizeof r->report, "C[%zu][%zu]: expected %g, got %g", i / MM_N,
                     i % MM_N, want[i], hc[i]);
        }
fail:
    clirr_mem_release(&a);
    clirr_mem_release(&b);
    clirr_mem_release(&c);
    free(ha);
    free(hb);
    free(hc);
    free(want);
    return rc;
}

static int nbody(clirr_ctx *ctx, cl_program prog, clirr_calib_result *r, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    cl_mem pos = NULL, acc = NULL;
    size_t bytes = (size_t)NB_N * 4 * sizeof(float);
    float *hp = malloc(bytes), *ha = malloc(bytes);
    double *want = malloc((size_t)NB_N * 3 * sizeof *want);
    if (!hp || !ha || !want) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    uint64_t s = 362436069ull;
    for (size_t i = 0; i < NB_N; i++) {
        hp[4 * i] = uniform(&s, -1, 1);
        hp[4 * i + 1] = uniform(&s, -1, 1);
        hp[4 * i + 2] = uniform(&s, -1, 1);
        hp[4 * i + 3] = uniform(&s, 0.5f, 1.5f) / NB_N;
    }
    snprintf(r->size, sizeof r->size, "%d bodies", NB_N);
    const float eps2 = 0.01f;
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "calib_nbody", 4, &k, err));
    CLIRR_TRY(clirr_buf_create(ctx, "positions", bytes, &pos, err));
    CLIRR_TRY(clirr_buf_create(ctx, "accelerations", bytes, &acc, err));
    CLIRR_TRY(clirr_buf_write(ctx, pos, 0, bytes, hp, err));
    cl_uint n = NB_N;
    CLIRR_TRY(clirr_arg(k, 0, sizeof pos, &pos, err));
    CLIRR_TRY(clirr_arg(k, 1, sizeof acc, &acc, err));
    CLIRR_TRY(CLIRR_ARG(k, 2, n));
    CLIRR_TRY(CLIRR_ARG(k, 3, eps2));
    size_t local = clirr_wg_size(ctx, k, WG);
    CLIRR_TRY(clirr_ctx_timing(ctx, &(clirr_timing){0}, err));
    CLIRR_TRY(clirr_launch(ctx, k, NB_N, local, err));
    r->kernel_ms = kernel_ms(ctx, err);
    CLIRR_TRY(clirr_buf_read(ctx, acc, 0, bytes, ha, err));
    clirr_ref_calib_nbody(hp, want, NB_N, eps2);
    r->verified = true;
    for (size_t i = 0; i < NB_N && r->verified; i++) {
        double norm = fabs(want[3 * i]) + fabs(want[3 * i + 1]) + fabs(want[3 * i + 2]);
        for (int d = 0; d < 3; d++)
            if (!(fabs(ha[4 * i + d] - want[3 * i + d]) <= 1e-3 * (norm + 1e-6))) {
                r->verified = false;
                snprintf(r->report, sizeof r->report, "body %zu axis %d: expected %g, got %g", i, d,
                         want[3 * i + d], ha[4 * i + d]);
                break;
            }
    }
fail:
    clirr_mem_release(&pos);
    clirr_mem_release(&acc);
    free(hp);
    free(ha);
    free(want);
    return rc;
}

static int black_scholes(clirr_ctx *ctx, cl_program prog, clirr_calib_result *r, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = NULL;
    cl_mem m[5] = {NULL};
    size_t bytes = (size_t)BS_N * sizeof(float);
    float *h[5] = {NULL};
    double *call = malloc(BS_N * sizeof *call), *put = malloc(BS_N * sizeof *put);
    for (int i = 0; i < 5; i++)
        h[i] = malloc(bytes);
    if (!call || !put || !h[0] || !h[1] || !h[2] || !h[3] || !h[4]) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    uint64_t s = 521288629ull;
    for (size_t i = 0; i < BS_N; i++) {
        h[0][i] = uniform(&s, 5, 30);
        h[1][i] = uniform(&s, 1, 100);
        h[2][i] = uniform(&s, 0.25f, 10);
    }
    snprintf(r->size, sizeof r->size, "%d options", BS_N);
    const float rate = 0.02f, vol = 0.30f;
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "calib_bs", 8, &k, err));
    static const char *what[5] = {"prices", "strikes", "years", "calls", "puts"};
    for (int i = 0; i < 5; i++) {
        CLIRR_TRY(clirr_buf_create(ctx, what[i], bytes, &m[i], err));
        if (i < 3)
            CLIRR_TRY(clirr_buf_write(ctx, m[i], 0, bytes, h[i], err));
        CLIRR_TRY(clirr_arg(k, (cl_uint)i, sizeof m[i], &m[i], err));
    }
    cl_uint n = BS_N;
    CLIRR_TRY(CLIRR_ARG(k, 5, n));
    CLIRR_TRY(CLIRR_ARG(k, 6, rate));
    CLIRR_TRY(CLIRR_ARG(k, 7, vol));
    size_t local = clirr_wg_size(ctx, k, WG);
    CLIRR_TRY(clirr_ctx_timing(ctx, &(clirr_timing){0}, err));
    CLIRR_TRY(clirr_launch(ctx, k, BS_N, local, err));
    r->kernel_ms = kernel_ms(ctx, err);
    CLIRR_TRY(clirr_buf_read(ctx, m[3], 0, bytes, h[3], err));
    CLIRR_TRY(clirr_buf_read(ctx, m[4], 0, bytes, h[4], err));
    clirr_ref_calib_bs(h[0], h[1], h[2], call, put, BS_N, rate, vol);
    r->verified = true;
    /* The kernel's float polynomial for the normal distribution: cents. */
    for (size_t i = 0; i < BS_N && r->verified; i++)
        if (!(fabs(h[3][i] - call[i]) <= 1e-3 * (1 + call[i]) && fabs(h[4][i] - put[i]) <= 1e-3 * (1 + put[i]))) {
            r->verified = false;
            snprintf(r->report, sizeof r->report, "option %zu: expected %g / %g, got %g / %g", i,
                     call[i], put[i], h[3][i], h[4][i]);
        }
fail:
    for (int i = 0; i < 5; i++) {
        clirr_mem_release(&m[i]);
        free(h[i]);
    }
    free(call);
    free(put);
    return rc;
}

static const struct {
    const char *name, *summary;
    calib_fn run;
} kernels[] = {
    {"histogram", "256-bin histogram, local atomics per work-group", histogram},
    {"matmul", "dense matrix multiply, 16 x 16 tiles in local memory", matmul},
    {"nbody", "all-pairs n-body accelerations", nbody},
    {"blackscholes", "Black-Scholes option prices", black_scholes},
};
#define NKERNELS (sizeof kernels / sizeof kernels[0])

size_t clirr_calib_count(void) { return NKERNELS; }
const char *clirr_calib_name(size_t i) { return i < NKERNELS ? kernels[i].name : NULL; }
const char *clirr_calib_summary(size_t i) { return i < NKERNELS ? kernels[i].summary : NULL; }

int clirr_calib_find(const char *name)
{
    for (size_t i = 0; i < NKERNELS; i++)
        if (!strcmp(kernels[i].name, name))
            return (int)i;
    return -1;
}

int clirr_calib_run(clirr_ctx *ctx, size_t i, clirr_calib_result *r, clirr_error *err)
{
    memset(r, 0, sizeof *r);
    if (i >= NKERNELS)
        return clirr_fail(err, CLIRR_ERR_USAGE, "no calibration kernel %zu", i);
    cl_program prog = NULL;
    int rc = clirr_program_get(ctx, "calib.cl", "", &prog, err);
    if (rc != CLIRR_OK)
        return rc;
    rc = kernels[i].run(ctx, prog, r, err);
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "calibration kernel %s", kernels[i].name);
    return rc;
}
