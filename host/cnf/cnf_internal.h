/* host/cnf/cnf_internal.h - what the files of host/cnf/ share: the
 * array-limit check every formula passes before its memory is taken, and
 * the per-clause check of distinct variables. Nothing here is public. */
#ifndef CLIRR_CNF_INTERNAL_H
#define CLIRR_CNF_INTERNAL_H

#include "clirr/cnf.h"

/* Refuse a formula of nvars variables, nclauses clauses and nlits literal
 * occurrences whose arrays exceed the limits (clirr_array_limits): the
 * device keeps 4 bytes per edge in several arrays, the host the same.
 * `what` names the formula in the message. */
int clirr_cnf_fits(uint64_t nvars, uint64_t nclauses, uint64_t nlits, const char *what,
                   clirr_error *err);

/* Where a clause names a variable twice: lits[i] and lits[j] (i < j), or
 * i == j == UINT32_MAX when it does not. stamp holds one word per variable
 * (1-based index), all different from `mark` on entry; mark must be new
 * for each clause (the clause number plus one). */
void clirr_cnf_find_repeat(const int32_t *lits, uint32_t len, uint32_t *stamp, uint32_t mark,
                           uint32_t *pos, uint32_t *i, uint32_t *j);

#endif
