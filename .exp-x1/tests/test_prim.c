/* tests/test_prim.c - cases for the prim area (names start "prim/"): fill,
 * iota, scan, compaction and reduction against plain CPU loops, on every
 * device. Sizes cover 0, 1, 2^k-1 / 2^k / 2^k+1, one tile (work-group size
 * x elements per work-item) +-1, the point where work-groups start taking
 * several tiles each, tile^2 +-1 and 10^7. Data comes from a fixed seed. */
#include "harness.h"

#include "prim/prim.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED 0x5eed2026u

/* splitmix64: the same numbers on every machine. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* ---- sizes ---------------------------------------------------------------- */

typedef struct size_list {
    size_t v[96];
    size_t n;
} size_list;

static void add_size(size_list *l, size_t s)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == s)
            return;
    if (l->n < sizeof l->v / sizeof l->v[0])
        l->v[l->n++] = s;
}

static void add_around(size_list *l, size_t s)
{
    if (s > 0)
        add_size(l, s - 1);
    add_size(l, s);
    add_size(l, s + 1);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Sizes for this device. `big` adds tile^2 +-1 and 10^7. */
static int sizes_for(th_case *tc, size_list *l, bool big, clirr_error *err)
{
    clirr_prim_geometry g;
    int rc = clirr_prim_geometry_get(tc->ctx, &g, err);
    if (rc != CLIRR_OK)
        return rc;
    l->n = 0;
    add_size(l, 0);
    add_size(l, 1);
    static const unsigned ks[] = {1, 2, 5, 8, 10, 12, 16, 20};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
        add_around(l, (size_t)1 << ks[i]);
    add_around(l, g.tile);
    add_around(l, 2 * g.tile);
    /* The largest input done by a single work-group, and one tile more. */
    add_around(l, g.single_max);
    add_around(l, g.single_max + g.tile);
    /* max_groups tiles: one tile per work-group; one more and each
     * work-group takes two. */
    add_around(l, g.tile * g.max_groups);
    add_around(l, g.tile * (g.max_groups + 1));
    if (big) {
        if (g.tile * g.tile <= ((size_t)1 << 26))
            add_around(l, g.tile * g.tile);
        add_size(l, 10000000);
    } else {
        add_size(l, 1000003);
    }
    qsort(l->v, l->n, sizeof l->v[0], cmp_size);
    return CLIRR_OK;
}

/* ---- device buffers --------------------------------------------------------- */

static int upload(th_case *tc, const uint32_t *host, size_t n, cl_mem *mem, clirr_error *err)
{
    int rc = clirr_buf_create(tc->ctx, "test data", n * sizeof *host, mem, err);
    if (rc == CLIRR_OK)
        rc = clirr_buf_write(tc->ctx, *mem, 0, n * sizeof *host, host, err);
    return rc;
}

static int download(th_case *tc, cl_mem mem, size_t n, uint32_t *host, clirr_error *err)
{
    return clirr_buf_read(tc->ctx, mem, 0, n * sizeof *host, host, err);
}

/* First index where got differs from want, or n. */
static size_t first_mismatch(const uint32_t *want, const uint32_t *got, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (want[i] != got[i])
            return i;
    return n;
}

/* Record the first mismatch as (index, expected, got) after a description. */
static void __attribute__((format(printf, 7, 8)))
expect_same(th_case *tc, const char *file, int line, const uint32_t *want,
            const uint32_t *got, size_t n, const char *fmt, ...)
{
    size_t at = first_mismatch(want, got, n);
    if (at == n)
        return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    th_fail(tc, file, line, "%s: first mismatch (index %zu, expected %" PRIu32 ", got %" PRIu32 ")",
            what, at, want[at], got[at]);
}
#define EXPECT_SAME(tc, want, got, n, ...)                                     \
    expect_same((tc), __FILE__, __LINE__, (want), (got), (n), __VA_ARGS__)

static uint32_t *alloc_u32(size_t n)
{
    return malloc((n ? n : 1) * sizeof(uint32_t));
}

static void random_fill(uint32_t *a, size_t n, uint64_t seed, uint32_t mask)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++)
        a[i] = (uint32_t)rng_next(&s) & mask;
}

/* ---- fill and iota ---------------------------------------------------------- */

static void test_fill(th_case *tc)
{
    clirr_error err;
    size_list sizes;
    cl_mem buf = NULL;
    uint32_t *want = NULL, *got = NULL;
    TH_OK(tc, sizes_for(tc, &sizes, true, &err));
    for (size_t t = 0; t < sizes.n && !tc->failed; t++) {
        size_t n = sizes.v[t], total = n + 5, off = 3;
        want = alloc_u32(total);
        got = alloc_u32(total);
        TH_REQUIRE(tc, want && got, "out of memory");
        random_fill(want, total, SEED + n, 0xffffffffu);
        TH_OK(tc, upload(tc, want, total, &buf, &err));
        uint32_t v = 0xa5a5a5a5u ^ (uint32_t)n;
        TH_OK(tc, clirr_prim_fill_u32(tc->ctx, buf, off, n, v, &err));
        for (size_t i = off; i < off + n; i++)
            want[i] = v;
        TH_OK(tc, download(tc, buf, total, got, &err));
        EXPECT_SAME(tc, want, got, total, "fill n=%zu offset=%zu", n, off);
        clirr_mem_release(&buf);
        free(want);
        free(got);
        want = got = NULL;
    }
done:
    clirr_mem_release(&buf);
    free(want);
    free(got);
}

static void test_iota(th_case *tc)
{
    clirr_error err;
    size_list sizes;
    cl_mem buf = NULL;
    uint32_t *want = NULL, *got = NULL;
    TH_OK(tc, sizes_for(tc, &sizes, true, &err));
    for (size_t t = 0; t < sizes.n && !tc->failed; t++) {
        size_t n = sizes.v[t];
        want = alloc_u32(n);
        got = alloc_u32(n);
        TH_REQUIRE(tc, want && got, "out of memory");
        TH_OK(tc, clirr_buf_create(tc->ctx, "iota", n * sizeof(uint32_t), &buf, &err));
        /* Start near the top so the values wrap modulo 2^32. */
        uint32_t start = 0xffffff00u;
        TH_OK(tc, clirr_prim_iota_u32(tc->ctx, buf, n, start, &err));
        for (size_t i = 0; i < n; i++)
            want[i] = start + (uint32_t)i;
        TH_OK(tc, download(tc, buf, n, got, &err));
        EXPECT_SAME(tc, want, got, n, "iota n=%zu", n);
        clirr_mem_release(&buf);
        free(want);
        free(got);
        want = got = NULL;
    }
done:
    clirr_mem_release(&buf);
    free(want);
    free(got);
}

/* ---- scan ----------------------------------------------------------------- */

/* Exclusive scan of in (random with mask) on the device, in place or not,
 * checked against a CPU loop, total included. */
static void check_scan(th_case *tc, size_t n, uint32_t mask, bool inplace)
{
    clirr_error err;
    cl_mem in = NULL, out = NULL;
    uint32_t *host = NULL, *want = NULL, *got = NULL;
    host = alloc_u32(n);
    want = alloc_u32(n);
    got = alloc_u32(n);
    TH_REQUIRE(tc, host && want && got, "out of memory");
    random_fill(host, n, SEED ^ n ^ mask, mask);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        want[i] = (uint32_t)sum;
        sum += host[i];
    }
    TH_OK(tc, upload(tc, host, n, &in, &err));
    if (!inplace)
        TH_OK(tc, clirr_buf_create(tc->ctx, "scan out", n * sizeof(uint32_t), &out, &err));
    uint64_t total = 12345;
    TH_OK(tc, clirr_prim_scan_u32(tc->ctx, in, inplace ? in : out, n, &total, &err));
    TH_OK(tc, download(tc, inplace ? in : out, n, got, &err));
    EXPECT_SAME(tc, want, got, n, "scan n=%zu mask=%#x%s", n, mask, inplace ? " in place" : "");
    TH_EXPECT(tc, total == sum, "scan n=%zu mask=%#x: total expected %" PRIu64 ", got %" PRIu64,
              n, mask, sum, total);
    if (!inplace && n > 0) {
        /* The input is left alone. */
        TH_OK(tc, download(tc, in, n, got, &err));
        EXPECT_SAME(tc, host, got, n, "scan n=%zu: input changed", n);
    }
done:
    clirr_mem_release(&in);
    clirr_mem_release(&out);
    free(host);
    free(want);
    free(got);
}

static void test_scan(th_case *tc)
{
    clirr_error err;
    size_list sizes;
    TH_OK(tc, sizes_for(tc, &sizes, true, &err));
    for (size_t t = 0; t < sizes.n && !tc->failed; t++) {
        /* Full 32-bit values (the total passes 2^32 quickly, out[] wraps)
         * and small ones (out[] exact). */
        check_scan(tc, sizes.v[t], 0xffffffffu, false);
        check_scan(tc, sizes.v[t], 3u, false);
    }
done:;
}

static void test_scan_inplace(th_case *tc)
{
    clirr_error err;
    size_list sizes;
    TH_OK(tc, sizes_for(tc, &sizes, false, &err));
    for (size_t t = 0; t < sizes.n && !tc->failed; t++)
        check_scan(tc, sizes.v[t], 0xffffffffu, true);
    check_scan(tc, 10000000, 0xffffu, true);
done:;
}

/* Every input 2^32-1: out[i] = -i mod 2^32, total = n * (2^32-1). */
static void test_scan_total_64bit(th_case *tc)
{
    clirr_error err;
    cl_mem buf = NULL;
    uint32_t *got = NULL;
    size_t n = 3000017;
    got = alloc_u32(n);
    TH_REQUIRE(tc, got, "out of memory");
    TH_OK(tc, clirr_buf_create(tc->ctx, "scan", n * sizeof(uint32_t), &buf, &err));
    TH_OK(tc, clirr_prim_fill_u32(tc->ctx, buf, 0, n, UINT32_MAX, &err));
    uint64_t total = 0;
    TH_OK(tc, clirr_prim_scan_u32(tc->ctx, buf, buf, n, &total, &err));
    TH_EXPECT(tc, total == (uint64_t)n * UINT32_MAX, "total expected %" PRIu64 ", got %" PRIu64,
              (uint64_t)n * UINT32_MAX, total);
    TH_OK(tc, download(tc, buf, n, got, &err));
    for (size_t i = 0; i < n; i++)
        if (got[i] != (uint32_t)(0u - (uint32_t)i)) {
            TH_EXPECT(tc, false, "first mismatch (index %zu, expected %" PRIu32 ", got %" PRIu32 ")",
                      i, (uint32_t)(0u - (uint32_t)i), got[i]);
            break;
        }
    /* No total wanted: NULL is fine. */
    TH_OK(tc, clirr_prim_scan_u32(tc->ctx, buf, buf, n, NULL, &err));
done:
    clirr_mem_release(&buf);
    free(got);
}

/* ---- compaction ------------------------------------------------------------ */

enum key_pattern { KEYS_ALL, KEYS_NONE, KEYS_ALTERNATE, KEYS_RANDOM, KEYS_PATTERNS };
static const char *const pattern_name[] = {"all", "none", "alternating", "random"};
#define MATCH 7u
#define SENTINEL 0xffffffffu

static void make_keys(uint32_t *keys, size_t n, enum key_pattern p, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        switch (p) {
        case KEYS_ALL: keys[i] = MATCH; break;
        case KEYS_NONE: keys[i] = (uint32_t)i == MATCH ? MATCH + 1 : (uint32_t)i; break;
        case KEYS_ALTERNATE: keys[i] = i % 2 ? MATCH : MATCH ^ (uint32_t)(i | 1); break;
        default: keys[i] = (rng_next(&s) % 10 < 3) ? MATCH : (uint32_t)rng_next(&s) | 8u; break;
        }
    }
}

static void check_compact(th_case *tc, size_t n, enum key_pattern p, bool with_values)
{
    clirr_error err;
    cl_mem keys = NULL, values = NULL, out = NULL;
    uint32_t *hk = NULL, *hv = NULL, *want = NULL, *got = NULL;
    hk = alloc_u32(n);
    hv = alloc_u32(n);
    want = alloc_u32(n);
    got = alloc_u32(n);
    TH_REQUIRE(tc, hk && hv && want && got, "out of memory");
    make_keys(hk, n, p, SEED + 3 * n + p);
    random_fill(hv, n, SEED ^ (n * 7), 0xffffffffu);
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++)
        if (hk[i] == MATCH)
            want[cnt++] = with_values ? hv[i] : (uint32_t)i;
    TH_OK(tc, upload(tc, hk, n, &keys, &err));
    if (with_values)
        TH_OK(tc, upload(tc, hv, n, &values, &err));
    TH_OK(tc, clirr_buf_create(tc->ctx, "compact out", n * sizeof(uint32_t), &out, &err));
    uint32_t count = 0xdeadbeefu;
    TH_OK(tc, clirr_prim_compact_u32(tc->ctx, keys, MATCH, values, n, out, n, &count, &err));
    TH_REQUIRE(tc, count == cnt, "compact n=%zu keys=%s values=%s: count expected %zu, got %" PRIu32,
               n, pattern_name[p], with_values ? "yes" : "NULL", cnt, count);
    TH_OK(tc, download(tc, out, cnt, got, &err));
    EXPECT_SAME(tc, want, got, cnt, "compact n=%zu keys=%s values=%s", n, pattern_name[p],
                with_values ? "yes" : "NULL");
done:
    clirr_mem_release(&keys);
    clirr_mem_release(&values);
    clirr_mem_release(&out);
    free(hk);
    free(hv);
    free(want);
    free(got);
}

static void test_compact(th_case *tc)
{
    clirr_error err;
    size_list sizes;
    TH_OK(tc, sizes_for(tc, &sizes, false, &err));
    for (size_t t = 0; t < sizes.n && !tc->failed; t++)
        for (int p = 0; p < KEYS_PATTERNS; p++)
            for (int v = 0; v < 2; v++)
                check_compact(tc, sizes.v[t], (enum key_pattern)p, v);
    /* The large sizes (tile^2 +-1, 10^7) with two of the combinations. */
    size_list big;
    TH_OK(tc, sizes_for(tc, &big, true, &err));
    for (size_t t = 0; t < big.n && !tc->failed; t++)
        if (big.v[t] >= 1000000) {
            check_compact(tc, big.v[t], KEYS_RANDOM, true);
            check_compact(tc, big.v[t], KEYS_ALTERNATE, false);
        }
done:;
}

/* Too small an output: the count comes back, out is untouched; exactly
 * enough: written. */
static void test_compact_capacity(th_case *tc)
{
    clirr_error err;
    cl_mem keys = NULL, out = NULL;
    size_t n = 100003;
    uint32_t *hk = alloc_u32(n), *got = alloc_u32(n), *want = alloc_u32(n);
    TH_REQUIRE(tc, hk && got && want, "out of memory");
    make_keys(hk, n, KEYS_RANDOM, SEED);
    size_t cnt = 0;
    for (size_t i = 0; i < n; i++)
        if (hk[i] == MATCH)
            want[cnt++] = (uint32_t)i;
    TH_REQUIRE(tc, cnt > 1, "test data selects %zu", cnt);
    TH_OK(tc, upload(tc, hk, n, &keys, &err));
    TH_OK(tc, clirr_buf_create(tc->ctx, "compact out", cnt * sizeof(uint32_t), &out, &err));
    TH_OK(tc, clirr_prim_fill_u32(tc->ctx, out, 0, cnt, SENTINEL, &err));

    uint32_t count = 0;
    TH_OK(tc, clirr_prim_compact_u32(tc->ctx, keys, MATCH, NULL, n, out, cnt - 1, &count, &err));
    TH_EXPECT(tc, count == cnt, "capacity %zu: count expected %zu, got %" PRIu32, cnt - 1, cnt, count);
    TH_OK(tc, download(tc, out, cnt, got, &err));
    for (size_t i = 0; i < cnt; i++)
        if (got[i] != SENTINEL) {
            TH_EXPECT(tc, false, "capacity too small, yet out written: first mismatch (index %zu, "
                      "expected %" PRIu32 ", got %" PRIu32 ")", i, SENTINEL, got[i]);
            break;
        }

    count = 0;
    TH_OK(tc, clirr_prim_compact_u32(tc->ctx, keys, MATCH, NULL, n, NULL, 0, &count, &err));
    TH_EXPECT(tc, count == cnt, "capacity 0: count expected %zu, got %" PRIu32, cnt, count);

    count = 0;
    TH_OK(tc, clirr_prim_compact_u32(tc->ctx, keys, MATCH, NULL, n, out, cnt, &count, &err));
    TH_EXPECT(tc, count == cnt, "capacity %zu: count expected %zu, got %" PRIu32, cnt, cnt, count);
    TH_OK(tc, download(tc, out, cnt, got, &err));
    EXPECT_SAME(tc, want, got, cnt, "capacity exactly %zu", cnt);

    /* A capacity larger than the buffer is a usage error. */
    int rc = clirr_prim_compact_u32(tc->ctx, keys, MATCH, NULL, n, out, cnt + 1, &count, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "capacity beyond the buffer: got status %d", rc);
done:
    clirr_mem_release(&keys);
    clirr_mem_release(&out);
    free(hk);
    free(got);
    free(want);
}

/* ---- reduction -------------------------------------------------------------- */

static const char *const op_name[] = {"sum", "min", "max"};

static void check_reduce(th_case *tc, size_t n, clirr_reduce_op op, uint32_t mask)
{
    clirr_error err;
    cl_mem in = NULL;
    uint32_t *host = alloc_u32(n);
    TH_REQUIRE(tc, host, "out of memory");
    random_fill(host, n, SEED + n * 31 + op, mask);
    /* Put the extreme somewhere in the middle of a later tile. */
    if (n > 2 && op != CLIRR_REDUCE_SUM)
        host[n - n / 3] = op == CLIRR_REDUCE_MIN ? 0 : mask;
    uint64_t want = op == CLIRR_REDUCE_MIN ? UINT32_MAX : 0;
    for (size_t i = 0; i < n; i++) {
        if (op == CLIRR_REDUCE_SUM)
            want += host[i];
        else if (op == CLIRR_REDUCE_MIN)
            want = host[i] < want ? host[i] : want;
        else
            want = host[i] > want ? host[i] : want;
    }
    TH_OK(tc, upload(tc, host, n, &in, &err));
    uint64_t got = 424242;
    TH_OK(tc, clirr_prim_reduce_u32(tc->ctx, in, n, op, &got, &err));
    TH_EXPECT(tc, got == want, "reduce %s n=%zu mask=%#x: expected %" PRIu64 ", got %" PRIu64,
              op_name[op], n, mask, want, got);
done:
    clirr_mem_release(&in);
    free(host);
}

static void test_reduce(th_case *tc)
{
    clirr_error err;
    size_list sizes;
    TH_OK(tc, sizes_for(tc, &sizes, true, &err));
    for (size_t t = 0; t < sizes.n && !tc->failed; t++)
        for (int op = 0; op < 3; op++) {
            check_reduce(tc, sizes.v[t], (clirr_reduce_op)op, 0xffffffffu);
            check_reduce(tc, sizes.v[t], (clirr_reduce_op)op, 0xfffu);
        }
done:;
}

/* A sum far beyond 2^32: n * (2^32-1). */
static void test_reduce_overflow(th_case *tc)
{
    clirr_error err;
    cl_mem buf = NULL;
    size_t n = 5000011;
    TH_OK(tc, clirr_buf_create(tc->ctx, "reduce", n * sizeof(uint32_t), &buf, &err));
    TH_OK(tc, clirr_prim_fill_u32(tc->ctx, buf, 0, n, UINT32_MAX, &err));
    uint64_t got = 0;
    TH_OK(tc, clirr_prim_reduce_u32(tc->ctx, buf, n, CLIRR_REDUCE_SUM, &got, &err));
    TH_EXPECT(tc, got == (uint64_t)n * UINT32_MAX, "sum expected %" PRIu64 ", got %" PRIu64,
              (uint64_t)n * UINT32_MAX, got);
    TH_OK(tc, clirr_prim_reduce_u32(tc->ctx, buf, n, CLIRR_REDUCE_MIN, &got, &err));
    TH_EXPECT(tc, got == UINT32_MAX, "min expected %" PRIu32 ", got %" PRIu64, UINT32_MAX, got);
done:
    clirr_mem_release(&buf);
}

/* ---- edge cases ---------------------------------------------------------- */

/* n == 0 touches nothing and gives the identities; too large an n or too
 * small a buffer is refused before anything runs. */
static void test_empty_and_limits(th_case *tc)
{
    clirr_error err;
    cl_mem buf = NULL;
    uint32_t got[4], want[4] = {11, 22, 33, 44};
    TH_OK(tc, upload(tc, want, 4, &buf, &err));
    uint64_t total = 99, r = 99;
    uint32_t count = 99;
    TH_OK(tc, clirr_prim_fill_u32(tc->ctx, buf, 2, 0, 5, &err));
    TH_OK(tc, clirr_prim_iota_u32(tc->ctx, buf, 0, 5, &err));
    TH_OK(tc, clirr_prim_scan_u32(tc->ctx, buf, buf, 0, &total, &err));
    TH_EXPECT(tc, total == 0, "scan of nothing: total %" PRIu64, total);
    TH_OK(tc, clirr_prim_compact_u32(tc->ctx, buf, 11, NULL, 0, buf, 0, &count, &err));
    TH_EXPECT(tc, count == 0, "compaction of nothing: count %" PRIu32, count);
    TH_OK(tc, clirr_prim_reduce_u32(tc->ctx, buf, 0, CLIRR_REDUCE_SUM, &r, &err));
    TH_EXPECT(tc, r == 0, "sum of nothing: %" PRIu64, r);
    TH_OK(tc, clirr_prim_reduce_u32(tc->ctx, buf, 0, CLIRR_REDUCE_MIN, &r, &err));
    TH_EXPECT(tc, r == UINT32_MAX, "min of nothing: %" PRIu64, r);
    TH_OK(tc, clirr_prim_reduce_u32(tc->ctx, buf, 0, CLIRR_REDUCE_MAX, &r, &err));
    TH_EXPECT(tc, r == 0, "max of nothing: %" PRIu64, r);
    TH_OK(tc, download(tc, buf, 4, got, &err));
    EXPECT_SAME(tc, want, got, 4, "buffer changed by n=0 calls");

    size_t huge = (size_t)UINT32_MAX + 1;
    int rc = clirr_prim_scan_u32(tc->ctx, buf, buf, huge, &total, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_TOO_LARGE, "scan of 2^32: status %d", rc);
    rc = clirr_prim_reduce_u32(tc->ctx, buf, huge, CLIRR_REDUCE_SUM, &r, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_TOO_LARGE, "reduce of 2^32: status %d", rc);
    rc = clirr_prim_compact_u32(tc->ctx, buf, 1, NULL, huge, NULL, 0, &count, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_TOO_LARGE, "compact of 2^32: status %d", rc);
    rc = clirr_prim_fill_u32(tc->ctx, buf, 0, huge, 0, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_TOO_LARGE, "fill of 2^32: status %d", rc);
    rc = clirr_prim_scan_u32(tc->ctx, buf, buf, 1000, &total, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "scan beyond the buffer: status %d", rc);
    rc = clirr_prim_fill_u32(tc->ctx, buf, 3, 1000, 0, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "fill beyond the buffer: status %d", rc);
done:
    clirr_mem_release(&buf);
}

/* Indices past 2^31 (where a signed int would break): only where one buffer
 * of 2^31 + 2^20 + 7 elements (8 GiB) fits twice. Generated and checked on
 * the device side as far as possible; samples are read back. */
static void test_beyond_2g(th_case *tc)
{
    clirr_error err;
    cl_mem a = NULL, b = NULL;
    const size_t n = ((size_t)1 << 31) + ((size_t)1 << 20) + 7;
    const clirr_caps *c = clirr_ctx_caps(tc->ctx);
    if (c->max_alloc < n * 4 || c->global_mem < 3 * n * 4) {
        th_skip(tc, "needs 2 buffers of %zu MiB; device allows %" PRIu64 " MiB per buffer, %"
                PRIu64 " MiB in all", n * 4 >> 20, c->max_alloc >> 20, c->global_mem >> 20);
        return;
    }
    TH_OK(tc, clirr_buf_create(tc->ctx, "big a", n * 4, &a, &err));
    TH_OK(tc, clirr_buf_create(tc->ctx, "big b", n * 4, &b, &err));
    TH_OK(tc, clirr_prim_fill_u32(tc->ctx, a, 0, n, 1, &err));
    uint64_t r = 0;
    TH_OK(tc, clirr_prim_reduce_u32(tc->ctx, a, n, CLIRR_REDUCE_SUM, &r, &err));
    TH_EXPECT(tc, r == n, "sum of ones: expected %zu, got %" PRIu64, n, r);
    uint32_t count = 0;
    TH_OK(tc, clirr_prim_compact_u32(tc->ctx, a, 1, NULL, n, b, n, &count, &err));
    TH_EXPECT(tc, count == (uint32_t)n, "compact all: count expected %zu, got %" PRIu32, n, count);
    uint64_t total = 0;
    TH_OK(tc, clirr_prim_scan_u32(tc->ctx, a, a, n, &total, &err));
    TH_EXPECT(tc, total == n, "scan of ones: total expected %zu, got %" PRIu64, n, total);
    /* Both a (scan of ones) and b (compacted indices) now hold i at i. */
    static const size_t probes[] = {0, 1, ((size_t)1 << 31) - 1, (size_t)1 << 31,
                                    ((size_t)1 << 31) + 1, ((size_t)1 << 31) + 4097};
    cl_mem bufs[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        for (size_t p = 0; p < sizeof probes / sizeof probes[0] + 1; p++) {
            size_t at = p < sizeof probes / sizeof probes[0] ? probes[p] : n - 64;
            uint32_t got[64];
            TH_OK(tc, clirr_buf_read(tc->ctx, bufs[k], at * 4, sizeof got, got, &err));
            for (size_t i = 0; i < 64; i++)
                if (got[i] != (uint32_t)(at + i)) {
                    TH_EXPECT(tc, false, "%s: first mismatch (index %zu, expected %" PRIu32
                              ", got %" PRIu32 ")", k ? "compact" : "scan", at + i,
                              (uint32_t)(at + i), got[i]);
                    break;
                }
        }
    }
    TH_OK(tc, clirr_prim_iota_u32(tc->ctx, a, n, 0, &err));
    TH_OK(tc, clirr_prim_reduce_u32(tc->ctx, a, n, CLIRR_REDUCE_MAX, &r, &err));
    TH_EXPECT(tc, r == n - 1, "max of iota: expected %zu, got %" PRIu64, n - 1, r);
done:
    clirr_mem_release(&a);
    clirr_mem_release(&b);
}

/* ---- nothing built in timed code ---------------------------------------- */

/* After clirr_prim_prepare on a fresh context, every primitive runs
 * without building a program or creating a kernel: build_ns stays 0 and
 * the cache counters do not move. The work is timed under the kernels'
 * names. */
static void test_prepared(th_case *tc)
{
    enum { N = 100000 };
    clirr_error err;
    clirr_ctx *ctx = NULL;
    cl_mem in = NULL, out = NULL, keys = NULL, dbl = NULL;
    uint32_t *host = alloc_u32(N);
    clirr_timing *t = calloc(1, sizeof *t);
    clirr_cache_stats before, after;
    TH_REQUIRE(tc, host && t, "out of memory");
    TH_OK(tc, clirr_ctx_create(tc->device, &ctx, &err));
    TH_OK(tc, clirr_prim_prepare(ctx, &err));
    clirr_ctx_cache_stats(ctx, &before);
    TH_EXPECT(tc, before.source_builds + before.binary_loads == 1 && before.kernels_created >= 12,
              "prepare: %u builds, %u loads, %u kernels", before.source_builds, before.binary_loads,
              before.kernels_created);
    TH_OK(tc, clirr_buf_create(ctx, "in", N * sizeof(uint32_t), &in, &err));
    TH_OK(tc, clirr_buf_create(ctx, "out", N * sizeof(uint32_t), &out, &err));
    TH_OK(tc, clirr_buf_create(ctx, "keys", N * sizeof(uint32_t), &keys, &err));
    TH_OK(tc, clirr_buf_create(ctx, "doubles", N * sizeof(double), &dbl, &err));
    random_fill(host, N, SEED, 3);
    TH_OK(tc, clirr_buf_write(ctx, keys, 0, N * sizeof *host, host, &err));
    TH_OK(tc, clirr_prim_fill_u32(ctx, dbl, 0, 2 * (size_t)N, 0, &err)); /* 0.0 */

    clirr_ctx_timing_reset(ctx);
    uint64_t total = 0, r = 0;
    uint32_t count = 0;
    TH_OK(tc, clirr_prim_fill_u32(ctx, in, 0, N, 2, &err));
    TH_OK(tc, clirr_prim_iota_u32(ctx, out, N, 0, &err));
    TH_OK(tc, clirr_prim_scan_u32(ctx, in, out, N, &total, &err));
    TH_OK(tc, clirr_prim_scan_u32(ctx, out, out, N, NULL, &err));
    TH_OK(tc, clirr_prim_compact_u32(ctx, keys, 1, in, N, out, N, &count, &err));
    TH_OK(tc, clirr_prim_compact_u32(ctx, keys, 2, NULL, N, out, N, &count, &err));
    TH_OK(tc, clirr_prim_compact_u32(ctx, keys, 2, NULL, 100, out, N, &count, &err));
    for (int op = CLIRR_REDUCE_SUM; op <= CLIRR_REDUCE_MAX; op++)
        TH_OK(tc, clirr_prim_reduce_u32(ctx, keys, N, (clirr_reduce_op)op, &r, &err));
    if (clirr_ctx_caps(ctx)->fp64) {
        double sum = 0;
        TH_OK(tc, clirr_prim_sum_f64(ctx, dbl, N, &sum, &err));
    }
    TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
    clirr_ctx_cache_stats(ctx, &after);
    TH_EXPECT(tc, total == 2 * (uint64_t)N, "scan total %" PRIu64, total);
    TH_EXPECT(tc, t->build_ns == 0, "%" PRIu64 " ns of builds in primitives after prepare", t->build_ns);
    TH_EXPECT(tc, after.source_builds == before.source_builds && after.binary_loads == before.binary_loads &&
                      after.kernels_created == before.kernels_created,
              "built %u, loaded %u, created %u kernels after prepare",
              after.source_builds - before.source_builds, after.binary_loads - before.binary_loads,
              after.kernels_created - before.kernels_created);
    bool scan_timed = false, compact_timed = false;
    for (size_t i = 0; i < t->nkernels; i++) {
        scan_timed |= !strcmp(t->kernels[i].name, "prim_scan_tiles") && t->kernels[i].launches == 1;
        compact_timed |= !strcmp(t->kernels[i].name, "prim_compact_tiles") && t->kernels[i].launches == 3;
    }
    TH_EXPECT(tc, scan_timed && compact_timed, "per-kernel times lack prim_scan_tiles x1 or "
              "prim_compact_tiles x3 (%zu rows)", t->nkernels);
done:
    clirr_mem_release(&in);
    clirr_mem_release(&out);
    clirr_mem_release(&keys);
    clirr_mem_release(&dbl);
    clirr_ctx_release(ctx);
    free(host);
    free(t);
}

TH_REGISTER(register_prim_tests)
{
    th_add_device("prim/fill", test_fill, NULL);
    th_add_device("prim/iota", test_iota, NULL);
    th_add_device("prim/scan", test_scan, NULL);
    th_add_device("prim/scan_inplace", test_scan_inplace, NULL);
    th_add_device("prim/scan_total_64bit", test_scan_total_64bit, NULL);
    th_add_device("prim/compact", test_compact, NULL);
    th_add_device("prim/compact_capacity", test_compact_capacity, NULL);
    th_add_device("prim/reduce", test_reduce, NULL);
    th_add_device("prim/reduce_overflow", test_reduce_overflow, NULL);
    th_add_device("prim/empty_and_limits", test_empty_and_limits, NULL);
    th_add_device("prim/beyond_2g", test_beyond_2g, NULL);
    th_add_device("prim/prepared", test_prepared, NULL);
}
