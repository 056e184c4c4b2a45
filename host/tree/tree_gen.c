/* host/tree/tree_gen.c - generated trees "tree:kind=K,...". Each kind is a
 * row of `kinds` below: its keys (the spec parser's table), a function
 * that says how many vertices the parameters make, and one that fills the
 * parent of every vertex i >= 1 (vertex 0 is the root). The relabelling
 * (shuffle) and the edges come after, the same for every kind. Adding a
 * kind (e.g. the regular trees of the recursion study, depth D, out-degree
 * K, sparsity S) is its fields in tree_params, its keys, and those two
 * functions.
 *
 * kind=binary grows a binary tree by attaching vertex i to a uniformly
 * random free child slot (2 per vertex) of the vertices before it: the
 * random binary search tree's shape, depth about 4.3 ln n (the study's
 * "random binary trees", shared/papers/003, whose generator it does not
 * describe). kind=attach is the random recursive tree: vertex i attaches
 * to a uniformly random earlier vertex (depth about e ln n).
 *
 * kind=regular is the recursion study's generator (shared/papers/001,
 * section III.C): depth D counts levels, the root's included, so depth 4
 * is the root and three levels below it (1 + K + K^2 + K^3 vertices at
 * sparsity 0); the root always has K = outdeg children; a vertex of the
 * levels 1 .. D - 2 has K children with probability (1/2)^sparsity, else
 * none; level D - 1 is all leaves. Vertices are numbered level by level
 * (before any shuffle), children of one parent consecutive. */
#include "tree/tree_internal.h"

#include "base/rng.h"
#include "base/spec.h"

#include <stdlib.h>
#include <string.h>

typedef struct tree_params {
    uint64_t kind, n, seed, shuffle;
    uint64_t depth, outdeg, sparsity; /* kind=regular; 0 / UNSET = not given */
} tree_params;

#define UNSET UINT64_MAX

enum { STREAM_SHAPE = 21, STREAM_LABELS = 22 };

typedef struct tree_kind {
    /* Vertices the parameters make (after the keys' own range checks). */
    int (*size)(const char *spec, const tree_params *p, uint32_t *n, clirr_error *err);
    /* The parent of every vertex 1 <= i < n, each < i, at parent[i - 1]. */
    int (*shape)(const tree_params *p, uint32_t n, uint32_t *parent, clirr_error *err);
} tree_kind;

static int keys_n_only(const char *spec, const tree_params *p, clirr_error *err);

/* Kinds sized by n=N (binary, attach). Every kind shares one key table,
 * so n is optional there and required here. */
static int size_n(const char *spec, const tree_params *p, uint32_t *n, clirr_error *err)
{
    int rc = keys_n_only(spec, p, err);
    if (rc != CLIRR_OK)
        return rc;
    if (!p->n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': this kind of tree needs n=N", spec);
    *n = (uint32_t)p->n;
    return CLIRR_OK;
}

/* The keys of one kind only: n for binary and attach, depth, outdeg and
 * sparsity for regular. Every kind shares one key table, so this says
 * which key does not belong. */
static int keys_n_only(const char *spec, const tree_params *p, clirr_error *err)
{
    if (p->depth || p->outdeg || p->sparsity != UNSET)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "generator spec '%s': depth, outdeg and sparsity belong to kind=regular", spec);
    return CLIRR_OK;
}

/* Does vertex v of level `level` (1 .. depth - 2) have children? Each
 * vertex draws once from its own counter: probability 2^-sparsity. */
static bool regular_expands(const tree_params *p, uint64_t key, uint32_t v, uint32_t level)
{
    if (level == 0 || p->sparsity == 0)
        return true;
    return rng_at(key, v) >> (64 - p->sparsity) == 0;
}

static int too_many(const char *spec, clirr_error *err)
{
    return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': the tree has more than %llu vertices", spec,
                      (unsigned long long)CLIRR_TREE_MAX_NODES);
}

/* Walk the levels of a regular tree: count its vertices into *n and, when
 * parent is given, fill it. Vertex ids go level by level, so the vertices
 * of a level are the range [first, first + count). */
static int regular_walk(const char *spec, const tree_params *p, uint32_t *parent, uint32_t *n, clirr_error *err)
{
    uint64_t key = rng_key(p->seed, STREAM_SHAPE);
    uint64_t total = 1, first = 0, count = 1;
    for (uint32_t level = 0; level + 1 < p->depth && count; level++) {
        uint64_t next = 0;
        if (!parent && (level == 0 || p->sparsity == 0)) {
            /* Every vertex of the level expands: no draws to make. */
            if (count > (CLIRR_TREE_MAX_NODES - total) / p->outdeg)
                return too_many(spec, err);
            first += count;
            count *= p->outdeg;
            total += count;
            continue;
        }
        for (uint64_t v = first; v < first + count; v++) {
            if (!regular_expands(p, key, (uint32_t)v, level))
                continue;
            if (total + next + p->outdeg > CLIRR_TREE_MAX_NODES)
                return too_many(spec, err);
            for (uint64_t c = 0; parent && c < p->outdeg; c++)
                parent[total + next + c - 1] = (uint32_t)v;
            next += p->outdeg;
        }
        first += count;
        total += next;
        count = next;
    }
    *n = (uint32_t)total;
    return CLIRR_OK;
}

static int size_regular(const char *spec, const tree_params *p, uint32_t *n, clirr_error *err)
{
    if (p->n)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "generator spec '%s': kind=regular is sized by depth and outdeg, not n", spec);
    if (!p->depth || !p->outdeg)
        return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': kind=regular needs depth=D and outdeg=K",
                          spec);
    return regular_walk(spec, p, NULL, n, err);
}

static int shape_regular(const tree_params *p, uint32_t n, uint32_t *parent, clirr_error *err)
{
    uint32_t again;
    int rc = regular_walk("", p, parent, &again, err);
    return rc == CLIRR_OK && again != n ? clirr_fail(err, CLIRR_ERR_INPUT, "regular tree changed size")
                                        : rc;
}

/* slots[] holds the free child slots, a vertex per slot: taking slot j for
 * vertex i gives j to i's first slot and appends i's second. */
static int shape_binary(const tree_params *p, uint32_t n, uint32_t *parent, clirr_error *err)
{
    uint32_t *slots = malloc(((size_t)n + 1) * sizeof *slots);
    if (!slots)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory generating a tree");
    uint64_t key = rng_key(p->seed, STREAM_SHAPE);
    slots[0] = slots[1] = 0;
    uint32_t free_slots = 2;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t j = rng_below(rng_at(key, i), free_slots);
        parent[i - 1] = slots[j];
        slots[j] = i;
        slots[free_slots++] = i;
    }
    free(slots);
    return CLIRR_OK;
}

static int shape_attach(const tree_params *p, uint32_t n, uint32_t *parent, clirr_error *err)
{
    (void)err;
    uint64_t key = rng_key(p->seed, STREAM_SHAPE);
    for (uint32_t i = 1; i < n; i++)
        parent[i - 1] = rng_below(rng_at(key, i), i);
    return CLIRR_OK;
}

static const char *const kind_names[] = {"binary", "attach", "regular", NULL};
static const tree_kind kinds[] = {
    {size_n, shape_binary},
    {size_n, shape_attach},
    {size_regular, shape_regular},
};

#define KEY(name, lo, hi, req, field)                                          \
    {name, CLIRR_SPEC_UINT, lo, hi, NULL, req, offsetof(tree_params, field)}
static const clirr_spec_key tree_keys[] = {
    {"kind", CLIRR_SPEC_WORD, 0, 0, kind_names, true, offsetof(tree_params, kind)},
    KEY("n", 1, CLIRR_TREE_MAX_NODES, false, n),
    KEY("seed", 0, UINT64_MAX, false, seed),
    KEY("shuffle", 0, 1, false, shuffle),
    KEY("depth", 1, CLIRR_TREE_MAX_NODES, false, depth),
    KEY("outdeg", 1, CLIRR_TREE_MAX_NODES, false, outdeg),
    KEY("sparsity", 0, 63, false, sparsity),
};
static const clirr_spec_kind spec_kinds[] = {
    {"tree", tree_keys, sizeof tree_keys / sizeof tree_keys[0]},
};

bool clirr_tree_spec(const char *spec) { return clirr_spec_is(spec, spec_kinds, 1); }

int clirr_tree_generate(const char *spec, clirr_tree *t, clirr_error *err)
{
    memset(t, 0, sizeof *t);
    tree_params p = {.seed = 1, .shuffle = 1, .sparsity = UNSET};
    int rc = clirr_spec_parse(spec, "tree", spec_kinds, 1, &p, err);
    if (rc < 0)
        return rc;
    const tree_kind *k = &kinds[p.kind];
    if (p.sparsity == UNSET && k->size == size_regular)
        p.sparsity = 0;
    uint32_t n;
    if ((rc = k->size(spec, &p, &n, err)) != CLIRR_OK || (rc = clirr_tree_fits(n, spec, err)) != CLIRR_OK ||
        (rc = clirr_tree_alloc(t, n, err)) != CLIRR_OK)
        return rc;
    /* The parents go into v before v takes the children. */
    uint32_t *parent = t->v;
    if ((rc = k->shape(&p, n, parent, err)) != CLIRR_OK) {
        clirr_tree_free(t);
        return rc;
    }
    /* Label x >= 1 becomes 1 + perm(x - 1): the root stays 0. */
    rng_perm perm = rng_perm_make(rng_key(p.seed, STREAM_LABELS), n > 1 ? n - 1 : 1);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t par = parent[i - 1];
        t->u[i - 1] = p.shuffle && par ? 1 + rng_perm_at(&perm, par - 1) : par;
        t->v[i - 1] = p.shuffle ? 1 + rng_perm_at(&perm, i - 1) : i;
    }
    t->root = 0;
    return CLIRR_OK;
}
