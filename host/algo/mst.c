/* host/algo/mst.c - Boruvka's minimum spanning forest on the device
 * (kernels: cl/mst.cl; study: shared/papers/000, Table I, Fig. 5, sections
 * V-VI; after LonestarGPU's kernels), topology-driven, data-driven or the
 * study's temporal hybrid, each round's scan of vertices and arcs run
 * through the plan's nested-loop template.
 *
 * The graph is read as undirected: the input's simple undirected form
 * (lightest weight per pair, no self-loops), derived and uploaded once,
 * plus, per arc, the index of its pair's canonical arc (eid), which orders
 * edges of equal weight. Unweighted graphs have unit weights.
 *
 * The result has one uint per vertex: the forest edge recorded when the
 * component whose root was that vertex hooked onto another (the edge's
 * canonical arc in the undirected form), CLIRR_NONE for a vertex that
 * never hooked. --output writes the edges, "u v w" per line.
 *
 * Every round at least halves the live components, so no round ever falls
 * back to a launch of one work-item (LonestarGPU's fallback when progress
 * stalls). */
#include "algo/input.h"
#include "algo/round.h"
#include "algo/run.h"
#include "cl/mst.def"
#include "prim/prim.h"
#include "ref/mst.h"
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define KERNEL_SET(k, tag, name, var) clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err)

CLIRR_KARGS_STRUCT(mst_scan_topo_args, MST_SCAN_TOPO_ARGS);
CLIRR_KARGS_STRUCT(mst_scan_data_args, MST_SCAN_DATA_ARGS);
CLIRR_KARGS_STRUCT(mst_pass2_args, MST_PASS2_ARGS);
CLIRR_KARGS_STRUCT(mst_hook_topo_args, MST_HOOK_TOPO_ARGS);
CLIRR_KARGS_STRUCT(mst_compress_args, MST_COMPRESS_ARGS);
CLIRR_KARGS_STRUCT(mst_hook_data_args, MST_HOOK_DATA_ARGS);
CLIRR_KARGS_STRUCT(mst_apply_args, MST_APPLY_ARGS);

enum { VARIANT_TOPO, VARIANT_DATA, VARIANT_HYBRID };
enum { PARAM_DEDUP, PARAM_SWITCH, PARAM_ATOMICS64 };

typedef struct mst_session {
    clirr_ctx *ctx;
    unsigned variant;
    const clirr_graph *ug;      /* the undirected form (the input's) */
    const clirr_dgraph *dg;     /* its device copy (the input's) */
    uint32_t n;
    cl_uint weighted, dedup;
    bool atomic64;              /* one 64-bit atomic min per offer */
    double switch_at;           /* hybrid: data-driven from this fraction of n live */
    cl_mem eid;                 /* per arc: its pair's canonical arc */
    cl_mem parent, comp, cmin, vmin, live, forest, nlive;
    cl_mem link, comp_out, comp_count, comp_marks; /* data-driven rounds */
    clirr_nl scan_topo;
    clirr_round_loop scan_data;
    clirr_worklist wl;
    cl_kernel pass2, hook_topo, compress, hook_data, apply;
    size_t wg_pass2, wg_hook_topo, wg_compress, wg_hook_data, wg_apply;
    /* the last trial */
    uint32_t rounds_topo, rounds_data;
    uint64_t comp_pushes;
    uint32_t live_per_round[CLIRR_MAX_EXTRA_LIST];
} mst_session;

static void mst_release(void *state)
{
    mst_session *s = state;
    clirr_nl_release(&s->scan_topo);
    clirr_round_loop_release(&s->scan_data);
    clirr_worklist_release(&s->wl);
    cl_mem *bufs[] = {&s->eid,  &s->parent, &s->comp,     &s->cmin,       &s->vmin,
                      &s->live, &s->forest, &s->nlive,    &s->link,       &s->comp_out,
                      &s->comp_count, &s->comp_marks};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        clirr_mem_release(bufs[i]);
    free(s);
}

/* ---- prepare ------------------------------------------------------------- */

/* eid[k] for every arc of the undirected form u: k itself from the smaller
 * end, else the arc back. Rows list heads in increasing order, so the arcs
 * of v pointing down to smaller u appear in the order the loop meets u. */
static int edge_ids(const clirr_graph *u, uint32_t **out, clirr_error *err)
{
    uint32_t *eid = malloc((u->m ? (size_t)u->m : 1) * sizeof *eid);
    uint32_t *cursor = malloc(((size_t)u->n + 1) * sizeof *cursor);
    if (!eid || !cursor) {
        free(eid);
        free(cursor);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the edge ids of %u arcs", u->m);
    }
    memcpy(cursor, u->row, (size_t)u->n * sizeof *cursor);
    for (uint32_t a = 0; a < u->n; a++)
        for (uint32_t k = u->row[a]; k < u->row[a + 1]; k++) {
            uint32_t b = u->col[k];
            if (b < a)
                continue;
            eid[k] = k;
            eid[cursor[b]++] = k; /* arc b -> a: the next of b's arcs to a smaller end */
        }
    free(cursor);
    *out = eid;
    return CLIRR_OK;
}

static int build(mst_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    char opts[64];
    snprintf(opts, sizeof opts, "-DMST_ATOMIC64=%d", s->atomic64 ? 1 : 0);
    CLIRR_TRY(clirr_program_get(s->ctx, "mst.cl", opts, &prog, err));
    clirr_nl_config cfg = clirr_plan_loop(plan, sizeof(cl_ulong));
    if (s->variant != VARIANT_DATA) {
        CLIRR_TRY(clirr_nl_init(&s->scan_topo, s->ctx, prog, "mst_scan_topo",
                                CLIRR_KNARGS(mst_scan_topo_args), s->n, &cfg, err));
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "mst_hook_topo", CLIRR_KNARGS(mst_hook_topo_args),
                                           &s->hook_topo, err));
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "mst_compress", CLIRR_KNARGS(mst_compress_args),
                                           &s->compress, err));
        s->wg_hook_topo = clirr_wg_size(s->ctx, s->hook_topo, plan->wg_size);
        s->wg_compress = clirr_wg_size(s->ctx, s->compress, plan->wg_size);
    }
    if (s->variant != VARIANT_TOPO) {
        const clirr_loop_spec data = {"mst.cl", opts, "mst_scan_data", CLIRR_KNARGS(mst_scan_data_args),
                                      CLIRR_KARG(mst_scan_data_args, wl_in), NULL, 0, 0, 0, false, plan->fixed_grid};
        CLIRR_TRY(clirr_round_loop_init(&s->scan_data, s->ctx, &data, s->n, plan->push, &cfg, err));
        CLIRR_TRY(clirr_worklist_init(&s->wl, s->ctx, s->n, plan->wl_capacity, CLIRR_PUSH_COMPACT, err));
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "mst_hook_data", CLIRR_KNARGS(mst_hook_data_args),
                                           &s->hook_data, err));
        CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "mst_apply", CLIRR_KNARGS(mst_apply_args),
                                           &s->apply, err));
        s->wg_hook_data = clirr_wg_size(s->ctx, s->hook_data, plan->wg_size);
        s->wg_apply = clirr_wg_size(s->ctx, s->apply, plan->wg_size);
    }
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, prog, "mst_pass2", CLIRR_KNARGS(mst_pass2_args), &s->pass2,
                                       err));
    s->wg_pass2 = clirr_wg_size(s->ctx, s->pass2, plan->wg_size);
fail:
    return rc;
}

static int allocate(mst_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t vbytes = (size_t)s->n * sizeof(uint32_t);
    uint32_t *eid = NULL;
    CLIRR_TRY(edge_ids(s->ug, &eid, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "MST edge ids", (size_t)s->ug->m * sizeof(uint32_t), &s->eid, err));
    CLIRR_TRY(clirr_buf_write(s->ctx, s->eid, 0, (size_t)s->ug->m * sizeof(uint32_t), eid, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "MST union-find parents", vbytes, &s->parent, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "MST components", vbytes, &s->comp, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "MST component minima", 2 * vbytes, &s->cmin, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "MST vertex minima", (size_t)s->n * sizeof(cl_ulong), &s->vmin, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "MST live flags", vbytes, &s->live, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "MST forest", vbytes, &s->forest, err));
    CLIRR_TRY(clirr_buf_create(s->ctx, "MST live count", sizeof(cl_uint), &s->nlive, err));
    if (s->variant != VARIANT_TOPO) {
        CLIRR_TRY(clirr_buf_create(s->ctx, "MST links", vbytes, &s->link, err));
        CLIRR_TRY(clirr_buf_create(s->ctx, "MST live components", vbytes, &s->comp_out, err));
        CLIRR_TRY(clirr_buf_create(s->ctx, "MST live component count", sizeof(cl_uint), &s->comp_count, err));
        CLIRR_TRY(clirr_buf_create(s->ctx, "MST component marks", vbytes, &s->comp_marks, err));
    }
fail:
    free(eid);
    return rc;
}

/* The graph's arrays, bound to a kernel whose list starts with
 * MST_GRAPH_ARGS (the same leading indices in every such list). */
#define BIND_GRAPH(set, target, tag)                                           \
    do {                                                                       \
        CLIRR_TRY(set(target, tag, row, s->dg->row));                          \
        CLIRR_TRY(set(target, tag, col, s->dg->col));                          \
        CLIRR_TRY(set(target, tag, weight, s->dg->weight));                    \
        CLIRR_TRY(set(target, tag, weighted, s->weighted));                    \
        CLIRR_TRY(set(target, tag, eid, s->eid));                              \
        CLIRR_TRY(set(target, tag, n, s->n));                                  \
    } while (0)

static int bind_topo(mst_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl *nl = &s->scan_topo;
    BIND_GRAPH(CLIRR_NL_SET, nl, mst_scan_topo_args);
    CLIRR_TRY(CLIRR_NL_SET(nl, mst_scan_topo_args, comp, s->comp));
    CLIRR_TRY(CLIRR_NL_SET(nl, mst_scan_topo_args, cmin, s->cmin));
    CLIRR_TRY(CLIRR_NL_SET(nl, mst_scan_topo_args, vmin, s->vmin));
    CLIRR_TRY(CLIRR_NL_SET(nl, mst_scan_topo_args, live, s->live));
    cl_kernel k = s->hook_topo;
    CLIRR_TRY(KERNEL_SET(k, mst_hook_topo_args, row, s->dg->row));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_topo_args, col, s->dg->col));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_topo_args, comp, s->comp));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_topo_args, parent, s->parent));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_topo_args, cmin, s->cmin));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_topo_args, forest, s->forest));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_topo_args, nlive, s->nlive));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_topo_args, n, s->n));
    k = s->compress;
    CLIRR_TRY(KERNEL_SET(k, mst_compress_args, parent, s->parent));
    CLIRR_TRY(KERNEL_SET(k, mst_compress_args, comp, s->comp));
    CLIRR_TRY(KERNEL_SET(k, mst_compress_args, cmin, s->cmin));
    CLIRR_TRY(KERNEL_SET(k, mst_compress_args, n, s->n));
fail:
    return rc;
}

static int bind_data(mst_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_round_loop *rl = &s->scan_data;
    BIND_GRAPH(CLIRR_ROUND_SET, rl, mst_scan_data_args);
    CLIRR_TRY(CLIRR_ROUND_SET(rl, mst_scan_data_args, parent, s->parent));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, mst_scan_data_args, cmin, s->cmin));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, mst_scan_data_args, vmin, s->vmin));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, mst_scan_data_args, comp_out, s->comp_out));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, mst_scan_data_args, comp_count, s->comp_count));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, mst_scan_data_args, comp_marks, s->comp_marks));
    CLIRR_TRY(CLIRR_ROUND_SET(rl, mst_scan_data_args, dedup, s->dedup));
    cl_kernel k = s->hook_data;
    CLIRR_TRY(KERNEL_SET(k, mst_hook_data_args, items, s->comp_out));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_data_args, row, s->dg->row));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_data_args, col, s->dg->col));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_data_args, parent, s->parent));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_data_args, cmin, s->cmin));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_data_args, link, s->link));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_data_args, forest, s->forest));
    CLIRR_TRY(KERNEL_SET(k, mst_hook_data_args, n, s->n));
    k = s->apply;
    CLIRR_TRY(KERNEL_SET(k, mst_apply_args, items, s->comp_out));
    CLIRR_TRY(KERNEL_SET(k, mst_apply_args, parent, s->parent));
    CLIRR_TRY(KERNEL_SET(k, mst_apply_args, link, s->link));
    CLIRR_TRY(KERNEL_SET(k, mst_apply_args, cmin, s->cmin));
    CLIRR_TRY(KERNEL_SET(k, mst_apply_args, n, s->n));
fail:
    return rc;
}

static int bind_pass2(mst_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_kernel k = s->pass2;
    CLIRR_TRY(KERNEL_SET(k, mst_pass2_args, items, s->parent)); /* set per use */
    CLIRR_TRY(KERNEL_SET(k, mst_pass2_args, parent, s->parent));
    CLIRR_TRY(KERNEL_SET(k, mst_pass2_args, cmin, s->cmin));
    CLIRR_TRY(KERNEL_SET(k, mst_pass2_args, vmin, s->vmin));
    CLIRR_TRY(KERNEL_SET(k, mst_pass2_args, n, s->n));
fail:
    return rc;
}

static int mst_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                       clirr_error *err)
{
    int rc = clirr_ref_mst_check_weights(clirr_input_graph(in), err);
    if (rc != CLIRR_OK)
        return rc;
    mst_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->variant = plan->variant;
    s->dedup = plan->params.v[PARAM_DEDUP].b;
    s->switch_at = plan->params.v[PARAM_SWITCH].r;
    s->atomic64 = plan->params.v[PARAM_ATOMICS64].b && clirr_ctx_caps(ctx)->int64_extended_atomics;
    CLIRR_TRY(clirr_input_graph_form(in, CLIRR_FORM_UNDIRECTED, &s->ug, err));
    CLIRR_TRY(clirr_input_device_graph(in, ctx, CLIRR_FORM_UNDIRECTED, true, &s->dg, err));
    s->n = s->ug->n;
    s->weighted = s->dg->weighted;
    CLIRR_TRY(build(s, plan, err));
    CLIRR_TRY(allocate(s, err));
    if (s->variant != VARIANT_DATA)
        CLIRR_TRY(bind_topo(s, err));
    if (s->variant != VARIANT_TOPO)
        CLIRR_TRY(bind_data(s, err));
    CLIRR_TRY(bind_pass2(s, err));
    *out = s;
    return CLIRR_OK;
fail:
    mst_release(s);
    return rc;
}

/* ---- run ----------------------------------------------------------------- */

static int set_u32(mst_session *s, cl_mem buf, uint32_t value, clirr_error *err)
{
    return clirr_buf_write(s->ctx, buf, 0, sizeof value, &value, err);
}

static int get_u32(mst_session *s, cl_mem buf, uint32_t *value, clirr_error *err)
{
    return clirr_buf_read(s->ctx, buf, 0, sizeof *value, value, err);
}

/* The fallback's edge-id pass over items[0..nitems), or every vertex. */
static int pass2(mst_session *s, cl_mem items, uint32_t nitems, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (s->atomic64)
        return CLIRR_OK;
    cl_uint use = items != NULL;
    cl_mem list = items ? items : s->parent; /* unread when !use */
    CLIRR_TRY(KERNEL_SET(s->pass2, mst_pass2_args, items, list));
    CLIRR_TRY(KERNEL_SET(s->pass2, mst_pass2_args, nitems, nitems));
    CLIRR_TRY(KERNEL_SET(s->pass2, mst_pass2_args, use_items, use));
    CLIRR_TRY(clirr_launch(s->ctx, s->pass2, nitems, s->wg_pass2, err));
fail:
    return rc;
}

static void record_round(mst_session *s, clirr_stats *stats, uint32_t live)
{
    if (stats->iterations < CLIRR_MAX_EXTRA_LIST)
        s->live_per_round[stats->iterations] = live;
    stats->iterations++;
}

/* Topology-driven rounds over every vertex until no component has an
 * outgoing edge (*done) or, for the hybrid, until the live components are
 * at most switch_at of the vertices. */
static int run_topo(mst_session *s, clirr_stats *stats, bool *done, clirr_error *err)
{
    int rc = CLIRR_OK;
    double limit = s->variant == VARIANT_HYBRID ? s->switch_at * s->n : -1.0;
    *done = false;
    for (;;) {
        uint32_t live = 0;
        CLIRR_TRY(set_u32(s, s->nlive, 0, err));
        CLIRR_TRY(clirr_nl_run(&s->scan_topo, s->n, err));
        CLIRR_TRY(pass2(s, NULL, s->n, err));
        CLIRR_TRY(clirr_launch(s->ctx, s->hook_topo, s->n, s->wg_hook_topo, err));
        CLIRR_TRY(clirr_launch(s->ctx, s->compress, s->n, s->wg_compress, err));
        CLIRR_TRY(get_u32(s, s->nlive, &live, err));
        record_round(s, stats, live);
        s->rounds_topo++;
        if (live == 0) {
            *done = true;
            break;
        }
        if ((double)live <= limit)
            break;
    }
fail:
    return rc;
}

/* Data-driven rounds: the worklist holds the vertices that still have an
 * outgoing edge; each round's scan lists the live components, which hook
 * and apply. Ends when no component is live. */
static int run_data(mst_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_worklist *wl = &s->wl;
    if (s->dedup)
        CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->comp_marks, 0, s->n, 0, err));
    for (cl_uint epoch = 1; clirr_worklist_size(wl) > 0; epoch++) {
        uint32_t pushed = 0;
        CLIRR_TRY(set_u32(s, s->comp_count, 0, err));
        CLIRR_TRY(CLIRR_ROUND_SET(&s->scan_data, mst_scan_data_args, comp_epoch, epoch));
        CLIRR_TRY(clirr_round_loop_run(&s->scan_data, wl, err));
        CLIRR_TRY(pass2(s, wl->items[wl->cur], clirr_worklist_size(wl), err));
        CLIRR_TRY(get_u32(s, s->comp_count, &pushed, err));
        uint32_t live = pushed < s->n ? pushed : s->n;
        s->comp_pushes += pushed;
        record_round(s, stats, live);
        s->rounds_data++;
        if (live == 0)
            break;
        CLIRR_TRY(KERNEL_SET(s->hook_data, mst_hook_data_args, nitems, live));
        CLIRR_TRY(clirr_launch(s->ctx, s->hook_data, live, s->wg_hook_data, err));
        CLIRR_TRY(KERNEL_SET(s->apply, mst_apply_args, nitems, live));
        CLIRR_TRY(clirr_launch(s->ctx, s->apply, live, s->wg_apply, err));
    }
    clirr_run_worklist_stats(wl, stats);
fail:
    return rc;
}

static int mst_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    mst_session *s = state;
    s->rounds_topo = s->rounds_data = 0;
    s->comp_pushes = 0;
    CLIRR_TRY(clirr_prim_iota_u32(s->ctx, s->parent, s->n, 0, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->cmin, 0, 2 * (size_t)s->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->forest, 0, s->n, NONE, err));
    bool done = false;
    if (s->variant != VARIANT_DATA) {
        CLIRR_TRY(clirr_prim_iota_u32(s->ctx, s->comp, s->n, 0, err));
        CLIRR_TRY(run_topo(s, stats, &done, err));
        /* The hybrid's switch: the vertices that had an outgoing edge. */
        if (!done)
            CLIRR_TRY(clirr_worklist_reset_marked(&s->wl, s->live, 1, s->n, err));
    } else {
        CLIRR_TRY(clirr_worklist_reset(&s->wl, NULL, s->n, err));
    }
    if (!done)
        CLIRR_TRY(run_data(s, stats, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->forest, 0, (size_t)s->n * sizeof(uint32_t), result, err));
    stats->reached = s->n;
    stats->edges_traversed = s->ug->m;
    uint64_t topo_children = 0, data_children = 0;
    if (s->variant != VARIANT_DATA)
        CLIRR_TRY(clirr_nl_child_launches(&s->scan_topo, &topo_children, err));
    if (s->variant != VARIANT_TOPO)
        CLIRR_TRY(clirr_round_loop_child_launches(&s->scan_data, &data_children, err));
    stats->child_launches = topo_children + data_children;
fail:
    return rc;
}

/* ---- results --------------------------------------------------------------- */

/* The smaller end of canonical arc e of u: the vertex whose row holds it. */
static uint32_t arc_source(const clirr_graph *u, uint32_t e)
{
    uint32_t lo = 0, hi = u->n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (u->row[mid] <= e)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Edge e of a result: true with its ends and weight when e is a canonical
 * arc of u. */
static bool decode(const clirr_graph *u, uint32_t e, uint32_t *a, uint32_t *b, int32_t *w)
{
    if (e >= u->m)
        return false;
    *a = arc_source(u, e);
    *b = u->col[e];
    *w = u->weight ? u->weight[e] : 1;
    return *a < *b;
}

static void mst_extras(void *state, const void *result, clirr_extras *x)
{
    mst_session *s = state;
    const uint32_t *forest = result;
    int64_t total = 0;
    uint64_t edges = 0;
    for (uint32_t v = 0; v < s->n; v++) {
        uint32_t a, b;
        int32_t w;
        if (forest[v] != NONE && decode(s->ug, forest[v], &a, &b, &w)) {
            total += w;
            edges++;
        }
    }
    clirr_extra *e = clirr_extras_add(x, "total_weight", CLIRR_EXTRA_INT);
    e->i = total;
    e->in_table = true;
    e = clirr_extras_add(x, "components", CLIRR_EXTRA_UINT);
    e->u = s->n - edges;
    e->in_table = true;
    clirr_extras_add(x, "rounds_topo", CLIRR_EXTRA_UINT)->u = s->rounds_topo;
    clirr_extras_add(x, "rounds_data", CLIRR_EXTRA_UINT)->u = s->rounds_data;
    e = clirr_extras_add(x, "components_listed_per_round", CLIRR_EXTRA_UINTS);
    uint32_t rounds = s->rounds_topo + s->rounds_data;
    e->nlist = rounds < CLIRR_MAX_EXTRA_LIST ? rounds : CLIRR_MAX_EXTRA_LIST;
    memcpy(e->list, s->live_per_round, e->nlist * sizeof e->list[0]);
    clirr_extras_add(x, "component_pushes", CLIRR_EXTRA_UINT)->u = s->comp_pushes;
    clirr_extras_add(x, "dedup", CLIRR_EXTRA_BOOL)->b = s->dedup;
    clirr_extras_add(x, "atomic64", CLIRR_EXTRA_BOOL)->b = s->atomic64;
}

/* --output: "u v w" per forest edge, u < v. */
static int mst_write_result(void *state, const void *result, FILE *f, clirr_error *err)
{
    mst_session *s = state;
    const uint32_t *forest = result;
    for (uint32_t v = 0; v < s->n; v++) {
        uint32_t a, b;
        int32_t w;
        if (forest[v] != NONE && decode(s->ug, forest[v], &a, &b, &w))
            fprintf(f, "%u %u %d\n", a, b, w);
    }
    return ferror(f) ? clirr_fail(err, CLIRR_ERR_IO, "writing the forest's edges failed") : CLIRR_OK;
}

/* Kruskal's forest as parent pointers (ref/mst.h). */
static int mst_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    (void)plan;
    return clirr_ref_mst(clirr_input_graph(in), out, NULL, NULL, err);
}

/* The device's edges decoded through the undirected form, then checked
 * against Kruskal's forest by the reference's verifier. */
static bool mst_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                       const void *got, clirr_verify_report *r)
{
    (void)plan;
    const clirr_graph *g = clirr_input_graph(in), *u = NULL;
    const uint32_t *forest = got;
    clirr_error err;
    clirr_error_clear(&err);
    memset(r, 0, sizeof *r);
    if (clirr_input_graph_form(in, CLIRR_FORM_UNDIRECTED, &u, &err) != CLIRR_OK) {
        clirr_verify_note(r, "%s", err.msg);
        return clirr_verify_done(r, 1);
    }
    uint64_t k = 0, invalid = 0;
    for (uint32_t v = 0; v < g->n; v++)
        k += forest[v] != NONE;
    uint32_t *a = malloc((k ? k : 1) * sizeof *a), *b = malloc((k ? k : 1) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        clirr_verify_note(r, "out of memory verifying %llu edges", (unsigned long long)k);
        return clirr_verify_done(r, 1);
    }
    char notes[sizeof r->text] = "";
    k = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        if (forest[v] == NONE)
            continue;
        int32_t w;
        if (!decode(u, forest[v], &a[k], &b[k], &w)) {
            if (invalid++ == 0)
                snprintf(notes, sizeof notes, "vertex %u records %u, no edge of the undirected form. ", v,
                         forest[v]);
            a[k] = b[k] = NONE; /* the verifier counts it as a wrong edge too */
        }
        k++;
    }
    bool ok = clirr_verify_mst(g, expected, a, b, k, r);
    if (invalid)
        clirr_verify_note(r, "%s", notes);
    free(a);
    free(b);
    return ok && !invalid;
}

static const clirr_param_desc mst_params[] = {
    [PARAM_DEDUP] = {"dedup", CLIRR_PARAM_BOOL, "on", 0, 0,
                     "data/hybrid: list each live component once per round (off: once per vertex with "
                     "an outgoing edge, the study's duplicates)"},
    /* Measured (tests/bench/RESULTS.md): of 0.5, 0.1, 0.02 and 0.004,
     * 0.004 was the best or tied on rmat 22 and the 2048^2 grid on the
     * H100, and the best hybrid on rmat 22 on PoCL. */
    [PARAM_SWITCH] = {"switch", CLIRR_PARAM_REAL, "0.004", 0, 1,
                      "hybrid: go data-driven once the live components are at most this fraction of "
                      "the vertices"},
    [PARAM_ATOMICS64] = {"atomic64", CLIRR_PARAM_BOOL, "on", 0, 0,
                         "one 64-bit atomic min per offer where the device has it (off: the two-pass "
                         "32-bit fallback)"},
};

static const clirr_variant_desc mst_variants[] = {
    [VARIANT_TOPO] = {"topo", "every vertex every round", false},
    [VARIANT_DATA] = {"data", "a worklist of vertices with outgoing edges, a list of live components", true},
    [VARIANT_HYBRID] = {"hybrid", "topo first, data once few components are live (--switch)", true},
};

const clirr_algo clirr_algo_mst = {
    .name = "mst",
    .summary = "minimum spanning forest (Boruvka) of the graph read as undirected: its edges, total "
               "weight, components",
    .study = "shared/papers/000 (data-driven vs topology-driven)",
    .input = CLIRR_INPUT_GRAPH,
    .variants = mst_variants,
    .nvariants = 3,
    .default_variant = VARIANT_TOPO,
    .params = mst_params,
    .nparams = sizeof mst_params / sizeof mst_params[0],
    .sources = CLIRR_SOURCES_NONE,
    .value_size = sizeof(uint32_t),
    .prepare = mst_prepare,
    .run = mst_run,
    .release = mst_release,
    .reference = mst_reference,
    .verify = mst_verify,
    .write_result = mst_write_result,
    .extras = mst_extras,
};
