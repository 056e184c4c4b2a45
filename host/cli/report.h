/* host/cli/report.h - printing results: the table and the JSON object of a
 * run (fields documented in README.md's output contract). */
#ifndef CLIRR_CLI_REPORT_H
#define CLIRR_CLI_REPORT_H

#include "cli.h"
#include "measure.h"

/* What the input was, for reports. */
typedef struct cli_input {
    const char *file;  /* --graph, or NULL */
    const char *spec;  /* --gen, or NULL */
    bool symmetrized;
    const clirr_graph *g;
} cli_input;

json_object *cli_input_json(const cli_input *in);
json_object *cli_result_json(const cli_result *r, const cli_input *in);

void cli_table_header(FILE *f);
void cli_table_row(FILE *f, const cli_result *r);

/* The variant and push mode of a result for tables: "-" where the
 * algorithm has none. */
const char *cli_variant_text(const cli_result *r);
const char *cli_push_text(const cli_result *r);

/* "yes", "NO", "-" (not checked) or "error". */
const char *cli_verified_text(const cli_result *r);

#endif
