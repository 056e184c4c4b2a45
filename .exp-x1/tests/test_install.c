/* tests/test_install.c - the library as an outside program sees it: install
 * the build into a private folder (meson install --destdir), compile the
 * README's example, tests/example/list_and_run.c, with nothing but
 * `cc` and `pkg-config --cflags --libs clirr`, and run it against the
 * installed library and kernels. This catches what the in-tree tests
 * cannot: a public header that includes an internal one, a function the
 * library does not export, a clirr.pc with wrong paths, kernels that are
 * not installed. */
#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Path of an executable on PATH, or false. */
static bool on_path(const char *name)
{
    const char *env = getenv("PATH");
    char dirs[4096], path[4200];
    snprintf(dirs, sizeof dirs, "%s", env ? env : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(path, sizeof path, "%s/%s", d, name);
        if (access(path, X_OK) == 0)
            return true;
    }
    return false;
}

/* The steps, in sh, so that the compile line is the README's own. $1 build
 * dir, $2 destdir, $3 the example's source, $4 the executable to write.
 * clirr.pc and the kernels are found under the destdir rather than
 * computed from meson's options, which a build may have changed.
 * --destdir leaves clirr.pc's prefix at the real prefix, so pkg-config is
 * told the staged one (--define-variable; PKG_CONFIG_SYSROOT_DIR would also
 * move the other packages' -I paths into the empty destdir). --no-rebuild:
 * the test checks the build at hand and never compiles the tree under a
 * running test runner. */
static const char script[] =
    "build=$1 dest=$2 src=$3 exe=$4\n"
    "fail() { echo \"$*\" >&2; exit 1; }\n"
    "meson install -C \"$build\" --destdir \"$dest\" --no-rebuild --quiet >&2 ||\n"
    "  fail \"meson install -C $build --destdir $dest failed (is the whole tree built?)\"\n"
    "pc=$(find \"$dest\" -path '*/pkgconfig/clirr.pc' | head -n 1)\n"
    "[ -n \"$pc\" ] || fail \"meson install put no pkgconfig/clirr.pc under $dest\"\n"
    "pcdir=$(dirname \"$pc\"); libdir=$(dirname \"$pcdir\")\n"
    "prefix=$(PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} pkg-config --variable=prefix clirr) ||\n"
    "  fail \"pkg-config cannot read $pc\"\n"
    "flags=$(PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} pkg-config --define-variable=prefix=\"$dest$prefix\" \\\n"
    "        --cflags --libs clirr) || fail \"pkg-config --cflags --libs clirr failed ($pc)\"\n"
    "cc -std=c11 -Wall -Wextra -Werror \"$src\" $flags -o \"$exe\" >&2 ||\n"
    "  fail \"cc $src $flags failed\"\n"
    "marker=$(find \"$dest\" -path '*/clirr/cl/common/compat.clh' | head -n 1)\n"
    "[ -n \"$marker\" ] || fail \"no installed kernels (clirr/cl/common/compat.clh) under $dest\"\n"
    "kdir=$(dirname \"$(dirname \"$marker\")\")\n"
    "LD_LIBRARY_PATH=$libdir CLIRR_KERNEL_DIR=$kdir \"$exe\" ||\n"
    "  fail \"LD_LIBRARY_PATH=$libdir CLIRR_KERNEL_DIR=$kdir $exe exited with $?\"\n";

static void test_pkg_config_example(th_case *tc)
{
    const char *tools[] = {"cc", "pkg-config", "meson"};
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
        if (!on_path(tools[i])) {
            th_skip(tc, "no `%s` on PATH: cannot install and compile the example", tools[i]);
            return;
        }
    char dest[600], src[1200], exe[700];
    snprintf(dest, sizeof dest, "%s/install", th_tmp_dir());
    snprintf(exe, sizeof exe, "%s/list_and_run", th_tmp_dir());
    snprintf(src, sizeof src, "%s/../tests/example/list_and_run.c", th_data_dir());
    if (mkdir(dest, 0700) != 0 && errno != EEXIST) {
        th_fail(tc, __FILE__, __LINE__, "mkdir %s: %s", dest, strerror(errno));
        return;
    }
    char *argv[] = {"/bin/sh", "-c", (char *)script, "sh", CLIRR_TEST_BUILD_DIR, dest, src, exe, NULL};
    static char out[16384], errtext[16384];
    int sig = 0;
    int rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, &sig);
    /* The last lines of stderr name the step that failed. */
    size_t elen = strlen(errtext);
    const char *tail = errtext + (elen > 700 ? elen - 700 : 0);
    TH_REQUIRE(tc, rc == 0, "install, compile and run of the example: %s%s",
               sig ? "killed by a signal; " : "", tail);
    TH_EXPECT(tc, strstr(out, "bfs") && strstr(out, "reached"),
              "the example printed no \"bfs ... reached\" line: %.300s", out);
done:
    return;
}

TH_REGISTER(register_install_tests)
{
    th_add("install/pkg-config-example", test_pkg_config_example, NULL);
}
