/* host/algo/lrank.c - list ranking on the device (shared/papers/003): the
 * host side of cl/listrank.cl. Every launch sets all of its kernel's
 * arguments (kernels belong to the context and are shared), by name from
 * cl/listrank.def.
 *
 * rhj's recursion is planned here once: level 0 is the input; level l + 1
 * holds at most ceil(cap_l / k_l) + lists elements (a sublist per splitter
 * and at most one more per list, from its head), and a level recurses only
 * when that is at most half of it and it is above the handoff size, so the
 * levels shrink geometrically and their buffers exist before any trial. A
 * level too small, or one whose lists are too many and too short to
 * shrink, goes to the handoff: Wyllie on the device or the serial ranking
 * on the host. */
#include "algo/lrank.h"

#include "cl/common/kargs.h"
#include "cl/listrank.def"
#include "prim/prim.h"
#include "ref/listrank.h"

#include <stdlib.h>
#include <string.h>

CLIRR_KARGS_STRUCT(words_init_args, LR_WORDS_INIT_ARGS);
CLIRR_KARGS_STRUCT(words_rank_args, LR_WORDS_RANK_ARGS);
CLIRR_KARGS_STRUCT(wyllie_args, LR_WYLLIE_ARGS);
CLIRR_KARGS_STRUCT(step_args, LR_WYLLIE_STEP_ARGS);
CLIRR_KARGS_STRUCT(opt_args, LR_WYLLIE_OPT_ARGS);
CLIRR_KARGS_STRUCT(w32_init_args, LR_W32_INIT_ARGS);
CLIRR_KARGS_STRUCT(wyllie32_args, LR_WYLLIE32_ARGS);
CLIRR_KARGS_STRUCT(w32_rank_args, LR_W32_RANK_ARGS);
CLIRR_KARGS_STRUCT(fill_args, LR_FILL_ARGS);
CLIRR_KARGS_STRUCT(walk_args, LR_WALK_ARGS);
CLIRR_KARGS_STRUCT(uncovered_args, LR_UNCOVERED_ARGS);
CLIRR_KARGS_STRUCT(mark_args, LR_MARK_ARGS);
CLIRR_KARGS_STRUCT(recombine_args, LR_RECOMBINE_ARGS);
CLIRR_KARGS_STRUCT(scan_weights_args, LR_SCAN_WEIGHTS_ARGS);
CLIRR_KARGS_STRUCT(scan_rank_args, LR_SCAN_RANK_ARGS);
CLIRR_KARGS_STRUCT(tile_walk_args, LR_TILE_WALK_ARGS);
CLIRR_KARGS_STRUCT(bin_args, LR_BIN_ARGS);
CLIRR_KARGS_STRUCT(bin_scatter_args, LR_BIN_SCATTER_ARGS);
CLIRR_KARGS_STRUCT(fill_deficit_args, LR_FILL_DEFICIT_ARGS);
CLIRR_KARGS_STRUCT(unranked_args, LR_UNRANKED_ARGS);
CLIRR_KARGS_STRUCT(mark_rank_args, LR_MARK_RANK_ARGS);
CLIRR_KARGS_STRUCT(head_walk_args, LR_HEAD_WALK_ARGS);

/* Set argument `name` of kernel k (parameter list `tag`) to var. */
#define SET(k, tag, name, var) CLIRR_TRY(clirr_arg((k), CLIRR_KARG(tag, name), sizeof(var), &(var), err))
#define END CLIRR_LIST_END
/* lr_walk_chains' LR_CHAINS (the kernel's default). */
#define LR_CPU_CHAINS 16

const char *const lr_splitter_rules[] = {"nlogn", "n2log2n", NULL};
const char *const lr_handoffs[] = {"cpu", "wyllie", NULL};

void lr_config_params(const clirr_params *params, lr_config *c)
{
    c->splitters = (lr_splitters)params->v[LR_P_SPLITTERS].u;
    c->handoff = (lr_handoff)params->v[LR_P_HANDOFF].u;
    c->handoff_below = (uint32_t)params->v[LR_P_HANDOFF_BELOW].u;
    c->jumps = (uint32_t)params->v[LR_P_JUMPS].u;
}

uint32_t lr_log2_ceil(uint64_t x)
{
    uint32_t k = 1;
    while ((1ull << k) < x)
        k++;
    return k;
}

static int launch(lr_ranker *r, cl_kernel k, size_t items, clirr_error *err)
{
    return clirr_launch(r->ctx, k, items, clirr_wg_size(r->ctx, k, 0), err);
}

/* The splitter interval of a level of at most cap elements. */
static uint32_t interval(const lr_config *cfg, uint32_t cap)
{
    uint64_t lg = lr_log2_ceil(cap);
    uint64_t k = cfg->splitters == LR_SPLIT_NLOGN ? lg : 2 * lg * lg;
    return k < 2 ? 2 : k > cap ? (cap < 2 ? 2 : cap) : (uint32_t)k;
}

/* Jumps a Wyllie launch makes: as many as the PRAM needs on a GPU, whose
 * work-groups all progress together so that one launch usually finishes;
 * on a CPU, whose work-groups run one after another, a later element has
 * not moved when an earlier one reads it, and extra jumps buy little. */
static uint32_t jumps_for(const lr_ranker *r, uint32_t m)
{
    if (r->cfg.jumps)
        return r->cfg.jumps;
    return clirr_ctx_caps(r->ctx)->is_gpu ? lr_log2_ceil(m) : 2;
}

static int get(lr_ranker *r, cl_program p, const char *name, cl_uint nargs, cl_kernel *k, clirr_error *err)
{
    return clirr_kernel_get_checked(r->ctx, p, name, nargs, k, err);
}

static int get_kernels(lr_ranker *r, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program p = NULL;
    CLIRR_TRY(clirr_program_get(r->ctx, "listrank.cl", "", &p, err));
    CLIRR_TRY(get(r, p, "lr_words_init", CLIRR_KNARGS(words_init_args), &r->words_init, err));
    CLIRR_TRY(get(r, p, "lr_words_rank", CLIRR_KNARGS(words_rank_args), &r->words_rank, err));
    CLIRR_TRY(get(r, p, "lr_wyllie", CLIRR_KNARGS(wyllie_args), &r->wyllie, err));
    CLIRR_TRY(get(r, p, "lr_wyllie_step", CLIRR_KNARGS(step_args), &r->step, err));
    CLIRR_TRY(get(r, p, "lr_wyllie_opt", CLIRR_KNARGS(opt_args), &r->opt, err));
    CLIRR_TRY(get(r, p, "lr_w32_init", CLIRR_KNARGS(w32_init_args), &r->w32_init, err));
    CLIRR_TRY(get(r, p, "lr_wyllie32", CLIRR_KNARGS(wyllie32_args), &r->wyllie32, err));
    CLIRR_TRY(get(r, p, "lr_w32_rank", CLIRR_KNARGS(w32_rank_args), &r->w32_rank, err));
    CLIRR_TRY(get(r, p, "lr_fill", CLIRR_KNARGS(fill_args), &r->fill, err));
    CLIRR_TRY(get(r, p, "lr_walk", CLIRR_KNARGS(walk_args), &r->walk, err));
    CLIRR_TRY(get(r, p, "lr_walk_chains", CLIRR_KNARGS(walk_args), &r->walk_chains, err));
    CLIRR_TRY(get(r, p, "lr_uncovered", CLIRR_KNARGS(uncovered_args), &r->uncovered, err));
    CLIRR_TRY(get(r, p, "lr_mark", CLIRR_KNARGS(mark_args), &r->mark, err));
    CLIRR_TRY(get(r, p, "lr_recombine", CLIRR_KNARGS(recombine_args), &r->recombine, err));
    CLIRR_TRY(get(r, p, "lr_scan_weights", CLIRR_KNARGS(scan_weights_args), &r->scan_weights, err));
    CLIRR_TRY(get(r, p, "lr_scan_rank", CLIRR_KNARGS(scan_rank_args), &r->scan_rank, err));
    if (r->cfg.method == LR_RHJ_LOCAL) {
        CLIRR_TRY(get(r, p, "lr_tile_walk", CLIRR_KNARGS(tile_walk_args), &r->tile_walk, err));
        CLIRR_TRY(get(r, p, "lr_bin", CLIRR_KNARGS(bin_args), &r->bin, err));
        CLIRR_TRY(get(r, p, "lr_bin_scatter", CLIRR_KNARGS(bin_scatter_args), &r->bin_scatter, err));
        CLIRR_TRY(get(r, p, "lr_fill_deficit", CLIRR_KNARGS(fill_deficit_args), &r->fill_deficit, err));
        CLIRR_TRY(get(r, p, "lr_unranked", CLIRR_KNARGS(unranked_args), &r->unranked, err));
        CLIRR_TRY(get(r, p, "lr_mark_rank", CLIRR_KNARGS(mark_rank_args), &r->mark_rank, err));
        CLIRR_TRY(get(r, p, "lr_head_walk", CLIRR_KNARGS(head_walk_args), &r->head_walk, err));
    }
fail:
    return rc;
}

static int buf(lr_ranker *r, const char *what, uint64_t bytes, cl_mem *m, clirr_error *err)
{
    return clirr_buf_create(r->ctx, what, (size_t)bytes, m, err);
}

/* rhj's levels from `first` (of at most cap elements) on: sizes,
 * intervals, where to stop; then their buffers. */
static int plan_levels(lr_ranker *r, unsigned first, uint32_t cap, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint64_t lists = r->cfg.known_head ? 1 : (r->cfg.lists ? r->cfg.lists : r->n);
    for (unsigned l = first; l < LR_MAX_LEVELS; l++) {
        lr_level *lv = &r->lv[l];
        lv->cap = cap;
        lv->k = interval(&r->cfg, cap);
        uint64_t next = (cap + (uint64_t)lv->k - 1) / lv->k + lists;
        lv->recurse = cap > r->cfg.handoff_below && cap > 1 && next <= cap / 2 && l + 1 < LR_MAX_LEVELS;
        r->nlevels = l + 1;
        /* Level 0's successors and ranks are the caller's; its info (or
         * the handoff's words) is 8 bytes an element. */
        CLIRR_TRY(buf(r, "list ranking's sublist words", 8ull * cap, &lv->info, err));
        if (l > 0) {
            CLIRR_TRY(buf(r, "a reduced list's successors", 4ull * cap, &lv->succ, err));
            CLIRR_TRY(buf(r, "a reduced list's weights", 4ull * cap, &lv->weight, err));
            CLIRR_TRY(buf(r, "a reduced list's ranks", 4ull * cap, &lv->rank, err));
        }
        if (!lv->recurse)
            break;
        cap = (uint32_t)next;
    }
    lr_level *last = &r->lv[r->nlevels - 1];
    if (r->cfg.handoff == LR_HANDOFF_CPU) {
        size_t c = (size_t)last->cap + 1;
        r->host_succ = malloc(c * sizeof *r->host_succ);
        r->host_weight = malloc(c * sizeof *r->host_weight);
        r->host_rank = malloc(c * sizeof *r->host_rank);
        if (!r->host_succ || !r->host_weight || !r->host_rank)
            rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the cpu handoff");
    }
fail:
    return rc;
}

/* rhj-local's first level takes a walker LR_CAP_STEPS times the splitter
 * interval before its first cut (2x had the fastest walk plus binning of
 * 2x, 3x and 4x on an H100, 64M random elements); without a window from
 * the device's cache, LR_DEFAULT_WINDOW elements. */
#define LR_CAP_STEPS 2
#define LR_DEFAULT_WINDOW (1u << 20)

/* The window of the scatter: the device's cache (an H100 says 4 MiB,
 * which its measured best window was) unless told, at most LR_MAX_BINS
 * windows. */
static uint32_t window_for(const lr_ranker *r)
{
    const clirr_caps *caps = clirr_ctx_caps(r->ctx);
    uint64_t n = r->n, w = r->cfg.window ? r->cfg.window
                          : caps->global_cache >= 4096 ? caps->global_cache / 4 : LR_DEFAULT_WINDOW;
    if (w > n)
        w = n;
    if ((n + w - 1) / w > LR_MAX_BINS)
        w = (n + LR_MAX_BINS - 1) / LR_MAX_BINS;
    return (uint32_t)w;
}

/* rhj-local: the first level's tile, windows and buffers, then rhj's
 * levels from the reduced list (a sublist per splitter and per cut, at
 * most n / cap0 cuts). Where the list is too small to recurse, or the tile
 * and bins would not fit the device's memory, or lr_bin its local memory
 * with 64 work-items, the first level is rhj's own. */
static int plan_local(lr_ranker *r, clirr_error *err)
{
    int rc = CLIRR_OK;
    lr_local *L = &r->loc;
    const clirr_caps *caps = clirr_ctx_caps(r->ctx);
    uint32_t n = r->n, k = interval(&r->cfg, n);
    uint64_t S = ((uint64_t)n + k - 1) / k;
    L->cap0 = LR_CAP_STEPS * k;
    uint64_t cuts = n / L->cap0 + 1, reduced = S + cuts;
    /* Round r > 0 has a walker per cut of round r - 1, each given twice the
     * steps that walker took: at most 2 n words over all of them. */
    L->tile_words = (uint64_t)L->cap0 * S + 2ull * n;
    L->wsz = window_for(r);
    L->nbins = (uint32_t)(((uint64_t)n + L->wsz - 1) / L->wsz);
    uint64_t tile_bytes = 4 * L->tile_words, bins_bytes = 8ull * L->nbins * L->wsz;
    bool fits = tile_bytes <= caps->max_alloc && bins_bytes <= caps->max_alloc &&
                tile_bytes + bins_bytes <= caps->global_mem / 2;
    /* lr_bin: its work-group's pairs staged in local memory beside three
     * arrays of LR_MAX_BINS counters; at least 64 work-items (its scan). */
    uint64_t lmem = caps->local_mem, fixed = 3ull * LR_MAX_BINS * 4;
    size_t wg = 256;
    while (wg >= 64 && fixed + (uint64_t)wg * LR_BIN_ITEMS * 8 > lmem)
        wg /= 2;
    wg = clirr_wg_size(r->ctx, r->bin, wg); /* and as the kernel allows */
    L->bin_wg = (uint32_t)wg;
    fits = fits && wg >= 64 && fixed + (uint64_t)wg * LR_BIN_ITEMS * 8 <= lmem;
    L->on = fits && n > r->cfg.handoff_below && n > 1 && reduced <= n / 2 && reduced < 0xffffffffu;
    if (!L->on)
        return plan_levels(r, 0, n, err);
    lr_level *lv = &r->lv[0];
    lv->cap = n;
    lv->k = k;
    lv->recurse = true;
    CLIRR_TRY(buf(r, "rhj-local's tile", tile_bytes, &L->tile, err));
    CLIRR_TRY(buf(r, "rhj-local's bins", bins_bytes, &L->bins, err));
    CLIRR_TRY(buf(r, "rhj-local's bin counts", 4ull * L->nbins, &L->bincount, err));
    CLIRR_TRY(buf(r, "rhj-local's continuations", 4 * cuts, &L->cstart, err));
    CLIRR_TRY(plan_levels(r, 1, (uint32_t)reduced, err));
fail:
    return rc;
}

int lr_init(lr_ranker *r, clirr_ctx *ctx, uint32_t n, const lr_config *cfg, clirr_error *err)
{
    int rc = CLIRR_OK;
    memset(r, 0, sizeof *r);
    r->ctx = ctx;
    r->cfg = *cfg;
    r->n = n ? n : 1;
    r->chains = clirr_ctx_caps(ctx)->is_gpu ? 1 : LR_CPU_CHAINS;
    if (cfg->method == LR_WYLLIE32 && n >= 0xffff)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "wyllie32 packs 16-bit successors: lists of at most "
                          "65534 elements, not %u", n);
    CLIRR_TRY(get_kernels(r, err));
    CLIRR_TRY(buf(r, "a flag", 4, &r->flag, err));
    CLIRR_TRY(buf(r, "a counter", 4, &r->count_u, err));
    CLIRR_TRY(buf(r, "a counter", 4, &r->count_h, err));
    switch (cfg->method) {
    case LR_WYLLIE:
        CLIRR_TRY(buf(r, "Wyllie's words", 8ull * r->n, &r->lv[0].info, err));
        break;
    case LR_WYLLIE32:
        CLIRR_TRY(buf(r, "Wyllie's words", 4ull * r->n, &r->lv[0].info, err));
        break;
    case LR_STEPWISE:
        CLIRR_TRY(buf(r, "Wyllie's words", 8ull * r->n, &r->lv[0].info, err));
        CLIRR_TRY(buf(r, "Wyllie's words", 8ull * r->n, &r->words2, err));
        break;
    case LR_OPT:
        CLIRR_TRY(buf(r, "Wyllie's words", 8ull * r->n, &r->lv[0].info, err));
        CLIRR_TRY(buf(r, "a worklist", 4ull * r->n, &r->wl, err));
        CLIRR_TRY(buf(r, "a worklist", 4ull * r->n, &r->wl_next, err));
        CLIRR_TRY(buf(r, "worklist marks", 4ull * r->n, &r->active, err));
        break;
    case LR_RHJ:
        CLIRR_TRY(plan_levels(r, 0, r->n, err));
        break;
    case LR_RHJ_LOCAL:
        CLIRR_TRY(plan_local(r, err));
        break;
    case LR_SCAN:
        CLIRR_TRY(buf(r, "the scan's weights", 4ull * r->n, &r->wl, err));
        break;
    }
    return CLIRR_OK;
fail:
    lr_release(r);
    return rc;
}

void lr_release(lr_ranker *r)
{
    clirr_mem_release(&r->loc.tile);
    clirr_mem_release(&r->loc.cstart);
    clirr_mem_release(&r->loc.bins);
    clirr_mem_release(&r->loc.bincount);
    for (unsigned l = 0; l < LR_MAX_LEVELS; l++) {
        clirr_mem_release(&r->lv[l].info);
        clirr_mem_release(&r->lv[l].succ);
        clirr_mem_release(&r->lv[l].weight);
        clirr_mem_release(&r->lv[l].rank);
    }
    clirr_mem_release(&r->words2);
    clirr_mem_release(&r->wl);
    clirr_mem_release(&r->wl_next);
    clirr_mem_release(&r->active);
    clirr_mem_release(&r->flag);
    clirr_mem_release(&r->count_u);
    clirr_mem_release(&r->count_h);
    free(r->host_succ);
    free(r->host_weight);
    free(r->host_rank);
    memset(r, 0, sizeof *r);
}

static int read_u32(lr_ranker *r, cl_mem m, uint32_t *v, clirr_error *err)
{
    r->stats.readbacks++;
    return clirr_buf_read(r->ctx, m, 0, sizeof *v, v, err);
}

/* ---- Wyllie -------------------------------------------------------------- */

/* words[i] = (weight of i, succ[i]) for m elements; weight NULL: one per
 * link. */
static int words_init(lr_ranker *r, cl_mem succ, cl_mem weight, uint32_t m, cl_mem words, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t weighted = weight != NULL;
    cl_mem w = weight ? weight : succ;
    SET(r->words_init, words_init_args, succ, succ);
    SET(r->words_init, words_init_args, weight, w);
    SET(r->words_init, words_init_args, weighted, weighted);
    SET(r->words_init, words_init_args, m, m);
    SET(r->words_init, words_init_args, words, words);
    CLIRR_TRY(launch(r, r->words_init, m, err));
fail:
    return rc;
}

/* rank[i] = the rank half of words[i]. */
static int words_rank(lr_ranker *r, cl_mem words, uint32_t m, cl_mem rank, clirr_error *err)
{
    int rc = CLIRR_OK;
    SET(r->words_rank, words_rank_args, words, words);
    SET(r->words_rank, words_rank_args, m, m);
    SET(r->words_rank, words_rank_args, rank, rank);
    CLIRR_TRY(launch(r, r->words_rank, m, err));
fail:
    return rc;
}

/* Launch a jumping kernel (its arguments set, `unfinished` = r->flag) over
 * m elements until a launch leaves the flag down. */
static int jump_until_done(lr_ranker *r, cl_kernel k, uint32_t m, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (uint32_t flag = 1; flag;) {
        CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->flag, 0, 1, 0, err));
        CLIRR_TRY(launch(r, k, m, err));
        r->stats.launches++;
        CLIRR_TRY(read_u32(r, r->flag, &flag, err));
    }
fail:
    return rc;
}

/* Weighted Wyllie over words (8 bytes an element) until every element has
 * reached its tail: launches of up to `jumps` jumps, a flag read after
 * each. weight == NULL: one per link. */
static int wyllie64(lr_ranker *r, cl_mem succ, cl_mem weight, uint32_t m, cl_mem words, cl_mem rank,
                    clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t jumps = jumps_for(r, m);
    CLIRR_TRY(words_init(r, succ, weight, m, words, err));
    SET(r->wyllie, wyllie_args, words, words);
    SET(r->wyllie, wyllie_args, m, m);
    SET(r->wyllie, wyllie_args, jumps, jumps);
    SET(r->wyllie, wyllie_args, unfinished, r->flag);
    CLIRR_TRY(jump_until_done(r, r->wyllie, m, err));
    CLIRR_TRY(words_rank(r, words, m, rank, err));
fail:
    return rc;
}

static int wyllie32(lr_ranker *r, cl_mem succ, uint32_t m, cl_mem rank, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_mem words = r->lv[0].info;
    uint32_t jumps = jumps_for(r, m);
    SET(r->w32_init, w32_init_args, succ, succ);
    SET(r->w32_init, w32_init_args, m, m);
    SET(r->w32_init, w32_init_args, words, words);
    CLIRR_TRY(launch(r, r->w32_init, m, err));
    SET(r->wyllie32, wyllie32_args, words, words);
    SET(r->wyllie32, wyllie32_args, m, m);
    SET(r->wyllie32, wyllie32_args, jumps, jumps);
    SET(r->wyllie32, wyllie32_args, unfinished, r->flag);
    CLIRR_TRY(jump_until_done(r, r->wyllie32, m, err));
    SET(r->w32_rank, w32_rank_args, words, words);
    SET(r->w32_rank, w32_rank_args, m, m);
    SET(r->w32_rank, w32_rank_args, rank, rank);
    CLIRR_TRY(launch(r, r->w32_rank, m, err));
fail:
    return rc;
}

/* ceil(log2 m) synchronous steps reach every tail (spans double). */
static int stepwise(lr_ranker *r, cl_mem succ, uint32_t m, cl_mem rank, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_mem a = r->lv[0].info, b = r->words2;
    CLIRR_TRY(words_init(r, succ, NULL, m, a, err));
    uint32_t steps = m > 1 ? lr_log2_ceil(m) : 0;
    for (uint32_t t = 0; t < steps; t++) {
        SET(r->step, step_args, in, a);
        SET(r->step, step_args, out, b);
        SET(r->step, step_args, m, m);
        CLIRR_TRY(launch(r, r->step, m, err));
        r->stats.launches++;
        cl_mem x = a;
        a = b;
        b = x;
    }
    CLIRR_TRY(words_rank(r, a, m, rank, err));
fail:
    return rc;
}

/* Unfinished elements only: each launch over the worklist, then the
 * compaction keeps those still short of their tail. */
static int optimized(lr_ranker *r, cl_mem succ, uint32_t m, cl_mem rank, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_mem words = r->lv[0].info;
    uint32_t jumps = jumps_for(r, m);
    CLIRR_TRY(words_init(r, succ, NULL, m, words, err));
    CLIRR_TRY(clirr_prim_iota_u32(r->ctx, r->wl, m, 0, err));
    for (uint32_t count = m; count;) {
        SET(r->opt, opt_args, words, words);
        SET(r->opt, opt_args, items, r->wl);
        SET(r->opt, opt_args, count, count);
        SET(r->opt, opt_args, jumps, jumps);
        SET(r->opt, opt_args, active, r->active);
        CLIRR_TRY(launch(r, r->opt, count, err));
        r->stats.launches++;
        uint32_t left = 0;
        CLIRR_TRY(clirr_prim_compact_u32(r->ctx, r->active, 1, r->wl, count, r->wl_next, r->n, &left, err));
        r->stats.readbacks++;
        cl_mem x = r->wl;
        r->wl = r->wl_next;
        r->wl_next = x;
        count = left;
    }
    CLIRR_TRY(words_rank(r, words, m, rank, err));
fail:
    return rc;
}

/* The study's lower bound for an ordered list: rank[i] = links from i on. */
static int by_scan(lr_ranker *r, cl_mem succ, uint32_t m, cl_mem rank, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t total = m - 1; /* one ordered list: m - 1 links */
    SET(r->scan_weights, scan_weights_args, succ, succ);
    SET(r->scan_weights, scan_weights_args, m, m);
    SET(r->scan_weights, scan_weights_args, w, r->wl);
    CLIRR_TRY(launch(r, r->scan_weights, m, err));
    CLIRR_TRY(clirr_prim_scan_u32(r->ctx, r->wl, r->wl, m, NULL, err));
    SET(r->scan_rank, scan_rank_args, excl, r->wl);
    SET(r->scan_rank, scan_rank_args, m, m);
    SET(r->scan_rank, scan_rank_args, total, total);
    SET(r->scan_rank, scan_rank_args, rank, rank);
    CLIRR_TRY(launch(r, r->scan_rank, m, err));
fail:
    return rc;
}

/* ---- rhj ----------------------------------------------------------------- */

/* A level too small or too fragmented to recurse. */
static int handoff(lr_ranker *r, lr_level *lv, cl_mem succ, cl_mem weight, uint32_t m, cl_mem rank,
                   clirr_error *err)
{
    int rc = CLIRR_OK;
    if (r->cfg.handoff == LR_HANDOFF_WYLLIE)
        return wyllie64(r, succ, weight, m, lv->info, rank, err);
    CLIRR_TRY(clirr_buf_read(r->ctx, succ, 0, (size_t)m * 4, r->host_succ, err));
    if (weight)
        CLIRR_TRY(clirr_buf_read(r->ctx, weight, 0, (size_t)m * 4, r->host_weight, err));
    r->stats.readbacks++;
    CLIRR_TRY(clirr_ref_listrank(m, r->host_succ, weight ? r->host_weight : NULL, r->host_rank, err));
    CLIRR_TRY(clirr_buf_write(r->ctx, rank, 0, (size_t)m * 4, r->host_rank, err));
fail:
    return rc;
}

static int walk(lr_ranker *r, lr_level *lv, lr_level *next, cl_mem succ, cl_mem weight, uint32_t mode,
                cl_mem starts, uint32_t nstarts, uint32_t first, uint32_t base, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t weighted = weight != NULL;
    cl_mem w = weight ? weight : succ;
    cl_mem st = starts ? starts : succ;
    /* The splitters' walks interleave `chains` to a work-item on CPUs. */
    bool chained = mode == 0 && r->chains > 1;
    cl_kernel kw = chained ? r->walk_chains : r->walk;
    SET(kw, walk_args, succ, succ);
    SET(kw, walk_args, weight, w);
    SET(kw, walk_args, weighted, weighted);
    SET(kw, walk_args, k, lv->k);
    SET(kw, walk_args, mode, mode);
    SET(kw, walk_args, starts, st);
    SET(kw, walk_args, nstarts, nstarts);
    SET(kw, walk_args, first, first);
    SET(kw, walk_args, base, base);
    SET(kw, walk_args, counter, r->count_h);
    SET(kw, walk_args, info, lv->info);
    SET(kw, walk_args, rsucc, next->succ);
    SET(kw, walk_args, rweight, next->weight);
    size_t items = chained ? (nstarts + r->chains - 1) / r->chains : nstarts;
    CLIRR_TRY(clirr_launch(r->ctx, kw, items, clirr_wg_size(r->ctx, kw, r->cfg.walk_wg), err));
fail:
    return rc;
}

/* The heads among the elements no splitter's walk reached: walk from
 * them too (sublists S, S + 1, ...); *heads gets their number. */
static int cover_heads(lr_ranker *r, lr_level *lv, lr_level *next, cl_mem succ, cl_mem weight, uint32_t m,
                       uint32_t S, cl_mem scratch, uint32_t *heads, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t U = 0;
    *heads = 0;
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->count_u, 0, 1, 0, err));
    SET(r->uncovered, uncovered_args, info, lv->info);
    SET(r->uncovered, uncovered_args, m, m);
    SET(r->uncovered, uncovered_args, list, scratch);
    SET(r->uncovered, uncovered_args, count, r->count_u);
    size_t wg = clirr_wg_size(r->ctx, r->uncovered, 0);
    size_t groups = (m + wg - 1) / wg, most = 16 * (size_t)clirr_ctx_caps(r->ctx)->compute_units;
    CLIRR_TRY(clirr_launch(r->ctx, r->uncovered, (groups < most ? groups : most) * wg, wg, err));
    CLIRR_TRY(read_u32(r, r->count_u, &U, err));
    if (!U)
        return CLIRR_OK;
    SET(r->mark, mark_args, succ, succ);
    SET(r->mark, mark_args, list, scratch);
    SET(r->mark, mark_args, count, U);
    SET(r->mark, mark_args, k, lv->k);
    SET(r->mark, mark_args, info, lv->info);
    CLIRR_TRY(launch(r, r->mark, U, err));
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->count_h, 0, 1, 0, err));
    CLIRR_TRY(walk(r, lv, next, succ, weight, 1, scratch, U, 0, S, err));
    CLIRR_TRY(read_u32(r, r->count_h, heads, err));
fail:
    return rc;
}

/* Rank level l: succ / weight (NULL: one per link) of m elements into
 * rank. head: the known head of the one list, or END. */
static int rhj_level(lr_ranker *r, unsigned l, cl_mem succ, cl_mem weight, uint32_t m, cl_mem rank,
                     uint32_t head, clirr_error *err)
{
    int rc = CLIRR_OK;
    lr_level *lv = &r->lv[l];
    if (m == 0)
        return CLIRR_OK;
    if (!lv->recurse)
        return handoff(r, lv, succ, weight, m, rank, err);
    lr_level *next = &r->lv[l + 1];
    uint32_t k = lv->k, S = (uint32_t)(((uint64_t)m + k - 1) / k), H = 0, next_head = END;
    r->stats.levels++;
    if (l == 0)
        r->stats.sublists = S;
    SET(r->fill, fill_args, info, lv->info);
    SET(r->fill, fill_args, m, m);
    CLIRR_TRY(launch(r, r->fill, m, err));
    CLIRR_TRY(walk(r, lv, next, succ, weight, 0, NULL, S, 0, 0, err));
    if (head != END) {
        if (head % k) {
            CLIRR_TRY(walk(r, lv, next, succ, weight, 2, NULL, 1, head, S, err));
            H = 1;
            next_head = S;
        } else {
            next_head = head / k;
        }
    } else {
        /* The rank buffer is free until the recombination: the uncovered
         * elements go there. */
        CLIRR_TRY(cover_heads(r, lv, next, succ, weight, m, S, rank, &H, err));
    }
    CLIRR_TRY(rhj_level(r, l + 1, next->succ, next->weight, S + H, next->rank, next_head, err));
    SET(r->recombine, recombine_args, info, lv->info);
    SET(r->recombine, recombine_args, m, m);
    SET(r->recombine, recombine_args, R, next->rank);
    SET(r->recombine, recombine_args, rank, rank);
    CLIRR_TRY(launch(r, r->recombine, m, err));
fail:
    return rc;
}

/* ---- rhj-local ----------------------------------------------------------- */

/* The walk rounds: from the splitters, then from the cuts of the round
 * before (cap doubled) until no walker is cut; *sublists gets the reduced
 * list's length. */
static int tile_walks(lr_ranker *r, cl_mem succ, uint32_t m, uint32_t *sublists, clirr_error *err)
{
    int rc = CLIRR_OK;
    lr_local *L = &r->loc;
    lr_level *next = &r->lv[1];
    uint32_t k = r->lv[0].k, S = (uint32_t)(((uint64_t)m + k - 1) / k);
    uint32_t lo = 0, hi = 0, ncols = S, cap = L->cap0 < m ? L->cap0 : m;
    uint64_t off = 0;
    L->nrounds = 0;
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->count_h, 0, 1, 0, err));
    while (ncols) {
        if (L->nrounds == LR_MAX_ROUNDS || off + (uint64_t)cap * ncols > L->tile_words)
            return clirr_fail(err, CLIRR_ERR_TOO_LARGE, "rhj-local: the walk rounds outgrew their tile "
                              "(%u rounds, %llu words)", L->nrounds, (unsigned long long)L->tile_words);
        lr_round *rd = &L->round[L->nrounds++];
        uint32_t mode = L->nrounds > 1;
        *rd = (lr_round){off, ncols, cap, mode ? S + lo : 0};
        cl_kernel kw = r->tile_walk;
        SET(kw, tile_walk_args, succ, succ);
        SET(kw, tile_walk_args, k, k);
        SET(kw, tile_walk_args, mode, mode);
        SET(kw, tile_walk_args, cstart, L->cstart);
        SET(kw, tile_walk_args, first, lo);
        SET(kw, tile_walk_args, ncols, ncols);
        SET(kw, tile_walk_args, cap, cap);
        SET(kw, tile_walk_args, base, rd->base);
        SET(kw, tile_walk_args, cbase, S);
        SET(kw, tile_walk_args, tile, L->tile);
        SET(kw, tile_walk_args, toff, off);
        SET(kw, tile_walk_args, rsucc, next->succ);
        SET(kw, tile_walk_args, rweight, next->weight);
        SET(kw, tile_walk_args, counter, r->count_h);
        CLIRR_TRY(clirr_launch(r->ctx, kw, ncols, clirr_wg_size(r->ctx, kw, r->cfg.walk_wg), err));
        off += (uint64_t)cap * ncols;
        uint32_t cut = 0;
        CLIRR_TRY(read_u32(r, r->count_h, &cut, err));
        lo = hi;
        hi = cut;
        ncols = hi - lo;
        cap = cap > m / 2 ? m : 2 * cap;
    }
    r->stats.rounds = L->nrounds;
    *sublists = S + hi;
fail:
    return rc;
}

/* Every round's pairs into their windows' bins, then the bins scattered;
 * windows left short are set to CLIRR_NONE first, to find what no walk
 * reached. */
static int bin_and_scatter(lr_ranker *r, uint32_t m, cl_mem rank, clirr_error *err)
{
    int rc = CLIRR_OK;
    lr_local *L = &r->loc;
    uint32_t nbins = (uint32_t)(((uint64_t)m + L->wsz - 1) / L->wsz);
    uint64_t nslots = (uint64_t)nbins * L->wsz;
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, L->bincount, 0, nbins, 0, err));
    size_t wg = L->bin_wg; /* planned: local memory and the kernel allow it, at least 64 */
    CLIRR_TRY(clirr_arg(r->bin, CLIRR_KARG(bin_args, stage), wg * LR_BIN_ITEMS * 8, NULL, err));
    for (unsigned i = 0; i < L->nrounds; i++) {
        lr_round *rd = &L->round[i];
        uint64_t positions = (uint64_t)rd->ncols * rd->cap, per = (uint64_t)wg * LR_BIN_ITEMS;
        SET(r->bin, bin_args, tile, L->tile);
        SET(r->bin, bin_args, toff, rd->off);
        SET(r->bin, bin_args, ncols, rd->ncols);
        SET(r->bin, bin_args, cap, rd->cap);
        SET(r->bin, bin_args, base, rd->base);
        SET(r->bin, bin_args, R, r->lv[1].rank);
        SET(r->bin, bin_args, nbins, nbins);
        SET(r->bin, bin_args, wsz, L->wsz);
        SET(r->bin, bin_args, bins, L->bins);
        SET(r->bin, bin_args, bincount, L->bincount);
        CLIRR_TRY(clirr_launch(r->ctx, r->bin, (size_t)((positions + per - 1) / per) * wg, wg, err));
    }
    size_t spans = (size_t)(((uint64_t)m + LR_SPAN - 1) / LR_SPAN);
    SET(r->fill_deficit, fill_deficit_args, bincount, L->bincount);
    SET(r->fill_deficit, fill_deficit_args, wsz, L->wsz);
    SET(r->fill_deficit, fill_deficit_args, m, m);
    SET(r->fill_deficit, fill_deficit_args, rank, rank);
    CLIRR_TRY(launch(r, r->fill_deficit, spans, err));
    SET(r->bin_scatter, bin_scatter_args, bins, L->bins);
    SET(r->bin_scatter, bin_scatter_args, bincount, L->bincount);
    SET(r->bin_scatter, bin_scatter_args, wsz, L->wsz);
    SET(r->bin_scatter, bin_scatter_args, nslots, nslots);
    SET(r->bin_scatter, bin_scatter_args, rank, rank);
    CLIRR_TRY(launch(r, r->bin_scatter, (size_t)nslots, err));
fail:
    return rc;
}

/* The elements before each list's first splitter (still CLIRR_NONE): from
 * each head, walk to the splitter (ranked now) or the tail. The bins,
 * scattered already, hold the list of them. */
static int rank_heads(lr_ranker *r, cl_mem succ, uint32_t m, cl_mem rank, clirr_error *err)
{
    int rc = CLIRR_OK;
    lr_local *L = &r->loc;
    uint32_t U = 0, k = r->lv[0].k;
    CLIRR_TRY(clirr_prim_fill_u32(r->ctx, r->count_u, 0, 1, 0, err));
    SET(r->unranked, unranked_args, bincount, L->bincount);
    SET(r->unranked, unranked_args, wsz, L->wsz);
    SET(r->unranked, unranked_args, m, m);
    SET(r->unranked, unranked_args, rank, rank);
    SET(r->unranked, unranked_args, list, L->bins);
    SET(r->unranked, unranked_args, count, r->count_u);
    CLIRR_TRY(launch(r, r->unranked, (size_t)(((uint64_t)m + LR_SPAN - 1) / LR_SPAN), err));
    CLIRR_TRY(read_u32(r, r->count_u, &U, err));
    if (!U)
        return CLIRR_OK;
    SET(r->mark_rank, mark_rank_args, succ, succ);
    SET(r->mark_rank, mark_rank_args, list, L->bins);
    SET(r->mark_rank, mark_rank_args, count, U);
    SET(r->mark_rank, mark_rank_args, k, k);
    SET(r->mark_rank, mark_rank_args, rank, rank);
    CLIRR_TRY(launch(r, r->mark_rank, U, err));
    SET(r->head_walk, head_walk_args, succ, succ);
    SET(r->head_walk, head_walk_args, list, L->bins);
    SET(r->head_walk, head_walk_args, count, U);
    SET(r->head_walk, head_walk_args, k, k);
    SET(r->head_walk, head_walk_args, rank, rank);
    CLIRR_TRY(launch(r, r->head_walk, U, err));
fail:
    return rc;
}

/* The first level: walks into the tile, the reduced list ranked by rhj's
 * levels (its heads found there, whatever the input's), the ranks binned
 * and scattered, then the elements no walk reached. */
static int rhj_local(lr_ranker *r, cl_mem succ, uint32_t m, cl_mem rank, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint32_t sublists = 0;
    lr_level *next = &r->lv[1];
    if (m == 0)
        return CLIRR_OK;
    r->stats.levels++;
    r->stats.sublists = ((uint64_t)m + r->lv[0].k - 1) / r->lv[0].k;
    CLIRR_TRY(tile_walks(r, succ, m, &sublists, err));
    CLIRR_TRY(rhj_level(r, 1, next->succ, next->weight, sublists, next->rank, END, err));
    CLIRR_TRY(bin_and_scatter(r, m, rank, err));
    CLIRR_TRY(rank_heads(r, succ, m, rank, err));
fail:
    return rc;
}

int lr_rank(lr_ranker *r, cl_mem succ, uint32_t m, cl_mem rank, uint32_t head, clirr_error *err)
{
    memset(&r->stats, 0, sizeof r->stats);
    if (m > r->n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "a list of %u elements given to a ranker of %u", m, r->n);
    switch (r->cfg.method) {
    case LR_WYLLIE: return wyllie64(r, succ, NULL, m, r->lv[0].info, rank, err);
    case LR_WYLLIE32: return wyllie32(r, succ, m, rank, err);
    case LR_STEPWISE: return stepwise(r, succ, m, rank, err);
    case LR_OPT: return optimized(r, succ, m, rank, err);
    case LR_RHJ: return rhj_level(r, 0, succ, NULL, m, rank, head, err);
    case LR_SCAN: return by_scan(r, succ, m, rank, err);
    case LR_RHJ_LOCAL:
        if (r->loc.on)
            return rhj_local(r, succ, m, rank, err);
        return rhj_level(r, 0, succ, NULL, m, rank, head, err);
    }
    return clirr_fail(err, CLIRR_ERR_USAGE, "unknown list ranking method");
}
