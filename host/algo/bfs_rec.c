/* host/algo/bfs_rec.c - the host side of the recursive BFS (cl/bfs_rec.cl):
 * one host launch at the source, the rest enqueued on the device; then
 * every vertex the device deferred (nesting limit, full queue) is started
 * again from the host, until none is left. Child launches are always
 * counted; atomics and visits only in the counting build. */
#include "algo/bfs_rec.h"

#include "algo/run.h"
#include "cl/bfs_rec.def"
#include "prim/prim.h"

#include <stdlib.h>

CLIRR_KARGS_STRUCT(br_args, BR_REC_ARGS);

#define SET(name, var) CLIRR_TRY(clirr_arg(r->k, CLIRR_KARG(br_args, name), sizeof(var), &(var), err))

struct bfs_rec {
    clirr_ctx *ctx;
    const clirr_graph *g;
    bfs_rec_config cfg;
    cl_kernel k;
    cl_mem counters, defer, dmark;
    cl_command_queue q[CLIRR_MAX_STREAMS + 1]; /* default, then the streams */
    uint32_t child_wg, *restart;
    uint64_t host_calls, launches, atomics, visits, deferred;
};

void bfs_rec_release(bfs_rec *r)
{
    if (!r)
        return;
    clirr_mem_release(&r->counters);
    clirr_mem_release(&r->defer);
    clirr_mem_release(&r->dmark);
    free(r->restart);
    free(r);
}

int bfs_rec_prepare(clirr_ctx *ctx, const clirr_graph *g, const clirr_dgraph *dg, cl_mem level,
                    const bfs_rec_config *cfg, bfs_rec **out, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    bfs_rec *r = calloc(1, sizeof *r);
    if (!r)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    r->ctx = ctx;
    r->g = g;
    r->cfg = *cfg;
    r->restart = malloc(((size_t)g->n + 1) * sizeof *r->restart);
    if (!r->restart)
        CLIRR_TRY(clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory"));
    CLIRR_TRY(clirr_prim_prepare(ctx, err));
    CLIRR_TRY(clirr_program_get(ctx, "bfs_rec.cl", cfg->count ? "-DBR_COUNT=1" : "", &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, cfg->hier ? "bfs_rec_hier" : "bfs_rec_naive",
                                       CLIRR_KNARGS(br_args), &r->k, err));
    CLIRR_TRY(clirr_ctx_stream_queues(ctx, cfg->streams, r->q, err));
    CLIRR_TRY(clirr_buf_create(ctx, "the recursion counters", BR_NCOUNTERS * sizeof(uint32_t), &r->counters, err));
    /* A vertex waits in defer[] at most once a host round (dmark). */
    CLIRR_TRY(clirr_buf_create(ctx, "the deferred vertices", ((size_t)g->n + 1) * sizeof(uint32_t), &r->defer, err));
    CLIRR_TRY(clirr_buf_create(ctx, "the deferred marks", ((size_t)g->n + 1) * sizeof(uint32_t), &r->dmark, err));
    r->child_wg = (uint32_t)clirr_wg_size(ctx, r->k, cfg->child_wg ? cfg->child_wg : 64);
    uint32_t streams = cfg->streams;
    SET(row, dg->row);
    SET(col, dg->col);
    SET(level, level);
    SET(counters, r->counters);
    SET(defer, r->defer);
    SET(dmark, r->dmark);
    SET(limit, cfg->limit);
    SET(child_wg, r->child_wg);
    SET(streams, streams);
    SET(stream1, r->q[1]);
    SET(stream2, r->q[2]);
    SET(stream3, r->q[3]);
    SET(stream4, r->q[4]);
    *out = r;
    return CLIRR_OK;
fail:
    bfs_rec_release(r);
    return rc;
}

int bfs_rec_run(bfs_rec *r, uint32_t source, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t nrestart = 0, zero = 0;
    const clirr_graph *g = r->g;
    r->host_calls = r->deferred = 0;
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->counters, 0, BR_NCOUNTERS, 0, err));
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->dmark, 0, g->n, 0, err));
    r->restart[nrestart++] = source;
    while (nrestart) {
        for (uint32_t i = 0; i < nrestart; i++) {
            uint32_t v = r->restart[i];
            size_t groups = r->cfg.hier ? g->row[v + 1] - g->row[v] : 1;
            SET(node, v);
            CLIRR_TRY(clirr_launch(r->ctx, r->k, groups * r->child_wg, r->child_wg, err));
            r->host_calls++;
        }
        /* A kernel completes after the children it enqueued. */
        CLIRR_TRY(clirr_finish(r->ctx, err));
        CLIRR_TRY(clirr_buf_read(r->ctx, r->counters, BR_DEFERRED * sizeof(uint32_t), sizeof nrestart, &nrestart, err));
        if (nrestart) {
            if (nrestart > g->n)
                CLIRR_TRY(clirr_fail(err, CLIRR_ERR_OPENCL, "the device deferred %u of %u vertices", nrestart, g->n));
            CLIRR_TRY(clirr_buf_read(r->ctx, r->defer, 0, (size_t)nrestart * sizeof(uint32_t), r->restart, err));
            CLIRR_TRY(clirr_buf_write(r->ctx, r->counters, BR_DEFERRED * sizeof(uint32_t), sizeof zero, &zero, err));
            r->deferred += nrestart;
        }
    }
    uint32_t c[BR_NCOUNTERS];
    CLIRR_TRY(clirr_buf_read(r->ctx, r->counters, 0, sizeof c, c, err));
    r->launches = c[BR_LAUNCHES];
    r->atomics = c[BR_ATOMICS];
    r->visits = c[BR_NODES];
    stats->child_launches = r->launches;
    stats->iterations = (uint32_t)r->host_calls;
fail:
    return rc;
}

void bfs_rec_extras(const bfs_rec *r, clirr_extras *x)
{
    clirr_extra *e = clirr_extras_add(x, "kernel_calls", CLIRR_EXTRA_UINT);
    e->u = r->host_calls + r->launches;
    e->in_table = true;
    clirr_extras_add(x, "host_launches", CLIRR_EXTRA_UINT)->u = r->host_calls;
    clirr_extras_add(x, "deferred", CLIRR_EXTRA_UINT)->u = r->deferred;
    if (r->cfg.count) {
        e = clirr_extras_add(x, "atomics", CLIRR_EXTRA_UINT);
        e->u = r->atomics;
        e->in_table = true;
        clirr_extras_add(x, "visits", CLIRR_EXTRA_UINT)->u = r->visits;
    }
}
