/* tests/harness.h - the test runner's interface.
 *
 * Each tests/test_*.c file registers its cases from one function declared
 * with TH_REGISTER, using th_add (host only) or th_add_device (run once for
 * every OpenCL device selected by CLIRR_TEST_DEVICES, default "all", with an
 * open context). Cases run in processes apart from the runner, each under a
 * time limit, so a crashing or hanging kernel fails its own case only
 * (tests/harness.c says how). A case reports problems through TH_EXPECT
 * (record and go on) or TH_REQUIRE (record and jump to the case's `done:`
 * label, where it frees what it holds). A failed case prints one line:
 * "FAIL name [device]: first message (file:line)". The run ends with
 * "N passed, M failed, K skipped". */
#ifndef CLIRR_TESTS_HARNESS_H
#define CLIRR_TESTS_HARNESS_H

#include "clirr/clirr.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct th_case {
    const char *name;
    const clirr_device *device; /* NULL for host-only cases */
    clirr_ctx *ctx;             /* open context of device, or NULL */
    const void *param;          /* what th_add was given */
    bool failed;
    bool skipped;
    char msg[1024];             /* first failure or the skip reason */
} th_case;

typedef void (*th_fn)(th_case *tc);

/* Register a host-only case, or a case run on every selected device.
 * name and param must outlive the run (string literals, static data). */
void th_add(const char *name, th_fn fn, const void *param);
void th_add_device(const char *name, th_fn fn, const void *param);

/* A case run once per device but without an open context (tc->ctx is NULL),
 * for cases that start clirr as a child process: a GPU in an exclusive
 * compute mode is not offered to a second process while this one holds it.
 * Such a case runs in a process of its own. */
void th_add_device_noctx(const char *name, th_fn fn, const void *param);

/* Record a failure (the first one is the case's message). */
void th_fail(th_case *tc, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Mark the case skipped, with a reason. */
void th_skip(th_case *tc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define TH_EXPECT(tc, cond, ...)                                               \
    do {                                                                       \
        if (!(cond))                                                           \
            th_fail((tc), __FILE__, __LINE__, __VA_ARGS__);                    \
    } while (0)

#define TH_REQUIRE(tc, cond, ...)                                              \
    do {                                                                       \
        if (!(cond)) {                                                         \
            th_fail((tc), __FILE__, __LINE__, __VA_ARGS__);                    \
            goto done;                                                         \
        }                                                                      \
    } while (0)

/* A clirr call that must succeed. The case declares `clirr_error err;`,
 * which the call fills; on failure its message is recorded, go to done. */
#define TH_OK(tc, call)                                                        \
    do {                                                                       \
        int th_rc_ = (call);                                                   \
        if (th_rc_ != CLIRR_OK) {                                              \
            th_fail((tc), __FILE__, __LINE__, "%s: %s (%s)", #call,           \
                    clirr_status_name(th_rc_), err.msg);                       \
            goto done;                                                         \
        }                                                                      \
    } while (0)

/* Paths the build gives the tests. */
const char *th_data_dir(void);     /* the repository's data/ */
const char *th_clirr_path(void);   /* the built clirr executable */
const char *th_tmp_dir(void);      /* a private temporary directory */
/* The optional real-graph folder, or NULL (with *why) when absent. */
const char *th_datasets_dir(const char **why);

/* Run `argv` (NULL-terminated), capturing stdout and stderr into
 * caller buffers (may be NULL); returns the exit status, or -1 when the
 * program did not exit normally (signal), with the signal in *signo. */
int th_run(char *const argv[], char *out, size_t out_size, char *errbuf,
           size_t err_size, int *signo);

/* th_run with changes to the child's environment: each entry of env
 * (NULL-terminated, may be NULL) is "NAME=VALUE" to set or "NAME" to unset. */
int th_run_env(char *const argv[], char *const env[], char *out, size_t out_size,
               char *errbuf, size_t err_size, int *signo);

/* Write a file (replacing it): len bytes of data, or the string text.
 * False on any error. */
bool th_write_bytes(const char *path, const void *data, size_t len);
bool th_write_text(const char *path, const char *text);

/* Run the built clirr with the arguments from `first` up to a NULL (at
 * most 40), capturing as th_run; a death by a signal fails tc. Returns
 * the exit status. */
int th_clirr_run(th_case *tc, char *out, size_t out_size, char *errbuf, size_t err_size, const char *first, ...);

/* The clirr-tests executable itself, for cases that run the runner. */
const char *th_runner_path(void);

/* The extra named `name` among x (NULL: none). */
const clirr_extra *th_extra(const clirr_extras *x, const char *name);
/* The unsigned extra `name` of a prepared session's last trial (its
 * result `result`); UINT64_MAX when the run gave none. */
uint64_t th_session_extra_u(clirr_session *s, const void *result, const char *name);
/* The text extra called name (static text), NULL when there is none. */
const char *th_session_extra_text(clirr_session *s, const void *result, const char *name);

/* Each test file declares its registration function with TH_REGISTER in
 * place of a function header:
 *
 *     TH_REGISTER(register_foo_tests)
 *     {
 *         th_add("foo/bar", bar, NULL);
 *     }
 *
 * A constructor records it before main; main calls the recorded functions
 * in the order of their file names, so cases keep a fixed order (files by
 * name, then the order each file adds them) whatever the link order. Adding
 * a test file is the file plus its line in tests/meson.build. */
void th_register_file(const char *file, void (*fn)(void));

#define TH_REGISTER(fn)                                                        \
    static void fn(void);                                                      \
    __attribute__((constructor)) static void th_register_##fn(void)            \
    {                                                                          \
        th_register_file(__FILE__, fn);                                        \
    }                                                                          \
    static void fn(void)

#endif
