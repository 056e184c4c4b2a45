/* host/ref/mst.c - minimum spanning forests on the CPU (the oracle of mst
 * and its serial baseline): Kruskal's algorithm over the arcs as given
 * (reverse and parallel arcs and self-loops included: the union-find
 * rejects what cannot join two trees), sorted by (weight, smaller end,
 * larger end) with an LSD radix sort, and the verifier of a device's
 * forest. */
#include "ref/mst.h"

#include "ref/ref.h"
#include "ref/union_find.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SHOW 5

int clirr_ref_mst_check_weights(const clirr_graph *g, clirr_error *err)
{
    if (!g->weight || !g->weights_rounded)
        return CLIRR_OK;
    for (uint32_t u = 0; g->value && u < g->n; u++)
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++)
            if ((double)g->weight[k] != g->value[k])
                return clirr_fail(err, CLIRR_ERR_INPUT,
                                  "mst needs integer weights from %d to %d: arc %u -> %u has %.17g "
                                  "(a forest of rounded weights need not be minimum for the real ones)",
                                  INT32_MIN, INT32_MAX, u, g->col[k], g->value[k]);
    return clirr_fail(err, CLIRR_ERR_INPUT,
                      "mst needs integer weights from %d to %d: the input's real values were rounded",
                      INT32_MIN, INT32_MAX);
}

/* An undirected edge with its sort key; w is the weight with its sign bit
 * flipped, so unsigned order is signed order. */
typedef struct kedge {
    uint32_t a, b, w;
} kedge;

static uint32_t digit(const kedge *e, int pass)
{
    uint32_t word = pass < 2 ? e->b : pass < 4 ? e->a : e->w;
    return pass % 2 ? word >> 16 : word & 0xffff;
}

/* Sort e[0..k) by (w, a, b): six stable 16-bit counting passes from the
 * least significant digit, a pass skipped when every edge has the same
 * digit there. Returns the array holding the result (e or tmp). */
static kedge *radix_sort(kedge *e, kedge *tmp, uint64_t k, uint64_t *count)
{
    for (int pass = 0; pass < 6; pass++) {
        memset(count, 0, 65536 * sizeof *count);
        for (uint64_t i = 0; i < k; i++)
            count[digit(&e[i], pass)]++;
        if (k == 0 || count[digit(&e[0], pass)] == k)
            continue;
        uint64_t sum = 0;
        for (uint32_t d = 0; d < 65536; d++) {
            uint64_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (uint64_t i = 0; i < k; i++)
            tmp[count[digit(&e[i], pass)]++] = e[i];
        kedge *t = e;
        e = tmp;
        tmp = t;
    }
    return e;
}

/* parent[] of the forest given as f edges, each tree rooted at its
 * smallest vertex (a breadth-first walk from vertices in increasing
 * order: the first of a tree met is its smallest). */
static int root_forest(uint32_t n, const uint32_t *fa, const uint32_t *fb, uint32_t f,
                       uint32_t *parent, clirr_error *err)
{
    uint32_t *off = calloc((size_t)n + 1, sizeof *off);
    uint32_t *adj = malloc(((size_t)f * 2 + 1) * sizeof *adj);
    uint32_t *queue = malloc(((size_t)n + 1) * sizeof *queue);
    if (!off || !adj || !queue) {
        free(off);
        free(adj);
        free(queue);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory rooting a forest of %u vertices", n);
    }
    for (uint32_t i = 0; i < f; i++) {
        off[fa[i] + 1]++;
        off[fb[i] + 1]++;
    }
    for (uint32_t v = 0; v < n; v++)
        off[v + 1] += off[v];
    for (uint32_t i = 0; i < f; i++) {
        adj[off[fa[i]]++] = fb[i];
        adj[off[fb[i]]++] = fa[i];
    }
    memmove(off + 1, off, (size_t)n * sizeof *off);
    off[0] = 0;
    for (uint32_t v = 0; v < n; v++)
        parent[v] = CLIRR_REF_NO_PARENT;
    bool *seen = (bool *)calloc(n ? n : 1, sizeof *seen);
    if (!seen) {
        free(off);
        free(adj);
        free(queue);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory rooting a forest of %u vertices", n);
    }
    for (uint32_t r = 0; r < n; r++) {
        if (seen[r])
            continue;
        seen[r] = true;
        uint32_t head = 0, tail = 0;
        queue[tail++] = r;
        while (head < tail) {
            uint32_t u = queue[head++];
            for (uint32_t k = off[u]; k < off[u + 1]; k++)
                if (!seen[adj[k]]) {
                    seen[adj[k]] = true;
                    parent[adj[k]] = u;
                    queue[tail++] = adj[k];
                }
        }
    }
    free(seen);
    free(off);
    free(adj);
    free(queue);
    return CLIRR_OK;
}

int clirr_ref_mst(const clirr_graph *g, uint32_t *parent, int64_t *total, uint32_t *trees,
                  clirr_error *err)
{
    int rc = clirr_ref_mst_check_weights(g, err);
    if (rc != CLIRR_OK)
        return rc;
    uint64_t k = 0;
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t j = g->row[u]; j < g->row[u + 1]; j++)
            k += g->col[j] != u;
    kedge *e = malloc((k ? k : 1) * sizeof *e), *tmp = malloc((k ? k : 1) * sizeof *tmp);
    uint64_t *count = malloc(65536 * sizeof *count);
    uint32_t *uf = malloc(((size_t)g->n + 1) * sizeof *uf);
    uint32_t *fa = malloc(((size_t)g->n + 1) * sizeof *fa), *fb = malloc(((size_t)g->n + 1) * sizeof *fb);
    if (!e || !tmp || !count || !uf || !fa || !fb) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for Kruskal over %llu arcs",
                        (unsigned long long)k);
        goto done;
    }
    k = 0;
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t j = g->row[u]; j < g->row[u + 1]; j++) {
            uint32_t v = g->col[j];
            if (v == u)
                continue;
            int32_t w = g->weight ? g->weight[j] : 1;
            e[k].a = u < v ? u : v;
            e[k].b = u < v ? v : u;
            e[k].w = (uint32_t)w ^ 0x80000000u;
            k++;
        }
    kedge *sorted = radix_sort(e, tmp, k, count);
    uf_init(uf, g->n);
    uint32_t f = 0;
    int64_t sum = 0;
    for (uint64_t i = 0; i < k && f + 1 < g->n; i++)
        if (uf_union(uf, sorted[i].a, sorted[i].b)) {
            fa[f] = sorted[i].a;
            fb[f] = sorted[i].b;
            sum += (int32_t)(sorted[i].w ^ 0x80000000u);
            f++;
        }
    rc = root_forest(g->n, fa, fb, f, parent, err);
    if (total)
        *total = sum;
    if (trees)
        *trees = g->n - f;
done:
    free(e);
    free(tmp);
    free(count);
    free(uf);
    free(fa);
    free(fb);
    return rc;
}

/* ---- the verifier ------------------------------------------------------- */

/* An edge as (smaller end, larger end), its lightest arc weight, and
 * whether an arc joins the pair at all. */
typedef struct vedge {
    uint32_t a, b;
    int32_t w;
    bool found;
} vedge;

static int cmp_vedge(const void *x, const void *y)
{
    const vedge *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

static vedge *find_edge(vedge *e, uint64_t k, uint32_t a, uint32_t b)
{
    vedge key = {a, b, 0, false};
    return bsearch(&key, e, k, sizeof *e, cmp_vedge);
}

/* Every arc of g offers its weight to the edge it joins in e (sorted). */
static void lightest_weights(const clirr_graph *g, vedge *e, uint64_t k)
{
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t j = g->row[u]; j < g->row[u + 1]; j++) {
            uint32_t v = g->col[j];
            if (v == u)
                continue;
            vedge *x = find_edge(e, k, u < v ? u : v, u < v ? v : u);
            int32_t w = g->weight ? g->weight[j] : 1;
            if (x && (!x->found || w < x->w)) {
                x->w = w;
                x->found = true;
            }
        }
}

bool clirr_verify_mst(const clirr_graph *g, const uint32_t *parent, const uint32_t *a,
                      const uint32_t *b, uint64_t k, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    uint32_t n = g->n;
    uint64_t bad = 0, kref = 0;
    for (uint32_t v = 0; v < n; v++)
        kref += parent[v] != CLIRR_REF_NO_PARENT;
    vedge *got = malloc((k ? k : 1) * sizeof *got), *ref = malloc((kref ? kref : 1) * sizeof *ref);
    uint32_t *uf = malloc(((size_t)n + 1) * sizeof *uf), *ufref = malloc(((size_t)n + 1) * sizeof *ufref);
    if (!got || !ref || !uf || !ufref) {
        clirr_verify_note(r, "out of memory verifying a forest of %llu edges. ", (unsigned long long)k);
        bad++;
        goto done;
    }
    /* The reference's edges and components. */
    uf_init(ufref, n);
    uint64_t nref = 0;
    for (uint32_t v = 0; v < n; v++)
        if (parent[v] != CLIRR_REF_NO_PARENT) {
            uint32_t p = parent[v];
            ref[nref++] = (vedge){v < p ? v : p, v < p ? p : v, 0, false};
            uf_union(ufref, v, p);
        }
    uint32_t components = n - (uint32_t)kref;
    /* The device's edges: in range, no loops, once each. */
    uint64_t ngot = 0;
    for (uint64_t i = 0; i < k; i++) {
        if (a[i] >= n || b[i] >= n || a[i] == b[i]) {
            if (bad++ < SHOW)
                clirr_verify_note(r, "edge %" PRIu64 " is {%u, %u}, not two vertices of 0..%u. ", i, a[i],
                                  b[i], n ? n - 1 : 0);
            continue;
        }
        got[ngot++] = (vedge){a[i] < b[i] ? a[i] : b[i], a[i] < b[i] ? b[i] : a[i], 0, false};
    }
    qsort(got, ngot, sizeof *got, cmp_vedge);
    qsort(ref, nref, sizeof *ref, cmp_vedge);
    for (uint64_t i = 1; i < ngot; i++)
        if (!cmp_vedge(&got[i - 1], &got[i]) && bad++ < SHOW)
            clirr_verify_note(r, "edge {%u, %u} is listed twice. ", got[i].a, got[i].b);
    lightest_weights(g, got, ngot);
    lightest_weights(g, ref, nref);
    int64_t total = 0, total_ref = 0;
    for (uint64_t i = 0; i < nref; i++)
        total_ref += ref[i].w;
    /* A forest: no edge closes a cycle. */
    uf_init(uf, n);
    for (uint64_t i = 0; i < ngot; i++) {
        if (!got[i].found) {
            if (bad++ < SHOW)
                clirr_verify_note(r, "edge {%u, %u} is no arc of the graph. ", got[i].a, got[i].b);
            continue;
        }
        total += got[i].w;
        if (!uf_union(uf, got[i].a, got[i].b) && bad++ < SHOW)
            clirr_verify_note(r, "edge {%u, %u} closes a cycle. ", got[i].a, got[i].b);
    }
    if (k != (uint64_t)n - components && bad++ < SHOW)
        clirr_verify_note(r, "%" PRIu64 " edges where %u vertices in %u components need %u. ", k, n,
                          components, n - components);
    uint64_t wrong_comp = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t cg = uf_find(uf, v), cr = uf_find(ufref, v);
        if (cg != cr && wrong_comp++ < SHOW)
            clirr_verify_note(r, "vertex %u is in the component of %u, expected %u. ", v, cg, cr);
    }
    if (wrong_comp) {
        clirr_verify_note(r, "%" PRIu64 " vertices in the wrong component. ", wrong_comp);
        bad++;
    }
    if (total != total_ref && bad++ < SHOW)
        clirr_verify_note(r, "total weight %" PRId64 ", Kruskal's %" PRId64 ". ", total, total_ref);
    /* Equality: one sorted edge list against the other. */
    uint64_t i = 0, j = 0, shown = 0;
    while (i < ngot || j < nref) {
        int c = i == ngot ? 1 : j == nref ? -1 : cmp_vedge(&got[i], &ref[j]);
        if (c == 0) {
            i++;
            j++;
            continue;
        }
        if (r->mismatches++ == 0)
            clirr_verify_note(r, "edges differ from Kruskal's:");
        const vedge *x = c < 0 ? &got[i++] : &ref[j++];
        if (shown++ < SHOW)
            clirr_verify_note(r, " {%u, %u} %s", x->a, x->b, c < 0 ? "extra" : "missing");
    }
    if (r->mismatches)
        clirr_verify_note(r, "; %" PRIu64 " differences. ", r->mismatches);
done:
    free(got);
    free(ref);
    free(uf);
    free(ufref);
    return clirr_verify_done(r, bad);
}
