/* tests/harness.c - registers, filters and runs the cases; prints one line
 * per failure and a summary. Usage: clirr-tests --help.
 *
 * Cases run in processes of their own: this executable started again
 * (fork + exec of /proc/self/exe) in the hidden mode
 *     clirr-tests --run-cases DEVICE TMPROOT INDEX NAME [INDEX NAME]...
 * which runs the cases (INDEX checked against NAME) on device DEVICE (-1:
 * host only) with a context of its own, and reports each case's start and
 * outcome on fd 3. Exec and not a bare fork: OpenCL drivers start threads,
 * and a forked copy of a threaded process may only exec. The runner lists
 * devices but never opens a context, since a GPU in an exclusive compute
 * mode is offered to one process only.
 *
 * A process per case would double the suite's time (a process start, a
 * device listing and a context, and the programs loaded again, for cases
 * that take milliseconds), so one process runs a device's cases (and one
 * the host-only cases), unless --isolate. Isolation is kept where it
 * matters: when that process dies - a kernel that stores out of bounds
 * takes PoCL and Intel's CPU runtime down with it, as they run kernels in
 * the host process - or a case passes its time limit, the case it was on
 * fails (a crashed one is first run again alone, to tell its own crash
 * from damage done before it) and the cases after it run each in a process
 * of its own. The run always goes on to its summary. */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- registration ------------------------------------------------------- */

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

/* Constructors run in link order; sorting by file name makes the case list,
 * and so the indices --run-cases receives, independent of it. */
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

/* ---- paths -------------------------------------------------------------- */

const char *th_data_dir(void) { return CLIRR_TEST_DATA_DIR; }
const char *th_clirr_path(void) { return CLIRR_TEST_CLI; }

const char *th_runner_path(void)
{
    static char path[PATH_MAX];
    if (!path[0]) {
        ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
        if (len <= 0) {
            fprintf(stderr, "clirr-tests: cannot read /proc/self/exe: %s\n", strerror(errno));
            exit(3);
        }
        path[len] = '\0';
    }
    return path;
}

/* Where th_tmp_dir makes its folder: the runner's own folder for a case
 * process, so that the runner removes what a crashed case left behind. */
static const char *tmp_root;
static char tmpdir[PATH_MAX];

const char *th_tmp_dir(void)
{
    if (!tmpdir[0]) {
        const char *base = tmp_root ? tmp_root : getenv("TMPDIR");
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

static void remove_tree(const char *dir)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "clirr-tests: could not remove %s\n", dir);
}

/* ---- child processes ---------------------------------------------------- */

/* OCL_ICD_FILENAMES=... as the process started, before OpenCL touched it. */
static char *saved_icd_entry;

static void save_icd_filenames(void)
{
    const char *value = getenv("OCL_ICD_FILENAMES");
    if (!value)
        return;
    size_t size = strlen("OCL_ICD_FILENAMES=") + strlen(value) + 1;
    if ((saved_icd_entry = malloc(size)))
        snprintf(saved_icd_entry, size, "OCL_ICD_FILENAMES=%s", value);
}

/* Whether two "NAME=VALUE" (or "NAME") entries name the same variable. */
static bool same_variable(const char *a, const char *b)
{
    size_t la = strcspn(a, "="), lb = strcspn(b, "=");
    return la == lb && !memcmp(a, b, la);
}

/* Set ("NAME=VALUE") or unset ("NAME") one variable of env[0..n). */
static size_t env_apply(char **env, size_t n, char *change)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!same_variable(env[i], change))
            env[kept++] = env[i];
    if (strchr(change, '='))
        env[kept++] = change;
    return kept;
}

/* The environment a child starts with, NULL-terminated (free the array, its
 * strings are borrowed): ours, with OCL_ICD_FILENAMES as it was at start -
 * the ICD loader (ocl-icd) splits it in place, so after this process listed
 * its platforms the variable names only the first driver - and then the
 * changes. Built before fork: the child may only make async-signal-safe
 * calls before exec. */
static char **child_environment(char *const changes[])
{
    size_t n = 0, nchanges = 0;
    while (environ[n])
        n++;
    while (changes && changes[nchanges])
        nchanges++;
    char **env = malloc((n + nchanges + 2) * sizeof *env);
    if (!env)
        return NULL;
    memcpy(env, environ, n * sizeof *env);
    if (saved_icd_entry)
        n = env_apply(env, n, saved_icd_entry);
    for (size_t i = 0; i < nchanges; i++)
        n = env_apply(env, n, changes[i]);
    env[n] = NULL;
    return env;
}

/* Where a case process writes its th_report. */
#define TH_REPORT_FD 3

/* Fork and exec path. The child's stdout, stderr and fd TH_REPORT_FD become
 * fds[0..2] where those are >= 0. With own_group the child leads a process
 * group of its own, so that a time limit kills it with all it started. Any
 * child dies with its parent (PR_SET_PDEATHSIG) instead of running on
 * unseen: a killed runner takes its cases along, a killed case the
 * programs it runs. */
static pid_t spawn(const char *path, char *const argv[], char *const env[], const int fds[3],
                   bool own_group)
{
    pid_t parent = getpid();
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    if (own_group)
        setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    for (int i = 0; i < 3; i++) {
        int target = i < 2 ? i + 1 : TH_REPORT_FD;
        if (fds[i] < 0)
            continue;
        if (fds[i] == target)
            fcntl(target, F_SETFD, 0); /* keep it across exec */
        else if (dup2(fds[i], target) < 0)
            _exit(127);
    }
    execve(path, argv, env);
    _exit(127);
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

int th_run_env(char *const argv[], char *const env[], char *out, size_t out_size,
               char *errbuf, size_t err_size, int *signo)
{
    if (signo)
        *signo = 0;
    /* Capture through files: no deadlock when both streams are large. */
    char opath[PATH_MAX + 16], epath[PATH_MAX + 16];
    snprintf(opath, sizeof opath, "%s/run-out-XXXXXX", th_tmp_dir());
    snprintf(epath, sizeof epath, "%s/run-err-XXXXXX", th_tmp_dir());
    int ofd = mkstemp(opath), efd = mkstemp(epath);
    char **child_env = child_environment(env);
    pid_t pid = -1;
    if (ofd >= 0 && efd >= 0 && child_env)
        pid = spawn(argv[0], argv, child_env, (const int[3]){ofd, efd, -1}, false);
    free(child_env);
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (ofd >= 0) {
        lseek(ofd, 0, SEEK_SET);
        slurp(ofd, out, out_size);
        close(ofd);
        unlink(opath);
    }
    if (efd >= 0) {
        lseek(efd, 0, SEEK_SET);
        slurp(efd, errbuf, err_size);
        close(efd);
        unlink(epath);
    }
    if (pid < 0)
        return -1;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (signo && WIFSIGNALED(status))
        *signo = WTERMSIG(status);
    return -1;
}

int th_run(char *const argv[], char *out, size_t out_size, char *errbuf, size_t err_size,
           int *signo)
{
    return th_run_env(argv, NULL, out, out_size, errbuf, err_size, signo);
}

bool th_write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

bool th_write_text(const char *path, const char *text)
{
    return th_write_bytes(path, text, strlen(text));
}

#define TH_CLIRR_MAX_ARGS 40

int th_clirr_run(th_case *tc, char *out, size_t out_size, char *errbuf, size_t err_size, const char *first, ...)
{
    char *argv[TH_CLIRR_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)th_clirr_path();
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc <= TH_CLIRR_MAX_ARGS; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    int sig = 0, rc = th_run(argv, out, out_size, errbuf, err_size, &sig);
    if (sig)
        th_fail(tc, __FILE__, __LINE__, "clirr %s died with signal %d", first ? first : "", sig);
    return rc;
}

/* ---- cases in a process of their own (--run-cases) ---------------------- */

/* What a case process writes on TH_REPORT_FD: TH_STARTED before each case,
 * then its outcome. */
typedef enum { TH_PASS, TH_FAIL, TH_SKIP, TH_STARTED } th_report_kind;

typedef struct th_report {
    int kind;
    unsigned position; /* in the process's list of cases */
    char msg[sizeof ((th_case *)0)->msg];
} th_report;
_Static_assert(sizeof(th_report) <= PIPE_BUF, "one write() must deliver a report whole");

static void send_report(th_report_kind kind, size_t position, const char *msg)
{
    th_report report = {kind, (unsigned)position, ""};
    snprintf(report.msg, sizeof report.msg, "%s", msg);
    fflush(NULL); /* what the case printed comes before its line */
    if (write(TH_REPORT_FD, &report, sizeof report) != (ssize_t)sizeof report)
        fprintf(stderr, "clirr-tests: cannot report to the runner: %s\n", strerror(errno));
}

/* Find device dev_index and, when a case wants one, open a context; a
 * failure is recorded in *setup. */
static void open_device(th_case *setup, long dev_index, bool want_ctx, clirr_device **devs,
                        clirr_ctx **ctx)
{
    clirr_error err;
    clirr_error_clear(&err);
    size_t ndev = 0;
    if (clirr_device_list(devs, &ndev, &err) != CLIRR_OK) {
        th_fail(setup, __FILE__, __LINE__, "cannot list devices: %s", err.msg);
        return;
    }
    for (size_t d = 0; d < ndev; d++)
        if ((*devs)[d].index == (unsigned long)dev_index)
            setup->device = &(*devs)[d];
    if (!setup->device)
        th_fail(setup, __FILE__, __LINE__, "device %ld is gone", dev_index);
    else if (want_ctx && clirr_ctx_create(setup->device, ctx, &err) != CLIRR_OK)
        th_fail(setup, __FILE__, __LINE__, "cannot open a context: %s", err.msg);
}

/* The case the runner means by INDEX NAME, or NULL. */
static const th_entry *find_entry(const char *index_text, const char *name)
{
    char *end;
    unsigned long index = strtoul(index_text, &end, 10);
    if (*end || index >= nentries || strcmp(entries[index].name, name) != 0)
        return NULL;
    return &entries[index];
}

/* args: DEVICE TMPROOT INDEX NAME [INDEX NAME]... (DEVICE -1: host-only
 * cases). Runs the cases in order, sharing one context. */
/* A case process's exit status when it stopped after a failed device
 * case: a GPU fault (an out-of-bounds store, say) can leave the context
 * unusable without ending the process, so the cases after it go to a new
 * process with a new context. */
#define TH_EXIT_NEW_CONTEXT 75

static int run_cases(int nargs, char **args)
{
    int code = 0;
    /* th_run's children must not hold the report pipe open. */
    fcntl(TH_REPORT_FD, F_SETFD, FD_CLOEXEC);
    long dev_index = strtol(args[0], NULL, 10);
    tmp_root = args[1];
    size_t ncases = (size_t)(nargs - 2) / 2;
    const th_entry **cases = calloc(ncases + 1, sizeof *cases);
    bool want_ctx = false;
    for (size_t k = 0; cases && k < ncases; k++) {
        cases[k] = find_entry(args[2 + 2 * k], args[3 + 2 * k]);
        want_ctx |= cases[k] && cases[k]->needs_ctx;
    }
    th_case setup = {.name = "setup"};
    clirr_device *devs = NULL;
    clirr_ctx *ctx = NULL;
    if (!cases)
        th_fail(&setup, __FILE__, __LINE__, "out of memory");
    else if (dev_index >= 0)
        open_device(&setup, dev_index, want_ctx, &devs, &ctx);
    for (size_t k = 0; k < ncases; k++) {
        send_report(TH_STARTED, k, "");
        th_case tc = {.name = args[3 + 2 * k], .device = setup.device, .ctx = ctx};
        if (setup.failed) {
            tc.failed = true;
            memcpy(tc.msg, setup.msg, sizeof tc.msg);
        } else if (!cases[k])
            th_fail(&tc, __FILE__, __LINE__, "no case %s at index %s", tc.name, args[2 + 2 * k]);
        else {
            tc.param = cases[k]->param;
            cases[k]->fn(&tc);
        }
        send_report(tc.failed ? TH_FAIL : tc.skipped ? TH_SKIP : TH_PASS, k, tc.msg);
        if (tc.failed && ctx && k + 1 < ncases) {
            code = TH_EXIT_NEW_CONTEXT;
            break;
        }
    }
    clirr_ctx_release(ctx);
    free(devs);
    free(cases);
    if (tmpdir[0])
        remove_tree(tmpdir);
    return code;
}

/* ---- the runner --------------------------------------------------------- */

typedef enum { TH_PENDING, TH_RUNNING, TH_DONE } th_state;

/* One case on one device (NULL: a host-only case). */
typedef struct th_item {
    size_t entry;
    const clirr_device *dev;
    th_state state;
    bool alone;         /* never shares a process */
    char crashed[64];   /* how a shared process ended in this case */
} th_item;

/* A process running cases; items[nreported] is the one it is on. */
typedef struct th_job {
    th_item **items;            /* room for every case */
    size_t nitems, nreported;
    pid_t pid;                  /* 0: the slot is free */
    int report_fd;              /* read end of the report pipe */
    bool report_eof, timed_out;
    uint64_t case_started_ns;   /* of items[nreported] */
    th_report in;               /* a report being read */
    size_t in_got;
    /* The last result, printed once the next case starts or the process
     * ends, so that a crash on the way out fails the case just before. */
    th_report held;
    bool holding;
    double held_seconds;
} th_job;

typedef struct th_runner {
    th_item *items;
    size_t nitems, ndone;
    th_job *jobs;
    size_t njobs, nrunning;
    unsigned timeout_s;   /* 0: no limit */
    bool share;           /* a device's cases share a process */
    bool times, progress, progress_tty, progress_shown;
    size_t passed, failed, skipped;
} th_runner;

/* SIGCHLD writes a byte here, so that poll() wakes for a finished process
 * as well as for reports and time limits. */
static int sigchld_pipe[2] = {-1, -1};

static void on_sigchld(int sig)
{
    (void)sig;
    int saved = errno;
    ssize_t k = write(sigchld_pipe[1], "", 1);
    (void)k; /* a full pipe already holds a wake-up */
    errno = saved;
}

static bool watch_children(void)
{
    if (pipe(sigchld_pipe) != 0)
        return false;
    for (int i = 0; i < 2; i++) {
        fcntl(sigchld_pipe[i], F_SETFD, FD_CLOEXEC);
        fcntl(sigchld_pipe[i], F_SETFL, O_NONBLOCK);
    }
    struct sigaction sa = {.sa_handler = on_sigchld, .sa_flags = SA_RESTART | SA_NOCLDSTOP};
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGCHLD, &sa, NULL) == 0;
}

static const char *signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGILL, "SIGILL"},   {SIGFPE, "SIGFPE"},
        {SIGABRT, "SIGABRT"}, {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
        {SIGTRAP, "SIGTRAP"}, {SIGPIPE, "SIGPIPE"}, {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"},
        {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGALRM, "SIGALRM"}, {SIGUSR1, "SIGUSR1"},
        {SIGUSR2, "SIGUSR2"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    static char other[32];
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}

static void device_label(const th_item *it, char *where, size_t size)
{
    where[0] = '\0';
    if (it->dev)
        snprintf(where, size, " [%s]", it->dev->caps.name);
}

static void clear_progress(th_runner *r)
{
    if (r->progress_shown)
        fputs("\r\033[K", stderr);
    r->progress_shown = false;
}

/* "[i/N] name [device]" on stderr: one line each, or on a terminal one
 * line rewritten in place. */
static void show_progress(th_runner *r, const th_item *it)
{
    if (!r->progress)
        return;
    char where[300];
    device_label(it, where, sizeof where);
    clear_progress(r);
    fprintf(stderr, "[%zu/%zu] %s%s%s", r->ndone + 1, r->nitems, entries[it->entry].name, where,
            r->progress_tty ? "" : "\n");
    r->progress_shown = r->progress_tty;
    fflush(stderr);
}

static void print_result(th_runner *r, const th_item *it, th_report_kind outcome,
                         const char *msg, double seconds)
{
    char where[300];
    device_label(it, where, sizeof where);
    const char *name = entries[it->entry].name;
    clear_progress(r);
    if (outcome == TH_FAIL) {
        printf("FAIL %s%s: %s\n", name, where, msg);
        r->failed++;
    } else if (outcome == TH_SKIP) {
        printf("SKIP %s%s: %s\n", name, where, msg);
        r->skipped++;
    } else {
        r->passed++;
    }
    if (r->times)
        printf("%7.2f s  %s%s\n", seconds, name, where);
    fflush(stdout);
}

/* A case is over: print its line. One that crashed a shared process and
 * then did not fail alone still fails, saying so. */
static void end_case(th_runner *r, th_item *it, th_report_kind outcome, const char *msg,
                     double seconds)
{
    char text[sizeof ((th_report *)0)->msg + 160];
    if (it->crashed[0] && outcome != TH_FAIL) {
        snprintf(text, sizeof text,
                 "%s when it shared a process with the cases before it; alone it %s%s",
                 it->crashed, outcome == TH_PASS ? "passed" : "was skipped: ",
                 outcome == TH_PASS ? "" : msg);
        outcome = TH_FAIL;
        msg = text;
    }
    it->state = TH_DONE;
    r->ndone++;
    print_result(r, it, outcome, msg, seconds);
}

static void release_held(th_runner *r, th_job *job)
{
    if (job->holding)
        end_case(r, job->items[job->nreported - 1], (th_report_kind)job->held.kind, job->held.msg,
                 job->held_seconds);
    job->holding = false;
}

static void take_report(th_runner *r, th_job *job, const th_report *report)
{
    if (report->position != job->nreported || job->nreported == job->nitems)
        return; /* not from this runner's protocol */
    uint64_t now = clirr_now_ns();
    if (report->kind == TH_STARTED) {
        release_held(r, job);
        show_progress(r, job->items[job->nreported]);
    } else {
        job->held = *report;
        job->holding = true;
        job->held_seconds = (double)(now - job->case_started_ns) * 1e-9;
        job->nreported++;
    }
    job->case_started_ns = now;
}

static void read_reports(th_runner *r, th_job *job)
{
    while (!job->report_eof) {
        ssize_t k = read(job->report_fd, (char *)&job->in + job->in_got, sizeof job->in - job->in_got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            job->report_eof = k == 0;
            return;
        }
        job->in_got += (size_t)k;
        if (job->in_got == sizeof job->in) {
            job->in_got = 0;
            take_report(r, job, &job->in);
        }
    }
}

/* argv for --run-cases with the job's cases; the numbers it points to are
 * in *numbers. Free both. */
static char **run_cases_argv(const th_job *job, char **numbers)
{
    enum { NUMBER = 24 };
    char **argv = calloc(2 * job->nitems + 5, sizeof *argv);
    char *text = *numbers = calloc(job->nitems + 1, NUMBER);
    if (!argv || !text)
        return argv; /* the caller sees the NULL in *numbers */
    const th_item *first = job->items[0];
    snprintf(text, NUMBER, "%ld", first->dev ? (long)first->dev->index : -1L);
    char *fixed[] = {(char *)th_runner_path(), "--run-cases", text, (char *)th_tmp_dir()};
    memcpy(argv, fixed, sizeof fixed);
    for (size_t k = 0; k < job->nitems; k++) {
        char *index = text + NUMBER * (k + 1);
        snprintf(index, NUMBER, "%zu", job->items[k]->entry);
        argv[4 + 2 * k] = index;
        argv[5 + 2 * k] = (char *)entries[job->items[k]->entry].name;
    }
    return argv;
}

static void start_job(th_runner *r, th_job *job)
{
    *job = (th_job){.items = job->items, .nitems = job->nitems, .report_fd = -1,
                    .case_started_ns = clirr_now_ns()};
    for (size_t k = 0; k < job->nitems; k++)
        job->items[k]->state = TH_RUNNING;
    int report[2] = {-1, -1};
    char *numbers = NULL;
    char **argv = run_cases_argv(job, &numbers), **env = child_environment(NULL);
    pid_t pid = -1;
    if (argv && numbers && env && pipe(report) == 0) {
        /* Other processes must not inherit the pipe; reading must not block. */
        fcntl(report[0], F_SETFD, FD_CLOEXEC);
        fcntl(report[1], F_SETFD, FD_CLOEXEC);
        fcntl(report[0], F_SETFL, O_NONBLOCK);
        pid = spawn("/proc/self/exe", argv, env, (const int[3]){-1, -1, report[1]}, true);
    }
    int spawn_errno = errno;
    free(argv);
    free(numbers);
    free(env);
    if (report[1] >= 0)
        close(report[1]);
    if (pid < 0) {
        if (report[0] >= 0)
            close(report[0]);
        for (size_t k = 0; k < job->nitems; k++)
            end_case(r, job->items[k], TH_FAIL, strerror(spawn_errno), 0);
        return;
    }
    setpgid(pid, pid); /* as the child does, so a kill cannot precede it */
    job->pid = pid;
    job->report_fd = report[0];
    r->nrunning++;
}

/* How a case process ended: "" when it exited with status 0. */
static void describe_end(const th_runner *r, const th_job *job, int status, char *how, size_t size)
{
    how[0] = '\0';
    if (!job->timed_out && WIFEXITED(status) && WEXITSTATUS(status) == TH_EXIT_NEW_CONTEXT)
        return; /* stopped on purpose after a failure: see finish_job */
    if (job->timed_out)
        snprintf(how, size, "timed out after %u s", r->timeout_s);
    else if (WIFSIGNALED(status))
        snprintf(how, size, "killed by %s", signal_name(WTERMSIG(status)));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        snprintf(how, size, "exited with status %d", WEXITSTATUS(status));
}

/* The process is gone. Its cases that reported are over; the one it was on
 * fails - or, when it shared the process and did not time out, runs again
 * alone to tell its own crash from damage done by the cases before it -
 * and the ones after it run each alone. */
static void finish_job(th_runner *r, th_job *job, int status)
{
    read_reports(r, job);
    close(job->report_fd);
    char how[64];
    describe_end(r, job, status, how, sizeof how);
    bool all_reported = job->nreported == job->nitems;
    if (job->holding && how[0] && all_reported) {
        char msg[sizeof job->held.msg + 64];
        snprintf(msg, sizeof msg, "%s after the case ended%s%s", how,
                 job->held.kind == TH_FAIL ? ", which had failed: " : "",
                 job->held.kind == TH_FAIL ? job->held.msg : "");
        job->holding = false;
        end_case(r, job->items[job->nreported - 1], TH_FAIL, msg, job->held_seconds);
    }
    release_held(r, job);
    if (!all_reported && !job->timed_out && WIFEXITED(status) &&
        WEXITSTATUS(status) == TH_EXIT_NEW_CONTEXT) {
        /* It stopped after a failed case: the rest share a new process. */
        for (size_t k = job->nreported; k < job->nitems; k++)
            job->items[k]->state = TH_PENDING;
    } else if (!all_reported) {
        th_item *it = job->items[job->nreported];
        if (!how[0])
            snprintf(how, sizeof how, "exited before the case ended");
        double seconds = (double)(clirr_now_ns() - job->case_started_ns) * 1e-9;
        if (job->nitems == 1 || job->timed_out)
            end_case(r, it, TH_FAIL, how, seconds);
        else
            snprintf(it->crashed, sizeof it->crashed, "%s", how);
        for (size_t k = job->nreported; k < job->nitems; k++) {
            if (job->items[k]->state == TH_RUNNING)
                job->items[k]->state = TH_PENDING;
            job->items[k]->alone = true;
        }
    }
    job->pid = 0;
    r->nrunning--;
}

/* Only the cases' processes are waited for here: a driver may have children
 * of its own to wait for. */
static void reap_finished(th_runner *r)
{
    for (size_t j = 0; j < r->njobs; j++) {
        th_job *job = &r->jobs[j];
        siginfo_t si = {0};
        if (!job->pid || waitid(P_PID, (id_t)job->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
            si.si_pid != job->pid)
            continue;
        /* While the process is a zombie its group id cannot be reused: end
         * what it left running (th_run children of a case that crashed). */
        kill(-job->pid, SIGKILL);
        int status = 0;
        if (waitpid(job->pid, &status, 0) == job->pid)
            finish_job(r, job, status);
    }
}

/* Milliseconds until the first running case reaches its limit; -1: none. */
static int next_deadline_ms(const th_runner *r)
{
    if (!r->timeout_s)
        return -1;
    uint64_t now = clirr_now_ns(), limit = (uint64_t)r->timeout_s * 1000000000u;
    int64_t first = INT64_MAX;
    for (size_t j = 0; j < r->njobs; j++) {
        const th_job *job = &r->jobs[j];
        if (!job->pid || job->timed_out)
            continue;
        int64_t left = (int64_t)(job->case_started_ns + limit) - (int64_t)now;
        if (left < first)
            first = left;
    }
    if (first == INT64_MAX)
        return -1;
    return first <= 0 ? 0 : (int)(first / 1000000 + 1);
}

static void kill_overdue(th_runner *r)
{
    if (!r->timeout_s)
        return;
    uint64_t now = clirr_now_ns(), limit = (uint64_t)r->timeout_s * 1000000000u;
    for (size_t j = 0; j < r->njobs; j++) {
        th_job *job = &r->jobs[j];
        if (job->pid && !job->timed_out && now - job->case_started_ns >= limit) {
            kill(-job->pid, SIGKILL); /* reaped with the others */
            job->timed_out = true;
        }
    }
}

/* Sleep until a report comes, a process ends or a time limit passes. */
static void wait_for_jobs(th_runner *r)
{
    struct pollfd fds[r->njobs + 1];
    th_job *of[r->njobs + 1];
    nfds_t n = 0;
    fds[n] = (struct pollfd){.fd = sigchld_pipe[0], .events = POLLIN};
    of[n++] = NULL;
    for (size_t j = 0; j < r->njobs; j++)
        if (r->jobs[j].pid && !r->jobs[j].report_eof) {
            fds[n] = (struct pollfd){.fd = r->jobs[j].report_fd, .events = POLLIN};
            of[n++] = &r->jobs[j];
        }
    if (poll(fds, n, next_deadline_ms(r)) > 0) {
        char drain[64];
        while (read(sigchld_pipe[0], drain, sizeof drain) > 0)
            ;
        for (nfds_t i = 1; i < n; i++)
            if (fds[i].revents)
                read_reports(r, of[i]);
    }
    reap_finished(r);
    kill_overdue(r);
}

/* Whether a case may share a process with others of its device: not one
 * that runs without a context, as it starts clirr, which needs the device
 * this process would hold. */
static bool shareable(const th_runner *r, const th_item *it)
{
    return r->share && !it->alone && (!it->dev || entries[it->entry].needs_ctx);
}

static bool device_busy(const th_runner *r, const clirr_device *dev)
{
    for (size_t j = 0; j < r->njobs && dev; j++)
        if (r->jobs[j].pid && r->jobs[j].items[0]->dev == dev)
            return true;
    return false;
}

/* The next process's cases: the first pending case whose device no running
 * process uses (one process per device, as a device may be offered to one
 * process only), with every later pending case of that device that can
 * share the process, if it can. */
static bool gather(th_runner *r, th_job *job)
{
    job->nitems = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        th_item *it = &r->items[i];
        if (it->state != TH_PENDING)
            continue;
        if (job->nitems == 0 && !device_busy(r, it->dev))
            job->items[job->nitems++] = it;
        else if (job->nitems && it->dev == job->items[0]->dev && shareable(r, it) &&
                 shareable(r, job->items[0]))
            job->items[job->nitems++] = it;
    }
    return job->nitems > 0;
}

static th_job *free_slot(th_runner *r)
{
    for (size_t j = 0; j < r->njobs; j++)
        if (!r->jobs[j].pid)
            return &r->jobs[j];
    return NULL;
}

static void run_all(th_runner *r)
{
    for (;;) {
        th_job *slot;
        while ((slot = free_slot(r)) && gather(r, slot))
            start_job(r, slot);
        if (!r->nrunning)
            break;
        wait_for_jobs(r);
    }
    clear_progress(r);
}

/* ---- main --------------------------------------------------------------- */

typedef struct th_options {
    bool list, times, progress, isolate;
    unsigned timeout_s, jobs;
    int npat;
    char **pat;
} th_options;

/* A PATTERN matches a name that contains it; one ending in '$' must end
 * the name (to pick algo/bfs/topo but not algo/bfs/topo/template/...). */
static bool matches(const char *name, const char *pat)
{
    size_t len = strlen(pat);
    if (len == 0 || pat[len - 1] != '$')
        return strstr(name, pat) != NULL;
    size_t name_len = strlen(name);
    return name_len >= len - 1 && !memcmp(name + name_len - (len - 1), pat, len - 1);
}

static bool selected(const char *name, const th_options *o)
{
    if (o->npat == 0)
        return true;
    for (int i = 0; i < o->npat; i++)
        if (matches(name, o->pat[i]))
            return true;
    return false;
}

static bool parse_count(const char *text, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = text ? strtoul(text, &end, 10) : 0;
    if (!text || !*text || *end || errno || v > 1000000)
        return false;
    *out = (unsigned)v;
    return true;
}

static void usage(void)
{
    printf("usage: clirr-tests [OPTIONS] [PATTERN...]\n"
           "Runs every case whose name contains a PATTERN (all by default; a PATTERN\n"
           "ending in '$' must end the name) on every device selected by\n"
           "CLIRR_TEST_DEVICES (default: all), in processes apart from the runner:\n"
           "one for each device's cases, and once one dies (a crash, a time limit)\n"
           "one for each case after it.\n"
           "  --list        list the selected cases\n"
           "  --isolate     one process for every case (slower)\n"
           "  --times       print each case's own time, and the total\n"
           "  --progress    show the running case on stderr (the default when stdout\n"
           "                is a terminal)\n"
           "  --timeout N   fail a case that runs longer than N seconds (default 600,\n"
           "                or CLIRR_TEST_TIMEOUT; 0: no limit)\n"
           "  -j N          run up to N processes at once, at most one per device\n"
           "                (default 1, at most 64); CPU devices share the host's memory\n"
           "The last line is the summary: N passed, M failed, K skipped.\n");
}

/* Returns 0 to go on, else 1 + the exit status. */
static int parse_options(int argc, char **argv, th_options *o)
{
    *o = (th_options){.timeout_s = 600, .jobs = 1, .progress = isatty(STDOUT_FILENO)};
    o->pat = calloc((size_t)argc + 1, sizeof *o->pat);
    const char *env = getenv("CLIRR_TEST_TIMEOUT");
    if (env && *env && !parse_count(env, &o->timeout_s)) {
        fprintf(stderr, "clirr-tests: CLIRR_TEST_TIMEOUT=%s is not a number of seconds\n", env);
        return 1 + 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--list"))
            o->list = true;
        else if (!strcmp(a, "--times"))
            o->times = true;
        else if (!strcmp(a, "--progress"))
            o->progress = true;
        else if (!strcmp(a, "--isolate"))
            o->isolate = true;
        else if (!strcmp(a, "--timeout") || !strcmp(a, "-j")) {
            unsigned *target = a[1] == 'j' ? &o->jobs : &o->timeout_s;
            if (!parse_count(argv[i + 1], target) ||
                (target == &o->jobs && (o->jobs < 1 || o->jobs > 64))) {
                fprintf(stderr, "clirr-tests: %s needs a number\n", a);
                return 1 + 2;
            }
            i++;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            return 1 + 0;
        } else
            o->pat[o->npat++] = argv[i];
    }
    return 0;
}

static void list_cases(const th_options *o)
{
    for (size_t i = 0; i < nentries; i++)
        if (!entries[i].per_device && selected(entries[i].name, o))
            printf("%s\n", entries[i].name);
    for (size_t i = 0; i < nentries; i++)
        if (entries[i].per_device && selected(entries[i].name, o))
            printf("%s [each device]\n", entries[i].name);
}

/* The devices CLIRR_TEST_DEVICES selects, printed; false (with a FAIL line
 * and the summary printed) when there are none. */
static bool pick_devices(clirr_device **devs, size_t **picked, size_t *npicked)
{
    size_t ndev = 0;
    clirr_error err;
    clirr_error_clear(&err);
    if (clirr_device_list(devs, &ndev, &err) != CLIRR_OK) {
        printf("FAIL devices: %s\n", err.msg);
        printf("0 passed, 1 failed, 0 skipped\n");
        return false;
    }
    *picked = calloc(ndev, sizeof **picked);
    const char *sel = getenv("CLIRR_TEST_DEVICES");
    if (clirr_device_select(*devs, ndev, sel && *sel ? sel : "all", *picked, npicked, &err) != CLIRR_OK) {
        printf("FAIL devices: CLIRR_TEST_DEVICES: %s\n", err.msg);
        printf("0 passed, 1 failed, 0 skipped\n");
        return false;
    }
    for (size_t d = 0; d < *npicked; d++) {
        const clirr_device *dev = &(*devs)[(*picked)[d]];
        printf("device %u: %s (%s)\n", dev->index, dev->caps.name, dev->caps.platform);
    }
    fflush(stdout);
    return true;
}

/* Host-only cases first, then each device's cases, in registration order. */
static th_item *plan(const th_options *o, const clirr_device *devs, const size_t *picked,
                     size_t npicked, size_t *nitems)
{
    th_item *items = calloc(nentries * (npicked + 1) + 1, sizeof *items);
    size_t n = 0;
    for (size_t i = 0; items && i < nentries; i++)
        if (!entries[i].per_device && selected(entries[i].name, o))
            items[n++] = (th_item){.entry = i};
    for (size_t d = 0; items && d < npicked; d++)
        for (size_t i = 0; i < nentries; i++)
            if (entries[i].per_device && selected(entries[i].name, o))
                items[n++] = (th_item){.entry = i, .dev = &devs[picked[d]]};
    *nitems = n;
    return items;
}

int main(int argc, char **argv)
{
    save_icd_filenames();
    register_all();
    if (argc >= 6 && argc % 2 == 0 && !strcmp(argv[1], "--run-cases"))
        return run_cases(argc - 2, argv + 2);

    th_options o;
    int stop = parse_options(argc, argv, &o);
    if (stop)
        return stop - 1;
    if (o.list) {
        list_cases(&o);
        return 0;
    }

    /* Devices: listed only when a selected case needs one. */
    bool need_devices = false;
    for (size_t i = 0; i < nentries; i++)
        need_devices |= entries[i].per_device && selected(entries[i].name, &o);
    clirr_device *devs = NULL;
    size_t *picked = NULL, npicked = 0;
    if (need_devices && !pick_devices(&devs, &picked, &npicked))
        return 1;

    th_runner r = {.timeout_s = o.timeout_s, .share = !o.isolate, .times = o.times,
                   .progress = o.progress, .progress_tty = isatty(STDERR_FILENO), .njobs = o.jobs};
    r.items = plan(&o, devs, picked, npicked, &r.nitems);
    r.jobs = calloc(r.njobs, sizeof *r.jobs);
    bool ready = r.items && r.jobs && watch_children();
    for (size_t j = 0; ready && j < r.njobs; j++)
        ready = (r.jobs[j].items = calloc(r.nitems + 1, sizeof *r.jobs[j].items));
    if (!ready) {
        fprintf(stderr, "clirr-tests: cannot start: %s\n", strerror(errno));
        return 3;
    }
    uint64_t t0 = clirr_now_ns();
    run_all(&r);
    if (o.times)
        printf("%7.2f s  total, %zu cases\n", (double)(clirr_now_ns() - t0) * 1e-9, r.nitems);
    if (tmpdir[0])
        remove_tree(tmpdir);
    printf("%zu passed, %zu failed, %zu skipped\n", r.passed, r.failed, r.skipped);
    for (size_t j = 0; j < r.njobs; j++)
        free(r.jobs[j].items);
    free(r.items);
    free(r.jobs);
    free(picked);
    free(devs);
    free(o.pat);
    free(entries);
    free(saved_icd_entry);
    return r.failed ? 1 : 0;
}

const clirr_extra *th_extra(const clirr_extras *x, const char *name)
{
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->e[i].name, name))
            return &x->e[i];
    return NULL;
}

const char *th_session_extra_text(clirr_session *s, const void *result, const char *name)
{
    clirr_extras x;
    memset(&x, 0, sizeof x);
    clirr_session_extras(s, result, &x);
    const clirr_extra *e = th_extra(&x, name);
    return e && e->type == CLIRR_EXTRA_TEXT ? e->text : NULL;
}

uint64_t th_session_extra_u(clirr_session *s, const void *result, const char *name)
{
    clirr_extras x;
    memset(&x, 0, sizeof x);
    clirr_session_extras(s, result, &x);
    const clirr_extra *e = th_extra(&x, name);
    return e ? e->u : UINT64_MAX;
}
