/* host/ref/sp_solve.c - the decimation loop of survey propagation, the
 * same for every survey engine (ref/sp.h): converge, read the biases, fix
 * the most biased free variables, simplify, repeat; then WalkSAT. The
 * formula's state (fixed values, satisfied clauses, free literals left)
 * lives here on the host, so an engine only converges surveys and reports
 * biases on the formula it is shown. */
#include "ref/sp.h"

#include "base/parallel.h"
#include "base/rng.h"
#include "clirr/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { STREAM_WALKSAT_START = 31, STREAM_WALKSAT = 32 };

const char *clirr_sp_end_name(sp_end end)
{
    switch (end) {
    case SP_END_PARAMAGNETIC: return "paramagnetic";
    case SP_END_ALL_FIXED: return "all fixed";
    case SP_END_CONTRADICTION: return "contradiction";
    case SP_END_UNCONVERGED: return "not converged";
    }
    return "?";
}

/* Partition keys[0..n) so that its k largest come first (k < n), by
 * quickselect with a median-of-three pivot. Keys are distinct. */
static void quickselect_largest(uint64_t *keys, size_t n, size_t k)
{
    size_t lo = 0, hi = n; /* the k-th largest lies in [lo, hi) */
    while (hi - lo > 1) {
        uint64_t a = keys[lo], b = keys[lo + (hi - lo) / 2], c = keys[hi - 1];
        uint64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        /* Three-way split: larger, equal, smaller. */
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            if (keys[i] > pivot) {
                uint64_t t = keys[i]; keys[i] = keys[lt]; keys[lt] = t;
                lt++, i++;
            } else if (keys[i] < pivot) {
                gt--;
                uint64_t t = keys[i]; keys[i] = keys[gt]; keys[gt] = t;
            } else {
                i++;
            }
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return;
    }
}

/* select_largest's contract by a histogram of the keys' top 16 bits
 * first (three linear passes), leaving quickselect only the bucket the
 * k-th largest falls in: at a million free variables quickselect's
 * repeated passes were the larger part of a decimation round's host time. */
static void select_largest(uint64_t *keys, size_t n, size_t k)
{
    uint32_t *count = n >= 1024 ? calloc(1u << 16, sizeof *count) : NULL;
    if (!count) {
        quickselect_largest(keys, n, k);
        return;
    }
    for (size_t i = 0; i < n; i++)
        count[keys[i] >> 48]++;
    size_t above = 0; /* keys in buckets above b: all among the k largest */
    uint32_t b = 0xffff;
    while (above + count[b] <= k && b > 0)
        above += count[b--];
    free(count);
    size_t at = 0;
    for (size_t i = 0; i < n; i++)
        if (keys[i] >> 48 > b) {
            uint64_t t = keys[i]; keys[i] = keys[at]; keys[at++] = t;
        }
    size_t eq = at;
    for (size_t i = at; i < n; i++)
        if (keys[i] >> 48 == b) {
            uint64_t t = keys[i]; keys[i] = keys[eq]; keys[eq++] = t;
        }
    if (k > above && k - above < eq - above)
        quickselect_largest(keys + above, eq - above, k - above);
}

/* Fix variable v (0-based) to val and simplify the clauses it is in;
 * mark the free variables of those clauses dirty. Returns the number of
 * clauses it left with no literal. */
static uint32_t fix_variable(sp_state *st, uint32_t v, uint32_t val, uint32_t *stamp, uint32_t mark)
{
    const clirr_cnf *f = st->f;
    const clirr_cnf_factor *fg = st->fg;
    uint32_t emptied = 0;
    st->var[v] = (uint8_t)val;
    for (uint32_t k = fg->var_off[v]; k < fg->var_off[v + 1]; k++) {
        uint32_t e = fg->var_edge[k], c = fg->edge_clause[e];
        if (st->clause_sat[c])
            continue;
        st->free_lits[c]--;
        if ((f->lits[e] > 0) == (val != 0))
            st->clause_sat[c] = 1;
        else if (st->free_lits[c] == 0)
            emptied++;
        for (uint32_t q = f->clause_off[c]; q < f->clause_off[c + 1]; q++) {
            uint32_t u = (uint32_t)abs(f->lits[q]) - 1;
            if (st->var[u] == SP_FREE && stamp[u] != mark) {
                stamp[u] = mark;
                st->dirty[st->ndirty++] = u;
            }
        }
    }
    return emptied;
}

/* WalkSAT's start over variables [lo, hi): fixed ones as decimation left
 * them, a free one at the sign it has more often in the clauses left. */
typedef struct start_part {
    const sp_state *st;
    uint64_t key;
    uint32_t *value;
    uint32_t lo, hi;
} start_part;

static void start_range(void *arg)
{
    const start_part *p = arg;
    const clirr_cnf *f = p->st->f;
    const clirr_cnf_factor *fg = p->st->fg;
    for (uint32_t v = p->lo; v < p->hi; v++) {
        p->value[v] = p->st->var[v];
        if (p->st->var[v] != SP_FREE)
            continue;
        int64_t lean = 0;
        for (uint32_t k = fg->var_off[v]; k < fg->var_off[v + 1]; k++) {
            uint32_t e = fg->var_edge[k];
            if (!p->st->clause_sat[fg->edge_clause[e]])
                lean += f->lits[e] > 0 ? 1 : -1;
        }
        p->value[v] = lean ? lean > 0 : (uint32_t)(rng_at(p->key, v) >> 63);
    }
}

/* The start of every variable, on the host's threads when there are many
 * (the same values either way: each depends on its variable alone). */
static void start_values(const sp_state *st, uint64_t key, uint32_t *value)
{
    uint32_t n = st->f->nvars;
    unsigned parts = clirr_host_threads(n, 100000, "CLIRR_HOST_THREADS");
    start_part part[CLIRR_MAX_PARTS];
    for (unsigned i = 0; i < parts; i++) {
        part[i] = (start_part){st, key, value, 0, 0};
        clirr_part_bounds(n, parts, i, &part[i].lo, &part[i].hi);
    }
    clirr_run_parts(parts, start_range, part, sizeof part[0]);
}

int clirr_sp_solve(const clirr_cnf *f, const clirr_cnf_factor *fg, const sp_config *cfg, sp_engine *eng,
                   uint32_t *value, sp_outcome *out, clirr_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t n = f->nvars;
    sp_state st = {.f = f, .fg = fg, .first = true};
    st.var = malloc(n);
    st.clause_sat = calloc(f->nclauses, 1);
    st.free_lits = malloc((size_t)f->nclauses * sizeof *st.free_lits);
    st.dirty = malloc((size_t)n * sizeof *st.dirty);
    uint32_t *stamp = calloc(n, sizeof *stamp);
    float *diff = malloc((size_t)n * sizeof *diff), *mag = malloc((size_t)n * sizeof *mag);
    uint64_t *keys = malloc((size_t)n * sizeof *keys);
    int rc = CLIRR_OK;
    if (!st.var || !st.clause_sat || !st.free_lits || !st.dirty || !stamp || !diff || !mag || !keys) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for survey propagation's state");
        goto done;
    }
    memset(st.var, SP_FREE, n);
    for (uint32_t c = 0; c < f->nclauses; c++)
        st.free_lits[c] = f->clause_off[c + 1] - f->clause_off[c];
    for (uint32_t v = 0; v < n; v++)
        st.dirty[v] = v;
    st.ndirty = n;
    uint64_t per_round = (uint64_t)(cfg->fix_fraction * n);
    if (per_round < 1)
        per_round = 1;
    uint32_t nfree = n, emptied = 0;
    uint64_t t0 = clirr_now_ns();
    for (;;) {
        if (nfree == 0) {
            out->end = SP_END_ALL_FIXED;
            break;
        }
        sp_sweeps sw;
        if ((rc = eng->converge(eng->self, &st, &sw, err)) != CLIRR_OK)
            goto done;
        st.first = false;
        st.ndirty = 0;
        if (out->rounds < SP_ROUNDS_KEPT)
            out->sweeps[out->rounds] = sw.sweeps;
        out->rounds++;
        out->sweeps_total += sw.sweeps;
        out->surveys_total += sw.surveys;
        if (!sw.converged) {
            out->end = SP_END_UNCONVERGED;
            break;
        }
        if ((rc = eng->biases(eng->self, &st, diff, mag, err)) != CLIRR_OK)
            goto done;
        double summag = 0;
        size_t nk = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (st.var[v] != SP_FREE)
                continue;
            summag += mag[v];
            /* Larger bias first, then the lower id: a total order. The
             * bias is >= 0, so its float bits order as integers. */
            float b = fabsf(diff[v]);
            uint32_t bits;
            memcpy(&bits, &b, sizeof bits);
            keys[nk++] = (uint64_t)bits << 32 | (uint32_t)~v;
        }
        if (summag / nfree < SP_PARAMAGNET) {
            out->end = SP_END_PARAMAGNETIC;
            break;
        }
        size_t fix = per_round < nk ? (size_t)per_round : nk;
        if (fix < nk)
            select_largest(keys, nk, fix);
        uint32_t mark = out->rounds;
        for (size_t i = 0; i < fix; i++) {
            uint32_t v = ~(uint32_t)keys[i];
            emptied += fix_variable(&st, v, diff[v] > 0, stamp, mark);
        }
        nfree -= (uint32_t)fix;
        out->fixed_total += (uint32_t)fix;
        if (out->rounds <= SP_ROUNDS_KEPT)
            out->fixed[out->rounds - 1] = (uint32_t)fix;
        if (emptied) {
            out->end = SP_END_CONTRADICTION;
            break;
        }
    }
    out->sp_ns = clirr_now_ns() - t0;

    /* WalkSAT: a free variable starts with the sign it has more often in
     * the clauses left (ties at random), which leaves fewer of them
     * unsatisfied than a random start and saves WalkSAT flips; after a
     * contradiction every variable may flip (the fixed ones start where
     * decimation put them). */
    t0 = clirr_now_ns();
    bool all = out->end == SP_END_CONTRADICTION;
    start_values(&st, rng_key(cfg->seed, STREAM_WALKSAT_START), value);
    for (uint32_t v = 0; v < n; v++)
        st.var[v] = all || st.var[v] == SP_FREE ? 0 : 1; /* now: frozen */
    bool left = nfree > 0 || emptied > 0;
    out->walksat_ran = left;
    rc = clirr_walksat(f, fg, value, st.var, all ? NULL : st.clause_sat, left ? cfg->walksat_flips : 0,
                       cfg->walksat_threads,
                       rng_key(cfg->seed, STREAM_WALKSAT), &out->flips, &out->unsatisfied, err);
    out->walksat_ns = clirr_now_ns() - t0;
done:
    free(st.var);
    free(st.clause_sat);
    free(st.free_lits);
    free(st.dirty);
    free(stamp);
    free(diff);
    free(mag);
    free(keys);
    return rc;
}
