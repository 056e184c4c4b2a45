/* host/list/list_gen.c - generated lists "list:n=N,order=O,...": the
 * study's four configurations (ordered, ordered-unbalanced,
 * random-balanced, random; shared/papers/003, "load balancing") plus the
 * reverse order and several lists. A list is an order of the elements
 * along it, ord[p] = the element at position p, cut into `lists` pieces;
 * every order is computed position by position from a keyed permutation
 * (base/rng.h), so no pass shuffles memory and every machine gets the
 * same list.
 *
 * The study names "balanced" and "unbalanced" configurations without
 * defining them; here they are defined against rhj's splitters, the
 * elements whose ids are multiples of K (host/algo/lrank.c): balanced puts
 * a splitter every K positions along the list, unbalanced puts them at
 * random positions (sublists of geometric lengths). "Ordered" means the
 * other elements follow each other in increasing id order, so a walk moves
 * forward through memory; "random" means they are scattered. */
#include "list/list_internal.h"

#include "base/rng.h"
#include "base/spec.h"

#include <stdlib.h>
#include <string.h>

typedef enum list_order {
    ORDER_SEQUENTIAL, ORDER_REVERSE, ORDER_RANDOM, ORDER_RANDOM_BALANCED, ORDER_ORDERED_UNBALANCED
} list_order;

static const char *const order_names[] = {"sequential", "reverse", "random", "random-balanced",
                                          "ordered-unbalanced", NULL};

typedef struct list_params {
    uint64_t n, order, lists, interval, seed;
} list_params;

#define KEY(name, lo, hi, req, field)                                          \
    {name, CLIRR_SPEC_UINT, lo, hi, NULL, req, offsetof(list_params, field)}
static const clirr_spec_key list_keys[] = {
    KEY("n", 1, CLIRR_LIST_MAX_ELEMENTS, true, n),
    {"order", CLIRR_SPEC_WORD, 0, 0, order_names, true, offsetof(list_params, order)},
    KEY("lists", 1, CLIRR_LIST_MAX_ELEMENTS, false, lists),
    KEY("interval", 1, CLIRR_LIST_MAX_ELEMENTS, false, interval),
    KEY("seed", 0, UINT64_MAX, false, seed),
};
static const clirr_spec_kind list_kinds[] = {
    {"list", list_keys, sizeof list_keys / sizeof list_keys[0]},
};

enum { STREAM_ORDER = 11, STREAM_SPLITTERS = 12 };

bool clirr_list_spec(const char *spec) { return clirr_spec_is(spec, list_kinds, 1); }

/* ceil(log2 n), at least 1: rhj's n/log n interval. */
static uint32_t log2_ceil(uint64_t n)
{
    uint32_t k = 1;
    while ((1ull << k) < n)
        k++;
    return k;
}

/* The q-th id (0-based) that is not a multiple of K (K >= 2). */
static inline uint32_t nonsplitter(uint32_t q, uint32_t K) { return q / (K - 1) * K + q % (K - 1) + 1; }

/* Where position p sits among the positions that are not multiples of K. */
static inline uint32_t nonsplitter_index(uint32_t p, uint32_t K) { return p / K * (K - 1) + p % K - 1; }

static int fill_order(const list_params *lp, uint32_t *ord, clirr_error *err)
{
    uint32_t n = (uint32_t)lp->n, K = (uint32_t)lp->interval;
    uint32_t splitters = (uint32_t)((lp->n + K - 1) / K);
    rng_perm all = rng_perm_make(rng_key(lp->seed, STREAM_ORDER), n);
    switch ((list_order)lp->order) {
    case ORDER_SEQUENTIAL:
        for (uint32_t p = 0; p < n; p++)
            ord[p] = p;
        return CLIRR_OK;
    case ORDER_REVERSE:
        for (uint32_t p = 0; p < n; p++)
            ord[p] = n - 1 - p;
        return CLIRR_OK;
    case ORDER_RANDOM:
        for (uint32_t p = 0; p < n; p++)
            ord[p] = rng_perm_at(&all, p);
        return CLIRR_OK;
    case ORDER_RANDOM_BALANCED: {
        if (K == 1) /* every element a splitter: balanced whatever the order */
            return fill_order(&(list_params){lp->n, ORDER_RANDOM, 1, 1, lp->seed}, ord, err);
        rng_perm sp = rng_perm_make(rng_key(lp->seed, STREAM_SPLITTERS), splitters);
        rng_perm other = rng_perm_make(rng_key(lp->seed, STREAM_ORDER), n - splitters);
        for (uint32_t p = 0; p < n; p++)
            ord[p] = p % K == 0 ? rng_perm_at(&sp, p / K) * K
                                : nonsplitter(rng_perm_at(&other, nonsplitter_index(p, K)), K);
        return CLIRR_OK;
    }
    case ORDER_ORDERED_UNBALANCED: {
        /* The first `splitters` images of a permutation of the positions
         * are a uniformly random set of positions for the splitters. */
        uint8_t *mark = calloc((size_t)n / 8 + 1, 1);
        if (!mark)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory generating a list");
        for (uint32_t j = 0; j < splitters; j++) {
            uint32_t p = rng_perm_at(&all, j);
            mark[p / 8] |= (uint8_t)(1u << (p % 8));
        }
        uint32_t next_splitter = 0, next_other = 0;
        for (uint32_t p = 0; p < n; p++) {
            if (mark[p / 8] & (1u << (p % 8))) {
                ord[p] = next_splitter;
                next_splitter += K;
            } else {
                ord[p] = K == 1 ? next_other++ : nonsplitter(next_other++, K);
            }
        }
        free(mark);
        return CLIRR_OK;
    }
    }
    return clirr_fail(err, CLIRR_ERR_USAGE, "unknown list order");
}

int clirr_list_generate(const char *spec, clirr_list *l, clirr_error *err)
{
    memset(l, 0, sizeof *l);
    list_params lp = {.lists = 1, .seed = 1};
    int k = clirr_spec_parse(spec, "list", list_kinds, 1, &lp, err);
    if (k < 0)
        return k;
    if (lp.lists > lp.n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': lists=%llu is more than n=%llu",
                          spec, (unsigned long long)lp.lists, (unsigned long long)lp.n);
    if (!lp.interval)
        lp.interval = log2_ceil(lp.n);
    int rc = clirr_list_fits(lp.n, spec, err);
    if (rc != CLIRR_OK)
        return rc;
    uint32_t n = (uint32_t)lp.n;
    uint32_t *ord = malloc((size_t)n * sizeof *ord);
    uint32_t *succ = malloc((size_t)n * sizeof *succ);
    if (!ord || !succ) {
        free(ord);
        free(succ);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a list of %u elements", n);
    }
    rc = fill_order(&lp, ord, err);
    if (rc == CLIRR_OK) {
        /* List t holds positions [t n / L, (t + 1) n / L). */
        uint64_t L = lp.lists, t = 0, cut = n / L;
        for (uint32_t p = 0; p < n; p++) {
            if (p + 1 == cut || p + 1 == n) {
                succ[ord[p]] = CLIRR_LIST_END;
                t++;
                cut = (t + 1) * n / L;
            } else {
                succ[ord[p]] = ord[p + 1];
            }
        }
        l->n = n;
        l->succ = succ;
        l->lists = (uint32_t)L;
    } else {
        free(succ);
    }
    free(ord);
    return rc;
}
