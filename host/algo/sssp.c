/* host/algo/sssp.c - single-source shortest paths on the device,
 * topology-driven (Bellman-Ford rounds with non-atomic monotone updates),
 * data-driven (worklist of improved vertices, atomic_min) or near-far (the
 * data-driven rounds over a split that moves up by delta, farther vertices
 * waiting in a pile); kernels in cl/sssp.cl, study shared/papers/000.
 * Distances are uint32 with CLIRR_SSSP_INF for unreached; an unweighted
 * graph has unit weights. */
#include "algo/input.h"
#include "algo/presort.h"
#include "algo/round.h"
#include "algo/run.h"
#include "algo/sssp_regions.h"
#include "cl/sssp.def"
#include "prim/prim.h"
#include "ref/ref.h"

#include <math.h>
#include <stdlib.h>

#define NONE CLIRR_SSSP_INF

CLIRR_KARGS_STRUCT(sssp_topo_args, SSSP_TOPO_ARGS);
CLIRR_KARGS_STRUCT(sssp_unroll_args, SSSP_UNROLL_ARGS);
_Static_assert(CLIRR_KARG(sssp_unroll_args, unroll) == CLIRR_KNARGS(sssp_topo_args),
               "SSSP_UNROLL_ARGS must start with SSSP_TOPO_ARGS");
CLIRR_KARGS_STRUCT(sssp_data_args, SSSP_DATA_ARGS);
CLIRR_KARGS_STRUCT(sssp_hybrid_args, SSSP_HYBRID_ARGS);
CLIRR_KARGS_STRUCT(sssp_part_args, SSSP_PART_ARGS);
_Static_assert(CLIRR_KARG(sssp_part_args, wl_in) == CLIRR_KARG(sssp_data_args, wl_in),
               "SSSP_PART_ARGS must start with SSSP_DATA_ARGS");
CLIRR_KARGS_STRUCT(sssp_nf_args, SSSP_NF_ARGS);
CLIRR_KARGS_STRUCT(sssp_nf_rebucket_args, SSSP_NF_REBUCKET_ARGS);
CLIRR_KARGS_STRUCT(sssp_items_bits_args, SSSP_ITEMS_BITS_ARGS);
CLIRR_KARGS_STRUCT(sssp_bits_round_args, SSSP_BITS_ROUND_ARGS);

enum { VARIANT_TOPO, VARIANT_DATA, VARIANT_NEARFAR, VARIANT_HYBRID, VARIANT_BITS, VARIANT_REGIONS, VARIANT_AUTO };

/* bits: work-items a compute unit (ranges of bitmap words) and a
 * work-group; the worklist becomes a bitmap once it holds n / BITS_ENTER
 * vertices (a worklist round would compact over all n then: the compact
 * push's 1/256) and a worklist again under n / BITS_LEAVE (a long tail
 * then runs in local rounds, not a sweep over every word a round). */
#define BITS_ITEMS_PER_UNIT 64
#define BITS_WG 4
#define BITS_ENTER 256
#define BITS_LEAVE 4096

/* The status buffer's two flags (cl/sssp.cl). */
enum { STATUS_CHANGED, STATUS_OVERFLOW, STATUS_FLAGS };

typedef struct sssp_session {
    clirr_ctx *ctx;
    const clirr_graph *g;
    const clirr_dgraph *dg; /* the input's, shared */
    uint32_t source;
    const char *tree_path;  /* --predecessors FILE, or NULL */
    cl_mem dist;
    cl_mem status;
    clirr_variant_loop vl;
    clirr_worklist wl;      /* data, nearfar */
    /* nearfar */
    uint32_t delta;         /* how far the split moves per phase */
    cl_mem far[2];          /* the pile, and the next phase's */
    cl_mem far_info[2];     /* {length, least distance} of each */
    cl_mem far_marks;       /* per vertex: the phase that set it aside */
    uint32_t phase;
    uint32_t phases, phases_local; /* of the last trial: all, and those the local rounds started */
    cl_kernel split;        /* context-owned */
    size_t split_wg;
    /* hybrid: the topology-driven sweep, taken while the worklist holds at
     * least hybrid.min vertices; mark[] stamps (a new sweep number each
     * sweep, never reused while the session lives) */
    clirr_nl sweep_nl;
    bool have_sweep_nl;
    cl_mem mark;
    uint32_t sweep;
    clirr_hybrid_loop hybrid;
    clirr_trace *trace;     /* the plan's: a row a round, or NULL */
    uint32_t part;          /* data: vertices a worklist item stands for (the
                               spatial hybrid's partition; 1: one vertex) */
    bool donate;            /* data: --donate T (work donation) */
    clirr_unroll unroll;    /* topo: --unroll K (kernel unrolling); kernel NULL: off */
    cl_mem order;           /* topo: --presort degree: the sweep's vertex order; NULL: by id */
    cl_uint presorted;
    uint64_t donated_g0, donated; /* of the last trial: chunks donated by work-group 0, by all */
    /* bits: the two kernels (context-owned), the bitmaps (front: this
     * round's, next: the one it finds; swapped every round), the count of
     * a round's new bits; mark and sweep stamp as the hybrid's do */
    cl_kernel items_bits, bits_round;
    cl_mem front, next, info;
    uint32_t bits_items, wpi, bits_rounds;
    uint32_t bits_delta;    /* buckets this wide (NONE: none, every set vertex relaxes) */
    sssp_regions regions;   /* regions; kernel NULL: another variant */
} sssp_session;

enum { PARAM_PREDECESSORS, PARAM_DELTA, PARAM_HYBRID, PARAM_DEDUP, PARAM_PARTITION, PARAM_DONATE, PARAM_UNROLL,
       PARAM_PRESORT, PARAM_WORKER, PARAM_RANGES }; /* the descriptor's parameters */

static void sssp_release(void *state)
{
    sssp_session *s = state;
    clirr_variant_loop_release(&s->vl);
    if (s->have_sweep_nl)
        clirr_nl_release(&s->sweep_nl);
    clirr_mem_release(&s->mark);
    clirr_worklist_release(&s->wl);
    clirr_mem_release(&s->dist);
    clirr_mem_release(&s->status);
    clirr_mem_release(&s->order);
    for (int i = 0; i < 2; i++) {
        clirr_mem_release(&s->far[i]);
        clirr_mem_release(&s->far_info[i]);
    }
    clirr_mem_release(&s->far_marks);
    clirr_mem_release(&s->front);
    clirr_mem_release(&s->next);
    clirr_mem_release(&s->info);
    sssp_regions_release(&s->regions);
    free(s);
}

/* Refused before anything is built: relaxation with a negative arc would
 * not reach a fixed point that means shortest paths. */
static int check_weights(const clirr_graph *g, clirr_error *err)
{
    if (!g->weight)
        return CLIRR_OK;
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++)
            if (g->weight[e] < 0)
                return clirr_fail(err, CLIRR_ERR_INPUT,
                                  "negative weight %d on arc %u -> %u: shortest paths need "
                                  "non-negative weights", g->weight[e], u, g->col[e]);
    return CLIRR_OK;
}

/* The arguments that stay the same in every round of every trial. */
/* --unroll K: the thread-mapped unrolled sweep, bound as sssp_topo is. */
static int prepare_unroll(sssp_session *s, const clirr_plan *plan, const char *options, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_unroll *u = &s->unroll;
    CLIRR_TRY(clirr_unroll_init(u, s->ctx, plan, "sssp.cl", options, "sssp_topo_unroll", CLIRR_KNARGS(sssp_topo_args),
                                (uint32_t)plan->params.v[PARAM_UNROLL].u, err));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(sssp_unroll_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(sssp_unroll_args, col), s->dg->col));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(sssp_unroll_args, weight), s->dg->weight));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(sssp_unroll_args, dist), s->dist));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(sssp_unroll_args, n), s->dg->n));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(sssp_unroll_args, status), s->status));
    cl_mem order = s->order ? s->order : s->status;
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(sssp_unroll_args, order), order));
    CLIRR_TRY(CLIRR_ARG(u->kernel, CLIRR_KARG(sssp_unroll_args, presorted), s->presorted));
fail:
    return rc;
}

static int bind_topo(sssp_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *nl = &s->vl.nl;
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_topo_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_topo_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_topo_args, weight, s->dg->weight));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_topo_args, dist, s->dist));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_topo_args, n, s->dg->n));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_topo_args, status, s->status));
    /* without --presort, a placeholder the kernel does not read */
    cl_mem order = s->order ? s->order : s->status;
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_topo_args, order, order));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_topo_args, presorted, s->presorted));
fail:
    return rc;
}

static int bind_data(sssp_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_round_loop *rl = &s->vl.rl;
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_data_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_data_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_data_args, weight, s->dg->weight));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_data_args, dist, s->dist));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_data_args, status, s->status));
fail:
    return rc;
}

/* Auto delta: a few hops' worth of vertices a phase, eight mean arc
 * weights on CPUs and 32 on GPUs, which fill a wide round with more
 * (H200: a 2048 x 2048 grid, weights 1-100, 101.9 ms against 116.3 at
 * eight, luxembourg_osm 6.35 against 8.12; on 2 cores 32 was slower or
 * no faster: PoCL luxembourg_osm 9.0-10.0 against 6.6-7.0 ms, a 512 x 512
 * grid 50-63 against 37-39, Intel's CPU runtime alike;
 * tests/bench/RESULTS.md, "On an H200 and its Xeon", near-far's delta).
 * Unweighted, one phase (the rounds are then BFS's levels, which buckets
 * cannot improve). */
static uint32_t auto_delta(const clirr_graph *g, bool cpu)
{
    return sssp_weights_delta(g, cpu ? 8 : 32);
}

/* bits' auto delta: 12 mean arc weights over the mean out-degree, the
 * delta-stepping rule of a bucket width near the weight range over the
 * degree (Meyer and Sanders): about one relaxation a vertex in few
 * rounds. Uniform graphs, weights 1-255, simulated rounds: 2^23 vertices
 * of degree 4 relax 1.07x their vertices at 384 (1.18x at 512, 1.89x at
 * 768, 2.83x without buckets), 2^21 of degree 8 1.12x at 192 (1.31x at
 * 256, 2.18x at 384). PoCL on a 16-core Xeon, 2^23: 172 ms at 384
 * against 242-258 without buckets (tests/bench/RESULTS.md, "Buckets for
 * bits"). Unweighted, none: the rounds are BFS's levels. */
static uint32_t bits_auto_delta(const clirr_graph *g)
{
    return g->m ? sssp_weights_delta(g, 12 * (double)g->n / (double)g->m) : NONE;
}

/* The pile's buffers and the split kernel (an ATOMIC-push round, so that
 * its worklist needs no compaction over every vertex). */
static int prepare_nearfar(sssp_session *s, const clirr_plan *plan, const char *options, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t bytes = (size_t)(s->g->n ? s->g->n : 1) * sizeof(uint32_t);
    uint64_t asked = plan->params.v[PARAM_DELTA].u;
    s->delta = asked ? (uint32_t)asked : auto_delta(s->g, clirr_ctx_caps(s->ctx)->is_cpu);
    for (int i = 0; i < 2; i++) {
        CLIRR_TRY(clirr_buf_create(s->ctx, "SSSP far pile", bytes, &s->far[i], err));
        CLIRR_TRY(clirr_buf_create(s->ctx, "SSSP far pile length", 2 * sizeof(uint32_t), &s->far_info[i], err));
    }
    CLIRR_TRY(clirr_buf_create(s->ctx, "SSSP far marks", bytes, &s->far_marks, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->far_marks, 0, s->g->n, 0, err));
    char opts[256];
    snprintf(opts, sizeof opts, "%s %s", options, clirr_worklist_push_option(CLIRR_PUSH_ATOMIC));
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(s->ctx, "sssp.cl", opts, &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "sssp_nf_rebucket", CLIRR_KNARGS(sssp_nf_rebucket_args), &s->split,
                                       err));
    s->split_wg = clirr_wg_size(s->ctx, s->split, plan->wg_size);
    cl_kernel k = s->split;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, dist), s->dist));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, far_marks), s->far_marks));
    clirr_round_loop *rl = &s->vl.rl;
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, far_marks, s->far_marks));
    cl_uint cap = s->g->n, delta = s->delta;
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, far_cap, cap));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, delta, delta));
    /* The largest pile the local rounds split in their work-group: 16
     * vertices a work-item (a GPU's 1024 then scan 16K, about the cost of
     * the host's split launch and three reads; not measured), at least
     * 1024. */
    cl_uint refill = (cl_uint)(16 * rl->local.wg > 1024 ? 16 * rl->local.wg : 1024);
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, refill_cap, refill));
fail:
    return rc;
}

static int hybrid_topo_round(void *user, clirr_error *err);
static int hybrid_data_round(void *user, uint32_t *rounds, clirr_error *err);

/* Temporal hybrid: the marking sweep over every vertex (the plan's
 * template) beside the data-driven round, its marks, and the worklist size
 * from which sweeps are taken (--hybrid F: F n vertices, at least one). */
static int prepare_hybrid(sssp_session *s, const clirr_plan *plan, const char *options, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    clirr_nl_config cfg = clirr_plan_loop(plan, 0);
    double min = ceil(plan->params.v[PARAM_HYBRID].r * s->g->n);
    s->hybrid = (clirr_hybrid_loop){min < 1 ? 1 : min > UINT32_MAX ? UINT32_MAX : (uint32_t)min, hybrid_topo_round,
                                    hybrid_data_round, s, 0, 0};
    CLIRR_TRY(clirr_buf_create(s->ctx, "the sweep marks", (size_t)s->g->n * sizeof(uint32_t), &s->mark, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->mark, 0, s->g->n, 0, err));
    CLIRR_TRY(clirr_program_get(s->ctx, "sssp.cl", options, &prog, err));
    CLIRR_TRY(clirr_nl_init(&s->sweep_nl, s->ctx, prog, "sssp_hybrid", CLIRR_KNARGS(sssp_hybrid_args), s->g->n,
                            &cfg, err));
    s->have_sweep_nl = true;
    clirr_nl *nl = &s->sweep_nl;
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, weight, s->dg->weight));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, dist, s->dist));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, n, s->dg->n));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, status, s->status));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, mark, s->mark));
    /* The hybrid's sweep takes the vertices by id. */
    cl_uint by_id = 0;
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, order, s->status));
    CLIRR_TRY(CLIRR_NL_SET(nl, sssp_hybrid_args, presorted, by_id));
    CLIRR_TRY(clirr_round_loop_cap(&s->vl.rl, s->hybrid.min - 1, err));
fail:
    return rc;
}

/* bits: the bitmap kernels, bound once, and their buffers. */
static int prepare_bits(sssp_session *s, const char *options, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    uint32_t n = s->g->n, words = n / 32 + 1;
    uint64_t items = (uint64_t)clirr_ctx_caps(s->ctx)->compute_units * BITS_ITEMS_PER_UNIT;
    s->bits_items = (uint32_t)(items < 1 ? 1 : items > words ? words : items);
    s->wpi = (words + s->bits_items - 1) / s->bits_items;
    CLIRR_TRY(clirr_program_get(s->ctx, "sssp.cl", options, &prog, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "sssp_items_bits", CLIRR_KNARGS(sssp_items_bits_args),
                                       &s->items_bits, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "sssp_bits_round", CLIRR_KNARGS(sssp_bits_round_args),
                                       &s->bits_round, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "SSSP worklist bitmap", (size_t)words * sizeof(uint32_t), &s->front, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "SSSP next worklist bitmap", (size_t)words * sizeof(uint32_t), &s->next,
                               err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "SSSP bitmap round counts", 2 * sizeof(uint32_t), &s->info, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "SSSP round stamps", (size_t)n * sizeof(uint32_t), &s->mark, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->mark, 0, n, 0, err));
    cl_kernel k = s->bits_round;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, row), s->dg->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, col), s->dg->col));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, weight), s->dg->weight));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, dist), s->dist));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, status), s->status));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, info), s->info));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, mark), s->mark));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, n), n));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, wpi), s->wpi));
    k = s->items_bits;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_items_bits_args, dist), s->dist));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_items_bits_args, info), s->info));
fail:
    return rc;
}

static int sssp_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                        clirr_error *err)
{
    int rc = CLIRR_OK;
    sssp_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->g = clirr_input_graph(in);
    bool topo = plan->variant == VARIANT_TOPO, nearfar = plan->variant == VARIANT_NEARFAR;
    CLIRR_TRY(clirr_run_source(plan, s->g, &s->source, err));
    s->tree_path = plan->params.v[PARAM_PREDECESSORS].path;
    s->trace = plan->trace;
    if (s->trace)
        s->trace->arcs = s->g->m;
    CLIRR_TRY(check_weights(s->g, err));
    /* Unweighted: every arc weighs 1, and the kernels never read weight. */
    const char *options = s->g->weight ? "" : "-DCLIRR_UNIT_WEIGHTS";
    clirr_nl_config cfg = clirr_plan_loop(plan, 0);
    if (plan->variant == VARIANT_DATA && plan->params.v[PARAM_DONATE].u)
        CLIRR_TRY(clirr_round_donate_config(plan, (uint32_t)plan->params.v[PARAM_DONATE].u,
                                            plan->params.v[PARAM_PARTITION].u > 1, &cfg, err));
    s->donate = cfg.donate > 0;
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_AS_IS, true, &s->dg, err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP distances", (size_t)s->g->n * sizeof(uint32_t), &s->dist, err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP status flags", STATUS_FLAGS * sizeof(uint32_t), &s->status, err));
    if (plan->variant == VARIANT_REGIONS) { /* no loop, no worklist: a kernel and buffers of its own */
        uint64_t asked = plan->params.v[PARAM_DELTA].u;
        CLIRR_TRY(sssp_regions_prepare(&s->regions, ctx, s->g, s->dg, s->dist, s->status, !s->g->weight,
                                       (uint32_t)asked,
                                       (sssp_regions_worker)plan->params.v[PARAM_WORKER].u, plan->wg_size,
                                       (uint32_t)plan->params.v[PARAM_RANGES].u, err));
        *out = s;
        return CLIRR_OK;
    }
    const clirr_loop_spec topo_loop = {"sssp.cl", options, "sssp_topo", CLIRR_KNARGS(sssp_topo_args), 0, NULL, 0, 0, 0, false, 0};
    const clirr_loop_spec data_loop = {"sssp.cl", options, "sssp_data", CLIRR_KNARGS(sssp_data_args),
                                       CLIRR_KARG(sssp_data_args, wl_in), "sssp_local", plan->local_rounds,
                                       plan->queue_rounds, 0, !plan->params.v[PARAM_DEDUP].b,
                                       plan->fixed_grid};
    const clirr_loop_spec nf_loop = {"sssp.cl", options, "sssp_nf", CLIRR_KNARGS(sssp_nf_args),
                                     CLIRR_KARG(sssp_nf_args, wl_in), "sssp_nf_local", plan->local_rounds,
                                     plan->queue_rounds, 0, !plan->params.v[PARAM_DEDUP].b,
                                       plan->fixed_grid};
    /* The spatial hybrid: items are partitions of part vertices. */
    s->part = plan->variant == VARIANT_DATA ? (uint32_t)plan->params.v[PARAM_PARTITION].u : 1;
    const clirr_loop_spec part_loop = {"sssp.cl", options, "sssp_part", CLIRR_KNARGS(sssp_part_args),
                                       CLIRR_KARG(sssp_part_args, wl_in), NULL, 0, 0, 0,
                                       !plan->params.v[PARAM_DEDUP].b, plan->fixed_grid};
    uint32_t items = s->part > 1 ? (uint32_t)(((uint64_t)s->g->n + s->part - 1) / s->part) : s->g->n;
    CLIRR_TRY(clirr_variant_loop_init(&s->vl, ctx, topo, &topo_loop,
                                      nearfar ? &nf_loop : s->part > 1 ? &part_loop : &data_loop, items, plan->push,
                                      &cfg, err));
    if (topo) {
        CLIRR_TRY(clirr_presort_upload(ctx, s->g, (clirr_presort)plan->params.v[PARAM_PRESORT].u, &s->order,
                                       &s->presorted, err));
        CLIRR_TRY(bind_topo(s, err));
        if (plan->params.v[PARAM_UNROLL].u > 1)
            CLIRR_TRY(prepare_unroll(s, plan, options, err));
    } else {
        CLIRR_TRY(clirr_worklist_init(&s->wl, ctx, items, plan->wl_capacity, CLIRR_PUSH_COMPACT, err));
        CLIRR_TRY(bind_data(s, err));
        /* (a trace counts a partition's arcs as unknown: 0) */
        clirr_round_loop_trace(&s->vl.rl, s->trace, s->part > 1 ? NULL : s->g->row);
        if (s->part > 1) {
            CLIRR_TRY(CLIRR_ROUND_SET(&s->vl.rl, sssp_part_args, n, s->g->n));
            CLIRR_TRY(CLIRR_ROUND_SET(&s->vl.rl, sssp_part_args, part, s->part));
        }
        if (nearfar)
            CLIRR_TRY(prepare_nearfar(s, plan, options, err));
        if (plan->variant == VARIANT_HYBRID)
            CLIRR_TRY(prepare_hybrid(s, plan, options, err));
        if (plan->variant == VARIANT_BITS) {
            uint64_t asked = plan->params.v[PARAM_DELTA].u;
            s->bits_delta = asked ? (uint32_t)asked : bits_auto_delta(s->g);
            CLIRR_TRY(prepare_bits(s, options, err));
        }
    }
    *out = s;
    return CLIRR_OK;
fail:
    sssp_release(s);
    return rc;
}

/* Every reached vertex every round; stops after a round that changed
 * nothing, or at the first overflow (the run then fails anyway). */
static int run_topo(sssp_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (;;) {
        uint32_t flags[STATUS_FLAGS] = {0, 0};
        clirr_trace_round r;
        clirr_trace_mark m;
        /* traced: every reached vertex relaxes all its arcs */
        CLIRR_TRY(clirr_trace_topo_begin(s->ctx, s->trace, s->dist, s->g->row, s->g->n, NONE, true, &r, &m, err));
        CLIRR_TRY(clirr_buf_write(s->ctx, s->status, 0, sizeof flags[STATUS_CHANGED], flags, err));
        if (s->unroll.kernel)
            CLIRR_TRY(clirr_unroll_run(&s->unroll, s->g->n, err));
        else
            CLIRR_TRY(clirr_nl_run(&s->vl.nl, s->g->n, err));
        CLIRR_TRY(clirr_buf_read(s->ctx, s->status, 0, sizeof flags, flags, err));
        if (s->trace)
            CLIRR_TRY(clirr_trace_end(s->ctx, s->trace, &m, &r, err));
        stats->iterations++;
        /* A dropped sum changes nothing: the rounds go on to the fixed
         * point, and check_overflow decides after it. */
        if (!flags[STATUS_CHANGED])
            break;
    }
fail:
    return rc;
}

/* The improved vertices as a worklist (the hybrid's sweeps taking over
 * while it is large); stops when it is empty. */
static int run_data(sssp_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t first = s->source / s->part; /* the source's partition (itself at 1) */
    CLIRR_TRY(clirr_worklist_restart(&s->wl, err));
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &first, 1, err));
    if (s->have_sweep_nl)
        CLIRR_TRY(clirr_hybrid_loop_run(&s->hybrid, &s->wl, stats, err));
    while (clirr_worklist_size(&s->wl) > 0) {
        uint32_t rounds = 0;
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

/* bits: run kernel k over `items` work-items after zeroing info[0] and
 * setting info[1] to NONE; *count and *lo get them after. */
static int bits_pass(sssp_session *s, cl_kernel k, size_t items, size_t wg, uint32_t *count, uint32_t *lo,
                     clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t info[2] = {0, NONE};
    CLIRR_TRY(clirr_buf_write(s->ctx, s->info, 0, sizeof info, info, err));
    CLIRR_TRY(clirr_launch(s->ctx, k, items, wg, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->info, 0, sizeof info, info, err));
    *count = info[0];
    *lo = info[1];
fail:
    return rc;
}

/* bits: the worklist (its `count` items) as the bitmap s->front; *lo
 * gets the least distance in it. */
static int bits_from_worklist(sssp_session *s, uint32_t count, uint32_t *lo, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t ignored;
    cl_kernel k = s->items_bits;
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->front, 0, s->g->n / 32 + 1, 0, err));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_items_bits_args, items), s->wl.items[s->wl.cur]));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_items_bits_args, count), count));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_items_bits_args, front), s->front)); /* swapped by the rounds */
    /* a few work-items: one atomic_min each */
    CLIRR_TRY(bits_pass(s, k, count < s->bits_items ? count : s->bits_items, clirr_wg_size(s->ctx, k, BITS_WG),
                        &ignored, lo, err));
fail:
    return rc;
}

/* bits: one round over the bitmap s->front into s->next (cleared first),
 * relaxing the vertices nearer than split, stamping what it sets with a
 * new s->sweep; *count gets how many it set, *lo their least distance. */
static int bits_round(sssp_session *s, uint32_t split, uint32_t *count, uint32_t *lo, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->bits_round;
    s->sweep = s->sweep == UINT32_MAX ? 1 : s->sweep + 1;
    if (s->sweep == 1) /* numbers wrapped: no stale stamp may match */
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->mark, 0, s->g->n, 0, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->next, 0, s->g->n / 32 + 1, 0, err));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, front), s->front));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, next), s->next));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, stamp), s->sweep));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_bits_round_args, split), split));
    CLIRR_TRY(bits_pass(s, k, s->bits_items, clirr_wg_size(s->ctx, k, BITS_WG), count, lo, err));
    cl_mem swap = s->front;
    s->front = s->next;
    s->next = swap;
fail:
    return rc;
}

/* bits: the split of the next round, the least pending distance lo plus
 * the bucket width (none when the width is NONE). */
static uint32_t bits_split(const sssp_session *s, uint32_t lo)
{
    return lo > NONE - s->bits_delta ? NONE : lo + s->bits_delta;
}

/* bits: worklist rounds (local rounds included) while the worklist is
 * small, bitmap rounds from n / BITS_ENTER items on, back to the worklist
 * (a compaction of the last round's stamps) under n / BITS_LEAVE. */
static int run_bits(sssp_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t n = s->g->n;
    s->bits_rounds = 0;
    CLIRR_TRY(clirr_worklist_restart(&s->wl, err));
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &s->source, 1, err));
    while (clirr_worklist_size(&s->wl) > 0) {
        uint32_t size = clirr_worklist_size(&s->wl), lo = NONE;
        if (size >= n / BITS_ENTER && size >= n / BITS_LEAVE) {
            CLIRR_TRY(bits_from_worklist(s, size, &lo, err));
            do {
                clirr_trace_round r = {"bits", size, 0, 0, 0, "-", 0, 0, 0};
                clirr_trace_mark m;
                if (s->trace)
                    CLIRR_TRY(clirr_trace_begin(s->ctx, &m, err));
                CLIRR_TRY(bits_round(s, bits_split(s, lo), &size, &lo, err));
                r.items_out = size;
                if (s->trace)
                    CLIRR_TRY(clirr_trace_end(s->ctx, s->trace, &m, &r, err));
                stats->iterations++;
                s->bits_rounds++;
            } while (size >= n / BITS_LEAVE && size > 0);
            CLIRR_TRY(clirr_worklist_reset_marked(&s->wl, s->mark, s->sweep, n, err));
            continue;
        }
        uint32_t rounds = 0;
        CLIRR_TRY(clirr_round_loop_run_many(&s->vl.rl, &s->wl, &rounds, err));
        stats->iterations += rounds;
    }
    clirr_run_worklist_stats(&s->wl, stats);
    clirr_round_loop_local_stats(&s->vl.rl, stats);
fail:
    return rc;
}

/* Temporal hybrid (clirr_hybrid_loop_run): a topology-driven round is a
 * marking sweep (sssp_hybrid) over every vertex, after which the vertices
 * it lowered become the worklist (a compaction of the marks, the study's
 * separate worklist-building kernel). */
static int hybrid_topo_round(void *user, clirr_error *err)
{
    int rc = CLIRR_OK;
    sssp_session *s = user;
    clirr_trace_round r;
    clirr_trace_mark m;
    CLIRR_TRY(clirr_trace_topo_begin(s->ctx, s->trace, s->dist, s->g->row, s->g->n, NONE, true, &r, &m, err));
    s->sweep = s->sweep == UINT32_MAX ? 1 : s->sweep + 1;
    if (s->sweep == 1) /* numbers wrapped: no stale stamp may match */
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->mark, 0, s->g->n, 0, err));
    CLIRR_TRY(CLIRR_NL_SET(&s->sweep_nl, sssp_hybrid_args, sweep, s->sweep));
    CLIRR_TRY(clirr_nl_run(&s->sweep_nl, s->g->n, err));
    CLIRR_TRY(clirr_worklist_reset_marked(&s->wl, s->mark, s->sweep, s->g->n, err));
    r.items_out = clirr_worklist_size(&s->wl);
    if (s->trace)
        CLIRR_TRY(clirr_trace_end(s->ctx, s->trace, &m, &r, err));
fail:
    return rc;
}

static int hybrid_data_round(void *user, uint32_t *rounds, clirr_error *err)
{
    sssp_session *s = user;
    return clirr_round_loop_run_many(&s->vl.rl, &s->wl, rounds, err);
}

static uint32_t add_sat(uint32_t a, uint32_t b) { return a > NONE - b ? NONE : a + b; }

/* A new phase stamp for the pile; the marks are cleared when they run out. */
static int next_phase(sssp_session *s, clirr_error *err)
{
    if (s->phase == UINT32_MAX - 1) {
        int rc = clirr_prim_fill_u32(s->ctx, s->far_marks, 0, s->g->n, 0, err);
        if (rc != CLIRR_OK)
            return rc;
        s->phase = 0;
    }
    s->phase++;
    return CLIRR_OK;
}

/* The split kernel over the pile's `items`, an attempt at a worklist round
 * (rerun on overflow, the next pile cleared first). */
typedef struct split_launch {
    sssp_session *s;
    int out;
    uint32_t items;
} split_launch;

static int launch_split(void *user, uint32_t near_items, clirr_error *err)
{
    (void)near_items; /* the input worklist is empty: the pile is the input */
    split_launch *sl = user;
    sssp_session *s = sl->s;
    const uint32_t clear[2] = {0, NONE};
    int rc = clirr_buf_write(s->ctx, s->far_info[sl->out], 0, sizeof clear, clear, err);
    if (rc == CLIRR_OK)
        rc = clirr_launch(s->ctx, s->split, sl->items, s->split_wg, err);
    return rc;
}

/* The rounds' split, pile (cur) and the next phase's, and phase stamp. */
static int nearfar_bind(sssp_session *s, uint32_t split, int cur, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_round_loop *rl = &s->vl.rl;
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, split, split));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, far, s->far[cur]));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, far_info, s->far_info[cur]));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, far_next, s->far[1 - cur]));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, far_next_info, s->far_info[1 - cur]));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, sssp_nf_args, far_phase, s->phase));
fail:
    return rc;
}

/* Rounds below the split until the worklist empties; then the pile splits
 * at split + delta (or past its least distance, when nothing falls below),
 * until both are empty. The local rounds start phases themselves while the
 * pile is small (cl/sssp.cl, sssp_nf_local): after one of their launches
 * the host carries on from the split, phase and pile they report. */
static int run_nearfar(sssp_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_round_loop *rl = &s->vl.rl;
    cl_kernel k = s->split;
    int cur = 0;
    const uint32_t clear[2] = {0, NONE};
    CLIRR_TRY(clirr_buf_write(s->ctx, s->far_info[cur], 0, sizeof clear, clear, err));
    CLIRR_TRY(next_phase(s, err));
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &s->source, 1, err));
    uint32_t split = s->delta;
    s->phases = 1;
    s->phases_local = 0;
    for (;;) {
        CLIRR_TRY(nearfar_bind(s, split, cur, err));
        while (clirr_worklist_size(&s->wl) > 0) {
            uint32_t rounds = 0, serial = rl->local.serial;
            CLIRR_TRY(clirr_round_loop_run_many(rl, &s->wl, &rounds, err));
            stats->iterations += rounds;
            const uint32_t *st = rl->local.last + 2; /* {split, phase, swapped, phases} */
            if (rl->local.serial == serial || st[3] == 0)
                continue;
            if (st[2] > 1 || st[1] < s->phase || st[1] - s->phase != st[3] || st[0] < split)
                return clirr_fail(err, CLIRR_ERR_OPENCL, "the near-far local rounds reported split %u, phase %u, "
                                  "%u phases after split %u, phase %u", st[0], st[1], st[3], split, s->phase);
            split = st[0];
            s->phase = st[1];
            s->phases += st[3];
            s->phases_local += st[3];
            cur = st[2] ? 1 - cur : cur;
            CLIRR_TRY(nearfar_bind(s, split, cur, err));
        }
        uint32_t info[2];
        CLIRR_TRY(clirr_buf_read(s->ctx, s->far_info[cur], 0, sizeof info, info, err));
        uint32_t hi = add_sat(split, s->delta);
        while (info[0] > 0 && clirr_worklist_size(&s->wl) == 0) {
            CLIRR_TRY(next_phase(s, err));
            s->phases++;
            split_launch sl = {s, 1 - cur, info[0]};
            CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, far_in), s->far[cur]));
            CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, far_in_size), info[0]));
            CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, far_out), s->far[1 - cur]));
            CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, far_out_info), s->far_info[1 - cur]));
            CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, far_phase), s->phase));
            CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, lo), split));
            CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_nf_rebucket_args, hi), hi));
            s->wl.mode = CLIRR_PUSH_ATOMIC;
            CLIRR_TRY(clirr_worklist_round_with(&s->wl, &k, 1, CLIRR_KARG(sssp_nf_rebucket_args, wl_in), launch_split,
                                                &sl, err));
            CLIRR_TRY(clirr_buf_read(s->ctx, s->far_info[1 - cur], 0, sizeof info, info, err));
            cur = 1 - cur;
            split = hi;
            /* Nothing fell below: move the split past the pile's least. */
            hi = add_sat(split > info[1] ? split : info[1], s->delta);
        }
        if (clirr_worklist_size(&s->wl) == 0)
            break;
    }
    clirr_run_worklist_stats(&s->wl, stats);
    clirr_round_loop_local_stats(rl, stats);
fail:
    return rc;
}

/* The kernels drop a sum that does not fit 32 bits (and raise the flag)
 * instead of wrapping. That is only wrong when the dropped path was a
 * vertex's shortest: then the vertex stayed unreached although an arc from
 * a reached vertex leads to it (any fitting relaxation would have reached
 * it). A dropped sum that improved nothing (a long arc back to the source)
 * is no error. The scan runs only when the flag is up. */
static int check_overflow(sssp_session *s, const uint32_t *dist, clirr_error *err)
{
    uint32_t flags[STATUS_FLAGS];
    int rc = clirr_buf_read(s->ctx, s->status, 0, sizeof flags, flags, err);
    if (rc != CLIRR_OK || !flags[STATUS_OVERFLOW])
        return rc;
    const clirr_graph *g = s->g;
    for (uint32_t u = 0; u < g->n; u++) {
        if (dist[u] == NONE)
            continue;
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++)
            if (dist[g->col[e]] == NONE)
                return clirr_fail(err, CLIRR_ERR_INPUT,
                                  "the shortest distance of vertex %u (over arc %u -> %u) exceeds "
                                  "2^32-2: the weights are too large for clirr's 32-bit distances",
                                  g->col[e], u, g->col[e]);
    }
    return CLIRR_OK;
}

static int sssp_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    sssp_session *s = state;
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->status, 0, STATUS_FLAGS, 0, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->dist, 0, s->g->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->dist, s->source, 1, 0, err));
    if (s->vl.topo)
        CLIRR_TRY(run_topo(s, stats, err));
    else if (s->split)
        CLIRR_TRY(run_nearfar(s, stats, err));
    else if (s->bits_round)
        CLIRR_TRY(run_bits(s, stats, err));
    else if (s->regions.kernel) {
        CLIRR_TRY(sssp_regions_run(&s->regions, s->source, s->trace, err));
        stats->iterations = s->regions.launches;
    }
    else
        CLIRR_TRY(run_data(s, stats, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->dist, 0, (size_t)s->g->n * sizeof(uint32_t), result, err));
    CLIRR_TRY(check_overflow(s, result, err));
    CLIRR_TRY(clirr_variant_loop_child_launches(&s->vl, &stats->child_launches, err));
fail:
    return rc;
}

static void sssp_summarize(void *state, const void *result, clirr_stats *stats)
{
    sssp_session *s = state;
    clirr_run_count_reached(s->g, result, NONE, stats);
}

static int sssp_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    uint32_t source;
    const clirr_graph *g = clirr_input_graph(in);
    int rc = clirr_run_source(plan, g, &source, err);
    return rc == CLIRR_OK ? clirr_ref_sssp(g, source, out, err) : rc;
}

static bool sssp_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                        const void *got, clirr_verify_report *r)
{
    uint32_t source = 0;
    const clirr_graph *g = clirr_input_graph(in);
    if (clirr_run_source(plan, g, &source, NULL) != CLIRR_OK)
        return false;
    return clirr_verify_sssp(g, source, expected, got, r);
}

static void sssp_write(FILE *f, const void *result, uint64_t i)
{
    uint32_t d = ((const uint32_t *)result)[i];
    if (d == NONE)
        fputs("inf", f);
    else
        fprintf(f, "%u", d);
}

/* --predecessors FILE: the tree read off the last trial's result. */
static int sssp_write_outputs(void *state, const void *result, clirr_error *err)
{
    sssp_session *s = state;
    return clirr_run_write_tree(s->tree_path, s->g, s->source, result, false, err);
}

static const clirr_param_desc sssp_params[] = {
    [PARAM_PREDECESSORS] = {"predecessors", CLIRR_PARAM_PATH, "", 0, 0, "a shortest-path tree: each vertex's predecessor on a shortest path (-1: the source, unreached)"},
    [PARAM_DELTA] = {"delta", CLIRR_PARAM_UINT, "0", 0, 4294967295.0,
                     "nearfar: how far the split moves per phase (0: eight mean arc weights on CPU devices, "
                     "32 elsewhere; "
                     "unweighted, one phase); bits: a bitmap round relaxes only the vertices under the least "
                     "pending distance + X, carrying the others (0: 12 mean arc weights over the mean out-degree; "
                     "unweighted, or 4294967295: every pending vertex); regions: a launch settles the vertices "
                     "under the least pending distance + X (0: 32 mean arc weights for work-items, 128 on graphs "
                     "of fewer than 3 arcs a vertex, 4 over the mean out-degree on graphs with hubs, 10 for "
                     "work-groups; unweighted, 128 hops for work-items, 64 for work-groups)"},
    /* 0.6: measured on the H100 (tests/bench/RESULTS.md, "Temporal
     * hybrid"), every lower threshold was slower than data-driven rounds
     * on rmat 22 and the 2048 grid; the road network never reaches 1%. */
    [PARAM_HYBRID] = {"hybrid", CLIRR_PARAM_REAL, "0.6", 0, 2,
                      "hybrid: a worklist holding at least this fraction of the vertices gives way to "
                      "topology-driven sweeps", NULL, 1u << VARIANT_HYBRID},
    [PARAM_DEDUP] = {"dedup", CLIRR_PARAM_BOOL, "on", 0, 0,
                     "data, nearfar, hybrid: push a vertex once a round (off: every improvement pushes, the "
                     "study's duplicates; atomic or chunk pushes, one round a launch)", NULL,
                     (1u << VARIANT_DATA) | (1u << VARIANT_NEARFAR) | (1u << VARIANT_HYBRID)},
    [PARAM_PARTITION] = {"partition", CLIRR_PARAM_UINT, "1", 1, 2147483648.0,
                         "data: the spatial hybrid: worklist items are partitions of this many consecutive "
                         "vertices, each run whole (1: data-driven; n: topology-driven)", NULL, 1u << VARIANT_DATA},
    [PARAM_DONATE] = {"donate", CLIRR_PARAM_UINT, "0", 0, 1048576,
                      CLIRR_DONATE_HELP, NULL, 1u << VARIANT_DATA, true},
    [PARAM_UNROLL] = {"unroll", CLIRR_PARAM_UINT, "0", 0, 4096,
                      CLIRR_UNROLL_HELP, NULL, 1u << VARIANT_TOPO, true},
    [PARAM_PRESORT] = {"presort", CLIRR_PARAM_CHOICE, "none", 0, 0, CLIRR_PRESORT_HELP, clirr_presort_names,
                       1u << VARIANT_TOPO},
    [PARAM_WORKER] = {"worker", CLIRR_PARAM_CHOICE, "auto", 0, 0, SSSP_REGIONS_WORKER_HELP, sssp_regions_worker_names,
                      1u << VARIANT_REGIONS},
    [PARAM_RANGES] = {"ranges", CLIRR_PARAM_UINT, "0", 0, 4294967295.0, SSSP_REGIONS_RANGES_HELP, NULL,
                      1u << VARIANT_REGIONS},
};

static void sssp_extras(void *state, const void *result, clirr_extras *x)
{
    (void)result;
    const sssp_session *s = state;
    if (s->bits_round) {
        clirr_extras_add(x, "bitmap_rounds", CLIRR_EXTRA_UINT)->u = s->bits_rounds;
        clirr_extras_add(x, "delta", CLIRR_EXTRA_UINT)->u = s->bits_delta;
    }
    if (s->regions.kernel)
        sssp_regions_extras(&s->regions, x);
    if (s->donate) {
        clirr_extras_add(x, "donations", CLIRR_EXTRA_UINT)->u = s->donated;
        clirr_extras_add(x, "donations_group0", CLIRR_EXTRA_UINT)->u = s->donated_g0;
    }
    if (s->split) {
        clirr_extras_add(x, "phases", CLIRR_EXTRA_UINT)->u = s->phases;
        clirr_extras_add(x, "phases_local", CLIRR_EXTRA_UINT)->u = s->phases_local;
        clirr_extras_add(x, "delta", CLIRR_EXTRA_UINT)->u = s->delta;
    }
    if (!s->have_sweep_nl)
        return;
    clirr_extras_add(x, "topology_sweeps", CLIRR_EXTRA_UINT)->u = s->hybrid.topo_rounds;
    clirr_extras_add(x, "switches", CLIRR_EXTRA_UINT)->u = s->hybrid.switches;
    clirr_extras_add(x, "hybrid_min", CLIRR_EXTRA_UINT)->u = s->hybrid.min;
}

static const clirr_variant_desc sssp_variants[] = {
    {"topo", "every reached vertex relaxes its arcs every round, a changed flag (Bellman-Ford)", false, false},
    {"data", "a worklist of the vertices whose distance improved", true, false},
    {"nearfar", "the data-driven worklist below a split that moves up by delta; farther vertices wait in a pile", true, false},
    {"hybrid", "temporal hybrid: data-driven rounds while the worklist holds fewer than --hybrid F of the "
               "vertices, topology-driven sweeps (atomic_min, marking what they lower) while it holds more",
     true, false},
    {"bits", "data-driven, the worklist a bitmap while it is large (CPUs): a work-item relaxes the vertices of "
             "a contiguous range of 32-vertex words and sets the bits of what it lowers (no compaction a round)",
     true, false},
    {"regions", "every vertex range is settled by a worker of its own (--worker: on CPUs a work-item, in "
                "buckets of the bound; on GPUs a work-group in rounds), under a bound that moves up by delta a "
                "launch; what it lowers elsewhere waits for that range's worker, or the next launch",
     false, false},
    {"auto", "regions for graphs of bounded degree (roads, grids) from 2^16 vertices on CPU devices, 2^18 "
             "elsewhere, and on CPU devices for weighted graphs with hubs from 2^16 vertices; nearfar for smaller "
             "ones of bounded degree; else bits on CPU devices, else data", true, false},
};

/* auto: on CPUs, near-far for graphs of at most 8 neighbours a vertex
 * (roads and grids: many shallow rounds, where near-far's phases stay in
 * one work-group and each vertex settles about once), else bits, where a
 * core relaxing its own range of the bitmap in vertex order, with no
 * compaction a round, beat the worklist rounds (PoCL on the H100
 * machine's 16-core Xeon, GAPBS's kron scale 22: 104.6 against data's
 * 375.8 ms end to end; its uniform graph, 2^23: 228.5 against 363.6;
 * tests/bench/RESULTS.md, "PoCL against GAPBS, CPU paths"). Near-far
 * against bits on the 2-core development machine, end to end: PoCL
 * luxembourg_osm 7.2 against 13.7 ms, a 512 x 512 grid 35.7 against
 * 194.2; Intel's CPU runtime 12.7 against 27.8 and 50.9 against 116.1;
 * on rmat 18 and a uniform graph of 2^18 vertices near-far lost 1.1-3.2x
 * ("Near-far on CPUs for roads and grids"). GPUs take near-far on the
 * same graphs, data elsewhere: on an H200, a 2048 x 2048 grid (weights
 * 1-100) took 114.6 ms end to end against data's 260.4, luxembourg_osm
 * 7.9 against 11.8, while a uniform graph of 2^23 vertices took 10.7
 * against 9.6 and kron scale 22 the same (tests/bench/RESULTS.md,
 * "On an H200 and its Xeon", near-far as auto on GPUs). */
/* Graphs regions suits (sssp_regions_suits) take it on every device. On
 * CPUs one core runs near-far's one-work-group rounds, where every core
 * settles ranges in regions. PoCL on the H200 machine's 16-core Xeon, a
 * 2048 x 2048 grid (weights 1-100): 134.6 ms end to end against near-far's 671.5
 * (af74754), 132.0-171.5 against 824.7 with the seeding fix (GAPBS
 * `sssp` 50.7-56.6); but luxembourg_osm (114,599 vertices, 1-255):
 * 11.3-11.7 at its best delta against 7.6-8.7 (its launches, about 40 us
 * each, outweighed the work). Since work-items settle flagged ranges again
 * inside a launch, with fewer, larger ranges and a wider bound on thin
 * graphs, regions took luxembourg_osm in 3.0 against near-far's 7.2-8.2
 * and a 256 x 256 grid in 3.7 against 6.3 ms compute (GAPBS 2.75-2.90
 * and 1.40; tests/bench/RESULTS.md, "Regions' work-items settle flagged
 * ranges again"): on CPUs from 2^16 vertices. On the 2-core machine
 * regions had won from a 512 x 512 grid (2^18 vertices) up, on PoCL (28.2
 * against 37.3 ms) and Intel's runtime (28.0 against 53.9);
 * tests/bench/RESULTS.md, "SSSP regions". GPUs take it too since a work-group's round shares an
 * entry's arcs among its work-items: H200, grids (weights 1-100) of
 * 2048 x 2048, 1024 x 1024 and 512 x 512, 38.0, 15.5 and 6.9 ms compute
 * against near-far's 70.5, 39.8 and 21.9 (before that, 80.0 against
 * 74.8); tests/bench/RESULTS.md, "A cheaper round for regions on GPUs".
 * On CPUs weighted graphs with hubs take regions too, under a narrow
 * bound (sssp_regions_suits_hubs; the figures at REGIONS_HUB_SKEW in
 * host/algo/sssp_regions.c). */
#define BOUNDED_DEGREE 8
static unsigned sssp_choose(const clirr_input *in, const clirr_caps *caps, const char **reason)
{
    const clirr_graph *g = clirr_input_graph(in);
    if (sssp_regions_suits(g, caps->is_cpu)) {
        *reason = caps->is_cpu ? "auto: regions, a graph of at most 8 neighbours a vertex and 2^16 vertices or "
                                 "more (every core settles range after range; measured on PoCL and Intel's CPU "
                                 "runtime)"
                               : "auto: regions, a graph of at most 8 neighbours a vertex and 2^18 vertices or "
                                 "more (every compute unit settles its own range; measured on an H200)";
        return VARIANT_REGIONS;
    }
    if (caps->is_cpu && sssp_regions_suits_hubs(g)) {
        *reason = "auto: regions, a weighted graph with hubs (the largest out-degree at least 32 times the mean) "
                  "of 2^16 vertices or more on a CPU device (every core settles range after range under a bound "
                  "of four mean weights over the mean out-degree; measured on PoCL and Intel's CPU runtime)";
        return VARIANT_REGIONS;
    }
    if (clirr_graph_bounded_degree(g, BOUNDED_DEGREE)) {
        *reason = caps->is_cpu ? "auto: nearfar, a graph of at most 8 neighbours a vertex (measured on PoCL and "
                                 "Intel's CPU runtime)"
                               : "auto: nearfar, a graph of at most 8 neighbours a vertex (measured on an H200)";
        return VARIANT_NEARFAR;
    }
    *reason = caps->is_cpu ? "auto: bits, a CPU device (the wide rounds' worklist as a bitmap over contiguous "
                             "ranges; measured on PoCL)"
                           : "auto: data, not a CPU device (measured on an H100)";
    return caps->is_cpu ? VARIANT_BITS : VARIANT_DATA;
}

const clirr_algo clirr_algo_sssp = {
    .name = "sssp",
    .summary = "single-source shortest paths: distance of every vertex from a source over "
               "non-negative weights (inf = unreached)",
    .study = "shared/papers/000 (data-driven vs topology-driven)",
    .input = CLIRR_INPUT_GRAPH,
    .variants = sssp_variants,
    .nvariants = sizeof sssp_variants / sizeof sssp_variants[0],
    .params = sssp_params,
    .nparams = sizeof sssp_params / sizeof sssp_params[0],
    .default_variant = VARIANT_AUTO,
    .choose_variant = sssp_choose,
    .sources = CLIRR_SOURCES_ONE,
    /* No degree layout under --reorder auto: on kron 20 (PoCL and Intel's
     * CPU runtime, 2 cores) bits ran no faster on it (tests/bench/RESULTS.md,
     * "Degree layout on CPUs"), and the relabelling costs prepare time. */
    .value_size = sizeof(uint32_t),
    .prepare = sssp_prepare,
    .run = sssp_run,
    .release = sssp_release,
    .summarize = sssp_summarize,
    .reference = sssp_reference,
    .verify = sssp_verify,
    .write_value = sssp_write,
    .write_outputs = sssp_write_outputs,
    .extras = sssp_extras,
};

int clirr_sssp(clirr_ctx *ctx, const clirr_graph *g, uint32_t source, uint32_t *dist,
               clirr_stats *stats, clirr_error *err)
{
    return clirr_run_typed(ctx, "sssp", g, source, dist, stats, err);
}
