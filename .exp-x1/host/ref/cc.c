/* host/ref/cc.c - connected components on the CPU (the oracle of cc and
 * its serial baseline): one union-find pass over the arcs, and the
 * verifier of component labels. */
#include "ref/cc.h"

#include "ref/ref.h"
#include "ref/union_find.h"

#include <stdlib.h>
#include <string.h>

#define SHOW 5

int clirr_ref_cc(const clirr_graph *g, uint32_t *label, clirr_error *err)
{
    (void)err;
    uf_init(label, g->n);
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++)
            uf_union(label, u, g->col[k]);
    for (uint32_t v = 0; v < g->n; v++)
        label[v] = uf_find(label, v);
    return CLIRR_OK;
}

bool clirr_verify_cc(const clirr_graph *g, const uint32_t *expected, const uint32_t *got,
                     clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    uint64_t bad = 0, shown = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t l = got[v];
        if (l > v || got[l] != l) {
            if (bad++ < SHOW)
                clirr_verify_note(r, "vertex %u has label %u, which is not the smallest vertex of a "
                                     "component. ", v, l);
            continue;
        }
    }
    for (uint32_t u = 0; u < g->n; u++)
        for (uint32_t k = g->row[u]; k < g->row[u + 1]; k++)
            if (got[u] != got[g->col[k]] && bad++ < SHOW)
                clirr_verify_note(r, "arc %u -> %u joins labels %u and %u. ", u, g->col[k], got[u],
                                  got[g->col[k]]);
    for (uint32_t v = 0; v < g->n; v++) {
        if (got[v] == expected[v])
            continue;
        if (r->mismatches++ == 0)
            clirr_verify_note(r, "labels differ from the reference at");
        if (shown++ < SHOW)
            clirr_verify_note(r, " (%u, expected %u, got %u)", v, expected[v], got[v]);
    }
    if (r->mismatches)
        clirr_verify_note(r, "; %llu of %u wrong. ", (unsigned long long)r->mismatches, g->n);
    return clirr_verify_done(r, bad);
}
