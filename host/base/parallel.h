/* host/base/parallel.h - independent parts of one job on host threads. */
#ifndef CLIRR_BASE_PARALLEL_H
#define CLIRR_BASE_PARALLEL_H

#include <stddef.h>

/* The most parts clirr_run_parts runs at once. */
#define CLIRR_MAX_PARTS 64

/* Run fn on each of the n parts (parts[i] at byte i * part_size, n at most
 * CLIRR_MAX_PARTS) and return when all are done: the first n - 1 on threads
 * of their own, the last on the caller's, and on the caller's too any part
 * whose thread cannot start. */
void clirr_run_parts(unsigned n, void (*fn)(void *part), void *parts, size_t part_size);

/* The host's online cores, at most CLIRR_MAX_PARTS (at least 1). */
unsigned clirr_host_threads(void);

#endif
