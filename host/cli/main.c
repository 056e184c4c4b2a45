/* host/cli/main.c - `clirr SUBCOMMAND ...`: dispatch and the shared
 * helpers for messages, number parsing and JSON. */
#include "cli.h"


#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clirr COMMAND [OPTIONS]\n"
            "\n"
            "Irregular algorithms (graphs, trees, lists) on any OpenCL device.\n"
            "\n"
            "commands:\n"
            "  devices   list OpenCL devices, their capabilities and templates\n"
            "  run       run algorithms on a graph, verified against the CPU\n"
            "  bench     time algorithms x inputs x devices x variants\n"
            "  profile   control-flow and memory-access irregularity of every kernel\n"
            "  gen       generate a graph and write it to a file\n"
            "  convert   read a graph in one format, write it in another\n"
            "\n"
            "'clirr COMMAND --help' describes a command. Exit codes: 0 ok,\n"
            "1 verification failed, 2 bad usage or input, 3 OpenCL or device error.\n");
}

int cli_report(const clirr_error *err)
{
    fprintf(stderr, "clirr: %s\n", err->msg[0] ? err->msg : clirr_status_name(err->status));
    return clirr_status_exit_code(err->status);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "clirr %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'clirr %s --help')\n", cmd);
    return 2;
}

bool cli_parse_u64(const char *text, unsigned long long min, unsigned long long max,
                   unsigned long long *out)
{
    if (!text || !*text || *text == '-' || *text == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool cli_has_kind_extension(const char *path, const char *kind)
{
    char plain[32], gz[32];
    snprintf(plain, sizeof plain, ".%s", kind);
    snprintf(gz, sizeof gz, ".%s.gz", kind);
    size_t n = strlen(path), a = strlen(plain), b = strlen(gz);
    return (n > a && !strcmp(path + n - a, plain)) || (n > b && !strcmp(path + n - b, gz));
}

void cli_json_print(FILE *f, json_object *obj)
{
    fprintf(f, "%s\n", json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE));
}

json_object *cli_json_device(const clirr_caps *c)
{
    json_object *d = json_object_new_object();
    json_object_object_add(d, "name", json_object_new_string(c->name));
    json_object_object_add(d, "platform", json_object_new_string(c->platform));
    json_object_object_add(d, "vendor", json_object_new_string(c->vendor));
    json_object_object_add(d, "type", json_object_new_string(clirr_caps_type_name(c)));
    json_object_object_add(d, "version", json_object_new_string(c->version));
    json_object_object_add(d, "driver", json_object_new_string(c->driver));
    return d;
}

int cli_devices_pick(const char *selector, clirr_device **devs, size_t **picked,
                     size_t *npicked, clirr_error *err)
{
    size_t count = 0;
    *picked = NULL;
    int rc = clirr_device_list(devs, &count, err);
    if (rc != CLIRR_OK)
        return rc;
    *picked = calloc(count, sizeof **picked);
    if (!*picked)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    return clirr_device_select(*devs, count, selector, *picked, npicked, err);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("clirr %s\n", clirr_version());
        return 0;
    }
    struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"devices", cmd_devices}, {"run", cmd_run}, {"bench", cmd_bench},
                {"profile", cmd_profile}, {"gen", cmd_gen},
                {"convert", cmd_convert}};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(cmd, cmds[i].name)) {
            int code = cmds[i].fn(argc - 1, argv + 1);
            /* What went to stdout (tables, JSON) counts as output too: a
             * full disk or a closed pipe is an error, not a silent loss. */
            errno = 0;
            if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "clirr %s: writing to standard output failed: %s\n", cmd,
                        errno ? strerror(errno) : "write error");
                return code > 2 ? code : 2;
            }
            return code;
        }
    fprintf(stderr, "clirr: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
