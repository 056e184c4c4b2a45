/* host/algo/presort.h - the degree pre-sort of a topology-driven sweep's
 * item order (data-driven vs topology-driven study, shared/papers/000,
 * section II: a fixed work allotment "allows the sorting of nodes (e.g.
 * by out degrees) in a pre-processing step, which can reduce thread
 * divergence"). Work-item k of a sweep takes vertex order[k] instead of
 * vertex k, so neighbouring work-items get vertices of like degree; the
 * graph, its ids and the results stay as they are (unlike --reorder). */
#ifndef CLIRR_ALGO_PRESORT_H
#define CLIRR_ALGO_PRESORT_H

#include "clirr/graph.h"
#include "runtime/runtime.h"

/* The parameter's words, in the order of clirr_presort. */
typedef enum clirr_presort { CLIRR_PRESORT_NONE, CLIRR_PRESORT_DEGREE } clirr_presort;
extern const char *const clirr_presort_names[];
#define CLIRR_PRESORT_HELP                                                       \
    "topo: the sweep's vertex order: none (by id) or degree (decreasing out-degree, ties by id: a "         \
    "pre-processing step; work-items next to each other get vertices of like degree)"

/* The sweep's order on the device: for DEGREE a buffer of n vertex ids in
 * decreasing out-degree (*order, the caller releases it) and *on = 1;
 * for NONE *order = NULL and *on = 0. */
int clirr_presort_upload(clirr_ctx *ctx, const clirr_graph *g, clirr_presort how, cl_mem *order, cl_uint *on,
                         clirr_error *err);

#endif
