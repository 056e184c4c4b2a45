/* host/graph/csr.c - the CSR graph itself: building it from an arc list by
 * a stable counting sort, its largest degree, its hash, freeing it. */
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

/* The hash state lives on the stack, so hashing cannot fail for memory. */
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

int graph_alloc(clirr_graph *g, uint32_t n, uint64_t m, bool weighted,
                clirr_error *err)
{
    memset(g, 0, sizeof *g);
    /* At least one element each, so that m == 0 never looks like failure. */
    size_t mm = m ? (size_t)m : 1;
    g->row = calloc((size_t)n + 1, sizeof *g->row);
    g->col = malloc(mm * sizeof *g->col);
    if (weighted)
        g->weight = malloc(mm * sizeof *g->weight);
    if (!g->row || !g->col || (weighted && !g->weight)) {
        clirr_graph_free(g);
        return clirr_fail(err, CLIRR_ERR_NOMEM,
                          "out of memory for a graph of %u vertices and %llu arcs",
                          n, (unsigned long long)m);
    }
    g->n = n;
    g->m = (uint32_t)m;
    return CLIRR_OK;
}

int clirr_graph_from_arcs(uint32_t n, uint64_t m, const uint32_t *src,
                          const uint32_t *dst, const int32_t *w,
                          clirr_graph *g, clirr_error *err)
{
    memset(g, 0, sizeof *g);
    if (n > CLIRR_GRAPH_MAX_NODES)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%u vertices: clirr handles at most %llu", n,
                          (unsigned long long)CLIRR_GRAPH_MAX_NODES);
    if (m > CLIRR_GRAPH_MAX_EDGES)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%llu arcs: clirr handles at most %llu",
                          (unsigned long long)m,
                          (unsigned long long)CLIRR_GRAPH_MAX_EDGES);
    if (m && (!src || !dst))
        return clirr_fail(err, CLIRR_ERR_USAGE, "arc arrays are NULL");
    for (uint64_t i = 0; i < m; i++)
        if (src[i] >= n || dst[i] >= n)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "arc %llu (%u -> %u) has an endpoint outside 0..%lld",
                              (unsigned long long)i, src[i], dst[i],
                              (long long)n - 1);
    int rc = graph_alloc(g, n, m, w != NULL, err);
    if (rc != CLIRR_OK)
        return rc;

    /* Counting sort: degrees into row[u + 1], prefix sums make row[u] the
     * start of u; placing advances row[u] to the start of u + 1, and one
     * shift restores the offsets. Visiting arcs in input order keeps each
     * row in input order (stable). */
    uint32_t *row = g->row;
    for (uint64_t i = 0; i < m; i++)
        row[src[i] + 1]++;
    for (uint32_t u = 0; u < n; u++)
        row[u + 1] += row[u];
    for (uint64_t i = 0; i < m; i++) {
        uint32_t k = row[src[i]]++;
        g->col[k] = dst[i];
        if (w)
            g->weight[k] = w[i];
    }
    memmove(row + 1, row, (size_t)n * sizeof *row);
    row[0] = 0;
    return CLIRR_OK;
}

uint32_t clirr_graph_max_degree(const clirr_graph *g)
{
    uint32_t best = 0;
    for (uint32_t u = 0; u < g->n; u++) {
        uint32_t d = g->row[u + 1] - g->row[u];
        if (d > best)
            best = d;
    }
    return best;
}

/* Feed 32-bit words to the hash as little-endian bytes, so that the hash is
 * the same on every machine. */
static void hash_words(XXH3_state_t *st, const void *words, size_t count)
{
    if (host_is_le()) {
        XXH3_64bits_update(st, words, count * 4);
        return;
    }
    const uint32_t *w = words;
    uint32_t tmp[1024];
    while (count) {
        size_t k = count < 1024 ? count : 1024;
        for (size_t i = 0; i < k; i++)
            tmp[i] = bswap32(w[i]);
        XXH3_64bits_update(st, tmp, k * 4);
        w += k;
        count -= k;
    }
}

uint64_t clirr_graph_hash(const clirr_graph *g)
{
    XXH3_state_t st;
    XXH3_INITSTATE(&st);
    XXH3_64bits_reset(&st);
    uint32_t counts[2] = {g->n, g->m};
    hash_words(&st, counts, 2);
    if (g->row)
        hash_words(&st, g->row, (size_t)g->n + 1);
    if (g->col)
        hash_words(&st, g->col, g->m);
    if (g->weight)
        hash_words(&st, g->weight, g->m);
    return XXH3_64bits_digest(&st);
}

void clirr_graph_free(clirr_graph *g)
{
    if (!g)
        return;
    free(g->row);
    free(g->col);
    free(g->weight);
    memset(g, 0, sizeof *g);
}
