/* host/algo/treerec.c - the recursion templates on a tree (shared/papers/001,
 * section II.C, Fig. 3; kernels cl/templates/tree_rec.clh and
 * cl/nested/tree_rec_enqueue.clh), shared by descendants and heights.
 *
 * Rooting (parent, depth, children by parent) is the input's preparation,
 * done on the host once before any trial, as the study's trees come with
 * child lists. A trial of the variant `recursive` initialises values and
 * counts, then runs its template (plan.tmpl):
 *   flat        the bands of cl/templates/tree_rec.clh, deepest first;
 *   rec-naive   one host launch at the root (one work-group), the rest
 *               enqueued on the device; then the deferred vertices, if
 *               any, each a new host launch, until none is left;
 *   rec-hier    the same with a work-group per child;
 *   serial-rec, serial-iter  the CPU versions (host/ref/treerec.c), timed:
 *               the baseline of speedups is the better of the two.
 * Counters: child launches always (one atomic a launch); value atomics
 * and vertices processed only with --count (a separate build, -DTR_COUNT=1,
 * so that timed runs pay nothing). */
#include "algo/treerec.h"

#include "algo/input.h"
#include "algo/run.h"
#include "cl/templates/tree_rec.def"
#include "prim/prim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

CLIRR_KARGS_STRUCT(init_args, TR_INIT_ARGS);
CLIRR_KARGS_STRUCT(flat_args, TR_FLAT_ARGS);
CLIRR_KARGS_STRUCT(rec_args, TR_REC_ARGS);

#define SET(k, tag, name, var) CLIRR_TRY(clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err))
#define REC_VARIANTS (1u << TREEREC_RECURSIVE)

const clirr_variant_desc clirr_treerec_variants[TREEREC_NVARIANTS] = {
    [TREEREC_RECURSIVE] = {"recursive", "on the device through a recursion template: flat (a work-item per vertex "
                                        "adds to its ancestors, depth bands), rec-naive (a child kernel per internal "
                                        "child), rec-hier (a child kernel per work-group)", false, true},
    [TREEREC_SERIAL_REC] = {"serial-rec", "the recursive serial CPU version, timed", false},
    [TREEREC_SERIAL_ITER] = {"serial-iter", "the iterative serial CPU version (reverse BFS order), timed", false},
};

const clirr_param_desc clirr_treerec_params[TREEREC_NPARAMS] = {
    [TREEREC_P_STREAMS] = {"streams", CLIRR_PARAM_BOOL, "off", 0, 0,
                           "rec-*: half of the nested launches go to a second on-device queue (the study's "
                           "extra stream)", NULL, REC_VARIANTS},
    [TREEREC_P_COUNT] = {"count", CLIRR_PARAM_BOOL, "off", 0, 0,
                         "count value atomics and vertices processed on the device (a separate build; "
                         "slower)", NULL, 0},
    [TREEREC_P_NEST_LIMIT] = {"nest-limit", CLIRR_PARAM_UINT, "512", 1, 8192,
                              "rec-*: nested launches at most this deep; deeper vertices restart from the host",
                              NULL, REC_VARIANTS},
};

typedef struct treerec_session {
    clirr_ctx *ctx;
    clirr_treerec_op op;
    unsigned variant;
    clirr_template tmpl;       /* of the variant recursive */
    bool streams, count;
    uint32_t limit, child_wg, band, n;
    const clirr_rooted *r;     /* the input's */
    cl_mem parent, depth, crow, ccol, value, pending, counters, defer;
    cl_kernel init, flat, rec;
    cl_command_queue dq, sq;
    uint32_t *todo;            /* deferred vertices, host copy */
    /* the last trial's counters */
    uint64_t host_calls, launches, atomics, nodes, deferred, bands;
} treerec_session;

void clirr_treerec_release(void *state)
{
    treerec_session *s = state;
    if (!s)
        return;
    cl_mem *bufs[] = {&s->parent, &s->depth, &s->crow, &s->ccol, &s->value, &s->pending, &s->counters, &s->defer};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        clirr_mem_release(bufs[i]);
    free(s->todo);
    free(s);
}

static int upload(treerec_session *s, const char *what, const uint32_t *host, size_t count, cl_mem *m,
                  clirr_error *err)
{
    size_t bytes = (count ? count : 1) * sizeof(uint32_t);
    int rc = clirr_buf_create(s->ctx, what, bytes, m, err);
    if (rc == CLIRR_OK && count && host)
        rc = clirr_buf_write(s->ctx, *m, 0, bytes, host, err);
    return rc;
}

/* Bands of B = max(64, ceil(sqrt(height))) levels: work at most n B walk
 * steps, at most ceil(height / B) launches (a path of 10^5: 317 levels a
 * band, 316 launches, 3.2e7 steps instead of 5e9). */
static uint32_t band_levels(uint32_t height)
{
    uint32_t b = (uint32_t)ceil(sqrt((double)height));
    return b > 64 ? b : 64;
}

int clirr_treerec_prepare(clirr_treerec_op op, const char *cl_file, const char *prefix, clirr_ctx *ctx,
                          const clirr_input *in, const clirr_plan *plan, void **out, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    char name[64];
    treerec_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->op = op;
    s->variant = plan->variant;
    s->tmpl = plan->tmpl;
    s->streams = plan->params.v[TREEREC_P_STREAMS].b;
    s->count = plan->params.v[TREEREC_P_COUNT].b;
    s->limit = (uint32_t)plan->params.v[TREEREC_P_NEST_LIMIT].u;
    CLIRR_TRY(clirr_input_tree_rooted(in, &s->r, err));
    s->n = s->r->n;
    s->band = band_levels(s->r->max_depth);
    if (s->variant == TREEREC_SERIAL_REC && s->r->max_depth > CLIRR_TREEREC_SERIAL_DEPTH)
        CLIRR_TRY(clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                             "serial-rec would recurse %u deep, beyond its limit of %u (serial-iter runs any depth)",
                             s->r->max_depth, CLIRR_TREEREC_SERIAL_DEPTH));
    if (s->variant == TREEREC_SERIAL_REC || s->variant == TREEREC_SERIAL_ITER) {
        *out = s;
        return CLIRR_OK;
    }
    CLIRR_TRY(clirr_prim_prepare(ctx, err));
    CLIRR_TRY(clirr_program_get(ctx, cl_file, s->count ? "-DTR_COUNT=1" : "", &prog, err));
    snprintf(name, sizeof name, "%s_init", prefix);
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, name, CLIRR_KNARGS(init_args), &s->init, err));
    size_t n = s->n, m = n > 1 ? n - 1 : 0;
    CLIRR_TRY(upload(s, "the children's rows", s->r->crow, n + 1, &s->crow, err));
    CLIRR_TRY(upload(s, "the values", NULL, n, &s->value, err));
    CLIRR_TRY(upload(s, "the pending children", NULL, n, &s->pending, err));
    CLIRR_TRY(upload(s, "the counters", NULL, TR_NCOUNTERS, &s->counters, err));
    CLIRR_TRY(upload(s, "the parents", s->r->parent, n, &s->parent, err));
    if (s->tmpl == CLIRR_TEMPLATE_FLAT) {
        snprintf(name, sizeof name, "%s_flat", prefix);
        CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, name, CLIRR_KNARGS(flat_args), &s->flat, err));
        CLIRR_TRY(upload(s, "the depths", s->r->depth, n, &s->depth, err));
    } else {
        snprintf(name, sizeof name, "%s_%s", prefix, s->tmpl == CLIRR_TEMPLATE_REC_NAIVE ? "naive" : "hier");
        CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, name, CLIRR_KNARGS(rec_args), &s->rec, err));
        CLIRR_TRY(clirr_ctx_device_queues(ctx, &s->dq, &s->sq, err));
        CLIRR_TRY(upload(s, "the children", s->r->ccol, m, &s->ccol, err));
        CLIRR_TRY(upload(s, "the deferred vertices", NULL, n, &s->defer, err));
        s->todo = malloc(n * sizeof *s->todo);
        if (!s->todo)
            CLIRR_TRY(clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory"));
        s->child_wg = (uint32_t)clirr_wg_size(ctx, s->rec, plan->group_wg);
        cl_command_queue second = s->streams ? s->sq : s->dq;
        uint32_t streams = s->streams;
        SET(s->rec, rec_args, crow, s->crow);
        SET(s->rec, rec_args, ccol, s->ccol);
        SET(s->rec, rec_args, parent, s->parent);
        SET(s->rec, rec_args, value, s->value);
        SET(s->rec, rec_args, pending, s->pending);
        SET(s->rec, rec_args, counters, s->counters);
        SET(s->rec, rec_args, defer, s->defer);
        SET(s->rec, rec_args, limit, s->limit);
        SET(s->rec, rec_args, child_wg, s->child_wg);
        SET(s->rec, rec_args, streams, streams);
        SET(s->rec, rec_args, stream, second);
    }
    *out = s;
    return CLIRR_OK;
fail:
    clirr_treerec_release(s);
    return rc;
}

static int run_flat(treerec_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t height = s->r->max_depth, n = s->n;
    s->bands = 0;
    SET(s->flat, flat_args, parent, s->parent);
    SET(s->flat, flat_args, depth, s->depth);
    SET(s->flat, flat_args, value, s->value);
    SET(s->flat, flat_args, n, n);
    SET(s->flat, flat_args, counters, s->counters);
    size_t wg = clirr_wg_size(s->ctx, s->flat, 0);
    for (uint32_t k = height ? (height - 1) / s->band + 1 : 0; k-- > 0;) {
        uint32_t lo = k * s->band, hi = lo + s->band;
        SET(s->flat, flat_args, lo, lo);
        SET(s->flat, flat_args, hi, hi);
        CLIRR_TRY(clirr_launch(s->ctx, s->flat, n, wg, err));
        s->bands++;
    }
    s->host_calls = s->bands;
fail:
    return rc;
}

static int run_rec(treerec_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t ntodo = 0, zero = 0;
    s->host_calls = s->deferred = 0;
    if (s->n > 1)
        s->todo[ntodo++] = s->r->root;
    while (ntodo) {
        for (uint32_t i = 0; i < ntodo; i++) {
            uint32_t v = s->todo[i];
            size_t groups = s->tmpl == CLIRR_TEMPLATE_REC_NAIVE ? 1 : s->r->crow[v + 1] - s->r->crow[v];
            SET(s->rec, rec_args, node, v);
            CLIRR_TRY(clirr_launch(s->ctx, s->rec, groups * s->child_wg, s->child_wg, err));
            s->host_calls++;
        }
        /* The launches above finish with all they enqueued: the host
         * queue waits for a kernel's children before it completes. */
        CLIRR_TRY(clirr_finish(s->ctx, err));
        CLIRR_TRY(clirr_buf_read(s->ctx, s->counters, TR_DEFERRED * sizeof(uint32_t), sizeof ntodo, &ntodo, err));
        if (ntodo) {
            if (ntodo > s->n)
                CLIRR_TRY(clirr_fail(err, CLIRR_ERR_OPENCL, "the device deferred %u of %u vertices", ntodo, s->n));
            CLIRR_TRY(clirr_buf_read(s->ctx, s->defer, 0, (size_t)ntodo * sizeof(uint32_t), s->todo, err));
            CLIRR_TRY(clirr_buf_write(s->ctx, s->counters, TR_DEFERRED * sizeof(uint32_t), sizeof zero, &zero, err));
            s->deferred += ntodo;
        }
    }
fail:
    return rc;
}

int clirr_treerec_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    treerec_session *s = state;
    uint32_t n = s->n;
    stats->iterations = 1;
    stats->reached = n;
    stats->edges_traversed = n ? n - 1 : 0;
    if (s->variant == TREEREC_SERIAL_REC)
        return clirr_ref_treerec_recursive(s->r, s->op, result, err);
    if (s->variant == TREEREC_SERIAL_ITER) {
        clirr_ref_treerec_iterative(s->r, s->op, result);
        return CLIRR_OK;
    }
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->counters, 0, TR_NCOUNTERS, 0, err));
    SET(s->init, init_args, crow, s->crow);
    SET(s->init, init_args, value, s->value);
    SET(s->init, init_args, pending, s->pending);
    SET(s->init, init_args, n, n);
    CLIRR_TRY(clirr_launch(s->ctx, s->init, n, clirr_wg_size(s->ctx, s->init, 0), err));
    CLIRR_TRY(s->tmpl == CLIRR_TEMPLATE_FLAT ? run_flat(s, err) : run_rec(s, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->value, 0, (size_t)n * sizeof(uint32_t), result, err));
    uint32_t c[TR_NCOUNTERS];
    CLIRR_TRY(clirr_buf_read(s->ctx, s->counters, 0, sizeof c, c, err));
    s->launches = c[TR_LAUNCHES];
    s->atomics = c[TR_ATOMICS];
    s->nodes = c[TR_NODES];
    stats->child_launches = s->launches;
    stats->iterations = (uint32_t)(s->host_calls ? s->host_calls : 1);
fail:
    return rc;
}

int clirr_treerec_reference(clirr_treerec_op op, const clirr_input *in, void *out, clirr_error *err)
{
    const clirr_rooted *r = NULL;
    int rc = clirr_input_tree_rooted(in, &r, err);
    if (rc == CLIRR_OK)
        clirr_ref_treerec_iterative(r, op, out);
    return rc;
}

bool clirr_treerec_verify(clirr_treerec_op op, const clirr_input *in, const void *expected, const void *got,
                          clirr_verify_report *report)
{
    const clirr_rooted *r = NULL;
    clirr_error err;
    if (clirr_input_tree_rooted(in, &r, &err) != CLIRR_OK) {
        memset(report, 0, sizeof *report);
        snprintf(report->text, sizeof report->text, "cannot root the tree: %.900s", err.msg);
        return false;
    }
    return clirr_verify_treerec(r, op, expected, got, report);
}

void clirr_treerec_write(FILE *f, const void *result, uint64_t i)
{
    fprintf(f, "%u", ((const uint32_t *)result)[i]);
}

void clirr_treerec_extras(void *state, const void *result, clirr_extras *x)
{
    (void)result;
    const treerec_session *s = state;
    if (s->variant == TREEREC_SERIAL_REC || s->variant == TREEREC_SERIAL_ITER)
        return;
    clirr_extra *e = clirr_extras_add(x, "kernel_calls", CLIRR_EXTRA_UINT);
    e->u = s->host_calls + s->launches;
    e->in_table = true;
    clirr_extras_add(x, "host_launches", CLIRR_EXTRA_UINT)->u = s->host_calls;
    clirr_extras_add(x, "deferred", CLIRR_EXTRA_UINT)->u = s->deferred;
    if (s->tmpl == CLIRR_TEMPLATE_FLAT) {
        clirr_extras_add(x, "band_levels", CLIRR_EXTRA_UINT)->u = s->band;
        clirr_extras_add(x, "bands", CLIRR_EXTRA_UINT)->u = s->bands;
    }
    if (s->count) {
        e = clirr_extras_add(x, "atomics", CLIRR_EXTRA_UINT);
        e->u = s->atomics;
        e->in_table = true;
        clirr_extras_add(x, "nodes_processed", CLIRR_EXTRA_UINT)->u = s->nodes;
    }
}
