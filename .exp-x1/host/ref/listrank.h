/* host/ref/listrank.h - the serial list ranking (the oracle and the
 * serial baseline of shared/papers/003) and the verifier of ranks. */
#ifndef CLIRR_REF_LISTRANK_H
#define CLIRR_REF_LISTRANK_H

#include "ref/ref.h"

/* rank[i] = the number of links from i to the tail of its list: for every
 * tail, walk back through the predecessors counting. `weight` (NULL = 1
 * per link) generalizes it: rank[i] = the sum of weight[x] over the
 * elements x from i to its tail, the tail included (with unit weights a
 * tail weighs 0). CLIRR_ERR_NOMEM, or CLIRR_ERR_INPUT for a structure
 * that is not lists (checked by the walk: a cycle leaves elements
 * unranked). */
int clirr_ref_listrank(uint32_t n, const uint32_t *succ, const uint32_t *weight, uint32_t *rank,
                       clirr_error *err);

/* Ranks are consistent (a tail has rank 0, rank[i] = rank[succ[i]] + 1,
 * which pins every rank), then equal to the reference's. */
bool clirr_verify_listrank(const clirr_list *l, const uint32_t *expected, const uint32_t *got,
                           clirr_verify_report *report);

#endif
