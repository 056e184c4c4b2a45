/* host/ref/sp.c - the serial synchronous survey engine (ref/sp.h for the
 * equations), the reference run of survey propagation over it, and the
 * verifier of an assignment against the formula. The engine does in one
 * thread, in the same order and in single precision, what a device's
 * topology-driven sweep does (host/algo/sp.c, cl/sp.cl), so the two agree
 * survey by survey up to rounding. */
#include "ref/sp.h"

#include "base/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { STREAM_SURVEYS = 30 };

float clirr_sp_initial_survey(uint64_t seed, uint32_t e)
{
    /* 24 random bits: exactly representable, in [0, 1). */
    return (float)(rng_at(rng_key(seed, STREAM_SURVEYS), e) >> 40) * 0x1.0p-24f;
}

struct sp_serial {
    const clirr_cnf *f;
    const sp_config *cfg;
    float *eta, *r;             /* per edge */
    float *pp, *pn;             /* per variable: products of non-zero (1 - eta) */
    uint32_t *zp, *zn;          /* per variable: zero factors */
};

/* Products of (1 - eta) over each free variable's unsatisfied clauses. */
static void products(sp_serial *s, const sp_state *st)
{
    const clirr_cnf_factor *fg = st->fg;
    for (uint32_t v = 0; v < s->f->nvars; v++) {
        if (st->var[v] != SP_FREE)
            continue;
        float pp = 1.0f, pn = 1.0f;
        uint32_t zp = 0, zn = 0;
        for (uint32_t k = fg->var_off[v]; k < fg->var_off[v + 1]; k++) {
            uint32_t e = fg->var_edge[k];
            if (st->clause_sat[fg->edge_clause[e]])
                continue;
            float m = 1.0f - s->eta[e];
            if (s->f->lits[e] > 0) {
                if (m == 0.0f)
                    zp++;
                else
                    pp *= m;
            } else if (m == 0.0f) {
                zn++;
            } else {
                pn *= m;
            }
        }
        s->pp[v] = pp, s->pn[v] = pn, s->zp[v] = zp, s->zn[v] = zn;
    }
}

/* New surveys of unsatisfied clause c; returns how many moved more than
 * eps, and counts the surveys computed. */
static uint32_t update_clause(sp_serial *s, const sp_state *st, uint32_t c, uint64_t *surveys)
{
    const clirr_cnf *f = s->f;
    uint32_t b = f->clause_off[c], e_end = f->clause_off[c + 1], moved = 0;
    float eps = (float)s->cfg->eps;
    for (uint32_t e = b; e < e_end; e++) {
        int32_t l = f->lits[e];
        uint32_t j = (uint32_t)abs(l) - 1;
        if (st->var[j] != SP_FREE)
            continue;
        float own = 1.0f - s->eta[e];
        float ps = l > 0 ? s->pp[j] : s->pn[j], pu = l > 0 ? s->pn[j] : s->pp[j];
        uint32_t zs = l > 0 ? s->zp[j] : s->zn[j], zu = l > 0 ? s->zn[j] : s->zp[j];
        if (own == 0.0f)
            zs--;
        else
            ps /= own;
        float Ps = zs ? 0.0f : ps, Pu = zu ? 0.0f : pu;
        float pi_u = (1.0f - Pu) * Ps, pi_s = (1.0f - Ps) * Pu, pi_0 = Ps * Pu;
        float sum = pi_u + pi_s + pi_0;
        s->r[e] = sum > 0.0f ? pi_u / sum : 0.0f;
    }
    for (uint32_t e = b; e < e_end; e++) {
        if (st->var[abs(f->lits[e]) - 1] != SP_FREE)
            continue;
        float eta = 1.0f;
        for (uint32_t q = b; q < e_end; q++)
            if (q != e && st->var[abs(f->lits[q]) - 1] == SP_FREE)
                eta *= s->r[q];
        moved += fabsf(eta - s->eta[e]) > eps;
        s->eta[e] = eta;
        (*surveys)++;
    }
    return moved;
}

static int serial_converge(void *self, const sp_state *st, sp_sweeps *out, clirr_error *err)
{
    (void)err;
    sp_serial *s = self;
    memset(out, 0, sizeof *out);
    while (out->sweeps < s->cfg->max_iter) {
        products(s, st);
        uint64_t moved = 0;
        for (uint32_t c = 0; c < s->f->nclauses; c++)
            if (!st->clause_sat[c])
                moved += update_clause(s, st, c, &out->surveys);
        out->sweeps++;
        if (moved == 0) {
            out->converged = true;
            break;
        }
    }
    return CLIRR_OK;
}

static int serial_biases(void *self, const sp_state *st, float *diff, float *mag, clirr_error *err)
{
    (void)err;
    sp_serial *s = self;
    products(s, st);
    for (uint32_t v = 0; v < s->f->nvars; v++) {
        if (st->var[v] != SP_FREE)
            continue;
        float P = s->zp[v] ? 0.0f : s->pp[v], N = s->zn[v] ? 0.0f : s->pn[v];
        float pi_p = (1.0f - P) * N, pi_m = (1.0f - N) * P, pi_0 = P * N;
        float sum = pi_p + pi_m + pi_0;
        float wp = sum > 0.0f ? pi_p / sum : 0.0f, wm = sum > 0.0f ? pi_m / sum : 0.0f;
        diff[v] = wp - wm;
        mag[v] = wp > wm ? wp : wm;
    }
    return CLIRR_OK;
}

void clirr_sp_serial_free(sp_serial *s)
{
    if (!s)
        return;
    free(s->eta);
    free(s->r);
    free(s->pp);
    free(s->pn);
    free(s->zp);
    free(s->zn);
    free(s);
}

int clirr_sp_serial_create(const clirr_cnf *f, const sp_config *cfg, sp_serial **out, sp_engine *eng,
                           clirr_error *err)
{
    sp_serial *s = calloc(1, sizeof *s);
    size_t L = (size_t)f->nlits + 1, V = (size_t)f->nvars + 1;
    if (s) {
        s->f = f;
        s->cfg = cfg;
        s->eta = malloc(L * sizeof *s->eta);
        s->r = malloc(L * sizeof *s->r);
        s->pp = malloc(V * sizeof *s->pp);
        s->pn = malloc(V * sizeof *s->pn);
        s->zp = malloc(V * sizeof *s->zp);
        s->zn = malloc(V * sizeof *s->zn);
    }
    if (!s || !s->eta || !s->r || !s->pp || !s->pn || !s->zp || !s->zn) {
        clirr_sp_serial_free(s);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the serial surveys (%u literals)", f->nlits);
    }
    for (uint32_t e = 0; e < f->nlits; e++)
        s->eta[e] = clirr_sp_initial_survey(cfg->seed, e);
    *out = s;
    *eng = (sp_engine){s, serial_converge, serial_biases};
    return CLIRR_OK;
}

const float *clirr_sp_serial_surveys(const sp_serial *s) { return s->eta; }

int clirr_ref_sp(const clirr_cnf *f, const clirr_cnf_factor *fg, const sp_config *cfg, uint32_t *result,
                 sp_outcome *out, clirr_error *err)
{
    sp_serial *s = NULL;
    sp_engine eng;
    int rc = clirr_sp_serial_create(f, cfg, &s, &eng, err);
    if (rc != CLIRR_OK)
        return rc;
    rc = clirr_sp_solve(f, fg, cfg, &eng, result, out, err);
    clirr_sp_serial_free(s);
    if (rc == CLIRR_OK)
        result[f->nvars] = f->nclauses - out->unsatisfied;
    return rc;
}

bool clirr_verify_sp(const clirr_cnf *f, const uint32_t *got, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    for (uint32_t v = 0; v < f->nvars; v++)
        if (got[v] > 1 && r->mismatches++ < 5)
            clirr_verify_note(r, "(variable %u, expected 0 or 1, got %u) ", v + 1, got[v]);
    if (r->mismatches)
        return clirr_verify_done(r, 0);
    uint64_t sat = clirr_cnf_count_satisfied(f, got), claimed = got[f->nvars];
    uint64_t wrong = sat != claimed;
    if (wrong)
        clirr_verify_note(r, "the run reports %llu of %u clauses satisfied, its assignment satisfies %llu. ",
                          (unsigned long long)claimed, f->nclauses, (unsigned long long)sat);
    return clirr_verify_done(r, wrong);
}
