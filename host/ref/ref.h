/* host/ref/ref.h - serial CPU references (the oracle for verification and
 * the baseline for speedups) and the verifiers that compare device results
 * with them. Nothing here touches OpenCL. */
#ifndef CLIRR_REF_H
#define CLIRR_REF_H

#include "clirr/algo.h"
#include "clirr/graph.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* BFS levels from source with a FIFO queue; -1 = unreached. */
int clirr_ref_bfs(const clirr_graph *g, uint32_t source, int32_t *level, clirr_error *err);

/* Dijkstra with a binary heap; UINT32_MAX = unreached. Unweighted graphs
 * use unit weights. Negative weights give CLIRR_ERR_INPUT. */
int clirr_ref_sssp(const clirr_graph *g, uint32_t source, uint32_t *dist, clirr_error *err);

/* Betweenness centrality by Brandes' algorithm, unweighted and directed:
 * bc[v] (n entries, overwritten) is the sum over the given sources s and all
 * targets t, with s, v, t distinct, of the share of shortest s-t paths that
 * pass through v. Ordered pairs, not halved: on a symmetric graph every
 * undirected pair counts twice. sources == NULL means every vertex (nsources
 * is then ignored); a source listed twice counts twice. Paths are counted on
 * the CSR arrays: a duplicate arc is a distinct path (as a device traversal
 * counts it), a self-loop is on no shortest path. Path counts and
 * dependencies are doubles. CLIRR_ERR_USAGE for a source out of range,
 * CLIRR_ERR_INPUT when a path count exceeds the range of double. */
int clirr_ref_bc(const clirr_graph *g, const uint32_t *sources, uint32_t nsources, double *bc,
                 clirr_error *err);

/* PageRank by Jacobi iteration, pull form, from r = 1/n:
 *   r'(v) = (1 - d) / n + d * (sum over arcs u->v of r(u) / outdeg(u) + D / n)
 * where D is the sum of r(u) over vertices without out-arcs. Stops when the
 * L1 norm of r' - r is at most tol, or after max_iter iterations; rank gets
 * the last r' (1/n everywhere when max_iter is 0) and *iterations (may be
 * NULL) the number of iterations done. outdeg is the CSR degree: duplicate
 * arcs count with multiplicity. The scores sum to 1 up to rounding.
 * CLIRR_ERR_USAGE for d outside [0, 1] or tol negative or not finite. */
int clirr_ref_pagerank(const clirr_graph *g, double damping, double tol, uint32_t max_iter,
                       double *rank, uint32_t *iterations, clirr_error *err);

/* y = A x with A the graph's matrix: y[i] = sum over arcs i->j of a_ij x[j],
 * a_ij the arc's value if the graph has values, else its weight if it has
 * weights, else 1. Duplicate arcs add up. y must not be x. */
int clirr_ref_spmv(const clirr_graph *g, const double *x, double *y, clirr_error *err);

/* The BFS tree of levels (levels: int32 result, parent[v] one level up, an
 * arc to v) or the shortest-path tree of distances (uint32 result,
 * dist[p] + w = dist[v]) from source: the breadth-first walk over such
 * tight arcs, so a tree even across zero-weight cycles. parent[v] = -1 for
 * the source and unreached vertices. CLIRR_ERR_VERIFY when a reached
 * vertex has no tight path. */
int clirr_ref_tree(const clirr_graph *g, uint32_t source, const void *result, bool levels,
                   int64_t *parent, clirr_error *err);

/* Append printf-style text to a report (cut at its size). */
void clirr_verify_note(clirr_verify_report *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Close a check: note the count of violated properties (if any); true when
 * neither values nor properties were wrong. */
bool clirr_verify_done(clirr_verify_report *r, uint64_t violations);

/* Check device BFS levels: equal to the reference, and (GAPBS-style) every
 * arc u->v with u reached has level[v] <= level[u] + 1, every reached vertex
 * but the source has a parent one level up. Returns true when all hold. */
bool clirr_verify_bfs(const clirr_graph *g, uint32_t source, const int32_t *expected,
                      const int32_t *got, clirr_verify_report *report);

/* Check device SSSP distances: equal to the reference, no arc can relax,
 * and every reached vertex but the source has a tight incoming arc. */
bool clirr_verify_sssp(const clirr_graph *g, uint32_t source, const uint32_t *expected,
                       const uint32_t *got, clirr_verify_report *report);

/* Check n real results (`what` names them in the report, e.g. "scores"):
 * entry i is wrong when |got - expected| > abs_tol + rel_tol * |expected|,
 * or either is NaN (equal infinities are right). */
bool clirr_verify_real(const char *what, uint32_t n, const double *expected, const double *got,
                       double rel_tol, double abs_tol, clirr_verify_report *report);

/* Check device PageRank scores computed with damping, tol and max_iter, by
 * the true operator T, independently of how the device decided to stop:
 * - properties: every score positive and finite, the sum within
 *   100 n DBL_EPSILON of 1 (catches lost dangling or teleport mass);
 * - the operator: the scores are, within that rounding in L1, an iterate of
 *   T from 1/n that the stopping rule allows (where it stops, one earlier
 *   when that step lies within rounding of tol, or any later one), so a
 *   wrong damping or graph fails at any tolerance;
 * - convergence: when the rule stops by tol, the residual |T(x) - x|_1 is
 *   at most damping * tol plus rounding (what a step <= tol guarantees, T
 *   being a contraction by damping); when max_iter stops it, the scores are
 *   iterate max_iter itself.
 * It runs the iteration again (as long as the reference) and names the
 * entries that differ most from the closest iterate. */
bool clirr_verify_pagerank(const clirr_graph *g, double damping, double tol, uint32_t max_iter,
                           const double *got, clirr_verify_report *report);
/* The same for a run that kept its contributions (score / out-degree) as
 * floats (float_contrib), as GAPBS and Pannotia do: the rounding allowed
 * grows from n double roundings to about 2^-22 * damping / (1 - damping)
 * in L1, so a wrong damping, lost mass or a wrong graph still fails unless
 * its effect is below that. */
bool clirr_verify_pagerank_as(const clirr_graph *g, double damping, double tol, uint32_t max_iter,
                              bool float_contrib, const double *got, clirr_verify_report *report);

/* Serial greedy coloring (first-fit) of g read as undirected, self-loops
 * ignored: vertices in natural order, or largest total degree first (ties
 * by id). color gets n colors >= 1. */
int clirr_ref_color(const clirr_graph *g, bool largest_first, uint32_t *color, clirr_error *err);

/* Speculative greedy coloring in synchronous rounds, what the device's
 * `color --sync` (every round, no fusing) computes exactly: each round every
 * undecided vertex takes the first fit among its decided neighbours'
 * colors, then keeps it unless a neighbour of higher priority took the
 * same (heuristic: the larger row length first; then the larger hash of the
 * id, then the lower id). s is symmetric (the input's symmetric form); self-loops are
 * ignored. *rounds (may be NULL) gets the rounds. */
int clirr_ref_color_sync(const clirr_graph *s, bool heuristic, uint32_t *color, uint32_t *rounds,
                         clirr_error *err);

/* A proper coloring: every vertex colored (>= 1) and no arc (either
 * direction; self-loops aside) joins two vertices of one color. */
bool clirr_verify_coloring(const clirr_graph *g, const uint32_t *color, clirr_verify_report *report);

#endif
