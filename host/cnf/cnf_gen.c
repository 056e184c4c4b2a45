/* host/cnf/cnf_gen.c - random k-SAT "ksat:n=N,m=M,k=K,seed=S,planted=P":
 * each clause K distinct variables drawn uniformly with independent random
 * signs (the random 3-SAT of the study's survey propagation inputs,
 * shared/papers/000: 4.2 clauses per variable). Every draw comes from the
 * counter-based generator of base/rng.h, clause c's from its own block of
 * counters, so the formula is the same on every machine. A planted formula
 * first draws a hidden assignment and redraws any clause it falsifies: a
 * satisfiable formula with a known witness, for tests. */
#include "cnf/cnf_internal.h"

#include "base/rng.h"
#include "base/spec.h"

#include <stdlib.h>
#include <string.h>

typedef struct ksat_params {
    uint64_t n, m, k, seed, planted;
} ksat_params;

#define KEY(name, lo, hi, req, field)                                          \
    {name, CLIRR_SPEC_UINT, lo, hi, NULL, req, offsetof(ksat_params, field)}
static const clirr_spec_key ksat_keys[] = {
    KEY("n", 1, CLIRR_CNF_MAX_VARS, true, n),
    KEY("m", 1, CLIRR_CNF_MAX_CLAUSES, true, m),
    KEY("k", 1, 32, false, k),
    KEY("seed", 0, UINT64_MAX, false, seed),
    KEY("planted", 0, 1, false, planted),
};
static const clirr_spec_kind ksat_kinds[] = {
    {"ksat", ksat_keys, sizeof ksat_keys / sizeof ksat_keys[0]},
};

enum { STREAM_CLAUSES = 21, STREAM_PLANTED = 22 };

/* Draws per clause block: far more than any clause of at most 32 distinct
 * variables needs (a redraw of a planted clause starts a new attempt). */
#define DRAWS_PER_CLAUSE (1ull << 24)

bool clirr_cnf_spec(const char *spec) { return clirr_spec_is(spec, ksat_kinds, 1); }

static bool planted_value(uint64_t key, uint32_t v) { return rng_at(key, v) >> 63; }

int clirr_cnf_generate(const char *spec, clirr_cnf *f, clirr_error *err)
{
    memset(f, 0, sizeof *f);
    ksat_params p = {.k = 3, .seed = 1};
    int rc = clirr_spec_parse(spec, "formula", ksat_kinds, 1, &p, err);
    if (rc < 0)
        return rc;
    if (p.k > p.n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s: k=%llu distinct variables per clause needs n >= k", spec,
                          (unsigned long long)p.k);
    if (p.m * p.k > CLIRR_CNF_MAX_LITERALS)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s: %llu literals, more than clirr's limit of %llu", spec,
                          (unsigned long long)(p.m * p.k), (unsigned long long)CLIRR_CNF_MAX_LITERALS);
    if ((rc = clirr_cnf_fits(p.n, p.m, p.m * p.k, spec, err)) != CLIRR_OK)
        return rc;
    f->nvars = (uint32_t)p.n;
    f->nclauses = (uint32_t)p.m;
    f->nlits = (uint32_t)(p.m * p.k);
    f->clause_off = malloc(((size_t)p.m + 1) * sizeof *f->clause_off);
    f->lits = malloc((size_t)f->nlits * sizeof *f->lits);
    if (!f->clause_off || !f->lits) {
        clirr_cnf_free(f);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "%s: out of memory for %llu literals", spec,
                          (unsigned long long)(p.m * p.k));
    }
    uint64_t key = rng_key(p.seed, STREAM_CLAUSES), pkey = rng_key(p.seed, STREAM_PLANTED);
    uint32_t k = (uint32_t)p.k, n = (uint32_t)p.n;
    for (uint32_t c = 0; c < f->nclauses; c++) {
        int32_t *cl = f->lits + (size_t)c * k;
        uint64_t draw = (uint64_t)c * DRAWS_PER_CLAUSE;
        f->clause_off[c] = c * k;
        for (;;) {
            bool satisfied = false;
            for (uint32_t j = 0; j < k;) {
                uint64_t d = rng_at(key, draw++);
                uint32_t v = rng_below(d, n) + 1;
                bool repeat = false;
                for (uint32_t i = 0; i < j; i++)
                    repeat |= (uint32_t)abs(cl[i]) == v;
                if (repeat)
                    continue;
                bool positive = d & 1;
                cl[j++] = positive ? (int32_t)v : -(int32_t)v;
                satisfied |= positive == planted_value(pkey, v - 1);
            }
            if (!p.planted || satisfied)
                break;
        }
    }
    f->clause_off[f->nclauses] = f->nlits;
    return CLIRR_OK;
}
