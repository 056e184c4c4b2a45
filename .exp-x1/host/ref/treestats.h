/* host/ref/treestats.h - the serial tree computations (depth-first walk
 * from the root, children in increasing id order) and their verifier. */
#ifndef CLIRR_REF_TREESTATS_H
#define CLIRR_REF_TREESTATS_H

#include "ref/ref.h"

/* What treestats computes for each vertex, in this order (a result is n
 * of them). CLIRR_TREE_NONE in parent for the root, and in
 * preorder and size where a variant does not compute them (bfs). */
#define CLIRR_TREE_NONE UINT32_MAX

typedef struct clirr_tree_stats {
    uint32_t parent, preorder, level, size;
} clirr_tree_stats;

/* Parent, preorder (children in increasing id order), level and subtree
 * size of every vertex, by an iterative depth-first walk over the
 * adjacency (whose rows are in increasing head order). */
int clirr_ref_treestats(const clirr_tree_adj *a, uint32_t root, clirr_tree_stats *out,
                        clirr_error *err);

/* Properties first: the root's parent none, level 0, preorder 0, size n;
 * every other vertex's parent a neighbour one level up; sizes add up over
 * children; preorder a permutation in which every subtree is the range
 * [preorder, preorder + size) nested in its parent's. Then equality with
 * the reference. With only_parent_level (bfs), preorder and size must be
 * CLIRR_TREE_NONE and are not checked further. */
bool clirr_verify_treestats(const clirr_tree_adj *a, uint32_t root, const clirr_tree_stats *expected,
                            const clirr_tree_stats *got, bool only_parent_level,
                            clirr_verify_report *report);

#endif
