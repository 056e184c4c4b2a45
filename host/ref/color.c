/* host/ref/color.c - serial greedy coloring (first-fit), in natural vertex
 * order or largest-degree-first, and the check that a coloring is proper:
 * the references of the coloring study (shared/papers/004, Algorithm 1).
 * Colors are 1, 2, ...; 0 means uncolored. The graph is read as undirected:
 * an arc u->v forbids u and v the same color whichever way it points, and
 * self-loops are ignored. */
#include "ref/ref.h"

#include <stdlib.h>
#include <string.h>

/* First-fit over the colors of v's neighbours in both directions: the
 * forbidden colors are stamped with v's turn in `mark`. */
static uint32_t first_fit(const clirr_graph *g, const clirr_graph *t, uint32_t v, const uint32_t *color,
                          uint32_t *mark, uint32_t stamp)
{
    for (int dir = 0; dir < 2; dir++) {
        const clirr_graph *h = dir ? t : g;
        for (uint32_t e = h->row[v]; e < h->row[v + 1]; e++) {
            uint32_t c = color[h->col[e]];
            if (h->col[e] != v && c)
                mark[c] = stamp;
        }
    }
    uint32_t c = 1;
    while (mark[c] == stamp)
        c++;
    return c;
}

static uint32_t *degree_order(const clirr_graph *g, const clirr_graph *t)
{
    uint32_t *order = malloc(((size_t)g->n + 1) * sizeof *order);
    if (!order)
        return NULL;
    /* Counting sort by total degree, largest first, ties by id. */
    uint32_t maxd = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t d = clirr_graph_degree(g, v) + clirr_graph_degree(t, v);
        maxd = d > maxd ? d : maxd;
    }
    uint32_t *count = calloc((size_t)maxd + 2, sizeof *count);
    if (!count) {
        free(order);
        return NULL;
    }
    for (uint32_t v = 0; v < g->n; v++)
        count[maxd - (clirr_graph_degree(g, v) + clirr_graph_degree(t, v))]++;
    uint32_t sum = 0;
    for (uint32_t d = 0; d <= maxd; d++) {
        uint32_t k = count[d];
        count[d] = sum;
        sum += k;
    }
    for (uint32_t v = 0; v < g->n; v++)
        order[count[maxd - (clirr_graph_degree(g, v) + clirr_graph_degree(t, v))]++] = v;
    free(count);
    return order;
}

int clirr_ref_color(const clirr_graph *g, bool largest_first, uint32_t *color, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_graph t = {0};
    uint32_t *mark = NULL, *order = NULL;
    /* In-arcs count too: the transpose gives them. */
    if ((rc = clirr_graph_transpose(g, &t, err)) != CLIRR_OK)
        return rc;
    /* A vertex has at most deg(v) forbidden colors, so colors stay below
     * max degree + 2. */
    uint32_t maxd = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t d = clirr_graph_degree(g, v) + clirr_graph_degree(&t, v);
        maxd = d > maxd ? d : maxd;
    }
    mark = calloc((size_t)maxd + 3, sizeof *mark);
    if (!mark || (largest_first && !(order = degree_order(g, &t)))) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for greedy coloring");
        goto done;
    }
    memset(color, 0, (size_t)g->n * sizeof *color);
    for (uint32_t k = 0; k < g->n; k++) {
        uint32_t v = order ? order[k] : k;
        color[v] = first_fit(g, &t, v, color, mark, k + 1);
    }
done:
    clirr_graph_free(&t);
    free(mark);
    free(order);
    return rc;
}

/* cl/color.cl's jp_hash(v, 4): the tie-break of synchronous rounds. */
static uint32_t tie_hash(uint32_t v)
{
    uint32_t h = v * 0x9e3779b9u + 5u * 0x85ebca6bu;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

static bool outranks(const clirr_graph *s, bool heuristic, uint32_t u, uint32_t v)
{
    uint32_t du = clirr_graph_degree(s, u), dv = clirr_graph_degree(s, v);
    if (heuristic && du != dv)
        return du > dv;
    uint32_t hu = tie_hash(u), hv = tie_hash(v);
    if (hu != hv)
        return hu > hv;
    return u < v;
}

int clirr_ref_color_sync(const clirr_graph *s, bool heuristic, uint32_t *color, uint32_t *rounds,
                         clirr_error *err)
{
    uint32_t n = s->n, maxd = 0, nund = n, r = 0, stamp = 0;
    for (uint32_t v = 0; v < n; v++)
        maxd = clirr_graph_degree(s, v) > maxd ? clirr_graph_degree(s, v) : maxd;
    uint32_t *tent = malloc(((size_t)n + 1) * sizeof *tent), *mark = calloc((size_t)maxd + 3, sizeof *mark);
    uint32_t *und = malloc(((size_t)n + 1) * sizeof *und);
    bool *wins = malloc(((size_t)n + 1) * sizeof *wins);
    int rc = CLIRR_OK;
    if (!tent || !mark || !und || !wins) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for synchronous coloring");
        goto done;
    }
    memset(color, 0, (size_t)n * sizeof *color);
    for (uint32_t v = 0; v < n; v++)
        und[v] = v;
    while (nund) {
        r++;
        for (uint32_t k = 0; k < nund; k++) {
            uint32_t v = und[k];
            stamp++;
            for (uint32_t e = s->row[v]; e < s->row[v + 1]; e++)
                if (s->col[e] != v && color[s->col[e]])
                    mark[color[s->col[e]]] = stamp;
            uint32_t c = 1;
            while (mark[c] == stamp)
                c++;
            tent[v] = c;
        }
        /* Judged by this round's colors alone: an undecided neighbour (color
         * 0 until the round ends) of higher priority with the same one wins. */
        for (uint32_t k = 0; k < nund; k++) {
            uint32_t v = und[k];
            wins[k] = true;
            for (uint32_t e = s->row[v]; e < s->row[v + 1] && wins[k]; e++) {
                uint32_t u = s->col[e];
                if (u != v && !color[u] && tent[u] == tent[v] && outranks(s, heuristic, u, v))
                    wins[k] = false;
            }
        }
        uint32_t left = 0;
        for (uint32_t k = 0; k < nund; k++) {
            if (wins[k])
                color[und[k]] = tent[und[k]];
            else
                und[left++] = und[k];
        }
        nund = left;
    }
    if (rounds)
        *rounds = r;
done:
    free(tent);
    free(mark);
    free(und);
    free(wins);
    return rc;
}

bool clirr_verify_coloring(const clirr_graph *g, const uint32_t *color, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    uint64_t bad = 0;
    for (uint32_t u = 0; u < g->n; u++) {
        if (color[u] == 0 && bad++ < 5)
            clirr_verify_note(r, "vertex %u is uncolored. ", u);
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t v = g->col[e];
            if (v != u && color[u] == color[v] && color[u] && bad++ < 5)
                clirr_verify_note(r, "arc %u -> %u joins two vertices of color %u. ", u, v, color[u]);
        }
    }
    return clirr_verify_done(r, bad);
}
