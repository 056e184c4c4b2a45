/* host/ref/walksat.c - WalkSAT (Selman, Kautz, Cohen 1994), the finish of
 * survey propagation once the surveys are trivial: repeatedly pick an
 * unsatisfied clause at random and flip one of its variables, the one
 * that breaks no satisfied clause if there is one, else a random one with
 * probability SP_WALKSAT_NOISE, else the one that breaks fewest.
 *
 * It walks a compact copy of what is left to solve, not the whole
 * formula: clauses a frozen true literal satisfies are dropped, frozen
 * literals removed, the flippable variables renumbered densely. After
 * decimation that copy is a fraction of the formula, and a flip touches
 * only its small arrays (over a 1M-variable formula the scattered reads
 * made a flip cost microseconds). Per clause it keeps the count of true
 * literals and the XOR of their variables (so the one true variable of a
 * clause is known without a scan) and its place in the unsatisfied list,
 * in one record; per variable the break count (clauses where its literal
 * is the only true one); the unsatisfied clauses in a list. Random choices come from base/rng.h: the
 * same on every machine. */
#include "ref/sp.h"

#include "base/rng.h"

#include <stdlib.h>
#include <string.h>

/* A residual clause's state, together so that a flip misses the cache
 * once per clause it touches. */
typedef struct ws_clause {
    uint32_t ntrue; /* true literals */
    uint32_t txor;  /* XOR of their variables: the one true variable when ntrue is 1 */
    uint32_t where; /* its place in the unsatisfied list when ntrue is 0 */
} ws_clause;

typedef struct ws {
    uint32_t nvars, nclauses;
    uint32_t *coff, *clit;  /* residual clauses; a literal is var << 1 | negated */
    uint32_t *voff, *vocc;  /* per residual variable: clause << 1 | negated */
    uint8_t *val;           /* residual variables' values */
    ws_clause *cs;
    uint32_t *breaks;       /* per variable: clauses it alone satisfies */
    uint32_t *unsat, nunsat;
} ws;

static void ws_free(ws *w)
{
    free(w->coff);
    free(w->clit);
    free(w->voff);
    free(w->vocc);
    free(w->val);
    free(w->cs);
    free(w->breaks);
    free(w->unsat);
}

static void unsat_add(ws *w, uint32_t c)
{
    w->cs[c].where = w->nunsat;
    w->unsat[w->nunsat++] = c;
}

static void unsat_remove(ws *w, uint32_t c)
{
    uint32_t last = w->unsat[--w->nunsat];
    w->unsat[w->cs[c].where] = last;
    w->cs[last].where = w->cs[c].where;
}

static void flip(ws *w, uint32_t v)
{
    uint8_t now = w->val[v] ^= 1;
    for (uint32_t k = w->voff[v]; k < w->voff[v + 1]; k++) {
        uint32_t c = w->vocc[k] >> 1;
        ws_clause *cl = &w->cs[c];
        bool made_true = now != (w->vocc[k] & 1);
        if (made_true) {
            uint32_t t = cl->ntrue++;
            if (t == 0) {
                unsat_remove(w, c);
                w->breaks[v]++;
            } else if (t == 1) {
                w->breaks[cl->txor]--; /* its one true variable before */
            }
            cl->txor ^= v;
        } else {
            cl->txor ^= v;
            uint32_t t = cl->ntrue--;
            if (t == 1) {
                unsat_add(w, c);
                w->breaks[v]--;
            } else if (t == 2) {
                w->breaks[cl->txor]++; /* its one true variable now */
            }
        }
    }
}

/* The residual of f under frozen/skip/value (see ref/sp.h): *stuck gets
 * the clauses no flip can satisfy; rv[v] is v's residual id (UINT32_MAX:
 * frozen). */
static int build(ws *w, const clirr_cnf *f, const uint32_t *value, const uint8_t *frozen, const uint8_t *skip,
                 uint32_t *rv, uint32_t *stuck)
{
    uint32_t nv = 0;
    for (uint32_t v = 0; v < f->nvars; v++)
        rv[v] = frozen && frozen[v] ? UINT32_MAX : nv++;
    w->nvars = nv;
    w->coff = malloc(((size_t)f->nclauses + 1) * sizeof *w->coff);
    w->clit = malloc(((size_t)f->nlits + 1) * sizeof *w->clit);
    w->voff = calloc((size_t)nv + 2, sizeof *w->voff);
    w->val = malloc((size_t)nv + 1);
    if (!w->coff || !w->clit || !w->voff || !w->val)
        return CLIRR_ERR_NOMEM;
    uint32_t nc = 0, nl = 0;
    *stuck = 0;
    w->coff[0] = 0;
    for (uint32_t c = 0; c < f->nclauses; c++) {
        if (skip && skip[c])
            continue;
        uint32_t start = nl;
        bool sat = false;
        for (uint32_t k = f->clause_off[c]; k < f->clause_off[c + 1] && !sat; k++) {
            int32_t l = f->lits[k];
            uint32_t v = (uint32_t)abs(l) - 1;
            if (rv[v] == UINT32_MAX)
                sat = (value[v] != 0) == (l > 0); /* a frozen literal: true forever or never */
            else
                w->clit[nl++] = rv[v] << 1 | (l < 0);
        }
        if (sat || nl == start) {
            *stuck += !sat;
            nl = start;
            continue;
        }
        for (uint32_t k = start; k < nl; k++)
            w->voff[(w->clit[k] >> 1) + 1]++;
        w->coff[++nc] = nl;
    }
    w->nclauses = nc;
    for (uint32_t v = 0; v < nv; v++)
        w->voff[v + 1] += w->voff[v];
    w->vocc = malloc(((size_t)nl + 1) * sizeof *w->vocc);
    uint32_t *fill = malloc(((size_t)nv + 1) * sizeof *fill);
    w->cs = calloc((size_t)nc + 1, sizeof *w->cs);
    w->breaks = calloc((size_t)nv + 1, sizeof *w->breaks);
    w->unsat = malloc(((size_t)nc + 1) * sizeof *w->unsat);
    if (!w->vocc || !fill || !w->cs || !w->breaks || !w->unsat) {
        free(fill);
        return CLIRR_ERR_NOMEM;
    }
    memcpy(fill, w->voff, (size_t)nv * sizeof *fill);
    for (uint32_t v = 0; v < f->nvars; v++)
        if (rv[v] != UINT32_MAX)
            w->val[rv[v]] = value[v] != 0;
    for (uint32_t c = 0; c < nc; c++) {
        for (uint32_t k = w->coff[c]; k < w->coff[c + 1]; k++) {
            uint32_t l = w->clit[k], v = l >> 1;
            w->vocc[fill[v]++] = c << 1 | (l & 1);
            if (w->val[v] != (l & 1)) {
                w->cs[c].ntrue++;
                w->cs[c].txor ^= v;
            }
        }
        if (w->cs[c].ntrue == 0)
            unsat_add(w, c);
        else if (w->cs[c].ntrue == 1)
            w->breaks[w->cs[c].txor]++;
    }
    free(fill);
    return CLIRR_OK;
}

int clirr_walksat(const clirr_cnf *f, const clirr_cnf_factor *fg, uint32_t *value, const uint8_t *frozen,
                  const uint8_t *skip, uint64_t max_flips, uint64_t seed, uint64_t *flips, uint32_t *unsat,
                  clirr_error *err)
{
    (void)fg;
    ws w;
    memset(&w, 0, sizeof w);
    uint32_t stuck = 0, *rv = malloc(((size_t)f->nvars + 1) * sizeof *rv);
    if (!rv || build(&w, f, value, frozen, skip, rv, &stuck) != CLIRR_OK) {
        free(rv);
        ws_free(&w);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for WalkSAT (%u clauses)", f->nclauses);
    }
    uint64_t done = 0, draw = 0;
    while (w.nunsat > 0 && done < max_flips) {
        uint32_t c = w.unsat[rng_below(rng_at(seed, draw++), w.nunsat)];
        uint32_t b = w.coff[c], e = w.coff[c + 1];
        uint32_t best = UINT32_MAX, best_break = UINT32_MAX, ties = 0;
        for (uint32_t k = b; k < e; k++) {
            uint32_t v = w.clit[k] >> 1, br = w.breaks[v];
            /* Ties are broken at random (reservoir sampling): a fixed
             * order lets the walk cycle. */
            if (br < best_break) {
                best_break = br;
                best = v;
                ties = 1;
            } else if (br == best_break && rng_below(rng_at(seed, draw++), ++ties) == 0) {
                best = v;
            }
        }
        if (best_break > 0 && (rng_at(seed, draw++) >> 11) * 0x1.0p-53 < SP_WALKSAT_NOISE)
            best = w.clit[b + rng_below(rng_at(seed, draw++), e - b)] >> 1;
        flip(&w, best);
        done++;
    }
    for (uint32_t v = 0; v < f->nvars; v++)
        if (rv[v] != UINT32_MAX)
            value[v] = w.val[rv[v]];
    *flips = done;
    *unsat = w.nunsat + stuck;
    free(rv);
    ws_free(&w);
    return CLIRR_OK;
}
