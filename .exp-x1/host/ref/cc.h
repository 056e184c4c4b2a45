/* host/ref/cc.h - connected components on the CPU: a serial union-find
 * labelling, and the verifier. The graph is read as undirected (an arc in
 * either direction joins its ends). Nothing here touches OpenCL. */
#ifndef CLIRR_REF_CC_H
#define CLIRR_REF_CC_H

#include "clirr/algo.h"
#include "clirr/graph.h"

#include <stdbool.h>
#include <stdint.h>

/* Serial connected components (a union-find over every arc, the larger
 * root linked under the smaller): label[v] = the smallest vertex of v's
 * component. */
int clirr_ref_cc(const clirr_graph *g, uint32_t *label, clirr_error *err);

/* Check component labels: each label is the smallest vertex of its
 * component (label[v] <= v, label[label[v]] == label[v]), both ends of
 * every arc share a label; equal to the reference. */
bool clirr_verify_cc(const clirr_graph *g, const uint32_t *expected, const uint32_t *got,
                     clirr_verify_report *report);

#endif
