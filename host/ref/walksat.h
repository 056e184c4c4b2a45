/* host/ref/walksat.h - what the two WalkSAT walkers share (inside
 * host/ref only): the residual formula they walk, built once from the
 * formula and what decimation froze. The serial walker (walksat.c) is
 * deterministic for a seed; the parallel one (walksat_parallel.c) runs one
 * walk on several host threads at once, for residuals too large for one
 * core to walk in time. */
#ifndef CLIRR_REF_WALKSAT_H
#define CLIRR_REF_WALKSAT_H

#include "ref/sp.h"

/* What is left to solve: clauses a frozen true literal satisfies are
 * dropped, frozen literals removed, the flippable variables renumbered
 * densely. A literal is var << 1 | negated; an occurrence is
 * clause << 1 | negated. */
typedef struct ws_residual {
    uint32_t nvars, nclauses;
    uint32_t *coff, *clit;  /* nclauses + 1 offsets, their literals */
    uint32_t *voff, *vocc;  /* nvars + 1 offsets, the occurrences */
    uint8_t *val;           /* the residual variables' values */
    uint32_t *rv;           /* per formula variable: its residual id, UINT32_MAX when frozen */
    uint32_t stuck;         /* clauses no flip can satisfy (every literal frozen false) */
} ws_residual;

/* The parallel walk pays off from this many residual clauses on (below,
 * thread start-up and atomics cost more than they save). */
#define WS_PARALLEL_MIN_CLAUSES 100000u

/* Serial WalkSAT on r (r->val updated): *unsat gets r's clauses left
 * unsatisfied, *flips the flips made. CLIRR_ERR_NOMEM only. */
int ws_walk_serial(ws_residual *r, uint64_t max_flips, uint64_t seed, uint64_t *flips, uint32_t *unsat);

/* The same walk on threads (2 or more) at once; not reproducible from run
 * to run (the threads' interleaving decides), the count exact. */
int ws_walk_parallel(ws_residual *r, unsigned threads, uint64_t max_flips, uint64_t seed, uint64_t *flips,
                     uint32_t *unsat);

#endif
