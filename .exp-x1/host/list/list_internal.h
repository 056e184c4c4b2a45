/* host/list/list_internal.h - what the files of host/list/ share: the
 * array-limit check every list passes before its memory is taken, and the
 * structure check's findings in a form readers can put file positions on.
 * Nothing here is public. */
#ifndef CLIRR_LIST_INTERNAL_H
#define CLIRR_LIST_INTERNAL_H

#include "clirr/list.h"

/* Refuse a list of n elements whose arrays exceed the limits
 * (clirr_array_limits): the device's largest is 8 bytes an element (list
 * ranking's packed words), the host's 4 (the successors). `what` names
 * the list in the message. */
int clirr_list_fits(uint64_t n, const char *what, clirr_error *err);

/* The most elements the limits allow (for a reader's growth). */
uint64_t clirr_list_max_fit(void);

/* The first structural problem of a successor array. */
typedef enum list_problem {
    LIST_OK = 0,
    LIST_RANGE,        /* succ[a] = b is out of range */
    LIST_TWO_PREDS,    /* b has predecessors a (second seen) and c (first) */
    LIST_CYCLE,        /* a lies on a cycle */
    LIST_NOMEM
} list_problem;

typedef struct list_finding {
    list_problem problem;
    uint32_t a, b, c;
    uint32_t heads;    /* when LIST_OK: the number of lists */
} list_finding;

/* Examine n successors (n >= 1). */
void clirr_list_examine(const uint32_t *succ, uint32_t n, list_finding *f);

#endif
