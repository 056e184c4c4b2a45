/* host/ref/mst.h - minimum spanning forests on the CPU: Kruskal's
 * algorithm with a union-find, and the verifier. The graph is read
 * as undirected: an arc in either direction joins its two ends; where a
 * pair has several arcs the lightest counts; self-loops are ignored;
 * unweighted graphs have unit weights. Nothing here touches OpenCL. */
#ifndef CLIRR_REF_MST_H
#define CLIRR_REF_MST_H

#include "clirr/algo.h"
#include "clirr/graph.h"

#include <stdbool.h>
#include <stdint.h>

/* No parent: a tree's root. */
#define CLIRR_REF_NO_PARENT UINT32_MAX

/* CLIRR_OK when g's weights are exact 32-bit integers, else
 * CLIRR_ERR_INPUT naming the first arc whose real value was rounded or
 * clipped to fit (a minimum forest of rounded weights need not be one of
 * the real ones). */
int clirr_ref_mst_check_weights(const clirr_graph *g, clirr_error *err);

/* Kruskal: arcs sorted by (weight, smaller end, larger end) (a radix sort;
 * a total order on pairs, under which the minimum spanning forest is
 * unique), each joining two trees of a union-find kept. parent[v] (n
 * entries) gets v's parent in that forest with every tree rooted at its
 * smallest vertex (CLIRR_REF_NO_PARENT for roots); *total the forest's
 * weight and *trees its number of trees (isolated vertices count), either
 * may be NULL. CLIRR_ERR_INPUT for weights clirr_ref_mst_check_weights
 * refuses, CLIRR_ERR_NOMEM. */
int clirr_ref_mst(const clirr_graph *g, uint32_t *parent, int64_t *total, uint32_t *trees,
                  clirr_error *err);

/* Check a forest given as k edges {a[i], b[i]} against Kruskal's (parent
 * as clirr_ref_mst gives it). Properties: every edge joins two distinct
 * vertices that an arc joins, listed once; no cycle; n - components
 * edges; the same components as the reference; the total weight of the
 * edges at their lightest arcs equals Kruskal's. Equality: the same edge
 * set (the forest is unique under the key order). True when all hold. */
bool clirr_verify_mst(const clirr_graph *g, const uint32_t *parent, const uint32_t *a,
                      const uint32_t *b, uint64_t k, clirr_verify_report *report);

#endif
