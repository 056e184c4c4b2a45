/* host/algo/bfs.c - breadth-first search on the device, topology-driven,
 * data-driven or direction-optimizing (kernels: cl/bfs.cl; study:
 * shared/papers/000), each round's loop over vertices and arcs run through
 * the plan's nested-loop template.
 * Levels are uint on the device with NONE for unreached, which read as
 * int32 is exactly CLIRR_BFS_UNREACHED (-1). */
#include "algo/bfs_rec.h"
#include "algo/input.h"
#include "algo/presort.h"
#include "algo/round.h"
#include "algo/run.h"
#include "algo/sssp_regions.h"
#include "cl/bfs.def"
#include "prim/prim.h"
#include "ref/bfs_rec.h"
#include "ref/ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

CLIRR_KARGS_STRUCT(bfs_topo_args, BFS_TOPO_ARGS);
CLIRR_KARGS_STRUCT(bfs_level_args, BFS_LEVEL_ARGS);
CLIRR_KARGS_STRUCT(bfs_unroll_args, BFS_UNROLL_ARGS);
CLIRR_KARGS_STRUCT(bfs_data_args, BFS_DATA_ARGS);
CLIRR_KARGS_STRUCT(bfs_part_args, BFS_PART_ARGS);
_Static_assert(CLIRR_KARG(bfs_part_args, wl_in) == CLIRR_KARG(bfs_data_args, wl_in) &&
                   CLIRR_KARG(bfs_part_args, depth) == CLIRR_KARG(bfs_data_args, depth),
               "BFS_PART_ARGS must start with BFS_DATA_ARGS");
CLIRR_KARGS_STRUCT(bfs_bottom_up_args, BFS_BOTTOM_UP_ARGS);
CLIRR_KARGS_STRUCT(bfs_frontier_arcs_args, BFS_FRONTIER_ARCS_ARGS);
CLIRR_KARGS_STRUCT(bfs_level_bits_args, BFS_LEVEL_BITS_ARGS);
CLIRR_KARGS_STRUCT(bfs_bottom_up_bits_args, BFS_BOTTOM_UP_BITS_ARGS);
CLIRR_KARGS_STRUCT(bfs_top_down_bits_args, BFS_TOP_DOWN_BITS_ARGS);
CLIRR_KARGS_STRUCT(bfs_top_down_mark_args, BFS_TOP_DOWN_MARK_ARGS);
CLIRR_KARGS_STRUCT(bfs_bits_items_args, BFS_BITS_ITEMS_ARGS);

enum { VARIANT_TOPO, VARIANT_LEVEL, VARIANT_DATA, VARIANT_DO, VARIANT_HYBRID, VARIANT_AUTO, VARIANT_RECURSIVE,
       VARIANT_DO_BITMAP, VARIANT_REGIONS, VARIANT_SERIAL_REC, VARIANT_SERIAL_ITER };
#define DO_VARIANTS ((1u << VARIANT_DO) | (1u << VARIANT_DO_BITMAP))

/* do-bit: work-items a compute unit (ranges of bitmap words; enough for
 * the cores to balance uneven sweeps) and work-items a work-group. */
#define BITS_ITEMS_PER_UNIT 64
#define BITS_WG 4
/* do-bit leaves the worklist for the bitmaps once a frontier holds n /
 * BITS_ENTER vertices (a worklist round would compact over all n then:
 * the compact push's 1/256), and goes back when a top-down frontier holds
 * fewer than n / BITS_LEAVE (a long tail then runs in local rounds
 * instead of a sweep over every word a level). */
#define BITS_ENTER 256
#define BITS_LEAVE 4096
/* A top-down bitmap step whose frontier has more than n / TOP_DOWN_PASS
 * arcs sets the levels alone and builds the next bitmap in one pass over
 * them; fewer arcs take an atomic a vertex found instead, cheaper than the
 * pass. On the 2-core machine (GAPBS's urand 2^21, PoCL and Intel's
 * runtime) the steps' kernels took 8.3-10.5 ms against 9.7-15.7 with
 * atomics only; kron 20's small tail steps stay atomic
 * (tests/bench/RESULTS.md). */
#define TOP_DOWN_PASS 16
_Static_assert(BITS_LEAVE >= 32, "the way back lists at most n / BITS_LEAVE vertices into s->tail");
#define REC_VARIANTS (1u << VARIANT_RECURSIVE)

/* Beamer's switching rule (GAPBS's defaults): bottom-up once the
 * frontier's arcs exceed the unexplored arcs / ALPHA, top-down again once
 * a shrinking frontier holds fewer than n / BETA vertices. */
#define ALPHA 15
#define BETA 18

typedef struct bfs_session {
    clirr_ctx *ctx;
    const clirr_graph *g;
    const clirr_dgraph *dg; /* the input's, shared */
    uint32_t source;
    const char *tree_path;  /* --parents FILE, or NULL */
    cl_mem level;
    cl_mem changed;         /* topo, level: set when a round lowered a level */
    bool level_sync;        /* level (and the recursive BFS's flat): bfs_level */
    clirr_trace *trace;     /* the plan's: a row a round, or NULL */
    uint32_t part;          /* data: vertices a worklist item stands for (the
                               spatial hybrid's partition; 1: one vertex) */
    clirr_variant_loop vl;
    clirr_worklist wl;      /* data, do */
    /* do: in-arcs, the two kernels (context-owned) and their counts */
    const clirr_dgraph *dt;
    cl_kernel bottom_up, frontier_arcs;
    size_t wg_bottom_up, wg_frontier_arcs;
    cl_mem info;
    /* do-bit: the bitmap sweep and the two frontier bitmaps (front: the
     * current level, next: the one a sweep finds; swapped every sweep) */
    cl_kernel level_bits, bottom_up_bits, top_down_bits, top_down_mark, bits_list;
    cl_mem front, next;
    cl_mem tail;              /* the front as a list on the way back (n / BITS_LEAVE + 1) */
    uint32_t bits_items, wpi; /* work-items of a sweep, words a work-item */
    uint32_t bottom_up_rounds, switches; /* of the last trial (do, hybrid) */
    bool donate;            /* data: --donate T (work donation) */
    clirr_unroll unroll;    /* topo: --unroll K (kernel unrolling); kernel NULL: off */
    cl_mem order;           /* topo: --presort degree: the sweep's vertex order; NULL: by id */
    cl_uint presorted;
    uint64_t donated_g0, donated; /* of the last trial: chunks donated by work-group 0, by all */
    /* hybrid: the level-synchronous loop over every vertex, taken while
     * the frontier holds at least hybrid.min vertices */
    clirr_nl level_nl;
    bool have_level_nl;
    clirr_hybrid_loop hybrid;
    uint32_t depth;         /* hybrid: the next round's level */
    bfs_rec *rec;           /* rec-naive, rec-hier (host/algo/bfs_rec.c) */
    /* regions: SSSP's regions with every arc 1 (levels are distances in
     * hops), over the levels and a status pair of its own */
    sssp_regions regions;
    cl_mem status;
    unsigned serial;        /* VARIANT_SERIAL_*: the CPU versions, timed; else 0 */
} bfs_session;

enum { PARAM_PARENTS, PARAM_HYBRID, PARAM_DEDUP, PARAM_PARTITION, PARAM_STREAMS, PARAM_COUNT, PARAM_NEST_LIMIT,
       PARAM_DONATE, PARAM_UNROLL, PARAM_PRESORT, PARAM_DELTA, PARAM_WORKER, PARAM_RANGES };

static void bfs_release(void *state)
{
    bfs_session *s = state;
    sssp_regions_release(&s->regions);
    clirr_mem_release(&s->status);
    clirr_variant_loop_release(&s->vl);
    if (s->have_level_nl)
        clirr_nl_release(&s->level_nl);
    clirr_worklist_release(&s->wl);
    clirr_mem_release(&s->level);
    clirr_mem_release(&s->changed);
    clirr_mem_release(&s->order);
    clirr_mem_release(&s->info);
    clirr_mem_release(&s->front);
    clirr_mem_release(&s->next);
    clirr_mem_release(&s->tail);
    bfs_rec_release(s->rec);
    free(s);
}

/* The arguments of topology-driven loop nl that stay the same in every
 * round of every trial (its kernel bfs_level when level_sync, else
 * bfs_topo: they share their first four). */
static int bind_topo(bfs_session *s, clirr_nl *nl, bool level_sync, clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_TRY(CLIRR_NL_SET(nl, bfs_topo_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_NL_SET(nl, bfs_topo_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_NL_SET(nl, bfs_topo_args, level, s->level));
    CLIRR_TRY(CLIRR_NL_SET(nl, bfs_topo_args, n, s->dg->n));
    if (level_sync)
        CLIRR_TRY(CLIRR_NL_SET(nl, bfs_level_args, changed, s->changed));
    else
        CLIRR_TRY(CLIRR_NL_SET(nl, bfs_topo_args, changed, s->changed));
    if (!level_sync) { /* without --presort, a placeholder the kernel does not read */
        cl_mem order = s->order ? s->order : s->changed;
        CLIRR_TRY(CLIRR_NL_SET(nl, bfs_topo_args, order, order));
        CLIRR_TRY(CLIRR_NL_SET(nl, bfs_topo_args, presorted, s->presorted));
    }
fail:
    return rc;
}
_Static_assert(CLIRR_KARG(bfs_level_args, n) == CLIRR_KARG(bfs_topo_args, n),
               "BFS_LEVEL_ARGS must start with BFS_TOPO_ARGS's row, col, level, n");

static int bind_data(bfs_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_round_loop *rl = &s->vl.rl;
    CLIRR_TRY(CLIRR_ROUND_SET(rl, bfs_data_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, bfs_data_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, bfs_data_args, level, s->level));
fail:
    return rc;
}

/* --unroll K: the thread-mapped unrolled sweep, bound as bfs_topo is. */
static int prepare_unroll(bfs_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_unroll *u = &s->unroll;
    CLIRR_TRY(clirr_unroll_init(u, s->ctx, plan, "bfs.cl", "", "bfs_topo_unroll", CLIRR_KNARGS(bfs_topo_args),
                                (uint32_t)plan->params.v[PARAM_UNROLL].u, err));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(bfs_unroll_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(bfs_unroll_args, col), s->dg->col));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(bfs_unroll_args, level), s->level));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(bfs_unroll_args, n), s->dg->n));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(bfs_unroll_args, changed), s->changed));
    cl_mem order = s->order ? s->order : s->changed;
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(bfs_unroll_args, order), order));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(bfs_unroll_args, presorted), s->presorted));
fail:
    return rc;
}
_Static_assert(CLIRR_KARG(bfs_unroll_args, unroll) == CLIRR_KNARGS(bfs_topo_args),
               "BFS_UNROLL_ARGS must start with BFS_TOPO_ARGS");

/* do-bit: the bitmap sweep (bound as bfs_bottom_up is, plus its
 * bitmaps), the level-to-bitmap kernel and the two bitmaps. */
static int prepare_bitmap(bfs_session *s, cl_program prog, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t n = s->dg->n, words = n / 32 + 1;
    uint64_t items = (uint64_t)clirr_ctx_caps(s->ctx)->compute_units * BITS_ITEMS_PER_UNIT;
    s->bits_items = (uint32_t)(items < 1 ? 1 : items > words ? words : items);
    s->wpi = (words + s->bits_items - 1) / s->bits_items;
    CLIRR_TRY(clirr_buf_create(s->ctx, "BFS frontier bitmap", (size_t)words * sizeof(uint32_t), &s->front, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "BFS next frontier bitmap", (size_t)words * sizeof(uint32_t), &s->next, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bfs_level_bits", CLIRR_KNARGS(bfs_level_bits_args),
                                       &s->level_bits, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bfs_bottom_up_bits", CLIRR_KNARGS(bfs_bottom_up_bits_args),
                                       &s->bottom_up_bits, err));
    cl_kernel k = s->bottom_up_bits;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, trow), s->dt->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, tcol), s->dt->col));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, level), s->level));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, n), n));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, info), s->info));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, wpi), s->wpi));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bfs_top_down_bits", CLIRR_KNARGS(bfs_top_down_bits_args),
                                       &s->top_down_bits, err));
    k = s->top_down_bits;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, col), s->dg->col));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, level), s->level));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, n), n));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, info), s->info));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, wpi), s->wpi));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bfs_top_down_mark", CLIRR_KNARGS(bfs_top_down_mark_args),
                                       &s->top_down_mark, err));
    k = s->top_down_mark;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_mark_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_mark_args, col), s->dg->col));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_mark_args, level), s->level));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_mark_args, n), n));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_mark_args, wpi), s->wpi));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bfs_bits_items", CLIRR_KNARGS(bfs_bits_items_args),
                                       &s->bits_list, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "BFS frontier list", ((size_t)n / BITS_LEAVE + 1) * sizeof(uint32_t),
                               &s->tail, err));
    k = s->bits_list;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bits_items_args, n), n));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bits_items_args, wpi), s->wpi));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bits_items_args, items), s->tail));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bits_items_args, info), s->info));
    k = s->level_bits;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_level_bits_args, level), s->level));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_level_bits_args, n), n));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_level_bits_args, wpi), s->wpi));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_level_bits_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_level_bits_args, info), s->info));
fail:
    return rc;
}

/* Direction-optimizing: the transpose on the device and the bottom-up and
 * frontier-arcs kernels with their fixed arguments. */
static int prepare_do(bfs_session *s, const clirr_input *in, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    CLIRR_TRY(clirr_input_device_graph(in, s->ctx, CLIRR_FORM_TRANSPOSED, false, &s->dt, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "BFS frontier counts", 3 * sizeof(uint32_t), &s->info, err));
    CLIRR_TRY(clirr_program_get(s->ctx, "bfs.cl", "", &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bfs_bottom_up", CLIRR_KNARGS(bfs_bottom_up_args),
                                       &s->bottom_up, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "bfs_frontier_arcs", CLIRR_KNARGS(bfs_frontier_arcs_args),
                                       &s->frontier_arcs, err));
    s->wg_bottom_up = clirr_wg_size(s->ctx, s->bottom_up, plan->wg_size);
    s->wg_frontier_arcs = clirr_wg_size(s->ctx, s->frontier_arcs, plan->wg_size);
    cl_kernel k = s->bottom_up;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_args, trow), s->dt->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_args, tcol), s->dt->col));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_args, level), s->level));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_args, n), s->dg->n));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_args, info), s->info));
    k = s->frontier_arcs;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_frontier_arcs_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_frontier_arcs_args, info), s->info));
    if (plan->variant == VARIANT_DO_BITMAP)
        CLIRR_TRY(prepare_bitmap(s, prog, err));
fail:
    return rc;
}

static int hybrid_topo_round(void *user, clirr_error *err);
static int hybrid_data_round(void *user, uint32_t *rounds, clirr_error *err);

/* Temporal hybrid: the level-synchronous loop over every vertex (the
 * plan's template), beside the data-driven round, and the frontier size
 * from which it is taken (--hybrid F: F n vertices, at least one). */
static int prepare_hybrid(bfs_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    clirr_nl_config cfg = clirr_plan_loop(plan, 0);
    double min = ceil(plan->params.v[PARAM_HYBRID].r * s->g->n);
    s->hybrid = (clirr_hybrid_loop){min < 1 ? 1 : min > UINT32_MAX ? UINT32_MAX : (uint32_t)min, hybrid_topo_round,
                                    hybrid_data_round, s, 0, 0};
    CLIRR_TRY(clirr_buf_create(s->ctx, "the changed flag", sizeof(uint32_t), &s->changed, err));
    CLIRR_TRY(clirr_program_get(s->ctx, "bfs.cl", "", &prog, err));
    CLIRR_TRY(clirr_nl_init(&s->level_nl, s->ctx, prog, "bfs_level", CLIRR_KNARGS(bfs_level_args), s->g->n, &cfg,
                            err));
    s->have_level_nl = true;
    CLIRR_TRY(clirr_round_loop_cap(&s->vl.rl, s->hybrid.min - 1, err));
    CLIRR_TRY(bind_topo(s, &s->level_nl, true, err));
fail:
    return rc;
}

static int bfs_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                       clirr_error *err)
{
    int rc = CLIRR_OK;
    bfs_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->g = clirr_input_graph(in);
    /* The recursive BFS's flat template is the study's: a thread-mapped
     * level-by-level traversal, which is level on the baseline template. */
    bool rec_flat = plan->variant == VARIANT_RECURSIVE && plan->tmpl == CLIRR_TEMPLATE_FLAT;
    s->level_sync = plan->variant == VARIANT_LEVEL || rec_flat;
    bool topo = plan->variant == VARIANT_TOPO || s->level_sync;
    CLIRR_TRY(clirr_run_source(plan, s->g, &s->source, err));
    s->tree_path = plan->params.v[PARAM_PARENTS].path;
    s->trace = plan->trace;
    if (s->trace)
        s->trace->arcs = s->g->m;
    if (plan->variant >= VARIANT_SERIAL_REC) {
        s->serial = plan->variant;
        *out = s;
        return CLIRR_OK;
    }
    if (plan->variant == VARIANT_RECURSIVE && !rec_flat) {
        bfs_rec_config rc_cfg = {plan->tmpl == CLIRR_TEMPLATE_REC_HIER, (uint32_t)plan->params.v[PARAM_STREAMS].u,
                                 plan->params.v[PARAM_COUNT].b, (uint32_t)plan->params.v[PARAM_NEST_LIMIT].u,
                                 plan->group_wg};
        CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_AS_IS, false, &s->dg, err));
        CLIRR_TRY(clirr_buf_create(ctx, "BFS levels", (size_t)s->g->n * sizeof(uint32_t), &s->level, err));
        CLIRR_TRY(bfs_rec_prepare(ctx, s->g, s->dg, s->level, &rc_cfg, &s->rec, err));
        *out = s;
        return CLIRR_OK;
    }
    if (plan->variant == VARIANT_REGIONS) {
        uint64_t delta = plan->params.v[PARAM_DELTA].u;
        CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_AS_IS, false, &s->dg, err));
        CLIRR_TRY(clirr_buf_create(ctx, "BFS levels", (size_t)s->g->n * sizeof(uint32_t), &s->level, err));
        CLIRR_TRY(clirr_buf_create(ctx, "BFS regions' status", 2 * sizeof(uint32_t), &s->status, err));
        CLIRR_TRY(clirr_prim_fill_u32(ctx, s->status, 0, 2, 0, err));
        CLIRR_TRY(sssp_regions_prepare(&s->regions, ctx, s->g, s->dg, s->level, s->status, true, (uint32_t)delta,
                                       (sssp_regions_worker)plan->params.v[PARAM_WORKER].u, plan->wg_size,
                                       (uint32_t)plan->params.v[PARAM_RANGES].u, err));
        *out = s;
        return CLIRR_OK;
    }
    clirr_nl_config cfg = clirr_plan_loop(plan, 0);
    if (rec_flat)
        cfg.tmpl = CLIRR_TEMPLATE_BASELINE;
    if (plan->variant == VARIANT_DATA && plan->params.v[PARAM_DONATE].u)
        CLIRR_TRY(clirr_round_donate_config(plan, (uint32_t)plan->params.v[PARAM_DONATE].u,
                                          plan->params.v[PARAM_PARTITION].u > 1, &cfg, err));
    s->donate = cfg.donate > 0;
    const clirr_loop_spec topo_loop = {"bfs.cl", "", "bfs_topo", CLIRR_KNARGS(bfs_topo_args), 0, NULL, 0, 0, 0, false, 0};
    const clirr_loop_spec level_loop = {"bfs.cl", "", "bfs_level", CLIRR_KNARGS(bfs_level_args), 0, NULL, 0, 0, 0, false, 0};
    const clirr_loop_spec data_loop = {"bfs.cl", "", "bfs_data", CLIRR_KNARGS(bfs_data_args),
                                       CLIRR_KARG(bfs_data_args, wl_in), "bfs_local", plan->local_rounds,
                                       plan->queue_rounds, CLIRR_ROUND_VAR(bfs_data_args, depth),
                                       !plan->params.v[PARAM_DEDUP].b, plan->fixed_grid};
    /* The spatial hybrid: items are partitions of part vertices. */
    s->part = plan->variant == VARIANT_DATA ? (uint32_t)plan->params.v[PARAM_PARTITION].u : 1;
    const clirr_loop_spec part_loop = {"bfs.cl", "", "bfs_part", CLIRR_KNARGS(bfs_part_args),
                                       CLIRR_KARG(bfs_part_args, wl_in), NULL, 0, 0, 0,
                                       !plan->params.v[PARAM_DEDUP].b, plan->fixed_grid};
    uint32_t items = s->part > 1 ? (uint32_t)(((uint64_t)s->g->n + s->part - 1) / s->part) : s->g->n;
    CLIRR_TRY(clirr_variant_loop_init(&s->vl, ctx, topo, s->level_sync ? &level_loop : &topo_loop,
                                      s->part > 1 ? &part_loop : &data_loop, items, plan->push, &cfg, err));
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_AS_IS, false, &s->dg, err));
    CLIRR_TRY(clirr_buf_create(ctx, "BFS levels", (size_t)s->g->n * sizeof(uint32_t), &s->level, err));
    if (topo) {
        CLIRR_TRY(clirr_buf_create(ctx, "the changed flag", sizeof(uint32_t), &s->changed, err));
        if (plan->variant == VARIANT_TOPO)
            CLIRR_TRY(clirr_presort_upload(ctx, s->g, (clirr_presort)plan->params.v[PARAM_PRESORT].u, &s->order,
                                           &s->presorted, err));
        CLIRR_TRY(bind_topo(s, &s->vl.nl, s->level_sync, err));
        if (plan->variant == VARIANT_TOPO && plan->params.v[PARAM_UNROLL].u > 1)
            CLIRR_TRY(prepare_unroll(s, plan, err));
    } else {
        CLIRR_TRY(clirr_worklist_init(&s->wl, ctx, items, plan->wl_capacity, CLIRR_PUSH_COMPACT, err));
        CLIRR_TRY(bind_data(s, err));
        /* (a trace counts a partition's arcs as unknown: 0) */
        clirr_round_loop_trace(&s->vl.rl, s->trace, s->part > 1 ? NULL : s->g->row);
        if (s->part > 1) {
            CLIRR_TRY(CLIRR_ROUND_SET(&s->vl.rl, bfs_part_args, n, s->g->n));
            CLIRR_TRY(CLIRR_ROUND_SET(&s->vl.rl, bfs_part_args, part, s->part));
        }
        if ((1u << plan->variant) & DO_VARIANTS)
            CLIRR_TRY(prepare_do(s, in, plan, err));
        if (plan->variant == VARIANT_HYBRID)
            CLIRR_TRY(prepare_hybrid(s, plan, err));
    }
    *out = s;
    return CLIRR_OK;
fail:
    bfs_release(s);
    return rc;
}

/* Every vertex every round (topo: a sweep; level: round `depth` expands
 * level depth); stops after a round that changed nothing. */
static int run_topo(bfs_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (uint32_t depth = 0;; depth++) {
        uint32_t flag = 0;
        clirr_trace_round r;
        clirr_trace_mark m;
        /* traced: the arcs of the level's vertices (level), of every
         * reached one (topo) */
        CLIRR_TRY(clirr_trace_topo_begin(s->ctx, s->trace, s->level, s->g->row, s->g->n,
                                         s->level_sync ? depth : NONE, !s->level_sync, &r, &m, err));
        CLIRR_TRY(clirr_buf_write(s->ctx, s->changed, 0, sizeof flag, &flag, err));
        if (s->level_sync)
            CLIRR_TRY(CLIRR_NL_SET(&s->vl.nl, bfs_level_args, depth, depth));
        if (s->unroll.kernel)
            CLIRR_TRY(clirr_unroll_run(&s->unroll, s->g->n, err));
        else
            CLIRR_TRY(clirr_nl_run(&s->vl.nl, s->g->n, err));
        CLIRR_TRY(clirr_buf_read(s->ctx, s->changed, 0, sizeof flag, &flag, err));
        if (s->trace)
            CLIRR_TRY(clirr_trace_end(s->ctx, s->trace, &m, &r, err));
        stats->iterations++;
        if (!flag)
            break;
    }
fail:
    return rc;
}

/* The frontier as a worklist; stops when it is empty. */
static int run_data(bfs_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t first = s->source / s->part; /* the source's partition (itself at 1) */
    CLIRR_TRY(clirr_worklist_restart(&s->wl, err));
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &first, 1, err));
    for (uint32_t depth = 0, rounds = 0; clirr_worklist_size(&s->wl) > 0; depth += rounds) {
        CLIRR_TRY(CLIRR_ROUND_SET(&s->vl.rl, bfs_data_args, depth, depth));
        CLIRR_TRY(clirr_round_loop_run_many(&s->vl.rl, &s->wl, &rounds, err));
        stats->iterations += rounds;
    }
    clirr_run_worklist_stats(&s->wl, stats);
    clirr_round_loop_local_stats(&s->vl.rl, stats);
    if (s->donate)
        CLIRR_TRY(clirr_round_loop_donations(&s->vl.rl, &s->donated_g0, &s->donated, err));
fail:
    return rc;
}

/* Run kernel k over `items` work-items and read info: {found, arcs}. */
static int count_pass(bfs_session *s, cl_kernel k, size_t items, size_t wg, uint32_t *found, uint64_t *arcs,
                      clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t info[3] = {0, 0, 0};
    CLIRR_TRY(clirr_buf_write(s->ctx, s->info, 0, sizeof info, info, err));
    CLIRR_TRY(clirr_launch(s->ctx, k, items, wg, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->info, 0, sizeof info, info, err));
    *found = info[0];
    *arcs = (uint64_t)info[2] << 32 | info[1];
fail:
    return rc;
}

/* do-bit: one step from level depth over the bitmaps, the next level's
 * bitmap becoming the front: bottom-up, a sweep that writes and counts
 * next; top-down from a frontier of many arcs (*arcs on entry), the levels
 * set and then next written and counted from them; else top-down into a
 * cleared next, bit by bit. */
static int bitmap_step(bfs_session *s, bool bottom, uint32_t depth, uint32_t *found, uint64_t *arcs,
                       clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k;
    if (bottom) {
        k = s->bottom_up_bits;
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, depth), depth));
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, front), s->front));
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_bottom_up_bits_args, next), s->next));
    } else if (*arcs > s->dg->n / TOP_DOWN_PASS) {
        cl_kernel mark = s->top_down_mark;
        uint32_t next_depth = depth + 1, count = 1;
        CLIRR_TRY(CLIRR_ARG(mark, CLIRR_KARG(bfs_top_down_mark_args, depth), depth));
        CLIRR_TRY(CLIRR_ARG(mark, CLIRR_KARG(bfs_top_down_mark_args, front), s->front));
        CLIRR_TRY(clirr_launch(s->ctx, mark, s->bits_items, clirr_wg_size(s->ctx, mark, BITS_WG), err));
        k = s->level_bits;
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_level_bits_args, front), s->next));
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_level_bits_args, depth), next_depth));
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_level_bits_args, count), count));
    } else {
        k = s->top_down_bits;
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->next, 0, s->dg->n / 32 + 1, 0, err));
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, depth), depth));
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, front), s->front));
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_top_down_bits_args, next), s->next));
    }
    CLIRR_TRY(count_pass(s, k, s->bits_items, clirr_wg_size(s->ctx, k, BITS_WG), found, arcs, err));
    cl_mem swap = s->front;
    s->front = s->next;
    s->next = swap;
fail:
    return rc;
}

/* The direction-optimizing variants' top-down part: worklist rounds
 * (local rounds included) from *depth on, then the new frontier's size and
 * arcs (the arcs counted by at most max_items work-items). */
static int top_down_rounds(bfs_session *s, uint32_t max_items, uint32_t *depth, uint32_t *frontier,
                           uint64_t *frontier_arcs, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t rounds = 0, d = *depth;
    CLIRR_TRY(CLIRR_ROUND_SET(&s->vl.rl, bfs_data_args, depth, d));
    CLIRR_TRY(clirr_round_loop_run_many(&s->vl.rl, &s->wl, &rounds, err));
    *depth += rounds;
    stats->iterations += rounds;
    *frontier = clirr_worklist_size(&s->wl);
    *frontier_arcs = 0;
    if (*frontier) {
        uint32_t count = *frontier, ignored;
        cl_kernel k = s->frontier_arcs;
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_frontier_arcs_args, items), s->wl.items[s->wl.cur]));
        CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(bfs_frontier_arcs_args, count), count));
        CLIRR_TRY(count_pass(s, k, count < max_items ? count : max_items, s->wg_frontier_arcs, &ignored,
                             frontier_arcs, err));
    }
fail:
    return rc;
}

/* do-bit: worklist rounds (local rounds included) while the frontier is
 * small; from a frontier of n / BITS_ENTER vertices on, or one whose arcs
 * call for a bottom-up step, every level is a step over the bitmaps,
 * bottom-up or top-down by Beamer's rule, until a top-down frontier falls
 * under n / BITS_LEAVE and goes back into the worklist (listed from the
 * bitmap: a pass over n / 32 words). */
static int run_do_bit(bfs_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_graph *g = s->g;
    uint64_t frontier_arcs = g->row[s->source + 1] - g->row[s->source];
    uint64_t unexplored = g->m - frontier_arcs;
    uint32_t frontier = 1, before = 0, depth = 0;
    bool bits = false, bottom = false;
    s->bottom_up_rounds = s->switches = 0;
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &s->source, 1, err));
    while (frontier > 0) {
        /* the worklist's frontier is large, or its arcs call for a
         * bottom-up step (which runs over the bitmaps only) */
        if (!bits && (frontier >= g->n / BITS_ENTER || (frontier_arcs > unexplored / ALPHA && frontier > before))) {
            bits = true;
            uint32_t no_count = 0;
            CLIRR_TRY(CLIRR_ARG(s->level_bits, CLIRR_KARG(bfs_level_bits_args, front), s->front));
            CLIRR_TRY(CLIRR_ARG(s->level_bits, CLIRR_KARG(bfs_level_bits_args, depth), depth));
            CLIRR_TRY(CLIRR_ARG(s->level_bits, CLIRR_KARG(bfs_level_bits_args, count), no_count));
            CLIRR_TRY(clirr_launch(s->ctx, s->level_bits, s->bits_items,
                                   clirr_wg_size(s->ctx, s->level_bits, BITS_WG), err));
        }
        if (bits) {
            if (!bottom && frontier_arcs > unexplored / ALPHA && frontier > before) {
                bottom = true;
                s->switches++;
            } else if (bottom && frontier < g->n / BETA && frontier < before) {
                bottom = false;
                s->switches++;
            }
            if (!bottom && frontier < g->n / BITS_LEAVE) {
                uint32_t listed;
                uint64_t ignored;
                bits = false;
                CLIRR_TRY(CLIRR_ARG(s->bits_list, CLIRR_KARG(bfs_bits_items_args, front), s->front));
                CLIRR_TRY(count_pass(s, s->bits_list, s->bits_items, clirr_wg_size(s->ctx, s->bits_list, BITS_WG),
                                     &listed, &ignored, err));
                CLIRR_TRY(clirr_worklist_reset_from(&s->wl, s->tail, 0, listed, err));
                continue;
            }
            before = frontier;
            clirr_trace_round r = {bottom ? "bottom-up" : "top-down", frontier, 0, 0, 0, "-", 0, 0, 0};
            clirr_trace_mark m;
            if (s->trace)
                CLIRR_TRY(clirr_trace_begin(s->ctx, &m, err));
            CLIRR_TRY(bitmap_step(s, bottom, depth, &frontier, &frontier_arcs, err));
            r.items_out = frontier;
            if (s->trace)
                CLIRR_TRY(clirr_trace_end(s->ctx, s->trace, &m, &r, err));
            depth++;
            stats->iterations++;
            s->bottom_up_rounds += bottom;
        } else {
            before = frontier;
            /* as many work-items as a bitmap step (the kernel strides
             * over the items): an atomic a work-item, not an item */
            CLIRR_TRY(top_down_rounds(s, s->bits_items, &depth, &frontier, &frontier_arcs, stats, err));
        }
        unexplored = unexplored > frontier_arcs ? unexplored - frontier_arcs : 0;
    }
    clirr_run_worklist_stats(&s->wl, stats);
    clirr_round_loop_local_stats(&s->vl.rl, stats);
fail:
    return rc;
}

/* Direction-optimizing: top-down worklist rounds (local rounds included)
 * while the frontier's arcs are few, bottom-up sweeps while they are many;
 * the frontier goes back into the worklist (a compaction of the level)
 * when it shrinks below n / BETA. */
static int run_do(bfs_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_graph *g = s->g;
    uint64_t frontier_arcs = g->row[s->source + 1] - g->row[s->source];
    uint64_t unexplored = g->m - frontier_arcs;
    uint32_t frontier = 1, before = 0, depth = 0;
    bool bottom = false;
    s->bottom_up_rounds = s->switches = 0;
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &s->source, 1, err));
    while (frontier > 0) {
        if (!bottom && frontier_arcs > unexplored / ALPHA && frontier > before) {
            bottom = true;
            s->switches++;
        } else if (bottom && frontier < g->n / BETA && frontier < before) {
            bottom = false;
            s->switches++;
            CLIRR_TRY(clirr_worklist_reset_marked(&s->wl, s->level, depth, g->n, err));
        }
        before = frontier;
        if (bottom) {
            /* traced: a sweep over every vertex; the in-arcs it reads are
             * not counted (it stops at the first parent) */
            clirr_trace_round r = {"bottom-up", g->n, 0, 0, 0, "-", 0, 0, 0};
            clirr_trace_mark m;
            if (s->trace)
                CLIRR_TRY(clirr_trace_begin(s->ctx, &m, err));
            CLIRR_TRY(CLIRR_ARG(s->bottom_up, CLIRR_KARG(bfs_bottom_up_args, depth), depth));
            CLIRR_TRY(count_pass(s, s->bottom_up, g->n, s->wg_bottom_up, &frontier, &frontier_arcs, err));
            r.items_out = frontier;
            if (s->trace)
                CLIRR_TRY(clirr_trace_end(s->ctx, s->trace, &m, &r, err));
            depth++;
            stats->iterations++;
            s->bottom_up_rounds++;
        } else {
            CLIRR_TRY(top_down_rounds(s, UINT32_MAX, &depth, &frontier, &frontier_arcs, stats, err));
        }
        unexplored = unexplored > frontier_arcs ? unexplored - frontier_arcs : 0;
    }
    clirr_run_worklist_stats(&s->wl, stats);
    clirr_round_loop_local_stats(&s->vl.rl, stats);
fail:
    return rc;
}

/* Temporal hybrid (clirr_hybrid_loop_run): a topology-driven round is
 * bfs_level over every vertex at the current depth, after which the
 * frontier (the vertices at the new level) goes back into the worklist by
 * a compaction of the levels, as the study's separate worklist-building
 * kernel; data rounds run many at a time (local, queued) up to
 * hybrid.min - 1 items (clirr_round_loop_cap). */
static int hybrid_topo_round(void *user, clirr_error *err)
{
    int rc = CLIRR_OK;
    bfs_session *s = user;
    uint32_t n = s->g->n;
    clirr_trace_round r;
    clirr_trace_mark m;
    CLIRR_TRY(clirr_trace_topo_begin(s->ctx, s->trace, s->level, s->g->row, n, s->depth, false, &r, &m, err));
    CLIRR_TRY(CLIRR_NL_SET(&s->level_nl, bfs_level_args, depth, s->depth));
    CLIRR_TRY(clirr_nl_run(&s->level_nl, n, err));
    CLIRR_TRY(clirr_worklist_reset_marked(&s->wl, s->level, s->depth + 1, n, err));
    r.items_out = clirr_worklist_size(&s->wl);
    if (s->trace)
        CLIRR_TRY(clirr_trace_end(s->ctx, s->trace, &m, &r, err));
    s->depth++;
fail:
    return rc;
}

static int hybrid_data_round(void *user, uint32_t *rounds, clirr_error *err)
{
    int rc = CLIRR_OK;
    bfs_session *s = user;
    CLIRR_TRY(CLIRR_ROUND_SET(&s->vl.rl, bfs_data_args, depth, s->depth));
    CLIRR_TRY(clirr_round_loop_run_many(&s->vl.rl, &s->wl, rounds, err));
    s->depth += *rounds;
fail:
    return rc;
}

static int run_hybrid(bfs_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    s->depth = 0;
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &s->source, 1, err));
    CLIRR_TRY(clirr_hybrid_loop_run(&s->hybrid, &s->wl, stats, err));
    clirr_run_worklist_stats(&s->wl, stats);
    clirr_round_loop_local_stats(&s->vl.rl, stats);
fail:
    return rc;
}

static int bfs_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    bfs_session *s = state;
    if (s->serial) {
        stats->iterations = 1;
        return s->serial == VARIANT_SERIAL_REC ? clirr_ref_bfs_recursive(s->g, s->source, result, NULL, err)
                                               : clirr_ref_bfs(s->g, s->source, result, err);
    }
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->level, 0, s->g->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->level, s->source, 1, 0, err));
    if (s->rec)
        CLIRR_TRY(bfs_rec_run(s->rec, s->source, stats, err));
    else if (s->regions.kernel) {
        CLIRR_TRY(sssp_regions_run(&s->regions, s->source, s->trace, err));
        stats->iterations = s->regions.launches;
    } else if (s->vl.topo)
        CLIRR_TRY(run_topo(s, stats, err));
    else if (s->bottom_up_bits)
        CLIRR_TRY(run_do_bit(s, stats, err));
    else if (s->bottom_up)
        CLIRR_TRY(run_do(s, stats, err));
    else if (s->have_level_nl)
        CLIRR_TRY(run_hybrid(s, stats, err));
    else
        CLIRR_TRY(run_data(s, stats, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->level, 0, (size_t)s->g->n * sizeof(uint32_t), result, err));
    if (!s->rec && !s->regions.kernel)
        CLIRR_TRY(clirr_variant_loop_child_launches(&s->vl, &stats->child_launches, err));
fail:
    return rc;
}

static void bfs_summarize(void *state, const void *result, clirr_stats *stats)
{
    bfs_session *s = state;
    clirr_run_count_reached(s->g, result, NONE, stats);
}

static int bfs_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    uint32_t source;
    const clirr_graph *g = clirr_input_graph(in);
    int rc = clirr_run_source(plan, g, &source, err);
    return rc == CLIRR_OK ? clirr_ref_bfs(g, source, out, err) : rc;
}

static bool bfs_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                       const void *got, clirr_verify_report *r)
{
    uint32_t source = 0;
    const clirr_graph *g = clirr_input_graph(in);
    if (clirr_run_source(plan, g, &source, NULL) != CLIRR_OK)
        return false;
    return clirr_verify_bfs(g, source, expected, got, r);
}

static void bfs_write(FILE *f, const void *result, uint64_t i)
{
    fprintf(f, "%d", ((const int32_t *)result)[i]);
}

/* do: how the last trial went. */
static void bfs_extras(void *state, const void *result, clirr_extras *x)
{
    (void)result;
    bfs_session *s = state;
    if (s->rec)
        bfs_rec_extras(s->rec, x);
    if (s->regions.kernel)
        sssp_regions_extras(&s->regions, x);
    if (s->donate) {
        clirr_extras_add(x, "donations", CLIRR_EXTRA_UINT)->u = s->donated;
        clirr_extras_add(x, "donations_group0", CLIRR_EXTRA_UINT)->u = s->donated_g0;
    }
    if (s->have_level_nl) {
        clirr_extras_add(x, "topology_rounds", CLIRR_EXTRA_UINT)->u = s->hybrid.topo_rounds;
        clirr_extras_add(x, "switches", CLIRR_EXTRA_UINT)->u = s->hybrid.switches;
        clirr_extras_add(x, "hybrid_min", CLIRR_EXTRA_UINT)->u = s->hybrid.min;
    }
    if (!s->bottom_up)
        return;
    clirr_extras_add(x, "bottom_up_rounds", CLIRR_EXTRA_UINT)->u = s->bottom_up_rounds;
    clirr_extras_add(x, "direction_switches", CLIRR_EXTRA_UINT)->u = s->switches;
}

/* --parents FILE: the tree read off the last trial's result. */
static int bfs_write_outputs(void *state, const void *result, clirr_error *err)
{
    bfs_session *s = state;
    return clirr_run_write_tree(s->tree_path, s->g, s->source, result, true, err);
}

static const clirr_param_desc bfs_params[] = {
    [PARAM_PARENTS] = {"parents", CLIRR_PARAM_PATH, "", 0, 0, "a BFS tree: each vertex's parent one level up (-1: the source, unreached)"},
    /* 0.01: measured on the H100 (tests/bench/RESULTS.md, "Temporal
     * hybrid"), rmat 22 3.4 against data's 4.5 ms of kernel; the grid and
     * the road network never reach it, so they run as data does. */
    [PARAM_HYBRID] = {"hybrid", CLIRR_PARAM_REAL, "0.01", 0, 2,
                      "hybrid: a round whose frontier holds at least this fraction of the vertices runs "
                      "topology-driven (over every vertex)", NULL, 1u << VARIANT_HYBRID},
    [PARAM_DEDUP] = {"dedup", CLIRR_PARAM_BOOL, "on", 0, 0,
                     "data, hybrid: push a vertex once a round (off: every discovery pushes, the study's "
                     "duplicates; atomic or chunk pushes, one round a launch)", NULL,
                     (1u << VARIANT_DATA) | (1u << VARIANT_HYBRID)},
    [PARAM_PARTITION] = {"partition", CLIRR_PARAM_UINT, "1", 1, 2147483648.0,
                         "data: the spatial hybrid: worklist items are partitions of this many consecutive "
                         "vertices, each run whole (1: data-driven; n: topology-driven)", NULL, 1u << VARIANT_DATA},
    [PARAM_STREAMS] = {"streams", CLIRR_PARAM_UINT, "0", 0, CLIRR_MAX_STREAMS,
                       "recursive: rec-*: extra on-device queues (at most 4) the nested launches spread over with "
                       "the default one: the study's streams", NULL, REC_VARIANTS},
    [PARAM_COUNT] = {"count", CLIRR_PARAM_BOOL, "off", 0, 0,
                     "rec-*: count atomic_min calls and visits on the device (a separate, slower build)", NULL,
                     REC_VARIANTS},
    [PARAM_NEST_LIMIT] = {"nest-limit", CLIRR_PARAM_UINT, "512", 1, 8192,
                          "rec-*: nested launches at most this deep; deeper vertices restart from the host", NULL,
                          REC_VARIANTS},
    [PARAM_DONATE] = {"donate", CLIRR_PARAM_UINT, "0", 0, 1048576,
                      CLIRR_DONATE_HELP, NULL, 1u << VARIANT_DATA, true},
    [PARAM_UNROLL] = {"unroll", CLIRR_PARAM_UINT, "0", 0, 4096,
                      CLIRR_UNROLL_HELP, NULL, 1u << VARIANT_TOPO, true},
    [PARAM_PRESORT] = {"presort", CLIRR_PARAM_CHOICE, "none", 0, 0, CLIRR_PRESORT_HELP, clirr_presort_names,
                       1u << VARIANT_TOPO},
    [PARAM_DELTA] = {"delta", CLIRR_PARAM_UINT, "0", 0, 4294967295.0,
                     "regions: a launch settles the vertices under the least pending level + X (0: 128 for "
                     "work-items, 64 for work-groups)", NULL,
                     1u << VARIANT_REGIONS},
    [PARAM_WORKER] = {"worker", CLIRR_PARAM_CHOICE, "auto", 0, 0, SSSP_REGIONS_WORKER_HELP, sssp_regions_worker_names,
                      1u << VARIANT_REGIONS},
    [PARAM_RANGES] = {"ranges", CLIRR_PARAM_UINT, "0", 0, 4294967295.0, SSSP_REGIONS_RANGES_HELP, NULL,
                      1u << VARIANT_REGIONS},
};

/* auto: direction-optimizing where a few hubs hold many arcs. Measured on
 * the H100 (tests/bench/RESULTS.md, issue 16's run): rmat scale 22, 4.5
 * against 5.8 ms end to end with do (rmat's largest out-degree is about
 * 1,900 times the mean at scale 18); uniform random 2^23 (about 3 times),
 * 11.1 against 6.5 ms, its bottom-up steps finding parents late; the grid
 * and roads (about 1-2 times) run every level locally either way. The cut
 * lies between, at 32. PoCL on the same machine's 16 cores agrees (GAPBS's
 * kron, scale 22: do 119 against data 153 ms of kernel; its uniform graph,
 * 2^23: data 104 against do 568), so auto is BFS's default. */
#define DO_MIN_SKEW 32

/* On CPU devices auto is do-bit on every graph: PoCL on the H100
 * machine's 16-core Xeon, GAPBS's kron scale 22 from vertex 0, 23.0 ms
 * end to end against do's 122 and data's 161-171; its uniform graph,
 * 2^23, 52-56 against data's 112-117 and do's 545; luxembourg_osm, where
 * Beamer's rule never turns bottom-up, 6.8 against data's 6.2 (all its
 * levels in local rounds either way; tests/bench/RESULTS.md, "PoCL
 * against GAPBS, CPU paths"). */
/* Graphs regions suits (sssp_regions_suits: bounded degree, 2^16 vertices
 * or more on CPUs, 2^18 elsewhere) take it on every device (on the 16-core
 * Xeon since work-items settle flagged ranges again, luxembourg_osm took
 * 2.9 ms compute against do-bit's 5.8; tests/bench/RESULTS.md, "Regions'
 * work-items settle flagged ranges again"): the 2048 x 2048 grid from a
 * corner (4,095 levels) on the H200, 28.4-29.0 ms end to end (264 work-groups,
 * 16 levels a launch) against data's 38.0-41.0 (LonestarGPU 39.7); PoCL
 * on its 16-core Xeon, 58.5 against do-bit's 195.2 (GAPBS `bfs` 79.7);
 * on the 2-core machine 512 x 512, PoCL 10.3 against 13.3, Intel's
 * runtime 10.9 against 19.4; 1024 x 1024, 68.4 against 66.1 (kernels
 * 50.4 against 65.3) and 44.7 against 103.7 (tests/bench/RESULTS.md,
 * "Regions on GPUs, BFS regions"). */
static unsigned bfs_choose(const clirr_input *in, const clirr_caps *caps, const char **reason)
{
    if (sssp_regions_suits(clirr_input_graph(in), caps->is_cpu)) {
        *reason = caps->is_cpu ? "auto: regions, a graph of at most 8 neighbours a vertex and 2^16 vertices or "
                                 "more (cores settle range after range, many levels a launch; measured on PoCL and "
                                 "Intel's CPU runtime)"
                               : "auto: regions, a graph of at most 8 neighbours a vertex and 2^18 vertices or "
                                 "more (every range settled by a work-group of its own, many levels a launch; "
                                 "measured on an H200)";
        return VARIANT_REGIONS;
    }
    if (caps->is_cpu) {
        *reason = "auto: do-bit, a CPU device (bitmap bottom-up sweeps over contiguous ranges, no atomic a "
                  "vertex; measured on PoCL)";
        return VARIANT_DO_BITMAP;
    }
    bool skewed = clirr_graph_has_hubs(clirr_input_graph(in), DO_MIN_SKEW);
    *reason = skewed ? "auto: do, the largest out-degree is at least 32 times the mean (hubs: bottom-up "
                       "steps find parents early; measured on an H100 and PoCL)"
                     : "auto: data, no out-degree reaches 32 times the mean (bottom-up steps would scan "
                       "most in-arcs; measured on an H100 and PoCL)";
    return skewed ? VARIANT_DO : VARIANT_DATA;
}

static const clirr_variant_desc bfs_variants[] = {
    {"topo", "the study's topology-driven BFS: every reached vertex offers level + 1 to its neighbours every "
             "sweep (plain stores, levels only fall), a changed flag", false, false},
    {"level", "every vertex every round, the vertices at the round's level expand, a changed flag "
              "(level-synchronous)", false, false},
    {"data", "a worklist of the frontier", true, false},
    {"do", "direction-optimizing: the worklist top-down, bottom-up sweeps over unvisited vertices while the "
           "frontier's arcs are many (Beamer)", true, false},
    {"hybrid", "temporal hybrid: data-driven rounds while the frontier holds fewer than --hybrid F of the "
               "vertices, topology-driven (level-synchronous) rounds while it holds more", true, false},
    {"auto", "regions for graphs of bounded degree (roads, grids) from 2^16 vertices on CPU devices, 2^18 "
             "elsewhere; else on CPU devices do-bit; elsewhere do on graphs with hubs (out-degree skew), else data",
     true, false},
    {"recursive", "the recursion study's unordered recursive BFS (shared/papers/001) through a recursion template: "
                  "rec-naive (a one-work-group child kernel per improved neighbour), rec-hier (a work-group per "
                  "arc, one child kernel per work-group), flat (the study's: level by level, thread-mapped)",
     false, true},
    {"do-bit", "do with the CPU's bottom-up sweep: a bitmap frontier, a work-item per contiguous range of "
                  "32-vertex words writing the next bitmap's words whole (no atomic a vertex)", true, false},
    {"regions", "SSSP's regions with every arc 1: every vertex range settled by a worker of its own (--worker), "
                "--delta levels past the least pending one a launch", false, false},
    {"serial-rec", "the serial recursive (depth-first, unordered) BFS on the host, timed: Fig. 9's baseline", false, false},
    {"serial-iter", "the serial queue BFS on the host, timed", false, false},
};

const clirr_algo clirr_algo_bfs = {
    .name = "bfs",
    .summary = "breadth-first search: hop level of every vertex from a source (-1 = unreached)",
    .study = "shared/papers/000 (data-driven vs topology-driven)",
    .input = CLIRR_INPUT_GRAPH,
    .variants = bfs_variants,
    .nvariants = sizeof bfs_variants / sizeof bfs_variants[0],
    .params = bfs_params,
    .nparams = sizeof bfs_params / sizeof bfs_params[0],
    .default_variant = VARIANT_AUTO,
    .sources = CLIRR_SOURCES_ONE,
    .cpu_degree_layout = true, /* CPUs, graphs with hubs: host/templates/plan.c */
    .value_size = sizeof(int32_t),
    .prepare = bfs_prepare,
    .run = bfs_run,
    .release = bfs_release,
    .summarize = bfs_summarize,
    .reference = bfs_reference,
    .verify = bfs_verify,
    .write_value = bfs_write,
    .write_outputs = bfs_write_outputs,
    .extras = bfs_extras,
    .choose_variant = bfs_choose,
    .per_round_variants = DO_VARIANTS,
};

int clirr_bfs(clirr_ctx *ctx, const clirr_graph *g, uint32_t source, int32_t *level,
              clirr_stats *stats, clirr_error *err)
{
    return clirr_run_typed(ctx, "bfs", g, source, level, stats, err);
}
