/* host/cnf/cnf.c - the formula itself: its limits, the in-memory check, the
 * satisfied-clause count every verifier uses, its hash, the factor graph's
 * variable-to-edge direction, freeing. */
#include "cnf/cnf_internal.h"

#include "base/parallel.h"

#include "clirr/graph.h" /* clirr_array_limits */

#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

int clirr_cnf_fits(uint64_t nvars, uint64_t nclauses, uint64_t nlits, const char *what,
                   clirr_error *err)
{
    if (nvars > CLIRR_CNF_MAX_VARS || nclauses > CLIRR_CNF_MAX_CLAUSES || nlits > CLIRR_CNF_MAX_LITERALS)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s has more than clirr's limit of %u variables, %llu clauses or %llu literals",
                          what, CLIRR_CNF_MAX_VARS, (unsigned long long)CLIRR_CNF_MAX_CLAUSES,
                          (unsigned long long)CLIRR_CNF_MAX_LITERALS);
    uint64_t device, host;
    clirr_array_limits(&device, &host);
    uint64_t largest = nlits > nclauses + 1 ? nlits : nclauses + 1;
    largest = largest > (uint64_t)nvars + 1 ? largest : (uint64_t)nvars + 1;
    if (device && largest * 4 > device)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%s (%llu literals) needs device buffers of %.2f GiB; the devices chosen take at "
                          "most %.2f GiB per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                          what, (unsigned long long)nlits, largest * 4 / 1073741824.0, device / 1073741824.0);
    if (host && largest * 4 > host)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s (%llu literals) needs arrays of %.2f GiB; a run here allows %.2f GiB per "
                          "array (an eighth of this machine's memory)",
                          what, (unsigned long long)nlits, largest * 4 / 1073741824.0, host / 1073741824.0);
    return CLIRR_OK;
}

/* The variable of a literal (any int32, INT32_MIN included). */
static inline uint32_t var_of(int32_t l)
{
    return l < 0 ? 0u - (uint32_t)l : (uint32_t)l;
}

void clirr_cnf_find_repeat(const int32_t *lits, uint32_t len, uint32_t *stamp, uint32_t mark,
                           uint32_t *pos, uint32_t *i, uint32_t *j)
{
    *i = *j = UINT32_MAX;
    /* Short clauses (random k-SAT's) compare their literals pairwise: no
     * per-variable memory touched, where the stamps cost a cache miss per
     * literal on a large formula (most of the reading time at 1M
     * variables). The same answer either way. */
    if (len <= 16) {
        for (uint32_t k = 1; k < len; k++)
            for (uint32_t q = 0; q < k; q++)
                if (var_of(lits[q]) == var_of(lits[k])) {
                    *i = q;
                    *j = k;
                    return;
                }
        return;
    }
    for (uint32_t k = 0; k < len; k++) {
        uint32_t v = (uint32_t)(lits[k] < 0 ? -(int64_t)lits[k] : lits[k]);
        if (stamp[v] == mark) {
            *i = pos[v];
            *j = k;
            return;
        }
        stamp[v] = mark;
        pos[v] = k;
    }
}

int clirr_cnf_check(const clirr_cnf *f, clirr_error *err)
{
    if (f->nvars == 0 || f->nclauses == 0)
        return clirr_fail(err, CLIRR_ERR_INPUT, "the formula has %u variables and %u clauses (at least one "
                          "of each needed)", f->nvars, f->nclauses);
    if (f->clause_off[0] != 0 || f->clause_off[f->nclauses] != f->nlits)
        return clirr_fail(err, CLIRR_ERR_INPUT, "the clause offsets do not span the %u literals", f->nlits);
    uint32_t *stamp = calloc((size_t)f->nvars + 1, sizeof *stamp);
    uint32_t *pos = malloc(((size_t)f->nvars + 1) * sizeof *pos);
    int rc = CLIRR_OK;
    if (!stamp || !pos) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory checking a formula");
        goto done;
    }
    for (uint32_t c = 0; c < f->nclauses && rc == CLIRR_OK; c++) {
        uint32_t b = f->clause_off[c], e = f->clause_off[c + 1];
        if (e <= b || e > f->nlits) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "clause %u is empty or its offsets are out of order", c + 1);
            break;
        }
        for (uint32_t k = b; k < e; k++) {
            int32_t l = f->lits[k];
            if (l == 0 || l == INT32_MIN || (uint32_t)(l < 0 ? -l : l) > f->nvars) {
                rc = clirr_fail(err, CLIRR_ERR_INPUT, "clause %u: literal %d is out of range (variables 1 to %u)",
                                c + 1, l, f->nvars);
                goto done;
            }
        }
        uint32_t i, j;
        clirr_cnf_find_repeat(f->lits + b, e - b, stamp, c + 1, pos, &i, &j);
        if (j != UINT32_MAX)
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "clause %u names variable %d twice (%d and %d)", c + 1,
                            abs(f->lits[b + j]), f->lits[b + i], f->lits[b + j]);
    }
done:
    free(stamp);
    free(pos);
    return rc;
}

uint64_t clirr_cnf_count_satisfied(const clirr_cnf *f, const uint32_t *value)
{
    uint64_t sat = 0;
    for (uint32_t c = 0; c < f->nclauses; c++)
        for (uint32_t k = f->clause_off[c]; k < f->clause_off[c + 1]; k++) {
            int32_t l = f->lits[k];
            bool truth = value[(l < 0 ? -l : l) - 1] != 0;
            if (truth == (l > 0)) {
                sat++;
                break;
            }
        }
    return sat;
}

uint64_t clirr_cnf_hash(const clirr_cnf *f)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, &f->nvars, sizeof f->nvars);
    XXH3_64bits_update(&st, &f->nclauses, sizeof f->nclauses);
    XXH3_64bits_update(&st, f->clause_off, ((size_t)f->nclauses + 1) * sizeof *f->clause_off);
    XXH3_64bits_update(&st, f->lits, (size_t)f->nlits * sizeof *f->lits);
    return XXH3_64bits_digest(&st);
}

/* A counting sort of the edges by variable, stable, so each variable's
 * edges come in clause order. */
/* One thread's share of the factor graph: a range of clauses (passes 1
 * and 2) or of variables (pass 3). */
typedef struct factor_part {
    const clirr_cnf *f;
    clirr_cnf_factor *fg;
    uint32_t *cursor; /* per variable: the next free slot (pass 2) */
    uint32_t lo, hi;
    int pass;
} factor_part;

static void factor_range(void *arg)
{
    const factor_part *p = arg;
    const clirr_cnf *f = p->f;
    clirr_cnf_factor *fg = p->fg;
    if (p->pass == 1) { /* each variable's count at var_off[v] (v 1-based) */
        for (uint32_t e = f->clause_off[p->lo]; e < f->clause_off[p->hi]; e++)
            __atomic_fetch_add(&fg->var_off[var_of(f->lits[e])], 1, __ATOMIC_RELAXED);
    } else if (p->pass == 2) { /* edges into their variables' slots, in any order */
        for (uint32_t c = p->lo; c < p->hi; c++)
            for (uint32_t e = f->clause_off[c]; e < f->clause_off[c + 1]; e++) {
                uint32_t v = var_of(f->lits[e]) - 1;
                fg->var_edge[__atomic_fetch_add(&p->cursor[v], 1, __ATOMIC_RELAXED)] = e;
                fg->edge_clause[e] = c;
            }
    } else { /* each variable's edges sorted: clause order (few per variable) */
        for (uint32_t v = p->lo; v < p->hi; v++) {
            uint32_t *a = fg->var_edge + fg->var_off[v], n = fg->var_off[v + 1] - fg->var_off[v];
            for (uint32_t i = 1; i < n; i++) {
                uint32_t x = a[i], j = i;
                for (; j > 0 && a[j - 1] > x; j--)
                    a[j] = a[j - 1];
                a[j] = x;
            }
        }
    }
}

static void factor_pass(factor_part *part, unsigned parts, int pass, uint32_t n)
{
    for (unsigned i = 0; i < parts; i++) {
        part[i].pass = pass;
        clirr_part_bounds(n, parts, i, &part[i].lo, &part[i].hi);
    }
    clirr_run_parts(parts, factor_range, part, sizeof part[0]);
}

/* A counting sort by variable on the host's threads; edges are numbered
 * in clause order, so sorting each variable's edges by number leaves them
 * in clause order whatever order the threads placed them in: the same
 * graph as one thread builds. */
int clirr_cnf_factor_build(const clirr_cnf *f, clirr_cnf_factor *fg, clirr_error *err)
{
    memset(fg, 0, sizeof *fg);
    fg->var_off = calloc((size_t)f->nvars + 2, sizeof *fg->var_off);
    fg->var_edge = malloc(((size_t)f->nlits + 1) * sizeof *fg->var_edge);
    fg->edge_clause = malloc(((size_t)f->nlits + 1) * sizeof *fg->edge_clause);
    uint32_t *cursor = malloc(((size_t)f->nvars + 1) * sizeof *cursor);
    if (!fg->var_off || !fg->var_edge || !fg->edge_clause || !cursor) {
        free(cursor);
        clirr_cnf_factor_free(fg);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the factor graph (%u literals)", f->nlits);
    }
    unsigned parts = clirr_host_threads(f->nlits, 1u << 20, "CLIRR_HOST_THREADS");
    factor_part part[CLIRR_MAX_PARTS];
    for (unsigned i = 0; i < parts; i++)
        part[i] = (factor_part){.f = f, .fg = fg, .cursor = cursor};
    factor_pass(part, parts, 1, f->nclauses);
    /* var_off[v] held 1-based v's count: shift into 0-based offsets. */
    fg->var_off[0] = 0;
    for (uint32_t v = 0; v < f->nvars; v++)
        fg->var_off[v + 1] += fg->var_off[v];
    memcpy(cursor, fg->var_off, (size_t)f->nvars * sizeof *cursor);
    factor_pass(part, parts, 2, f->nclauses);
    factor_pass(part, parts, 3, f->nvars);
    free(cursor);
    return CLIRR_OK;
}

void clirr_cnf_factor_free(clirr_cnf_factor *fg)
{
    if (!fg)
        return;
    free(fg->var_off);
    free(fg->var_edge);
    free(fg->edge_clause);
    memset(fg, 0, sizeof *fg);
}

void clirr_cnf_free(clirr_cnf *f)
{
    if (!f)
        return;
    free(f->clause_off);
    free(f->lits);
    memset(f, 0, sizeof *f);
}
