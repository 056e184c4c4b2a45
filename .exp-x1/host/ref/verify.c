/* host/ref/verify.c - checking device results: equality with the reference
 * plus the properties a correct answer must have (after GAPBS's verifiers),
 * so a wrong reference cannot hide a wrong result. The report names the
 * first few differences as (vertex, expected, got). */
#include "ref/ref.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOW 5

void clirr_verify_note(clirr_verify_report *r, const char *fmt, ...)
{
    size_t len = strlen(r->text);
    if (len + 1 >= sizeof r->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->text + len, sizeof r->text - len, fmt, ap);
    va_end(ap);
}

bool clirr_verify_done(clirr_verify_report *r, uint64_t violations)
{
    if (violations)
        clirr_verify_note(r, "%" PRIu64 " property violation%s.", violations, violations == 1 ? "" : "s");
    return r->mismatches == 0 && violations == 0;
}

/* Compare two int64-convertible arrays through a getter. */
typedef int64_t (*get_fn)(const void *a, uint32_t i);
static int64_t get_i32(const void *a, uint32_t i) { return ((const int32_t *)a)[i]; }
static int64_t get_u32(const void *a, uint32_t i) { return ((const uint32_t *)a)[i]; }

static void compare(uint32_t n, const void *expected, const void *got, get_fn get,
                    const char *what, clirr_verify_report *r)
{
    uint64_t shown = 0;
    for (uint32_t v = 0; v < n; v++) {
        int64_t e = get(expected, v), g = get(got, v);
        if (e == g)
            continue;
        if (r->mismatches++ == 0)
            clirr_verify_note(r, "%s differ from the reference at", what);
        if (shown++ < SHOW)
            clirr_verify_note(r, " (%u, expected %" PRId64 ", got %" PRId64 ")", v, e, g);
    }
    if (r->mismatches)
        clirr_verify_note(r, "; %" PRIu64 " of %u wrong. ", r->mismatches, n);
}

bool clirr_verify_bfs(const clirr_graph *g, uint32_t source, const int32_t *expected,
                      const int32_t *got, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    compare(g->n, expected, got, get_i32, "levels", r);
    uint64_t bad = 0;
    if (source < g->n && got[source] != 0 && bad++ == 0)
        clirr_verify_note(r, "source %u has level %d, not 0. ", source, got[source]);
    bool *parent = calloc(g->n ? g->n : 1, sizeof *parent);
    for (uint32_t u = 0; u < g->n; u++) {
        if (got[u] < -1 && bad++ < SHOW)
            clirr_verify_note(r, "vertex %u has impossible level %d. ", u, got[u]);
        if (got[u] < 0)
            continue;
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t v = g->col[e];
            if ((got[v] < 0 || got[v] > got[u] + 1) && bad++ < SHOW)
                clirr_verify_note(r, "arc %u -> %u goes from level %d to %d. ", u, v, got[u], got[v]);
            if (parent && got[v] == got[u] + 1)
                parent[v] = true;
        }
    }
    for (uint32_t v = 0; parent && v < g->n; v++)
        if (got[v] > 0 && !parent[v] && bad++ < SHOW)
            clirr_verify_note(r, "vertex %u at level %d has no parent one level up. ", v, got[v]);
    free(parent);
    return clirr_verify_done(r, bad);
}

bool clirr_verify_sssp(const clirr_graph *g, uint32_t source, const uint32_t *expected,
                       const uint32_t *got, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    compare(g->n, expected, got, get_u32, "distances", r);
    uint64_t bad = 0;
    if (source < g->n && got[source] != 0 && bad++ == 0)
        clirr_verify_note(r, "source %u has distance %u, not 0. ", source, got[source]);
    bool *tight = calloc(g->n ? g->n : 1, sizeof *tight);
    for (uint32_t u = 0; u < g->n; u++) {
        if (got[u] == UINT32_MAX)
            continue;
        for (uint32_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t v = g->col[e];
            uint64_t through = (uint64_t)got[u] + (uint64_t)(g->weight ? g->weight[e] : 1);
            if ((uint64_t)got[v] > through && bad++ < SHOW)
                clirr_verify_note(r, "arc %u -> %u can still relax (%u + %" PRIu64 " < %u). ", u, v, got[u],
                     through - got[u], got[v]);
            if (tight && (uint64_t)got[v] == through)
                tight[v] = true;
        }
    }
    for (uint32_t v = 0; tight && v < g->n; v++)
        if (v != source && got[v] != UINT32_MAX && !tight[v] && bad++ < SHOW)
            clirr_verify_note(r, "vertex %u at distance %u has no tight incoming arc. ", v, got[v]);
    free(tight);
    return clirr_verify_done(r, bad);
}
