/* tests/test_runtime.c - the runtime: error names, device selection,
 * include expansion, capability sanity, program builds, the binary cache
 * (a corrupted entry is rebuilt, never trusted), allocation limits. */
#include "harness.h"
#include "runtime/runtime.h"
#include "runtime/source.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
                      clirr_status_exit_code(CLIRR_ERR_TOO_LARGE) == 3 &&
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

TH_REGISTER(register_runtime_tests)
{
    th_add("runtime/errname", errname, NULL);
    th_add("runtime/select", selection, NULL);
    th_add("runtime/includes", includes, NULL);
    th_add_device("runtime/caps", caps_sane, NULL);
    th_add_device("runtime/too-large", too_large, NULL);
    th_add_device("runtime/build-failure", build_failure, NULL);
    th_add_device("runtime/binary-cache", binary_cache, NULL);
}
