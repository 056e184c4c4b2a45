/* host/cli/input.c - the graph a command works on: read from --graph FILE
 * or generated from --gen SPEC, optionally symmetrized. */
#include "input.h"

#include <stdio.h>

int cli_load_graph(const char *file, const char *spec, bool symmetrize, clirr_graph *g,
                   clirr_error *err)
{
    int rc = file ? clirr_graph_read(file, g, err) : clirr_graph_generate(spec, g, err);
    if (rc == CLIRR_OK && symmetrize)
        rc = clirr_graph_symmetrize(g, err);
    if (rc != CLIRR_OK)
        return rc;
    if (g->weights_rounded)
        fprintf(stderr, "clirr: note: %s has real values; they were rounded to integer weights\n",
                file ? file : spec);
    return CLIRR_OK;
}
