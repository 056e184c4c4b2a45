/* host/graph/generate.c - synthetic graphs: R-MAT (Chakrabarti, Zhan,
 * Faloutsos, SDM 2004; as in Graph500 and GAPBS), uniform random arcs, and
 * 4-neighbour 2D grids; all optionally weighted.
 *
 * Arc i is a pure function of (seed, i), drawn from a counter-based
 * splitmix64 (gen.h), so the CSR is built in two passes over the arcs -
 * count the out-degrees, then place each arc - without storing an arc list:
 * memory is the CSR and, for R-MAT, the permutation. Placing arcs in index
 * order gives the same rows as clirr_graph_from_arcs on the arc list. */
#include "gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Weight of item i, uniform in [wlo, whi]. The modulo's bias is below
 * 2^-32 for ranges up to 2^32, far under anything a benchmark can see. */
static inline int32_t weight_at(const gen_params *p, uint64_t key, uint64_t i)
{
    uint64_t range = (uint64_t)(p->whi - p->wlo) + 1;
    return (int32_t)(p->wlo + (int64_t)(rng_at(key, i) % range));
}

/* ---- R-MAT ---------------------------------------------------------------- */

typedef struct rmat {
    unsigned scale;
    uint64_t key;
    uint64_t ta, tab, tabc;     /* quadrant thresholds on a 32-bit draw */
    const uint32_t *perm;       /* NULL when not permuted */
} rmat;

/* Arcs per block: the block's endpoints are drawn first, then relabelled,
 * so that the (cache-missing) permutation lookups of a block overlap each
 * other instead of waiting behind the arithmetic one by one. */
#define RMAT_BLOCK 512

/* One level: a 32-bit number compared against thresholds fixed once from
 * a, b, c picks quadrant a = (0,0), b = (0,1), c = (1,0) or d = (1,1);
 * integer-only, so the same on every machine, and branch-free. */
#define RMAT_LEVEL(q)                                                          \
    do {                                                                       \
        uint64_t ge_a_ = (q) >= r->ta, ge_ab_ = (q) >= r->tab;                 \
        x = x << 1 | ge_ab_;                                                   \
        y = y << 1 | (ge_a_ - ge_ab_ + ((q) >= r->tabc));                      \
    } while (0)

/* Endpoints of arcs i0 .. i0 + count - 1. Arc i uses draws
 * i * ceil(scale / 2) onwards, two levels per 64-bit draw, the first level
 * deciding the highest bit. */
static void rmat_block(const rmat *r, uint64_t i0, unsigned count, uint32_t *u,
                       uint32_t *v)
{
    unsigned pairs = r->scale / 2, draws = (r->scale + 1) / 2;
    for (unsigned j = 0; j < count; j++) {
        uint64_t x = 0, y = 0, base = (i0 + j) * draws;
        for (unsigned k = 0; k < pairs; k++) {
            uint64_t bits = rng_at(r->key, base + k);
            RMAT_LEVEL(bits & 0xffffffffu);
            RMAT_LEVEL(bits >> 32);
        }
        if (r->scale & 1)
            RMAT_LEVEL(rng_at(r->key, base + pairs) & 0xffffffffu);
        u[j] = (uint32_t)x;
        v[j] = (uint32_t)y;
    }
    if (r->perm)
        for (unsigned j = 0; j < count; j++) {
            u[j] = r->perm[u[j]];
            v[j] = r->perm[v[j]];
        }
}

/* Fisher-Yates over the vertex ids with draws from the permutation stream:
 * ids of an R-MAT graph otherwise tell the degree (low ids are hubs). */
static uint32_t *permutation(uint32_t n, uint64_t seed)
{
    uint32_t *perm = malloc((size_t)n * sizeof *perm);
    if (!perm)
        return NULL;
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    uint64_t key = rng_key(seed, RNG_PERMUTE);
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = (uint32_t)(rng_at(key, i) % ((uint64_t)i + 1));
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    return perm;
}

static uint64_t threshold(double p)
{
    double t = nearbyint(p * 4294967296.0);
    return t <= 0 ? 0 : t >= 4294967296.0 ? (uint64_t)1 << 32 : (uint64_t)t;
}

static int gen_rmat(const gen_params *p, clirr_graph *g, clirr_error *err)
{
    uint32_t n = (uint32_t)((uint64_t)1 << p->scale);
    uint64_t m = p->ef << p->scale;
    rmat r = {.scale = (unsigned)p->scale, .key = rng_key(p->seed, RNG_ARCS),
              .ta = threshold(p->a), .tab = threshold(p->a + p->b),
              .tabc = threshold(p->a + p->b + p->c)};
    uint32_t *perm = NULL;
    if (p->permute && !(perm = permutation(n, p->seed)))
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a permutation of %u vertices", n);
    r.perm = perm;
    int rc = clirr_graph_alloc(g, n, m, p->weighted, err);
    if (rc != CLIRR_OK) {
        free(perm);
        return rc;
    }
    uint32_t *row = g->row, bu[RMAT_BLOCK], bv[RMAT_BLOCK];
    for (uint64_t i0 = 0; i0 < m; i0 += RMAT_BLOCK) {
        unsigned count = m - i0 < RMAT_BLOCK ? (unsigned)(m - i0) : RMAT_BLOCK;
        rmat_block(&r, i0, count, bu, bv);
        for (unsigned j = 0; j < count; j++)
            row[bu[j] + 1]++;
    }
    for (uint32_t x = 0; x < n; x++)
        row[x + 1] += row[x];
    uint64_t wkey = rng_key(p->seed, RNG_WEIGHTS);
    for (uint64_t i0 = 0; i0 < m; i0 += RMAT_BLOCK) {
        unsigned count = m - i0 < RMAT_BLOCK ? (unsigned)(m - i0) : RMAT_BLOCK;
        rmat_block(&r, i0, count, bu, bv);
        for (unsigned j = 0; j < count; j++) {
            uint32_t k = row[bu[j]]++;
            g->col[k] = bv[j];
            if (g->weight)
                g->weight[k] = weight_at(p, wkey, i0 + j);
        }
    }
    memmove(row + 1, row, (size_t)n * sizeof *row);
    row[0] = 0;
    free(perm);
    return CLIRR_OK;
}

/* ---- uniform random ------------------------------------------------------- */

/* deg=LO-HI: vertex v's out-degree is draw v of its own stream, uniform
 * in [LO, HI]; arc k's head is draw k of the arc stream. */
static int gen_random_degrees(const gen_params *p, clirr_graph *g, clirr_error *err)
{
    uint32_t n = (uint32_t)p->n;
    uint64_t dkey = rng_key(p->seed, RNG_DEGREES), key = rng_key(p->seed, RNG_ARCS);
    uint64_t wkey = rng_key(p->seed, RNG_WEIGHTS), span = p->dhi - p->dlo + 1, m = 0;
    for (uint32_t v = 0; v < n; v++)
        m += p->dlo + rng_below(rng_at(dkey, v), (uint32_t)span);
    if (m > CLIRR_GRAPH_MAX_EDGES)
        return clirr_fail(err, CLIRR_ERR_USAGE, "random graph with deg=%llu-%llu: %llu arcs, more than clirr's "
                          "limit of %llu", (unsigned long long)p->dlo, (unsigned long long)p->dhi,
                          (unsigned long long)m, (unsigned long long)CLIRR_GRAPH_MAX_EDGES);
    int rc = clirr_graph_alloc(g, n, m, p->weighted, err);
    if (rc != CLIRR_OK)
        return rc;
    uint64_t k = 0;
    for (uint32_t v = 0; v < n; v++) {
        g->row[v] = (uint32_t)k;
        uint64_t d = p->dlo + rng_below(rng_at(dkey, v), (uint32_t)span);
        for (uint64_t j = 0; j < d; j++, k++) {
            g->col[k] = rng_below(rng_at(key, k), n);
            if (g->weight)
                g->weight[k] = weight_at(p, wkey, k);
        }
    }
    g->row[n] = (uint32_t)k;
    return CLIRR_OK;
}

static int gen_random(const gen_params *p, clirr_graph *g, clirr_error *err)
{
    if (p->by_degree)
        return gen_random_degrees(p, g, err);
    uint32_t n = (uint32_t)p->n;
    uint64_t m = p->m;
    int rc = clirr_graph_alloc(g, n, m, p->weighted, err);
    if (rc != CLIRR_OK)
        return rc;
    uint64_t key = rng_key(p->seed, RNG_ARCS), wkey = rng_key(p->seed, RNG_WEIGHTS);
    uint32_t *row = g->row;
    /* Draw 2i is the tail of arc i, draw 2i + 1 its head. */
    for (uint64_t i = 0; i < m; i++)
        row[rng_at(key, 2 * i) % n + 1]++;
    for (uint32_t x = 0; x < n; x++)
        row[x + 1] += row[x];
    for (uint64_t i = 0; i < m; i++) {
        uint32_t k = row[rng_at(key, 2 * i) % n]++;
        g->col[k] = (uint32_t)(rng_at(key, 2 * i + 1) % n);
        if (g->weight)
            g->weight[k] = weight_at(p, wkey, i);
    }
    memmove(row + 1, row, (size_t)n * sizeof *row);
    row[0] = 0;
    return CLIRR_OK;
}

/* ---- grid ----------------------------------------------------------------- */

/* Vertex (x, y) is y * w + x; its neighbours are listed up, left, right,
 * down, i.e. in increasing id. The two arcs of one grid edge share a weight
 * (drawn for the edge: 2 * lower id, + 1 when vertical), so weighted grids
 * are symmetric, as undirected algorithms (MST, SSSP on roads) expect. */
static int gen_grid(const gen_params *p, clirr_graph *g, clirr_error *err)
{
    uint32_t w = (uint32_t)p->w, h = (uint32_t)p->h;
    uint64_t m = 2 * ((uint64_t)(w - 1) * h + (uint64_t)w * (h - 1));
    int rc = clirr_graph_alloc(g, w * h, m, p->weighted, err);
    if (rc != CLIRR_OK)
        return rc;
    uint64_t wkey = rng_key(p->seed, RNG_WEIGHTS);
    uint32_t k = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t id = y * w + x;
            uint32_t nb[4];
            uint64_t edge[4];
            unsigned d = 0;
            if (y > 0)
                nb[d] = id - w, edge[d++] = 2 * (uint64_t)(id - w) + 1;
            if (x > 0)
                nb[d] = id - 1, edge[d++] = 2 * (uint64_t)(id - 1);
            if (x + 1 < w)
                nb[d] = id + 1, edge[d++] = 2 * (uint64_t)id;
            if (y + 1 < h)
                nb[d] = id + w, edge[d++] = 2 * (uint64_t)id + 1;
            for (unsigned j = 0; j < d; j++, k++) {
                g->col[k] = nb[j];
                if (g->weight)
                    g->weight[k] = weight_at(p, wkey, edge[j]);
            }
            g->row[id + 1] = k;
        }
    return CLIRR_OK;
}

int clirr_graph_generate(const char *spec, clirr_graph *g, clirr_error *err)
{
    memset(g, 0, sizeof *g);
    gen_params p;
    int rc = clirr_gen_parse(spec, &p, err);
    if (rc != CLIRR_OK)
        return rc;
    switch (p.kind) {
    case GEN_RMAT: return gen_rmat(&p, g, err);
    case GEN_RANDOM: return gen_random(&p, g, err);
    case GEN_GRID: return gen_grid(&p, g, err);
    }
    return clirr_fail(err, CLIRR_ERR_USAGE, "generator spec '%s': unknown kind", spec);
}
