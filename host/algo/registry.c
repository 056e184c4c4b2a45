/* host/algo/registry.c - every algorithm clirr runs, in the order the CLI,
 * the tests and bench list them: one ALGO(name) line each, for the
 * descriptor clirr_algo_<name> of host/algo/<name>.c.
 *
 * The build reads these lines too (the top-level meson.build): each brings
 * host/algo/<name>.c, host/ref/<name>.c and cl/<name>.cl (+ cl/<name>.def)
 * into the build. So adding an algorithm is its own files plus one line
 * here. */
#include "clirr/algo.h"

#include <string.h>

#define CLIRR_ALGORITHMS(ALGO)                                                 \
    ALGO(bfs)                                                                  \
    ALGO(sssp)                                                                 \
    ALGO(bc)                                                                   \
    ALGO(pagerank)                                                             \
    ALGO(spmv)                                                                 \
    ALGO(color)                                                                \
    ALGO(cc)                                                                   \
    ALGO(mst)                                                                  \
    ALGO(listrank)                                                             \
    ALGO(treestats)                                                            \
    ALGO(bh)                                                                   \
    ALGO(descendants)                                                          \
    ALGO(heights)                                                              \
    ALGO(sp)                                                                   \
    ALGO(dmr)                                                                  \
    /* one line per algorithm, above this one */

#define DECLARE(name) extern const clirr_algo clirr_algo_##name;
CLIRR_ALGORITHMS(DECLARE)

#define ENTRY(name) &clirr_algo_##name,
static const clirr_algo *const registry[] = {CLIRR_ALGORITHMS(ENTRY)};

size_t clirr_algo_count(void) { return sizeof registry / sizeof registry[0]; }

const clirr_algo *clirr_algo_at(size_t i) { return i < clirr_algo_count() ? registry[i] : NULL; }

const clirr_algo *clirr_algo_find(const char *name)
{
    for (size_t i = 0; i < clirr_algo_count(); i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}
