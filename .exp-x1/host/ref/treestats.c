/* host/ref/treestats.c - serial tree computations and their verifier.
 * The walk is the serial DFS of shared/papers/003's comparison: an
 * explicit stack, so a path of millions of vertices is no recursion. */
#include "ref/treestats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NONE CLIRR_TREE_NONE

int clirr_ref_treestats(const clirr_tree_adj *a, uint32_t root, clirr_tree_stats *out,
                        clirr_error *err)
{
    uint32_t n = a->n;
    uint32_t *stack = malloc((size_t)n * sizeof *stack), *at = malloc((size_t)n * sizeof *at);
    if (!stack || !at) {
        free(stack);
        free(at);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the serial tree walk");
    }
    uint32_t top = 0, next_pre = 0;
    out[root] = (clirr_tree_stats){NONE, next_pre++, 0, 1};
    stack[top++] = root;
    at[root] = a->row[root];
    while (top) {
        uint32_t v = stack[top - 1];
        if (at[v] == a->row[v + 1]) {
            top--;
            if (out[v].parent != NONE)
                out[out[v].parent].size += out[v].size;
            continue;
        }
        uint32_t c = a->col[at[v]++];
        if (c == out[v].parent)
            continue;
        out[c] = (clirr_tree_stats){v, next_pre++, out[v].level + 1, 1};
        at[c] = a->row[c];
        stack[top++] = c;
    }
    free(stack);
    free(at);
    return next_pre == n ? CLIRR_OK
                         : clirr_fail(err, CLIRR_ERR_INPUT, "the tree walk reached %u of %u vertices",
                                      next_pre, n);
}

static bool adjacent(const clirr_tree_adj *a, uint32_t v, uint32_t u)
{
    uint32_t lo = a->row[v], hi = a->row[v + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->col[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->row[v + 1] && a->col[lo] == u;
}

#define NOTE(...)                                                              \
    do {                                                                       \
        if (bad++ < 4)                                                         \
            clirr_verify_note(r, __VA_ARGS__);                                 \
    } while (0)

/* Parent and level: a tree rooted at root in which levels step by one. */
static uint64_t check_parents(const clirr_tree_adj *a, uint32_t root, const clirr_tree_stats *g,
                              clirr_verify_report *r)
{
    uint64_t bad = 0;
    if (g[root].parent != NONE || g[root].level != 0)
        NOTE("the root %u has parent %d and level %u (want -1 and 0). ", root, (int)g[root].parent,
             g[root].level);
    for (uint32_t v = 0; v < a->n; v++) {
        uint32_t p = g[v].parent;
        if (v == root)
            continue;
        if (p >= a->n || !adjacent(a, v, p))
            NOTE("vertex %u: parent %d is not a neighbour. ", v, (int)p);
        else if (g[p].level + 1 != g[v].level)
            NOTE("vertex %u: level %u, its parent %u has level %u. ", v, g[v].level, p, g[p].level);
    }
    return bad;
}

/* Sizes add up over children; every subtree is a preorder range nested in
 * its parent's; preorder is a permutation. Assumes check_parents passed. */
static uint64_t check_order(const clirr_tree_adj *a, uint32_t root, const clirr_tree_stats *g,
                            clirr_verify_report *r)
{
    uint64_t bad = 0;
    uint32_t n = a->n;
    uint64_t *sum = calloc(n, sizeof *sum);
    uint8_t *seen = calloc(n, 1);
    if (!sum || !seen) {
        free(sum);
        free(seen);
        clirr_verify_note(r, "out of memory verifying. ");
        return 1;
    }
    for (uint32_t v = 0; v < n; v++) {
        if (v != root)
            sum[g[v].parent] += g[v].size;
        if (g[v].preorder >= n || seen[g[v].preorder]++)
            NOTE("vertex %u: preorder %u is out of range or taken twice. ", v, g[v].preorder);
    }
    if (g[root].preorder != 0 || g[root].size != n)
        NOTE("the root has preorder %u and size %u (want 0 and %u). ", g[root].preorder, g[root].size, n);
    for (uint32_t v = 0; v < n; v++) {
        if (g[v].size != 1 + sum[v])
            NOTE("vertex %u: size %u, but 1 + its children's sizes is %" PRIu64 ". ", v, g[v].size, 1 + sum[v]);
        if (v == root)
            continue;
        const clirr_tree_stats *p = &g[g[v].parent];
        if (!(p->preorder < g[v].preorder &&
              (uint64_t)g[v].preorder + g[v].size <= (uint64_t)p->preorder + p->size))
            NOTE("vertex %u: range [%u, +%u) is not inside its parent's [%u, +%u). ", v, g[v].preorder,
                 g[v].size, p->preorder, p->size);
    }
    free(sum);
    free(seen);
    return bad;
}

bool clirr_verify_treestats(const clirr_tree_adj *a, uint32_t root, const clirr_tree_stats *expected,
                            const clirr_tree_stats *got, bool only_parent_level, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    uint64_t bad = check_parents(a, root, got, r);
    if (only_parent_level) {
        for (uint32_t v = 0; v < a->n; v++)
            if (got[v].preorder != NONE || got[v].size != NONE)
                NOTE("vertex %u: preorder and size were not computed, yet hold %u and %u. ", v,
                     got[v].preorder, got[v].size);
    } else if (!bad) {
        bad += check_order(a, root, got, r);
    }
    static const char *what[] = {"parent", "preorder", "level", "size"};
    uint64_t shown = 0;
    for (uint32_t v = 0; v < a->n; v++) {
        const uint32_t *e = &expected[v].parent, *g = &got[v].parent;
        for (int k = 0; k < 4; k++) {
            if (only_parent_level && (k == 1 || k == 3))
                continue;
            if (e[k] == g[k])
                continue;
            if (r->mismatches++ == 0)
                clirr_verify_note(r, "differs from the reference at");
            if (shown++ < 5)
                clirr_verify_note(r, " (vertex %u %s, expected %d, got %d)", v, what[k], (int)e[k], (int)g[k]);
        }
    }
    if (r->mismatches)
        clirr_verify_note(r, "; %" PRIu64 " values wrong. ", r->mismatches);
    return clirr_verify_done(r, bad);
}
