/* host/algo/treestats.c - tree computations by the Euler tour technique
 * (shared/papers/003): parent, preorder, level and subtree size of every
 * vertex of a rooted tree. Kernels: cl/treestats.cl, with the tour ranked
 * by host/algo/lrank.c (any list ranking variant, --variant) and the
 * prefix sums of host/prim. --variant bfs roots the tree with clirr's BFS
 * (cl/bfs.cl) instead, parent and level only, for the study's
 * ETT-versus-BFS comparison; serial is the reference's DFS, timed.
 *
 * The adjacency (arcs by tail, heads increasing, with reverse and
 * circular next) is the study's "load tree" step, built on the host once
 * per input and uploaded before any trial. Preorder visits children in
 * increasing id order whatever order the tour takes them in: each forward
 * arc's weight is 1 plus the sizes of its smaller-id siblings, found by a
 * prefix sum over the adjacency; with the tour already in that order the
 * weights are the study's 1 and 0. */
#include "algo/input.h"
#include "algo/lrank.h"
#include "algo/round.h"
#include "algo/run.h"
#include "cl/bfs.def"
#include "cl/treestats.def"
#include "prim/prim.h"
#include "ref/treestats.h"

#include <stdlib.h>
#include <string.h>

CLIRR_KARGS_STRUCT(tour_args, ETT_TOUR_ARGS);
CLIRR_KARGS_STRUCT(parent_args, ETT_PARENT_ARGS);
CLIRR_KARGS_STRUCT(child_sizes_args, ETT_CHILD_SIZES_ARGS);
CLIRR_KARGS_STRUCT(weights_args, ETT_WEIGHTS_ARGS);
CLIRR_KARGS_STRUCT(finish_args, ETT_FINISH_ARGS);
CLIRR_KARGS_STRUCT(bfs_out_args, ETT_BFS_OUT_ARGS);
CLIRR_KARGS_STRUCT(bfs_data_args, BFS_DATA_ARGS);

#define SET(k, tag, name, var) CLIRR_TRY(clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err))
#define NONE CLIRR_TREE_NONE

enum { V_RHJ, V_WYLLIE, V_WYLLIE32, V_STEPWISE, V_OPT, V_BFS, V_SERIAL, V_AUTO };

static const lr_method methods[] = {
    [V_RHJ] = LR_RHJ, [V_WYLLIE] = LR_WYLLIE, [V_WYLLIE32] = LR_WYLLIE32,
    [V_STEPWISE] = LR_STEPWISE, [V_OPT] = LR_OPT,
};

typedef struct treestats_session {
    clirr_ctx *ctx;
    const clirr_tree_adj *adj;
    const clirr_tree *tree;
    unsigned variant;
    uint32_t n, m;
    cl_mem row, col, sib, next, tail; /* the adjacency */
    cl_mem out;                  /* 4 n: parent, preorder, level, size */
    cl_mem ep, rank, isdown, key, wpre, spre, wlev;
    lr_ranker r;
    cl_kernel tour, parent, child_sizes, weights, finish, bfs_out;
    clirr_round_loop bfs;        /* --variant bfs: clirr's BFS rounds */
    clirr_worklist wl;
    cl_mem level;
    uint32_t bfs_rounds;
} treestats_session;

static void treestats_release(void *state)
{
    treestats_session *s = state;
    lr_release(&s->r);
    clirr_round_loop_release(&s->bfs);
    clirr_worklist_release(&s->wl);
    cl_mem *bufs[] = {&s->row, &s->col, &s->sib, &s->next, &s->tail, &s->out, &s->ep, &s->rank,
                      &s->isdown, &s->key, &s->wpre, &s->spre, &s->wlev, &s->level};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        clirr_mem_release(bufs[i]);
    free(s);
}

static int upload(treestats_session *s, const char *what, const uint32_t *host, size_t count, cl_mem *m,
                  clirr_error *err)
{
    size_t bytes = (count ? count : 1) * sizeof(uint32_t);
    int rc = clirr_buf_create(s->ctx, what, bytes, m, err);
    if (rc == CLIRR_OK && count)
        rc = clirr_buf_write(s->ctx, *m, 0, bytes, host, err);
    return rc;
}

static int scratch(treestats_session *s, const char *what, size_t count, cl_mem *m, clirr_error *err)
{
    return clirr_buf_create(s->ctx, what, (count ? count : 1) * sizeof(uint32_t), m, err);
}

static int get_kernels(treestats_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program p = NULL;
    CLIRR_TRY(clirr_program_get(s->ctx, "treestats.cl", "", &p, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, p, "ett_tour", CLIRR_KNARGS(tour_args), &s->tour, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, p, "ett_parent", CLIRR_KNARGS(parent_args), &s->parent, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, p, "ett_child_sizes", CLIRR_KNARGS(child_sizes_args),
                                       &s->child_sizes, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, p, "ett_weights", CLIRR_KNARGS(weights_args), &s->weights, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, p, "ett_finish", CLIRR_KNARGS(finish_args), &s->finish, err));
    CLIRR_TRY(clirr_kernel_get_checked(s->ctx, p, "ett_bfs_out", CLIRR_KNARGS(bfs_out_args), &s->bfs_out, err));
fail:
    return rc;
}

static int prepare_ett(treestats_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    size_t m = s->m;
    CLIRR_TRY(upload(s, "the tree's circular next arcs", s->adj->next, m, &s->next, err));
    CLIRR_TRY(scratch(s, "the Euler tour", m, &s->ep, err));
    CLIRR_TRY(scratch(s, "the tour's ranks", m, &s->rank, err));
    CLIRR_TRY(scratch(s, "the downward arcs' marks", m, &s->isdown, err));
    CLIRR_TRY(scratch(s, "the children's sizes", m, &s->key, err));
    CLIRR_TRY(scratch(s, "the preorder weights", m, &s->wpre, err));
    CLIRR_TRY(scratch(s, "the preorder sums", m, &s->spre, err));
    CLIRR_TRY(scratch(s, "the level weights", m, &s->wlev, err));
    if (m) {
        lr_config cfg = {
            .method = methods[s->variant],
            .lists = 1,
            .known_head = true,
            .walk_wg = plan->wg_size,
        };
        lr_config_params(&plan->params, &cfg);
        CLIRR_TRY(lr_init(&s->r, s->ctx, s->m, &cfg, err));
    }
fail:
    return rc;
}

static int prepare_bfs(treestats_session *s, const clirr_plan *plan, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_nl_config cfg = clirr_plan_loop(plan, 0);
    const clirr_loop_spec loop = {"bfs.cl", "", "bfs_data", CLIRR_KNARGS(bfs_data_args),
                                  CLIRR_KARG(bfs_data_args, wl_in), "bfs_local", plan->local_rounds,
                                  plan->queue_rounds, CLIRR_ROUND_VAR(bfs_data_args, depth), false, plan->fixed_grid};
    CLIRR_TRY(clirr_round_loop_init(&s->bfs, s->ctx, &loop, s->n, plan->push, &cfg, err));
    CLIRR_TRY(clirr_worklist_init(&s->wl, s->ctx, s->n, plan->wl_capacity, CLIRR_PUSH_COMPACT, err));
    CLIRR_TRY(scratch(s, "BFS levels", s->n, &s->level, err));
    CLIRR_TRY(CLIRR_ROUND_SET(&s->bfs, bfs_data_args, row, s->row));
    CLIRR_TRY(CLIRR_ROUND_SET(&s->bfs, bfs_data_args, col, s->col));
    CLIRR_TRY(CLIRR_ROUND_SET(&s->bfs, bfs_data_args, level, s->level));
fail:
    return rc;
}

static int treestats_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                             clirr_error *err)
{
    int rc = CLIRR_OK;
    treestats_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->variant = plan->variant;
    s->tree = clirr_input_tree(in);
    CLIRR_TRY(clirr_input_tree_adj(in, &s->adj, err));
    s->n = s->adj->n;
    s->m = s->adj->arcs;
    if (s->variant != V_SERIAL) {
        CLIRR_TRY(get_kernels(s, err));
        CLIRR_TRY(upload(s, "the tree's rows", s->adj->row, (size_t)s->n + 1, &s->row, err));
        CLIRR_TRY(upload(s, "the tree's arc heads", s->adj->col, s->m, &s->col, err));
        CLIRR_TRY(upload(s, "the tree's reverse arcs", s->adj->sib, s->m, &s->sib, err));
        CLIRR_TRY(upload(s, "the tree's arc tails", s->adj->tail, s->m, &s->tail, err));
        CLIRR_TRY(scratch(s, "the results", 4 * (size_t)s->n, &s->out, err));
        CLIRR_TRY(s->variant == V_BFS ? prepare_bfs(s, plan, err) : prepare_ett(s, plan, err));
    }
    *out = s;
    return CLIRR_OK;
fail:
    treestats_release(s);
    return rc;
}

static int launch(treestats_session *s, cl_kernel k, size_t items, clirr_error *err)
{
    return clirr_launch(s->ctx, k, items, clirr_wg_size(s->ctx, k, 0), err);
}

/* Tour, ranks, parent and size: the study's rooting. */
static int root_tree(treestats_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t root = s->tree->root, first = s->adj->row[root];
    SET(s->tour, tour_args, next, s->next);
    SET(s->tour, tour_args, sib, s->sib);
    SET(s->tour, tour_args, m, s->m);
    SET(s->tour, tour_args, first, first);
    SET(s->tour, tour_args, ep, s->ep);
    CLIRR_TRY(launch(s, s->tour, s->m, err));
    CLIRR_TRY(lr_rank(&s->r, s->ep, s->m, s->rank, first, err));
    stats->iterations = s->r.stats.launches + s->r.stats.levels;
    if (!stats->iterations)
        stats->iterations = 1;
    SET(s->parent, parent_args, rank, s->rank);
    SET(s->parent, parent_args, sib, s->sib);
    SET(s->parent, parent_args, col, s->col);
    SET(s->parent, parent_args, tail, s->tail);
    SET(s->parent, parent_args, m, s->m);
    SET(s->parent, parent_args, out, s->out);
    SET(s->parent, parent_args, isdown, s->isdown);
    CLIRR_TRY(launch(s, s->parent, s->m, err));
fail:
    return rc;
}

/* Preorder and level: weights at tour positions, two prefix sums. */
static int order_tree(treestats_session *s, clirr_error *err)
{
    int rc = CLIRR_OK;
    SET(s->child_sizes, child_sizes_args, isdown, s->isdown);
    SET(s->child_sizes, child_sizes_args, col, s->col);
    SET(s->child_sizes, child_sizes_args, out, s->out);
    SET(s->child_sizes, child_sizes_args, m, s->m);
    SET(s->child_sizes, child_sizes_args, key, s->key);
    CLIRR_TRY(launch(s, s->child_sizes, s->m, err));
    CLIRR_TRY(clirr_prim_scan_u32(s->ctx, s->key, s->key, s->m, NULL, err));
    SET(s->weights, weights_args, isdown, s->isdown);
    SET(s->weights, weights_args, col, s->col);
    SET(s->weights, weights_args, tail, s->tail);
    SET(s->weights, weights_args, row, s->row);
    SET(s->weights, weights_args, xsum, s->key);
    SET(s->weights, weights_args, m, s->m);
    SET(s->weights, weights_args, out, s->out);
    SET(s->weights, weights_args, wpre, s->wpre);
    SET(s->weights, weights_args, wlev, s->wlev);
    CLIRR_TRY(launch(s, s->weights, s->m, err));
    CLIRR_TRY(clirr_prim_scan_u32(s->ctx, s->wpre, s->spre, s->m, NULL, err));
    CLIRR_TRY(clirr_prim_scan_u32(s->ctx, s->wlev, s->wlev, s->m, NULL, err));
fail:
    return rc;
}

static int run_ett(treestats_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t root = s->tree->root;
    stats->iterations = 1; /* a tree of one vertex: the last pass alone */
    if (s->m) {
        CLIRR_TRY(root_tree(s, stats, err));
        CLIRR_TRY(order_tree(s, err));
    }
    SET(s->finish, finish_args, spre, s->spre);
    SET(s->finish, finish_args, slev, s->wlev);
    SET(s->finish, finish_args, n, s->n);
    SET(s->finish, finish_args, root, root);
    SET(s->finish, finish_args, out, s->out);
    CLIRR_TRY(launch(s, s->finish, s->n, err));
fail:
    return rc;
}

/* clirr's data-driven BFS from the root (with local rounds, as bfs.c),
 * then parent and level. */
static int run_bfs(treestats_session *s, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t root = s->tree->root;
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->out, 0, 4 * (size_t)s->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->level, 0, s->n, NONE, err));
    CLIRR_TRY(clirr_prim_fill_u32(s->ctx, s->level, root, 1, 0, err));
    CLIRR_TRY(clirr_worklist_reset(&s->wl, &root, 1, err));
    for (uint32_t depth = 0, rounds = 0; clirr_worklist_size(&s->wl) > 0; depth += rounds) {
        CLIRR_TRY(CLIRR_ROUND_SET(&s->bfs, bfs_data_args, depth, depth));
        CLIRR_TRY(clirr_round_loop_run_many(&s->bfs, &s->wl, &rounds, err));
        stats->iterations += rounds;
    }
    clirr_run_worklist_stats(&s->wl, stats);
    clirr_round_loop_local_stats(&s->bfs, stats);
    SET(s->bfs_out, bfs_out_args, level, s->level);
    SET(s->bfs_out, bfs_out_args, tail, s->tail);
    SET(s->bfs_out, bfs_out_args, col, s->col);
    SET(s->bfs_out, bfs_out_args, m, s->m);
    SET(s->bfs_out, bfs_out_args, root, root);
    SET(s->bfs_out, bfs_out_args, out, s->out);
    CLIRR_TRY(launch(s, s->bfs_out, s->m ? s->m : 1, err));
fail:
    return rc;
}

static int treestats_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    treestats_session *s = state;
    stats->reached = s->n;
    if (s->variant == V_SERIAL) {
        stats->iterations = 1;
        return clirr_ref_treestats(s->adj, s->tree->root, result, err);
    }
    CLIRR_TRY(s->variant == V_BFS ? run_bfs(s, stats, err) : run_ett(s, stats, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->out, 0, (size_t)s->n * sizeof(clirr_tree_stats), result, err));
fail:
    return rc;
}

static void treestats_extras(void *state, const void *result, clirr_extras *x)
{
    (void)result;
    treestats_session *s = state;
    if (s->variant == V_SERIAL || s->variant == V_BFS || !s->m)
        return;
    if (s->r.cfg.method == LR_RHJ)
        clirr_extras_add(x, "levels", CLIRR_EXTRA_UINT)->u = s->r.stats.levels;
    else
        clirr_extras_add(x, "jump_launches", CLIRR_EXTRA_UINT)->u = s->r.stats.launches;
    clirr_extras_add(x, "readbacks", CLIRR_EXTRA_UINT)->u = s->r.stats.readbacks;
}

static int treestats_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    (void)plan;
    const clirr_tree_adj *a = NULL;
    int rc = clirr_input_tree_adj(in, &a, err);
    return rc == CLIRR_OK ? clirr_ref_treestats(a, clirr_input_tree(in)->root, out, err) : rc;
}

static bool treestats_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                             const void *got, clirr_verify_report *r)
{
    const clirr_tree_adj *a = NULL;
    if (clirr_input_tree_adj(in, &a, NULL) != CLIRR_OK) {
        clirr_verify_note(r, "no adjacency to verify against");
        return false;
    }
    return clirr_verify_treestats(a, clirr_input_tree(in)->root, expected, got, plan->variant == V_BFS, r);
}

/* "parent preorder level size"; -1 for the root's parent, "-" for what a
 * variant did not compute. */
static void treestats_write(FILE *f, const void *result, uint64_t i)
{
    const clirr_tree_stats *t = &((const clirr_tree_stats *)result)[i];
    fprintf(f, "%d ", t->parent == NONE ? -1 : (int)t->parent);
    if (t->preorder == NONE)
        fputs("- ", f);
    else
        fprintf(f, "%u ", t->preorder);
    fprintf(f, "%u ", t->level);
    if (t->size == NONE)
        fputs("-", f);
    else
        fprintf(f, "%u", t->size);
}

static const char *treestats_unsupported(const clirr_input *in, unsigned variant)
{
    const clirr_tree *t = clirr_input_tree(in);
    if (t && variant == V_WYLLIE32 && 2 * ((uint64_t)t->n - 1) >= 0xffff)
        return "wyllie32 packs 16-bit successors: Euler tours of at most 65534 arcs (trees of at most "
               "32768 vertices)";
    return NULL;
}

/* Measured (tests/bench/RESULTS.md, "List ranking and tree computations"):
 * the tour of n vertices has 2 (n - 1) arcs, so the lists' crossovers
 * apply at half the size; rhj ranks the tours of 2^20 vertices and more
 * fastest on both devices (BFS is faster still on the H100, but gives
 * only parent and level). */
static unsigned treestats_choose(const clirr_input *in, const clirr_caps *caps, const char **reason)
{
    uint32_t n = clirr_input_tree(in) ? clirr_input_tree(in)->n : 0;
    if (!caps->is_gpu && n < (1u << 17)) {
        *reason = "auto: the serial walk below 2^17 vertices on a CPU device (the lists' crossover, "
                  "measured on PoCL)";
        return V_SERIAL;
    }
    /* A tree of n vertices has a tour of 2 (n - 1) arcs: the lists'
     * crossover (2^20 elements on the H100) at 2^19 vertices. */
    if (caps->is_gpu && n < (1u << 19)) {
        *reason = "auto: Wyllie ranks the tour below 2^19 vertices on a GPU (measured on an H100)";
        return V_WYLLIE;
    }
    *reason = "auto: rhj ranks the tour (measured)";
    return V_RHJ;
}

/* The variants each parameter concerns (rhj's handoff also ranks with
 * Wyllie, under Wyllie's jumps). */
#define RHJ_ONLY (1u << V_RHJ | 1u << V_AUTO)
#define JUMPERS (1u << V_WYLLIE | 1u << V_OPT | 1u << V_RHJ | 1u << V_AUTO)

/* The same names as listrank's, so one option sets both. */
static const clirr_param_desc treestats_params[] = {LR_PARAM_DESCS(RHJ_ONLY, JUMPERS)};

static const clirr_variant_desc treestats_variants[] = {
    [V_RHJ] = {"rhj", "Euler tour ranked by rhj, then parent, size, preorder, level", false},
    [V_WYLLIE] = {"wyllie", "the tour ranked by Wyllie (64-bit words)", false},
    [V_WYLLIE32] = {"wyllie32", "the tour ranked by Wyllie (32-bit words; tours under 2^16)", false},
    [V_STEPWISE] = {"wyllie-stepwise", "the tour ranked by stepwise Wyllie", false},
    [V_OPT] = {"wyllie-opt", "the tour ranked by optimized Wyllie", false},
    [V_BFS] = {"bfs", "clirr's BFS from the root: parent and level only", true},
    [V_SERIAL] = {"serial", "the serial depth-first walk, timed", false},
    [V_AUTO] = {"auto", "by tree size and device, from measurements", false},
};

const clirr_algo clirr_algo_treestats = {
    .name = "treestats",
    .summary = "tree computations: parent, preorder, level, subtree size (Euler tour)",
    .study = "shared/papers/003 (list ranking and tree computations on GPUs)",
    .input = CLIRR_INPUT_TREE,
    .variants = treestats_variants,
    .nvariants = sizeof treestats_variants / sizeof treestats_variants[0],
    .default_variant = V_AUTO,
    .params = treestats_params,
    .nparams = sizeof treestats_params / sizeof treestats_params[0],
    .sources = CLIRR_SOURCES_NONE,
    .value_size = sizeof(clirr_tree_stats),
    .unsupported = treestats_unsupported,
    .choose_variant = treestats_choose,
    .prepare = treestats_prepare,
    .run = treestats_run,
    .release = treestats_release,
    .reference = treestats_reference,
    .verify = treestats_verify,
    .write_value = treestats_write,
    .extras = treestats_extras,
};
