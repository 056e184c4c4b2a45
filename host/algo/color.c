/* host/algo/color.c - graph coloring on the device (kernels: cl/color.cl;
 * coloring study, shared/papers/004 (speculative greedy coloring)):
 * speculative greedy topology-driven (Algorithm 6: first-fit for every
 * uncolored vertex, then resolution with a final mask, until nothing
 * changes) or data-driven (Algorithm 7: a worklist of vertices to
 * (re)color, first-fit over it, resolution pushing the losers), with the
 * study's refinements as switches (heuristic, bitset, fuse), and
 * Jones-Plassmann with hash priorities. Every neighbour loop runs through
 * the plan's nested-loop template (and its coarsening). The graph is read
 * as undirected: the input's symmetric form, derived and uploaded once.
 * Colors are uint, 1, 2, ...; 0 = uncolored on the device only. */
#include "algo/input.h"
#include "algo/round.h"
#include "algo/run.h"
#include "cl/color.def"
#include "prim/prim.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

CLIRR_KARGS_STRUCT(color_ff_args, COLOR_FF_ARGS);
CLIRR_KARGS_STRUCT(color_resolve_topo_args, COLOR_RESOLVE_TOPO_ARGS);
CLIRR_KARGS_STRUCT(color_resolve_data_args, COLOR_RESOLVE_DATA_ARGS);
CLIRR_KARGS_STRUCT(color_jp_args, COLOR_JP_ARGS);

enum { VARIANT_TOPO, VARIANT_DATA, VARIANT_JP, VARIANT_AUTO };
enum { CHOICE_AUTO, CHOICE_ON, CHOICE_OFF }; /* sync and fuse */
enum { PARAM_HEURISTIC, PARAM_BITSET, PARAM_FUSE, PARAM_SYNC };
#define JP_CLASSES 8 /* 2 * NHASH of cl/color.cl: colors per round */
#define HUB_FACTOR 32 /* as bfs's auto: where hubs start to matter */
#define BOUNDED_DEGREE 8 /* neighbours: grids (4), road networks (luxembourg_osm: 6); the
                          * reason string in color_choose says 8 too */
#define LOCAL_SPAN 256   /* ids apart: the default work-group's span */
#define LOCAL_SHARE 4    /* local numbering: a quarter of the arcs within it */

typedef struct color_session {
    clirr_ctx *ctx;
    unsigned variant;
    cl_uint heuristic, bitset, fuse, sync; /* the refinements, as kernel flags */
    uint32_t n;
    const clirr_dgraph *dg;          /* the symmetric form, the input's */
    cl_mem color, final_, changed, counter;
    clirr_nl ff, resolve, jp;        /* first-fit and topo resolution; JP */
    clirr_round_loop rl;             /* data: resolution per push mode */
    clirr_worklist wl;               /* data */
    uint32_t conflicts[CLIRR_MAX_EXTRA_LIST]; /* the last trial's first rounds */
    uint32_t rounds;                 /* the last trial's */
} color_session;

static void color_release(void *state)
{
    color_session *s = state;
    clirr_nl_release(&s->ff);
    clirr_nl_release(&s->resolve);
    clirr_nl_release(&s->jp);
    clirr_round_loop_release(&s->rl);
    clirr_worklist_release(&s->wl);
    clirr_mem_release(&s->color);
    clirr_mem_release(&s->final_);
    clirr_mem_release(&s->changed);
    clirr_mem_release(&s->counter);
    free(s);
}

/* ---- which rounds suit the graph ------------------------------------------ */

/* Local numbering: at least 1 / LOCAL_SHARE of the arcs join vertices
 * fewer than LOCAL_SPAN ids apart, so neighbours are colored by the same
 * work-group at the same moment (luxembourg_osm: 89%, a grid: 50%, the
 * same graphs with shuffled ids: under 0.5%). */
static bool local_numbering(const clirr_graph *g)
{
    uint64_t near = 0;
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t i = g->row[u]; i < g->row[u + 1]; i++) {
            uint32_t v = g->col[i];
            near += (u > v ? u - v : v - u) < LOCAL_SPAN;
        }
    return near * LOCAL_SHARE >= g->m;
}

/* Where topo with synchronous rounds beats the data-driven worklist on a
 * GPU (tests/bench/RESULTS.md, coloring): graphs with hubs, where
 * synchronous rounds halve the colors, and graphs of bounded degree whose
 * neighbours have nearby ids (roads and grids as they come). There the
 * worklist colors neighbours in the same work-group at once, and its
 * conflict chains take 20-60 rounds of a launch and a read-back each;
 * synchronous rounds with hashed ties settle in 5-7 sweeps (H100:
 * luxembourg_osm 0.68 against 4.47 ms end to end, the 2048 x 2048 grid
 * 3.4-4.0 against 4.3). With the ids shuffled the worklist needs 3-5
 * rounds and wins (0.52 against 0.77 ms, 2.55 against 5.43 ms), so the
 * numbering counts. */
typedef enum { GPU_SHAPE_NONE, GPU_SHAPE_HUBS, GPU_SHAPE_BOUNDED } gpu_shape;

static gpu_shape topo_sync_shape(const clirr_graph *g, const clirr_caps *caps)
{
    if (!caps->is_gpu || !g)
        return GPU_SHAPE_NONE;
    if (clirr_graph_has_hubs(g, HUB_FACTOR))
        return GPU_SHAPE_HUBS;
    return clirr_graph_bounded_degree(g, BOUNDED_DEGREE) && local_numbering(g) ? GPU_SHAPE_BOUNDED : GPU_SHAPE_NONE;
}

/* ---- prepare ------------------------------------------------------------- */

/* The loops the variant runs: JP alone, or first-fit plus the variant's
 * resolution. */
static int build(color_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    CLIRR_TRY(clirr_program_get(s->ctx, "color.cl", "", &prog, err));
    /* Resolution and JP reduce a uint flag or mask per vertex; first-fit a
     * 64-bit forbidden set. */
    clirr_nl_config flag = clirr_plan_loop(plan, sizeof(cl_uint));
    clirr_nl_config mask64 = clirr_plan_loop(plan, sizeof(cl_ulong));
    if (s->variant == VARIANT_JP)
        return clirr_nl_init(&s->jp, s->ctx, prog, "color_jp", CLIRR_KNARGS(color_jp_args), s->n, &flag,
                             err);
    CLIRR_TRY(clirr_nl_init(&s->ff, s->ctx, prog, "color_ff", CLIRR_KNARGS(color_ff_args), s->n, &mask64,
                            err));
    if (s->variant == VARIANT_TOPO)
        return clirr_nl_init(&s->resolve, s->ctx, prog, "color_resolve_topo",
                             CLIRR_KNARGS(color_resolve_topo_args), s->n, &flag, err);
    const clirr_loop_spec resolve_data = {"color.cl", "", "color_resolve_data",
                                          CLIRR_KNARGS(color_resolve_data_args),
                                          CLIRR_KARG(color_resolve_data_args, wl_in), NULL, 0, 0, 0, false, plan->fixed_grid};
    CLIRR_TRY(clirr_round_loop_init(&s->rl, s->ctx, &resolve_data, s->n, plan->push, &flag, err));
    CLIRR_TRY(clirr_worklist_init(&s->wl, s->ctx, s->n, plan->wl_capacity, CLIRR_PUSH_COMPACT, err));
fail:
    return rc;
}

static int allocate(color_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t bytes = (size_t)s->n * sizeof(uint32_t);
    CLIRR_TRY(clirr_buf_create(s->ctx, "colors", bytes, &s->color, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "final colors", bytes, &s->final_, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "the changed flag", sizeof(cl_uint), &s->changed, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "the coloring counter", sizeof(cl_uint), &s->counter, err));
fail:
    return rc;
}

static int bind_jp(color_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *nl = &s->jp;
    CLIRR_TRY(CLIRR_NL_SET(nl, color_jp_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_jp_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_jp_args, color, s->color));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_jp_args, n, s->n));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_jp_args, remaining, s->counter));
fail:
    return rc;
}

/* First-fit's fixed arguments; its items are set per pass. */
static int bind_ff(color_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *nl = &s->ff;
    CLIRR_TRY(CLIRR_NL_SET(nl, color_ff_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_ff_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_ff_args, color, s->color));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_ff_args, bitset, s->bitset));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_ff_args, sync, s->sync));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_ff_args, changed, s->changed));
fail:
    return rc;
}

static int bind_resolve_topo(color_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *nl = &s->resolve;
    CLIRR_TRY(CLIRR_NL_SET(nl, color_resolve_topo_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_resolve_topo_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_resolve_topo_args, color, s->color));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_resolve_topo_args, final_, s->final_));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_resolve_topo_args, n, s->n));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_resolve_topo_args, heuristic, s->heuristic));
    CLIRR_TRY(CLIRR_NL_SET(nl, color_resolve_topo_args, conflicts, s->counter));
fail:
    return rc;
}

static int bind_resolve_data(color_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_round_loop *rl = &s->rl;
    CLIRR_TRY(CLIRR_ROUND_SET(rl, color_resolve_data_args, row, s->dg->row));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, color_resolve_data_args, col, s->dg->col));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, color_resolve_data_args, color, s->color));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, color_resolve_data_args, final_, s->final_));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, color_resolve_data_args, heuristic, s->heuristic));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, color_resolve_data_args, fused, s->fuse));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, color_resolve_data_args, bitset, s->bitset));
fail:
    return rc;
}

/* The arguments that stay the same in every round of every trial. */
static int bind(color_session *s, clirr_error *err)
{
    if (s->variant == VARIANT_JP)
        return bind_jp(s, err);
    int rc = bind_ff(s, err);
    if (rc != CLIRR_OK)
        return rc;
    return s->variant == VARIANT_TOPO ? bind_resolve_topo(s, err) : bind_resolve_data(s, err);
}

static int color_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                         clirr_error *err)
{
    int rc = CLIRR_OK;
    color_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->variant = plan->variant;
    s->heuristic = plan->params.v[PARAM_HEURISTIC].b;
    s->bitset = plan->params.v[PARAM_BITSET].b;
    /* sync auto: on a GPU with hubs, whose thousands of first-fits at once
     * see each other's undecided colors (kron: 172-221 colors against 96);
     * not on CPUs, which run nearly in order anyway, nor without hubs, where
     * the colors barely differ (uniform random: 9 against 7) but the extra
     * rounds cost (RESULTS.md, coloring). On a GPU and a graph of bounded
     * degree with local ids topo runs synchronous rounds too: hashed ties
     * settle the 2048 x 2048 grid's conflict chains in 7 rounds where ties
     * by id took 114 (H100: 1.5 against 11.6 ms of kernels). An asked-for
     * fuse (data) turns auto sync off; fuse auto is on where sync is off. */
    unsigned sync = plan->params.v[PARAM_SYNC].u, fuse = plan->params.v[PARAM_FUSE].u;
    gpu_shape shape = topo_sync_shape(clirr_input_graph(in), clirr_ctx_caps(ctx));
    bool auto_sync = shape == GPU_SHAPE_HUBS || (shape == GPU_SHAPE_BOUNDED && s->variant == VARIANT_TOPO);
    if (s->variant == VARIANT_DATA && sync == CHOICE_ON && fuse == CHOICE_ON) {
        rc = clirr_fail(err, CLIRR_ERR_USAGE,
                        "color --variant data: --fuse on recolors a loser at once from the colors it sees "
                        "then, which --sync on forbids; leave one of them off or auto");
        goto fail;
    }
    s->sync = sync == CHOICE_ON ||
              (sync == CHOICE_AUTO && auto_sync && !(s->variant == VARIANT_DATA && fuse == CHOICE_ON));
    s->fuse = fuse == CHOICE_ON || (fuse == CHOICE_AUTO && !s->sync);
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_SYMMETRIC, false, &s->dg, err));
    s->n = s->dg->n;
    CLIRR_TRY(build(s, plan, err));
    CLIRR_TRY(allocate(s, err));
    CLIRR_TRY(bind(s, err));
    *out = s;
    return CLIRR_OK;
fail:
    color_release(s);
    return rc;
}

/* ---- run ----------------------------------------------------------------- */

/* A uint on the device set to value, or read back. */
static int set_u32(color_session *s, cl_mem buf, uint32_t value, clirr_error *err)
{
    return clirr_buf_write(s->ctx, buf, 0, sizeof value, &value, err);
}

static int get_u32(color_session *s, cl_mem buf, uint32_t *value, clirr_error *err)
{
    return clirr_buf_read(s->ctx, buf, 0, sizeof *value, value, err);
}

/* Conflicts of the round being counted, kept for the first rounds. */
static void record_conflicts(color_session *s, const clirr_stats *stats, uint32_t conflicts)
{
    if (stats->iterations < CLIRR_MAX_EXTRA_LIST)
        s->conflicts[stats->iterations] = conflicts;
}

/* One first-fit pass over items[0..n) or, with items NULL, over every
 * uncolored vertex of the n. */
static int first_fit(color_session *s, cl_mem items, uint32_t n, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_uint use = items != NULL;
    cl_mem list = items ? items : s->color; /* unread when !use */
    CLIRR_TRY(CLIRR_NL_SET(&s->ff, color_ff_args, items, list));
    CLIRR_TRY(CLIRR_NL_SET(&s->ff, color_ff_args, nitems, n));
    CLIRR_TRY(CLIRR_NL_SET(&s->ff, color_ff_args, use_items, use));
    CLIRR_TRY(clirr_nl_run(&s->ff, n, err));
fail:
    return rc;
}

/* Algorithm 6: first-fit and resolution over every vertex until a round
 * colors nothing (that last round is not counted). */
static int run_topo(color_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (;;) {
        uint32_t changed = 0, conflicts = 0;
        CLIRR_TRY(set_u32(s, s->changed, 0, err));
        CLIRR_TRY(set_u32(s, s->counter, 0, err));
        CLIRR_TRY(first_fit(s, NULL, s->n, err));
        CLIRR_TRY(clirr_nl_run(&s->resolve, s->n, err));
        CLIRR_TRY(get_u32(s, s->changed, &changed, err));
        if (!changed)
            break;
        CLIRR_TRY(get_u32(s, s->counter, &conflicts, err));
        record_conflicts(s, stats, conflicts);
        stats->iterations++;
    }
fail:
    return rc;
}

/* Algorithm 7: the vertices to (re)color as a worklist, until it is empty;
 * a round's conflicts are the losers it pushed. */
static int run_data(color_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_worklist *wl = &s->wl;
    CLIRR_TRY(clirr_worklist_reset(wl, NULL, s->n, err));
    /* Fused rounds recolor their own losers; the first first-fit is then
     * the only separate one. */
    if (s->fuse)
        CLIRR_TRY(first_fit(s, wl->items[wl->cur], wl->size, err));
    while (clirr_worklist_size(wl) > 0) {
        if (!s->fuse)
            CLIRR_TRY(first_fit(s, wl->items[wl->cur], wl->size, err));
        CLIRR_TRY(clirr_round_loop_run(&s->rl, wl, err));
        record_conflicts(s, stats, clirr_worklist_size(wl));
        stats->iterations++;
    }
    clirr_run_worklist_stats(wl, stats);
fail:
    return rc;
}

/* Jones-Plassmann: each round colors the local extremes of every hash
 * among the uncolored vertices with the round's JP_CLASSES new colors. */
static int run_jp(color_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (cl_uint base = 0;; base += JP_CLASSES) {
        uint32_t remaining = 0;
        CLIRR_TRY(set_u32(s, s->counter, 0, err));
        CLIRR_TRY(CLIRR_NL_SET(&s->jp, color_jp_args, base, base));
        CLIRR_TRY(clirr_nl_run(&s->jp, s->n, err));
        CLIRR_TRY(get_u32(s, s->counter, &remaining, err));
        record_conflicts(s, stats, 0);
        stats->iterations++;
        if (remaining == 0)
            break;
        if (base > UINT32_MAX - 2 * JP_CLASSES) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "jp: ran out of 32-bit colors");
            goto fail;
        }
    }
fail:
    return rc;
}

/* Children enqueued by this trial over every loop. */
static int trial_child_launches(color_session *s, uint64_t *count, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint64_t ff = 0, resolve = 0, jp = 0, rounds = 0;
    CLIRR_TRY(clirr_nl_child_launches(&s->ff, &ff, err));
    CLIRR_TRY(clirr_nl_child_launches(&s->resolve, &resolve, err));
    CLIRR_TRY(clirr_nl_child_launches(&s->jp, &jp, err));
    CLIRR_TRY(clirr_round_loop_child_launches(&s->rl, &rounds, err));
    *count = ff + resolve + jp + rounds;
fail:
    return rc;
}

static int color_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    color_session *s = state;
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->color, 0, s->n, 0, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->final_, 0, s->n, 0, err));
    if (s->variant == VARIANT_TOPO)
        CLIRR_TRY(run_topo(s, stats, err));
    else if (s->variant == VARIANT_DATA)
        CLIRR_TRY(run_data(s, stats, err));
    else
        CLIRR_TRY(run_jp(s, stats, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->color, 0, (size_t)s->n * sizeof(uint32_t), result, err));
    s->rounds = stats->iterations;
    stats->reached = s->n;
    stats->edges_traversed = s->dg->m;
    CLIRR_TRY(trial_child_launches(s, &stats->child_launches, err));
fail:
    return rc;
}

/* ---- results --------------------------------------------------------------- */

/* Distinct colors in color[0..n). */
static uint32_t color_count(uint32_t n, const uint32_t *color)
{
    uint32_t maxc = 0, count = 0;
    for (uint32_t v = 0; v < n; v++)
        maxc = color[v] > maxc ? color[v] : maxc;
    bool *used = calloc((size_t)maxc + 1, sizeof *used);
    if (!used)
        return maxc; /* an upper bound, when memory is short */
    for (uint32_t v = 0; v < n; v++)
        if (!used[color[v]]) {
            used[color[v]] = true;
            count++;
        }
    free(used);
    return count;
}

static void color_extras(void *state, const void *result, clirr_extras *x)
{
    const color_session *s = state;
    clirr_extra *e = clirr_extras_add(x, "colors", CLIRR_EXTRA_UINT);
    e->u = color_count(s->n, result);
    e->in_table = true;
    e = clirr_extras_add(x, "conflicts_per_round", CLIRR_EXTRA_UINTS);
    e->nlist = s->rounds < CLIRR_MAX_EXTRA_LIST ? s->rounds : CLIRR_MAX_EXTRA_LIST;
    memcpy(e->list, s->conflicts, e->nlist * sizeof e->list[0]);
    clirr_extras_add(x, "heuristic", CLIRR_EXTRA_BOOL)->b = s->heuristic;
    clirr_extras_add(x, "bitset", CLIRR_EXTRA_BOOL)->b = s->bitset;
    clirr_extras_add(x, "fuse", CLIRR_EXTRA_BOOL)->b = s->fuse;
    clirr_extras_add(x, "sync", CLIRR_EXTRA_BOOL)->b = s->sync;
}

/* Serial greedy in natural order: the coloring the verifier counts
 * colors against. */
static int color_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    (void)plan;
    return clirr_ref_color(clirr_input_graph(in), false, out, err);
}

/* A proper coloring is right whatever its colors; how many it used next
 * to serial greedy is a note, not a failure. */
static bool color_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                         const void *got, clirr_verify_report *r)
{
    (void)plan;
    const clirr_graph *g = clirr_input_graph(in);
    bool ok = clirr_verify_coloring(g, got, r);
    clirr_verify_note(r, "%scolors: %u, serial greedy %u.", ok ? "" : " ", color_count(g->n, got),
                      color_count(g->n, expected));
    return ok;
}

static void color_write(FILE *f, const void *result, uint64_t i)
{
    fprintf(f, "%u", ((const uint32_t *)result)[i]);
}

static const clirr_variant_desc color_variants[] = {
    [VARIANT_TOPO] = {"topo", "speculative greedy over every uncolored vertex each round", false},
    [VARIANT_DATA] = {"data", "speculative greedy over a worklist of vertices to (re)color", true},
    [VARIANT_JP] = {"jp", "Jones-Plassmann with hash priorities (deterministic)", false},
    [VARIANT_AUTO] = {"auto", "topo (synchronous rounds) on a GPU with a graph with hubs, or of bounded "
                              "degree with local ids; else data", true},
};

static const char *const choices[] = {"auto", "on", "off", NULL};

static const clirr_param_desc color_params[] = {
    [PARAM_HEURISTIC] = {"heuristic", CLIRR_PARAM_BOOL, "on", 0, 0,
                         "the larger degree keeps its color"},
    [PARAM_BITSET] = {"bitset", CLIRR_PARAM_BOOL, "on", 0, 0,
                      "first-fit by find-first-set"},
    [PARAM_FUSE] = {"fuse", CLIRR_PARAM_CHOICE, "auto", 0, 0,
                    "data: losers recolor during resolution (auto: where rounds are not synchronous)",
                    choices},
    [PARAM_SYNC] = {"sync", CLIRR_PARAM_CHOICE, "auto", 0, 0,
                    "synchronous rounds: first-fit sees only the colors of earlier rounds, ties of "
                    "priority go by a hash: fewer colors, more rounds (auto: on a GPU with a graph with hubs, "
                    "and topo on a GPU with a graph of bounded degree and local ids)",
                    choices},
};

/* Measured: load balancing ran at 0.58-1.04x of thread-mapped on an H100
 * (dbuf-shared) on graphs without hubs and 0.84-0.99x on Intel's CPU
 * runtime (dbuf-global). On a GPU with hubs the device rules decide: on
 * kron (scale 22, largest degree 56,409) the H100 ran topo rounds 3.7-7.5x
 * faster with dbuf-shared than thread-mapped (tests/bench/RESULTS.md,
 * coloring). */
static const clirr_template_hint color_hint = {
    CLIRR_TEMPLATE_BASELINE, 0,
    "coloring (measured profile): load balancing ran at 0.58-1.04x of thread-mapped on an H100 "
    "(dbuf-shared) and 0.84-0.99x on Intel's CPU runtime (dbuf-global); first-fit and conflict "
    "tests cost one load per neighbour, less than a work-group reduction"};

/* Measured on the H100 (RESULTS.md, coloring): on kron (rmat scale 22,
 * degree 4, 33M arcs) topo with synchronous rounds and dbuf-shared took
 * 73 ms for 96 colors, data (fused) 147 ms for 198; on uniform random,
 * grid and road graphs data took 1.6-2.6 ms. On PoCL, nearly serial, data
 * with fused resolution is the fastest. */
static unsigned color_choose(const clirr_input *in, const clirr_caps *caps, const char **reason)
{
    switch (topo_sync_shape(clirr_input_graph(in), caps)) {
    case GPU_SHAPE_HUBS:
        *reason = "auto: topo on a GPU and a graph with hubs (synchronous rounds over every vertex: "
                  "about half the colors, measured on an H100)";
        return VARIANT_TOPO;
    case GPU_SHAPE_BOUNDED:
        *reason = "auto: topo on a GPU and a graph of bounded degree (at most 8 neighbours) whose "
                  "neighbours have nearby ids (a quarter of the arcs within 256): synchronous rounds settle "
                  "in a few sweeps where the worklist's conflict chains take tens of rounds; measured on an "
                  "H100 on a road network and a grid, and against the same graphs with shuffled ids";
        return VARIANT_TOPO;
    default:
        *reason = "auto: data (a worklist of the vertices to recolor; a CPU, or a graph with neither hubs "
                  "nor bounded degree and local ids: measured on an H100 and PoCL)";
        return VARIANT_DATA;
    }
}

/* A GPU colors hubs with a work-group each; a CPU keeps the measured hint
 * (a work-group there is one core's loop anyway). */
static const clirr_template_hint *color_template_hint(const clirr_input *in, const clirr_caps *caps)
{
    return caps->is_gpu && clirr_graph_has_hubs(clirr_input_graph(in), HUB_FACTOR) ? NULL : &color_hint;
}

const clirr_algo clirr_algo_color = {
    .name = "color",
    .summary = "graph coloring: a color >= 1 per vertex, neighbours apart (the graph read as undirected)",
    .study = "shared/papers/004 (speculative greedy coloring)",
    .input = CLIRR_INPUT_GRAPH,
    .variants = color_variants,
    .nvariants = 4,
    .default_variant = VARIANT_AUTO,
    .choose_variant = color_choose,
    .params = color_params,
    .nparams = sizeof color_params / sizeof color_params[0],
    .sources = CLIRR_SOURCES_NONE,
    .choose_template_hint = color_template_hint,
    .value_size = sizeof(uint32_t),
    .prepare = color_prepare,
    .run = color_run,
    .release = color_release,
    .reference = color_reference,
    .verify = color_verify,
    .write_value = color_write,
    .extras = color_extras,
};
