/* tests/harness.c - registers, filters and runs the cases; prints one line
 * per failure and a summary. Usage: clirr-tests --help.
 *
 * Every case runs in a process of its own: this executable started again
 * (fork + exec of /proc/self/exe) in the hidden mode
 *     clirr-tests --run-one INDEX NAME DEVICE TMPROOT
 * which runs case INDEX (checked against NAME) on device DEVICE (-1: host
 * only), opening its own context, and writes a th_report on fd 3. A kernel
 * that stores out of bounds (PoCL and Intel's CPU runtime run kernels inside
 * the host process) or never ends then fails its own case, and the run goes
 * on to its summary. Exec and not a bare fork: OpenCL drivers start threads,
 * and a forked copy of a threaded process may only exec. The runner itself
 * lists devices but never opens a context, since a GPU in an exclusive
 * compute mode is offered to one process only. */
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
 * and so the indices --run-one receives, independent of it. */
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

/* ---- one case, in its own process (--run-one) --------------------------- */

typedef enum { TH_PASS, TH_FAIL, TH_SKIP } th_outcome;

typedef struct th_report {
    int outcome;
    char msg[sizeof ((th_case *)0)->msg];
} th_report;
_Static_assert(sizeof(th_report) <= PIPE_BUF, "one write() must deliver a report whole");

/* Find device dev_index and, when the case wants one, open a context. */
static bool open_device(th_case *tc, const th_entry *e, long dev_index, clirr_device **devs,
                        clirr_ctx **ctx)
{
    clirr_error err;
    clirr_error_clear(&err);
    size_t ndev = 0;
    if (clirr_device_list(devs, &ndev, &err) != CLIRR_OK) {
        th_fail(tc, __FILE__, __LINE__, "cannot list devices: %s", err.msg);
        return false;
    }
    for (size_t d = 0; d < ndev; d++)
        if ((*devs)[d].index == (unsigned long)dev_index)
            tc->device = &(*devs)[d];
    if (!tc->device) {
        th_fail(tc, __FILE__, __LINE__, "device %ld is gone", dev_index);
        return false;
    }
    if (e->needs_ctx && clirr_ctx_create(tc->device, ctx, &err) != CLIRR_OK) {
        th_fail(tc, __FILE__, __LINE__, "cannot open a context: %s", err.msg);
        return false;
    }
    tc->ctx = *ctx;
    return true;
}

/* args: INDEX NAME DEVICE TMPROOT. */
static int run_one_case(char **args)
{
    /* th_run's children must not hold the report pipe open. */
    fcntl(TH_REPORT_FD, F_SETFD, FD_CLOEXEC);
    tmp_root = args[3];
    char *end;
    unsigned long index = strtoul(args[0], &end, 10);
    long dev_index = strtol(args[2], NULL, 10);
    th_case tc = {.name = args[1]};
    clirr_device *devs = NULL;
    clirr_ctx *ctx = NULL;
    if (*end || index >= nentries || strcmp(entries[index].name, args[1]) != 0) {
        th_fail(&tc, __FILE__, __LINE__, "no case %s at index %s", args[1], args[0]);
    } else {
        const th_entry *e = &entries[index];
        tc.param = e->param;
        if (dev_index < 0 || open_device(&tc, e, dev_index, &devs, &ctx))
            e->fn(&tc);
    }
    th_report report = {tc.failed ? TH_FAIL : tc.skipped ? TH_SKIP : TH_PASS, ""};
    memcpy(report.msg, tc.msg, sizeof report.msg);
    fflush(NULL);
    if (write(TH_REPORT_FD, &report, sizeof report) != (ssize_t)sizeof report)
        fprintf(stderr, "clirr-tests: cannot report %s: %s\n", tc.name, strerror(errno));
    clirr_ctx_release(ctx);
    free(devs);
    if (tmpdir[0])
        remove_tree(tmpdir);
    return 0;
}

/* ---- the runner --------------------------------------------------------- */

/* One case on one device (NULL: a host-only case). */
typedef struct th_item {
    size_t entry;
    const clirr_device *dev;
    bool started;
} th_item;

typedef struct th_job {
    th_item *item;
    pid_t pid;        /* 0: the slot is free */
    int report_fd;    /* read end of the case's report pipe */
    uint64_t started_ns;
    bool timed_out;
} th_job;

typedef struct th_runner {
    th_item *items;
    size_t nitems, nstarted;
    th_job *jobs;
    size_t njobs, nrunning;
    unsigned timeout_s;   /* 0: no limit */
    bool times, progress, progress_tty, progress_shown;
    size_t passed, failed, skipped;
} th_runner;

/* SIGCHLD writes a byte here, so that poll() wakes for a finished case as
 * well as for a time limit. */
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
    r->nstarted++;
    if (!r->progress)
        return;
    char where[300];
    device_label(it, where, sizeof where);
    clear_progress(r);
    fprintf(stderr, "[%zu/%zu] %s%s%s", r->nstarted, r->nitems, entries[it->entry].name, where,
            r->progress_tty ? "" : "\n");
    r->progress_shown = r->progress_tty;
    fflush(stderr);
}

static void print_result(th_runner *r, const th_item *it, th_outcome outcome, const char *msg,
                         double seconds)
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

static void start_job(th_runner *r, th_job *job, th_item *it)
{
    it->started = true;
    show_progress(r, it);
    *job = (th_job){.item = it, .report_fd = -1, .started_ns = clirr_now_ns()};
    int report[2];
    if (pipe(report) != 0) {
        print_result(r, it, TH_FAIL, strerror(errno), 0);
        return;
    }
    /* Other cases' processes must not inherit this pipe; the read end must
     * not block once its case is gone. */
    fcntl(report[0], F_SETFD, FD_CLOEXEC);
    fcntl(report[1], F_SETFD, FD_CLOEXEC);
    fcntl(report[0], F_SETFL, O_NONBLOCK);
    char index[32], device[32];
    snprintf(index, sizeof index, "%zu", it->entry);
    snprintf(device, sizeof device, "%ld", it->dev ? (long)it->dev->index : -1L);
    char *argv[] = {(char *)th_runner_path(), "--run-one", index, (char *)entries[it->entry].name,
                    device, (char *)th_tmp_dir(), NULL};
    char **env = child_environment(NULL);
    pid_t pid = env ? spawn("/proc/self/exe", argv, env, (const int[3]){-1, -1, report[1]}, true)
                    : -1;
    int spawn_errno = errno;
    free(env);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        print_result(r, it, TH_FAIL, strerror(spawn_errno), 0);
        return;
    }
    setpgid(pid, pid); /* as the child does, so a kill cannot precede it */
    job->pid = pid;
    job->report_fd = report[0];
    r->nrunning++;
}

/* Print a finished case's line from its report and how it ended. */
static void finish_job(th_runner *r, th_job *job, int status)
{
    th_report report;
    bool reported = read(job->report_fd, &report, sizeof report) == (ssize_t)sizeof report;
    close(job->report_fd);
    double seconds = (double)(clirr_now_ns() - job->started_ns) * 1e-9;
    char msg[sizeof report.msg + 64];
    th_outcome outcome = TH_FAIL;
    if (job->timed_out)
        snprintf(msg, sizeof msg, "timed out after %u s", r->timeout_s);
    else if (WIFSIGNALED(status))
        snprintf(msg, sizeof msg, "killed by %s%s", signal_name(WTERMSIG(status)),
                 reported ? " after the case ended" : "");
    else if (!reported)
        snprintf(msg, sizeof msg, "exited with status %d without a result", WEXITSTATUS(status));
    else if (WEXITSTATUS(status) != 0)
        snprintf(msg, sizeof msg, "exited with status %d after the case ended", WEXITSTATUS(status));
    else {
        outcome = (th_outcome)report.outcome;
        snprintf(msg, sizeof msg, "%s", report.msg);
    }
    print_result(r, job->item, outcome, msg, seconds);
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
        /* While the case's process is a zombie its group id cannot be
         * reused: end what it left running (th_run children of a case that
         * crashed). */
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
        int64_t left = (int64_t)(job->started_ns + limit) - (int64_t)now;
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
        if (job->pid && !job->timed_out && now - job->started_ns >= limit) {
            kill(-job->pid, SIGKILL); /* reaped with the others */
            job->timed_out = true;
        }
    }
}

static void wait_for_jobs(th_runner *r)
{
    struct pollfd wake = {.fd = sigchld_pipe[0], .events = POLLIN};
    if (poll(&wake, 1, next_deadline_ms(r)) > 0) {
        char drain[64];
        while (read(sigchld_pipe[0], drain, sizeof drain) > 0)
            ;
    }
    reap_finished(r);
    kill_overdue(r);
}

/* The first case not started whose device no running case uses: one case
 * at a time per device, as a device may be offered to one process only. */
static th_item *next_item(th_runner *r)
{
    for (size_t i = 0; i < r->nitems; i++) {
        th_item *it = &r->items[i];
        bool busy = false;
        for (size_t j = 0; j < r->njobs && it->dev && !busy; j++)
            busy = r->jobs[j].pid && r->jobs[j].item->dev == it->dev;
        if (!it->started && !busy)
            return it;
    }
    return NULL;
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
        th_item *it;
        while ((slot = free_slot(r)) && (it = next_item(r)))
            start_job(r, slot, it);
        if (!r->nrunning)
            break;
        wait_for_jobs(r);
    }
    clear_progress(r);
}

/* ---- main --------------------------------------------------------------- */

typedef struct th_options {
    bool list, times, progress;
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
           "CLIRR_TEST_DEVICES (default: all), each case in a process of its own.\n"
           "  --list        list the selected cases\n"
           "  --times       print each case's wall time, and the total\n"
           "  --progress    show the running case on stderr (the default when stdout\n"
           "                is a terminal)\n"
           "  --timeout N   fail a case that runs longer than N seconds (default 600,\n"
           "                or CLIRR_TEST_TIMEOUT; 0: no limit)\n"
           "  -j N          run up to N cases at once, at most one per device\n"
           "                (default 1); cases on CPU devices share the host's memory\n"
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
        else if (!strcmp(a, "--timeout") || !strcmp(a, "-j")) {
            unsigned *target = a[1] == 'j' ? &o->jobs : &o->timeout_s;
            if (!parse_count(argv[i + 1], target) || (target == &o->jobs && !o->jobs)) {
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
    if (argc == 6 && !strcmp(argv[1], "--run-one"))
        return run_one_case(argv + 2);

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

    th_runner r = {.timeout_s = o.timeout_s, .times = o.times, .progress = o.progress,
                   .progress_tty = isatty(STDERR_FILENO), .njobs = o.jobs};
    r.items = plan(&o, devs, picked, npicked, &r.nitems);
    r.jobs = calloc(r.njobs, sizeof *r.jobs);
    if (!r.items || !r.jobs || !watch_children()) {
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
    free(r.items);
    free(r.jobs);
    free(picked);
    free(devs);
    free(o.pat);
    free(entries);
    free(saved_icd_entry);
    return r.failed ? 1 : 0;
}
