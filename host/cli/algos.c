/* host/cli/algos.c - the table of algorithms behind `run` and `bench`. */
#include "algos.h"

#include <string.h>

static int bfs_run(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *o, void *out,
                   clirr_algo_stats *s, clirr_error *err)
{
    return clirr_bfs(ctx, g, o, out, s, err);
}
static int bfs_ref(const clirr_graph *g, uint32_t src, void *out, clirr_error *err)
{
    return clirr_ref_bfs(g, src, out, err);
}
static bool bfs_verify(const clirr_graph *g, uint32_t src, const void *e, const void *got,
                       clirr_verify_report *r)
{
    return clirr_verify_bfs(g, src, e, got, r);
}
static void bfs_write(FILE *f, const void *res, uint32_t v)
{
    fprintf(f, "%d", ((const int32_t *)res)[v]);
}

static int sssp_run(clirr_ctx *ctx, const clirr_graph *g, const clirr_algo_opts *o, void *out,
                    clirr_algo_stats *s, clirr_error *err)
{
    return clirr_sssp(ctx, g, o, out, s, err);
}
static int sssp_ref(const clirr_graph *g, uint32_t src, void *out, clirr_error *err)
{
    return clirr_ref_sssp(g, src, out, err);
}
static bool sssp_verify(const clirr_graph *g, uint32_t src, const void *e, const void *got,
                        clirr_verify_report *r)
{
    return clirr_verify_sssp(g, src, e, got, r);
}
static void sssp_write(FILE *f, const void *res, uint32_t v)
{
    uint32_t d = ((const uint32_t *)res)[v];
    if (d == CLIRR_SSSP_INF)
        fputs("inf", f);
    else
        fprintf(f, "%u", d);
}

static const cli_algo algos[] = {
    {"bfs", sizeof(int32_t), bfs_run, bfs_ref, bfs_verify, bfs_write},
    {"sssp", sizeof(uint32_t), sssp_run, sssp_ref, sssp_verify, sssp_write},
};

const cli_algo *cli_algo_find(const char *name)
{
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++)
        if (!strcmp(algos[i].name, name))
            return &algos[i];
    return NULL;
}

const cli_algo *cli_algo_at(size_t i)
{
    return i < sizeof algos / sizeof algos[0] ? &algos[i] : NULL;
}

const char *cli_algo_names(void) { return "bfs, sssp"; }
