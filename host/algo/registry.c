/* host/algo/registry.c - every algorithm clirr runs, in the order the CLI,
 * the tests and bench list them. Adding an algorithm: its descriptor in its
 * own file (host/algo/X.c) and one line here. */
#include "algo/registry.h"

#include <string.h>

static const clirr_algo *const registry[] = {
    &clirr_algo_bfs,
    &clirr_algo_sssp,
    &clirr_algo_bc,
    &clirr_algo_pagerank,
    &clirr_algo_spmv,
    &clirr_algo_color,
};

size_t clirr_algo_count(void) { return sizeof registry / sizeof registry[0]; }

const clirr_algo *clirr_algo_at(size_t i) { return i < clirr_algo_count() ? registry[i] : NULL; }

const clirr_algo *clirr_algo_find(const char *name)
{
    for (size_t i = 0; i < clirr_algo_count(); i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}
