/* clirr/list.h - linked lists as successor arrays: reading, writing,
 * generating (the inputs of list ranking, shared/papers/003).
 *
 * Elements are 0-based 32-bit ids; succ[i] is the element after i, or
 * CLIRR_LIST_END when i is a tail. A list input may hold several lists
 * (several heads and tails); every element has at most one predecessor and
 * no list is a cycle, which the readers and generators guarantee. Nothing
 * here touches OpenCL.
 *
 * File format (.list, optionally .gz): one successor per line, line k (not
 * counting comments) for element k; -1 marks a tail; blank lines and lines
 * starting with '#' or '%' are skipped. */
#ifndef CLIRR_LIST_H
#define CLIRR_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clirr/export.h"
#include "clirr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The successor of a tail. */
#define CLIRR_LIST_END UINT32_MAX
/* Largest element count: ids and ranks are 32-bit on the device, and
 * UINT32_MAX is the tail mark. */
#define CLIRR_LIST_MAX_ELEMENTS ((uint64_t)UINT32_MAX - 1)

typedef struct clirr_list {
    uint32_t n;       /* elements, at least 1 */
    uint32_t *succ;   /* n successors */
    uint32_t lists;   /* heads (= tails): how many lists the input holds */
} clirr_list;

/* Read a .list file (plain or gzipped). CLIRR_ERR_INPUT with "FILE:LINE:
 * reason" for: a line that is not -1 or an element id, a successor out of
 * range, an element with two predecessors (both named), a cycle (an
 * element on it named), no elements; CLIRR_ERR_TOO_LARGE / CLIRR_ERR_INPUT
 * when the list would exceed the array limits (clirr_array_limits) - said
 * before the memory is taken. *l is zeroed on failure. */
CLIRR_API int clirr_list_read(const char *path, clirr_list *l, clirr_error *err);

/* Write l as a .list file (gzipped when path ends in .gz), whole or not at
 * all. CLIRR_ERR_IO on failure. */
CLIRR_API int clirr_list_write(const char *path, const clirr_list *l, clirr_error *err);

/* Generate a list from "list:n=N,order=O[,lists=L][,interval=K][,seed=S]":
 *   order=sequential        succ[i] = i + 1 (the study's "ordered list")
 *   order=reverse           succ[i] = i - 1
 *   order=random            a uniformly random order (the study's "random")
 *   order=random-balanced   random order, but the ids that are multiples of
 *                           K (list ranking's splitters, rhj) sit every K
 *                           positions along the list: scattered in memory,
 *                           equal sublists
 *   order=ordered-unbalanced  the other ids in increasing order along the
 *                           list (walks go forward through memory), the
 *                           multiples of K at random positions: uneven
 *                           sublists
 * lists=L cuts the order into L lists of near-equal length (default 1);
 * interval=K defaults to ceil(log2 N), the interval of rhj's n/log n rule;
 * seed defaults to 1. The same spec gives the same list on every machine.
 * CLIRR_ERR_USAGE for a malformed or impossible spec; the limits as for
 * reading. */
CLIRR_API int clirr_list_generate(const char *spec, clirr_list *l, clirr_error *err);

/* True when spec names a list generator ("list:..."). */
CLIRR_API bool clirr_list_spec(const char *spec);

/* Check l's structure (ids in range, one predecessor each, no cycle) and
 * set l->lists. CLIRR_ERR_INPUT naming the first problem (without a file
 * position: readers add it). */
CLIRR_API int clirr_list_check(clirr_list *l, clirr_error *err);

/* 64-bit hash of n and the successors (for determinism checks). */
CLIRR_API uint64_t clirr_list_hash(const clirr_list *l);

/* Free the arrays of l and zero it. */
CLIRR_API void clirr_list_free(clirr_list *l);

#ifdef __cplusplus
}
#endif
#endif
