/* host/cli/lists.h - comma-separated option values ("bfs,sssp",
 * "topo,data", "all") shared by run and bench. */
#ifndef CLIRR_CLI_LISTS_H
#define CLIRR_CLI_LISTS_H

#include "algos.h"

/* Each fills out[] (duplicates dropped; "all" = every value) and returns
 * NULL, or the first token that names nothing (in a static buffer). */
const char *cli_list_algos(const char *text, const cli_algo **out, size_t max, size_t *n);
const char *cli_list_variants(const char *text, clirr_variant *out, size_t *n);
const char *cli_list_pushes(const char *text, clirr_push_mode *out, size_t *n);

/* Templates: "auto" is CLI_TEMPLATE_AUTO, "all" every template and auto. */
#define CLI_TEMPLATE_AUTO (-1)
const char *cli_list_templates(const char *text, int *out, size_t max, size_t *n);

/* Positive integers ("32,64,256"). */
const char *cli_list_uints(const char *text, uint32_t *out, size_t max, size_t *n);

#endif
