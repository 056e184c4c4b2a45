/* host/algo/trace.c - the rows of a per-round trace (clirr/trace.h), and
 * the round loops' helpers that fill them (algo/run.h). */
#include "algo/run.h"

#include <stdlib.h>
#include <string.h>

int clirr_trace_add(clirr_trace *t, const clirr_trace_round *r)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        clirr_trace_round *grown = realloc(t->rounds, cap * sizeof *grown);
        if (!grown)
            return CLIRR_ERR_NOMEM;
        t->rounds = grown;
        t->cap = cap;
    }
    t->rounds[t->n++] = *r;
    return CLIRR_OK;
}

void clirr_trace_clear(clirr_trace *t) { t->n = 0; }

void clirr_trace_free(clirr_trace *t)
{
    free(t->rounds);
    memset(t, 0, sizeof *t);
}

int clirr_trace_begin(clirr_ctx *ctx, clirr_trace_mark *m, clirr_error *err)
{
    return clirr_ctx_peek(ctx, &m->kernel_ns, &m->launches, err);
}

int clirr_trace_end(clirr_ctx *ctx, clirr_trace *t, const clirr_trace_mark *m, clirr_trace_round *r,
                    clirr_error *err)
{
    uint64_t ns = 0, launches = 0;
    int rc = clirr_ctx_peek(ctx, &ns, &launches, err);
    if (rc != CLIRR_OK)
        return rc;
    r->kernel_ns = ns - m->kernel_ns;
    r->launches = launches - m->launches;
    if (clirr_trace_add(t, r) != CLIRR_OK)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the trace's rounds");
    return CLIRR_OK;
}

int clirr_trace_arcs(clirr_ctx *ctx, cl_mem values, const uint32_t *row, uint32_t n, uint32_t match,
                     bool all_but, uint64_t *arcs, clirr_error *err)
{
    *arcs = 0;
    uint32_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the trace");
    int rc = n ? clirr_buf_read(ctx, values, 0, (size_t)n * sizeof *v, v, err) : CLIRR_OK;
    for (uint32_t i = 0; rc == CLIRR_OK && i < n; i++)
        if ((v[i] == match) != all_but)
            *arcs += row[i + 1] - row[i];
    free(v);
    return rc;
}

int clirr_trace_topo_begin(clirr_ctx *ctx, const clirr_trace *t, cl_mem values, const uint32_t *row, uint32_t n,
                           uint32_t match, bool all_but, clirr_trace_round *r, clirr_trace_mark *m, clirr_error *err)
{
    if (!t)
        return CLIRR_OK;
    *r = (clirr_trace_round){"topo", n, 0, 0, 0, "-", 0, 0, 0};
    int rc = clirr_trace_arcs(ctx, values, row, n, match, all_but, &r->arcs, err);
    return rc == CLIRR_OK ? clirr_trace_begin(ctx, m, err) : rc;
}
