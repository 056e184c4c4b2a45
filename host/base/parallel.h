/* host/base/parallel.h - independent parts of one job on host threads. */
#ifndef CLIRR_BASE_PARALLEL_H
#define CLIRR_BASE_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

/* The most parts clirr_run_parts runs at once. */
#define CLIRR_MAX_PARTS 64

/* Run fn on each of the n parts (parts[i] at byte i * part_size, n at most
 * CLIRR_MAX_PARTS) and return when all are done: the first n - 1 on threads
 * of their own, the last on the caller's, and on the caller's too any part
 * whose thread cannot start. */
void clirr_run_parts(unsigned n, void (*fn)(void *part), void *parts, size_t part_size);

/* Part i of `parts` near-equal consecutive shares of 0..n-1: [lo, hi). */
static inline void clirr_part_bounds(uint64_t n, unsigned parts, unsigned i, uint32_t *lo, uint32_t *hi)
{
    *lo = (uint32_t)(n * i / parts);
    *hi = (uint32_t)(n * (i + 1) / parts);
}

/* memcpy of n bytes in `threads` parts at once (at most CLIRR_MAX_PARTS). */
void clirr_parallel_copy(unsigned threads, void *dst, const void *src, size_t n);

/* Threads for a large host copy: half the online cores (CLIRR_HOST_THREADS
 * overrides them), at most 8, at least 1 (the staged uploads' rule, from
 * the H100 machine; a 2-core machine copies on one). */
unsigned clirr_copy_threads(void);

/* How many parts a host job of `work` units should run in: 1 below
 * `min_work`, else the online cores (the environment variable `env`, when
 * given and set, overrides them), at most CLIRR_MAX_PARTS. */
unsigned clirr_host_threads(size_t work, size_t min_work, const char *env);

#endif
