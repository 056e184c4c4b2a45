/* host/ref/walksat.c - WalkSAT (Selman, Kautz, Cohen 1994), the finish of
 * survey propagation once the surveys are trivial: repeatedly pick an
 * unsatisfied clause at random and flip one of its variables, the one
 * that breaks no satisfied clause if there is one, else a random one with
 * probability SP_WALKSAT_NOISE, else the one that breaks fewest.
 *
 * Here: the residual formula both walkers walk (ref/walksat.h), the
 * serial walker, and clirr_walksat, which picks one. The residual is a
 * compact copy of what is left to solve; after decimation it is a
 * fraction of the formula, and a flip touches only its small arrays (over
 * a 1M-variable formula the scattered reads made a flip cost
 * microseconds). Per clause the serial walker keeps the count of true
 * literals and the XOR of their variables (so the one true variable of a
 * clause is known without a scan) and its place in the unsatisfied list,
 * in one record; per variable the break count (clauses where its literal
 * is the only true one); the unsatisfied clauses in a list. Random choices
 * come from base/rng.h: the same on every machine. */
#include "ref/walksat.h"

#include "base/parallel.h"
#include "base/rng.h"

#include <stdlib.h>
#include <string.h>

static void residual_free(ws_residual *r)
{
    free(r->coff);
    free(r->clit);
    free(r->voff);
    free(r->vocc);
    free(r->val);
    free(r->rv);
}

/* One thread's share of building the residual: a range of formula
 * clauses (passes 1 and 2) or of formula variables (passes 3 and 4). */
typedef struct build_part {
    ws_residual *r;
    const clirr_cnf *f;
    const clirr_cnf_factor *fg;
    const uint32_t *value;
    const uint8_t *skip;
    uint32_t *cmap;     /* per formula clause: its residual id, UINT32_MAX when dropped */
    uint32_t lo, hi;
    uint32_t nc, nl;    /* pass 1: clauses and literals this range keeps */
    uint32_t c0, l0;    /* pass 2: where they go */
    uint32_t stuck;
    int pass;
} build_part;

static void build_range(void *arg)
{
    build_part *p = arg;
    ws_residual *r = p->r;
    const clirr_cnf *f = p->f;
    if (p->pass == 1) { /* which clauses stay, how many literals each keeps */
        for (uint32_t c = p->lo; c < p->hi; c++) {
            uint32_t keep = 0;
            bool sat = p->skip && p->skip[c];
            for (uint32_t k = f->clause_off[c]; k < f->clause_off[c + 1] && !sat; k++) {
                int32_t l = f->lits[k];
                uint32_t v = (uint32_t)abs(l) - 1;
                if (r->rv[v] == UINT32_MAX)
                    sat = (p->value[v] != 0) == (l > 0); /* a frozen literal: true forever or never */
                else
                    keep++;
            }
            if (!sat && keep == 0)
                p->stuck++;
            p->cmap[c] = sat || keep == 0 ? UINT32_MAX : keep;
            if (p->cmap[c] != UINT32_MAX)
                p->nc++, p->nl += keep;
        }
    } else if (p->pass == 2) { /* the kept clauses' free literals, in place */
        uint32_t id = p->c0, nl = p->l0;
        for (uint32_t c = p->lo; c < p->hi; c++) {
            if (p->cmap[c] == UINT32_MAX)
                continue;
            r->coff[id] = nl;
            for (uint32_t k = f->clause_off[c]; k < f->clause_off[c + 1]; k++) {
                int32_t l = f->lits[k];
                uint32_t v = (uint32_t)abs(l) - 1;
                if (r->rv[v] != UINT32_MAX)
                    r->clit[nl++] = r->rv[v] << 1 | (l < 0);
            }
            p->cmap[c] = id++;
        }
    } else { /* 3: each variable's kept occurrences counted; 4: listed, in clause order */
        const clirr_cnf_factor *fg = p->fg;
        for (uint32_t v = p->lo; v < p->hi; v++) {
            uint32_t x = r->rv[v];
            if (x == UINT32_MAX)
                continue;
            uint32_t n = 0, at = p->pass == 4 ? r->voff[x] : 0;
            for (uint32_t k = fg->var_off[v]; k < fg->var_off[v + 1]; k++) {
                uint32_t e = fg->var_edge[k], id = p->cmap[fg->edge_clause[e]];
                if (id == UINT32_MAX)
                    continue;
                if (p->pass == 4)
                    r->vocc[at + n] = id << 1 | (f->lits[e] < 0);
                n++;
            }
            if (p->pass == 3) {
                r->voff[x + 1] = n;
                r->val[x] = p->value[v] != 0;
            }
        }
    }
}

static void build_pass(build_part *part, unsigned parts, int pass, uint32_t n)
{
    for (unsigned i = 0; i < parts; i++) {
        part[i].pass = pass;
        clirr_part_bounds(n, parts, i, &part[i].lo, &part[i].hi);
    }
    clirr_run_parts(parts, build_range, part, sizeof part[0]);
}

/* The residual of f under frozen/skip/value (see ref/sp.h), on the host's
 * threads for a large formula (the same residual either way: each part
 * writes its own range, in the serial order). */
static int residual_build(ws_residual *r, const clirr_cnf *f, const clirr_cnf_factor *fg, const uint32_t *value,
                          const uint8_t *frozen, const uint8_t *skip)
{
    memset(r, 0, sizeof *r);
    r->rv = malloc(((size_t)f->nvars + 1) * sizeof *r->rv);
    uint32_t *cmap = malloc(((size_t)f->nclauses + 1) * sizeof *cmap);
    if (!r->rv || !cmap) {
        free(cmap);
        return CLIRR_ERR_NOMEM;
    }
    uint32_t nv = 0;
    for (uint32_t v = 0; v < f->nvars; v++)
        r->rv[v] = frozen && frozen[v] ? UINT32_MAX : nv++;
    r->nvars = nv;
    unsigned parts = clirr_host_threads(f->nlits, 1u << 20, "CLIRR_HOST_THREADS");
    build_part part[CLIRR_MAX_PARTS];
    for (unsigned i = 0; i < parts; i++)
        part[i] = (build_part){.r = r, .f = f, .fg = fg, .value = value, .skip = skip, .cmap = cmap};
    build_pass(part, parts, 1, f->nclauses);
    uint32_t nc = 0, nl = 0;
    for (unsigned i = 0; i < parts; i++) {
        part[i].c0 = nc;
        part[i].l0 = nl;
        nc += part[i].nc;
        nl += part[i].nl;
        r->stuck += part[i].stuck;
    }
    r->nclauses = nc;
    r->coff = malloc(((size_t)nc + 1) * sizeof *r->coff);
    r->clit = malloc(((size_t)nl + 1) * sizeof *r->clit);
    r->voff = calloc((size_t)nv + 2, sizeof *r->voff);
    r->vocc = malloc(((size_t)nl + 1) * sizeof *r->vocc);
    r->val = malloc((size_t)nv + 1);
    if (!r->coff || !r->clit || !r->voff || !r->vocc || !r->val) {
        free(cmap);
        return CLIRR_ERR_NOMEM;
    }
    build_pass(part, parts, 2, f->nclauses);
    r->coff[nc] = nl;
    build_pass(part, parts, 3, f->nvars);
    for (uint32_t v = 0; v < nv; v++)
        r->voff[v + 1] += r->voff[v];
    build_pass(part, parts, 4, f->nvars);
    free(cmap);
    return CLIRR_OK;
}

/* A residual clause's state, together so that a flip misses the cache
 * once per clause it touches. */
typedef struct ws_clause {
    uint32_t ntrue; /* true literals */
    uint32_t txor;  /* XOR of their variables: the one true variable when ntrue is 1 */
    uint32_t where; /* its place in the unsatisfied list when ntrue is 0 */
} ws_clause;

typedef struct ws {
    ws_residual *r;
    ws_clause *cs;
    uint32_t *breaks;       /* per variable: clauses it alone satisfies */
    uint32_t *unsat, nunsat;
} ws;

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
    const ws_residual *r = w->r;
    uint8_t now = r->val[v] ^= 1;
    for (uint32_t k = r->voff[v]; k < r->voff[v + 1]; k++) {
        uint32_t c = r->vocc[k] >> 1;
        ws_clause *cl = &w->cs[c];
        bool made_true = now != (r->vocc[k] & 1);
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

int ws_walk_serial(ws_residual *r, uint64_t max_flips, uint64_t seed, uint64_t *flips, uint32_t *unsat)
{
    ws w = {.r = r};
    w.cs = calloc((size_t)r->nclauses + 1, sizeof *w.cs);
    w.breaks = calloc((size_t)r->nvars + 1, sizeof *w.breaks);
    w.unsat = malloc(((size_t)r->nclauses + 1) * sizeof *w.unsat);
    if (!w.cs || !w.breaks || !w.unsat) {
        free(w.cs);
        free(w.breaks);
        free(w.unsat);
        return CLIRR_ERR_NOMEM;
    }
    for (uint32_t c = 0; c < r->nclauses; c++) {
        for (uint32_t k = r->coff[c]; k < r->coff[c + 1]; k++) {
            uint32_t l = r->clit[k], v = l >> 1;
            if (r->val[v] != (l & 1)) {
                w.cs[c].ntrue++;
                w.cs[c].txor ^= v;
            }
        }
        if (w.cs[c].ntrue == 0)
            unsat_add(&w, c);
        else if (w.cs[c].ntrue == 1)
            w.breaks[w.cs[c].txor]++;
    }
    uint64_t done = 0, draw = 0;
    while (w.nunsat > 0 && done < max_flips) {
        uint32_t c = w.unsat[rng_below(rng_at(seed, draw++), w.nunsat)];
        uint32_t b = r->coff[c], e = r->coff[c + 1];
        uint32_t best = UINT32_MAX, best_break = UINT32_MAX, ties = 0;
        for (uint32_t k = b; k < e; k++) {
            uint32_t v = r->clit[k] >> 1, br = w.breaks[v];
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
            best = r->clit[b + rng_below(rng_at(seed, draw++), e - b)] >> 1;
        flip(&w, best);
        done++;
    }
    *flips = done;
    *unsat = w.nunsat;
    free(w.cs);
    free(w.breaks);
    free(w.unsat);
    return CLIRR_OK;
}

int clirr_walksat(const clirr_cnf *f, const clirr_cnf_factor *fg, uint32_t *value, const uint8_t *frozen,
                  const uint8_t *skip, uint64_t max_flips, unsigned threads, uint64_t seed, uint64_t *flips,
                  uint32_t *unsat, clirr_error *err)
{
    ws_residual r;
    int rc = residual_build(&r, f, fg, value, frozen, skip);
    if (rc == CLIRR_OK) {
        if (threads == 0)
            threads = clirr_host_threads(r.nclauses, WS_PARALLEL_MIN_CLAUSES, "CLIRR_HOST_THREADS");
        if (threads > CLIRR_MAX_PARTS)
            threads = CLIRR_MAX_PARTS;
        rc = threads > 1 ? ws_walk_parallel(&r, threads, max_flips, seed, flips, unsat)
                         : ws_walk_serial(&r, max_flips, seed, flips, unsat);
    }
    if (rc != CLIRR_OK) {
        residual_free(&r);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for WalkSAT (%u clauses)", f->nclauses);
    }
    for (uint32_t v = 0; v < f->nvars; v++)
        if (r.rv[v] != UINT32_MAX)
            value[v] = r.val[r.rv[v]];
    *unsat += r.stuck;
    residual_free(&r);
    return CLIRR_OK;
}
