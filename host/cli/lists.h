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

#endif
