/* host/algo/sssp_regions.c - SSSP's `regions` variant.
 *
 * A road network's near-far rounds are many and narrow (luxembourg_osm:
 * 1,617), so they run in one work-group, on one core of a CPU. Here every
 * core works at once without waiting for another: the vertices are cut
 * into ranges (regions), and in each launch a work-item a core settles
 * the pending vertices of range after range, in its queue's buckets, each
 * first in first out, but only those nearer than a bound, the least
 * pending distance plus delta, which the host moves up launch by launch.
 * A vertex lowered in another range under the bound flags that range,
 * which is settled again within the launch; one at or past the bound
 * waits in a bitmap for the next launch. The bound keeps a range from
 * settling far vertices on distances that another range will still
 * lower: simulated on luxembourg_osm (weights 1-255, 16 ranges), no bound
 * relaxes 11x the arcs Dijkstra does; a bound of 16 mean arc weights
 * 1.10x in 138 launches.
 *
 * On a GPU one work-item a range is far too slow; there a work-group takes
 * a range and settles it in rounds inside the bound, its queue in local
 * memory, and a front crosses into a range whose work-group still runs
 * within the same launch (cl/sssp.cl sssp_region_group). */
#include "algo/sssp_regions.h"

#include "algo/run.h"
#include "cl/sssp.def"
#include "prim/prim.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

CLIRR_KARGS_STRUCT(sssp_region_args, SSSP_REGION_ARGS);
CLIRR_KARGS_STRUCT(sssp_region_group_args, SSSP_REGION_GROUP_ARGS);
/* Both kernels take their shared arguments at the same places, so one
 * binding serves both (they differ after cur). */
_Static_assert(CLIRR_KARG(sssp_region_args, pend) == CLIRR_KARG(sssp_region_group_args, pend) &&
                   CLIRR_KARG(sssp_region_args, flags) == CLIRR_KARG(sssp_region_group_args, flags) &&
                   CLIRR_KARG(sssp_region_args, bounds) == CLIRR_KARG(sssp_region_group_args, bounds) &&
                   CLIRR_KARG(sssp_region_args, cur) == CLIRR_KARG(sssp_region_group_args, cur),
               "sssp_region and sssp_region_group: shared arguments at the same places");

/* Ranges for work-items, which draw them as they come free: a range of
 * at least REGION_VERTICES vertices, at least one a compute unit and at
 * most REGIONS_PER_UNIT. Enough that the cores balance ranges of uneven
 * work, few enough that a range's queue settles a front's stretch at once
 * and hands on little. PoCL 5 on the H200 machine's 16 cores, weights
 * 1-100 (1-255 on luxembourg_osm), a queue of one ring (before its
 * buckets, cl/sssp.cl), ms compute at the best delta
 * (tests/bench/RESULTS.md, "Regions' work-items settle flagged ranges
 * again"): the 2048 x 2048 grid 58.9 at 128 ranges against 64.5 at 64,
 * 81.1 at 256; 1024 x 1024 17.8 at 64 against 21.7 at 32 and 20.9 at
 * 128; 512 x 512 6.5 at 32 against 7.1 at 16 and 7.7 at 64; 256 x 256
 * 3.7 at 16 against 4.4 at 8 and 4.5 at 32; luxembourg_osm 3.0 at 16
 * against 3.2 at 32 and 3.7 at 64. */
#define REGIONS_PER_UNIT 8
#define REGION_VERTICES 8192
/* The group form: as many ranges as a front is wide over a few rounds,
 * about the square root of the vertices (a grid's side) over 32 when
 * every arc is 1 and over 8 when weighted (a weighted launch settles
 * fewer hops), at most two work-groups a compute unit (all of them
 * resident at once, so that fronts cross between running ranges), of 256
 * work-items. H200, grids of 2048, 1024 and 512 squared (weights 1-100
 * for SSSP), ms compute at the best delta: BFS 14.1, 5.8 and 2.9 at 66,
 * 33 and 16 ranges against 15.1, 8.0 and 4.1 at 132, 132 and 66; SSSP
 * 36.9, 15.2 and 6.8-7.3 at 264, 132 and 33-66 against 40.0, 21.6 and
 * 8.5 at 132, 16 and 8; 256 work-items against 128 (2048 x 2048, 132
 * ranges), BFS 15.8 against 17.3, SSSP 40.8 against 58.6
 * (tests/bench/RESULTS.md, "A cheaper round for regions on GPUs"). */
#define GROUPS_PER_UNIT 2
#define GROUP_WG 256
/* The group form's queue: at most this many pairs, each of two queues. */
#define GROUP_QCAP 2048
/* A box of hand-ons: this part of a queue (a round on a 2048 x 2048
 * grid hands on a few pairs; a full box hands on at once). */
#define GROUP_BOX_PART 4
/* At most this many work-items share an entry's arcs: the bounded-degree
 * graphs regions suits have at most 8 an entry. */
#define GROUP_MAX_LANES 8
/* Launches queued between two reads of the counts: a read is a round trip
 * the queued launches skip; once the run is over, the rest of a batch
 * returns at once. */
#define BATCH 8
/* A launch's words in info: count, least distance, tickets (cl/sssp.def). */
#define INFO_WORDS 3
#define NONE CLIRR_SSSP_INF

const char *const sssp_regions_worker_names[] = {"auto", "item", "group", NULL};

uint32_t sssp_weights_delta(const clirr_graph *g, double weights)
{
    if (!g->weight || g->m == 0)
        return NONE;
    double sum = 0;
    for (uint64_t e = 0; e < g->m; e++)
        sum += g->weight[e];
    double d = weights * sum / (double)g->m;
    return d < 1 ? 1 : d > 1e9 ? 1000000000u : (uint32_t)d;
}

/* The auto delta, in mean arc weights, or hops when every arc is 1.
 * Work-items: 128 hops; 32 mean weights, but 128 on thin graphs (fewer
 * than THIN_DEGREE arcs a vertex: roads), whose shortest paths have few
 * other ways to lower them, so that a wide bound costs few repeated
 * relaxations, and whose fronts hold few vertices a launch. PoCL 5, 16
 * cores, a queue of one ring (before its buckets; with 16 they kept 32
 * mean weights best on the grids), ms compute at the best ranges (tests/bench/RESULTS.md, "Regions'
 * work-items settle flagged ranges again"): luxembourg_osm (2.09 arcs a
 * vertex, weights 1-255) 3.0 at 128 against 3.4 at 256, 4.4 at 64 and
 * 6.6 at 32; grids (4 arcs a vertex, weights 1-100) of 2048, 1024 and
 * 512 squared 58.5-58.9 at 16-32 against 81.0 at 64, 17.8 at 32 against
 * 24.1 at 64, 6.5 at 32 against 8.4 at 64; BFS, the 2048 x 2048 grid
 * 15.3-16.0 at 128-256 hops against 21.4-22.3 at 64 and 17.2 at 512,
 * luxembourg_osm 2.9 at 128 against 4.7 at 512. Work-groups run
 * Bellman-Ford rounds under the bound, so a weighted bound costs them
 * more rounds than hops do: 10 mean weights, 64 hops (H200, grids of
 * 2048, 1024 and 512 squared at their best ranges: BFS 14.1, 5.8 and 2.9
 * ms compute at 64 against 17.7, 7.0 and 3.3 at 32; SSSP (weights 1-100)
 * 36.9, 15.2 and 6.8 at 500 against 38.3, 15.4 and 7.5 at 400 and 38.8,
 * -, - at 600). */
#define THIN_DEGREE 3
/* Graphs with hubs (the largest out-degree at least this times the mean,
 * BFS's test for direction-optimizing, and not of bounded degree, whose
 * rule is the one below) take a narrow bound: four mean weights over the
 * mean out-degree, delta-stepping's width of about the weight range over
 * the degree. PoCL 5 on the H200 machine's 16 cores, GAPBS's kron 22
 * (mean out-degree 8, weights 1-255), ms compute over four rounds of two
 * calls: 84.8-92.0 at 64 (this rule) against 91.4-99.9 at 48, 108-123 at
 * 32, 125.7-166.3 at 96, 139-151 at 128, and `bits` 103.6-109.6. The
 * 2-core machine's kron 20 (mean out-degree 16: the rule gives 32), two
 * rounds: 187.6 and 218.5 against `bits`' 198.1 and 240.0 on Intel's CPU
 * runtime, 226.6 and 197.0 against 220.5 and 187.4 on PoCL
 * (tests/bench/RESULTS.md, "Scores in the contributions; regions' delta
 * on kron and urand" and "One-sided fences"). */
#define REGIONS_HUB_SKEW 32
static bool has_hubs(const clirr_graph *g)
{
    return clirr_graph_has_hubs(g, REGIONS_HUB_SKEW) && !clirr_graph_bounded_degree(g, 8);
}

static uint32_t auto_delta(const clirr_graph *g, sssp_regions_worker worker, bool unit_weights)
{
    bool group = worker == SSSP_REGIONS_GROUP;
    if (unit_weights || !g->weight)
        return group ? 64 : 128;
    if (!group && has_hubs(g))
        return sssp_weights_delta(g, 4.0 * (double)g->n / (double)g->m);
    bool thin = g->m < (uint64_t)THIN_DEGREE * g->n;
    return sssp_weights_delta(g, group ? 10 : thin ? 128 : 32);
}

void sssp_regions_release(sssp_regions *r)
{
    clirr_mem_release(&r->flags);
    clirr_mem_release(&r->order);
    clirr_mem_release(&r->pend);
    clirr_mem_release(&r->fifo);
    clirr_mem_release(&r->bounds);
    clirr_mem_release(&r->info);
}

/* The arguments both kernels take (all but prev, cur and what follows). */
static int bind_shared(sssp_regions *r, const clirr_dgraph *dg, cl_mem dist, cl_mem status, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = r->kernel;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, row), dg->row));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, col), dg->col));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, weight), dg->weight));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, dist), dist));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, status), status));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, info), r->info));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, pend), r->pend));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, flags), r->flags));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, bounds), r->bounds));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, nregions), r->nregions));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_args, delta), r->delta));
fail:
    return rc;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Work-items that draw ranges: one a compute unit, each taking the next
 * ticket as it comes free; ticket t is range t * stride mod ranges, the
 * stride about the ranges over the units and coprime to them, so that the
 * ranges in work at once lie far apart (PoCL 5 on the H200 machine's 16
 * cores, the 2048 x 2048 grid, weights 1-100, 256 ranges, two rounds:
 * SSSP 77.3-83.3 ms compute against 108.2-115.9 for a work-item a range
 * in vertex order, 93.2-95.2 for tickets in vertex order; BFS 57.7-61.7
 * against 55.4-68.6; 2 or 4 work-items a unit no faster). Each
 * work-item has its queue, twice the largest range's vertices and 32 more
 * pairs (two may settle one range at once: cl/sssp.cl sssp_region). */
static int prepare_item(sssp_regions *r, clirr_ctx *ctx, cl_program prog, const uint32_t *bounds,
                        const clirr_dgraph *dg, cl_mem dist, cl_mem status, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t units = clirr_ctx_caps(ctx)->compute_units, ranges = r->nregions;
    uint32_t stride = units > 1 && ranges / units > 1 ? ranges / units : 1;
    while (gcd(stride, ranges) != 1)
        stride++;
    uint32_t *order = malloc((size_t)ranges * sizeof *order);
    if (!order)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    for (uint32_t t = 0; t < ranges; t++)
        order[t] = (uint32_t)((uint64_t)t * stride % ranges);
    r->items = units < ranges ? units : ranges;
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "sssp_region", CLIRR_KNARGS(sssp_region_args), &r->kernel, err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP regions' order", (size_t)ranges * sizeof *order, &r->order, err));
    CLIRR_TRY(clirr_buf_write(ctx, r->order, 0, (size_t)ranges * sizeof *order, order, err));
    uint32_t widest = 0;
    for (uint32_t i = 0; i < ranges; i++)
        if (bounds[i + 1] - bounds[i] > widest)
            widest = bounds[i + 1] - bounds[i];
    uint64_t pairs = 2 * (uint64_t)widest + 32;
    cl_uint qcap = pairs > UINT32_MAX ? UINT32_MAX : (cl_uint)pairs;
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP regions' queues", r->items * qcap * 2 * sizeof(uint32_t), &r->fifo, err));
    CLIRR_TRY(bind_shared(r, dg, dist, status, err));
    CLIRR_TRY(CLIRR_ARG(r->kernel, CLIRR_KARG(sssp_region_args, fifo), r->fifo));
    CLIRR_TRY(CLIRR_ARG(r->kernel, CLIRR_KARG(sssp_region_args, qcap), qcap));
    CLIRR_TRY(CLIRR_ARG(r->kernel, CLIRR_KARG(sssp_region_args, order), r->order));
fail:
    free(order);
    return rc;
}

static uint64_t item_ranges(uint32_t n, uint32_t units)
{
    uint64_t want = n / REGION_VERTICES, least = units, most = (uint64_t)units * REGIONS_PER_UNIT;
    return want < least ? least : want > most ? most : want;
}

static uint64_t group_ranges(uint32_t n, bool unit_weights, uint32_t units)
{
    uint64_t want = (uint64_t)(sqrt((double)n) / (unit_weights ? 32 : 8));
    uint64_t most = (uint64_t)units * GROUPS_PER_UNIT;
    return want < 1 ? 1 : want > most ? most : want;
}

/* A work-group a range: in local memory its queues and its boxes of
 * hand-ons (a box a quarter of a queue), as many pairs as the device's
 * local memory holds, up to GROUP_QCAP a queue (the ranges' flag words
 * serve both workers: sssp_regions_prepare). */
static int prepare_group(sssp_regions *r, clirr_ctx *ctx, cl_program prog, const clirr_graph *g,
                         const clirr_dgraph *dg, cl_mem dist, cl_mem status, size_t wg, clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_caps *caps = clirr_ctx_caps(ctx);
    CLIRR_TRY(clirr_kernel_get_checked(ctx, prog, "sssp_region_group", CLIRR_KNARGS(sssp_region_group_args),
                                       &r->kernel, err));
    r->wg = clirr_wg_size(ctx, r->kernel, wg ? wg : GROUP_WG);
    const size_t pair = 2 * sizeof(cl_uint);
    uint64_t pairs = caps->local_mem > 256 ? (caps->local_mem - 256) / (2 * pair + 2 * pair / GROUP_BOX_PART) : 0;
    cl_uint qcap = (cl_uint)(pairs < GROUP_QCAP ? pairs : GROUP_QCAP), bcap = qcap / GROUP_BOX_PART;
    if (qcap < r->wg)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "SSSP regions in work-groups: %s has %llu bytes of local memory, too little for queues "
                          "of %zu entries (use --worker item)",
                          caps->name, (unsigned long long)caps->local_mem, r->wg);
    CLIRR_TRY(bind_shared(r, dg, dist, status, err));
    cl_kernel k = r->kernel;
    CLIRR_TRY(clirr_arg(k, CLIRR_KARG(sssp_region_group_args, queue), 2 * (size_t)qcap * pair, NULL, err));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_group_args, qcap), qcap));
    CLIRR_TRY(clirr_arg(k, CLIRR_KARG(sssp_region_group_args, box), 2 * (size_t)bcap * pair, NULL, err));
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_group_args, bcap), bcap));
    cl_uint lanes = 1, most = clirr_graph_max_degree(g);
    while (lanes < GROUP_MAX_LANES && lanes < r->wg && lanes < most)
        lanes *= 2;
    CLIRR_TRY(CLIRR_ARG(k, CLIRR_KARG(sssp_region_group_args, lanes), lanes));
fail:
    return rc;
}

int sssp_regions_prepare(sssp_regions *r, clirr_ctx *ctx, const clirr_graph *g, const clirr_dgraph *dg,
                         cl_mem dist, cl_mem status, bool unit_weights, uint32_t delta,
                         sssp_regions_worker worker, size_t wg, uint32_t ranges, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    const clirr_caps *caps = clirr_ctx_caps(ctx);
    uint32_t words = g->n / 32 + 1;
    r->worker = worker != SSSP_REGIONS_AUTO ? worker : caps->is_cpu ? SSSP_REGIONS_ITEM : SSSP_REGIONS_GROUP;
    bool group = r->worker == SSSP_REGIONS_GROUP;
    uint64_t want = ranges ? ranges
                    : group ? group_ranges(g->n, unit_weights, caps->compute_units)
                            : item_ranges(g->n, caps->compute_units);
    r->ctx = ctx;
    r->n = g->n;
    r->delta = delta ? delta : auto_delta(g, r->worker, unit_weights);
    r->nregions = (uint32_t)(want < 1 ? 1 : want > words ? words : want);
    uint32_t *bounds = malloc(((size_t)r->nregions + 1) * sizeof *bounds);
    if (!bounds)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    clirr_run_vertex_ranges(g, r->nregions, 32, bounds);
    CLIRR_TRY(clirr_program_get(ctx, "sssp.cl", unit_weights ? "-DCLIRR_UNIT_WEIGHTS" : "", &prog, err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP regions' pending bitmap", (size_t)words * sizeof(uint32_t), &r->pend, err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP regions' bounds", ((size_t)r->nregions + 1) * sizeof *bounds, &r->bounds,
                               err));
    CLIRR_TRY(clirr_buf_write(ctx, r->bounds, 0, ((size_t)r->nregions + 1) * sizeof *bounds, bounds, err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP regions' counts", INFO_WORDS * (BATCH + 1) * sizeof(uint32_t), &r->info,
                               err));
    CLIRR_TRY(clirr_buf_create(ctx, "SSSP regions' flags", (size_t)r->nregions * sizeof(uint32_t), &r->flags, err));
    if (group)
        CLIRR_TRY(prepare_group(r, ctx, prog, g, dg, dist, status, wg, err));
    else
        CLIRR_TRY(prepare_item(r, ctx, prog, bounds, dg, dist, status, err));
fail:
    free(bounds);
    return rc;
}

bool sssp_regions_suits(const clirr_graph *g, bool cpu)
{
    return g->n >= (cpu ? 1u << 16 : 1u << 18) && clirr_graph_bounded_degree(g, 8);
}

bool sssp_regions_suits_hubs(const clirr_graph *g)
{
    return g->weight && g->n >= 1u << 16 && has_hubs(g);
}

void sssp_regions_extras(const sssp_regions *r, clirr_extras *x)
{
    clirr_extras_add(x, "regions", CLIRR_EXTRA_UINT)->u = r->nregions;
    clirr_extras_add(x, "worker", CLIRR_EXTRA_TEXT)->text = sssp_regions_worker_names[r->worker];
    clirr_extras_add(x, "delta", CLIRR_EXTRA_UINT)->u = r->delta;
}

int sssp_regions_run(sssp_regions *r, uint32_t source, clirr_trace *trace, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t words = r->n / 32 + 1;
    /* A trace has a row a launch: batches of one. */
    const int batch = trace ? 1 : BATCH;
    /* info[0..1]: what the batch before left (first: the source, at 0). */
    uint32_t info[INFO_WORDS * (BATCH + 1)] = {1, 0};
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->pend, 0, words, 0, err));
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->pend, source / 32, 1, 1u << (source % 32), err));
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->flags, 0, r->nregions, 0, err));
    r->launches = 0;
    while (info[0] > 0) {
        clirr_trace_round row = {"regions", info[0], 0, 0, 0, "-", 0, 0, 0};
        clirr_trace_mark m;
        if (trace)
            CLIRR_TRY(clirr_trace_begin(r->ctx, &m, err));
        for (int i = 1; i <= batch; i++) {
            info[INFO_WORDS * i] = 0;
            info[INFO_WORDS * i + 1] = NONE;
            info[INFO_WORDS * i + 2] = 0;
        }
        CLIRR_TRY(clirr_buf_write(r->ctx, r->info, 0, INFO_WORDS * ((size_t)batch + 1) * sizeof *info, info, err));
        for (cl_uint i = 1; i <= (cl_uint)batch; i++) {
            cl_uint prev = i - 1;
            CLIRR_TRY(CLIRR_ARG(r->kernel, CLIRR_KARG(sssp_region_args, prev), prev));
            CLIRR_TRY(CLIRR_ARG(r->kernel, CLIRR_KARG(sssp_region_args, cur), i));
            if (r->worker == SSSP_REGIONS_GROUP)
                CLIRR_TRY(clirr_launch(r->ctx, r->kernel, (size_t)r->nregions * r->wg, r->wg, err));
            else
                CLIRR_TRY(clirr_launch(r->ctx, r->kernel, r->items, 1, err));
        }
        CLIRR_TRY(clirr_buf_read(r->ctx, r->info, 0, INFO_WORDS * ((size_t)batch + 1) * sizeof *info, info, err));
        /* the launches that had work: those after a triple with a count */
        for (int i = 0; i < batch && info[INFO_WORDS * i] > 0; i++)
            r->launches++;
        info[0] = info[INFO_WORDS * batch];
        info[1] = info[INFO_WORDS * batch + 1];
        row.items_out = info[0];
        if (trace)
            CLIRR_TRY(clirr_trace_end(r->ctx, trace, &m, &row, err));
    }
fail:
    return rc;
}
