/* host/cli/params.c - parsing the algorithm-parameter options. */
#include "params.h"

#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

static bool parse_real(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

int cli_param_option(const char *cmd, int c, const char *arg, clirr_algo_opts *opts,
                     const char **vector_file)
{
    unsigned long long v;
    double d;
    switch (c) {
    case CLI_OPT_SOURCES:
        if (!cli_parse_u64(arg, 1, UINT32_MAX, &v))
            {
            cli_usage_error(cmd, "--sources needs a positive count, not '%s'", arg);
            return -1;
        }
        opts->bc_sources = (uint32_t)v;
        return 1;
    case CLI_OPT_DAMPING:
        if (!parse_real(arg, &d) || d < 0 || d > 1)
            {
            cli_usage_error(cmd, "--damping needs a number from 0 to 1, not '%s'", arg);
            return -1;
        }
        opts->damping = d;
        return 1;
    case CLI_OPT_TOL:
        if (!parse_real(arg, &d) || d < 0)
            {
            cli_usage_error(cmd, "--tol needs a number >= 0, not '%s'", arg);
            return -1;
        }
        opts->tol = d;
        return 1;
    case CLI_OPT_MAXITER:
        if (!cli_parse_u64(arg, 0, UINT32_MAX, &v))
            {
            cli_usage_error(cmd, "--max-iter needs a count, not '%s'", arg);
            return -1;
        }
        opts->max_iter = (uint32_t)v;
        return 1;
    case CLI_OPT_VECTOR:
        *vector_file = arg;
        return 1;
    case CLI_OPT_HEUR: opts->color_heuristic = true; return 1;
    case CLI_OPT_NOHEUR: opts->color_heuristic = false; return 1;
    case CLI_OPT_BITSET: opts->color_bitset = true; return 1;
    case CLI_OPT_NOBITSET: opts->color_bitset = false; return 1;
    case CLI_OPT_FUSE: opts->color_fuse = true; return 1;
    case CLI_OPT_NOFUSE: opts->color_fuse = false; return 1;
    case CLI_OPT_COARSEN:
        if (!cli_parse_u64(arg, 1, 1u << 16, &v)) {
            cli_usage_error(cmd, "--coarsen needs a count from 1 to 65536, not '%s'", arg);
            return -1;
        }
        opts->coarsen = (unsigned)v;
        return 1;
    default:
        return 0;
    }
}
