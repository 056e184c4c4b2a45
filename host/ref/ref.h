/* host/ref/ref.h - serial CPU references (the oracle for verification and
 * the baseline for speedups) and the verifiers that compare device results
 * with them. Nothing here touches OpenCL. */
#ifndef CLIRR_REF_H
#define CLIRR_REF_H

#include "clirr/graph.h"

#include <stddef.h>
#include <stdint.h>

/* BFS levels from source with a FIFO queue; -1 = unreached. */
int clirr_ref_bfs(const clirr_graph *g, uint32_t source, int32_t *level, clirr_error *err);

/* Dijkstra with a binary heap; UINT32_MAX = unreached. Unweighted graphs
 * use unit weights. Negative weights give CLIRR_ERR_INPUT. */
int clirr_ref_sssp(const clirr_graph *g, uint32_t source, uint32_t *dist, clirr_error *err);

/* What a verifier found: the number of wrong entries and a description of
 * the first few "(vertex, expected, got)" plus any violated property. */
typedef struct clirr_verify_report {
    uint64_t mismatches;
    char text[1024];
} clirr_verify_report;

/* Check device BFS levels: equal to the reference, and (GAPBS-style) every
 * arc u->v with u reached has level[v] <= level[u] + 1, every reached vertex
 * but the source has a parent one level up. Returns true when all hold. */
bool clirr_verify_bfs(const clirr_graph *g, uint32_t source, const int32_t *expected,
                      const int32_t *got, clirr_verify_report *report);

/* Check device SSSP distances: equal to the reference, no arc can relax,
 * and every reached vertex but the source has a tight incoming arc. */
bool clirr_verify_sssp(const clirr_graph *g, uint32_t source, const uint32_t *expected,
                       const uint32_t *got, clirr_verify_report *report);

#endif
