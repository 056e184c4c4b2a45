/* tests/test_templates.c - the nested-loop templates: the device-enqueue
 * kernels compile with clang for SPIR-V-era spir64 and an AMD GPU (amdgcn)
 * even where no device here runs them; `auto` never picks a template the
 * device cannot run; asking for one exits 2 and names those it can. (Every
 * algorithm x template x device run is in test_algo.c.) */
#define _GNU_SOURCE /* memmem */
#include "harness.h"
#include "runtime/runtime.h"
#include "runtime/source.h"
#include "prim/prim.h"
#include "templates/nested_loop.h"

#include "cl/common/kargs.h"

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
    {"cc.cl", "cc_link_rest_nested_naive"},
    {"mst.cl", "mst_scan_data_nested_opt"},
    {"descendants.cl", "desc_hier"},
    {"heights.cl", "heights_naive"},
    {"bfs_rec.cl", "bfs_rec_hier"},
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
            for (int push = 0; push < 5; push++) {
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
                /* The hierarchical push (3) leaves the nested templates out
                 * of a file with a worklist: a child's block cannot declare
                 * its local queue; so does the scan push (4): a child's
                 * work-items would claim the parent's slots. */
                bool want = push < 3 || !strstr(src, "common/worklist.clh");
                TH_REQUIRE(tc, file_contains(out, template_files[f].nested_kernel) == want,
                           "%s for %s with push %d: kernel %s %s", template_files[f].file, targets[t][0], push,
                           template_files[f].nested_kernel, want ? "missing" : "present");
            }
    }
done:
    free(src);
    free(text);
}

/* The plan of every registered algorithm, left to the policy, uses only
 * templates the device can run, with a reason, on real and fabricated
 * capabilities (with and without enqueue, CPU and GPU, with and without
 * local memory, small and large inputs). */
static void auto_runnable(th_case *tc)
{
    clirr_error err;
    clirr_graph small = {0}, large = {0};
    clirr_input *ins[2] = {NULL, NULL};
    TH_OK(tc, clirr_graph_generate("random:n=100,m=400,seed=1", &small, &err));
    TH_OK(tc, clirr_graph_generate("random:n=600000,m=600000,seed=1", &large, &err));
    TH_OK(tc, clirr_input_from_graph(&small, false, "small", &ins[0], &err));
    TH_OK(tc, clirr_input_from_graph(&large, false, "large", &ins[1], &err));
    for (size_t a = 0; a < clirr_algo_count(); a++) {
        const clirr_algo *al = clirr_algo_at(a);
        clirr_intent it;
        clirr_intent_default(al, &it);
        if (al->input != CLIRR_INPUT_GRAPH)
            continue; /* these inputs are graphs */
        for (int gpu = 0; gpu < 3; gpu++)
            for (int dq = 0; dq < 2; dq++)
                for (int local = 0; local < 4; local++) {
                    clirr_caps c = tc->device->caps;
                    if (gpu < 2) { /* gpu == 2: the device as it is */
                        c.is_gpu = gpu;
                        c.is_cpu = !gpu;
                        c.device_enqueue = dq;
                        c.local_mem_dedicated = local & 1;
                    }
                    clirr_plan plan;
                    int rc = clirr_plan_make(al, &c, &it, ins[local >> 1], &plan, &err);
                    if (rc == CLIRR_ERR_UNSUPPORTED)
                        continue; /* fp64 */
                    TH_OK(tc, rc);
                    TH_EXPECT(tc, clirr_template_runnable(&c, plan.tmpl, NULL),
                              "%s: auto picked unrunnable %s (gpu %d dq %d local %d)", al->name,
                              clirr_template_name(plan.tmpl), gpu, dq, local);
                    TH_EXPECT(tc, plan.lb_thres >= 1 && plan.template_reason && *plan.template_reason,
                              "%s: lb_thres %u, no reason", al->name, plan.lb_thres);
                }
    }
    /* Coloring's measured profile: thread-mapped everywhere. */
    const clirr_algo *color = clirr_algo_find("color");
    if (color) {
        clirr_intent it;
        clirr_intent_default(color, &it);
        clirr_plan plan;
        TH_OK(tc, clirr_plan_make(color, &tc->device->caps, &it, ins[1], &plan, &err));
        TH_EXPECT(tc, plan.tmpl == CLIRR_TEMPLATE_BASELINE && strstr(plan.template_reason, "coloring"),
                  "color auto: %s (%s)", clirr_template_name(plan.tmpl), plan.template_reason);
    }
done:
    clirr_input_free(ins[0]);
    clirr_input_free(ins[1]);
    clirr_graph_free(&small);
    clirr_graph_free(&large);
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

/* ---- every template, run directly ----------------------------------------- */

/* Two loops over items i < n with row[i+1] - row[i] inner iterations: a
 * sum (out[i] = 1 + 2 + ... + f(i)) and a side effect (hits[row[i] + j]
 * += 1). Their parameter lists are written once here, as X-macro lists
 * that the kernel source gets as text and the host as CLIRR_KARG indices. */
#define T_SUM_ARGS(X, S)                                                       \
    X(__global const uint *, row) S() X(__global uint *, out) S() X(const uint, n)
#define T_MARK_ARGS(X, S)                                                      \
    X(__global const uint *, row) S() X(__global uint *, hits) S() X(const uint, n)
CLIRR_KARGS_STRUCT(t_sum_args, T_SUM_ARGS);
CLIRR_KARGS_STRUCT(t_mark_args, T_MARK_ARGS);
#define T_STR_(...) #__VA_ARGS__
#define T_STR(...) T_STR_(__VA_ARGS__)

static const char *loops_src =
    "#include \"common/compat.clh\"\n"
    "#define NL_NAME t_sum\n"
    "#define NL_ARGS(X, S) " T_STR(T_SUM_ARGS(X, S)) "\n"
    "#define NL_NITEMS n\n"
    "#define NL_ITEM(k) (k)\n"
    "#define NL_COUNT(i) (row[(i) + 1] - row[i])\n"
    "#define NL_REDUCE_T uint\n"
    "#define NL_TERM(i, j) ((j) + 1u)\n"
    "#define NL_FINISH(i, acc) out[i] = (acc)\n"
    "#include \"templates/nested_loop.clh\"\n"
    "#include \"templates/nested_loop_end.clh\"\n"
    "#define NL_NAME t_mark\n"
    "#define NL_PARAMS CLIRR_KPARAMS(T_MARK_ARGS)\n"
    "#define T_MARK_ARGS(X, S) " T_STR(T_MARK_ARGS(X, S)) "\n"
    "#define NL_NITEMS n\n"
    "#define NL_ITEM(k) (k)\n"
    "#define NL_COUNT(i) (row[(i) + 1] - row[i])\n"
    "#define NL_WORK(i, j) atomic_inc(&hits[row[i] + (j)])\n"
    "#include \"templates/nested_loop.clh\"\n"
    "#include \"templates/nested_loop_end.clh\"\n";

/* Each template the device runs computes both loops right; set up by
 * clirr_nl_init on a fresh context, its runs build nothing, and their
 * kernels are timed under the template's kernel names. */
static void templates_run(th_case *tc)
{
    enum { N = 3000, THRES = 24 };
    clirr_error err;
    clirr_ctx *ctx = NULL;
    cl_program prog = NULL;
    cl_mem row = NULL, out = NULL, hits = NULL;
    clirr_nl sum, mark;
    memset(&sum, 0, sizeof sum);
    memset(&mark, 0, sizeof mark);
    uint32_t *hrow = malloc((N + 1) * sizeof *hrow), *got = NULL;
    clirr_timing *t = calloc(1, sizeof *t);
    TH_REQUIRE(tc, hrow && t, "out of memory");
    /* Mostly short items, every 37th long (beyond THRES and a work-group). */
    hrow[0] = 0;
    for (uint32_t i = 0; i < N; i++)
        hrow[i + 1] = hrow[i] + (i % 37 == 0 ? 300 + i % 7 : i % 6);
    const uint32_t m = hrow[N];
    TH_REQUIRE(tc, (got = malloc(m * sizeof *got)) != NULL, "out of memory");
    TH_OK(tc, clirr_ctx_create(tc->device, &ctx, &err));
    TH_OK(tc, clirr_program_build_source(ctx, "templates-test.cl", loops_src, NULL, &prog, &err));
    TH_OK(tc, clirr_buf_create(ctx, "row", (N + 1) * sizeof *hrow, &row, &err));
    TH_OK(tc, clirr_buf_create(ctx, "out", N * sizeof *hrow, &out, &err));
    TH_OK(tc, clirr_buf_create(ctx, "hits", m * sizeof *hrow, &hits, &err));
    TH_OK(tc, clirr_buf_write(ctx, row, 0, (N + 1) * sizeof *hrow, hrow, &err));
    cl_uint n = N;
    for (int tm = 0; tm < CLIRR_TEMPLATE_FIRST_RECURSION; tm++) { /* the loop templates */
        clirr_template tmpl = (clirr_template)tm;
        const char *tname = clirr_template_name(tmpl);
        if (!clirr_template_runnable(clirr_ctx_caps(ctx), tmpl, NULL))
            continue;
        clirr_nl_config cfg = {.tmpl = tmpl, .thres = THRES, .reduce_size = sizeof(cl_uint)};
        TH_OK(tc, clirr_nl_init(&sum, ctx, prog, "t_sum", CLIRR_KNARGS(t_sum_args), N, &cfg, &err));
        cfg.reduce_size = 0;
        TH_OK(tc, clirr_nl_init(&mark, ctx, prog, "t_mark", CLIRR_KNARGS(t_mark_args), N, &cfg, &err));
        TH_OK(tc, clirr_nl_arg(&sum, CLIRR_KARG(t_sum_args, row), sizeof row, &row, &err));
        TH_OK(tc, clirr_nl_arg(&sum, CLIRR_KARG(t_sum_args, out), sizeof out, &out, &err));
        TH_OK(tc, clirr_nl_arg(&sum, CLIRR_KARG(t_sum_args, n), sizeof n, &n, &err));
        TH_OK(tc, clirr_nl_arg(&mark, CLIRR_KARG(t_mark_args, row), sizeof row, &row, &err));
        TH_OK(tc, clirr_nl_arg(&mark, CLIRR_KARG(t_mark_args, hits), sizeof hits, &hits, &err));
        TH_OK(tc, clirr_nl_arg(&mark, CLIRR_KARG(t_mark_args, n), sizeof n, &n, &err));
        TH_OK(tc, clirr_prim_fill_u32(ctx, out, 0, N, 0xdeadu, &err));
        TH_OK(tc, clirr_prim_fill_u32(ctx, hits, 0, m, 0, &err));

        clirr_ctx_timing_reset(ctx);
        TH_OK(tc, clirr_nl_run(&sum, N, &err));
        TH_OK(tc, clirr_nl_run(&mark, N, &err));
        TH_OK(tc, clirr_ctx_timing(ctx, t, &err));
        TH_EXPECT(tc, t->build_ns == 0, "%s: %llu ns of builds in runs", tname,
                  (unsigned long long)t->build_ns);
        /* The kernel each template launches first, once per run. */
        char first[64];
        snprintf(first, sizeof first, "t_sum_%s", tmpl == CLIRR_TEMPLATE_BASELINE ? "baseline"
                                                  : tmpl == CLIRR_TEMPLATE_DUAL_QUEUE ? "split"
                                                  : tmpl == CLIRR_TEMPLATE_DBUF_GLOBAL ? "dbuf"
                                                  : tmpl == CLIRR_TEMPLATE_DBUF_SHARED ? "dbuf_shared"
                                                  : tmpl == CLIRR_TEMPLATE_NESTED_NAIVE ? "nested_naive"
                                                                                         : "nested_opt");
        bool timed = false;
        for (size_t i = 0; i < t->nkernels; i++)
            timed |= !strcmp(t->kernels[i].name, first) && t->kernels[i].launches == 1;
        TH_EXPECT(tc, timed, "%s: %s is not among the %zu timed kernels", tname, first, t->nkernels);

        TH_OK(tc, clirr_buf_read(ctx, out, 0, N * sizeof *got, got, &err));
        for (uint32_t i = 0; i < N; i++) {
            uint32_t f = hrow[i + 1] - hrow[i];
            TH_REQUIRE(tc, got[i] == f * (f + 1) / 2, "%s: sum of item %u is %u, expected %u", tname, i,
                       got[i], f * (f + 1) / 2);
        }
        TH_OK(tc, clirr_buf_read(ctx, hits, 0, m * sizeof *got, got, &err));
        for (uint32_t e = 0; e < m; e++)
            TH_REQUIRE(tc, got[e] == 1, "%s: inner iteration %u ran %u times", tname, e, got[e]);
        clirr_nl_release(&sum);
        clirr_nl_release(&mark);
    }
done:
    clirr_nl_release(&sum);
    clirr_nl_release(&mark);
    clirr_mem_release(&row);
    clirr_mem_release(&out);
    clirr_mem_release(&hits);
    if (prog)
        clReleaseProgram(prog);
    clirr_ctx_release(ctx);
    free(hrow);
    free(got);
    free(t);
}

TH_REGISTER(register_templates_tests)
{
    th_add("templates/clang-compile", clang_compile, NULL);
    th_add_device("templates/auto-runnable", auto_runnable, NULL);
    th_add_device_noctx("templates/unrunnable-exit", unrunnable_exit, NULL);
    th_add_device("templates/run", templates_run, NULL);
}
