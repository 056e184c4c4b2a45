/* host/cli/params.h - options that set algorithm parameters (BC sources,
 * PageRank damping/tolerance/iterations, the SpMV vector), shared by run
 * and bench. */
#ifndef CLIRR_CLI_PARAMS_H
#define CLIRR_CLI_PARAMS_H

#include "clirr/clirr.h"

#include <getopt.h>

enum { CLI_OPT_SOURCES = 1000, CLI_OPT_DAMPING, CLI_OPT_TOL, CLI_OPT_MAXITER, CLI_OPT_VECTOR,
       CLI_OPT_HEUR, CLI_OPT_NOHEUR, CLI_OPT_BITSET, CLI_OPT_NOBITSET, CLI_OPT_FUSE, CLI_OPT_NOFUSE,
       CLI_OPT_COARSEN };

#define CLI_PARAM_OPTIONS                                                      \
    {"sources", required_argument, NULL, CLI_OPT_SOURCES},                     \
        {"damping", required_argument, NULL, CLI_OPT_DAMPING},                 \
        {"tol", required_argument, NULL, CLI_OPT_TOL},                         \
        {"max-iter", required_argument, NULL, CLI_OPT_MAXITER},                \
        {"vector", required_argument, NULL, CLI_OPT_VECTOR},                   \
        {"heuristic", no_argument, NULL, CLI_OPT_HEUR},                        \
        {"no-heuristic", no_argument, NULL, CLI_OPT_NOHEUR},                   \
        {"bitset", no_argument, NULL, CLI_OPT_BITSET},                         \
        {"no-bitset", no_argument, NULL, CLI_OPT_NOBITSET},                    \
        {"fuse", no_argument, NULL, CLI_OPT_FUSE},                             \
        {"no-fuse", no_argument, NULL, CLI_OPT_NOFUSE},                        \
        {"coarsen", required_argument, NULL, CLI_OPT_COARSEN}

/* The help lines for these options. */
#define CLI_PARAM_HELP                                                         \
    "  --sources K         BC: a sample of K sources, evenly spaced (default: all)\n" \
    "  --damping D         PageRank damping factor (default 0.85)\n"           \
    "  --tol T             PageRank: stop when the L1 change < T (default 1e-9)\n" \
    "  --max-iter N        PageRank: at most N iterations (default 1000)\n"    \
    "  --vector FILE       SpMV: x, one number per line (default: all ones)\n"    \
    "  --[no-]heuristic    coloring: the larger degree keeps its color (default on)\n" \
    "  --[no-]bitset       coloring: first-fit by find-first-set (default on)\n" \
    "  --[no-]fuse         coloring: losers recolor during resolution (default on)\n" \
    "  --coarsen K         thread coarsening: K items per work-item (default 1)\n"

/* Handle option c if it is one of these: 1 = handled, 0 = not one of
 * these, -1 = bad value (message printed; exit 2). */
int cli_param_option(const char *cmd, int c, const char *arg, clirr_algo_opts *opts,
                     const char **vector_file);

#endif
