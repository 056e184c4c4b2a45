/* host/algo/session.c - the engine around every algorithm's prepare / run /
 * release: what a trial times (compute and download, nothing built or
 * uploaded), where prepare's time went, and the run-once convenience. */
#include "algo/input.h"
#include "base/parallel.h"
#include "clirr/algo.h"
#include "prim/prim.h"
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

struct clirr_session {
    const clirr_algo *algo;
    clirr_ctx *ctx;
    clirr_plan plan;
    void *state;
    uint64_t items;           /* values in a result */
    clirr_prepare_times times;
    /* --reorder: perm[old id] = new id of the relabelled input the
     * algorithm runs on (the input's), and its result before each value
     * moves back */
    const uint32_t *perm;
    void *moved;
};

/* "bfs (data, dbuf-shared) on NVIDIA H100" before a failure's message. */
static int with_context(int rc, const clirr_session *s, clirr_error *err)
{
    if (rc != CLIRR_OK)
        clirr_fail_context(err, "%s (%s, %s) on %s", s->algo->name, clirr_plan_variant_name(&s->plan),
                           clirr_template_name(s->plan.tmpl), clirr_ctx_caps(s->ctx)->name);
    return rc;
}

/* --reorder: the input relabelled by the plan's layout (made once and
 * kept with the input: clirr_input_relabelled), the source moved with it,
 * and room for a result in new ids; in then names the relabelled input.
 * Part of prepare's time. */
static int relabel(clirr_session *s, const clirr_input **in, clirr_error *err)
{
    const clirr_graph *g = clirr_input_graph(*in);
    const clirr_input *rin = NULL;
    uint32_t source = 0;
    s->moved = malloc((s->items ? s->items : 1) * s->algo->value_size);
    if (!s->moved)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory relabelling %s", clirr_input_name(*in));
    int rc = clirr_input_relabelled(*in, s->plan.reorder, &rin, &s->perm, err);
    if (rc == CLIRR_OK && s->algo->sources == CLIRR_SOURCES_ONE &&
        clirr_sources_pick(g, &s->plan.source, &source, 1, err) != 1)
        rc = err->status;
    if (rc == CLIRR_OK && s->algo->sources == CLIRR_SOURCES_ONE) {
        s->plan.source.rule = CLIRR_SOURCE_VERTEX;
        s->plan.source.vertex = s->perm[source];
    }
    if (rc == CLIRR_OK)
        *in = rin;
    return rc;
}

int clirr_session_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan,
                          clirr_session **out, clirr_error *err)
{
    *out = NULL;
    clirr_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a session");
    s->algo = plan->algo;
    s->ctx = ctx;
    s->plan = *plan;
    s->items = clirr_input_items(in);
    clirr_ctx_timing_reset(ctx);
    uint64_t t0 = clirr_now_ns();
    /* The primitives (fills, scans, compactions) are built here too, so no
     * trial ever compiles. */
    int rc = clirr_prim_prepare(ctx, err);
    if (rc == CLIRR_OK && s->plan.reorder)
        rc = relabel(s, &in, err);
    if (rc == CLIRR_OK)
        rc = s->algo->prepare(ctx, in, &s->plan, &s->state, err);
    clirr_timing t;
    int trc = clirr_ctx_timing(ctx, &t, err);
    if (rc == CLIRR_OK)
        rc = trc;
    uint64_t wall = clirr_now_ns() - t0;
    s->times.build_ns = t.build_ns;
    s->times.upload_ns = t.transfer_ns;
    s->times.upload_bytes = t.upload_bytes;
    s->times.upload_pinned_bytes = t.upload_pinned_bytes;
    s->times.huge_page_bytes = t.huge_page_bytes;
    uint64_t accounted = t.build_ns + t.transfer_ns;
    s->times.prepare_ns = wall > accounted ? wall - accounted : 0;
    if (rc != CLIRR_OK) {
        with_context(rc, s, err);
        clirr_session_release(s);
        return rc;
    }
    *out = s;
    return CLIRR_OK;
}

void clirr_session_prepare_times(const clirr_session *s, clirr_prepare_times *t) { *t = s->times; }

/* --reorder: one share of the vertices' values moved back to their own
 * ids, result[v] = moved[perm[v]]. */
typedef struct map_back_part {
    const clirr_session *s;
    void *result;
    uint32_t lo, hi;
} map_back_part;

static void map_back(void *arg)
{
    const map_back_part *p = arg;
    char *result = p->result;
    const char *moved = p->s->moved;
    const uint32_t *perm = p->s->perm;
    size_t vs = p->s->algo->value_size;
    /* A copy whose size is a constant compiles to one load and store; the
     * size known at run time only is a call a value, 1.2-2.8x slower in
     * this random gather (4M values, one core). */
#define MAP_BACK(SIZE)                                                                             \
    for (uint32_t v = p->lo; v < p->hi; v++)                                                     \
        memcpy(result + (size_t)v * (SIZE), moved + (size_t)perm[v] * (SIZE), (SIZE))
    if (vs == sizeof(uint32_t))
        MAP_BACK(sizeof(uint32_t));
    else if (vs == sizeof(uint64_t))
        MAP_BACK(sizeof(uint64_t));
    else
        MAP_BACK(vs);
#undef MAP_BACK
}

/* Every value back to its vertex's own id, on all host cores (a gather of
 * n values: tens of ms on one core for millions of vertices). */
static void map_back_all(const clirr_session *s, void *result)
{
    map_back_part parts[CLIRR_MAX_PARTS];
    unsigned n = clirr_host_threads(s->items, 1u << 16, "CLIRR_HOST_THREADS");
    for (unsigned i = 0; i < n; i++) {
        parts[i] = (map_back_part){s, result, 0, 0};
        clirr_part_bounds(s->items, n, i, &parts[i].lo, &parts[i].hi);
    }
    clirr_run_parts(n, map_back, parts, sizeof parts[0]);
}

int clirr_session_run(clirr_session *s, void *result, clirr_stats *stats, clirr_error *err)
{
    memset(stats, 0, sizeof *stats);
    if (s->plan.trace)
        clirr_trace_clear(s->plan.trace);
    clirr_ctx_timing_reset(s->ctx);
    uint64_t t0 = clirr_now_ns();
    void *values = s->perm ? s->moved : result;
    int rc = s->algo->run(s->state, values, stats, err);
    /* Waits for the device: the wall clock below covers all the work. */
    int trc = clirr_ctx_timing(s->ctx, &stats->timing, err);
    /* --reorder: each vertex's value back to its own id is part of the
     * trial (the result a user gets; auto picks the layout by default on
     * CPUs, so it must not hide there). */
    if (s->perm && rc == CLIRR_OK)
        map_back_all(s, result);
    stats->total_ns = clirr_now_ns() - t0;
    /* Host-side bookkeeping on the result is no part of the trial: the
     * counters on the ids the algorithm ran with. */
    if (rc == CLIRR_OK && trc == CLIRR_OK && s->algo->summarize)
        s->algo->summarize(s->state, values, stats);
    if (rc == CLIRR_OK)
        rc = trc;
    return with_context(rc, s, err);
}

int clirr_session_write_outputs(clirr_session *s, const void *result, clirr_error *err)
{
    if (!s->algo->write_outputs)
        return CLIRR_OK;
    return with_context(s->algo->write_outputs(s->state, result, err), s, err);
}

int clirr_session_write_result(clirr_session *s, const void *result, FILE *f, clirr_error *err)
{
    if (s->algo->write_result)
        return with_context(s->algo->write_result(s->state, result, f, err), s, err);
    for (uint64_t i = 0; i < s->items; i++) {
        s->algo->write_value(f, result, i);
        fputc('\n', f);
    }
    return CLIRR_OK;
}

bool clirr_session_writes_prefix(const clirr_session *s) { return s->algo->write_prefix != NULL; }

int clirr_session_write_prefix(clirr_session *s, const void *result, const char *prefix, clirr_error *err)
{
    if (!s->algo->write_prefix)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s writes one --output file, not files under a prefix",
                          s->algo->name);
    return with_context(s->algo->write_prefix(s->state, result, prefix, err), s, err);
}

void clirr_session_extras(clirr_session *s, const void *result, clirr_extras *x)
{
    memset(x, 0, sizeof *x);
    if (s->algo->extras)
        s->algo->extras(s->state, result, x);
}

void clirr_session_release(clirr_session *s)
{
    if (!s)
        return;
    if (s->state)
        s->algo->release(s->state);
    free(s->moved);
    free(s);
}

clirr_extra *clirr_extras_add(clirr_extras *x, const char *name, clirr_extra_type type)
{
    static clirr_extra overflow; /* past the table: written, never reported */
    if (x->n == CLIRR_MAX_EXTRAS)
        return &overflow;
    clirr_extra *e = &x->e[x->n++];
    memset(e, 0, sizeof *e);
    e->name = name;
    e->type = type;
    return e;
}

int clirr_algo_run(clirr_ctx *ctx, const clirr_algo *a, const clirr_input *in,
                   const clirr_intent *it, void *result, clirr_stats *stats, clirr_error *err)
{
    clirr_intent defaults;
    if (!it) {
        clirr_intent_default(a, &defaults);
        it = &defaults;
    }
    clirr_plan plan;
    clirr_stats local;
    clirr_session *s = NULL;
    int rc = clirr_plan_make(a, clirr_ctx_caps(ctx), it, in, &plan, err);
    if (rc == CLIRR_OK)
        rc = clirr_session_prepare(ctx, in, &plan, &s, err);
    if (rc == CLIRR_OK)
        rc = clirr_session_run(s, result, stats ? stats : &local, err);
    clirr_session_release(s);
    return rc;
}
