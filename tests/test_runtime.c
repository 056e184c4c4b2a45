/* tests/test_runtime.c - the runtime: error names, device selection,
 * include expansion, capability sanity, program builds, the binary cache
 * (a corrupted entry is rebuilt, never trusted), allocation limits, the
 * checked argument count of kernels, per-kernel times, uploads, huge
 * pages for CPU devices' buffers. */
#include "harness.h"
#include "runtime/runtime.h"
#include "runtime/source.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void errname(th_case *tc)
{
    TH_EXPECT(tc, !strcmp(clirr_cl_errname(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES"), "-5");
    TH_EXPECT(tc, !strcmp(clirr_cl_errname(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE"), "-11");
    TH_EXPECT(tc, !strcmp(clirr_cl_errname(-9999), "unknown OpenCL error"), "-9999");
    clirr_error err;
    int rc = clirr_cl_fail(&err, CL_INVALID_VALUE, "clFoo(a, b)", "dir/x.c", 12);
    TH_EXPECT(tc, rc == CLIRR_ERR_OPENCL, "status %d", rc);
    TH_EXPECT(tc, strstr(err.msg, "clFoo failed: CL_INVALID_VALUE") && strstr(err.msg, "x.c:12"),
              "message '%s'", err.msg);
    TH_EXPECT(tc, clirr_status_exit_code(CLIRR_ERR_INPUT) == 2 &&
                      clirr_status_exit_code(CLIRR_ERR_UNSUPPORTED) == 2 &&
                      clirr_status_exit_code(CLIRR_ERR_OPENCL) == 3 &&
                      clirr_status_exit_code(CLIRR_ERR_TOO_LARGE) == 2 &&
                      clirr_status_exit_code(CLIRR_ERR_VERIFY) == 1,
              "exit codes");
}

static void fake_device(clirr_device *d, unsigned index, const char *name, bool gpu)
{
    memset(d, 0, sizeof *d);
    d->index = index;
    snprintf(d->caps.name, sizeof d->caps.name, "%s", name);
    snprintf(d->caps.platform, sizeof d->caps.platform, "%s", gpu ? "Fake GPU" : "Fake CPU");
    snprintf(d->caps.vendor, sizeof d->caps.vendor, "Acme");
    d->caps.is_gpu = gpu;
    d->caps.is_cpu = !gpu;
}

static void selection(th_case *tc)
{
    clirr_device devs[3];
    fake_device(&devs[0], 0, "pthread-cpu", false);
    fake_device(&devs[1], 1, "Big GPU 80GB", true);
    fake_device(&devs[2], 2, "Other CPU", false);
    size_t picked[3], n = 0;
    clirr_error err;
    TH_OK(tc, clirr_device_select(devs, 3, "all", picked, &n, &err));
    TH_EXPECT(tc, n == 3, "all picked %zu", n);
    TH_OK(tc, clirr_device_select(devs, 3, "auto", picked, &n, &err));
    TH_EXPECT(tc, n == 1 && picked[0] == 1, "auto should pick the GPU");
    TH_OK(tc, clirr_device_select(devs, 3, "cpu", picked, &n, &err));
    TH_EXPECT(tc, n == 2 && picked[0] == 0 && picked[1] == 2, "cpu picked %zu", n);
    TH_OK(tc, clirr_device_select(devs, 3, "2,0", picked, &n, &err));
    TH_EXPECT(tc, n == 2 && picked[0] == 2 && picked[1] == 0, "indices");
    TH_OK(tc, clirr_device_select(devs, 3, "big gpu", picked, &n, &err));
    TH_EXPECT(tc, n == 1 && picked[0] == 1, "substring, case-insensitive");
    TH_EXPECT(tc, clirr_device_select(devs, 3, "7", picked, &n, &err) == CLIRR_ERR_USAGE &&
                      strstr(err.msg, "no device 7"),
              "index out of range: '%s'", err.msg);
    TH_EXPECT(tc, clirr_device_select(devs, 3, "nvidia", picked, &n, &err) == CLIRR_ERR_USAGE &&
                      strstr(err.msg, "matches none"),
              "no match: '%s'", err.msg);
    setenv("CLIRR_DEVICE", "other", 1);
    TH_OK(tc, clirr_device_select(devs, 3, NULL, picked, &n, &err));
    TH_EXPECT(tc, n == 1 && picked[0] == 2, "CLIRR_DEVICE");
done:
    unsetenv("CLIRR_DEVICE");
}

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

static void includes(th_case *tc)
{
    char root[512], path[600];
    char *out = NULL;
    clirr_error err;
    snprintf(root, sizeof root, "%s/inc", th_tmp_dir());
    mkdir(root, 0755);
    snprintf(path, sizeof path, "%s/a.clh", root);
    TH_REQUIRE(tc, write_text(path, "int a;\n#include \"b.clh\"\n"), "write a.clh");
    snprintf(path, sizeof path, "%s/b.clh", root);
    TH_REQUIRE(tc, write_text(path, "int b;\n"), "write b.clh");
    snprintf(path, sizeof path, "%s/loop.clh", root);
    TH_REQUIRE(tc, write_text(path, "#include \"loop.clh\"\n"), "write loop.clh");
    TH_OK(tc, clirr_source_expand(root, "main.cl", "#include \"a.clh\"\n  #  include \"b.clh\"\nint main_;\n", &out, &err));
    /* a (which includes b), then b again (as cpp would), then main's text. */
    const char *pa = strstr(out, "int a;"), *pb = strstr(out, "int b;"), *pm = strstr(out, "int main_;");
    TH_REQUIRE(tc, pa && pb && pm && pa < pb && pb < pm, "expansion order wrong:\n%s", out);
    TH_EXPECT(tc, strstr(pb + 1, "int b;") && strstr(pb + 1, "int b;") < pm, "the second include of b.clh is missing");
    TH_EXPECT(tc, strstr(out, "#line 1 \"a.clh\"") && strstr(out, "#line 3 \"main.cl\""),
              "missing #line markers:\n%s", out);
    free(out);
    out = NULL;
    TH_EXPECT(tc, clirr_source_expand(root, "m.cl", "x\n#include \"missing.clh\"\n", &out, &err) == CLIRR_ERR_IO &&
                      strstr(err.msg, "m.cl:2") && strstr(err.msg, "missing.clh"),
              "missing include: '%s'", err.msg);
    free(out);
    out = NULL;
    TH_EXPECT(tc, clirr_source_expand(root, "c.cl", "#include \"loop.clh\"\n", &out, &err) == CLIRR_ERR_IO &&
                      strstr(err.msg, "cycle"),
              "include cycle: '%s'", err.msg);
done:
    free(out);
}

static void caps_sane(th_case *tc)
{
    const clirr_caps *c = &tc->device->caps;
    TH_EXPECT(tc, c->cl_major >= 1 && c->c_major >= 1, "versions %d / %d", c->cl_major, c->c_major);
    TH_EXPECT(tc, c->simd_width >= 1 && c->max_wg_size >= 1 && c->compute_units >= 1,
              "simd %u wg %zu cu %u", c->simd_width, c->max_wg_size, c->compute_units);
    TH_EXPECT(tc, c->max_alloc > 0 && c->max_alloc <= c->global_mem, "alloc %llu global %llu",
              (unsigned long long)c->max_alloc, (unsigned long long)c->global_mem);
    TH_EXPECT(tc, c->local_mem >= 1024, "local memory %llu", (unsigned long long)c->local_mem);
    TH_EXPECT(tc, !c->device_enqueue || c->c_2_0 || c->c_3_0, "device enqueue without OpenCL C 2.0+");
    TH_EXPECT(tc, c->is_cpu || c->is_gpu || c->is_accelerator, "no device type");
}

static void too_large(th_case *tc)
{
    clirr_error err;
    cl_mem m = NULL;
    size_t bytes = (size_t)tc->device->caps.max_alloc + 4096;
    int rc = clirr_buf_create(tc->ctx, "a test buffer", bytes, &m, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_TOO_LARGE && strstr(err.msg, "CL_DEVICE_MAX_MEM_ALLOC_SIZE") &&
                      strstr(err.msg, "a test buffer"),
              "rc %d '%s'", rc, err.msg);
    clirr_mem_release(&m);
}

static void build_failure(th_case *tc)
{
    clirr_error err;
    cl_program p = NULL;
    int rc = clirr_program_build_source(tc->ctx, "broken.cl",
                                        "__kernel void k(__global int *x) { x[0] = undefined_name; }\n",
                                        "", &p, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_OPENCL && strstr(err.msg, "broken.cl") &&
                      strstr(err.msg, "build log") && strstr(err.msg, "options:"),
              "rc %d '%s'", rc, err.msg);
    if (p)
        clReleaseProgram(p);
}

/* The one entry file in dir (a fresh cache folder). */
static bool only_entry(const char *dir, char *path, size_t size)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return false;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strstr(e->d_name, ".bin")) {
            snprintf(path, size, "%s/%s", dir, e->d_name);
            n++;
        }
    closedir(d);
    return n == 1;
}

/* Build through a fresh cache, load from it, then corrupt the entry in two
 * ways: each time the next context must reject it and build from source. */
static void binary_cache(th_case *tc)
{
    static unsigned serial;
    char dir[512], entry[1024];
    clirr_error err;
    clirr_ctx *ctx = NULL;
    cl_program p = NULL;
    cl_kernel k = NULL;
    clirr_cache_stats st;
    char *old = getenv("CLIRR_CACHE_DIR") ? strdup(getenv("CLIRR_CACHE_DIR")) : NULL;
    snprintf(dir, sizeof dir, "%s/cache-%u-%u", th_tmp_dir(), tc->device->index, serial++);
    setenv("CLIRR_CACHE_DIR", dir, 1);
    const char *src = "__kernel void twice(__global uint *x) { x[get_global_id(0)] *= 2u; }\n";

    for (int round = 0; round < 4; round++) {
        TH_OK(tc, clirr_ctx_create(tc->device, &ctx, &err));
        TH_OK(tc, clirr_program_build_source(ctx, "cache-test.cl", src, "", &p, &err));
        TH_OK(tc, clirr_kernel_create(ctx, p, "twice", &k, &err));
        clirr_ctx_cache_stats(ctx, &st);
        if (round == 0)
            TH_REQUIRE(tc, st.source_builds == 1 && st.stored == 1, "first build: built %u stored %u",
                       st.source_builds, st.stored);
        else if (round == 1)
            TH_REQUIRE(tc, st.binary_loads == 1 && st.source_builds == 0, "second build should load the binary");
        else
            TH_REQUIRE(tc, st.rejected == 1 && st.source_builds == 1 && st.stored == 1,
                       "corrupted entry (round %d): rejected %u built %u stored %u", round,
                       st.rejected, st.source_builds, st.stored);
        clirr_kernel_release(&k);
        clReleaseProgram(p);
        p = NULL;
        clirr_ctx_release(ctx);
        ctx = NULL;
        TH_REQUIRE(tc, only_entry(dir, entry, sizeof entry), "expected one cache entry in %s", dir);
        struct stat sb;
        TH_REQUIRE(tc, stat(entry, &sb) == 0, "stat %s", entry);
        if (round == 1) { /* flip a byte in the middle of the binary */
            FILE *f = fopen(entry, "r+b");
            TH_REQUIRE(tc, f, "open %s", entry);
            fseek(f, sb.st_size / 2 + 20, SEEK_SET);
            int ch = fgetc(f);
            fseek(f, sb.st_size / 2 + 20, SEEK_SET);
            fputc(ch ^ 0x5a, f);
            fclose(f);
        } else if (round == 2) { /* truncate it */
            TH_REQUIRE(tc, truncate(entry, sb.st_size / 3) == 0, "truncate");
        }
    }
done:
    clirr_kernel_release(&k);
    if (p)
        clReleaseProgram(p);
    clirr_ctx_release(ctx);
    if (old) {
        setenv("CLIRR_CACHE_DIR", old, 1);
        free(old);
    } else {
        unsetenv("CLIRR_CACHE_DIR");
    }
}

/* A kernel whose argument count disagrees with the host's is refused,
 * with a message naming it and both counts. */
static void kernel_checked(th_case *tc)
{
    clirr_error err;
    cl_program p = NULL;
    cl_kernel k = NULL;
    cl_uint nargs = 0;
    TH_OK(tc, clirr_program_build_source(tc->ctx, "nargs-test.cl",
                                         "__kernel void three_args(__global uint *a, const uint b, "
                                         "const uint c) { a[0] = b + c; }\n",
                                         "", &p, &err));
    int rc = clirr_kernel_get_checked(tc->ctx, p, "three_args", 2, &k, &err);
    TH_EXPECT(tc, rc == CLIRR_ERR_OPENCL && k == NULL && strstr(err.msg, "three_args") &&
                      strstr(err.msg, "takes 3 arguments") && strstr(err.msg, "binds 2"),
              "rc %d '%s'", rc, err.msg);
    TH_OK(tc, clirr_kernel_get_checked(tc->ctx, p, "three_args", 3, &k, &err));
    TH_OK(tc, clirr_kernel_num_args(tc->ctx, k, &nargs, &err));
    TH_EXPECT(tc, k && nargs == 3, "kernel %p, %u arguments", (void *)k, nargs);
done:
    /* The context keeps the kernel, which keeps the program alive. */
    if (p)
        clReleaseProgram(p);
}

/* Kernels k00, k01, ... (count of them), each adding 1 to x[0..n). */
static char *numbered_kernels(unsigned count)
{
    size_t size = (size_t)count * 160 + 1;
    char *src = malloc(size), *at = src;
    if (!src)
        return NULL;
    for (unsigned i = 0; i < count; i++)
        at += sprintf(at, "__kernel void k%02u(__global uint *x, const uint n) "
                          "{ uint i = get_global_id(0); if (i < n) x[i] += %uu; }\n",
                      i, i + 1);
    return src;
}

static const clirr_kernel_time *time_row(const clirr_timing *t, const char *name)
{
    for (size_t i = 0; i < t->nkernels; i++)
        if (!strcmp(t->kernels[i].name, name))
            return &t->kernels[i];
    return NULL;
}

static uint64_t rows_ns(const clirr_timing *t)
{
    uint64_t ns = 0;
    for (size_t i = 0; i < t->nkernels; i++)
        ns += t->kernels[i].ns;
    return ns;
}

/* Launches and device copies are timed by name, in order of first
 * launch, adding up to kernel_ns; past the table's size names share the
 * last row, "other"; a report resets the table. */
static void kernel_times(th_case *tc)
{
    enum { NK = CLIRR_MAX_TIMED_KERNELS + 3, N = 256 };
    clirr_error err;
    clirr_ctx *ctx = tc->ctx;
    cl_program p = NULL;
    cl_mem a = NULL, b = NULL;
    cl_kernel ks[NK];
    char *src = numbered_kernels(NK);
    uint32_t host[N];
    clirr_timing *t = calloc(1, sizeof *t);
    TH_REQUIRE(tc, src && t, "out of memory");
    TH_OK(tc, clirr_program_build_source(ctx, "timing-test.cl", src, "", &p, &err));
    TH_OK(tc, clirr_buf_create(ctx, "a", N * sizeof(uint32_t), &a, &err));
    TH_OK(tc, clirr_buf_create(ctx, "b", N * sizeof(uint32_t), &b, &err));
    cl_uint n = N;
    for (unsigned i = 0; i < NK; i++) {
        char name[8];
        snprintf(name, sizeof name, "k%02u", i);
        TH_OK(tc, clirr_kernel_get_checked(ctx, p, name, 2, &ks[i], &err));
        TH_OK(tc, clirr_arg(ks[i], 0, sizeof a, &a, &err));
        TH_OK(tc, clirr_arg(ks[i], 1, sizeof n, &n, &err));
    }
    memset(host, 0, sizeof host);

    clirr_ctx_timing_reset(ctx);
    TH_OK(tc, clirr_buf_write(ctx, a, 0, sizeof host, host, &err));
    for (int r = 0; r < 3; r++)
        TH_OK(tc, clirr_launch(ctx, ks[0], N, 0, &err));
    TH_OK(tc, clirr_buf_copy(ctx, a, 0, b, 0, sizeof host, &err));
    for (int r = 0; r < 2; r++)
        TH_OK(tc, clirr_launch(ctx, ks[1], N, 0, &err));
    TH_OK(tc, clirr_buf_read(ctx, b, 0, sizeof host, host, &err));
    TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
    TH_EXPECT(tc, host[0] == 3 && host[N - 1] == 3, "copied %u, %u: expected 3 (k00 three times)",
              host[0], host[N - 1]);
    TH_REQUIRE(tc, t->nkernels == 3, "%zu rows, expected k00, copy, k01", t->nkernels);
    TH_EXPECT(tc, !strcmp(t->kernels[0].name, "k00") && t->kernels[0].launches == 3, "row 0: %s x%llu",
              t->kernels[0].name, (unsigned long long)t->kernels[0].launches);
    TH_EXPECT(tc, !strcmp(t->kernels[1].name, "copy") && t->kernels[1].launches == 1, "row 1: %s x%llu",
              t->kernels[1].name, (unsigned long long)t->kernels[1].launches);
    TH_EXPECT(tc, !strcmp(t->kernels[2].name, "k01") && t->kernels[2].launches == 2, "row 2: %s x%llu",
              t->kernels[2].name, (unsigned long long)t->kernels[2].launches);
    TH_EXPECT(tc, rows_ns(t) == t->kernel_ns && t->kernel_ns > 0, "rows sum to %llu, kernel_ns %llu",
              (unsigned long long)rows_ns(t), (unsigned long long)t->kernel_ns);
    TH_EXPECT(tc, t->launches == 5 && t->transfers == 2 && t->build_ns == 0,
              "launches %llu transfers %llu build_ns %llu", (unsigned long long)t->launches,
              (unsigned long long)t->transfers, (unsigned long long)t->build_ns);

    /* The report reset everything. */
    TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
    TH_EXPECT(tc, t->nkernels == 0 && t->kernel_ns == 0 && t->launches == 0 && t->transfers == 0,
              "after a report: %zu rows, %llu ns", t->nkernels, (unsigned long long)t->kernel_ns);

    /* More names than rows: k00..k46 get their own, the rest "other";
     * a name seen again keeps its row. */
    for (unsigned i = 0; i < NK; i++)
        TH_OK(tc, clirr_launch(ctx, ks[i], N, 0, &err));
    TH_OK(tc, clirr_launch(ctx, ks[0], N, 0, &err));
    TH_OK(tc, clirr_launch(ctx, ks[NK - 1], N, 0, &err));
    TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
    TH_REQUIRE(tc, t->nkernels == CLIRR_MAX_TIMED_KERNELS, "%zu rows", t->nkernels);
    const clirr_kernel_time *other = &t->kernels[CLIRR_MAX_TIMED_KERNELS - 1];
    TH_EXPECT(tc, !strcmp(other->name, "other") && other->launches == NK - (CLIRR_MAX_TIMED_KERNELS - 1) + 1,
              "last row %s x%llu", other->name, (unsigned long long)other->launches);
    const clirr_kernel_time *k0 = time_row(t, "k00"), *k46 = time_row(t, "k46");
    TH_EXPECT(tc, k0 == &t->kernels[0] && k0->launches == 2 && k46 && k46->launches == 1 &&
                      !time_row(t, "k47"),
              "k00 %p x%llu, k46 %p", (void *)k0, k0 ? (unsigned long long)k0->launches : 0ull, (void *)k46);
    TH_EXPECT(tc, rows_ns(t) == t->kernel_ns && t->launches == NK + 2, "rows %llu ns of %llu, launches %llu",
              (unsigned long long)rows_ns(t), (unsigned long long)t->kernel_ns,
              (unsigned long long)t->launches);

    /* Kernel timing off: the same work runs (k00 three more times, then
     * the copy) and is counted, but no launch or copy is timed; on again,
     * the rows come back. */
    clirr_ctx_set_kernel_timing(ctx, false);
    TH_EXPECT(tc, !clirr_ctx_kernel_timing(ctx), "kernel timing still on");
    memset(host, 0, sizeof host);
    TH_OK(tc, clirr_buf_write(ctx, a, 0, sizeof host, host, &err));
    for (int r = 0; r < 3; r++)
        TH_OK(tc, clirr_launch(ctx, ks[0], N, 0, &err));
    TH_OK(tc, clirr_buf_copy(ctx, a, 0, b, 0, sizeof host, &err));
    TH_OK(tc, clirr_buf_read(ctx, b, 0, sizeof host, host, &err));
    TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
    clirr_ctx_set_kernel_timing(ctx, true);
    TH_EXPECT(tc, host[0] == 3 && host[N - 1] == 3, "untimed: copied %u, %u: expected 3", host[0], host[N - 1]);
    TH_EXPECT(tc, t->nkernels == 0 && t->kernel_ns == 0 && t->launches == 3 && t->transfers == 2,
              "untimed: %zu rows, %llu ns, %llu launches, %llu transfers", t->nkernels,
              (unsigned long long)t->kernel_ns, (unsigned long long)t->launches, (unsigned long long)t->transfers);
    TH_OK(tc, clirr_launch(ctx, ks[0], N, 0, &err));
    TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
    TH_EXPECT(tc, t->nkernels == 1 && t->kernels[0].launches == 1, "timed again: %zu rows", t->nkernels);
done:
    clirr_ctx_set_kernel_timing(ctx, true);
    clirr_mem_release(&a);
    clirr_mem_release(&b);
    if (p)
        clReleaseProgram(p);
    free(src);
    free(t);
}

/* Uploads staged through pinned memory arrive whole: a copy of two and a
 * bit staging buffers at an odd offset, read back word for word, each
 * mode counting its bytes and one transfer; so do the reads. */
static void uploads(th_case *tc)
{
    clirr_error err;
    clirr_ctx *ctx = tc->ctx;
    const size_t words = (70u << 20) / 4 + 3, skip = 5; /* 70 MiB: 2 stages and more */
    uint32_t *host = malloc(words * 4), *back = malloc(words * 4);
    cl_mem buf = NULL;
    clirr_timing *t = calloc(1, sizeof *t);
    TH_REQUIRE(tc, host && back && t, "out of memory");
    TH_OK(tc, clirr_buf_create(ctx, "upload", (words + skip) * 4, &buf, &err));
    const clirr_upload_mode modes[] = {CLIRR_UPLOAD_PINNED, CLIRR_UPLOAD_PAGEABLE};
    for (unsigned m = 0; m < 2; m++) {
        for (size_t i = 0; i < words; i++)
            host[i] = (uint32_t)(i * 2654435761u) ^ m;
        clirr_ctx_set_upload_mode(ctx, modes[m]);
        TH_EXPECT(tc, clirr_ctx_uploads_pinned(ctx) == (m == 0), "mode %u", m);
        clirr_ctx_timing_reset(ctx);
        TH_OK(tc, clirr_buf_write(ctx, buf, skip * 4, words * 4, host, &err));
        TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
        TH_EXPECT(tc, t->upload_bytes == words * 4 && t->transfers == 1 && t->transfer_ns > 0 &&
                          t->upload_pinned_bytes == (m == 0 ? words * 4 : 0),
                  "mode %u: %llu bytes (%llu pinned), %llu transfers", m, (unsigned long long)t->upload_bytes,
                  (unsigned long long)t->upload_pinned_bytes, (unsigned long long)t->transfers);
        /* Reads: on a CPU device a large one maps the buffer and copies on
         * several threads (CLIRR_HOST_THREADS=8: 4 of them), else one read
         * (2: one thread); each arrives whole as one transfer. */
        static const char *const threads[] = {"8", "2"};
        for (unsigned r = 0; r < 2; r++) {
            setenv("CLIRR_HOST_THREADS", threads[r], 1);
            memset(back, 0, words * 4);
            clirr_ctx_timing_reset(ctx);
            TH_OK(tc, clirr_buf_read(ctx, buf, skip * 4, words * 4, back, &err));
            TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
            TH_EXPECT(tc, t->transfers == 1 && t->transfer_ns > 0, "mode %u, %s threads: %llu transfers", m,
                      threads[r], (unsigned long long)t->transfers);
            size_t bad = 0;
            while (bad < words && back[bad] == host[bad])
                bad++;
            TH_EXPECT(tc, bad == words, "mode %u, %s threads: word %zu of %zu differs", m, threads[r], bad, words);
        }
        unsetenv("CLIRR_HOST_THREADS");
    }
    clirr_ctx_set_upload_mode(ctx, CLIRR_UPLOAD_AUTO);
    TH_EXPECT(tc, clirr_ctx_uploads_pinned(ctx) == !clirr_ctx_caps(ctx)->host_unified, "auto");
done:
    unsetenv("CLIRR_HOST_THREADS");
    clirr_ctx_set_upload_mode(ctx, CLIRR_UPLOAD_AUTO);
    clirr_mem_release(&buf);
    free(host);
    free(back);
    free(t);
}

/* Whether the system may give huge pages (Linux THP "always" or
 * "madvise"). */
static bool thp_available(void)
{
    char line[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f)
        return false;
    bool ok = fgets(line, sizeof line, f) && !strstr(line, "[never]");
    fclose(f);
    return ok;
}

/* The kernel's THPeligible flag of the mapping holding p: 1 or 0, -1 when
 * /proc/self/smaps does not say. */
static int thp_eligible(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    bool inside = false;
    int flag = -1;
    while (flag < 0 && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        else if (inside && sscanf(line, "THPeligible: %d", &flag) == 1)
            break;
    }
    fclose(f);
    return flag;
}

/* Huge pages for CPU devices' buffers: on a device working in the host's
 * memory, a buffer of 2 MiB or more lives in host memory of clirr's own,
 * 2 MiB-aligned and eligible for huge pages where the system has them, and
 * its bytes are counted; a smaller one, every one with huge pages off, and
 * every one on a device with memory of its own is the runtime's. Data
 * round-trips either way. */
static void huge_pages(th_case *tc)
{
    clirr_error err;
    clirr_ctx *ctx = tc->ctx;
    const size_t huge = (size_t)2 << 20, big = 3 * huge + 12, small = huge / 2;
    const size_t words = big / 4;
    cl_mem buf[2] = {NULL, NULL};
    uint32_t *host = malloc(big), *back = malloc(big);
    clirr_timing *t = calloc(1, sizeof *t);
    TH_REQUIRE(tc, host && back && t, "out of memory");
    /* (the library's condition: an OS with MADV_HUGEPAGE) */
#ifdef MADV_HUGEPAGE
    const bool able = clirr_ctx_caps(ctx)->host_unified;
#else
    const bool able = false;
#endif
    TH_EXPECT(tc, clirr_ctx_huge_pages(ctx) == able, "huge pages %d by default, want %d",
              clirr_ctx_huge_pages(ctx), able);
    for (int on = 1; on >= 0; on--) {
        clirr_ctx_set_huge_pages(ctx, on);
        const bool want = on && able;
        TH_EXPECT(tc, clirr_ctx_huge_pages(ctx) == want, "on %d: huge pages %d", on, clirr_ctx_huge_pages(ctx));
        clirr_ctx_timing_reset(ctx);
        TH_OK(tc, clirr_buf_create(ctx, "huge-pages test", big, &buf[0], &err));
        TH_OK(tc, clirr_buf_create(ctx, "huge-pages test", small, &buf[1], &err));
        TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
        TH_EXPECT(tc, t->huge_page_bytes == (want ? big : 0), "on %d: %llu huge-page bytes", on,
                  (unsigned long long)t->huge_page_bytes);
        void *p[2] = {NULL, NULL};
        for (int b = 0; b < 2; b++)
            TH_EXPECT(tc, clGetMemObjectInfo(buf[b], CL_MEM_HOST_PTR, sizeof p[b], &p[b], NULL) == CL_SUCCESS,
                      "CL_MEM_HOST_PTR");
        TH_EXPECT(tc, (p[0] != NULL) == want && !p[1], "on %d: host memory %p, small %p", on, p[0], p[1]);
        if (want) {
            TH_EXPECT(tc, (uintptr_t)p[0] % huge == 0, "host memory %p not 2 MiB-aligned", p[0]);
            int eligible = thp_eligible(p[0]);
            if (thp_available() && eligible >= 0)
                TH_EXPECT(tc, eligible == 1, "the buffer's mapping is not eligible for huge pages");
        }
        for (size_t i = 0; i < words; i++)
            host[i] = (uint32_t)(i * 2654435761u) + (uint32_t)on;
        memset(back, 0, big);
        TH_OK(tc, clirr_buf_write(ctx, buf[0], 0, words * 4, host, &err));
        TH_OK(tc, clirr_buf_read(ctx, buf[0], 0, words * 4, back, &err));
        TH_EXPECT(tc, !memcmp(host, back, words * 4), "on %d: the buffer's data differs", on);
        clirr_mem_release(&buf[0]);
        clirr_mem_release(&buf[1]);
    }
done:
    clirr_ctx_set_huge_pages(ctx, true);
    clirr_mem_release(&buf[0]);
    clirr_mem_release(&buf[1]);
    free(host);
    free(back);
    free(t);
}

TH_REGISTER(register_runtime_tests)
{
    th_add("runtime/errname", errname, NULL);
    th_add("runtime/select", selection, NULL);
    th_add("runtime/includes", includes, NULL);
    th_add_device("runtime/caps", caps_sane, NULL);
    th_add_device("runtime/too-large", too_large, NULL);
    th_add_device("runtime/build-failure", build_failure, NULL);
    th_add_device("runtime/binary-cache", binary_cache, NULL);
    th_add_device("runtime/kernel-checked", kernel_checked, NULL);
    th_add_device("runtime/kernel-times", kernel_times, NULL);
    th_add_device("runtime/uploads", uploads, NULL);
    th_add_device("runtime/huge-pages", huge_pages, NULL);
}
