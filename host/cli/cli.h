/* host/cli/cli.h - the clirr command: subcommands and the helpers they
 * share. Only this folder prints or chooses exit codes. */
#ifndef CLIRR_CLI_H
#define CLIRR_CLI_H

#include "clirr/clirr.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

/* Subcommands: each returns the process exit code. */
int cmd_devices(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_convert(int argc, char **argv);

/* Print "clirr: message" for a failed status; returns its exit code. */
int cli_report(const clirr_error *err);

/* Print "clirr CMD: message" and the usage hint; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Strict number parsing for option values: the whole text must be a number
 * within [min, max]. Return false on anything else. */
bool cli_parse_u64(const char *text, unsigned long long min, unsigned long long max,
                   unsigned long long *out);

/* True when path ends in ".KIND" or ".KIND.gz" (kind "list", "tree", "bodies"). */
bool cli_has_kind_extension(const char *path, const char *kind);

/* Print a json-c object to f (pretty) and a newline. */
void cli_json_print(FILE *f, json_object *obj);

/* The device part of JSON reports. */
json_object *cli_json_device(const clirr_caps *caps);

/* Every device, or CLIRR_ERR_* with err filled. */
int cli_devices_pick(const char *selector, clirr_device **devs, size_t **picked,
                     size_t *npicked, clirr_error *err);

#endif
