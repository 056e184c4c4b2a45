/* clirr/trace.h - per-round traces of a data-driven or topology-driven
 * run (--trace FILE; the data-driven vs topology-driven study's per-round
 * figures, shared/papers/000 Figures 7 and 10): one row a round. */
#ifndef CLIRR_TRACE_H
#define CLIRR_TRACE_H

#include "clirr/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One round of a traced trial. */
typedef struct clirr_trace_round {
    const char *kind;     /* "data": a worklist round; "topo": a round over every item */
    uint64_t items_in;    /* data: the worklist's items; topo: the items processed (every item) */
    uint64_t items_out;   /* data: items pushed for the next round; topo: the next
                           * worklist where one is built (hybrids), else 0 */
    uint64_t duplicates;  /* data: input items that repeat an earlier one (only
                           * with --no-dedup); topo: 0 */
    uint64_t arcs;        /* arcs out of the round's active items: the worklist's
                           * (data), the reached or current-level vertices' (topo) */
    const char *push;     /* data: the push mode the round used; topo: "-" */
    uint64_t launches;    /* kernel launches of the round (reruns included) */
    uint64_t kernel_ns;   /* their kernel time */
    uint64_t donated_g0;  /* data with --donate: chunks work-group 0 donated
                           * (the study's Figure 10); else 0 */
} clirr_trace_round;

/* The rounds of the last trial of a case (a session clears it when a
 * trial starts). A traced case runs one round a launch: no local or
 * queued rounds, so that every round has its row. */
typedef struct clirr_trace {
    clirr_trace_round *rounds;
    size_t n, cap;
    uint64_t arcs;        /* the input's arcs, for arcs as a share of all */
} clirr_trace;

/* Append a round; CLIRR_ERR_NOMEM (a status) when it cannot grow. */
CLIRR_API int clirr_trace_add(clirr_trace *t, const clirr_trace_round *r);
CLIRR_API void clirr_trace_clear(clirr_trace *t);
CLIRR_API void clirr_trace_free(clirr_trace *t);

#ifdef __cplusplus
}
#endif
#endif
