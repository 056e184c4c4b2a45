/* clirr/clock.h - the clock every wall-clock time of clirr comes from. */
#ifndef CLIRR_CLOCK_H
#define CLIRR_CLOCK_H

#include <stdint.h>

#include "clirr/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic wall clock in nanoseconds. */
CLIRR_API uint64_t clirr_now_ns(void);

#ifdef __cplusplus
}
#endif
#endif
