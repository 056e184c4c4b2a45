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
fail:
    return rc;
}

static int buf(lr_ranker *r, const char *what, uint64_t bytes, cl_mem *m, clirr_error *err)
{
    return clirr_buf_create(r->ctx, what, (size_t)bytes, m, err);
}

/* rhj's levels: sizes, intervals, where to stop; then their buffers. */
static int plan_levels(lr_ranker *r, clirr_error *err)
{
    int rc = CLIRR_OK;
    uint64_t lists = r->cfg.known_head ? 1 : (r->cfg.lists ? r->cfg.lists : r->n);
    uint32_t cap = r->n;
    for (unsigned l = 0; l < LR_MAX_LEVELS; l++) {
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
        CLIRR_TRY(plan_levels(r, err));
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
    if (r->cfg.known_head) {
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
    }
    return clirr_fail(err, CLIRR_ERR_USAGE, "unknown list ranking method");
}
