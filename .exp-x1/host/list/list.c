/* host/list/list.c - the list itself: its structure check (ids in range,
 * one predecessor each, no cycle), the array limits, its hash, freeing. */
#include "list/list_internal.h"

#include "clirr/graph.h" /* clirr_array_limits */

#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

int clirr_list_fits(uint64_t n, const char *what, clirr_error *err)
{
    uint64_t device, host;
    clirr_array_limits(&device, &host);
    if (n > CLIRR_LIST_MAX_ELEMENTS)
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s has more than %llu elements, clirr's limit", what,
                          (unsigned long long)CLIRR_LIST_MAX_ELEMENTS);
    if (device && n * 8 > device)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%s (%llu elements) needs a buffer of %.2f GiB for list ranking's packed "
                          "words; the devices chosen take at most %.2f GiB per buffer "
                          "(CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                          what, (unsigned long long)n, n * 8 / 1073741824.0, device / 1073741824.0);
    if (host && n * 4 > host)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s (%llu elements) needs an array of %.2f GiB; a run here allows %.2f GiB "
                          "per array (an eighth of this machine's memory)",
                          what, (unsigned long long)n, n * 4 / 1073741824.0, host / 1073741824.0);
    return CLIRR_OK;
}

uint64_t clirr_list_max_fit(void)
{
    uint64_t device, host, most = CLIRR_LIST_MAX_ELEMENTS;
    clirr_array_limits(&device, &host);
    if (device && device / 8 < most)
        most = device / 8;
    if (host && host / 4 < most)
        most = host / 4;
    return most;
}

/* Predecessors first (a second one is a problem at once), then a walk from
 * every head: what no walk reaches lies on a cycle, since every element has
 * at most one predecessor. */
void clirr_list_examine(const uint32_t *succ, uint32_t n, list_finding *f)
{
    memset(f, 0, sizeof *f);
    uint32_t *pred = malloc((size_t)n * sizeof *pred);
    if (!pred) {
        f->problem = LIST_NOMEM;
        return;
    }
    memset(pred, 0xff, (size_t)n * sizeof *pred);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t s = succ[i];
        if (s == CLIRR_LIST_END)
            continue;
        if (s >= n) {
            *f = (list_finding){LIST_RANGE, i, s, 0, 0};
            goto done;
        }
        if (pred[s] != CLIRR_LIST_END) {
            *f = (list_finding){LIST_TWO_PREDS, i, s, pred[s], 0};
            goto done;
        }
        pred[s] = i;
    }
    /* pred is reused as the visited mark (no id reaches UINT32_MAX - 1). */
    const uint32_t visited = CLIRR_LIST_END - 1;
    uint64_t seen = 0;
    for (uint32_t h = 0; h < n; h++) {
        if (pred[h] != CLIRR_LIST_END)
            continue;
        f->heads++;
        for (uint32_t e = h; e != CLIRR_LIST_END; e = succ[e]) {
            pred[e] = visited;
            seen++;
        }
    }
    if (seen < n) {
        uint32_t a = 0;
        while (pred[a] == visited)
            a++;
        *f = (list_finding){LIST_CYCLE, a, 0, 0, 0};
    }
done:
    free(pred);
}

int clirr_list_check(clirr_list *l, clirr_error *err)
{
    if (l->n == 0)
        return clirr_fail(err, CLIRR_ERR_INPUT, "the list has no elements");
    list_finding f;
    clirr_list_examine(l->succ, l->n, &f);
    switch (f.problem) {
    case LIST_OK: l->lists = f.heads; return CLIRR_OK;
    case LIST_RANGE:
        return clirr_fail(err, CLIRR_ERR_INPUT, "element %u: successor %u is out of range (%u elements)",
                          f.a, f.b, l->n);
    case LIST_TWO_PREDS:
        return clirr_fail(err, CLIRR_ERR_INPUT, "element %u has two predecessors, %u and %u", f.b, f.c,
                          f.a);
    case LIST_CYCLE:
        return clirr_fail(err, CLIRR_ERR_INPUT, "element %u lies on a cycle", f.a);
    case LIST_NOMEM: break;
    }
    return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory checking a list of %u elements", l->n);
}

uint64_t clirr_list_hash(const clirr_list *l)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, &l->n, sizeof l->n);
    XXH3_64bits_update(&st, l->succ, (size_t)l->n * sizeof *l->succ);
    return XXH3_64bits_digest(&st);
}

void clirr_list_free(clirr_list *l)
{
    if (!l)
        return;
    free(l->succ);
    memset(l, 0, sizeof *l);
}
