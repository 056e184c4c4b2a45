/* tests/test_isolation.c - the runner isolates its cases: a kernel that
 * crashes the process or never ends fails its own case, named, and the run
 * ends with its summary. Each case copies the kernel folder, breaks the
 * bfs_topo kernels in the copy, and runs this runner again with
 * CLIRR_KERNEL_DIR pointing at the copy, on the case's device, on
 * algo/bfs/topo (broken) and, after a crash, algo/bfs/data/atomic (intact,
 * sharing the process until the crash ends it: it must still pass). */
#include "harness.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct breakage {
    const char *folder;       /* of the broken copy, in th_tmp_dir() */
    const char *first;        /* a statement every bfs_topo kernel runs first */
    const char *timeout;      /* --timeout of the inner run, seconds */
    const char *cpu_failure;  /* what the FAIL line says on a CPU device */
    const char *intact;       /* a case to run after the broken one, or NULL */
} breakage;

/* A volatile store, which the compiler must keep, to `level` with its top
 * bit flipped: not a canonical x86-64 address (nor a user-space one on any
 * 64-bit CPU), so a CPU driver, which runs kernels in the host process,
 * takes SIGSEGV. A GPU reports an OpenCL error or computes wrong levels:
 * a FAIL as well. */
static const breakage crash = {
    "cl-crash",
    "do { *(volatile __global uint *)((ulong)level ^ 0x8000000000000000ul) = 1u; } while (0)",
    "120",
    "killed by SIG",
    "algo/bfs/data/atomic$",
};

/* level[0] never holds 0xdeadbeef; reading it through a volatile pointer
 * keeps the compiler from deleting the loop as side-effect free. No case
 * after it: with the binary cache off (.ci/pocl-versions) its kernels'
 * build alone may take most of the 5 s. */
static const breakage hang = {
    "cl-hang",
    "do { while (*(volatile __global uint *)level != 0xdeadbeefu) {} } while (0)",
    "5",
    "timed out after 5 s",
    NULL,
};

/* The kernel folder beside the built clirr, as the runtime finds it. */
static void kernel_folder(char *path, size_t size)
{
    snprintf(path, size, "%s", th_clirr_path());
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, size - (size_t)(slash ? slash + 1 - path : 0), "cl");
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)len + 1))) {
        text[fread(text, 1, (size_t)len, f)] = '\0';
    }
    fclose(f);
    return text;
}

/* Copy the kernels to copy/ and make `first` open every bfs_topo kernel,
 * through the templates' NL_KERNEL_BEGIN hook. */
static void break_kernels(th_case *tc, const breakage *b, const char *copy)
{
    char kernels[PATH_MAX], bfs[PATH_MAX + 8];
    char *text = NULL;
    FILE *f;
    kernel_folder(kernels, sizeof kernels);
    char *cp[] = {"/bin/sh", "-c", "cp -R \"$0\" \"$1\"", kernels, (char *)copy, NULL};
    char errtext[1024];
    int rc = th_run(cp, NULL, 0, errtext, sizeof errtext, NULL);
    TH_REQUIRE(tc, rc == 0, "cp -R %s %s: exit %d: %s", kernels, copy, rc, errtext);
    snprintf(bfs, sizeof bfs, "%s/bfs.cl", copy);
    TH_REQUIRE(tc, (text = read_text(bfs)), "cannot read %s", bfs);
    static const char anchor[] = "#define NL_NAME bfs_topo\n";
    char *at = strstr(text, anchor);
    TH_REQUIRE(tc, at, "%s has no line '%.24s' to break the kernel after", bfs, anchor);
    at += sizeof anchor - 1;
    TH_REQUIRE(tc, (f = fopen(bfs, "wb")), "cannot write %s", bfs);
    fprintf(f, "%.*s#define NL_KERNEL_BEGIN %s\n%s", (int)(at - text), text, b->first, at);
    TH_EXPECT(tc, fclose(f) == 0, "cannot write %s", bfs);
done:
    free(text);
}

/* The counts on the last line of out, which must be the summary. */
static bool summary(const char *out, size_t *passed, size_t *failed)
{
    size_t len = strlen(out);
    while (len && out[len - 1] == '\n')
        len--;
    const char *last = out + len;
    while (last > out && last[-1] != '\n')
        last--;
    size_t skipped;
    int end = 0;
    return sscanf(last, "%zu passed, %zu failed, %zu skipped%n", passed, failed, &skipped, &end) == 3 &&
           last + end == out + len;
}

static void broken_kernel(th_case *tc)
{
    const breakage *b = tc->param;
    static char out[65536];
    char errtext[4096], copy[PATH_MAX], kernel_dir[PATH_MAX + 32], devices[64];
    if (b == &hang && !tc->device->caps.is_cpu) {
        th_skip(tc, "a kernel that never ends may not be interruptible on a %s",
                clirr_caps_type_name(&tc->device->caps));
        return;
    }
    snprintf(copy, sizeof copy, "%s/%s", th_tmp_dir(), b->folder);
    break_kernels(tc, b, copy);
    if (tc->failed)
        return;

    snprintf(kernel_dir, sizeof kernel_dir, "CLIRR_KERNEL_DIR=%s", copy);
    snprintf(devices, sizeof devices, "CLIRR_TEST_DEVICES=%u", tc->device->index);
    char *env[] = {kernel_dir, devices, NULL};
    char *argv[] = {(char *)th_runner_path(), "--timeout", (char *)b->timeout, "algo/bfs/topo$",
                    (char *)b->intact, NULL};
    int sig = 0;
    int rc = th_run_env(argv, env, out, sizeof out, errtext, sizeof errtext, &sig);
    TH_REQUIRE(tc, sig == 0, "the runner was killed by signal %d; output:\n%s", sig, out);
    TH_REQUIRE(tc, rc == 1, "the runner exited %d, not 1; output:\n%s%s", rc, out, errtext);

    char fail_line[512];
    snprintf(fail_line, sizeof fail_line, "FAIL algo/bfs/topo [%s]: %s", tc->device->caps.name,
             tc->device->caps.is_cpu ? b->cpu_failure : "");
    TH_EXPECT(tc, strstr(out, fail_line), "no line '%s...'; output:\n%s", fail_line, out);
    size_t passed = 0, failed = 0;
    size_t intact = b->intact ? 1 : 0;
    TH_EXPECT(tc, summary(out, &passed, &failed) && passed == intact && failed == 1,
              "the last line is not the summary of %zu passed, 1 failed; output:\n%s", intact, out);
done:;
}

TH_REGISTER(register_isolation_tests)
{
    th_add_device_noctx("isolation/crashing-kernel", broken_kernel, &crash);
    th_add_device_noctx("isolation/hanging-kernel", broken_kernel, &hang);
}
