/* host/tree/tree.c - the tree itself: allocation within the array limits,
 * the structure check (a union-find over the edges: n - 1 edges without a
 * cycle over n vertices are one tree), its hash, freeing. */
#include "tree/tree_internal.h"

#include "clirr/graph.h" /* clirr_array_limits */

#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

int clirr_tree_fits(uint64_t n, const char *what, clirr_error *err)
{
    uint64_t device, host, arcs = n ? 2 * (n - 1) : 0;
    clirr_array_limits(&device, &host);
    if (n > CLIRR_TREE_MAX_NODES)
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s has more than %llu vertices, clirr's limit for trees",
                          what, (unsigned long long)CLIRR_TREE_MAX_NODES);
    if (device && arcs * 8 > device)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%s (%llu vertices) needs a buffer of %.2f GiB to rank its Euler tour of "
                          "%llu arcs; the devices chosen take at most %.2f GiB per buffer "
                          "(CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                          what, (unsigned long long)n, arcs * 8 / 1073741824.0,
                          (unsigned long long)arcs, device / 1073741824.0);
    if (host && arcs * 4 > host)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s (%llu vertices) needs arrays of %.2f GiB for its %llu arcs; a run here "
                          "allows %.2f GiB per array (an eighth of this machine's memory)",
                          what, (unsigned long long)n, arcs * 4 / 1073741824.0,
                          (unsigned long long)arcs, host / 1073741824.0);
    return CLIRR_OK;
}

uint64_t clirr_tree_max_edges(void)
{
    uint64_t device, host, most = CLIRR_TREE_MAX_NODES - 1;
    clirr_array_limits(&device, &host);
    if (device && device / 16 < most)
        most = device / 16;
    if (host && host / 8 < most)
        most = host / 8;
    return most;
}

int clirr_tree_alloc(clirr_tree *t, uint32_t n, clirr_error *err)
{
    memset(t, 0, sizeof *t);
    size_t m = n > 1 ? (size_t)n - 1 : 1;
    t->u = malloc(m * sizeof *t->u);
    t->v = malloc(m * sizeof *t->v);
    if (!t->u || !t->v) {
        clirr_tree_free(t);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a tree of %u vertices", n);
    }
    t->n = n;
    return CLIRR_OK;
}

static uint32_t find(uint32_t *up, uint32_t x)
{
    while (up[x] != x) {
        up[x] = up[up[x]]; /* path halving */
        x = up[x];
    }
    return x;
}

void clirr_tree_examine(const clirr_tree *t, tree_finding *f)
{
    memset(f, 0, sizeof *f);
    uint32_t n = t->n;
    for (uint32_t e = 0; e + 1 < n; e++) {
        if (t->u[e] >= n || t->v[e] >= n) {
            *f = (tree_finding){TREE_RANGE, e, t->u[e] >= n ? t->u[e] : t->v[e], 0, 0};
            return;
        }
        if (t->u[e] == t->v[e]) {
            *f = (tree_finding){TREE_SELF_LOOP, e, t->u[e], 0, 0};
            return;
        }
    }
    uint32_t *up = malloc((size_t)n * sizeof *up);
    if (!up) {
        f->problem = TREE_NOMEM;
        return;
    }
    for (uint32_t x = 0; x < n; x++)
        up[x] = x;
    for (uint32_t e = 0; e + 1 < n; e++) {
        uint32_t a = find(up, t->u[e]), b = find(up, t->v[e]);
        if (a == b && f->problem == TREE_OK)
            *f = (tree_finding){TREE_CYCLE, e, t->u[e], t->v[e], 0};
        up[a] = b;
    }
    /* n - 1 edges with a cycle leave some vertex apart from vertex 0's
     * part: name the first. */
    if (f->problem == TREE_CYCLE) {
        uint32_t r = find(up, 0), c = 1;
        while (c < n && find(up, c) == r)
            c++;
        f->c = c < n ? c : 0;
    }
    free(up);
}

int clirr_tree_check(const clirr_tree *t, clirr_error *err)
{
    if (t->n == 0)
        return clirr_fail(err, CLIRR_ERR_INPUT, "the tree has no vertices");
    if (t->root >= t->n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "root %u is not a vertex of the tree (0 to %u)", t->root,
                          t->n - 1);
    tree_finding f;
    clirr_tree_examine(t, &f);
    switch (f.problem) {
    case TREE_OK: return CLIRR_OK;
    case TREE_RANGE:
        return clirr_fail(err, CLIRR_ERR_INPUT, "edge %u names vertex %u, out of range (%u vertices)", f.e,
                          f.a, t->n);
    case TREE_SELF_LOOP:
        return clirr_fail(err, CLIRR_ERR_INPUT, "edge %u is a self-loop at vertex %u", f.e, f.a);
    case TREE_CYCLE:
        return clirr_fail(err, CLIRR_ERR_INPUT, "edge %u (%u %u) closes a cycle; vertex %u is not connected",
                          f.e, f.a, f.b, f.c);
    case TREE_NOMEM: break;
    }
    return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory checking a tree of %u vertices", t->n);
}

uint64_t clirr_tree_hash(const clirr_tree *t)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, &t->n, sizeof t->n);
    size_t m = t->n ? (size_t)t->n - 1 : 0;
    XXH3_64bits_update(&st, t->u, m * sizeof *t->u);
    XXH3_64bits_update(&st, t->v, m * sizeof *t->v);
    return XXH3_64bits_digest(&st);
}

void clirr_tree_free(clirr_tree *t)
{
    if (!t)
        return;
    free(t->u);
    free(t->v);
    memset(t, 0, sizeof *t);
}
