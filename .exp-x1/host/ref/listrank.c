/* host/ref/listrank.c - serial list ranking and its verifier. The walk
 * goes backwards from every tail, so each element is touched once after
 * one pass that finds the predecessors. */
#include "ref/listrank.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define END CLIRR_LIST_END

int clirr_ref_listrank(uint32_t n, const uint32_t *succ, const uint32_t *weight, uint32_t *rank,
                       clirr_error *err)
{
    uint32_t *pred = malloc(((size_t)n + 1) * sizeof *pred);
    if (!pred)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the serial list ranking");
    memset(pred, 0xff, ((size_t)n + 1) * sizeof *pred);
    for (uint32_t i = 0; i < n; i++)
        if (succ[i] != END)
            pred[succ[i]] = i;
    uint64_t ranked = 0;
    for (uint32_t t = 0; t < n; t++) {
        if (succ[t] != END)
            continue;
        uint32_t r = weight ? weight[t] : 0;
        rank[t] = r;
        ranked++;
        for (uint32_t e = pred[t]; e != END; e = pred[e]) {
            r += weight ? weight[e] : 1;
            rank[e] = r;
            ranked++;
        }
    }
    free(pred);
    if (ranked != n)
        return clirr_fail(err, CLIRR_ERR_INPUT, "the successors do not form lists (%" PRIu64
                          " of %u elements reach a tail)", ranked, n);
    return CLIRR_OK;
}

bool clirr_verify_listrank(const clirr_list *l, const uint32_t *expected, const uint32_t *got,
                           clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    uint64_t bad = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        uint32_t s = l->succ[i];
        uint64_t want = s == END ? 0 : (uint64_t)got[s] + 1;
        if (got[i] != want && bad++ < 3)
            clirr_verify_note(r, "rank[%u] = %u but %s. ", i, got[i],
                              s == END ? "it is a tail (rank 0)" : "its successor's rank + 1 differs");
    }
    uint64_t shown = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        if (got[i] == expected[i])
            continue;
        if (r->mismatches++ == 0)
            clirr_verify_note(r, "ranks differ from the reference at");
        if (shown++ < 5)
            clirr_verify_note(r, " (%u, expected %u, got %u)", i, expected[i], got[i]);
    }
    if (r->mismatches)
        clirr_verify_note(r, "; %" PRIu64 " of %u wrong. ", r->mismatches, l->n);
    return clirr_verify_done(r, bad);
}
