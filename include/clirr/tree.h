/* clirr/tree.h - trees: reading, writing, generating, and the adjacency
 * the Euler tour technique walks (shared/papers/003).
 *
 * A tree has n >= 1 vertices (0-based 32-bit ids), n - 1 undirected edges
 * and a root. Nothing here touches OpenCL.
 *
 * File format (.tree, optionally .gz): one edge "u v" per line, 0-based;
 * n = edges + 1; blank lines and lines starting with '#' or '%' are
 * skipped; an optional first comment "# Nodes: N Edges: M" (which the
 * writer puts first) must agree with the edges that follow. The root is
 * not in the file: readers set 0, callers choose (--root). */
#ifndef CLIRR_TREE_H
#define CLIRR_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clirr/export.h"
#include "clirr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest vertex count: the Euler tour has 2 (n - 1) arcs, 32-bit ids. */
#define CLIRR_TREE_MAX_NODES ((uint64_t)INT32_MAX)

typedef struct clirr_tree {
    uint32_t n;       /* vertices, at least 1 */
    uint32_t root;
    uint32_t *u, *v;  /* the n - 1 edges, in file order */
} clirr_tree;

/* Read a .tree file (plain or gzipped); the root is 0. CLIRR_ERR_INPUT
 * with "FILE:LINE: reason" for anything that is not one tree: a malformed
 * line, a self-loop, an id out of range (n = edges + 1: a missing or
 * extra edge shows as one), an edge count that disagrees with the header,
 * an edge that closes a cycle (which leaves a vertex disconnected; one is
 * named); the array limits as for lists. *t is zeroed on failure. */
CLIRR_API int clirr_tree_read(const char *path, clirr_tree *t, clirr_error *err);

/* Write t as a .tree file (header first; gzipped for .gz), whole or not
 * at all. The root is not written. */
CLIRR_API int clirr_tree_write(const char *path, const clirr_tree *t, clirr_error *err);

/* Generate a tree from "tree:kind=K,n=N[,seed=S][,shuffle=0|1]" (or the
 * regular kind's keys below):
 *   kind=binary   random binary tree: vertex i attaches to a uniformly
 *                 random free child slot of the vertices before it (the
 *                 shape of a random binary search tree, depth ~ 4.3 ln n)
 *   kind=attach   random recursive tree: vertex i attaches to a uniformly
 *                 random vertex before it
 *   kind=regular the recursion study's trees (shared/papers/001, III.C):
 *                 "tree:kind=regular,depth=D,outdeg=K[,sparsity=S]":
 *                 D levels counting the root's (depth 4: 1 + K + K^2 + K^3
 *                 vertices at S = 0); the root has K children; a vertex
 *                 of levels 1 .. D - 2 has K children with probability
 *                 (1/2)^S (default S = 0), else none; the last level is
 *                 leaves. Numbered level by level before the shuffle.
 * shuffle=1 (default) relabels every vertex but the root (0) at random so
 * that tree neighbours lie apart in memory. Edges are "parent child".
 * The root is 0. The same spec gives the same tree on every machine. */
CLIRR_API int clirr_tree_generate(const char *spec, clirr_tree *t, clirr_error *err);

/* True when spec names a tree generator ("tree:..."). */
CLIRR_API bool clirr_tree_spec(const char *spec);

/* Check that t's edges make one tree over its n vertices (ids in range,
 * no self-loop, no cycle) and that the root is a vertex. CLIRR_ERR_INPUT
 * naming the first problem by edge index. */
CLIRR_API int clirr_tree_check(const clirr_tree *t, clirr_error *err);

/* 64-bit hash of n and the edges (the root is not hashed). */
CLIRR_API uint64_t clirr_tree_hash(const clirr_tree *t);

CLIRR_API void clirr_tree_free(clirr_tree *t);

/* The tree as the Euler tour technique reads it: both arcs of every edge,
 * grouped by tail (CSR), each group in increasing order of head, each arc
 * with its reverse (sib), the next arc of its tail, circularly (next),
 * and its tail: the tour goes from arc e to next[sib[e]]. */
typedef struct clirr_tree_adj {
    uint32_t n;
    uint32_t arcs;    /* 2 (n - 1) */
    uint32_t *row;    /* n + 1 offsets */
    uint32_t *col;    /* arcs heads */
    uint32_t *sib;    /* arcs: the reverse arc */
    uint32_t *next;   /* arcs: the following arc of the same tail, circular */
    uint32_t *tail;   /* arcs: the tail (the row an arc is in) */
} clirr_tree_adj;

CLIRR_API int clirr_tree_adjacency(const clirr_tree *t, clirr_tree_adj *a, clirr_error *err);
CLIRR_API void clirr_tree_adj_free(clirr_tree_adj *a);

#ifdef __cplusplus
}
#endif
#endif
