/* host/cli/input.h - loading the graph named on the command line. */
#ifndef CLIRR_CLI_INPUT_H
#define CLIRR_CLI_INPUT_H

#include "clirr/graph.h"

/* Read file (when not NULL) or generate spec; symmetrize on request.
 * Prints a note when real values were rounded to integer weights. */
int cli_load_graph(const char *file, const char *spec, bool symmetrize, clirr_graph *g,
                   clirr_error *err);

#endif
