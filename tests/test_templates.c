/* tests/test_templates.c - the nested-loop templates: the device-enqueue
 * kernels compile with clang for SPIR-V-era spir64 and an AMD GPU (amdgcn)
 * even where no device here runs them; `auto` never picks a template the
 * device cannot run; asking for one exits 2 and names those it can. (Every
 * algorithm x template x device run is in test_algo.c.) */
#define _GNU_SOURCE /* memmem */
#include "harness.h"
#include "runtime/runtime.h"
#include "runtime/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Kernel files whose loops go through the templates, and one nested kernel
 * each must contain. */
static const struct {
    const char *file;
    const char *nested_kernel;
} template_files[] = {
    {"bfs.cl", "bfs_data_nested_opt"},
    {"sssp.cl", "sssp_data_nested_naive"},
    {"bc.cl", "bc_delta_nested_opt"},
    {"pagerank.cl", "pr_pull_nested_naive"},
    {"spmv.cl", "spmv_rows_nested_opt"},
    {"color.cl", "color_resolve_data_nested_opt"},
};

static const char *targets[][2] = {
    {"spir64", "-target spir64 -emit-llvm"},
    {"amdgcn", "-target amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib"},
};

/* Path of an executable on PATH, or false. */
static bool find_program(const char *name, char *path, size_t size)
{
    const char *env = getenv("PATH");
    char dirs[4096];
    snprintf(dirs, sizeof dirs, "%s", env ? env : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(path, size, "%s/%s", d, name);
        if (access(path, X_OK) == 0)
            return true;
    }
    return false;
}

static bool file_contains(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = strlen(needle), got = 0;
    bool found = false;
    char buf[1 << 16];
    size_t k;
    /* Keep n-1 bytes of overlap between reads. */
    while (!found && (k = fread(buf + got, 1, sizeof buf - got, f)) > 0) {
        got += k;
        found = memmem(buf, got, needle, n) != NULL;
        if (got >= n) {
            memmove(buf, buf + got - (n - 1), n - 1);
            got = n - 1;
        }
    }
    fclose(f);
    return found;
}

static void clang_compile(th_case *tc)
{
    char clang[1024];
    if (!find_program("clang", clang, sizeof clang)) {
        th_skip(tc, "clang not found on PATH (Debian package clang)");
        return;
    }
    const char *dir = NULL;
    char *src = NULL, *text = NULL;
    clirr_error err;
    TH_OK(tc, clirr_kernel_dir(&dir, &err));
    for (size_t f = 0; f < sizeof template_files / sizeof template_files[0]; f++) {
        free(src);
        free(text);
        src = text = NULL;
        TH_OK(tc, clirr_source_read(dir, template_files[f].file, &src, &err));
        TH_OK(tc, clirr_source_expand(dir, template_files[f].file, src, &text, &err));
        char in[1024], out[1100];
        snprintf(in, sizeof in, "%s/expanded-%s", th_tmp_dir(), template_files[f].file);
        FILE *fp = fopen(in, "w");
        TH_REQUIRE(tc, fp && fputs(text, fp) >= 0 && fclose(fp) == 0, "cannot write %s", in);
        for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++)
            for (int push = 0; push < 3; push++) {
                snprintf(out, sizeof out, "%s.%s.%d.o", in, targets[t][0], push);
                char pushdef[32];
                snprintf(pushdef, sizeof pushdef, "-DCLIRR_WL_PUSH=%d", push);
                char *argv[32];
                int a = 0;
                argv[a++] = clang;
                argv[a++] = "-cl-std=CL2.0";
                argv[a++] = "-Xclang";
                argv[a++] = "-finclude-default-header";
                char flags[256];
                snprintf(flags, sizeof flags, "%s", targets[t][1]);
                for (char *save = NULL, *w = strtok_r(flags, " ", &save); w; w = strtok_r(NULL, " ", &save))
                    argv[a++] = w;
                argv[a++] = "-DCLIRR_HAS_DEVICE_ENQUEUE=1";
                argv[a++] = "-DCLIRR_HAS_WG_COLLECTIVES=1";
                argv[a++] = "-DCLIRR_HAS_GENERIC_AS=1";
                argv[a++] = "-DCLIRR_HAS_FP64=1";
                argv[a++] = pushdef;
                argv[a++] = "-c";
                argv[a++] = in;
                argv[a++] = "-o";
                argv[a++] = out;
                argv[a] = NULL;
                static char errtext[8192];
                int rc = th_run(argv, NULL, 0, errtext, sizeof errtext, NULL);
                TH_REQUIRE(tc, rc == 0, "clang %s %s push %d: exit %d: %.600s", targets[t][0],
                           template_files[f].file, push, rc, errtext);
                TH_REQUIRE(tc, file_contains(out, template_files[f].nested_kernel),
                           "%s for %s has no kernel %s", template_files[f].file, targets[t][0],
                           template_files[f].nested_kernel);
            }
    }
done:
    free(src);
    free(text);
}

/* The policy picks only templates the device can run, on every device. */
static void auto_runnable(th_case *tc)
{
    clirr_algo_opts o;
    clirr_algo_opts_default(&o);
    clirr_template t;
    uint32_t thres;
    const char *why;
    static const char *const algos[] = {NULL, "bfs", "color"};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        clirr_algo_plan(&tc->device->caps, algos[a], &o, 1000, &t, &thres, &why);
        TH_EXPECT(tc, clirr_template_runnable(&tc->device->caps, t, NULL), "auto picked %s, which cannot run",
                  clirr_template_name(t));
        TH_EXPECT(tc, thres >= 1 && why && *why, "lb_thres %u, reason '%s'", thres, why ? why : "");
    }
    /* Coloring's measured profile: thread-mapped everywhere. */
    clirr_algo_plan(&tc->device->caps, "color", &o, 1u << 24, &t, &thres, &why);
    TH_EXPECT(tc, t == CLIRR_TEMPLATE_BASELINE && strstr(why, "coloring"), "color auto: %s (%s)",
              clirr_template_name(t), why);
    /* The same on fabricated capabilities: with and without enqueue, CPU
     * and GPU, with and without local memory. */
    for (int gpu = 0; gpu < 2; gpu++)
        for (int dq = 0; dq < 2; dq++)
            for (int local = 0; local < 4; local++) {
                clirr_caps c = tc->device->caps;
                c.is_gpu = gpu;
                c.is_cpu = !gpu;
                c.device_enqueue = dq;
                c.local_mem_dedicated = local & 1;
                uint32_t n = local & 2 ? 1u << 24 : 100;
                clirr_algo_plan(&c, NULL, &o, n, &t, &thres, &why);
                TH_EXPECT(tc, clirr_template_runnable(&c, t, NULL), "auto picked unrunnable %s (gpu %d dq %d local %d)",
                          clirr_template_name(t), gpu, dq, local);
            }
}

/* --template nested-opt: exit 2 naming the runnable templates where the
 * device has no device-side enqueue, a verified run where it has. */
static void unrunnable_exit(th_case *tc)
{
    char dev[16], out[4096], errtext[4096];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    char *argv[] = {(char *)th_clirr_path(), "run", "sssp", "--gen", "rmat:scale=8,ef=8,weights=1-9",
                    "--device", dev, "--template", "nested-opt", NULL};
    int rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, NULL);
    if (tc->device->caps.device_enqueue)
        TH_EXPECT(tc, rc == 0 && strstr(out, "nested-opt") && strstr(out, "yes"), "exit %d: %s%s", rc, out,
                  errtext);
    else
        TH_EXPECT(tc, rc == 2 && strstr(errtext, "cannot run") && strstr(errtext, "baseline, dual-queue, dbuf-global"),
                  "exit %d, stderr '%s'", rc, errtext);
}

TH_REGISTER(register_templates_tests)
{
    th_add("templates/clang-compile", clang_compile, NULL);
    th_add_device("templates/auto-runnable", auto_runnable, NULL);
    th_add_device_noctx("templates/unrunnable-exit", unrunnable_exit, NULL);
}
