/* host/graph/csr.c - the CSR graph itself: building it from an arc list by
 * a stable counting sort, setting its real values, its largest degree, its
 * hash, freeing it. */
#include "graph_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The hash state lives on the stack, so hashing cannot fail for memory. */
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

/* The largest array a graph may need (clirr_graph_set_array_limits): by
 * the devices chosen, and by the host; 0 = no limit. */
static uint64_t device_limit, host_limit;

void clirr_graph_set_array_limits(uint64_t device_bytes, uint64_t host_bytes)
{
    device_limit = device_bytes;
    host_limit = host_bytes;
}

void clirr_array_limits(uint64_t *device_bytes, uint64_t *host_bytes)
{
    *device_bytes = device_limit;
    *host_bytes = host_limit;
}

uint64_t clirr_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

int clirr_graph_alloc(clirr_graph *g, uint32_t n, uint64_t m, bool weighted,
                clirr_error *err)
{
    memset(g, 0, sizeof *g);
    /* An input's counts decide the size (a 13-byte edge list can name
     * vertex 2^31): one that cannot fit this machine is the input's fault,
     * said with the numbers before anything is allocated (exit 2). */
    uint64_t need = ((uint64_t)n + 1) * sizeof *g->row + m * sizeof *g->col * (weighted ? 2 : 1);
    uint64_t rows = ((uint64_t)n + 1) * sizeof *g->row, cols = m * sizeof *g->col;
    uint64_t largest = rows > cols ? rows : cols;
    const char *what = rows > cols ? "row offsets" : "arcs";
    if (device_limit && largest > device_limit)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "the graph (%u vertices, %llu arcs) needs a buffer of %.2f GiB for its %s; "
                          "the devices chosen take at most %.2f GiB per buffer "
                          "(CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                          n, (unsigned long long)m, largest / 1073741824.0, what,
                          device_limit / 1073741824.0);
    if (host_limit && largest > host_limit)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "the graph (%u vertices, %llu arcs) needs an array of %.2f GiB for its %s; "
                          "a run here allows %.2f GiB per array (an eighth of this machine's "
                          "memory, leaving room for the run's other arrays)",
                          n, (unsigned long long)m, largest / 1073741824.0, what,
                          host_limit / 1073741824.0);
    uint64_t have = clirr_physical_memory();
    if (have && need > have)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "the graph needs %.1f GiB (%u vertices, %llu arcs); this machine has %.1f GiB",
                          need / 1073741824.0, n, (unsigned long long)m, have / 1073741824.0);
    /* At least one element each, so that m == 0 never looks like failure. */
    size_t mm = m ? (size_t)m : 1;
    g->row = calloc((size_t)n + 1, sizeof *g->row);
    g->col = malloc(mm * sizeof *g->col);
    if (weighted)
        g->weight = malloc(mm * sizeof *g->weight);
    if (!g->row || !g->col || (weighted && !g->weight)) {
        clirr_graph_free(g);
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "the graph needs %.1f GiB (%u vertices, %llu arcs), more than this machine "
                          "could allocate", need / 1073741824.0, n, (unsigned long long)m);
    }
    g->n = n;
    g->m = (uint32_t)m;
    return CLIRR_OK;
}

int clirr_graph_from_arcs(uint32_t n, uint64_t m, const uint32_t *src,
                          const uint32_t *dst, const int32_t *w,
                          clirr_graph *g, clirr_error *err)
{
    return clirr_graph_build_arcs(n, m, src, dst, w, NULL, g, err);
}

int clirr_graph_build_arcs(uint32_t n, uint64_t m, const uint32_t *src, const uint32_t *dst,
                    const int32_t *w, const double *x, clirr_graph *g, clirr_error *err)
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
    int rc = clirr_graph_alloc(g, n, m, w != NULL, err);
    if (rc != CLIRR_OK)
        return rc;
    if (x && !(g->value = malloc((m ? (size_t)m : 1) * sizeof *g->value))) {
        clirr_graph_free(g);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %llu real values",
                          (unsigned long long)m);
    }

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
        if (x)
            g->value[k] = x[i];
    }
    memmove(row + 1, row, (size_t)n * sizeof *row);
    row[0] = 0;
    return CLIRR_OK;
}

int clirr_graph_set_values(clirr_graph *g, const double *x, clirr_error *err)
{
    if (!x) {
        free(g->value);
        g->value = NULL;
        return CLIRR_OK;
    }
    /* Readers refuse NaN and infinity; a graph built here must not hold
     * what no file could. */
    for (uint32_t k = 0; k < g->m; k++)
        if (!isfinite(x[k]))
            return clirr_fail(err, CLIRR_ERR_USAGE, "value %u (%g) is not a finite number", k, x[k]);
    double *v = malloc((g->m ? (size_t)g->m : 1) * sizeof *v);
    if (!v)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %u real values", g->m);
    memcpy(v, x, (size_t)g->m * sizeof *v);
    free(g->value);
    g->value = v;
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

bool clirr_graph_has_hubs(const clirr_graph *g, uint32_t factor)
{
    return g && g->m && (uint64_t)clirr_graph_max_degree(g) * g->n >= (uint64_t)factor * g->m;
}

bool clirr_graph_bounded_degree(const clirr_graph *g, uint32_t most)
{
    if (!g || !g->n || !g->row || most > 127 || clirr_graph_max_degree(g) > 2 * most)
        return false;
    uint8_t *in = calloc(g->n, 1);
    if (!in)
        return false; /* the callers' default choice then: nothing is lost but speed */
    bool ok = true;
    for (uint32_t i = 0; i < g->m && ok; i++)
        ok = ++in[g->col[i]] <= 2 * most;
    for (uint32_t v = 0; v < g->n && ok; v++)
        ok = clirr_graph_degree(g, v) + in[v] <= 2 * most;
    free(in);
    return ok;
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

/* Doubles as their IEEE bits, little-endian (-0.0 and 0.0 differ). */
static void hash_doubles(XXH3_state_t *st, const double *x, size_t count)
{
    uint32_t tmp[1024];
    while (count) {
        size_t k = count < 512 ? count : 512;
        for (size_t i = 0; i < k; i++) {
            uint64_t bits;
            memcpy(&bits, &x[i], sizeof bits);
            tmp[2 * i] = (uint32_t)bits;
            tmp[2 * i + 1] = (uint32_t)(bits >> 32);
        }
        hash_words(st, tmp, 2 * k);
        x += k;
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
    if (g->value)
        hash_doubles(&st, g->value, g->m);
    return XXH3_64bits_digest(&st);
}

void clirr_graph_free(clirr_graph *g)
{
    if (!g)
        return;
    free(g->row);
    free(g->col);
    free(g->weight);
    free(g->value);
    memset(g, 0, sizeof *g);
}

/* A copy of n elements of `size` bytes, or NULL for a NULL source. */
static void *dup_array(const void *src, size_t n, size_t size, bool *fail)
{
    if (!src)
        return NULL;
    void *p = malloc(n ? n * size : 1);
    if (!p)
        *fail = true;
    else if (n)
        memcpy(p, src, n * size);
    return p;
}

bool clirr_graph_equal(const clirr_graph *a, const clirr_graph *b)
{
    if (a->n != b->n || a->m != b->m || !a->weight != !b->weight || !a->value != !b->value)
        return false;
    return !memcmp(a->row, b->row, ((size_t)a->n + 1) * sizeof *a->row) &&
           !memcmp(a->col, b->col, (size_t)a->m * sizeof *a->col) &&
           (!a->weight || !memcmp(a->weight, b->weight, (size_t)a->m * sizeof *a->weight)) &&
           (!a->value || !memcmp(a->value, b->value, (size_t)a->m * sizeof *a->value));
}

int clirr_graph_copy(const clirr_graph *g, clirr_graph *out, clirr_error *err)
{
    bool fail = false;
    memset(out, 0, sizeof *out);
    out->n = g->n;
    out->m = g->m;
    out->weights_rounded = g->weights_rounded;
    out->row = dup_array(g->row, (size_t)g->n + 1, sizeof *g->row, &fail);
    out->col = dup_array(g->col, g->m, sizeof *g->col, &fail);
    out->weight = dup_array(g->weight, g->m, sizeof *g->weight, &fail);
    out->value = dup_array(g->value, g->m, sizeof *g->value, &fail);
    if (fail) {
        clirr_graph_free(out);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory copying a graph");
    }
    return CLIRR_OK;
}
