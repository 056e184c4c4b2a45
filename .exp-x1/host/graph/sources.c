/* host/graph/sources.c - the roots of single- and multi-source algorithms:
 * a given vertex, seeded random vertices with out-degree > 0 (as GAPBS
 * picks them, so a run does not start on an isolated vertex), the vertices
 * of largest out-degree, or evenly spaced vertices (BC's sample). */
#include "gen.h"
#include "graph_internal.h"

#include <stdlib.h>
#include <string.h>

/* A stream of the seed no generator uses. */
enum { RNG_SOURCES = 7 };

static const char *rule_names[] = {"vertex", "random", "max-degree", "spread"};

const char *clirr_source_rule_name(clirr_source_rule rule)
{
    return (unsigned)rule < sizeof rule_names / sizeof rule_names[0] ? rule_names[rule] : "?";
}

int clirr_source_parse(const char *text, clirr_source_spec *spec)
{
    for (int r = CLIRR_SOURCE_RANDOM; r <= CLIRR_SOURCE_SPREAD; r++)
        if (!strcmp(text, rule_names[r])) {
            spec->rule = (clirr_source_rule)r;
            return 0;
        }
    char *end;
    if (!*text || *text == '-' || *text == '+')
        return -1;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || v >= UINT32_MAX)
        return -1;
    spec->rule = CLIRR_SOURCE_VERTEX;
    spec->vertex = (uint32_t)v;
    return 0;
}

static uint32_t degree(const clirr_graph *g, uint32_t v) { return g->row[v + 1] - g->row[v]; }

/* Up to k distinct random vertices with arcs, in draw order. */
static uint32_t pick_random(const clirr_graph *g, uint64_t seed, uint32_t k, uint32_t *out,
                            clirr_error *err)
{
    uint32_t candidates = 0;
    for (uint32_t v = 0; v < g->n; v++)
        candidates += degree(g, v) > 0;
    if (k > candidates)
        k = candidates;
    bool *taken = calloc(g->n, sizeof *taken);
    if (!taken && g->n) {
        clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory picking sources");
        return 0;
    }
    uint64_t key = rng_key(seed, RNG_SOURCES);
    uint32_t got = 0;
    for (uint64_t i = 0; got < k; i++) {
        uint32_t v = (uint32_t)(rng_at(key, i) % g->n);
        if (!taken[v] && degree(g, v) > 0) {
            taken[v] = true;
            out[got++] = v;
        }
    }
    free(taken);
    return got;
}

/* The k vertices of largest out-degree, largest first (ties by id). */
static uint32_t pick_max_degree(const clirr_graph *g, uint32_t k, uint32_t *out)
{
    if (k > g->n)
        k = g->n;
    uint32_t got = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        /* Insertion into the sorted top k: k is small (roots of a run). */
        uint32_t d = degree(g, v), at = got;
        while (at > 0 && degree(g, out[at - 1]) < d)
            at--;
        if (at >= k)
            continue;
        uint32_t last = got < k ? got : k - 1;
        memmove(out + at + 1, out + at, (size_t)(last - at) * sizeof *out);
        out[at] = v;
        got += got < k;
    }
    return got;
}

uint32_t clirr_sources_pick(const clirr_graph *g, const clirr_source_spec *spec, uint32_t *out,
                            uint32_t max, clirr_error *err)
{
    if (g->n == 0) {
        clirr_fail(err, CLIRR_ERR_USAGE, "the graph has no vertices, so no source vertex");
        return 0;
    }
    uint32_t k = spec->count ? spec->count : 1;
    if (spec->rule == CLIRR_SOURCE_SPREAD && (spec->count == 0 || spec->count > g->n))
        k = g->n;
    if (k > max)
        k = max;
    switch (spec->rule) {
    case CLIRR_SOURCE_VERTEX:
        if (spec->vertex >= g->n) {
            clirr_fail(err, CLIRR_ERR_USAGE,
                       "source vertex %u is out of range: the graph has vertices 0..%u",
                       spec->vertex, g->n - 1);
            return 0;
        }
        out[0] = spec->vertex;
        return 1;
    case CLIRR_SOURCE_RANDOM: {
        uint32_t got = pick_random(g, spec->seed, k, out, err);
        if (got == 0 && err && err->status == CLIRR_OK)
            clirr_fail(err, CLIRR_ERR_USAGE, "--source random: no vertex has an out-arc");
        return got;
    }
    case CLIRR_SOURCE_MAX_DEGREE: return pick_max_degree(g, k, out);
    case CLIRR_SOURCE_SPREAD:
        for (uint32_t i = 0; i < k; i++)
            out[i] = (uint32_t)((uint64_t)i * g->n / k);
        return k;
    }
    clirr_fail(err, CLIRR_ERR_USAGE, "unknown source rule");
    return 0;
}
