/* tests/harness.c - registers, filters and runs the cases; prints one line
 * per failure and a summary. Usage: clirr-tests [--list] [PATTERN...]
 * (a case runs when its name contains any PATTERN). */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct th_registrar {
    const char *file;
    void (*fn)(void);
} th_registrar;

static th_registrar registrars[128];
static size_t nregistrars;

void th_register_file(const char *file, void (*fn)(void))
{
    if (nregistrars == sizeof registrars / sizeof registrars[0]) {
        fprintf(stderr, "clirr-tests: too many test files; raise the limit in harness.c\n");
        exit(3);
    }
    registrars[nregistrars++] = (th_registrar){file, fn};
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int by_file_name(const void *a, const void *b)
{
    return strcmp(base_name(((const th_registrar *)a)->file),
                  base_name(((const th_registrar *)b)->file));
}

/* Constructors run in link order; sorting by file name makes the case list
 * independent of it. */
static void register_all(void)
{
    qsort(registrars, nregistrars, sizeof *registrars, by_file_name);
    for (size_t i = 0; i < nregistrars; i++)
        registrars[i].fn();
}

typedef struct th_entry {
    const char *name;
    th_fn fn;
    const void *param;
    bool per_device;
    bool needs_ctx;
} th_entry;

static th_entry *entries;
static size_t nentries, centries;

static void add(const char *name, th_fn fn, const void *param, bool dev, bool ctx)
{
    if (nentries == centries) {
        centries = centries ? 2 * centries : 256;
        entries = realloc(entries, centries * sizeof *entries);
        if (!entries) {
            fprintf(stderr, "clirr-tests: out of memory\n");
            exit(3);
        }
    }
    entries[nentries++] = (th_entry){name, fn, param, dev, ctx};
}

void th_add(const char *name, th_fn fn, const void *param) { add(name, fn, param, false, false); }
void th_add_device(const char *name, th_fn fn, const void *param) { add(name, fn, param, true, true); }
void th_add_device_noctx(const char *name, th_fn fn, const void *param)
{
    add(name, fn, param, true, false);
}

/* Run one case and print its line; counts into the totals. */
static void run_one(th_entry *e, const clirr_device *dev, clirr_ctx *ctx, size_t *passed,
                    size_t *failed, size_t *skipped)
{
    th_case tc = {.name = e->name, .param = e->param, .device = dev, .ctx = ctx};
    char where[300] = "";
    if (dev)
        snprintf(where, sizeof where, " [%s]", dev->caps.name);
    e->fn(&tc);
    if (tc.failed) {
        printf("FAIL %s%s: %s\n", e->name, where, tc.msg);
        (*failed)++;
    } else if (tc.skipped) {
        printf("SKIP %s%s: %s\n", e->name, where, tc.msg);
        (*skipped)++;
    } else {
        (*passed)++;
    }
    fflush(stdout);
}

void th_fail(th_case *tc, const char *file, int line, const char *fmt, ...)
{
    if (tc->failed)
        return;
    tc->failed = true;
    char text[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(tc->msg, sizeof tc->msg, "%s (%s:%d)", text, base_name(file), line);
}

void th_skip(th_case *tc, const char *fmt, ...)
{
    tc->skipped = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tc->msg, sizeof tc->msg, fmt, ap);
    va_end(ap);
}

const char *th_data_dir(void) { return CLIRR_TEST_DATA_DIR; }
const char *th_clirr_path(void) { return CLIRR_TEST_CLI; }

static char tmpdir[256];
const char *th_tmp_dir(void)
{
    if (!tmpdir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/clirr-tests-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmpdir)) {
            fprintf(stderr, "clirr-tests: cannot create a temporary directory: %s\n", strerror(errno));
            exit(3);
        }
    }
    return tmpdir;
}

const char *th_datasets_dir(const char **why)
{
    static char path[1024];
    const char *env = getenv("CLIRR_DATASETS");
    snprintf(path, sizeof path, "%s", env && *env ? env : CLIRR_TEST_DATASETS_DIR);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        static char reason[1200];
        snprintf(reason, sizeof reason, "real-graph folder %s not found (set CLIRR_DATASETS)", path);
        if (why)
            *why = reason;
        return NULL;
    }
    return path;
}

/* Read all of fd into buf (NUL-terminated, truncated to size). */
static void slurp(int fd, char *buf, size_t size)
{
    size_t used = 0;
    char sink[4096];
    for (;;) {
        char *dst = buf && used + 1 < size ? buf + used : sink;
        size_t room = buf && used + 1 < size ? size - 1 - used : sizeof sink;
        ssize_t k = read(fd, dst, room);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        if (dst != sink)
            used += (size_t)k;
    }
    if (buf && size)
        buf[used] = '\0';
}

/* OCL_ICD_FILENAMES as the process started, before OpenCL touched it. */
static char *saved_icd_filenames;

int th_run(char *const argv[], char *out, size_t out_size, char *errbuf,
           size_t err_size, int *signo)
{
    /* Capture through files: no deadlock when both streams are large. */
    char opath[512], epath[512];
    snprintf(opath, sizeof opath, "%s/run-out-XXXXXX", th_tmp_dir());
    snprintf(epath, sizeof epath, "%s/run-err-XXXXXX", th_tmp_dir());
    int ofd = mkstemp(opath), efd = mkstemp(epath);
    if (ofd < 0 || efd < 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(ofd, 1);
        dup2(efd, 2);
        /* The ICD loader (ocl-icd) splits OCL_ICD_FILENAMES in place, so
         * after this process listed its platforms the variable names only
         * the first driver; give the child the list as it was. */
        if (saved_icd_filenames)
            setenv("OCL_ICD_FILENAMES", saved_icd_filenames, 1);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    lseek(ofd, 0, SEEK_SET);
    lseek(efd, 0, SEEK_SET);
    slurp(ofd, out, out_size);
    slurp(efd, errbuf, err_size);
    close(ofd);
    close(efd);
    unlink(opath);
    unlink(epath);
    if (signo)
        *signo = 0;
    if (pid < 0)
        return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (signo && WIFSIGNALED(status))
        *signo = WTERMSIG(status);
    return -1;
}

static bool selected(const char *name, int npat, char **pat)
{
    if (npat == 0)
        return true;
    for (int i = 0; i < npat; i++)
        if (strstr(name, pat[i]))
            return true;
    return false;
}

static void remove_tree(const char *dir)
{
    /* Only files are created directly in the temporary directory. */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "clirr-tests: could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
    if (getenv("OCL_ICD_FILENAMES"))
        saved_icd_filenames = strdup(getenv("OCL_ICD_FILENAMES"));
    bool list = false;
    int npat = 0;
    char **pat = calloc((size_t)argc + 1, sizeof *pat);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list"))
            list = true;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: clirr-tests [--list] [PATTERN...]\n"
                   "Runs every case whose name contains a PATTERN (all by default)\n"
                   "on every device selected by CLIRR_TEST_DEVICES (default: all).\n");
            return 0;
        } else
            pat[npat++] = argv[i];
    }

    register_all();

    /* Devices: listed only when a selected case needs one. */
    bool need_devices = false;
    for (size_t i = 0; i < nentries; i++)
        if (entries[i].per_device && selected(entries[i].name, npat, pat))
            need_devices = true;

    clirr_device *devs = NULL;
    size_t ndev = 0, *picked = NULL, npicked = 0;
    clirr_error err;
    clirr_error_clear(&err);
    if (need_devices && !list) {
        if (clirr_device_list(&devs, &ndev, &err) != CLIRR_OK) {
            printf("FAIL devices: %s\n", err.msg);
            printf("0 passed, 1 failed, 0 skipped\n");
            return 1;
        }
        picked = calloc(ndev, sizeof *picked);
        const char *sel = getenv("CLIRR_TEST_DEVICES");
        if (clirr_device_select(devs, ndev, sel && *sel ? sel : "all", picked, &npicked, &err) != CLIRR_OK) {
            printf("FAIL devices: CLIRR_TEST_DEVICES: %s\n", err.msg);
            printf("0 passed, 1 failed, 0 skipped\n");
            return 1;
        }
        for (size_t d = 0; d < npicked; d++)
            printf("device %u: %s (%s)\n", devs[picked[d]].index, devs[picked[d]].caps.name,
                   devs[picked[d]].caps.platform);
        fflush(stdout);
    }

    size_t passed = 0, failed = 0, skipped = 0;
    /* Host-only cases first, then device cases device by device, so one
     * context per device serves all of its cases. */
    for (size_t i = 0; i < nentries; i++) {
        th_entry *e = &entries[i];
        if (e->per_device || !selected(e->name, npat, pat))
            continue;
        if (list)
            printf("%s\n", e->name);
        else
            run_one(e, NULL, NULL, &passed, &failed, &skipped);
    }
    if (list) {
        for (size_t i = 0; i < nentries; i++)
            if (entries[i].per_device && selected(entries[i].name, npat, pat))
                printf("%s [each device]\n", entries[i].name);
        return 0;
    }
    for (size_t d = 0; d < npicked; d++) {
        const clirr_device *dev = &devs[picked[d]];
        for (size_t i = 0; i < nentries; i++)
            if (entries[i].per_device && !entries[i].needs_ctx && selected(entries[i].name, npat, pat))
                run_one(&entries[i], dev, NULL, &passed, &failed, &skipped);
        clirr_ctx *ctx = NULL;
        bool any = false;
        for (size_t i = 0; i < nentries; i++)
            any |= entries[i].needs_ctx && selected(entries[i].name, npat, pat);
        if (!any)
            continue;
        if (clirr_ctx_create(dev, &ctx, &err) != CLIRR_OK) {
            printf("FAIL context [%s]: %s\n", dev->caps.name, err.msg);
            failed++;
            continue;
        }
        for (size_t i = 0; i < nentries; i++)
            if (entries[i].needs_ctx && selected(entries[i].name, npat, pat))
                run_one(&entries[i], dev, ctx, &passed, &failed, &skipped);
        clirr_ctx_release(ctx);
    }
    if (tmpdir[0])
        remove_tree(tmpdir);
    printf("%zu passed, %zu failed, %zu skipped\n", passed, failed, skipped);
    free(picked);
    free(devs);
    free(pat);
    free(entries);
    free(saved_icd_filenames);
    return failed ? 1 : 0;
}
