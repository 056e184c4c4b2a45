/* host/ref/treerec.h - the recursive tree computations of the recursion
 * study (shared/papers/001, Fig. 3, section III.C): tree descendants and
 * tree heights, on a tree rooted at its root. The rooted form (parent,
 * depth, children) is built here once per use from the adjacency; the
 * serial versions, recursive and iterative, are the oracle and the CPU
 * baseline; the verifiers check the defining step at every vertex, then
 * equality. No OpenCL. */
#ifndef CLIRR_REF_TREEREC_H
#define CLIRR_REF_TREEREC_H

#include "ref/ref.h"

#define CLIRR_TREEREC_NONE UINT32_MAX

/* A rooted tree: parent (NONE at the root), depth (root 0), the children
 * of v at ccol[crow[v] .. crow[v + 1]) in increasing id order, a
 * breadth-first order of the vertices (order[0] = root) and the height
 * (largest depth). */
typedef struct clirr_rooted {
    uint32_t n, root, max_depth;
    uint32_t *parent, *depth, *crow, *ccol, *order;
} clirr_rooted;

int clirr_rooted_make(const clirr_tree_adj *a, uint32_t root, clirr_rooted *r, clirr_error *err);
void clirr_rooted_free(clirr_rooted *r);

typedef enum clirr_treerec_op {
    CLIRR_TREEREC_DESCENDANTS, /* out[v] = subtree size of v minus one */
    CLIRR_TREEREC_HEIGHTS      /* out[v] = 1 at a leaf, else 1 + the largest child's */
} clirr_treerec_op;

/* The deepest tree the recursive serial version takes: one C stack frame
 * a level. */
#define CLIRR_TREEREC_SERIAL_DEPTH 65536u

/* Fig. 3(a): a recursive post-order walk from the root. CLIRR_ERR_UNSUPPORTED
 * when the tree is deeper than CLIRR_TREEREC_SERIAL_DEPTH. */
int clirr_ref_treerec_recursive(const clirr_rooted *r, clirr_treerec_op op, uint32_t *out,
                                clirr_error *err);
/* The iterative version: vertices in reverse breadth-first order, each
 * folding its value into its parent's, O(n). (The study's Fig. 3(b) walks
 * from every vertex to the root, O(sum of depths): quadratic on a path;
 * this one is the stronger baseline.) */
void clirr_ref_treerec_iterative(const clirr_rooted *r, clirr_treerec_op op, uint32_t *out);

/* Properties: every vertex's value follows from its children's by the
 * op's step (descendants: the sum of children's plus one each; heights:
 * 1 + the largest, 1 at leaves); then equality with expected. */
bool clirr_verify_treerec(const clirr_rooted *r, clirr_treerec_op op, const uint32_t *expected,
                          const uint32_t *got, clirr_verify_report *report);

/* What the templates of host/algo/treerec.c do on r, counted from the
 * tree's shape: the closed forms the device counters must match.
 *   flat_atomics   sum of depths (every vertex adds to each ancestor), when
 *                  one band covers the tree (max_depth <= band);
 *   naive_calls    1 + the internal vertices below the root;
 *   naive_atomics  n - 1 (each vertex below the root folds into its parent once);
 *   hier_calls     1 + the vertices below the root with an internal child;
 *   hier_atomics   the children of the launched vertices (the root and those). */
typedef struct clirr_treerec_counts {
    uint64_t flat_atomics, naive_calls, naive_atomics, hier_calls, hier_atomics;
} clirr_treerec_counts;
void clirr_treerec_expected_counts(const clirr_rooted *r, clirr_treerec_counts *c);

#endif
