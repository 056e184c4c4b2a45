/* host/ref/walksat_parallel.c - one WalkSAT walk on several host threads
 * at once (ref/walksat.h). After decimation at a million variables the
 * residual still holds about half of them, and a serial walk spends
 * seconds there, each flip waiting on a dozen cache misses; threads
 * flipping different variables at the same time overlap those misses.
 *
 * Shared state, kept exact under concurrent flips:
 * - per clause one 64-bit word, true literals << 32 | XOR of their
 *   variables, changed by compare-and-swap only, so every change sees the
 *   clause as it is and the transitions it causes (clause became
 *   unsatisfied, its one true variable changed) are each seen once;
 * - per variable its value and a lock bit: a thread flips a variable only
 *   while it holds its lock, so a variable's flips reach every clause in
 *   the order they were made (flips of different variables commute: they
 *   add to counts and XORs);
 * - per variable the break count, kept by atomic adds from those
 *   transitions (exact when the threads stop; between, a read may see a
 *   change before the one it cancels, which only sways a choice).
 * Each thread walks the unsatisfied clauses on its own list: a clause
 * starts on the list of the thread that set up its range of clauses, and
 * goes onto the list of the thread whose flip left it unsatisfied, unless it is
 * on one already (the per-clause listed flag), and leaves it lazily, when
 * its owner picks it and finds it satisfied. So no list is shared; a
 * thread whose list empties is done (only its own flips could refill it),
 * and the walk ends when every list has emptied (every clause satisfied)
 * or the flip budget, drawn in chunks from a shared counter, is spent.
 * The choice of variable is the serial walker's (ref/walksat.c). Which
 * thread gets where first is up to the scheduler, so the assignment found
 * differs from run to run; the count reported is recounted from the
 * clause words after the threads stop. */
#include "ref/walksat.h"

#include "base/parallel.h"
#include "base/rng.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define ONE_TRUE (UINT64_C(1) << 32) /* one true literal in a clause word */
enum { LOCKED = 2 };                 /* the lock bit of a variable's byte */

typedef struct shared {
    ws_residual *r;
    _Atomic uint64_t *cw;     /* per clause: true literals << 32 | XOR of their variables */
    _Atomic int32_t *breaks;  /* per variable: clauses it alone satisfies */
    _Atomic uint8_t *vs;      /* per variable: value | LOCKED while a thread flips it */
    _Atomic uint8_t *listed;  /* per clause: on some thread's list */
    _Atomic uint64_t drawn;   /* flips handed out to the threads */
    uint64_t max_flips, chunk, seed;
} shared;

typedef struct walker {
    shared *sh;
    unsigned id;
    uint32_t *list, n, cap;   /* the unsatisfied clauses this thread walks (some satisfied by now) */
    uint64_t flips;
    uint32_t lo, hi;          /* the clauses it sets up */
    bool nomem;
} walker;

static bool push(walker *w, uint32_t c)
{
    if (w->n == w->cap) {
        if (w->cap > UINT32_MAX / 2)
            return false;
        uint32_t cap = w->cap ? w->cap * 2 : 1024;
        uint32_t *bigger = realloc(w->list, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return false;
        w->list = bigger;
        w->cap = cap;
    }
    w->list[w->n++] = c;
    return true;
}

/* Flip v, whose lock this thread holds and whose value was `was`. */
static void flip_locked(walker *w, uint32_t v, uint8_t was)
{
    shared *sh = w->sh;
    const ws_residual *r = sh->r;
    uint8_t now = was ^ 1;
    for (uint32_t k = r->voff[v]; k < r->voff[v + 1]; k++) {
        uint32_t c = r->vocc[k] >> 1;
        bool made_true = now != (r->vocc[k] & 1);
        uint64_t old = atomic_load_explicit(&sh->cw[c], memory_order_relaxed), nw;
        do
            nw = (made_true ? old + ONE_TRUE : old - ONE_TRUE) ^ v;
        while (!atomic_compare_exchange_weak(&sh->cw[c], &old, nw));
        uint32_t t = (uint32_t)(old >> 32);
        if (made_true) {
            if (t == 0)
                atomic_fetch_add_explicit(&sh->breaks[v], 1, memory_order_relaxed);
            else if (t == 1) /* its one true variable before */
                atomic_fetch_sub_explicit(&sh->breaks[(uint32_t)old], 1, memory_order_relaxed);
        } else if (t == 1) {
            atomic_fetch_sub_explicit(&sh->breaks[v], 1, memory_order_relaxed);
            if (atomic_exchange(&sh->listed[c], 1) == 0 && !push(w, c))
                w->nomem = true;
        } else if (t == 2) { /* its one true variable now */
            atomic_fetch_add_explicit(&sh->breaks[(uint32_t)nw], 1, memory_order_relaxed);
        }
    }
}

/* Whether clause c is satisfied now. */
static bool satisfied(shared *sh, uint32_t c)
{
    return atomic_load(&sh->cw[c]) >> 32 != 0;
}

static void walk(void *arg)
{
    walker *w = arg;
    shared *sh = w->sh;
    const ws_residual *r = sh->r;
    uint64_t key = rng_key(sh->seed, w->id), draw = 0, budget = 0;
    while (w->n > 0 && !w->nomem) {
        if (budget == 0) {
            uint64_t got = atomic_fetch_add(&sh->drawn, sh->chunk);
            if (got >= sh->max_flips)
                break;
            budget = sh->max_flips - got < sh->chunk ? sh->max_flips - got : sh->chunk;
        }
        uint32_t i = rng_below(rng_at(key, draw++), w->n), c = w->list[i];
        if (satisfied(sh, c)) {
            /* Off the list, unless a flip left it unsatisfied again in
             * between: then whoever sets the listed flag first keeps it
             * (this list or the flipping thread's). */
            atomic_store(&sh->listed[c], 0);
            if (satisfied(sh, c) || atomic_exchange(&sh->listed[c], 1) != 0)
                w->list[i] = w->list[--w->n];
            continue;
        }
        uint32_t b = r->coff[c], e = r->coff[c + 1];
        uint32_t best = UINT32_MAX, ties = 0;
        int32_t best_break = INT32_MAX;
        for (uint32_t k = b; k < e; k++) {
            uint32_t v = r->clit[k] >> 1;
            int32_t br = atomic_load_explicit(&sh->breaks[v], memory_order_relaxed);
            if (br < best_break) {
                best_break = br;
                best = v;
                ties = 1;
            } else if (br == best_break && rng_below(rng_at(key, draw++), ++ties) == 0) {
                best = v;
            }
        }
        if (best_break > 0 && (rng_at(key, draw++) >> 11) * 0x1.0p-53 < SP_WALKSAT_NOISE)
            best = r->clit[b + rng_below(rng_at(key, draw++), e - b)] >> 1;
        uint8_t was = atomic_fetch_or(&sh->vs[best], LOCKED);
        if (was & LOCKED)
            continue; /* another thread is flipping it: pick again */
        if (satisfied(sh, c)) { /* satisfied meanwhile: the flip is not needed */
            atomic_store(&sh->vs[best], was);
            continue;
        }
        flip_locked(w, best, was);
        atomic_store(&sh->vs[best], was ^ 1);
        w->flips++;
        budget--;
    }
}

/* The clause words of clauses [lo, hi) from the start values, their
 * share of the break counts, and the unsatisfied ones onto this thread's
 * list (so each thread starts with the unsatisfied clauses of its range). */
static void set_up(void *arg)
{
    walker *w = arg;
    shared *sh = w->sh;
    const ws_residual *r = sh->r;
    for (uint32_t c = w->lo; c < w->hi; c++) {
        uint64_t word = 0;
        for (uint32_t k = r->coff[c]; k < r->coff[c + 1]; k++) {
            uint32_t l = r->clit[k], v = l >> 1;
            if (r->val[v] != (l & 1))
                word = (word + ONE_TRUE) ^ v;
        }
        atomic_init(&sh->cw[c], word);
        atomic_init(&sh->listed[c], word == 0);
        if (word >> 32 == 1)
            atomic_fetch_add_explicit(&sh->breaks[(uint32_t)word], 1, memory_order_relaxed);
        else if (word == 0 && !push(w, c))
            w->nomem = true;
    }
}

int ws_walk_parallel(ws_residual *r, unsigned threads, uint64_t max_flips, uint64_t seed, uint64_t *flips,
                     uint32_t *unsat)
{
    if (threads > CLIRR_MAX_PARTS)
        threads = CLIRR_MAX_PARTS;
    shared sh = {.r = r, .max_flips = max_flips, .seed = seed};
    /* Chunks small enough that a small budget still spreads over the
     * threads, large enough that the shared counter stays cold. */
    sh.chunk = max_flips / ((uint64_t)threads * 64);
    sh.chunk = sh.chunk < 1 ? 1 : sh.chunk > 4096 ? 4096 : sh.chunk;
    atomic_init(&sh.drawn, 0);
    sh.cw = malloc(((size_t)r->nclauses + 1) * sizeof *sh.cw);
    sh.breaks = malloc(((size_t)r->nvars + 1) * sizeof *sh.breaks);
    sh.vs = malloc((size_t)r->nvars + 1);
    sh.listed = malloc((size_t)r->nclauses + 1);
    walker *w = calloc(threads, sizeof *w);
    int rc = CLIRR_OK;
    if (!sh.cw || !sh.breaks || !sh.vs || !sh.listed || !w) {
        rc = CLIRR_ERR_NOMEM;
        goto done;
    }
    for (uint32_t v = 0; v < r->nvars; v++) {
        atomic_init(&sh.breaks[v], 0);
        atomic_init(&sh.vs[v], r->val[v]);
    }
    for (unsigned t = 0; t < threads; t++)
        w[t] = (walker){.sh = &sh, .id = t};
    for (unsigned t = 0; t < threads; t++) {
        w[t].lo = (uint32_t)((uint64_t)r->nclauses * t / threads);
        w[t].hi = (uint32_t)((uint64_t)r->nclauses * (t + 1) / threads);
    }
    clirr_run_parts(threads, set_up, w, sizeof *w);
    for (unsigned t = 0; t < threads; t++)
        if (w[t].nomem)
            rc = CLIRR_ERR_NOMEM;
    if (rc == CLIRR_OK)
        clirr_run_parts(threads, walk, w, sizeof *w);
    *flips = 0;
    for (unsigned t = 0; t < threads; t++) {
        *flips += w[t].flips;
        if (w[t].nomem)
            rc = CLIRR_ERR_NOMEM;
    }
    *unsat = 0;
    for (uint32_t c = 0; c < r->nclauses; c++)
        *unsat += atomic_load_explicit(&sh.cw[c], memory_order_relaxed) >> 32 == 0;
    for (uint32_t v = 0; v < r->nvars; v++)
        r->val[v] = atomic_load_explicit(&sh.vs[v], memory_order_relaxed) & 1;
done:
    if (w)
        for (unsigned t = 0; t < threads; t++)
            free(w[t].list);
    free(w);
    free(sh.cw);
    free(sh.breaks);
    free(sh.vs);
    free(sh.listed);
    return rc;
}
