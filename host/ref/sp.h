/* host/ref/sp.h - survey propagation for SAT (shared/papers/000, Table I
 * and Figure 6; shared/papers/002, SP rows), the parts that need no
 * device: the decimation loop every survey engine runs under (sp_solve.c),
 * WalkSAT (walksat.c), the serial synchronous survey engine that is the
 * reference, and the verifier (sp.c).
 *
 * Equations (Braunstein, Mezard, Zecchina), as LonestarGPU's kernels use
 * them: eta[e] is the survey on edge e = (clause a, variable i). For a
 * free variable j, P+(j) and P-(j) are the products of (1 - eta) over its
 * unsatisfied clauses where it appears positive / negative, kept as the
 * product of the non-zero factors and a count of zero ones, so one
 * clause's factor can be taken out again. For edge (a, j) with Ps the
 * product over j's other clauses of a's sign and Pu over the opposite
 * sign, r(j->a) = (1-Pu)Ps / ((1-Pu)Ps + (1-Ps)Pu + Ps Pu) (0 when the
 * denominator is 0), and eta(a->i) = the product of r(j->a) over a's other
 * free variables j. A sweep is synchronous: every product from the
 * previous sweep's surveys, then every survey of every unsatisfied clause
 * (Jacobi order), so the serial engine and a device's agree survey by
 * survey up to float rounding. Biases: W+ = (1-P+)P- / ((1-P+)P- +
 * (1-P-)P+ + P+P-), W- likewise; a fixed variable takes the value of the
 * larger.
 *
 * Decimation (LonestarGPU's rule): after the surveys converge (no change
 * above eps in a sweep), fix the fix_fraction * variables most biased
 * free variables (ties to the lower id), drop satisfied clauses and false
 * literals, repeat; stop when the mean of max(W+, W-) over the free
 * variables falls below 0.01 (the paramagnetic state: surveys trivial),
 * when every variable is fixed, on a contradiction (a clause left with no
 * free literal and no true one) or when the surveys do not converge in
 * max_iter sweeps; then WalkSAT finishes the free variables (over the
 * whole formula after a contradiction). */
#ifndef CLIRR_REF_SP_H
#define CLIRR_REF_SP_H

#include "ref/ref.h"

#include "clirr/cnf.h"

/* Variable states shared by the loop and the engines (one byte each). */
enum { SP_FALSE = 0, SP_TRUE = 1, SP_FREE = 2 };

/* The mean bias under which surveys count as trivial. */
#define SP_PARAMAGNET 0.01f
/* WalkSAT's noise: the chance of a random walk step. */
#define SP_WALKSAT_NOISE 0.567 /* the best noise for random 3-SAT (Hoos) */

typedef struct sp_config {
    double eps;              /* a sweep converges when no survey moves more */
    uint32_t max_iter;       /* sweeps per round at most */
    double fix_fraction;     /* of all variables, fixed per round (at least one) */
    uint64_t walksat_flips;  /* WalkSAT's budget */
    uint64_t seed;           /* initial surveys and WalkSAT's choices */
    unsigned walksat_threads; /* clirr_walksat's threads (0: by the residual's size) */
} sp_config;

/* The formula as decimation left it; engines read it. */
typedef struct sp_state {
    const clirr_cnf *f;
    const clirr_cnf_factor *fg;
    uint8_t *var;            /* SP_FALSE, SP_TRUE or SP_FREE */
    uint8_t *clause_sat;     /* 1: satisfied by a fixed variable */
    uint32_t *free_lits;     /* free literals left per clause */
    uint32_t *dirty;         /* free variables whose clauses changed since the
                              * last convergence (every variable at first) */
    uint32_t ndirty;
    bool first;              /* no convergence yet */
} sp_state;

/* What one convergence did. */
typedef struct sp_sweeps {
    uint32_t sweeps;
    uint64_t surveys;        /* survey updates (edges recomputed) */
    bool converged;
} sp_sweeps;

/* A survey engine: the serial one here, a device's in host/algo/sp.c. */
typedef struct sp_engine {
    void *self;
    /* Sweeps on st until converged or cfg->max_iter. */
    int (*converge)(void *self, const sp_state *st, sp_sweeps *out, clirr_error *err);
    /* For every free variable v: diff[v] = W+ - W-, mag[v] = max(W+, W-)
     * (other entries are not read). */
    int (*biases)(void *self, const sp_state *st, float *diff, float *mag, clirr_error *err);
} sp_engine;

typedef enum sp_end {
    SP_END_PARAMAGNETIC = 0, /* surveys trivial: WalkSAT finishes */
    SP_END_ALL_FIXED,        /* decimation fixed every variable */
    SP_END_CONTRADICTION,    /* a clause lost every literal */
    SP_END_UNCONVERGED       /* max_iter sweeps without convergence */
} sp_end;

/* How many rounds the per-round lists keep (the first ones). */
#define SP_ROUNDS_KEPT 128

typedef struct sp_outcome {
    uint32_t rounds;                 /* convergences (decimation rounds + the last) */
    uint32_t sweeps[SP_ROUNDS_KEPT]; /* sweeps of round r */
    uint32_t fixed[SP_ROUNDS_KEPT];  /* variables fixed after round r */
    uint64_t sweeps_total, surveys_total;
    uint32_t fixed_total;            /* by decimation */
    sp_end end;
    bool walksat_ran;                /* free variables or unsatisfied clauses were left */
    uint64_t flips;
    uint32_t unsatisfied;            /* the run's own count at the end */
    uint64_t sp_ns, walksat_ns;      /* wall clock of each phase */
} sp_outcome;

/* The names of sp_end values: "paramagnetic", "all fixed", ... */
const char *clirr_sp_end_name(sp_end end);

/* Run decimation with engine eng on formula f (factor graph fg): value
 * gets every variable's 0/1 value, out what happened. */
int clirr_sp_solve(const clirr_cnf *f, const clirr_cnf_factor *fg, const sp_config *cfg, sp_engine *eng,
                   uint32_t *value, sp_outcome *out, clirr_error *err);

/* WalkSAT (Selman, Kautz, Cohen: break counts, a free zero-break move,
 * else a random walk step with probability SP_WALKSAT_NOISE, else the
 * least-break variable) from value, flipping only variables with
 * frozen[v] == 0 (frozen NULL: all), over the clauses with skip[c] == 0
 * (skip NULL: all); at most max_flips flips. threads 1: the serial walk,
 * the same for a seed on every machine; 2 or more: one walk on that many
 * host threads (host/ref/walksat_parallel.c; the assignment differs from
 * run to run); 0: the host's cores when what is left to walk is large
 * (WS_PARALLEL_MIN_CLAUSES residual clauses), else 1. *unsat gets the
 * clauses left unsatisfied among those (the walk's own exact count),
 * *flips the flips. */
int clirr_walksat(const clirr_cnf *f, const clirr_cnf_factor *fg, uint32_t *value, const uint8_t *frozen,
                  const uint8_t *skip, uint64_t max_flips, unsigned threads, uint64_t seed, uint64_t *flips,
                  uint32_t *unsat, clirr_error *err);

/* The initial survey of edge e for a seed (uniform in [0, 1)), the same
 * on every engine. */
float clirr_sp_initial_survey(uint64_t seed, uint32_t e);

/* The serial synchronous engine: create, use through eng, free. With
 * eta_out non-NULL, after each convergence the surveys are copied there
 * (for comparisons with a device's). */
typedef struct sp_serial sp_serial;
int clirr_sp_serial_create(const clirr_cnf *f, const sp_config *cfg, sp_serial **s, sp_engine *eng,
                           clirr_error *err);
const float *clirr_sp_serial_surveys(const sp_serial *s);
void clirr_sp_serial_free(sp_serial *s);

/* The reference: the serial engine under clirr_sp_solve. result holds
 * f->nvars values (0/1) and then the number of satisfied clauses the run
 * counted (the layout of sp's result). */
int clirr_ref_sp(const clirr_cnf *f, const clirr_cnf_factor *fg, const sp_config *cfg, uint32_t *result,
                 sp_outcome *out, clirr_error *err);

/* Every value 0 or 1, and the satisfied-clause count the run reports
 * (got[nvars]) equal to a recount over the formula. An unsolved run
 * verifies when its count is right. expected (the reference's) is not
 * compared: decimation's choices depend on float rounding, and another
 * assignment is as good. */
bool clirr_verify_sp(const clirr_cnf *f, const uint32_t *got, clirr_verify_report *r);

#endif
