/* host/ref/walksat.c - WalkSAT (Selman, Kautz, Cohen 1994), the finish of
 * survey propagation once the surveys are trivial: repeatedly pick an
 * unsatisfied clause at random and flip one of its variables, the one
 * that breaks no satisfied clause if there is one, else a random one with
 * probability SP_WALKSAT_NOISE, else the one that breaks fewest. The
 * unsatisfied clauses are kept in a list with each one's place, every
 * clause's count of true literals and every variable's break count (the
 * clauses where its literal is the only true one), so a pick costs the
 * clause's length and a flip the variable's degree. Random choices come
 * from base/rng.h: the same on every machine. */
#include "ref/sp.h"

#include "base/rng.h"

#include <stdlib.h>
#include <string.h>

typedef struct ws {
    const clirr_cnf *f;
    const clirr_cnf_factor *fg;
    uint32_t *value;
    const uint8_t *frozen, *skip;
    uint32_t *ntrue;      /* true literals per clause */
    uint32_t *breaks;     /* per variable: clauses it alone satisfies */
    uint32_t *unsat, *where, nunsat;
} ws;

static inline bool lit_true(const ws *w, int32_t l) { return (w->value[abs(l) - 1] != 0) == (l > 0); }

static inline bool can_flip(const ws *w, uint32_t v) { return !w->frozen || !w->frozen[v]; }

static void unsat_add(ws *w, uint32_t c)
{
    w->where[c] = w->nunsat;
    w->unsat[w->nunsat++] = c;
}

static void unsat_remove(ws *w, uint32_t c)
{
    uint32_t last = w->unsat[--w->nunsat];
    w->unsat[w->where[c]] = last;
    w->where[last] = w->where[c];
}

/* The variable of clause c's one true literal other than variable not
 * (there is one when called). */
static uint32_t other_true(const ws *w, uint32_t c, uint32_t not)
{
    for (uint32_t k = w->f->clause_off[c]; k < w->f->clause_off[c + 1]; k++) {
        int32_t l = w->f->lits[k];
        if ((uint32_t)abs(l) - 1 != not && lit_true(w, l))
            return (uint32_t)abs(l) - 1;
    }
    return not;
}

static void flip(ws *w, uint32_t v)
{
    w->value[v] ^= 1;
    for (uint32_t k = w->fg->var_off[v]; k < w->fg->var_off[v + 1]; k++) {
        uint32_t e = w->fg->var_edge[k], c = w->fg->edge_clause[e];
        if (w->skip && w->skip[c])
            continue;
        if (lit_true(w, w->f->lits[e])) {
            uint32_t t = w->ntrue[c]++;
            if (t == 0) {
                unsat_remove(w, c);
                w->breaks[v]++;
            } else if (t == 1) {
                w->breaks[other_true(w, c, v)]--;
            }
        } else {
            uint32_t t = w->ntrue[c]--;
            if (t == 1) {
                unsat_add(w, c);
                w->breaks[v]--;
            } else if (t == 2) {
                w->breaks[other_true(w, c, v)]++;
            }
        }
    }
}

int clirr_walksat(const clirr_cnf *f, const clirr_cnf_factor *fg, uint32_t *value, const uint8_t *frozen,
                  const uint8_t *skip, uint64_t max_flips, uint64_t seed, uint64_t *flips, uint32_t *unsat,
                  clirr_error *err)
{
    ws w = {f, fg, value, frozen, skip, NULL, NULL, NULL, NULL, 0};
    w.ntrue = calloc(f->nclauses, sizeof *w.ntrue);
    w.unsat = malloc((size_t)f->nclauses * sizeof *w.unsat);
    w.where = malloc((size_t)f->nclauses * sizeof *w.where);
    w.breaks = calloc((size_t)f->nvars + 1, sizeof *w.breaks);
    if (!w.ntrue || !w.unsat || !w.where || !w.breaks) {
        free(w.breaks);
        free(w.ntrue);
        free(w.unsat);
        free(w.where);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for WalkSAT (%u clauses)", f->nclauses);
    }
    /* Clauses no flip can satisfy (every variable frozen, none true) stay
     * out of the list and are counted apart. */
    uint32_t stuck = 0;
    for (uint32_t c = 0; c < f->nclauses; c++) {
        if (skip && skip[c])
            continue;
        bool movable = false;
        for (uint32_t k = f->clause_off[c]; k < f->clause_off[c + 1]; k++) {
            w.ntrue[c] += lit_true(&w, f->lits[k]);
            movable |= can_flip(&w, (uint32_t)abs(f->lits[k]) - 1);
        }
        if (w.ntrue[c] == 0) {
            if (movable)
                unsat_add(&w, c);
            else
                stuck++;
        } else if (w.ntrue[c] == 1) {
            w.breaks[other_true(&w, c, UINT32_MAX)]++;
        }
    }
    uint64_t done = 0, draw = 0;
    while (w.nunsat > 0 && done < max_flips) {
        uint32_t c = w.unsat[rng_below(rng_at(seed, draw++), w.nunsat)];
        uint32_t b = f->clause_off[c], e = f->clause_off[c + 1];
        uint32_t best = UINT32_MAX, best_break = UINT32_MAX, movable = 0, ties = 0;
        for (uint32_t k = b; k < e; k++) {
            uint32_t v = (uint32_t)abs(f->lits[k]) - 1;
            if (!can_flip(&w, v))
                continue;
            movable++;
            uint32_t br = w.breaks[v];
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
        if (best_break > 0 && (rng_at(seed, draw++) >> 11) * 0x1.0p-53 < SP_WALKSAT_NOISE) {
            uint32_t pick = rng_below(rng_at(seed, draw++), movable);
            for (uint32_t k = b; k < e; k++) {
                uint32_t v = (uint32_t)abs(f->lits[k]) - 1;
                if (can_flip(&w, v) && pick-- == 0) {
                    best = v;
                    break;
                }
            }
        }
        flip(&w, best);
        done++;
    }
    *flips = done;
    *unsat = w.nunsat + stuck;
    free(w.ntrue);
    free(w.unsat);
    free(w.where);
    free(w.breaks);
    return CLIRR_OK;
}
