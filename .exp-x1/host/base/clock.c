/* host/base/clock.c - the monotonic clock of every wall-clock time. */
#include "clirr/clock.h"

#include <time.h>

uint64_t clirr_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
