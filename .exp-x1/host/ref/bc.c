/* host/ref/bc.c - betweenness centrality by Brandes' algorithm (U. Brandes,
 * "A faster algorithm for betweenness centrality", J. Math. Sociol. 2001):
 * the BC oracle. Unweighted, directed: bc[v] is the sum over sources s and
 * targets t (s != v != t, s != t, ordered pairs, not halved) of the share of
 * shortest s-t paths through v.
 *
 * Paths are counted on the CSR as it is: an arc given twice is two distinct
 * shortest paths (it adds sigma[u] to sigma[v] twice), as a device traversal
 * of the same arrays counts it; self-loops are never on a shortest path.
 *
 * Per source: a level-synchronous BFS that counts paths (sigma, in double:
 * counts grow exponentially with depth), then the dependency sweep, level by
 * level from the deepest, in the successor form
 *   delta[w] = sigma[w] * sum over arcs w->v one level down of coef[v],
 *   coef[v] = (1 + delta[v]) / sigma[v],
 * so no predecessor lists are needed. coef[w] = 1 / sigma[w] + that sum
 * takes sigma[w]'s slot (w's own sigma is not read again).
 *
 * Speed (a serial oracle must still keep up with rmat scale 20): the time
 * goes into cache misses, so the state of a vertex during the BFS is one
 * byte (unvisited / earlier level / next level), and the sweep reads an
 * array that holds coef for the level below the current one and 0 for every
 * other vertex, so it sums over all out-arcs without testing levels. Each
 * large level is sorted by vertex id (radix sort) so its rows are read in
 * address order, and rows a few vertices ahead are prefetched. */
#include "ref/ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { UNSEEN = 0, SEEN = 1, NEXT = 2 };

/* Levels smaller than this are not sorted: their rows are few anyway. */
#define SORT_MIN 4096
/* How many queue entries ahead rows and their arcs are prefetched. */
#define AHEAD_ROW 16
#define AHEAD_ARCS 8

typedef struct bc_work {
    uint8_t *state;   /* UNSEEN, SEEN or NEXT per vertex */
    double *sigma;    /* path counts, then coef */
    double *below;    /* coef of the level below the sweep's, 0 elsewhere */
    uint32_t *queue;  /* BFS order, level after level */
    uint32_t *bounds; /* level L is queue[bounds[L] .. bounds[L + 1]) */
    uint32_t *tmp;    /* radix sort scratch */
    uint32_t *count;  /* radix sort buckets (65536) */
} bc_work;

/* Sort a[0..len) (ids below n) by LSD radix sort in two passes of
 * ceil(bits / 2) bits each, through tmp and back, so the result always ends
 * in a. count has room for 65536 buckets. */
static void sort_ids(uint32_t *a, size_t len, uint32_t n, uint32_t *tmp, uint32_t *count)
{
    unsigned bits = 0;
    while (bits < 32 && (n - 1) >> bits)
        bits++;
    unsigned width = (bits + 1) / 2;
    if (width == 0)
        return;
    uint32_t mask = (1u << width) - 1, *src = a, *dst = tmp;
    for (unsigned shift = 0; shift < 2 * width; shift += width) {
        memset(count, 0, ((size_t)mask + 1) * sizeof *count);
        for (size_t i = 0; i < len; i++)
            count[(src[i] >> shift) & mask]++;
        uint32_t sum = 0;
        for (uint32_t d = 0; d <= mask; d++) {
            uint32_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < len; i++)
            dst[count[(src[i] >> shift) & mask]++] = src[i];
        uint32_t *swap = src;
        src = dst;
        dst = swap;
    }
}

static inline void prefetch_ahead(const clirr_graph *g, const uint32_t *queue, size_t k,
                                  size_t end, const double *sigma)
{
    if (k + AHEAD_ROW < end)
        __builtin_prefetch(&g->row[queue[k + AHEAD_ROW]]);
    if (k + AHEAD_ARCS < end) {
        uint32_t u = queue[k + AHEAD_ARCS];
        __builtin_prefetch(&g->col[g->row[u]]);
        __builtin_prefetch(&sigma[u]);
    }
}

/* One source's contribution added to bc. */
static int from_source(const clirr_graph *g, uint32_t src, bc_work *wk, double *bc,
                       clirr_error *err)
{
    const uint32_t *row = g->row, *col = g->col;
    uint8_t *state = wk->state;
    double *sigma = wk->sigma, *below = wk->below;
    uint32_t *queue = wk->queue, *bounds = wk->bounds;
    size_t tail = 0;
    uint32_t levels = 0;
    state[src] = SEEN;
    sigma[src] = 1;
    queue[tail++] = src;
    bounds[0] = 0;
    for (size_t head = 0; head < tail;) {
        size_t end = tail;
        bounds[++levels] = (uint32_t)end;
        for (size_t k = head; k < end; k++) {
            prefetch_ahead(g, queue, k, end, sigma);
            uint32_t u = queue[k];
            double su = sigma[u];
            /* Every arc into u came from the level above, all done. */
            if (isinf(su))
                return clirr_fail(err, CLIRR_ERR_INPUT,
                                  "betweenness: more than 1.8e308 shortest paths lead from %u to %u, "
                                  "beyond the range of double", src, u);
            /* Ends in locals: stores through the byte array may alias
             * anything, which would reload them every arc. */
            const uint32_t *arc = col + row[u], *arc_end = col + row[u + 1];
            for (; arc < arc_end; arc++) {
                uint32_t v = *arc;
                uint8_t s = state[v];
                if (s == UNSEEN) {
                    state[v] = NEXT;
                    sigma[v] = su;
                    queue[tail++] = v;
                } else if (s == NEXT)
                    sigma[v] += su;
            }
        }
        for (size_t k = end; k < tail; k++)
            state[queue[k]] = SEEN;
        if (tail - end >= SORT_MIN)
            sort_ids(queue + end, tail - end, g->n, wk->tmp, wk->count);
        head = end;
    }
    /* Levels 0 .. levels - 1; the deepest has nothing below it. */
    bounds[levels + 1] = (uint32_t)tail;
    for (uint32_t L = levels; L-- > 0;) {
        size_t lo = bounds[L], hi = bounds[L + 1];
        for (size_t k = lo; k < hi; k++) {
            prefetch_ahead(g, queue, k, hi, sigma);
            uint32_t w = queue[k];
            double sum = 0;
            const uint32_t *arc = col + row[w], *arc_end = col + row[w + 1];
            for (; arc < arc_end; arc++)
                sum += below[*arc];
            if (w != src)
                bc[w] += sigma[w] * sum;
            sigma[w] = 1 / sigma[w] + sum;
        }
        /* Level L is now the level below the next one to sweep. */
        for (size_t k = hi; k < bounds[L + 2]; k++)
            below[queue[k]] = 0;
        for (size_t k = lo; k < hi; k++)
            below[queue[k]] = sigma[queue[k]];
    }
    below[src] = 0;
    /* Reset only what this source reached. */
    for (size_t k = 0; k < tail; k++)
        state[queue[k]] = UNSEEN;
    return CLIRR_OK;
}

int clirr_ref_bc(const clirr_graph *g, const uint32_t *sources, uint32_t nsources, double *bc,
                 clirr_error *err)
{
    uint32_t count = sources ? nsources : g->n;
    for (uint32_t i = 0; sources && i < nsources; i++)
        if (sources[i] >= g->n)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "betweenness source %u (entry %u) out of range (graph has %u vertices)",
                              sources[i], i, g->n);
    for (uint32_t v = 0; v < g->n; v++)
        bc[v] = 0;
    if (g->n == 0 || count == 0)
        return CLIRR_OK;
    size_t n = g->n;
    bc_work wk = {
        .state = calloc(n, sizeof *wk.state),
        .sigma = malloc(n * sizeof *wk.sigma),
        .below = calloc(n, sizeof *wk.below),
        .queue = malloc(n * sizeof *wk.queue),
        .bounds = malloc((n + 2) * sizeof *wk.bounds),
        .tmp = malloc(n * sizeof *wk.tmp),
        .count = malloc(65536 * sizeof *wk.count),
    };
    int rc = CLIRR_OK;
    if (!wk.state || !wk.sigma || !wk.below || !wk.queue || !wk.bounds || !wk.tmp || !wk.count)
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for betweenness on %u vertices", g->n);
    for (uint32_t i = 0; i < count && rc == CLIRR_OK; i++)
        rc = from_source(g, sources ? sources[i] : i, &wk, bc, err);
    free(wk.state);
    free(wk.sigma);
    free(wk.below);
    free(wk.queue);
    free(wk.bounds);
    free(wk.tmp);
    free(wk.count);
    return rc;
}
