/* tests/test_cli.c - the clirr command as users meet it: help, exit codes
 * (2 for bad usage and malformed input, with the file and line named; 3 for
 * a graph too large for the device), the --output contract checked against
 * the references, the JSON fields, gen, and devices. */
#include "harness.h"
#include "ref/ref.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUT_MAX (1 << 20)

static char out[OUT_MAX], errtext[1 << 16];

/* Run clirr with up to 16 arguments (NULL-terminated list). */
static int clirr(th_case *tc, const char *first, ...)
{
    char *argv[20];
    int argc = 0;
    argv[argc++] = (char *)th_clirr_path();
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 19; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    int sig = 0;
    int rc = th_run(argv, out, sizeof out, errtext, sizeof errtext, &sig);
    if (sig)
        th_fail(tc, __FILE__, __LINE__, "clirr %s died with signal %d", first, sig);
    return rc;
}

static void dev_arg(th_case *tc, char *buf, size_t size)
{
    snprintf(buf, size, "%u", tc->device->index);
}

static void help(th_case *tc)
{
    const char *cmds[] = {"devices", "run", "bench", "gen"};
    TH_EXPECT(tc, clirr(tc, "--help", NULL) == 0 && strstr(out, "usage"), "clirr --help");
    for (size_t i = 0; i < 4; i++)
        TH_EXPECT(tc, clirr(tc, cmds[i], "--help", NULL) == 0 && strstr(out, "usage"), "clirr %s --help",
                  cmds[i]);
    TH_EXPECT(tc, clirr(tc, "frobnicate", NULL) == 2, "unknown command");
    TH_EXPECT(tc, clirr(tc, NULL) == 2, "no command");
}

static void usage_errors(th_case *tc)
{
    struct {
        const char *args[8];
        const char *says;
    } cases[] = {
        {{"run", "nope", "--gen", "grid:w=4,h=4"}, "unknown algorithm"},
        {{"run", "bfs"}, "--graph"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--graph", "x.gr"}, "exactly one"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--variant", "sideways"}, "unknown variant"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--push", "shove"}, "unknown push"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--repeat", "0"}, "--repeat"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--source", "-1"}, "--source"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--source", "16"}, "out of range"},
        {{"run", "bfs", "--gen", "grid:w=4"}, "grid"},
        {{"run", "bfs", "--gen", "blob:n=3"}, "blob"},
        {{"run", "bfs", "--gen", "grid:w=4,h=4", "--device", "no-such-device-here"}, "matches none"},
        {{"gen", "grid:w=4,h=4"}, "-o"},
        {{"devices", "--frob"}, "unknown option"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char **a = cases[i].args;
        int rc = clirr(tc, a[0], a[1], a[2], a[3], a[4], a[5], a[6], NULL);
        TH_EXPECT(tc, rc == 2 && strstr(errtext, cases[i].says),
                  "case %zu (%s %s ...): exit %d, stderr '%s'", i, a[0], a[1], rc, errtext);
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
        FILE *f = fopen(path, "wb");
        TH_REQUIRE(tc, f, "cannot write %s", path);
        size_t len = strlen(cases[i].text);
        if (strstr(cases[i].name, "binary"))
            len = 10; /* the text holds a NUL byte */
        fwrite(cases[i].text, 1, len, f);
        fclose(f);
        int rc = clirr(tc, "run", "bfs", "--graph", path, "--device", "0", NULL);
        TH_EXPECT(tc, rc == 2 && strstr(errtext, cases[i].name) && strstr(errtext, cases[i].says),
                  "%s: exit %d, stderr '%s'", cases[i].name, rc, errtext);
    }
    snprintf(path, sizeof path, "%s/does-not-exist.gr", th_tmp_dir());
    int rc = clirr(tc, "run", "bfs", "--graph", path, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "does-not-exist.gr"), "missing file: exit %d '%s'", rc, errtext);
done:;
}

/* --output lines against the references, on this device. */
static void output_contract(th_case *tc)
{
    char dev[16], path[1024], file[1024];
    clirr_error err;
    clirr_graph g = {0};
    int32_t *level = NULL;
    uint32_t *dist = NULL;
    FILE *f = NULL;
    dev_arg(tc, dev, sizeof dev);
    snprintf(file, sizeof file, "%s/grid-32x32.gr", th_data_dir());
    TH_OK(tc, clirr_graph_read(file, &g, &err));
    level = malloc(g.n * sizeof *level);
    dist = malloc(g.n * sizeof *dist);
    TH_REQUIRE(tc, level && dist, "out of memory");
    TH_OK(tc, clirr_ref_bfs(&g, 5, level, &err));
    TH_OK(tc, clirr_ref_sssp(&g, 5, dist, &err));
    const char *variants[] = {"topo", "data"};
    for (int algo = 0; algo < 2; algo++)
        for (int v = 0; v < 2; v++) {
            snprintf(path, sizeof path, "%s/out-%s-%d.txt", th_tmp_dir(), dev, algo * 2 + v);
            int rc = clirr(tc, "run", algo ? "sssp" : "bfs", "--graph", file, "--device", dev, "--source", "5",
                           "--variant", variants[v], "--output", path, NULL);
            TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
            f = fopen(path, "r");
            TH_REQUIRE(tc, f, "no output file %s", path);
            char line[64];
            uint32_t i = 0;
            for (; fgets(line, sizeof line, f); i++) {
                line[strcspn(line, "\n")] = '\0';
                char want[32];
                if (algo == 0)
                    snprintf(want, sizeof want, "%d", i < g.n ? level[i] : -2);
                else if (i < g.n && dist[i] == UINT32_MAX)
                    snprintf(want, sizeof want, "inf");
                else
                    snprintf(want, sizeof want, "%u", i < g.n ? dist[i] : 0);
                TH_REQUIRE(tc, i < g.n && !strcmp(line, want), "%s line %u: '%s', expected '%s'",
                           variants[v], i + 1, line, want);
            }
            fclose(f);
            f = NULL;
            TH_REQUIRE(tc, i == g.n, "%u lines for %u vertices", i, g.n);
        }
done:
    if (f)
        fclose(f);
    clirr_graph_free(&g);
    free(level);
    free(dist);
}

static void json_fields(th_case *tc)
{
    char dev[16];
    json_object *o = NULL;
    dev_arg(tc, dev, sizeof dev);
    int rc = clirr(tc, "run", "sssp", "--gen", "rmat:scale=8,ef=4,weights=1-9", "--device", dev, "--json",
                   "--repeat", "2", NULL);
    TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
    o = json_tokener_parse(out);
    TH_REQUIRE(tc, o, "not JSON: %.200s", out);
    const char *keys[] = {"algorithm", "variant", "template", "device", "nodes", "edges",
                          "iterations", "time_ms", "verified", "mteps"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        TH_REQUIRE(tc, json_object_object_get_ex(o, keys[i], NULL), "no field %s", keys[i]);
    json_object *t, *x, *d;
    json_object_object_get_ex(o, "time_ms", &t);
    TH_REQUIRE(tc, json_object_object_get_ex(t, "total", &x) && json_object_object_get_ex(t, "kernel", NULL) &&
                       json_object_object_get_ex(t, "transfer", NULL),
               "time_ms fields");
    json_object_object_get_ex(o, "device", &d);
    const char *dk[] = {"name", "platform", "vendor", "type", "version"};
    for (size_t i = 0; i < 5; i++)
        TH_REQUIRE(tc, json_object_object_get_ex(d, dk[i], NULL), "no device field %s", dk[i]);
    json_object_object_get_ex(o, "verified", &x);
    TH_REQUIRE(tc, json_object_get_boolean(x), "verified is not true");
    json_object_put(o);
    o = NULL;
    rc = clirr(tc, "run", "bfs", "--gen", "grid:w=5,h=5", "--device", dev, "--json", "--no-verify", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = json_tokener_parse(out)), "exit %d", rc);
    TH_REQUIRE(tc, json_object_object_get_ex(o, "verified", &x) && x == NULL, "--no-verify: verified not null");
done:
    json_object_put(o);
}

static void too_large(th_case *tc)
{
    char dev[16];
    dev_arg(tc, dev, sizeof dev);
    setenv("CLIRR_MAX_ALLOC", "1024", 1);
    int rc = clirr(tc, "run", "bfs", "--gen", "grid:w=64,h=64", "--device", dev, NULL);
    unsetenv("CLIRR_MAX_ALLOC");
    TH_EXPECT(tc, rc == 3 && strstr(errtext, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"), "exit %d, stderr '%s'", rc,
              errtext);
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

/* `devices --json` lists every device with its runnable templates; none
 * without device-side enqueue may list a nested template. */
static void devices_json(th_case *tc)
{
    json_object *o = NULL, *arr, *x;
    int rc = clirr(tc, "devices", "--json", NULL);
    TH_REQUIRE(tc, rc == 0 && (o = json_tokener_parse(out)), "exit %d: %s", rc, errtext);
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
done:
    json_object_put(o);
}

TH_REGISTER(register_cli_tests)
{
    th_add("cli/help", help, NULL);
    th_add("cli/usage-errors", usage_errors, NULL);
    th_add("cli/malformed-files", malformed_files, NULL);
    th_add("cli/gen", gen_roundtrip, NULL);
    th_add("cli/devices-json", devices_json, NULL);
    th_add_device_noctx("cli/output", output_contract, NULL);
    th_add_device_noctx("cli/json", json_fields, NULL);
    th_add_device_noctx("cli/too-large", too_large, NULL);
}
