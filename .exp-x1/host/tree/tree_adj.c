/* host/tree/tree_adj.c - the Euler tour's view of a tree (the study's
 * adjacency and edge lists, shared/papers/003): both arcs of every edge
 * grouped by tail in increasing order of head, each with its reverse
 * (sib), the next arc of its tail around the circle (next) and its tail. Two stable
 * counting sorts, by head then by tail, keep every arc's identity, so the
 * reverse arcs pair up without a search. */
#include "tree/tree_internal.h"

#include <stdlib.h>
#include <string.h>

void clirr_tree_adj_free(clirr_tree_adj *a)
{
    if (!a)
        return;
    free(a->row);
    free(a->col);
    free(a->sib);
    free(a->next);
    free(a->tail);
    memset(a, 0, sizeof *a);
}

/* Arc k of edge e: 2e is u -> v, 2e + 1 is v -> u. */
static inline uint32_t tail_of(const clirr_tree *t, uint32_t k) { return k & 1 ? t->v[k >> 1] : t->u[k >> 1]; }
static inline uint32_t head_of(const clirr_tree *t, uint32_t k) { return k & 1 ? t->u[k >> 1] : t->v[k >> 1]; }

int clirr_tree_adjacency(const clirr_tree *t, clirr_tree_adj *a, clirr_error *err)
{
    memset(a, 0, sizeof *a);
    uint32_t n = t->n, m = 2 * (n - 1);
    size_t mm = m ? m : 1;
    uint32_t *by_head = malloc(mm * sizeof *by_head), *count = calloc((size_t)n + 1, sizeof *count);
    a->row = calloc((size_t)n + 1, sizeof *a->row);
    a->col = malloc(mm * sizeof *a->col);
    a->sib = malloc(mm * sizeof *a->sib);
    a->next = malloc(mm * sizeof *a->next);
    a->tail = malloc(mm * sizeof *a->tail);
    if (!by_head || !count || !a->row || !a->col || !a->sib || !a->next || !a->tail) {
        free(by_head);
        free(count);
        clirr_tree_adj_free(a);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the adjacency of a tree of %u vertices", n);
    }
    /* By head: by_head lists arc ids in increasing head order. */
    for (uint32_t k = 0; k < m; k++)
        count[head_of(t, k) + 1]++;
    for (uint32_t x = 0; x < n; x++)
        count[x + 1] += count[x];
    for (uint32_t k = 0; k < m; k++)
        by_head[count[head_of(t, k)]++] = k;
    /* Then by tail, stable: rows by tail, heads increasing within a row.
     * The sibling array, free until then, maps arc id -> position. */
    uint32_t *pos = a->sib;
    for (uint32_t k = 0; k < m; k++)
        a->row[tail_of(t, k) + 1]++;
    for (uint32_t x = 0; x < n; x++)
        a->row[x + 1] += a->row[x];
    memcpy(count, a->row, ((size_t)n + 1) * sizeof *count);
    for (uint32_t i = 0; i < m; i++) {
        uint32_t k = by_head[i];
        uint32_t at = count[tail_of(t, k)]++;
        a->col[at] = head_of(t, k);
        pos[k] = at;
    }
    free(by_head);
    free(count);
    /* pos[k] -> sib: the reverse of arc k is k ^ 1. Rewritten in place
     * through next, which is still free. */
    for (uint32_t k = 0; k < m; k += 2) {
        a->next[pos[k]] = pos[k + 1];
        a->next[pos[k + 1]] = pos[k];
    }
    memcpy(a->sib, a->next, mm * sizeof *a->sib);
    for (uint32_t x = 0; x < n; x++)
        for (uint32_t e = a->row[x]; e < a->row[x + 1]; e++) {
            a->next[e] = e + 1 < a->row[x + 1] ? e + 1 : a->row[x];
            a->tail[e] = x;
        }
    a->n = n;
    a->arcs = m;
    return CLIRR_OK;
}
