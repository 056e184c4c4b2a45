/* host/ref/bfs_rec.h - the recursion study's serial recursive BFS
 * (shared/papers/001, III.C: "due to stack serialization, ... depth-first
 * (rather than breadth-first)"), the CPU baseline of its Fig. 9 beside the
 * queue BFS of ref.h. */
#ifndef CLIRR_REF_BFS_REC_H
#define CLIRR_REF_BFS_REC_H

#include "ref/ref.h"

/* Unordered recursive BFS from source: visiting v lowers each neighbour to
 * level[v] + 1 and visits the ones it lowered, depth first; a vertex is
 * visited again whenever its level drops. The recursion is an explicit
 * stack (no C stack depth limit). Levels -1 = unreached; the visits made
 * go to *visits (may be NULL). */
int clirr_ref_bfs_recursive(const clirr_graph *g, uint32_t source, int32_t *level, uint64_t *visits,
                            clirr_error *err);

#endif
