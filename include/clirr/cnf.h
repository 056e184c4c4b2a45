/* clirr/cnf.h - SAT formulas in conjunctive normal form: reading and
 * writing DIMACS CNF, generating random k-SAT, and the factor graph that
 * survey propagation runs on (the inputs of `clirr run sp`,
 * shared/papers/000 and 002).
 *
 * Variables are numbered 1..nvars as in DIMACS; a literal is +v or -v.
 * Clause c holds lits[clause_off[c] .. clause_off[c+1]); every clause has
 * at least one literal and names each variable at most once (the readers
 * and generators guarantee it). Literal occurrences are the factor graph's
 * edges, numbered by their position in lits. Nothing here touches OpenCL.
 *
 * File format (.cnf, optionally .gz): DIMACS. Lines starting with 'c' are
 * comments; one header "p cnf V C" before any clause; then C clauses, each
 * a run of non-zero literals ended by 0, free to span lines or share one.
 * A line starting with '%' (SATLIB's end mark) ends the clauses; only
 * blank lines, comments and a lone 0 may follow it. */
#ifndef CLIRR_CNF_H
#define CLIRR_CNF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clirr/export.h"
#include "clirr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest variable number (literals are 32-bit signed), and the largest
 * clause and literal counts (32-bit ids on the device). */
#define CLIRR_CNF_MAX_VARS ((uint32_t)INT32_MAX)
#define CLIRR_CNF_MAX_CLAUSES ((uint64_t)UINT32_MAX - 1)
#define CLIRR_CNF_MAX_LITERALS ((uint64_t)UINT32_MAX - 1)

typedef struct clirr_cnf {
    uint32_t nvars;       /* variables 1..nvars (some may appear in no clause) */
    uint32_t nclauses;    /* at least 1 */
    uint32_t nlits;       /* literal occurrences (edges) */
    uint32_t *clause_off; /* nclauses + 1 offsets into lits */
    int32_t *lits;        /* nlits literals: +v or -v */
} clirr_cnf;

/* The factor graph's other direction: the edges of each variable (0-based
 * variable v holds var_edge[var_off[v] .. var_off[v+1]), in clause order)
 * and the clause of every edge. With the formula's clause_off and lits it
 * is the CSR adjacency both ways, signs on the edges. */
typedef struct clirr_cnf_factor {
    uint32_t *var_off;     /* nvars + 1 */
    uint32_t *var_edge;    /* nlits edge ids */
    uint32_t *edge_clause; /* nlits clause ids */
} clirr_cnf_factor;

/* Read a DIMACS CNF file (plain or gzipped). CLIRR_ERR_INPUT with
 * "FILE:LINE: reason" for: a missing, repeated, misplaced or malformed
 * header; a token that is not a literal; a literal naming a variable past
 * the header's count; an empty clause (the formula would be trivially
 * unsatisfiable: said so); a variable twice in one clause (a repeated
 * literal, or a literal with its negation, which makes the clause always
 * true); more or fewer clauses than the header declares; a last clause not
 * ended by 0. CLIRR_ERR_INPUT / CLIRR_ERR_TOO_LARGE when the formula would
 * exceed the array limits (clirr_array_limits), said before the memory is
 * taken. *f is zeroed on failure. */
CLIRR_API int clirr_cnf_read(const char *path, clirr_cnf *f, clirr_error *err);

/* Write f as DIMACS CNF (gzipped when path ends in .gz), one clause a
 * line, whole or not at all. CLIRR_ERR_IO on failure. */
CLIRR_API int clirr_cnf_write(const char *path, const clirr_cnf *f, clirr_error *err);

/* Generate random k-SAT from "ksat:n=N,m=M[,k=K][,seed=S][,planted=0|1]":
 * M clauses over N variables, each clause K distinct variables drawn
 * uniformly (K defaults to 3, at most 32 and at most N) with random signs,
 * as LonestarGPU's generator makes them. planted=1 draws a hidden
 * assignment first and redraws every clause it would falsify, so the
 * formula is satisfiable by construction. seed defaults to 1. The same
 * spec gives the same formula on every machine. CLIRR_ERR_USAGE for a
 * malformed or impossible spec; the limits as for reading. */
CLIRR_API int clirr_cnf_generate(const char *spec, clirr_cnf *f, clirr_error *err);

/* True when spec names a formula generator ("ksat:..."). */
CLIRR_API bool clirr_cnf_spec(const char *spec);

/* Check an in-memory formula as the reader does (counts, offsets,
 * literals in range, no empty clause, no variable twice in a clause).
 * CLIRR_ERR_INPUT naming the first problem's clause. */
CLIRR_API int clirr_cnf_check(const clirr_cnf *f, clirr_error *err);

/* Clauses of f that assignment value satisfies (value[v-1] != 0: variable
 * v is true). */
CLIRR_API uint64_t clirr_cnf_count_satisfied(const clirr_cnf *f, const uint32_t *value);

/* 64-bit hash of the counts, offsets and literals (determinism checks). */
CLIRR_API uint64_t clirr_cnf_hash(const clirr_cnf *f);

/* Build the variable-to-edge direction of f's factor graph. */
CLIRR_API int clirr_cnf_factor_build(const clirr_cnf *f, clirr_cnf_factor *fg, clirr_error *err);
CLIRR_API void clirr_cnf_factor_free(clirr_cnf_factor *fg);

/* Free the arrays of f and zero it. */
CLIRR_API void clirr_cnf_free(clirr_cnf *f);

#ifdef __cplusplus
}
#endif
#endif
