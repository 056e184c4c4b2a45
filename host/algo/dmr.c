/* host/algo/dmr.c - Delaunay mesh refinement on the device (kernels:
 * cl/dmr.cl, which says how a round works): the rounds' host loop,
 * topology-driven (every triangle each round), data-driven (a worklist of
 * bad triangles) or the study's temporal hybrid (topology-driven while the
 * worklist holds more than --hybrid of the triangles, data-driven below),
 * the storage that grows when a round's winners need more (the round's
 * claims are kept and its reservation rerun: nothing is lost), and the
 * refined mesh downloaded for the verifier and --output PREFIX.
 *
 * A run's result is one dmr_result: counts, the mesh's hash, and the
 * session's refined mesh, which lives until the next trial. */
#include "algo/input.h"
#include "algo/run.h"
#include "cl/dmr.def"
#include "prim/prim.h"
#include "ref/dmr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE CLIRR_MESH_NONE
#define KERNEL_SET(k, tag, name, var) clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err)
#define MAX_ROUNDS 1000000u

CLIRR_KARGS_STRUCT(dmr_find_bad_args, DMR_FIND_BAD_ARGS);
CLIRR_KARGS_STRUCT(dmr_build_args, DMR_BUILD_ARGS);
CLIRR_KARGS_STRUCT(dmr_check_args, DMR_CHECK_ARGS);
CLIRR_KARGS_STRUCT(dmr_commit_args, DMR_COMMIT_ARGS);

enum { V_TOPO, V_DATA, V_HYBRID };
enum { P_MIN_ANGLE, P_SWITCH, P_RESERVE, P_COUNT };

/* What a run gives the engine: counts, and the refined mesh. */
typedef struct dmr_result {
    uint64_t hash;            /* of the refined mesh (summarize) */
    uint32_t points, triangles, bad_left, unfixable;
    const dmr_mesh *mesh;     /* the session's; NULL from the reference */
} dmr_result;

typedef struct dmr_session {
    clirr_ctx *ctx;
    unsigned variant;
    double min_angle, cos_min, threshold, reserve;
    const clirr_mesh *in;
    dmr_mesh host_in;         /* the input with neighbours and small corners */
    dmr_mesh out;             /* the last trial's refined mesh */
    cl_kernel k_find, k_build, k_check, k_commit;
    size_t wg_find, wg_build, wg_check, wg_commit;
    cl_mem xy0, tv0, tn0, small;  /* the input, kept for every trial */
    cl_mem xy, tv, tn;            /* the mesh being refined */
    cl_mem owner, ring, queued, wl[2], it_p, it_loc, it_state, it_slot, counters;
    size_t cap_t, cap_p;
    /* The last trial's counters. */
    uint32_t rounds, topo_rounds, data_rounds, grows, reruns, failed, too_big;
    uint64_t built_total, committed_total, aborted_total, wl_max;
    uint32_t built[CLIRR_MAX_EXTRA_LIST], committed[CLIRR_MAX_EXTRA_LIST], aborted[CLIRR_MAX_EXTRA_LIST];
} dmr_session;

static void release_storage(dmr_session *s)
{
    cl_mem *m[] = {&s->xy, &s->tv, &s->tn, &s->owner, &s->ring, &s->queued, &s->wl[0], &s->wl[1],
                   &s->it_p, &s->it_loc, &s->it_state, &s->it_slot};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        clirr_mem_release(m[i]);
}

static void dmr_release(void *state)
{
    dmr_session *s = state;
    release_storage(s);
    clirr_mem_release(&s->xy0);
    clirr_mem_release(&s->tv0);
    clirr_mem_release(&s->tn0);
    clirr_mem_release(&s->small);
    clirr_mem_release(&s->counters);
    s->out.small_corner = NULL; /* the input's */
    dmr_mesh_free(&s->out);
    dmr_mesh_free(&s->host_in);
    free(s);
}

/* ---- storage ------------------------------------------------------------- */

/* One buffer of the storage, grown to `bytes`, its first `keep` bytes
 * copied over (nothing when it is new). */
static int regrow_buffer(dmr_session *s, cl_mem *buf, const char *what, size_t bytes, size_t keep,
                         clirr_error *err)
{
    cl_mem bigger = NULL;
    int rc = clirr_buf_create(s->ctx, what, bytes, &bigger, err);
    if (rc == CLIRR_OK && *buf && keep)
        rc = clirr_buf_copy(s->ctx, *buf, 0, bigger, 0, keep, err);
    if (rc != CLIRR_OK) {
        clirr_mem_release(&bigger);
        return rc;
    }
    clirr_mem_release(buf);
    *buf = bigger;
    return CLIRR_OK;
}

/* Room for cap_t triangles and cap_p points, every buffer's contents
 * kept (the round's claims, items and worklists included). */
static int storage(dmr_session *s, size_t cap_t, size_t cap_p, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t ot = s->cap_t, op = s->cap_p;
    if (cap_p > op) {
        CLIRR_TRY(regrow_buffer(s, &s->xy, "DMR points", 2 * cap_p * sizeof(double), 2 * op * sizeof(double), err));
        s->cap_p = cap_p;
    }
    if (cap_t > ot) {
        const size_t u = sizeof(cl_uint);
        CLIRR_TRY(regrow_buffer(s, &s->tv, "DMR triangles", 3 * cap_t * u, 3 * ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->tn, "DMR neighbours", 3 * cap_t * u, 3 * ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->owner, "DMR cavity claims", cap_t * u, ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->ring, "DMR ring claims", cap_t * u, ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->queued, "DMR worklist stamps", cap_t * u, ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->wl[0], "DMR worklist", cap_t * u, ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->wl[1], "DMR worklist", cap_t * u, ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->it_p, "DMR items' points", 2 * cap_t * sizeof(double),
                                2 * ot * sizeof(double), err));
        CLIRR_TRY(regrow_buffer(s, &s->it_loc, "DMR items' seeds", cap_t * u, ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->it_state, "DMR items' states", cap_t * u, ot * u, err));
        CLIRR_TRY(regrow_buffer(s, &s->it_slot, "DMR items' slots", 2 * cap_t * u, 2 * ot * u, err));
        /* New triangles are in no worklist yet. */
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->queued, ot, cap_t - ot, 0, err));
        s->cap_t = cap_t;
    }
fail:
    return rc;
}

/* ---- prepare ------------------------------------------------------------- */

static int build(dmr_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(s->ctx, "dmr.cl", "", &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "dmr_find_bad", CLIRR_KNARGS(dmr_find_bad_args), &s->k_find,
                                       err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "dmr_build", CLIRR_KNARGS(dmr_build_args), &s->k_build, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "dmr_check", CLIRR_KNARGS(dmr_check_args), &s->k_check, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "dmr_commit", CLIRR_KNARGS(dmr_commit_args), &s->k_commit,
                                       err));
    s->wg_find = clirr_wg_size(s->ctx, s->k_find, plan->wg_size);
    s->wg_build = clirr_wg_size(s->ctx, s->k_build, plan->wg_size);
    s->wg_check = clirr_wg_size(s->ctx, s->k_check, plan->wg_size);
    s->wg_commit = clirr_wg_size(s->ctx, s->k_commit, plan->wg_size);
fail:
    return rc;
}

static int dmr_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                       clirr_error *err)
{
    int rc = CLIRR_OK;
    dmr_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->variant = plan->variant;
    s->in = clirr_input_mesh(in);
    s->min_angle = plan->params.v[P_MIN_ANGLE].r;
    s->cos_min = dmr_cos_min(s->min_angle);
    s->threshold = plan->params.v[P_SWITCH].r;
    s->reserve = plan->params.v[P_RESERVE].r;
    CLIRR_TRY(dmr_mesh_init(&s->host_in, s->in, s->min_angle, 0, err));
    CLIRR_TRY(dmr_check_input(&s->host_in, clirr_input_name(in), err));
    const dmr_mesh *h = &s->host_in;
    CLIRR_TRY(clirr_buf_create(ctx, "DMR input points", 2 * (size_t)h->np * sizeof(double), &s->xy0, err));
    CLIRR_TRY(clirr_buf_create(ctx, "DMR input triangles", 3 * (size_t)h->nt * sizeof(cl_uint), &s->tv0, err));
    CLIRR_TRY(clirr_buf_create(ctx, "DMR input neighbours", 3 * (size_t)h->nt * sizeof(cl_uint), &s->tn0, err));
    CLIRR_TRY(clirr_buf_create(ctx, "DMR small corners", (size_t)h->np, &s->small, err));
    CLIRR_TRY(clirr_buf_create(ctx, "DMR counters", DMR_C_COUNT * sizeof(cl_uint), &s->counters, err));
    CLIRR_TRY(clirr_buf_write(ctx, s->xy0, 0, 2 * (size_t)h->np * sizeof(double), h->xy, err));
    CLIRR_TRY(clirr_buf_write(ctx, s->tv0, 0, 3 * (size_t)h->nt * sizeof(cl_uint), h->tv, err));
    CLIRR_TRY(clirr_buf_write(ctx, s->tn0, 0, 3 * (size_t)h->nt * sizeof(cl_uint), h->tn, err));
    CLIRR_TRY(clirr_buf_write(ctx, s->small, 0, (size_t)h->np, h->small_corner, err));
    size_t cap_t = (size_t)ceil(s->reserve * h->nt);
    CLIRR_TRY(storage(s, cap_t > h->nt ? cap_t : h->nt, cap_t / 2 > h->np ? cap_t / 2 : h->np, err));
    CLIRR_TRY(build(s, plan, err));
    *out = s;
    return CLIRR_OK;
fail:
    dmr_release(s);
    return rc;
}

/* ---- run ----------------------------------------------------------------- */

static int find_bad(dmr_session *s, cl_uint nt, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->k_find;
    cl_uint np_input = s->host_in.np_input, stamp = 1;
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, xy, s->xy));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, tv, s->tv));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, tn, s->tn));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, small, s->small));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, np_input, np_input));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, cos_min, s->cos_min));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, queued, s->queued));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, wl_out, s->wl[0]));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, counters, s->counters));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, stamp, stamp));
    CLIRR_TRY(KERNEL_SET(k, dmr_find_bad_args, nt, nt));
    CLIRR_TRY(clirr_launch(s->ctx, k, nt, s->wg_find, err));
fail:
    return rc;
}

/* The mesh arguments every phase but the commit reads. */
#define SET_MESH(k, tag)                                                       \
    do {                                                                       \
        CLIRR_TRY(KERNEL_SET(k, tag, xy, s->xy));                             \
        CLIRR_TRY(KERNEL_SET(k, tag, tv, s->tv));                             \
        CLIRR_TRY(KERNEL_SET(k, tag, tn, s->tn));                             \
        CLIRR_TRY(KERNEL_SET(k, tag, small, s->small));                       \
        CLIRR_TRY(KERNEL_SET(k, tag, np_input, np_input));                    \
        CLIRR_TRY(KERNEL_SET(k, tag, cos_min, s->cos_min));                   \
    } while (0)

static int launch_build(dmr_session *s, cl_uint nitems, cl_uint topo, unsigned cur, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->k_build;
    cl_uint np_input = s->host_in.np_input;
    SET_MESH(k, dmr_build_args);
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, owner, s->owner));
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, ring, s->ring));
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, wl_in, s->wl[cur]));
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, it_p, s->it_p));
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, it_loc, s->it_loc));
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, it_state, s->it_state));
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, counters, s->counters));
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, nitems, nitems));
    CLIRR_TRY(KERNEL_SET(k, dmr_build_args, topo, topo));
    CLIRR_TRY(clirr_launch(s->ctx, k, nitems, s->wg_build, err));
fail:
    return rc;
}

static int launch_check(dmr_session *s, cl_uint nitems, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->k_check;
    cl_uint np_input = s->host_in.np_input;
    SET_MESH(k, dmr_check_args);
    CLIRR_TRY(KERNEL_SET(k, dmr_check_args, owner, s->owner));
    CLIRR_TRY(KERNEL_SET(k, dmr_check_args, ring, s->ring));
    CLIRR_TRY(KERNEL_SET(k, dmr_check_args, it_p, s->it_p));
    CLIRR_TRY(KERNEL_SET(k, dmr_check_args, it_loc, s->it_loc));
    CLIRR_TRY(KERNEL_SET(k, dmr_check_args, it_state, s->it_state));
    CLIRR_TRY(KERNEL_SET(k, dmr_check_args, it_slot, s->it_slot));
    CLIRR_TRY(KERNEL_SET(k, dmr_check_args, counters, s->counters));
    CLIRR_TRY(KERNEL_SET(k, dmr_check_args, nitems, nitems));
    CLIRR_TRY(clirr_launch(s->ctx, k, nitems, s->wg_check, err));
fail:
    return rc;
}

static int launch_commit(dmr_session *s, cl_uint nitems, cl_uint topo, unsigned cur, cl_uint stamp,
                         clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->k_commit;
    cl_uint np_input = s->host_in.np_input, push = s->variant != V_TOPO;
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, wxy, s->xy));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, wtv, s->tv));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, wtn, s->tn));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, small, s->small));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, np_input, np_input));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, cos_min, s->cos_min));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, wl_in, s->wl[cur]));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, it_p, s->it_p));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, it_loc, s->it_loc));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, it_state, s->it_state));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, it_slot, s->it_slot));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, queued, s->queued));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, wl_out, s->wl[cur ^ 1]));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, counters, s->counters));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, nitems, nitems));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, topo, topo));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, push, push));
    CLIRR_TRY(KERNEL_SET(k, dmr_commit_args, stamp, stamp));
    CLIRR_TRY(clirr_launch(s->ctx, k, nitems, s->wg_commit, err));
fail:
    return rc;
}

/* The claims and reservations of a round (build, check), the storage
 * grown and the check rerun while the winners need more. */
static int claim(dmr_session *s, cl_uint nitems, cl_uint topo, unsigned cur, cl_uint nt, cl_uint np, cl_uint *c,
                 clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->owner, 0, nt, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->ring, 0, nt, NONE, err));
    CLIRR_TRY(launch_build(s, nitems, topo, cur, err));
    for (;;) {
        CLIRR_TRY(launch_check(s, nitems, err));
        CLIRR_TRY(clirr_buf_read(s->ctx, s->counters, 0, DMR_C_COUNT * sizeof(cl_uint), c, err));
        if (c[DMR_C_NT] <= s->cap_t && c[DMR_C_NP] <= s->cap_p)
            break;
        size_t need_t = s->cap_t, need_p = s->cap_p;
        while (need_t < c[DMR_C_NT])
            need_t *= 2;
        while (need_p < c[DMR_C_NP])
            need_p *= 2;
        CLIRR_TRY(storage(s, need_t, need_p, err));
        s->grows++;
        s->reruns++;
        cl_uint back[2] = {nt, np}; /* the reservations, undone */
        CLIRR_TRY(clirr_buf_write(s->ctx, s->counters, 0, sizeof back, back, err));
    }
fail:
    return rc;
}

/* The refined mesh, downloaded into s->out. */
static int download(dmr_session *s, cl_uint nt, cl_uint np, clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(dmr_mesh_reserve(&s->out, np, nt, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->xy, 0, 2 * (size_t)np * sizeof(double), s->out.xy, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->tv, 0, 3 * (size_t)nt * sizeof(cl_uint), s->out.tv, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->tn, 0, 3 * (size_t)nt * sizeof(cl_uint), s->out.tn, err));
    s->out.np = np;
    s->out.nt = nt;
    s->out.np_input = s->host_in.np_input;
    s->out.small_corner = s->host_in.small_corner;
fail:
    return rc;
}

static void reset_counters(dmr_session *s)
{
    s->rounds = s->topo_rounds = s->data_rounds = s->grows = s->reruns = s->failed = s->too_big = 0;
    s->built_total = s->committed_total = s->aborted_total = s->wl_max = 0;
}

static int dmr_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    dmr_session *s = state;
    const dmr_mesh *h = &s->host_in;
    reset_counters(s);
    cl_uint nt = h->nt, np = h->np, wl = 0, c[DMR_C_COUNT] = {nt, np, 0, 0, 0, 0, 0, 0};
    uint64_t limit = dmr_triangle_limit(h->nt);
    /* The input again: the previous trial refined the copy. */
    CLIRR_TRY(clirr_buf_copy(s->ctx, s->xy0, 0, s->xy, 0, 2 * (size_t)np * sizeof(double), err));
    CLIRR_TRY(clirr_buf_copy(s->ctx, s->tv0, 0, s->tv, 0, 3 * (size_t)nt * sizeof(cl_uint), err));
    CLIRR_TRY(clirr_buf_copy(s->ctx, s->tn0, 0, s->tn, 0, 3 * (size_t)nt * sizeof(cl_uint), err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->queued, 0, s->cap_t, 0, err));
    CLIRR_TRY(clirr_buf_write(s->ctx, s->counters, 0, sizeof c, c, err));
    unsigned cur = 0;
    bool topo = s->variant == V_TOPO;
    if (!topo) {
        CLIRR_TRY(find_bad(s, nt, err));
        CLIRR_TRY(clirr_buf_read(s->ctx, s->counters, 0, sizeof c, c, err));
        wl = c[DMR_C_WL];
        topo = s->variant == V_HYBRID && wl > s->threshold * nt;
    }
    for (;;) {
        cl_uint nitems = topo ? nt : wl;
        if (nitems == 0)
            break;
        if (s->rounds == MAX_ROUNDS || nt > limit) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "the refinement passed %u rounds and %u triangles (the limit is "
                            "%llu) without ending: an input angle the rule cannot reach?", s->rounds, nt,
                            (unsigned long long)limit);
            goto fail;
        }
        if (nitems > s->wl_max)
            s->wl_max = nitems;
        cl_uint fresh[4] = {0, 0, 0, 0}; /* WL, BUILT, COMMITTED, ABORTED */
        CLIRR_TRY(clirr_buf_write(s->ctx, s->counters, DMR_C_WL * sizeof(cl_uint), sizeof fresh, fresh, err));
        CLIRR_TRY(claim(s, nitems, topo, cur, nt, np, c, err));
        CLIRR_TRY(launch_commit(s, nitems, topo, cur, s->rounds + 2, err));
        CLIRR_TRY(clirr_buf_read(s->ctx, s->counters, 0, sizeof c, c, err));
        if (s->rounds < CLIRR_MAX_EXTRA_LIST) {
            s->built[s->rounds] = c[DMR_C_BUILT];
            s->committed[s->rounds] = c[DMR_C_COMMITTED];
            s->aborted[s->rounds] = c[DMR_C_ABORTED];
        }
        s->rounds++;
        s->built_total += c[DMR_C_BUILT];
        s->committed_total += c[DMR_C_COMMITTED];
        s->aborted_total += c[DMR_C_ABORTED];
        if (topo)
            s->topo_rounds++;
        else
            s->data_rounds++;
        nt = c[DMR_C_NT];
        np = c[DMR_C_NP];
        wl = c[DMR_C_WL];
        cur ^= 1;
        if (topo && c[DMR_C_BUILT] == 0)
            break; /* every bad triangle left is given up or unfixable */
        if (s->variant == V_HYBRID)
            topo = wl > s->threshold * nt;
    }
    s->failed = c[DMR_C_FAILED];
    s->too_big = c[DMR_C_TOO_BIG];
    CLIRR_TRY(download(s, nt, np, err));
    dmr_result *r = result;
    memset(r, 0, sizeof *r);
    r->points = np;
    r->triangles = nt;
    r->mesh = &s->out;
    stats->iterations = s->rounds;
    stats->wl_grows = s->grows;
    stats->wl_reruns = s->reruns;
    stats->wl_max = s->wl_max;
fail:
    return rc;
}

/* Outside the clock: the bad triangles left and the mesh's hash, written
 * into the trial's result (the engine's buffer, writable: the descriptor
 * hands it over as const only because other algorithms just read it). */
static void dmr_summarize(void *state, const void *result, clirr_stats *stats)
{
    dmr_session *s = state;
    dmr_result *r = (dmr_result *)result;
    bool unfixable;
    (void)stats;
    r->bad_left = r->unfixable = 0;
    double cos_min = s->cos_min + 1e-9; /* the verifier's count */
    for (uint32_t t = 0; t < s->out.nt; t++)
        if (dmr_is_bad(&s->out, t, cos_min, &unfixable)) {
            r->bad_left++;
            r->unfixable += unfixable;
        }
    clirr_mesh view = {s->out.np, s->out.xy, s->out.nt, s->out.tv, 0, NULL};
    r->hash = clirr_mesh_hash(&view);
}

static int dmr_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    double min_angle = plan->params.v[P_MIN_ANGLE].r;
    dmr_mesh w;
    dmr_ref_stats st;
    int rc = dmr_mesh_init(&w, clirr_input_mesh(in), min_angle, 0, err);
    if (rc == CLIRR_OK)
        rc = dmr_check_input(&w, clirr_input_name(in), err);
    if (rc == CLIRR_OK)
        rc = clirr_ref_dmr(&w, min_angle, &st, err);
    dmr_result *r = out;
    memset(r, 0, sizeof *r);
    r->points = w.np;
    r->triangles = w.nt;
    r->unfixable = st.unfixable;
    dmr_mesh_free(&w);
    return rc;
}

/* Properties only: a refinement in another order is as right, so the
 * reference's mesh is no oracle (its counts are for reports). */
static bool dmr_verify(const clirr_input *in, const clirr_plan *plan, const void *expected, const void *got,
                       clirr_verify_report *r)
{
    const dmr_result *g = got;
    (void)expected;
    memset(r, 0, sizeof *r);
    if (!g->mesh) {
        clirr_verify_note(r, "no refined mesh. ");
        return clirr_verify_done(r, 1);
    }
    const dmr_mesh *m = g->mesh;
    clirr_mesh view = {m->np, m->xy, m->nt, m->tv, 0, NULL};
    if (g->points != m->np || g->triangles != m->nt || g->hash != clirr_mesh_hash(&view)) {
        clirr_verify_note(r, "the result's counts or hash (%u points, %u triangles) disagree with its mesh (%u, %u). ",
                          g->points, g->triangles, m->np, m->nt);
        return clirr_verify_done(r, 1);
    }
    dmr_verdict v;
    bool ok = clirr_verify_dmr(clirr_input_mesh(in), plan->params.v[P_MIN_ANGLE].r, m, g->bad_left, &v, r);
    if (ok && v.unfixable != g->unfixable) {
        clirr_verify_note(r, "%u unfixable triangles claimed, %u counted. ", g->unfixable, v.unfixable);
        return clirr_verify_done(r, 1);
    }
    return ok;
}

static int dmr_write_prefix(void *state, const void *result, const char *prefix, clirr_error *err)
{
    dmr_session *s = state;
    (void)result;
    if (!strcmp(prefix, "-"))
        return clirr_fail(err, CLIRR_ERR_USAGE, "dmr writes a mesh: --output PREFIX names PREFIX.node, .ele and "
                          ".poly, not standard output");
    clirr_mesh m;
    int rc = dmr_mesh_export(&s->out, &m, err);
    if (rc == CLIRR_OK)
        rc = clirr_mesh_write(prefix, false, &m, err);
    clirr_mesh_free(&m);
    return rc;
}

static void add_uint(clirr_extras *x, const char *name, uint64_t v, bool table)
{
    clirr_extra *e = clirr_extras_add(x, name, CLIRR_EXTRA_UINT);
    e->u = v;
    e->in_table = table;
}

static void add_list(clirr_extras *x, const char *name, const uint32_t *v, uint32_t rounds)
{
    clirr_extra *e = clirr_extras_add(x, name, CLIRR_EXTRA_UINTS);
    e->nlist = rounds < CLIRR_MAX_EXTRA_LIST ? rounds : CLIRR_MAX_EXTRA_LIST;
    memcpy(e->list, v, e->nlist * sizeof *v);
}

static void dmr_extras(void *state, const void *result, clirr_extras *x)
{
    dmr_session *s = state;
    const dmr_result *r = result;
    add_uint(x, "triangles.before", s->host_in.nt, false);
    add_uint(x, "triangles.after", r->triangles, true);
    add_uint(x, "points.after", r->points, false);
    add_uint(x, "bad_left", r->bad_left, true);
    add_uint(x, "unfixable", r->unfixable, false);
    add_uint(x, "given_up", (uint64_t)s->failed + s->too_big, false);
    add_uint(x, "topo_rounds", s->topo_rounds, false);
    add_uint(x, "data_rounds", s->data_rounds, false);
    add_uint(x, "cavities.built", s->built_total, false);
    add_uint(x, "cavities.committed", s->committed_total, false);
    add_uint(x, "cavities.aborted", s->aborted_total, false);
    clirr_extra *e = clirr_extras_add(x, "abort_rate", CLIRR_EXTRA_REAL);
    e->r = s->built_total ? (double)s->aborted_total / s->built_total : 0;
    e->in_table = true;
    /* Per round, the first CLIRR_MAX_EXTRA_LIST rounds. */
    add_list(x, "built_per_round", s->built, s->rounds);
    add_list(x, "committed_per_round", s->committed, s->rounds);
    add_list(x, "aborted_per_round", s->aborted, s->rounds);
}

static const clirr_variant_desc dmr_variants[] = {
    [V_TOPO] = {"topo", "every triangle checked each round", false},
    [V_DATA] = {"data", "a worklist of bad triangles, refilled by the rounds", false},
    [V_HYBRID] = {"hybrid", "temporal: topo while the worklist holds over --hybrid of the triangles, then data",
                  false},
};

static const clirr_param_desc dmr_params[] = {
    [P_MIN_ANGLE] = {"min-angle", CLIRR_PARAM_REAL, "30", 1, 34,
                     "a triangle whose smallest angle is below this (degrees) is refined"},
    [P_SWITCH] = {"hybrid", CLIRR_PARAM_REAL, "0.7", 0, 2,
                  "hybrid: a round whose worklist holds more than this fraction of the triangles runs "
                  "topology-driven (over every triangle)", NULL, 1u << V_HYBRID},
    [P_RESERVE] = {"reserve", CLIRR_PARAM_REAL, "6", 1, 64,
                   "initial device storage, in triangles per input triangle (grown on demand)"},
};

const clirr_algo clirr_algo_dmr = {
    .name = "dmr",
    .summary = "Delaunay mesh refinement: Ruppert's rule, cavities claimed per round",
    .study = "shared/papers/000 (DMR, Table I, Figures 6 and 11); 002 (DMR)",
    .input = CLIRR_INPUT_MESH,
    .variants = dmr_variants,
    .nvariants = 3,
    .default_variant = V_DATA,
    .params = dmr_params,
    .nparams = P_COUNT,
    .sources = CLIRR_SOURCES_NONE,
    .needs_fp64 = true,
    .value_size = sizeof(dmr_result),
    .prepare = dmr_prepare,
    .run = dmr_run,
    .release = dmr_release,
    .reference = dmr_reference,
    .verify = dmr_verify,
    .write_prefix = dmr_write_prefix,
    .summarize = dmr_summarize,
    .extras = dmr_extras,
};
