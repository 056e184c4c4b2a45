/* host/algo/listrank.c - list ranking (shared/papers/003): the rank of
 * every element of a list input, the number of links from it to the tail
 * of its list (a tail has rank 0). Variants: the study's Wyllie versions
 * (64- and 32-bit packing, stepwise, optimized), the recursive Helman-JaJa
 * sparse ruling set (rhj, with its splitter rule and handoff), an ordered
 * list by a scan (the study's lower bound), the serial CPU ranking timed
 * (serial), and auto. The device work is host/algo/lrank.c. */
#include "algo/input.h"
#include "algo/lrank.h"
#include "algo/run.h"
#include "prim/prim.h"
#include "ref/listrank.h"

#include <stdlib.h>
#include <string.h>

enum { V_WYLLIE, V_WYLLIE32, V_STEPWISE, V_OPT, V_RHJ, V_RHJ_LOCAL, V_SCAN, V_SERIAL, V_AUTO };

/* listrank's own parameter after the ranker's. */
enum { P_WINDOW = LR_NPARAMS };

static const lr_method methods[] = {
    [V_WYLLIE] = LR_WYLLIE, [V_WYLLIE32] = LR_WYLLIE32, [V_STEPWISE] = LR_STEPWISE,
    [V_OPT] = LR_OPT, [V_RHJ] = LR_RHJ, [V_RHJ_LOCAL] = LR_RHJ_LOCAL, [V_SCAN] = LR_SCAN,
};

typedef struct listrank_session {
    clirr_ctx *ctx;
    const clirr_list *l;
    bool serial;
    cl_mem succ, rank;
    lr_ranker r;
} listrank_session;

static void listrank_release(void *state)
{
    listrank_session *s = state;
    lr_release(&s->r);
    clirr_mem_release(&s->succ);
    clirr_mem_release(&s->rank);
    free(s);
}

static void config_from(const clirr_plan *plan, uint32_t lists, lr_config *c)
{
    memset(c, 0, sizeof *c);
    c->method = methods[plan->variant];
    lr_config_params(&plan->params, c);
    c->lists = lists;
    c->walk_wg = plan->wg_size;
    c->window = (uint32_t)plan->params.v[P_WINDOW].u;
}

static int listrank_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **out,
                            clirr_error *err)
{
    int rc = CLIRR_OK;
    listrank_session *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    s->ctx = ctx;
    s->l = clirr_input_list(in);
    s->serial = plan->variant == V_SERIAL;
    if (!s->serial) {
        size_t bytes = (size_t)s->l->n * sizeof(uint32_t);
        lr_config cfg;
        config_from(plan, s->l->lists, &cfg);
        CLIRR_TRY(lr_init(&s->r, ctx, s->l->n, &cfg, err));
        CLIRR_TRY(clirr_buf_create(ctx, "the successors", bytes, &s->succ, err));
        CLIRR_TRY(clirr_buf_create(ctx, "the ranks", bytes, &s->rank, err));
        CLIRR_TRY(clirr_buf_write(ctx, s->succ, 0, bytes, s->l->succ, err));
    }
    *out = s;
    return CLIRR_OK;
fail:
    listrank_release(s);
    return rc;
}

static int listrank_run(void *state, void *result, clirr_stats *stats, clirr_error *err)
{
    int rc = CLIRR_OK;
    listrank_session *s = state;
    if (s->serial) {
        stats->iterations = 1;
        return clirr_ref_listrank(s->l->n, s->l->succ, NULL, result, err);
    }
    CLIRR_TRY(lr_rank(&s->r, s->succ, s->l->n, s->rank, CLIRR_LIST_END, err));
    CLIRR_TRY(clirr_buf_read(s->ctx, s->rank, 0, (size_t)s->l->n * sizeof(uint32_t), result, err));
    /* Jump launches (Wyllie) or levels (rhj); a scan is one pass. */
    stats->iterations = s->r.stats.launches + s->r.stats.levels;
    if (!stats->iterations)
        stats->iterations = 1;
    stats->reached = s->l->n;
fail:
    return rc;
}

static void listrank_extras(void *state, const void *result, clirr_extras *x)
{
    (void)result;
    listrank_session *s = state;
    if (s->serial)
        return;
    if (s->r.cfg.method == LR_RHJ || s->r.cfg.method == LR_RHJ_LOCAL) {
        clirr_extras_add(x, "levels", CLIRR_EXTRA_UINT)->u = s->r.stats.levels;
        clirr_extras_add(x, "sublists", CLIRR_EXTRA_UINT)->u = s->r.stats.sublists;
        if (s->r.loc.on) {
            clirr_extras_add(x, "walk_rounds", CLIRR_EXTRA_UINT)->u = s->r.stats.rounds;
            clirr_extras_add(x, "windows", CLIRR_EXTRA_UINT)->u = s->r.loc.nbins;
            clirr_extras_add(x, "window_elements", CLIRR_EXTRA_UINT)->u = s->r.loc.wsz;
        }
    } else {
        clirr_extra *e = clirr_extras_add(x, "jump_launches", CLIRR_EXTRA_UINT);
        e->u = s->r.stats.launches;
        e->in_table = true;
    }
    clirr_extras_add(x, "readbacks", CLIRR_EXTRA_UINT)->u = s->r.stats.readbacks;
}

static int listrank_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    (void)plan;
    const clirr_list *l = clirr_input_list(in);
    return clirr_ref_listrank(l->n, l->succ, NULL, out, err);
}

static bool listrank_verify(const clirr_input *in, const clirr_plan *plan, const void *expected,
                            const void *got, clirr_verify_report *r)
{
    (void)plan;
    return clirr_verify_listrank(clirr_input_list(in), expected, got, r);
}

static void listrank_write(FILE *f, const void *result, uint64_t i)
{
    fprintf(f, "%u", ((const uint32_t *)result)[i]);
}

static const char *listrank_unsupported(const clirr_input *in, unsigned variant)
{
    const clirr_list *l = clirr_input_list(in);
    if (!l)
        return NULL;
    if (variant == V_WYLLIE32 && l->n >= 0xffff)
        return "wyllie32 packs a 16-bit successor and rank: lists of at most 65534 elements";
    if (variant == V_SCAN) {
        for (uint32_t i = 0; i + 1 < l->n; i++)
            if (l->succ[i] != i + 1)
                return "scan ranks one ordered list (succ[i] = i + 1) only";
        if (l->succ[l->n - 1] != CLIRR_LIST_END)
            return "scan ranks one ordered list (succ[i] = i + 1) only";
    }
    return NULL;
}

/* Measured (tests/bench/RESULTS.md, "List ranking and tree computations"):
 * on the H100, Wyllie (one or two launches of asynchronous jumps) wins up
 * to 2^19 random elements and rhj from 2^20 (0.22 against 0.26 ms), its
 * walk then outrunning Wyllie's log n rereads; rhj-local, whose scatter
 * stays in the cache, from 2^24 (1.90 against 2.24 ms; at 2^22 0.66
 * against rhj's 0.64; 2^23 not measured), on a GPU whose cache it can
 * size windows from. On PoCL with 16 cores the serial walk wins up to
 * 2^17 (1.7 against 2.1 ms) and rhj from 2^18 (3.4 against 5.1 ms). */
#define GPU_RHJ_FROM (1u << 20)
#define GPU_RHJ_LOCAL_FROM (1u << 24)
#define CPU_RHJ_FROM (1u << 18)

static unsigned listrank_choose(const clirr_input *in, const clirr_caps *caps, const char **reason)
{
    uint32_t n = clirr_input_list(in) ? clirr_input_list(in)->n : 0;
    if (caps->is_gpu) {
        if (n >= GPU_RHJ_LOCAL_FROM && caps->global_cache) {
            *reason = "auto: rhj-local from 2^24 elements on a GPU that gives its cache size (measured on an H100)";
            return V_RHJ_LOCAL;
        }
        *reason = n >= GPU_RHJ_FROM ? "auto: rhj from 2^20 elements on a GPU (measured on an H100)"
                                    : "auto: wyllie below 2^20 elements on a GPU (measured on an H100)";
        return n >= GPU_RHJ_FROM ? V_RHJ : V_WYLLIE;
    }
    *reason = n >= CPU_RHJ_FROM ? "auto: rhj from 2^18 elements on a CPU device (measured on PoCL, 16 cores)"
                                : "auto: the serial ranking below 2^18 elements on a CPU device "
                                  "(measured on PoCL, 16 cores)";
    return n >= CPU_RHJ_FROM ? V_RHJ : V_SERIAL;
}

/* The variants each parameter concerns (rhj's handoff also ranks with
 * Wyllie, under Wyllie's jumps). */
#define RHJ_ONLY (1u << V_RHJ | 1u << V_RHJ_LOCAL | 1u << V_AUTO)
#define JUMPERS (1u << V_WYLLIE | 1u << V_OPT | 1u << V_RHJ | 1u << V_RHJ_LOCAL | 1u << V_AUTO)

static const clirr_param_desc listrank_params[] = {
    LR_PARAM_DESCS(RHJ_ONLY, JUMPERS),
    [P_WINDOW] = {"window", CLIRR_PARAM_UINT, "0", 0, 4294967295.0,
                  "rhj-local: elements a scatter window spans (0 = the device's cache size / 4)", NULL,
                  1u << V_RHJ_LOCAL | 1u << V_AUTO},
};

static const clirr_variant_desc listrank_variants[] = {
    [V_WYLLIE] = {"wyllie", "pointer jumping, rank and successor in one 64-bit word, in place, "
                            "several jumps a launch (the study's original)", false},
    [V_WYLLIE32] = {"wyllie32", "the same with 16 + 16-bit words (lists under 2^16)", false},
    [V_STEPWISE] = {"wyllie-stepwise", "one synchronous jump a launch, double-buffered", false},
    [V_OPT] = {"wyllie-opt", "only unfinished elements launched, work-group steps (the study's "
                             "optimized)", false},
    [V_RHJ] = {"rhj", "recursive Helman-JaJa sparse ruling set", false},
    [V_RHJ_LOCAL] = {"rhj-local", "rhj whose first level stores its walks step-major and scatters the "
                                  "ranks window by window in the cache", false},
    [V_SCAN] = {"scan", "one ordered list by a prefix sum (the study's lower bound)", false},
    [V_SERIAL] = {"serial", "the serial CPU ranking, timed", false},
    [V_AUTO] = {"auto", "by list size and device, from measurements", false},
};

const clirr_algo clirr_algo_listrank = {
    .name = "listrank",
    .summary = "list ranking: links from every element to the tail of its list",
    .study = "shared/papers/003 (list ranking and tree computations on GPUs)",
    .input = CLIRR_INPUT_LIST,
    .variants = listrank_variants,
    .nvariants = sizeof listrank_variants / sizeof listrank_variants[0],
    .default_variant = V_AUTO,
    .params = listrank_params,
    .nparams = sizeof listrank_params / sizeof listrank_params[0],
    .sources = CLIRR_SOURCES_NONE,
    .value_size = sizeof(uint32_t),
    .unsupported = listrank_unsupported,
    .choose_variant = listrank_choose,
    .prepare = listrank_prepare,
    .run = listrank_run,
    .release = listrank_release,
    .reference = listrank_reference,
    .verify = listrank_verify,
    .write_value = listrank_write,
    .extras = listrank_extras,
};
