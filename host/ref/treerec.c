/* host/ref/treerec.c - rooting a tree, the serial tree descendants and
 * heights (recursive and iterative), their verifier and the closed forms
 * of the templates' counters. */
#include "ref/treerec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NONE CLIRR_TREEREC_NONE

void clirr_rooted_free(clirr_rooted *r)
{
    free(r->parent);
    free(r->depth);
    free(r->crow);
    free(r->ccol);
    free(r->order);
    memset(r, 0, sizeof *r);
}

/* A breadth-first walk from the root over the adjacency: parent, depth
 * and the order; then the children of each vertex, in adjacency (id)
 * order, by counting. */
int clirr_rooted_make(const clirr_tree_adj *a, uint32_t root, clirr_rooted *r, clirr_error *err)
{
    memset(r, 0, sizeof *r);
    uint32_t n = a->n;
    if (root >= n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "root %u is not a vertex of a tree of %u", root, n);
    r->n = n;
    r->root = root;
    r->parent = malloc((size_t)n * sizeof *r->parent);
    r->depth = malloc((size_t)n * sizeof *r->depth);
    r->order = malloc((size_t)n * sizeof *r->order);
    r->crow = calloc((size_t)n + 1, sizeof *r->crow);
    r->ccol = malloc(((size_t)n > 1 ? n - 1 : 1) * sizeof *r->ccol);
    if (!r->parent || !r->depth || !r->order || !r->crow || !r->ccol) {
        clirr_rooted_free(r);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory rooting a tree of %u vertices", n);
    }
    for (uint32_t v = 0; v < n; v++)
        r->parent[v] = NONE;
    uint32_t head = 0, tail = 0;
    r->order[tail++] = root;
    r->depth[root] = 0;
    while (head < tail) {
        uint32_t v = r->order[head++];
        for (uint32_t e = a->row[v]; e < a->row[v + 1]; e++) {
            uint32_t c = a->col[e];
            if (c == r->parent[v] || c == root)
                continue;
            r->parent[c] = v;
            r->depth[c] = r->depth[v] + 1;
            if (r->depth[c] > r->max_depth)
                r->max_depth = r->depth[c];
            r->order[tail++] = c;
            r->crow[v + 1]++;
        }
    }
    if (tail != n) {
        clirr_rooted_free(r);
        return clirr_fail(err, CLIRR_ERR_INPUT, "the tree walk from %u reached %u of %u vertices", root, tail, n);
    }
    for (uint32_t v = 0; v < n; v++)
        r->crow[v + 1] += r->crow[v];
    /* order[1..] lists children parent by parent (in adjacency order),
     * parents in breadth-first order: place each at its parent's row. */
    uint32_t *at = malloc((size_t)n * sizeof *at);
    if (!at) {
        clirr_rooted_free(r);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory rooting a tree of %u vertices", n);
    }
    memcpy(at, r->crow, (size_t)n * sizeof *at);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t c = r->order[i];
        r->ccol[at[r->parent[c]]++] = c;
    }
    free(at);
    return CLIRR_OK;
}

static uint32_t step(clirr_treerec_op op, uint32_t acc, uint32_t child)
{
    if (op == CLIRR_TREEREC_DESCENDANTS)
        return acc + child + 1;
    return child + 1 > acc ? child + 1 : acc;
}

static uint32_t leaf_value(clirr_treerec_op op) { return op == CLIRR_TREEREC_DESCENDANTS ? 0 : 1; }

static uint32_t visit(const clirr_rooted *r, clirr_treerec_op op, uint32_t v, uint32_t *out)
{
    uint32_t acc = leaf_value(op);
    for (uint32_t e = r->crow[v]; e < r->crow[v + 1]; e++)
        acc = step(op, acc, visit(r, op, r->ccol[e], out));
    return out[v] = acc;
}

int clirr_ref_treerec_recursive(const clirr_rooted *r, clirr_treerec_op op, uint32_t *out, clirr_error *err)
{
    if (r->max_depth > CLIRR_TREEREC_SERIAL_DEPTH)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "the recursive serial version would recurse %u deep (at most %u)", r->max_depth,
                          CLIRR_TREEREC_SERIAL_DEPTH);
    visit(r, op, r->root, out);
    return CLIRR_OK;
}

void clirr_ref_treerec_iterative(const clirr_rooted *r, clirr_treerec_op op, uint32_t *out)
{
    for (uint32_t v = 0; v < r->n; v++)
        out[v] = leaf_value(op);
    for (uint32_t i = r->n; i-- > 1;) {
        uint32_t v = r->order[i];
        out[r->parent[v]] = step(op, out[r->parent[v]], out[v]);
    }
}

bool clirr_verify_treerec(const clirr_rooted *r, clirr_treerec_op op, const uint32_t *expected,
                          const uint32_t *got, clirr_verify_report *rep)
{
    memset(rep, 0, sizeof *rep);
    const char *what = op == CLIRR_TREEREC_DESCENDANTS ? "descendants" : "height";
    uint64_t bad = 0;
    for (uint32_t v = 0; v < r->n; v++) {
        uint64_t want = leaf_value(op);
        for (uint32_t e = r->crow[v]; e < r->crow[v + 1]; e++) {
            uint64_t c = got[r->ccol[e]];
            want = op == CLIRR_TREEREC_DESCENDANTS ? want + c + 1 : (c + 1 > want ? c + 1 : want);
        }
        if (got[v] != want && bad++ < 4)
            clirr_verify_note(rep, "vertex %u: %s %u, but its %u children give %" PRIu64 ". ", v, what, got[v],
                              r->crow[v + 1] - r->crow[v], want);
    }
    uint64_t shown = 0;
    for (uint32_t v = 0; v < r->n; v++) {
        if (expected[v] == got[v])
            continue;
        if (rep->mismatches++ == 0)
            clirr_verify_note(rep, "%s differ from the reference at", what);
        if (shown++ < 5)
            clirr_verify_note(rep, " (%u, expected %u, got %u)", v, expected[v], got[v]);
    }
    if (rep->mismatches)
        clirr_verify_note(rep, "; %" PRIu64 " of %u wrong. ", rep->mismatches, r->n);
    return clirr_verify_done(rep, bad);
}

void clirr_treerec_expected_counts(const clirr_rooted *r, clirr_treerec_counts *c)
{
    memset(c, 0, sizeof *c);
    if (r->n <= 1)
        return;
    c->naive_calls = c->hier_calls = 1;
    c->naive_atomics = r->n - 1;
    c->hier_atomics = r->crow[r->root + 1] - r->crow[r->root];
    for (uint32_t v = 0; v < r->n; v++) {
        c->flat_atomics += r->depth[v];
        bool internal = r->crow[v + 1] > r->crow[v];
        if (v == r->root || !internal)
            continue;
        c->naive_calls++;
        bool launches = false;
        for (uint32_t e = r->crow[v]; e < r->crow[v + 1] && !launches; e++)
            launches = r->crow[r->ccol[e] + 1] > r->crow[r->ccol[e]];
        if (launches) {
            c->hier_calls++;
            c->hier_atomics += r->crow[v + 1] - r->crow[v];
        }
    }
}
