/* host/algo/options.c - names of variants and push modes, and the default
 * options of a run. */
#include "clirr/algo.h"

#include <string.h>

static const char *variant_names[CLIRR_VARIANT_COUNT_] = {"topo", "data", "jp"};
static const char *push_names[CLIRR_PUSH_COUNT_] = {"atomic", "chunk", "scan", "auto"};

const char *clirr_variant_name(clirr_variant v)
{
    return (unsigned)v < CLIRR_VARIANT_COUNT_ ? variant_names[v] : "?";
}

int clirr_variant_parse(const char *name, clirr_variant *v)
{
    for (int i = 0; i < CLIRR_VARIANT_COUNT_; i++)
        if (!strcmp(name, variant_names[i])) {
            *v = (clirr_variant)i;
            return 0;
        }
    return -1;
}

const char *clirr_push_mode_name(clirr_push_mode mode)
{
    return (unsigned)mode < CLIRR_PUSH_COUNT_ ? push_names[mode] : "?";
}

int clirr_push_mode_parse(const char *name, clirr_push_mode *mode)
{
    for (int i = 0; i < CLIRR_PUSH_COUNT_; i++)
        if (!strcmp(name, push_names[i])) {
            *mode = (clirr_push_mode)i;
            return 0;
        }
    return -1;
}

void clirr_algo_opts_default(clirr_algo_opts *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->variant = CLIRR_VARIANT_DATA;
    opts->push = CLIRR_PUSH_AUTO;
    opts->template_auto = true;
    opts->damping = 0.85;
    opts->tol = 1e-9;
    opts->max_iter = 1000;
    opts->color_heuristic = true;
    opts->color_bitset = true;
    opts->color_fuse = true;
    opts->coarsen = 1;
    opts->tmpl = CLIRR_TEMPLATE_BASELINE;
}

uint32_t clirr_bc_sources(uint32_t n, uint32_t k, uint32_t *out)
{
    if (k == 0 || k >= n)
        k = n;
    for (uint32_t i = 0; i < k; i++)
        out[i] = (uint32_t)((uint64_t)i * n / k);
    return k;
}
