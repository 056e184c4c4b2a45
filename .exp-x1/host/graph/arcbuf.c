/* host/graph/arcbuf.c - the growing arc list that text readers fill before
 * the CSR is built from it. */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

/* A header may announce any count; preallocate at most this many arcs and
 * let the list grow with what is really in the file. */
#define ARCBUF_HINT_MAX ((uint64_t)1 << 22)

static int arcbuf_resize(arcbuf *a, uint64_t cap, clirr_error *err)
{
    uint32_t *s = realloc(a->src, (size_t)cap * sizeof *s);
    if (s)
        a->src = s;
    uint32_t *d = s ? realloc(a->dst, (size_t)cap * sizeof *d) : NULL;
    if (d)
        a->dst = d;
    int32_t *w = NULL;
    if (d && a->w) {
        w = realloc(a->w, (size_t)cap * sizeof *w);
        if (w)
            a->w = w;
    }
    double *x = NULL;
    if (d && (w || !a->w) && a->x) {
        x = realloc(a->x, (size_t)cap * sizeof *x);
        if (x)
            a->x = x;
    }
    if (!s || !d || (a->w && !w) || (a->x && !x))
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %llu arcs",
                          (unsigned long long)cap);
    a->cap = cap;
    return CLIRR_OK;
}

int clirr_arcbuf_init(arcbuf *a, bool weighted, uint64_t hint, clirr_error *err)
{
    return clirr_arcbuf_init_values(a, weighted, false, hint, err);
}

int clirr_arcbuf_init_values(arcbuf *a, bool weighted, bool valued, uint64_t hint,
                       clirr_error *err)
{
    memset(a, 0, sizeof *a);
    uint64_t cap = hint < 1024 ? 1024 : hint > ARCBUF_HINT_MAX ? ARCBUF_HINT_MAX : hint;
    /* One element marks the list weighted (valued); arcbuf_resize grows
     * them with the rest. */
    if (weighted)
        a->w = malloc(sizeof *a->w);
    if (valued)
        a->x = malloc(sizeof *a->x);
    if ((weighted && !a->w) || (valued && !a->x)) {
        clirr_arcbuf_free(a);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    }
    int rc = arcbuf_resize(a, cap, err);
    if (rc != CLIRR_OK)
        clirr_arcbuf_free(a);
    return rc;
}

int clirr_arcbuf_grow(arcbuf *a, clirr_error *err)
{
    if (a->len >= CLIRR_GRAPH_MAX_EDGES)
        return clirr_fail(err, CLIRR_ERR_INPUT, "more than %llu arcs: clirr handles at most that many",
                          (unsigned long long)CLIRR_GRAPH_MAX_EDGES);
    uint64_t cap = a->cap + a->cap / 2 + 1024;
    if (cap > CLIRR_GRAPH_MAX_EDGES)
        cap = CLIRR_GRAPH_MAX_EDGES;
    return arcbuf_resize(a, cap, err);
}

int clirr_arcbuf_to_graph(arcbuf *a, uint32_t n, clirr_graph *g, clirr_error *err)
{
    int rc = clirr_graph_build_arcs(n, a->len, a->src, a->dst, a->w, a->x, g, err);
    clirr_arcbuf_free(a);
    return rc;
}

void clirr_arcbuf_free(arcbuf *a)
{
    free(a->src);
    free(a->dst);
    free(a->w);
    free(a->x);
    memset(a, 0, sizeof *a);
}
