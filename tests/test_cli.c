/* tests/test_cli.c - the clirr command as users meet it, after `run` and
 * `bench` became one experiment driver: help, exit codes (the worst case
 * wins: 3 device error > 2 bad usage, input or template > 1 verification
 * failed > 0), malformed files named with their line, a failing case or
 * input as a row or an error entry while the rest still runs, one JSON
 * document whatever happens, the --output contract checked against the
 * references, the option table shared by run and bench (descriptor
 * parameters and their lists, sources, work-group options, --explain,
 * --kernels), cold and warm binary caches, gen, and devices. */
#include "harness.h"
#include "ref/ref.h"

#include <dirent.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define OUT_MAX (1 << 20)

static char out[OUT_MAX], errtext[1 << 16];

/* Run clirr (arguments up to a NULL), its output into out and errtext. */
#define clirr(tc, ...) th_clirr_run((tc), out, sizeof out, errtext, sizeof errtext, __VA_ARGS__)

static void dev_arg(th_case *tc, char *buf, size_t size)
{
    snprintf(buf, size, "%u", tc->device->index);
}

/* Set (value != NULL) or unset an environment variable for the children
 * started next; returns the previous value (malloc'd) for restore_env, so
 * a variable the runner was started with survives the case. */
static char *swap_env(const char *name, const char *value)
{
    const char *old = getenv(name);
    char *saved = old ? strdup(old) : NULL;
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    return saved;
}

static void restore_env(const char *name, char *saved)
{
    if (saved)
        setenv(name, saved, 1);
    else
        unsetenv(name);
    free(saved);
}

static bool write_bytes(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return (fclose(f) == 0) && ok;
}

static bool write_text(const char *path, const char *text)
{
    return write_bytes(path, text, strlen(text));
}

/* ---- JSON helpers ------------------------------------------------------ */

/* Parse text as exactly ONE JSON document: json_tokener_parse would stop
 * after the first value and ignore a second one printed after it (the old
 * CLI printed one object per run), so anything but white space after the
 * first value fails here. NULL (and a failure recorded) otherwise. */
static json_object *parse_doc(th_case *tc, const char *text, const char *what)
{
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return NULL;
    size_t len = strlen(text);
    json_object *o = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (!o || jerr != json_tokener_success) {
        th_fail(tc, __FILE__, __LINE__, "%s: not a JSON document (%s): %.200s", what,
                json_tokener_error_desc(jerr), text);
        json_object_put(o);
        return NULL;
    }
    while (end < len && strchr(" \t\r\n", text[end]))
        end++;
    if (end != len) {
        th_fail(tc, __FILE__, __LINE__, "%s: more than one JSON document; after the first: %.200s", what,
                text + end);
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* The member at a dotted path of object keys ("time_ms.build"), or NULL
 * (also for a JSON null). *present tells a null member from a missing one. */
static json_object *jpath(json_object *o, const char *path, bool *present)
{
    char key[128];
    if (present)
        *present = false;
    while (o && *path) {
        size_t k = strcspn(path, ".");
        snprintf(key, sizeof key, "%.*s", (int)k, path);
        json_object *next = NULL;
        if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &next))
            return NULL;
        path += k + (path[k] == '.');
        if (!*path && present)
            *present = true;
        o = next;
    }
    return o;
}

static bool jhas(json_object *o, const char *path)
{
    bool present;
    jpath(o, path, &present);
    return present;
}

/* A finite number at path (JSON int or double). */
static bool jnum(json_object *o, const char *path, double *v)
{
    json_object *x = jpath(o, path, NULL);
    if (!x || !(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)))
        return false;
    *v = json_object_get_double(x);
    return isfinite(*v);
}

static const char *jstr(json_object *o, const char *path)
{
    json_object *x = jpath(o, path, NULL);
    return x && json_object_is_type(x, json_type_string) ? json_object_get_string(x) : NULL;
}

/* The runs array of a document, and its length. */
static json_object *runs_of(json_object *doc, size_t *n)
{
    json_object *r = jpath(doc, "runs", NULL);
    *n = r && json_object_is_type(r, json_type_array) ? json_object_array_length(r) : 0;
    return r && json_object_is_type(r, json_type_array) ? r : NULL;
}

static json_object *run_at(json_object *doc, size_t i)
{
    size_t n;
    json_object *r = runs_of(doc, &n);
    return r && i < n ? json_object_array_get_idx(r, i) : NULL;
}

/* ---- table helpers ----------------------------------------------------- */

/* One case row of the table: device, algorithm, variant, template and the
 * "ok" column (yes, NO, -, error, skip). */
typedef struct trow {
    unsigned dev;
    char algo[16], var[16], tmpl[40], ok[16];
} trow;

static bool is_algo(const char *name)
{
    const char *known[] = {"bfs", "sssp", "bc", "pagerank", "spmv", "color"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(name, known[i]))
            return true;
    return false;
}

/* The case rows of a table: lines "DEV ALGO VAR PUSH TEMPLATE ... OK" with
 * OK the 11th column in every layout (error and skip rows put '-' in the
 * number columns). Legends, headers, plans, kernel tables and bench's
 * summaries (whose second column is the input) do not match. */
static size_t table_rows(const char *text, trow *rows, size_t max)
{
    size_t n = 0;
    for (const char *line = text; line && *line && n < max;) {
        const char *nl = strchr(line, '\n');
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(nl ? (size_t)(nl - line) : strlen(line)), line);
        trow r;
        if (sscanf(buf, "%u %15s %15s %*s %39s %*s %*s %*s %*s %*s %15s", &r.dev, r.algo, r.var, r.tmpl,
                   r.ok) == 5 &&
            is_algo(r.algo))
            rows[n++] = r;
        line = nl ? nl + 1 : NULL;
    }
    return n;
}

static size_t count_lines_starting(const char *text, const char *prefix)
{
    size_t n = 0, len = strlen(prefix);
    for (const char *line = text; line && *line;) {
        if (!strncmp(line, prefix, len))
            n++;
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return n;
}

/* ---- host-only cases --------------------------------------------------- */

static void help(th_case *tc)
{
    const char *cmds[] = {"devices", "run", "bench", "gen"};
    TH_EXPECT(tc, clirr(tc, "--help", NULL) == 0 && strstr(out, "usage"), "clirr --help");
    for (size_t i = 0; i < 4; i++)
        TH_EXPECT(tc, clirr(tc, cmds[i], "--help", NULL) == 0 && strstr(out, "usage"), "clirr %s --help",
                  cmds[i]);
    TH_EXPECT(tc, clirr(tc, "frobnicate", NULL) == 2, "unknown command");
    TH_EXPECT(tc, clirr(tc, NULL) == 2, "no command");
    /* run and bench share one option table: the common options and every
     * descriptor's parameters appear in both helps. */
    const char *shared[] = {"--graph", "--gen", "--source", "--sources", "--seed", "--wg-size", "--group-wg",
                            "--coarsen", "--wl-capacity", "--template", "--explain", "--kernels", "--wide",
                            "--json", "--output", "--damping", "--tol", "--max-iter", "--vector",
                            "--[no-]heuristic", "--[no-]bitset", "--fuse auto|on|off", "--sync auto|on|off", "Exit codes"};
    for (int b = 0; b < 2; b++) {
        const char *cmd = b ? "bench" : "run";
        TH_REQUIRE(tc, clirr(tc, cmd, "--help", NULL) == 0, "%s --help", cmd);
        for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
            TH_EXPECT(tc, strstr(out, shared[i]), "%s --help does not mention %s", cmd, shared[i]);
        /* Every parameter of every descriptor is an option (the table
         * once dropped those past its 32nd silently). */
        for (size_t a = 0; a < clirr_algo_count(); a++) {
            const clirr_algo *al = clirr_algo_at(a);
            for (unsigned k = 0; k < al->nparams; k++) {
                char opt[80], sw[80];
                snprintf(opt, sizeof opt, "  --%s ", al->params[k].name);
                snprintf(sw, sizeof sw, "  --[no-]%s ", al->params[k].name);
                TH_EXPECT(tc, strstr(out, opt) || strstr(out, sw), "%s --help has no option for %s's parameter %s",
                          cmd, al->name,
                          al->params[k].name);
                /* Each descriptor's own meaning, also of a name another
                 * descriptor has first (bh's and pagerank's --precision). */
                char own[512];
                snprintf(own, sizeof own, " %s: %s (default %s)", al->name, al->params[k].help,
                         *al->params[k].def ? al->params[k].def : "none");
                TH_EXPECT(tc, strstr(out, own), "%s --help does not give %s's --%s (%s)", cmd, al->name,
                          al->params[k].name, own);
            }
        }
    }
done:;
}

static void usage_errors(th_case *tc)
{
    struct {
        const char *args[9];
        const char *says;
    } cases[] = {
        {{"run", "nope", "--gen", "grid:w=4,h=4"}, "unknown algorithm"},
        {{"run", "bfs"}, "--graph"},
        {{"run", "--gen", "grid:w=4,h=4"}, "ALGO"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--variant", "sideways"}, "variant 'sideways'"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--push", "shove"}, "unknown push"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--push", "scan", "--template", "dual-queue"},
         "--push scan needs one pushing kernel a round"},
        /* (data: auto's choice on a CPU, do-bit, takes no --donate) */
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--variant", "data", "--template=dbuf-global", "--donate=4"},
         "--donate runs on the thread-mapped baseline"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--template", "sideways"}, "unknown template"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--repeat", "0"}, "--repeat"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--warmup", "x"}, "--warmup"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--source", "-1"}, "--source"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--source", "16"}, "out of range"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--sources", "0"}, "--sources"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--seed", "-1"}, "--seed"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--wg-size", "0"}, "--wg-size"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--wg-size", "64,x"}, "--wg-size"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--group-wg", "0"}, "--group-wg"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--coarsen", "x"}, "--coarsen"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--wl-capacity", "0"}, "--wl-capacity"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--local-rounds", "1"}, "--local-rounds"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--local-rounds", "many"}, "--local-rounds"},
        {{"run", "sssp", "--gen", "grid:w=4,h=4", "--variant", "nearfar", "--delta", "-3"}, "--delta"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--lb-thres", "0"}, "--lb-thres"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--reorder", "sideways"}, "--reorder takes auto, none"},
        {{"run", "bfs", "--gen", "grid:w=4"}, "grid"},
        {{"run", "bfs", "--gen", "blob:n=3"}, "blob"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--device", "no-such-device-here"}, "matches none"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--frobnicate"}, "unrecognized option"},
        /* bench parses the same options with the same checks */
        {{"bench", "bfs", "--gen", "grid:w=4,h=4", "--repeat", "0"}, "--repeat"},
        {{"bench", "bfs", "--gen", "grid:w=4,h=4", "--coarsen", "0"}, "--coarsen"},
        {{"bench", "--gen", "grid:w=4,h=4", "--damping", "2"}, "--damping"},
        {{"gen", "grid:w=4,h=4"}, "-o"},
        {{"devices", "--frob"}, "unrecognized option"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char **a = cases[i].args;
        int rc = clirr(tc, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], NULL);
        TH_EXPECT(tc, rc == 2 && strstr(errtext, cases[i].says), "case %zu (%s %s %s ...): exit %d, stderr '%s'",
                  i, a[0], a[1] ? a[1] : "", a[2] ? a[2] : "", rc, errtext);
    }
}

/* Malformed files: exit 2, stderr names the file and the line. */
static void malformed_files(th_case *tc)
{
    struct {
        const char *name, *text, *says;
    } cases[] = {
        {"bad-arc.gr", "p sp 3 2\na 1 2 5\na 1 x 5\n", ":3"},
        {"range.gr", "p sp 3 1\na 1 9 5\n", ":2"},
        {"banner.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", ":1"},
        {"fields.el", "0 1\n1\n", ":2"},
        {"word.wel", "0 1 2\n1 2 heavy\n", ":2"},
        {"binary.txt", "0 1\n\x01\x02\x03\x00\x05\n", "binary"},
    };
    char path[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", th_tmp_dir(), cases[i].name);
        size_t len = strlen(cases[i].text);
        if (strstr(cases[i].name, "binary"))
            len = 10; /* the text holds a NUL byte */
        TH_REQUIRE(tc, write_bytes(path, cases[i].text, len), "cannot write %s", path);
        int rc = clirr(tc, "run", "bfs", "--graph", path, "--device", "0", NULL);
        TH_EXPECT(tc, rc == 2 && strstr(errtext, cases[i].name) && strstr(errtext, cases[i].says),
                  "%s: exit %d, stderr '%s'", cases[i].name, rc, errtext);
    }
    snprintf(path, sizeof path, "%s/does-not-exist.gr", th_tmp_dir());
    int rc = clirr(tc, "run", "bfs", "--graph", path, "--device", "0", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "does-not-exist.gr"), "missing file: exit %d '%s'", rc, errtext);
done:;
}

static void gen_roundtrip(th_case *tc)
{
    char path[1024];
    clirr_error err;
    clirr_graph a = {0}, b = {0};
    snprintf(path, sizeof path, "%s/gen.wel.gz", th_tmp_dir());
    int rc = clirr(tc, "gen", "rmat:scale=7,ef=4,seed=5,weights=1-9", "-o", path, NULL);
    TH_REQUIRE(tc, rc == 0, "gen exit %d: %s", rc, errtext);
    TH_OK(tc, clirr_graph_read(path, &a, &err));
    TH_OK(tc, clirr_graph_generate("rmat:scale=7,ef=4,seed=5,weights=1-9", &b, &err));
    TH_EXPECT(tc, a.n == b.n && a.m == b.m && clirr_graph_hash(&a) == clirr_graph_hash(&b),
              "written graph differs from the generated one");
done:
    clirr_graph_free(&a);
    clirr_graph_free(&b);
}

/* Run `clirr ARGS > /dev/full` (a shell redirect); returns the exit code. */
static int clirr_to_full(th_case *tc, const char *args)
{
    char script[1024];
    snprintf(script, sizeof script, "exec \"$0\" %s > /dev/full", args);
    char *argv[] = {"/bin/sh", "-c", script, (char *)th_clirr_path(), NULL};
    int sig = 0, rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, &sig);
    if (sig)
        th_fail(tc, __FILE__, __LINE__, "clirr %s died with signal %d", args, sig);
    return rc;
}

/* Nothing written is lost silently: a full device behind stdout, --json=
 * or --csv is exit 2 naming the failure; gen writes a graph whole or not
 * at all (a file-size limit cuts it: the old file stays, no temporary is
 * left); --json=FILE and --csv FILE replace their file only when whole. */
static void write_errors(th_case *tc)
{
    int rc = clirr_to_full(tc, "devices");
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "standard output"), "devices > /dev/full: exit %d, '%s'", rc, errtext);
    rc = clirr_to_full(tc, "run bfs --gen grid:w=3,h=2 --device 0");
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "standard output"), "run > /dev/full: exit %d, '%s'", rc, errtext);
    rc = clirr(tc, "bench", "bfs", "--gen", "grid:w=3,h=2", "--device", "0", "--repeat", "1", "--json=/dev/full",
               NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "/dev/full"), "bench --json=/dev/full: exit %d, '%s'", rc, errtext);
    rc = clirr(tc, "bench", "bfs", "--gen", "grid:w=3,h=2", "--device", "0", "--repeat", "1", "--csv", "/dev/full",
               NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "/dev/full"), "bench --csv /dev/full: exit %d, '%s'", rc, errtext);
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=3,h=2", "--device", "0", "--trace", "/dev/full", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "/dev/full"), "run --trace /dev/full: exit %d, '%s'", rc, errtext);

    char path[1024], script[2048], text[64] = "";
    snprintf(path, sizeof path, "%s/kept.el", th_tmp_dir());
    TH_REQUIRE(tc, write_text(path, "0 1\n"), "cannot write %s", path);
    /* 8 KiB at most per file: the graph needs more than that. */
    snprintf(script, sizeof script, "ulimit -f 16; trap '' XFSZ; exec \"$0\" gen rmat:scale=12,ef=8 -o '%s'", path);
    char *argv[] = {"/bin/sh", "-c", script, (char *)th_clirr_path(), NULL};
    rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, NULL);
    TH_EXPECT(tc, rc == 2, "gen past a file-size limit: exit %d, '%s'", rc, errtext);
    FILE *f = fopen(path, "r");
    TH_REQUIRE(tc, f, "gen removed %s", path);
    size_t k = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[k] = '\0';
    TH_EXPECT(tc, !strcmp(text, "0 1\n"), "gen cut short replaced %s with '%.20s...'", path, text);
    snprintf(script, sizeof script, "ls '%s'.tmp.* 2>/dev/null", path);
    char *ls[] = {"/bin/sh", "-c", script, NULL};
    rc = th_run(ls, out, sizeof out, NULL, 0, NULL);
    TH_EXPECT(tc, rc != 0 && !out[0], "gen left a temporary file: %s", out);
done:;
}

/* --output - writes the values to stdout, with no table beside them; with
 * --json (also stdout) it is refused. */
static void output_stdout(th_case *tc)
{
    char dev[16];
    dev_arg(tc, dev, sizeof dev);
    int rc = clirr(tc, "run", "bfs", "--gen", "grid:w=3,h=2", "--device", dev, "--output", "-", NULL);
    TH_EXPECT(tc, rc == 0 && !strcmp(out, "0\n1\n2\n1\n2\n3\n"), "--output -: exit %d, stdout '%s'", rc, out);
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=3,h=2", "--device", dev, "--output", "-", "--json", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "standard output"), "--output - --json: exit %d, '%s'", rc, errtext);
}

/* Whether a and b have the same CSR arrays and weights. */
static bool same_csr(const clirr_graph *a, const clirr_graph *b)
{
    return a->n == b->n && a->m == b->m && !memcmp(a->row, b->row, ((size_t)a->n + 1) * sizeof *a->row) &&
           !memcmp(a->col, b->col, (size_t)a->m * sizeof *a->col) && !a->weight == !b->weight &&
           (!a->weight || !memcmp(a->weight, b->weight, (size_t)a->m * sizeof *a->weight));
}

/* `convert`: a weighted graph through every format that holds weights
 * comes back the same; --relabel compacts sparse ids and writes the map;
 * --weights gives the same weights for the same seed, within range; a
 * format that cannot hold the weights refuses them; bad usage is exit 2. */
static void convert(th_case *tc)
{
    clirr_error err;
    clirr_graph g = {0}, back = {0};
    char src[1024], dst[1024], map[1100];
    snprintf(src, sizeof src, "%s/conv.wel", th_tmp_dir());
    TH_OK(tc, clirr_graph_generate("rmat:scale=7,ef=4,seed=2,weights=-5-40", &g, &err));
    TH_OK(tc, clirr_graph_write(src, &g, &err));
    static const char *exts[] = {"gr", "mtx", "csr.gz", "wel.gz"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        snprintf(dst, sizeof dst, "%s/conv-out.%s", th_tmp_dir(), exts[i]);
        int rc = clirr(tc, "convert", src, dst, NULL);
        TH_REQUIRE(tc, rc == 0, "convert to .%s: exit %d: %s", exts[i], rc, errtext);
        TH_OK(tc, clirr_graph_read(dst, &back, &err));
        TH_EXPECT(tc, same_csr(&g, &back), "convert to .%s changed the graph", exts[i]);
        clirr_graph_free(&back);
    }
    snprintf(dst, sizeof dst, "%s/conv-out.el", th_tmp_dir());
    int rc = clirr(tc, "convert", src, dst, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, ".wel"), "weights to .el: exit %d, '%s'", rc, errtext);

    snprintf(src, sizeof src, "%s/sparse.el", th_tmp_dir());
    TH_REQUIRE(tc, write_text(src, "7 3\n3 100\n"), "write");
    snprintf(dst, sizeof dst, "%s/sparse.wel", th_tmp_dir());
    rc = clirr(tc, "convert", src, dst, "--relabel", "--weights", "2-4,seed=9", NULL);
    TH_REQUIRE(tc, rc == 0, "relabel: exit %d: %s", rc, errtext);
    TH_OK(tc, clirr_graph_read(dst, &back, &err));
    TH_EXPECT(tc, back.n == 3 && back.m == 2 && back.col[0] == 2 && back.col[1] == 0 && back.weight &&
                      back.weight[0] >= 2 && back.weight[0] <= 4 && back.weight[1] >= 2 && back.weight[1] <= 4,
              "relabelled: n %u m %u", back.n, back.m);
    snprintf(map, sizeof map, "%s.map", dst);
    FILE *f = fopen(map, "r");
    char text[128] = "";
    size_t k = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[k] = '\0';
    TH_EXPECT(tc, !strcmp(text, "# new old\n0 3\n1 7\n2 100\n"), "map file: '%s'", text);
    int32_t first[2] = {back.weight ? back.weight[0] : 0, back.weight ? back.weight[1] : 0};
    clirr_graph_free(&back);
    rc = clirr(tc, "convert", src, dst, "--relabel", "--weights", "2-4,seed=9", NULL);
    TH_OK(tc, clirr_graph_read(dst, &back, &err));
    TH_EXPECT(tc, rc == 0 && back.weight && back.weight[0] == first[0] && back.weight[1] == first[1],
              "the same seed gave other weights");
    clirr_graph_free(&back);

    const char *bad[][4] = {{"convert", src, NULL, NULL},
                            {"convert", src, dst, "--weights=5-1"},
                            {"convert", src, dst, "--weights=1-x"},
                            {"convert", src, dst, "--frob"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = clirr(tc, bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL);
        TH_EXPECT(tc, rc == 2, "bad usage %zu: exit %d", i, rc);
    }
done:
    clirr_graph_free(&g);
    clirr_graph_free(&back);
}

/* `devices --json` lists every device with its runnable templates; none
 * without device-side enqueue may list a nested template. */
static void devices_json(th_case *tc)
{
    json_object *o = NULL, *arr, *x;
    int rc = clirr(tc, "devices", "--json", NULL);
    TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
    TH_REQUIRE(tc, (o = parse_doc(tc, out, "devices --json")), "devices --json");
    TH_REQUIRE(tc, json_object_object_get_ex(o, "devices", &arr) && json_object_array_length(arr) > 0,
               "no devices array");
    for (size_t i = 0; i < json_object_array_length(arr); i++) {
        json_object *d = json_object_array_get_idx(arr, i), *caps, *tmpl;
        TH_REQUIRE(tc, json_object_object_get_ex(d, "capabilities", &caps) &&
                           json_object_object_get_ex(d, "templates", &tmpl),
                   "device %zu lacks capabilities/templates", i);
        json_object_object_get_ex(caps, "device_enqueue", &x);
        bool dq = json_object_get_boolean(x);
        for (size_t t = 0; t < json_object_array_length(tmpl); t++) {
            const char *name = json_object_get_string(json_object_array_get_idx(tmpl, t));
            TH_REQUIRE(tc, dq || strncmp(name, "nested", 6) != 0, "device %zu lists %s without device enqueue",
                       i, name);
        }
    }
    /* run --device all: one case per device, in one document. */
    size_t ndev = json_object_array_length(arr), n;
    json_object *r = NULL;
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=4,h=4", "--device", "all", "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (r = parse_doc(tc, out, "--device all")), "--device all: exit %d: %s", rc, errtext);
    runs_of(r, &n);
    TH_EXPECT(tc, n == ndev && json_object_array_length(jpath(r, "devices", NULL)) == ndev,
              "--device all: %zu runs for %zu devices", n, ndev);
    json_object_put(r);
done:
    json_object_put(o);
}

/* ---- per-device cases (no open context: clirr runs as a child) --------- */

/* A small weighted graph with one negative arc (1 -> 2): BFS and BC read
 * no weights and run; SSSP must refuse it. A ring with chords, so every
 * vertex is reached. */
static const char *negative_graph(th_case *tc, char *path, size_t size)
{
    snprintf(path, size, "%s/negative-%u.wel", th_tmp_dir(), tc->device->index);
    const char *text = "% a ring of 12 with chords; arc 1 -> 2 weighs -3\n"
                       "0 1 2\n1 2 -3\n2 3 1\n3 4 4\n4 5 1\n5 6 2\n6 7 1\n7 8 5\n8 9 1\n9 10 2\n"
                       "10 11 1\n11 0 3\n0 6 7\n3 9 2\n6 0 1\n";
    return write_text(path, text) ? path : NULL;
}

/* Read n lines of an --output file into text lines (caller frees). */
static char **read_lines(const char *path, uint32_t n, uint32_t *got)
{
    FILE *f = fopen(path, "r");
    *got = 0;
    if (!f)
        return NULL;
    char **lines = calloc((size_t)n + 1, sizeof *lines);
    char line[128];
    while (lines && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (*got <= n)
            lines[*got] = strdup(line);
        (*got)++;
    }
    fclose(f);
    return lines;
}

static void free_lines(char **lines, uint32_t n)
{
    for (uint32_t i = 0; lines && i <= n; i++)
        free(lines[i]);
    free(lines);
}

/* Parse real lines written with %.17g: each must read back whole and
 * print back to the same text (the exact double, in the promised form). */
static bool real_lines(th_case *tc, const char *what, char **lines, uint32_t n, double *v)
{
    for (uint32_t i = 0; i < n; i++) {
        char *end, again[64];
        v[i] = strtod(lines[i], &end);
        snprintf(again, sizeof again, "%.17g", v[i]);
        if (end == lines[i] || *end || strcmp(again, lines[i])) {
            th_fail(tc, __FILE__, __LINE__, "%s line %u: '%s' is not %%.17g of a real", what, i + 1, lines[i]);
            return false;
        }
    }
    return true;
}

/* No temporary file of an --output write left in dir. */
static bool no_temp_files(const char *dir, char *found, size_t size)
{
    DIR *d = opendir(dir);
    bool clean = true;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strstr(e->d_name, ".tmp.")) {
            snprintf(found, size, "%s", e->d_name);
            clean = false;
        }
    if (d)
        closedir(d);
    return clean;
}

/* --output lines against the references, on this device: BFS levels and
 * SSSP distances exactly (both variants), BC, PageRank and SpMV reals in
 * %.17g within the verifiers' bounds, a proper coloring; exactly one case
 * or exit 2; written atomically. */
static void output_contract(th_case *tc)
{
    char dev[16], path[1024], file[1024], vec[1024], neg[1024], found[256];
    clirr_error err;
    clirr_graph g = {0};
    int32_t *level = NULL;
    uint32_t *dist = NULL, *colors = NULL, got = 0;
    double *expect = NULL, *real = NULL, *x = NULL;
    char **lines = NULL;
    dev_arg(tc, dev, sizeof dev);
    snprintf(file, sizeof file, "%s/grid-32x32.gr", th_data_dir());
    TH_OK(tc, clirr_graph_read(file, &g, &err));
    level = malloc(g.n * sizeof *level);
    dist = malloc(g.n * sizeof *dist);
    colors = malloc(g.n * sizeof *colors);
    expect = malloc(g.n * sizeof *expect);
    real = malloc(g.n * sizeof *real);
    x = malloc(g.n * sizeof *x);
    TH_REQUIRE(tc, level && dist && colors && expect && real && x, "out of memory");
    TH_OK(tc, clirr_ref_bfs(&g, 5, level, &err));
    TH_OK(tc, clirr_ref_sssp(&g, 5, dist, &err));

    const char *variants[] = {"topo", "data"};
    for (int algo = 0; algo < 2; algo++)
        for (int v = 0; v < 2; v++) {
            snprintf(path, sizeof path, "%s/out-%s-%d.txt", th_tmp_dir(), dev, algo * 2 + v);
            int rc = clirr(tc, "run", algo ? "sssp" : "bfs", "--graph", file, "--device", dev, "--source", "5",
                           "--variant", variants[v], "--output", path, NULL);
            TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
            lines = read_lines(path, g.n, &got);
            TH_REQUIRE(tc, lines, "no output file %s", path);
            TH_REQUIRE(tc, got == g.n, "%s: %u lines for %u vertices", path, got, g.n);
            for (uint32_t i = 0; i < g.n; i++) {
                char want[32];
                if (algo == 0)
                    snprintf(want, sizeof want, "%d", level[i]);
                else if (dist[i] == UINT32_MAX)
                    snprintf(want, sizeof want, "inf");
                else
                    snprintf(want, sizeof want, "%u", dist[i]);
                TH_REQUIRE(tc, !strcmp(lines[i], want), "%s %s line %u: '%s', expected '%s'",
                           algo ? "sssp" : "bfs", variants[v], i + 1, lines[i], want);
            }
            free_lines(lines, g.n);
            lines = NULL;
        }

    if (tc->device->caps.fp64) {
        clirr_verify_report rep;
        /* BC from --sources 8: evenly spaced roots, v_i = floor(i n / 8). */
        uint32_t roots[8];
        for (uint32_t i = 0; i < 8; i++)
            roots[i] = (uint32_t)((uint64_t)i * g.n / 8);
        TH_OK(tc, clirr_ref_bc(&g, roots, 8, expect, &err));
        snprintf(path, sizeof path, "%s/out-%s-bc.txt", th_tmp_dir(), dev);
        int rc = clirr(tc, "run", "bc", "--graph", file, "--device", dev, "--sources", "8", "--output", path, NULL);
        TH_REQUIRE(tc, rc == 0, "bc: exit %d: %s", rc, errtext);
        lines = read_lines(path, g.n, &got);
        TH_REQUIRE(tc, lines && got == g.n, "bc: %u lines for %u vertices", got, g.n);
        TH_REQUIRE(tc, real_lines(tc, "bc", lines, g.n, real), "bc lines");
        memset(&rep, 0, sizeof rep);
        TH_REQUIRE(tc, clirr_verify_real("bc scores", g.n, expect, real, 1e-9, 1e-9, &rep), "bc: %s", rep.text);
        free_lines(lines, g.n);
        lines = NULL;

        /* PageRank with the descriptor's defaults (0.85, 1e-9, 1000). */
        snprintf(path, sizeof path, "%s/out-%s-pr.txt", th_tmp_dir(), dev);
        rc = clirr(tc, "run", "pagerank", "--graph", file, "--device", dev, "--output", path, NULL);
        TH_REQUIRE(tc, rc == 0, "pagerank: exit %d: %s", rc, errtext);
        lines = read_lines(path, g.n, &got);
        TH_REQUIRE(tc, lines && got == g.n, "pagerank: %u lines for %u vertices", got, g.n);
        TH_REQUIRE(tc, real_lines(tc, "pagerank", lines, g.n, real), "pagerank lines");
        memset(&rep, 0, sizeof rep);
        TH_REQUIRE(tc, clirr_verify_pagerank(&g, 0.85, 1e-9, 1000, real, &rep), "pagerank: %s", rep.text);
        free_lines(lines, g.n);
        lines = NULL;

        /* SpMV with an x of --vector FILE (not all ones, so a lost x
         * shows); the weights are the matrix. */
        snprintf(vec, sizeof vec, "%s/x-%s.txt", th_tmp_dir(), dev);
        FILE *f = fopen(vec, "w");
        TH_REQUIRE(tc, f, "cannot write %s", vec);
        for (uint32_t i = 0; i < g.n; i++) {
            x[i] = (double)(i % 7) + 0.25;
            fprintf(f, "%.17g\n", x[i]);
        }
        fclose(f);
        TH_OK(tc, clirr_ref_spmv(&g, x, expect, &err));
        snprintf(path, sizeof path, "%s/out-%s-spmv.txt", th_tmp_dir(), dev);
        rc = clirr(tc, "run", "spmv", "--graph", file, "--device", dev, "--vector", vec, "--output", path, NULL);
        TH_REQUIRE(tc, rc == 0, "spmv: exit %d: %s", rc, errtext);
        lines = read_lines(path, g.n, &got);
        TH_REQUIRE(tc, lines && got == g.n, "spmv: %u lines for %u vertices", got, g.n);
        TH_REQUIRE(tc, real_lines(tc, "spmv", lines, g.n, real), "spmv lines");
        memset(&rep, 0, sizeof rep);
        TH_REQUIRE(tc, clirr_verify_real("y", g.n, expect, real, 1e-12, 1e-12, &rep), "spmv: %s", rep.text);
        free_lines(lines, g.n);
        lines = NULL;
    }

    /* Coloring: one color >= 1 per line, a proper coloring of the graph. */
    snprintf(path, sizeof path, "%s/out-%s-color.txt", th_tmp_dir(), dev);
    int rc = clirr(tc, "run", "color", "--graph", file, "--device", dev, "--output", path, NULL);
    TH_REQUIRE(tc, rc == 0, "color: exit %d: %s", rc, errtext);
    lines = read_lines(path, g.n, &got);
    TH_REQUIRE(tc, lines && got == g.n, "color: %u lines for %u vertices", got, g.n);
    for (uint32_t i = 0; i < g.n; i++) {
        char *end;
        unsigned long c = strtoul(lines[i], &end, 10);
        TH_REQUIRE(tc, end != lines[i] && !*end && c >= 1 && c < UINT32_MAX, "color line %u: '%s'", i + 1,
                   lines[i]);
        colors[i] = (uint32_t)c;
    }
    clirr_verify_report crep;
    memset(&crep, 0, sizeof crep);
    TH_REQUIRE(tc, clirr_verify_coloring(&g, colors, &crep), "color: %s", crep.text);
    free_lines(lines, g.n);
    lines = NULL;

    /* Exactly one case: two algorithms, or three roots, are refused. */
    snprintf(path, sizeof path, "%s/out-%s-many.txt", th_tmp_dir(), dev);
    rc = clirr(tc, "run", "bfs,sssp", "--graph", file, "--device", dev, "--output", path, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "exactly one"), "two algorithms: exit %d '%s'", rc, errtext);
    rc = clirr(tc, "run", "bfs", "--graph", file, "--device", dev, "--source", "max-degree", "--sources", "3",
               "--output", path, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "exactly one"), "three roots: exit %d '%s'", rc, errtext);
    FILE *f = fopen(path, "r");
    TH_EXPECT(tc, !f, "a refused --output still wrote %s", path);
    if (f)
        fclose(f);
    /* With --json the refusal still leaves one valid document. */
    rc = clirr(tc, "run", "bfs,sssp", "--graph", file, "--device", dev, "--json", "--output", path, NULL);
    json_object *doc = rc == 2 ? parse_doc(tc, out, "--output refused --json") : NULL;
    TH_EXPECT(tc, doc, "--output refused with --json: exit %d", rc);
    /* The document says why: an errors entry. */
    TH_EXPECT(tc, !doc || json_object_array_length(jpath(doc, "errors", NULL)) == 1,
              "--output refused with --json: no errors entry");
    json_object_put(doc);

    /* Atomic: a case that fails leaves an existing file as it was, and no
     * temporary file stays behind; an unwritable path is exit 2. */
    TH_REQUIRE(tc, negative_graph(tc, neg, sizeof neg), "cannot write the negative-weight graph");
    snprintf(path, sizeof path, "%s/out-%s-kept.txt", th_tmp_dir(), dev);
    TH_REQUIRE(tc, write_text(path, "old\n"), "cannot write %s", path);
    rc = clirr(tc, "run", "sssp", "--graph", neg, "--device", dev, "--no-verify", "--output", path, NULL);
    TH_EXPECT(tc, rc == 2, "sssp on a negative weight with --output: exit %d", rc);
    lines = read_lines(path, 4, &got);
    TH_EXPECT(tc, lines && got == 1 && !strcmp(lines[0], "old"), "a failed case changed %s", path);
    free_lines(lines, 4);
    lines = NULL;
    TH_EXPECT(tc, no_temp_files(th_tmp_dir(), found, sizeof found), "temporary file %s left behind", found);
    rc = clirr(tc, "run", "bfs", "--graph", file, "--device", dev, "--output", "/nonexistent-dir/clirr/out.txt",
               NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "/nonexistent-dir/clirr/out.txt"), "unwritable: exit %d '%s'", rc,
              errtext);
done:
    free_lines(lines, g.n);
    clirr_graph_free(&g);
    free(level);
    free(dist);
    free(colors);
    free(expect);
    free(real);
    free(x);
}

/* The numbers of time_ms: every one present, finite and non-negative;
 * the spreads ordered; the total of the kernel-timed trials holds their
 * kernel time. */
static bool check_times(th_case *tc, json_object *run, const char *what)
{
    const char *keys[] = {"build", "prepare", "upload", "warmup", "kernel", "transfer", "total", "total_kernel_timed"};
    char path[64];
    double v[8];
    for (size_t i = 0; i < 8; i++) {
        snprintf(path, sizeof path, "time_ms.%s", keys[i]);
        if (!jnum(run, path, &v[i]) || v[i] < 0) {
            th_fail(tc, __FILE__, __LINE__, "%s: %s missing, not finite or negative", what, path);
            return false;
        }
    }
    /* kernel and total_kernel_timed are medians of the same trials, each
     * total enclosing its kernels; 0.001 ms of slack for the rounding. */
    if (v[4] > v[7] + 1e-3) {
        th_fail(tc, __FILE__, __LINE__, "%s: kernel %.4f ms > its trials' total %.4f ms", what, v[4], v[7]);
        return false;
    }
    const char *sp[] = {"kernel", "transfer", "total", "total_kernel_timed"};
    for (size_t i = 0; i < 4; i++) {
        double lo, mid, hi;
        snprintf(path, sizeof path, "time_spread_ms.%s.median", sp[i]);
        bool ok = jnum(run, path, &mid);
        snprintf(path, sizeof path, "time_spread_ms.%s.min", sp[i]);
        ok = ok && jnum(run, path, &lo);
        snprintf(path, sizeof path, "time_spread_ms.%s.max", sp[i]);
        ok = ok && jnum(run, path, &hi);
        if (!ok || !(0 <= lo && lo <= mid && mid <= hi)) {
            th_fail(tc, __FILE__, __LINE__, "%s: time_spread_ms.%s not min <= median <= max", what, sp[i]);
            return false;
        }
    }
    return true;
}

/* Every field the contract names for a run that ran. */
static bool check_run_fields(th_case *tc, json_object *run, const char *what)
{
    const char *keys[] = {"case", "algorithm", "input", "device", "device_name", "template_asked", "plan",
                          "status", "iterations", "time_ms", "time_spread_ms", "trials", "warmup", "kernels",
                          "launches", "child_launches", "mteps.kernel", "mteps.total", "reached",
                          "edges_traversed", "verified", "plan.variant", "plan.variant_reason",
                          "plan.template", "plan.template_reason", "plan.lb_thres", "plan.lb_thres_reason",
                          "plan.wg_size", "plan.group_wg", "plan.coarsen", "plan.wg_reason",
                          "plan.reorder", "plan.reorder_reason", "plan.build_options", "plan.params",
                          "upload.bytes", "upload.pinned_bytes", "upload.huge_page_bytes", "upload.gb_per_s"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!jhas(run, keys[i])) {
            th_fail(tc, __FILE__, __LINE__, "%s: no field %s", what, keys[i]);
            return false;
        }
    json_object *k = jpath(run, "kernels", NULL);
    if (!k || !json_object_is_type(k, json_type_array)) {
        th_fail(tc, __FILE__, __LINE__, "%s: kernels is not an array", what);
        return false;
    }
    return check_times(tc, run, what);
}

/* One document with the contract's top-level members and header. */
static bool check_header(th_case *tc, json_object *doc, const char *what)
{
    const char *top[] = {"clirr", "devices", "runs", "inputs", "errors"};
    for (size_t i = 0; i < 5; i++)
        if (!jhas(doc, top[i])) {
            th_fail(tc, __FILE__, __LINE__, "%s: no top-level %s", what, top[i]);
            return false;
        }
    const char *arrays[] = {"devices", "runs", "inputs", "errors"};
    for (size_t i = 0; i < 4; i++)
        if (!json_object_is_type(jpath(doc, arrays[i], NULL), json_type_array)) {
            th_fail(tc, __FILE__, __LINE__, "%s: %s is not an array", what, arrays[i]);
            return false;
        }
    const char *version = jstr(doc, "clirr.version"), *commit = jstr(doc, "clirr.commit"),
               *date = jstr(doc, "clirr.date");
    json_object *cmd = jpath(doc, "clirr.command", NULL);
    double rep, warm;
    int y, mo, d, h, mi, s;
    char z = 0;
    if (!version || !*version || !commit || !*commit || !date ||
        sscanf(date, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &z) != 7 || z != 'Z' ||
        !jnum(doc, "clirr.repeat", &rep) || !jnum(doc, "clirr.warmup", &warm)) {
        th_fail(tc, __FILE__, __LINE__, "%s: clirr header lacks version/commit/date (ISO 8601 UTC)/repeat/warmup",
                what);
        return false;
    }
    if (!cmd || !json_object_is_type(cmd, json_type_array) || json_object_array_length(cmd) < 3 ||
        strcmp(json_object_get_string(json_object_array_get_idx(cmd, 0)), "clirr")) {
        th_fail(tc, __FILE__, __LINE__, "%s: clirr.command is not the command line", what);
        return false;
    }
    return true;
}

/* Whether the command line recorded in the header holds an argument.
 * Order is not compared: getopt_long permutes argv, so the algorithm
 * list comes after the options (still the same experiment). */
static bool command_has(json_object *doc, const char *arg)
{
    json_object *cmd = jpath(doc, "clirr.command", NULL);
    for (size_t i = 0; cmd && i < json_object_array_length(cmd); i++)
        if (!strcmp(json_object_get_string(json_object_array_get_idx(cmd, i)), arg))
            return true;
    return false;
}

static void json_fields(th_case *tc)
{
    char dev[16], path[1024];
    json_object *o = NULL, *f = NULL, *r;
    double v;
    dev_arg(tc, dev, sizeof dev);
    int rc = clirr(tc, "run", "sssp", "--gen", "rmat:scale=8,ef=4,weights=1-9", "--device", dev, "--variant",
                   "topo,data", "--json", "--repeat", "2", NULL);
    TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
    TH_REQUIRE(tc, (o = parse_doc(tc, out, "run --json")), "run --json");
    TH_REQUIRE(tc, check_header(tc, o, "run --json"), "header");
    TH_EXPECT(tc, jnum(o, "clirr.repeat", &v) && v == 2, "clirr.repeat is not 2");
    /* The devices array describes the device each run names. */
    json_object *d = json_object_array_get_idx(jpath(o, "devices", NULL), 0);
    const char *dk[] = {"name", "platform", "vendor", "type", "version", "index"};
    for (size_t i = 0; i < sizeof dk / sizeof dk[0]; i++)
        TH_REQUIRE(tc, d && jhas(d, dk[i]), "no device field %s", dk[i]);
    TH_EXPECT(tc, jnum(d, "index", &v) && v == tc->device->index, "devices[0].index is not %s", dev);
    size_t n;
    runs_of(o, &n);
    TH_REQUIRE(tc, n == 2, "%zu runs for two variants", n);
    for (size_t i = 0; i < n; i++) {
        r = run_at(o, i);
        const char *var = jstr(r, "plan.variant");
        TH_REQUIRE(tc, check_run_fields(tc, r, var ? var : "?"), "fields");
        TH_EXPECT(tc, jnum(r, "case", &v) && v == (double)(i + 1), "run %zu: case is not %zu", i, i + 1);
        TH_EXPECT(tc, !strcmp(jstr(r, "status"), "ok") && !strcmp(jstr(r, "algorithm"), "sssp"),
                  "run %zu: status or algorithm", i);
        TH_EXPECT(tc, jnum(r, "device", &v) && v == tc->device->index, "run %zu: device is not %s", i, dev);
        TH_EXPECT(tc, jnum(r, "source", &v) && v == 0, "run %zu: source is not 0", i);
        TH_EXPECT(tc, jnum(r, "trials", &v) && v == 2, "run %zu: trials is not 2", i);
        TH_EXPECT(tc, jnum(r, "reference_ms", &v) && v >= 0, "run %zu: no reference_ms", i);
        json_object *x = jpath(r, "verified", NULL);
        TH_EXPECT(tc, x && json_object_get_boolean(x), "run %zu: verified is not true", i);
        /* Worklist fields on the data-driven variant only. */
        bool wl = var && !strcmp(var, "data");
        TH_EXPECT(tc, jhas(r, "worklist") == wl && jhas(r, "plan.push") == wl && jhas(r, "plan.push_reason") == wl &&
                          jhas(r, "plan.wl_capacity") == wl,
                  "run %zu (%s): worklist fields %s", i, var ? var : "?", wl ? "missing" : "present");
        TH_EXPECT(tc, !wl || (jhas(r, "worklist.rounds_by_push") && jhas(r, "worklist.max_size")),
                  "run %zu: worklist statistics", i);
    }
    json_object_put(o);
    o = NULL;

    /* --no-verify: verified is null, no reference is run. */
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=5,h=5", "--device", dev, "--json", "--no-verify", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "--no-verify")), "exit %d", rc);
    r = run_at(o, 0);
    bool present;
    TH_REQUIRE(tc, jpath(r, "verified", &present) == NULL && present, "--no-verify: verified not null");
    TH_EXPECT(tc, !jhas(r, "reference_ms"), "--no-verify: a reference time without a reference");
    json_object_put(o);
    o = NULL;

    /* An algorithm's extra results (coloring's colors) under results. */
    rc = clirr(tc, "run", "color", "--gen", "grid:w=5,h=5", "--device", dev, "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "color --json")), "color: exit %d: %s", rc, errtext);
    r = run_at(o, 0);
    TH_EXPECT(tc, jnum(r, "results.colors", &v) && v >= 2, "color: results.colors missing or below 2");
    TH_EXPECT(tc, !jhas(r, "source"), "color takes no source but the run has one");
    json_object_put(o);
    o = NULL;

    /* --json=FILE: the table on stdout and the same document in FILE. */
    snprintf(path, sizeof path, "%s/doc-%s.json", th_tmp_dir(), dev);
    char opt[1100];
    snprintf(opt, sizeof opt, "--json=%s", path);
    rc = clirr(tc, "run", "bfs,sssp", "--gen", "grid:w=5,h=5", "--device", dev, opt, NULL);
    TH_REQUIRE(tc, rc == 0, "--json=FILE: exit %d: %s", rc, errtext);
    trow rows[8];
    TH_EXPECT(tc, table_rows(out, rows, 8) == 2, "--json=FILE: no table of two rows on stdout: %.300s", out);
    f = json_object_from_file(path);
    TH_REQUIRE(tc, f, "--json=FILE: %s is not JSON", path);
    TH_REQUIRE(tc, check_header(tc, f, "--json=FILE"), "header");
    runs_of(f, &n);
    TH_EXPECT(tc, n == 2, "--json=FILE: %zu runs, expected 2", n);
done:
    json_object_put(o);
    json_object_put(f);
}

/* A graph too large for the device (CLIRR_MAX_ALLOC pretends a small
 * one: 32 KiB per buffer, less than the 64x64 grid's arcs, more than any
 * primitive's scratch on a device of many compute units): an input too big,
 * so exit 2 with the limit named, an errors entry beside the malformed
 * file's, and the fitting input still runs. */
static void too_large(th_case *tc)
{
    char dev[16], bad[1024];
    json_object *o = NULL;
    dev_arg(tc, dev, sizeof dev);
    snprintf(bad, sizeof bad, "%s/too-large-bad-%s.gr", th_tmp_dir(), dev);
    TH_REQUIRE(tc, write_text(bad, "p sp 3 1\na 1 9 5\n"), "cannot write %s", bad);
    /* A 13-byte edge list naming vertex 2^31 asks for 8 GiB of row
     * offsets: refused while it is read, with the numbers, at once. */
    char huge[1024];
    snprintf(huge, sizeof huge, "%s/huge-ids-%s.el", th_tmp_dir(), dev);
    TH_REQUIRE(tc, write_text(huge, "0 2147483648\n"), "cannot write %s", huge);
    char *saved_big = swap_env("CLIRR_MAX_ALLOC", "1073741824");
    uint64_t t0 = clirr_now_ns();
    int rc_huge = clirr(tc, "run", "bfs", "--graph", huge, "--device", dev, NULL);
    double seconds = (clirr_now_ns() - t0) / 1e9;
    restore_env("CLIRR_MAX_ALLOC", saved_big);
    TH_EXPECT(tc, rc_huge == 2 && strstr(errtext, "8.00 GiB") && strstr(errtext, "row offsets") && seconds < 20,
              "huge ids: exit %d after %.1f s, '%s'", rc_huge, seconds, errtext);
    char *saved = swap_env("CLIRR_MAX_ALLOC", "32768");
    int rc = clirr(tc, "run", "bfs", "--gen", "grid:w=64,h=64", "--device", dev, NULL);
    int rc2 = clirr(tc, "run", "bfs", "--graph", bad, "--gen", "grid:w=4,h=4", "--gen", "grid:w=64,h=64",
                    "--device", dev, "--json", NULL);
    restore_env("CLIRR_MAX_ALLOC", saved);
    TH_EXPECT(tc, rc == 2, "exit %d, stderr '%s'", rc, errtext);
    TH_REQUIRE(tc, rc2 == 2, "bad input + fitting + too large: exit %d, stderr '%s'", rc2, errtext);
    TH_EXPECT(tc, strstr(errtext, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"), "stderr '%s'", errtext);
    TH_REQUIRE(tc, (o = parse_doc(tc, out, "too large --json")), "JSON");
    /* The large grid is refused while it is generated, before any case (no
     * device could hold its arcs): an errors entry with exit code 2 beside
     * the malformed file's; the small grid still runs. */
    size_t n, ne = json_object_array_length(jpath(o, "errors", NULL));
    runs_of(o, &n);
    TH_REQUIRE(tc, n == 1 && ne == 2, "%zu runs and %zu errors, expected 1 and 2", n, ne);
    TH_EXPECT(tc, !strcmp(jstr(run_at(o, 0), "status"), "ok"), "the small grid did not run");
    double code;
    json_object *e1 = json_object_array_get_idx(jpath(o, "errors", NULL), 1);
    TH_EXPECT(tc, e1 && jnum(e1, "exit_code", &code) && code == 2 && strstr(jstr(e1, "error"), "CL_DEVICE_MAX_MEM_ALLOC_SIZE"),
              "the large grid's error has no exit_code 2 naming the limit");
done:
    json_object_put(o);
}

/* Every timed trial is verified, not only the last: a bit flipped in any
 * of --repeat 3's six trials (three wall-timed, three kernel-timed;
 * CLIRR_CORRUPT_TRIAL) fails the run naming that trial; the same run
 * untouched passes. */
static void every_trial_verified(th_case *tc)
{
    char dev[16];
    dev_arg(tc, dev, sizeof dev);
    for (unsigned trial = 1; trial <= 6; trial++) {
        char value[8], want[32];
        snprintf(value, sizeof value, "%u", trial);
        snprintf(want, sizeof want, "trial %u of 6", trial);
        char *saved = swap_env("CLIRR_CORRUPT_TRIAL", value);
        int rc = clirr(tc, "bench", "bfs", "--gen", "grid:w=8,h=8", "--device", dev, "--variant", "data",
                       "--template", "baseline", "--repeat", "3", "--warmup", "0", NULL);
        restore_env("CLIRR_CORRUPT_TRIAL", saved);
        TH_EXPECT(tc, rc == 1 && strstr(errtext, want) && strstr(errtext, "levels differ"),
                  "trial %u corrupted: exit %d, '%s'", trial, rc, errtext);
    }
    int rc = clirr(tc, "bench", "bfs", "--gen", "grid:w=8,h=8", "--device", dev, "--variant", "data",
                   "--template", "baseline", "--repeat", "3", "--warmup", "0", NULL);
    TH_EXPECT(tc, rc == 0, "untouched: exit %d, '%s'", rc, errtext);
}

/* --trace FILE: a header, then one row per round of each BFS/SSSP case
 * (as many as its iterations in the JSON), none for an algorithm that
 * records no rounds (pagerank). */
static void trace_file(th_case *tc)
{
    char dev[16], path[1024];
    json_object *o = NULL;
    dev_arg(tc, dev, sizeof dev);
    snprintf(path, sizeof path, "%s/trace.csv", th_tmp_dir());
    int rc = clirr(tc, "run", "bfs,sssp,pagerank", "--gen", "grid:w=12,h=9,weights=1-9", "--device", dev,
                   "--variant", "data,topo", "--trace", path, "--json", NULL);
    TH_REQUIRE(tc, rc == 0, "run --trace: exit %d, '%s'", rc, errtext);
    TH_REQUIRE(tc, (o = parse_doc(tc, out, "run --trace --json")), "JSON");
    size_t n, want = 1;
    runs_of(o, &n);
    for (size_t i = 0; i < n; i++) {
        double it;
        const char *algo = jstr(run_at(o, i), "algorithm");
        TH_REQUIRE(tc, jnum(run_at(o, i), "iterations", &it), "run %zu: no iterations", i);
        if (algo && strcmp(algo, "pagerank"))
            want += (size_t)it;
    }
    FILE *f = fopen(path, "r");
    TH_REQUIRE(tc, f, "no trace file %s", path);
    char line[512];
    size_t lines = 0;
    bool header = false;
    while (fgets(line, sizeof line, f))
        if (lines++ == 0)
            header = !strncmp(line, "case,device,input,algorithm,variant,round,kind,items_in", 55);
    fclose(f);
    TH_EXPECT(tc, header && lines == want, "trace: %zu lines (header %s), want %zu", lines, header ? "ok" : "wrong",
              want);
done:
    json_object_put(o);
}

/* Algorithms without a source ignore --source (999 on 16 vertices); the
 * ones with one refuse it, naming the range. */
static void sourceless(th_case *tc)
{
    char dev[16];
    dev_arg(tc, dev, sizeof dev);
    int rc = clirr(tc, "run", "pagerank,spmv,color", "--gen", "grid:w=4,h=4", "--source", "999", "--device", dev,
                   NULL);
    TH_EXPECT(tc, rc == 0, "pagerank,spmv,color --source 999: exit %d, '%s'", rc, errtext);
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=4,h=4", "--source", "999", "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "999 is out of range"), "bfs --source 999: exit %d, '%s'", rc,
              errtext);
}

/* 1. One failing case among several: SSSP on a negative weight is an
 * error row, BFS and BC still run and verify; exit 2; one document. */
static void one_bad_case(th_case *tc)
{
    char dev[16], neg[1024];
    json_object *o = NULL;
    trow rows[8];
    dev_arg(tc, dev, sizeof dev);
    TH_REQUIRE(tc, negative_graph(tc, neg, sizeof neg), "cannot write the negative-weight graph");
    int rc = clirr(tc, "run", "bfs,sssp,bc", "--graph", neg, "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2, "exit %d, expected 2", rc);
    TH_EXPECT(tc, strstr(errtext, "sssp") && strstr(errtext, "negative weight"), "stderr '%s'", errtext);
    size_t nr = table_rows(out, rows, 8);
    TH_REQUIRE(tc, nr == 3, "%zu rows, expected 3: %.500s", nr, out);
    const char *want[][2] = {{"bfs", "yes"}, {"sssp", "error"}, {"bc", "yes"}};
    for (size_t i = 0; i < 3; i++)
        TH_EXPECT(tc, !strcmp(rows[i].algo, want[i][0]) && !strcmp(rows[i].ok, want[i][1]),
                  "row %zu: %s %s, expected %s %s", i + 1, rows[i].algo, rows[i].ok, want[i][0], want[i][1]);

    rc = clirr(tc, "run", "bfs,sssp,bc", "--graph", neg, "--device", dev, "--json", NULL);
    TH_EXPECT(tc, rc == 2, "--json: exit %d, expected 2", rc);
    TH_REQUIRE(tc, (o = parse_doc(tc, out, "one bad case --json")), "JSON");
    TH_REQUIRE(tc, check_header(tc, o, "one bad case"), "header");
    size_t n;
    runs_of(o, &n);
    TH_REQUIRE(tc, n == 3, "%zu runs, expected 3", n);
    for (size_t i = 0; i < 3; i++) {
        json_object *r = run_at(o, i);
        const char *st = jstr(r, "status"), *al = jstr(r, "algorithm");
        bool bad = i == 1;
        TH_EXPECT(tc, al && !strcmp(al, want[i][0]) && st && !strcmp(st, bad ? "error" : "ok"),
                  "run %zu: %s %s", i, al ? al : "?", st ? st : "?");
        if (bad) {
            double code;
            const char *e = jstr(r, "error");
            TH_EXPECT(tc, e && strstr(e, "negative weight"), "sssp's error '%s'", e ? e : "(none)");
            TH_EXPECT(tc, jnum(r, "exit_code", &code) && code == 2, "sssp's exit_code");
            TH_EXPECT(tc, !jhas(r, "time_ms"), "a failed case has times");
        } else {
            json_object *x = jpath(r, "verified", NULL);
            TH_EXPECT(tc, x && json_object_get_boolean(x), "%s not verified", want[i][0]);
            TH_EXPECT(tc, check_run_fields(tc, r, want[i][0]), "fields");
        }
    }
    /* --no-verify skips the reference that noticed the weight first: the
     * device path must refuse it as well, never print distances. */
    rc = clirr(tc, "run", "sssp", "--graph", neg, "--device", dev, "--no-verify", "--variant", "topo,data", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "negative weight"), "--no-verify: exit %d, stderr '%s'", rc, errtext);
    nr = table_rows(out, rows, 8);
    TH_EXPECT(tc, nr == 2 && !strcmp(rows[0].ok, "error") && !strcmp(rows[1].ok, "error"),
              "--no-verify: %zu rows, not both errors", nr);
done:
    json_object_put(o);
}

/* 2. A malformed input among two: reported with file:line, exit 2, the
 * other input's cases still run; with --json an errors entry. */
static void bad_input_goes_on(th_case *tc)
{
    char dev[16], bad[1024];
    json_object *o = NULL;
    trow rows[8];
    dev_arg(tc, dev, sizeof dev);
    snprintf(bad, sizeof bad, "%s/goes-on-%s.gr", th_tmp_dir(), dev);
    TH_REQUIRE(tc, write_text(bad, "p sp 3 2\na 1 2 5\na 1 x 5\n"), "cannot write %s", bad);
    int rc = clirr(tc, "run", "bfs,sssp", "--graph", bad, "--gen", "grid:w=6,h=6", "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2, "exit %d, expected 2", rc);
    TH_EXPECT(tc, strstr(errtext, "goes-on-") && strstr(errtext, ".gr:3"), "stderr lacks file:line: '%s'",
              errtext);
    size_t nr = table_rows(out, rows, 8);
    TH_REQUIRE(tc, nr == 2, "%zu rows, expected the second input's 2: %.500s", nr, out);
    TH_EXPECT(tc, !strcmp(rows[0].ok, "yes") && !strcmp(rows[1].ok, "yes"), "rows not verified: %s %s",
              rows[0].ok, rows[1].ok);
    TH_EXPECT(tc, strstr(out, "grid:w=6,h=6"), "the second input is not named in the table");

    rc = clirr(tc, "run", "bfs,sssp", "--graph", bad, "--gen", "grid:w=6,h=6", "--device", dev, "--json", NULL);
    TH_EXPECT(tc, rc == 2, "--json: exit %d, expected 2", rc);
    TH_REQUIRE(tc, (o = parse_doc(tc, out, "bad input --json")), "JSON");
    TH_REQUIRE(tc, check_header(tc, o, "bad input"), "header");
    size_t n;
    runs_of(o, &n);
    TH_REQUIRE(tc, n == 2, "%zu runs, expected 2", n);
    for (size_t i = 0; i < n; i++) {
        json_object *x = jpath(run_at(o, i), "verified", NULL);
        const char *in = jstr(run_at(o, i), "input");
        TH_EXPECT(tc, x && json_object_get_boolean(x) && in && !strcmp(in, "grid:w=6,h=6"),
                  "run %zu not verified or not on the second input", i);
    }
    json_object *errs = jpath(o, "errors", NULL);
    TH_REQUIRE(tc, json_object_array_length(errs) == 1, "%zu errors, expected 1",
               json_object_array_length(errs));
    json_object *e = json_object_array_get_idx(errs, 0);
    const char *msg = jstr(e, "error");
    double code;
    TH_EXPECT(tc, msg && strstr(msg, ".gr:3") && jnum(e, "exit_code", &code) && code == 2,
              "errors[0]: '%s'", msg ? msg : "(none)");
    TH_EXPECT(tc, json_object_array_length(jpath(o, "inputs", NULL)) == 2, "inputs does not list both");
done:
    json_object_put(o);
}

/* 3. One run and three runs give the same document shape. */
static void json_shape(th_case *tc)
{
    char dev[16];
    json_object *doc[2] = {NULL, NULL};
    dev_arg(tc, dev, sizeof dev);
    const char *algos[2] = {"bfs", "bfs,sssp,color"};
    size_t want[2] = {1, 3};
    for (int k = 0; k < 2; k++) {
        int rc = clirr(tc, "run", algos[k], "--gen", "grid:w=6,h=6", "--device", dev, "--json", "--repeat", "3",
                       NULL);
        TH_REQUIRE(tc, rc == 0, "%s: exit %d: %s", algos[k], rc, errtext);
        TH_REQUIRE(tc, (doc[k] = parse_doc(tc, out, algos[k])), "JSON");
        TH_REQUIRE(tc, check_header(tc, doc[k], algos[k]), "header");
        TH_EXPECT(tc, command_has(doc[k], "run") && command_has(doc[k], algos[k]) && command_has(doc[k], "--json"),
                  "%s: clirr.command does not hold the arguments", algos[k]);
        size_t n;
        runs_of(doc[k], &n);
        TH_REQUIRE(tc, n == want[k], "%s: %zu runs, expected %zu", algos[k], n, want[k]);
        for (size_t i = 0; i < n; i++) {
            json_object *r = run_at(doc[k], i);
            double t;
            TH_REQUIRE(tc, check_run_fields(tc, r, algos[k]), "fields");
            TH_EXPECT(tc, jnum(r, "trials", &t) && t == 3, "%s run %zu: trials is not 3", algos[k], i);
        }
    }
    /* Same top-level members, in the same order. */
    struct json_object_iterator a = json_object_iter_begin(doc[0]), ae = json_object_iter_end(doc[0]);
    struct json_object_iterator b = json_object_iter_begin(doc[1]), be = json_object_iter_end(doc[1]);
    for (; !json_object_iter_equal(&a, &ae) && !json_object_iter_equal(&b, &be);
         json_object_iter_next(&a), json_object_iter_next(&b))
        TH_REQUIRE(tc, !strcmp(json_object_iter_peek_name(&a), json_object_iter_peek_name(&b)),
                   "top-level members differ: %s / %s", json_object_iter_peek_name(&a),
                   json_object_iter_peek_name(&b));
    TH_EXPECT(tc, json_object_iter_equal(&a, &ae) && json_object_iter_equal(&b, &be),
              "one document has more top-level members");
done:
    json_object_put(doc[0]);
    json_object_put(doc[1]);
}

/* 4. Templates the device cannot run: bench skips the row (exit 0), run
 * makes it an error (exit 2) naming the runnable ones; bench takes run's
 * options and they reach the plan. */
static void bench_skip(th_case *tc)
{
    char dev[16];
    json_object *o = NULL;
    trow rows[32];
    dev_arg(tc, dev, sizeof dev);
    bool dq = tc->device->caps.device_enqueue;
    int rc = clirr(tc, "bench", "bfs", "--gen", "grid:w=8,h=8", "--device", dev, "--template", "nested-opt,baseline",
                   "--repeat", "1", "--wg-size", "64", "--group-wg", "32", "--wl-capacity", "16", "--coarsen", "2",
                   "--explain", NULL);
    TH_REQUIRE(tc, rc == 0, "bench: exit %d: %s", rc, errtext);
    size_t nr = table_rows(out, rows, sizeof rows / sizeof rows[0]);
    /* bench's default: every variant of BFS x the two templates, but the
     * recursive BFS, which runs the recursion templates only */
    const clirr_algo *bfs = clirr_algo_find("bfs");
    size_t want_rows = 0;
    for (unsigned v = 0; v < bfs->nvariants; v++)
        want_rows += bfs->variants[v].recursion ? 0 : 2;
    TH_REQUIRE(tc, nr == want_rows, "bench: %zu rows, expected %zu: %.600s", nr, want_rows, out);
    size_t planned = 0;
    for (size_t i = 0; i < nr; i++) {
        bool nested = !strncmp(rows[i].tmpl, "nested-opt", 10);
        const char *want = nested && !dq ? "skip" : "yes";
        TH_EXPECT(tc, !strcmp(rows[i].ok, want), "bench row %zu (%s): %s, expected %s", i + 1, rows[i].tmpl,
                  rows[i].ok, want);
        planned += !strcmp(want, "yes");
    }
    /* --explain: a plan block for every case that was planned */
    TH_EXPECT(tc, count_lines_starting(out, "plan: bfs") == planned, "bench --explain: %zu plan blocks for %zu cases",
              count_lines_starting(out, "plan: bfs"), planned);
    TH_EXPECT(tc, strstr(out, "block-mapped 32") && strstr(out, "coarsen 2") && strstr(out, "initial capacity 16"),
              "bench --explain does not show --group-wg/--coarsen/--wl-capacity: %.600s", out);
    /* bench's table is the wide one */
    TH_EXPECT(tc, strstr(out, "build ms"), "bench's table is not wide");

    rc = clirr(tc, "bench", "bfs", "--gen", "grid:w=8,h=8", "--device", dev, "--template", "nested-opt,baseline",
               "--repeat", "1", "--wg-size", "64", "--group-wg", "32", "--wl-capacity", "16", "--coarsen", "2",
               "--json", NULL);
    TH_REQUIRE(tc, rc == 0, "bench --json: exit %d: %s", rc, errtext);
    TH_REQUIRE(tc, (o = parse_doc(tc, out, "bench --json")), "JSON");
    size_t n;
    runs_of(o, &n);
    TH_REQUIRE(tc, n == want_rows, "bench --json: %zu runs, expected %zu", n, want_rows);
    for (size_t i = 0; i < n; i++) {
        json_object *r = run_at(o, i);
        const char *asked = jstr(r, "template_asked"), *st = jstr(r, "status");
        bool nested = asked && !strcmp(asked, "nested-opt");
        double v;
        TH_REQUIRE(tc, st, "run %zu: no status", i);
        if (nested && !dq) {
            TH_EXPECT(tc, !strcmp(st, "skipped") && jnum(r, "exit_code", &v) && v == 0,
                      "run %zu: nested-opt is %s, not skipped with exit_code 0", i, st);
            continue;
        }
        TH_EXPECT(tc, !strcmp(st, "ok"), "run %zu (%s): %s", i, asked ? asked : "?", st);
        TH_EXPECT(tc, jnum(r, "plan.wg_size", &v) && v == 64, "run %zu: plan.wg_size is not 64", i);
        TH_EXPECT(tc, jnum(r, "plan.group_wg", &v) && v == 32, "run %zu: plan.group_wg is not 32", i);
        TH_EXPECT(tc, jnum(r, "plan.coarsen", &v) && v == 2, "run %zu: plan.coarsen is not 2", i);
        const char *var = jstr(r, "plan.variant");
        if (var && !strcmp(var, "data"))
            TH_EXPECT(tc, jnum(r, "plan.wl_capacity", &v) && v == 16, "run %zu: plan.wl_capacity is not 16", i);
    }

    json_object_put(o);
    o = NULL;

    /* --lb-thres with the template left to auto: where auto picks a
     * load-balancing template the plan takes the asked threshold. */
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=8,h=8", "--device", dev, "--lb-thres", "32", "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "--lb-thres auto")), "--lb-thres: exit %d: %s", rc, errtext);
    const char *tmpl = jstr(run_at(o, 0), "plan.template");
    double thres;
    TH_REQUIRE(tc, tmpl && jnum(run_at(o, 0), "plan.lb_thres", &thres), "--lb-thres: no plan.template/lb_thres");
    TH_EXPECT(tc, !strcmp(tmpl, "baseline") || thres == 32,
              "--lb-thres 32 with auto:%s: plan.lb_thres %g", tmpl, thres);

    /* run: the same template is an error row, exit 2, "cannot run" and
     * the templates that can. */
    if (!dq) {
        rc = clirr(tc, "run", "bfs", "--gen", "grid:w=8,h=8", "--device", dev, "--template", "nested-opt", NULL);
        TH_EXPECT(tc, rc == 2, "run nested-opt: exit %d, expected 2", rc);
        TH_EXPECT(tc, strstr(errtext, "cannot run") && strstr(errtext, "baseline"),
                  "run nested-opt: stderr '%s'", errtext);
        nr = table_rows(out, rows, 16);
        TH_EXPECT(tc, nr == 1 && !strcmp(rows[0].ok, "error"), "run nested-opt: not one error row");
    }
done:
    json_object_put(o);
}

/* Bench and run defaults: bench times every algorithm and variant over 5
 * trials; run the default variant once, in a 100-column table unless
 * --wide. */
static void defaults(th_case *tc)
{
    char dev[16];
    json_object *o = NULL;
    double v;
    size_t n;
    dev_arg(tc, dev, sizeof dev);
    int rc = clirr(tc, "bench", "--gen", "grid:w=6,h=6", "--device", dev, "--json", NULL);
    TH_REQUIRE(tc, rc == 0, "bench: exit %d: %s", rc, errtext);
    TH_REQUIRE(tc, (o = parse_doc(tc, out, "bench --json")), "JSON");
    TH_EXPECT(tc, jnum(o, "clirr.repeat", &v) && v == 5, "bench's repeat is not 5");
    runs_of(o, &n);
    const char *algos[] = {"bfs", "sssp", "bc", "pagerank", "spmv", "color"};
    size_t seen[6] = {0};
    for (size_t i = 0; i < n; i++) {
        json_object *r = run_at(o, i);
        const char *a = jstr(r, "algorithm");
        for (size_t k = 0; a && k < 6; k++)
            seen[k] += !strcmp(a, algos[k]);
        const char *st = jstr(r, "status");
        if (st && !strcmp(st, "skipped")) /* a variant the device cannot run (bfs rec-*) */
            continue;
        TH_EXPECT(tc, jnum(r, "trials", &v) && v == 5, "bench run %zu: trials is not 5", i);
    }
    for (size_t k = 0; k < 6; k++)
        TH_EXPECT(tc, seen[k] >= 1, "bench ran no %s", algos[k]);
    /* every variant of BFS and SSSP */
    size_t nb = clirr_algo_find("bfs")->nvariants, ns = clirr_algo_find("sssp")->nvariants;
    TH_EXPECT(tc, seen[0] == nb && seen[1] == ns, "bench ran %zu BFS and %zu SSSP variants, expected %zu and %zu",
              seen[0], seen[1], nb, ns);
    json_object_put(o);
    o = NULL;

    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=6,h=6", "--device", dev, "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "run --json")), "run: exit %d: %s", rc, errtext);
    runs_of(o, &n);
    TH_EXPECT(tc, n == 1 && jnum(run_at(o, 0), "trials", &v) && v == 1, "run: not one case of one trial");
    TH_EXPECT(tc, jnum(o, "clirr.warmup", &v) && v == 1, "run's warm-up is not 1");
    const char *reason = jstr(run_at(o, 0), "plan.variant_reason");
    /* BFS's default is auto, whose reason says what it chose. */
    TH_EXPECT(tc, reason && (strstr(reason, "default") || !strncmp(reason, "auto: ", 6)),
              "run did not pick the default variant: %s", reason ? reason : "(none)");
    json_object_put(o);
    o = NULL;

    /* The narrow table fits 100 columns; --wide adds build times. */
    rc = clirr(tc, "run", "bfs,sssp", "--gen", "grid:w=6,h=6", "--device", dev, NULL);
    TH_REQUIRE(tc, rc == 0, "run: exit %d", rc);
    TH_EXPECT(tc, !strstr(out, "build ms"), "run's default table is wide");
    for (const char *line = out; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (!strncmp(line, "dev ", 4) || (len > 4 && line[3] == ' ' && line[2] >= '0' && line[2] <= '9'))
            TH_EXPECT(tc, len <= 100, "a %zu-column line: %.*s", len, (int)len, line);
        line = nl ? nl + 1 : NULL;
    }
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=6,h=6", "--device", dev, "--wide", NULL);
    TH_EXPECT(tc, rc == 0 && strstr(out, "build ms"), "--wide: exit %d, no build column", rc);
done:
    json_object_put(o);
}

/* --explain prints the plan; --kernels the per-kernel times (being merged
 * from another branch: an empty list only needs the JSON key for now). */
static void explain_kernels(th_case *tc)
{
    char dev[16];
    json_object *o = NULL;
    dev_arg(tc, dev, sizeof dev);
    int rc = clirr(tc, "run", "bfs,pagerank", "--gen", "grid:w=6,h=6", "--device", dev, "--explain", NULL);
    TH_REQUIRE(tc, rc == 0, "--explain: exit %d: %s", rc, errtext);
    TH_EXPECT(tc, count_lines_starting(out, "plan: bfs") == 1 && count_lines_starting(out, "plan: pagerank") == 1,
              "--explain: no plan block per case: %.600s", out);
    TH_EXPECT(tc, strstr(out, "  variant ") && strstr(out, "  template ") && strstr(out, "  --damping"),
              "--explain: the plan lacks variant/template/parameters: %.600s", out);
    /* --reorder auto, the default: a grid has no hubs */
    TH_EXPECT(tc, strstr(out, "  layout    none (auto: none"), "--explain: no auto layout line: %.600s", out);

    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=6,h=6", "--device", dev, "--kernels", NULL);
    TH_REQUIRE(tc, rc == 0, "--kernels: exit %d: %s", rc, errtext);
    TH_EXPECT(tc, strstr(out, "kernel") && strstr(out, "launches") && strstr(out, "per round"),
              "--kernels: no kernel table: %.600s", out);
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=6,h=6", "--device", dev, "--kernels", "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "--kernels --json")), "exit %d", rc);
    json_object *k = jpath(run_at(o, 0), "kernels", NULL);
    TH_REQUIRE(tc, k && json_object_is_type(k, json_type_array), "no kernels array");
    for (size_t i = 0; i < json_object_array_length(k); i++) {
        json_object *e = json_object_array_get_idx(k, i);
        const char *name = jstr(e, "name");
        double l, ms;
        TH_EXPECT(tc, name && *name && jnum(e, "launches", &l) && l >= 1 && jnum(e, "ms", &ms) && ms >= 0,
                  "kernels[%zu] lacks name, launches >= 1 or ms >= 0", i);
    }
done:
    json_object_put(o);
}

/* 5. Builds stay out of the trials: in a fresh binary cache the first run
 * compiles (time_ms.build > 0) and fills the cache; an identical second
 * run loads from it, and the trial times of both are of the same order. */
static void cold_cache(th_case *tc)
{
    char dev[16], dir[1024];
    json_object *o = NULL;
    double build[2] = {0, 0}, total[2] = {0, 0};
    char *saved = NULL;
    bool swapped = false;
    dev_arg(tc, dev, sizeof dev);
    snprintf(dir, sizeof dir, "%s/cache-%s-XXXXXX", th_tmp_dir(), dev);
    TH_REQUIRE(tc, mkdtemp(dir), "cannot create %s", dir);
    /* the variable host/runtime/bincache.c reads */
    saved = swap_env("CLIRR_CACHE_DIR", dir);
    swapped = true;
    for (int k = 0; k < 2; k++) {
        int rc = clirr(tc, "run", "bfs", "--gen", "rmat:scale=10,ef=8,seed=3", "--device", dev, "--json", "--repeat",
                       "3", NULL);
        TH_REQUIRE(tc, rc == 0, "%s run: exit %d: %s", k ? "warm" : "cold", rc, errtext);
        TH_REQUIRE(tc, (o = parse_doc(tc, out, k ? "warm" : "cold")), "JSON");
        json_object *r = run_at(o, 0);
        TH_REQUIRE(tc, jnum(r, "time_ms.build", &build[k]) && jnum(r, "time_ms.total", &total[k]),
                   "no time_ms.build/total");
        json_object_put(o);
        o = NULL;
        if (k == 0) {
            DIR *d = opendir(dir);
            size_t files = 0;
            for (struct dirent *e; d && (e = readdir(d));)
                files += e->d_name[0] != '.';
            if (d)
                closedir(d);
            TH_EXPECT(tc, files > 0, "the cold run left %s empty", dir);
        }
    }
    TH_EXPECT(tc, build[0] > 0, "cold build time %.4f ms", build[0]);
    TH_EXPECT(tc, build[1] < build[0], "warm build %.3f ms not below cold %.3f ms", build[1], build[0]);
    TH_EXPECT(tc, total[0] <= 3 * total[1] + 2, "cold trials %.3f ms vs warm %.3f ms: compile time in the trials?",
              total[0], total[1]);
done:
    if (swapped)
        restore_env("CLIRR_CACHE_DIR", saved);
    json_object_put(o);
}

/* 6. Descriptor parameters: a comma list makes a case per value, each
 * verified; bad values are exit 2 naming the option. */
static void params_list(th_case *tc)
{
    char dev[16], vec[1024];
    json_object *o = NULL;
    trow rows[8];
    size_t n;
    dev_arg(tc, dev, sizeof dev);
    if (!tc->device->caps.fp64) {
        th_skip(tc, "PageRank needs double precision");
        return;
    }
    int rc = clirr(tc, "run", "pagerank", "--gen", "rmat:scale=8,ef=4,seed=2", "--device", dev, "--damping",
                   "0.8,0.85", NULL);
    TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
    size_t nr = table_rows(out, rows, 8);
    TH_REQUIRE(tc, nr == 2, "%zu rows, expected 2: %.500s", nr, out);
    TH_EXPECT(tc, !strcmp(rows[0].ok, "yes") && !strcmp(rows[1].ok, "yes"), "not verified: %s %s", rows[0].ok,
              rows[1].ok);

    /* Two lists: their product, each case with its values in plan.params. */
    rc = clirr(tc, "run", "pagerank", "--gen", "rmat:scale=8,ef=4,seed=2", "--device", dev, "--damping", "0.8,0.85",
               "--max-iter", "50,100", "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "params --json")), "exit %d: %s", rc, errtext);
    runs_of(o, &n);
    TH_REQUIRE(tc, n == 4, "%zu runs for 2 x 2 values", n);
    bool combo[2][2] = {{false, false}, {false, false}};
    for (size_t i = 0; i < n; i++) {
        json_object *r = run_at(o, i);
        const char *d = jstr(r, "plan.params.damping"), *m = jstr(r, "plan.params.max-iter");
        TH_REQUIRE(tc, d && m, "run %zu: no plan.params damping/max-iter", i);
        int di = strtod(d, NULL) == 0.8 ? 0 : strtod(d, NULL) == 0.85 ? 1 : -1;
        int mi = !strcmp(m, "50") ? 0 : !strcmp(m, "100") ? 1 : -1;
        TH_REQUIRE(tc, di >= 0 && mi >= 0, "run %zu: damping %s, max-iter %s", i, d, m);
        combo[di][mi] = true;
        json_object *x = jpath(r, "verified", NULL);
        TH_EXPECT(tc, x && json_object_get_boolean(x), "run %zu (%s, %s) not verified", i, d, m);
    }
    TH_EXPECT(tc, combo[0][0] && combo[0][1] && combo[1][0] && combo[1][1], "not every combination ran");
    json_object_put(o);
    o = NULL;

    /* A switch: --no-heuristic reaches the coloring's plan and results. */
    rc = clirr(tc, "run", "color", "--gen", "grid:w=6,h=6", "--device", dev, "--no-heuristic", "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "--no-heuristic")), "--no-heuristic: exit %d: %s", rc, errtext);
    const char *h = jstr(run_at(o, 0), "plan.params.heuristic");
    TH_EXPECT(tc, h && !strcmp(h, "off"), "--no-heuristic: plan.params.heuristic is %s", h ? h : "(none)");
    json_object_put(o);
    o = NULL;

    struct {
        const char *algo, *opt, *val, *says;
    } bad[] = {
        {"pagerank", "--damping", "2", "--damping"},
        {"pagerank", "--damping", "0.8,x", "--damping"},
        {"pagerank", "--tol", "-1", "--tol"},
        {"pagerank", "--max-iter", "0", "--max-iter"},
        {"color", "--heuristic=maybe", NULL, "--heuristic"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = clirr(tc, "run", bad[i].algo, "--gen", "grid:w=4,h=4", "--device", dev, bad[i].opt, bad[i].val, NULL);
        TH_EXPECT(tc, rc == 2 && strstr(errtext, bad[i].says), "%s %s: exit %d, stderr '%s'", bad[i].opt,
                  bad[i].val ? bad[i].val : "", rc, errtext);
    }
    /* A malformed --vector file: exit 2 with its file:line. */
    snprintf(vec, sizeof vec, "%s/bad-vector-%s.txt", th_tmp_dir(), dev);
    TH_REQUIRE(tc, write_text(vec, "1\n2\nfoo\n4\n"), "cannot write %s", vec);
    rc = clirr(tc, "run", "spmv", "--gen", "grid:w=2,h=2", "--device", dev, "--vector", vec, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "bad-vector-") && strstr(errtext, ".txt:3"),
              "--vector malformed: exit %d, stderr '%s'", rc, errtext);
done:
    json_object_put(o);
}

/* Whether picked holds k vertices of largest out-degree of g: no vertex
 * outside it has a larger degree than the least of them. */
static bool max_degree_ok(const clirr_graph *g, const uint32_t *picked, size_t k)
{
    uint32_t least = UINT32_MAX;
    for (size_t i = 0; i < k; i++) {
        uint32_t d = g->row[picked[i] + 1] - g->row[picked[i]];
        least = d < least ? d : least;
    }
    for (uint32_t v = 0; v < g->n; v++) {
        bool in = false;
        for (size_t i = 0; i < k; i++)
            in |= picked[i] == v;
        if (!in && g->row[v + 1] - g->row[v] > least)
            return false;
    }
    return true;
}

/* The sources of the runs of a document, in order; returns how many. */
static size_t sources_of(json_object *doc, const char *algo, uint32_t *src, size_t max)
{
    size_t n, k = 0;
    runs_of(doc, &n);
    for (size_t i = 0; i < n && k < max; i++) {
        double v;
        json_object *r = run_at(doc, i);
        const char *a = jstr(r, "algorithm");
        if (a && !strcmp(a, algo) && jnum(r, "source", &v))
            src[k++] = (uint32_t)v;
    }
    return k;
}

/* 7. Roots: --sources K makes K cases of a single-source algorithm, one
 * per root (max-degree, or seeded random); a vertex number with K keeps
 * its one root; a root that reaches under 1% of a graph draws a warning. */
static void sources(th_case *tc)
{
    char dev[16], sparse[1024];
    json_object *o = NULL;
    clirr_error err;
    clirr_graph g = {0};
    uint32_t a[8], b[8];
    const char *spec = "rmat:scale=8,ef=4,seed=2";
    dev_arg(tc, dev, sizeof dev);
    TH_OK(tc, clirr_graph_generate(spec, &g, &err));

    int rc = clirr(tc, "run", "bfs", "--gen", spec, "--device", dev, "--source", "max-degree", "--sources", "3",
                   "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "max-degree")), "max-degree: exit %d: %s", rc, errtext);
    size_t n;
    runs_of(o, &n);
    TH_REQUIRE(tc, n == 3 && sources_of(o, "bfs", a, 8) == 3, "%zu runs with sources, expected 3", n);
    TH_EXPECT(tc, a[0] != a[1] && a[0] != a[2] && a[1] != a[2], "sources %u %u %u not distinct", a[0], a[1], a[2]);
    TH_EXPECT(tc, max_degree_ok(&g, a, 3), "sources %u %u %u are not the 3 of largest out-degree", a[0], a[1], a[2]);
    for (size_t i = 0; i < n; i++) {
        json_object *x = jpath(run_at(o, i), "verified", NULL);
        TH_EXPECT(tc, x && json_object_get_boolean(x), "root %u not verified", a[i]);
    }
    TH_EXPECT(tc, !strstr(errtext, "warning"), "a warning for well-connected roots: %s", errtext);
    json_object_put(o);
    o = NULL;

    /* random: seeded, so the same seed picks the same roots; each root
     * has out-arcs; BFS and SSSP share them; BC stays one case. */
    for (int k = 0; k < 2; k++) {
        rc = clirr(tc, "run", "bfs,sssp,bc", "--gen", spec, "--device", dev, "--source", "random", "--sources", "3",
                   "--seed", "7", "--json", NULL);
        TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "random")), "random: exit %d: %s", rc, errtext);
        runs_of(o, &n);
        TH_REQUIRE(tc, n == 7, "random: %zu runs, expected 3 BFS + 3 SSSP + 1 BC", n);
        uint32_t *s = k ? b : a, sssp[8];
        TH_REQUIRE(tc, sources_of(o, "bfs", s, 8) == 3 && sources_of(o, "sssp", sssp, 8) == 3, "random: sources");
        for (size_t i = 0; i < 3; i++) {
            TH_EXPECT(tc, s[i] == sssp[i], "random: BFS root %u, SSSP root %u", s[i], sssp[i]);
            TH_EXPECT(tc, s[i] < g.n && g.row[s[i] + 1] > g.row[s[i]], "random: root %u has no out-arc", s[i]);
        }
        TH_EXPECT(tc, s[0] != s[1] && s[0] != s[2] && s[1] != s[2], "random: roots %u %u %u not distinct", s[0],
                  s[1], s[2]);
        json_object_put(o);
        o = NULL;
    }
    TH_EXPECT(tc, !memcmp(a, b, 3 * sizeof *a), "the same --seed picked other roots");

    /* A vertex number with K > 1 (since c2c35b5, no longer a usage
     * error): the number stays the single-source algorithms' one root, K
     * shapes BC's sample (evenly spaced). */
    rc = clirr(tc, "run", "bfs,bc", "--gen", spec, "--device", dev, "--source", "5", "--sources", "3", "--json",
               NULL);
    TH_REQUIRE(tc, rc == 0 && (o = parse_doc(tc, out, "--source 5 --sources 3")),
               "--source 5 --sources 3: exit %d, stderr '%s'", rc, errtext);
    runs_of(o, &n);
    TH_EXPECT(tc, n == 2 && sources_of(o, "bfs", a, 8) == 1 && a[0] == 5, "--source 5 --sources 3: not one BFS "
              "case from 5 and one BC case");
    json_object *bc_src = NULL;
    json_object_object_get_ex(run_at(o, 1), "sources", &bc_src);
    const char *rule = bc_src ? jstr(bc_src, "rule") : NULL;
    TH_EXPECT(tc, rule && !strcmp(rule, "spread"), "--source 5 --sources 3: BC's roots are '%s', not spread",
              rule ? rule : "(none)");
    json_object_put(o);
    o = NULL;

    /* 300 vertices, source 0 reaches 2 of them. */
    snprintf(sparse, sizeof sparse, "%s/sparse-%s.el", th_tmp_dir(), dev);
    TH_REQUIRE(tc, write_text(sparse, "0 1\n298 299\n"), "cannot write %s", sparse);
    rc = clirr(tc, "run", "bfs", "--graph", sparse, "--device", dev, NULL);
    TH_EXPECT(tc, rc == 0 && strstr(errtext, "warning") && strstr(errtext, "reached"),
              "a root reaching 2 of 300: exit %d, stderr '%s'", rc, errtext);
done:
    json_object_put(o);
    clirr_graph_free(&g);
}

TH_REGISTER(register_cli_tests)
{
    th_add("cli/help", help, NULL);
    th_add("cli/usage-errors", usage_errors, NULL);
    th_add("cli/malformed-files", malformed_files, NULL);
    th_add("cli/gen", gen_roundtrip, NULL);
    th_add("cli/write-errors", write_errors, NULL);
    th_add("cli/convert", convert, NULL);
    th_add("cli/devices-json", devices_json, NULL);
    th_add_device_noctx("cli/output", output_contract, NULL);
    th_add_device_noctx("cli/json", json_fields, NULL);
    th_add_device_noctx("cli/json-shape", json_shape, NULL);
    th_add_device_noctx("cli/too-large", too_large, NULL);
    th_add_device_noctx("cli/output-stdout", output_stdout, NULL);
    th_add_device_noctx("cli/one-bad-case", one_bad_case, NULL);
    th_add_device_noctx("cli/bad-input-goes-on", bad_input_goes_on, NULL);
    th_add_device_noctx("cli/bench-skip", bench_skip, NULL);
    th_add_device_noctx("cli/defaults", defaults, NULL);
    th_add_device_noctx("cli/explain-kernels", explain_kernels, NULL);
    th_add_device_noctx("cli/cold-cache", cold_cache, NULL);
    th_add_device_noctx("cli/params-list", params_list, NULL);
    th_add_device_noctx("cli/sources", sources, NULL);
    th_add_device_noctx("cli/every-trial-verified", every_trial_verified, NULL);
    th_add_device_noctx("cli/sourceless", sourceless, NULL);
    th_add_device_noctx("cli/trace", trace_file, NULL);
}
