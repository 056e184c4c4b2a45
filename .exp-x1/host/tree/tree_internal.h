/* host/tree/tree_internal.h - what the files of host/tree/ share: the
 * array-limit check, and the structure check's findings in a form readers
 * can put file positions on. Nothing here is public. */
#ifndef CLIRR_TREE_INTERNAL_H
#define CLIRR_TREE_INTERNAL_H

#include "clirr/tree.h"

/* Refuse a tree of n vertices whose arrays exceed the limits
 * (clirr_array_limits): on the device the Euler tour's ranking words, 8
 * bytes for each of its 2 (n - 1) arcs; on the host 4 bytes an arc. */
int clirr_tree_fits(uint64_t n, const char *what, clirr_error *err);

/* The most edges the limits allow (for a reader's growth). */
uint64_t clirr_tree_max_edges(void);

typedef enum tree_problem {
    TREE_OK = 0,
    TREE_RANGE,       /* edge e names vertex a >= n */
    TREE_SELF_LOOP,   /* edge e joins a to itself */
    TREE_CYCLE,       /* edge e (a b) closes a cycle; vertex c is then disconnected */
    TREE_NOMEM
} tree_problem;

typedef struct tree_finding {
    tree_problem problem;
    uint32_t e, a, b, c;
} tree_finding;

/* Examine the n - 1 edges of t over n vertices. */
void clirr_tree_examine(const clirr_tree *t, tree_finding *f);

/* Allocate t's edge arrays for n vertices (n - 1 edges). */
int clirr_tree_alloc(clirr_tree *t, uint32_t n, clirr_error *err);

#endif
