/* host/bodies/bodies.c - a body set itself: its array limits, hash and
 * freeing. */
#include "bodies/bodies_internal.h"

#include "clirr/graph.h" /* clirr_array_limits */

#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

/* Bytes of the largest host array (the 7 reals) and device array (8
 * child slots of 4 bytes for each of about 2 cells) per body. */
enum { HOST_BYTES = 7 * 8, DEVICE_BYTES = 2 * 8 * 4 };

int clirr_bodies_fits(uint64_t n, const char *what, clirr_error *err)
{
    uint64_t device, host;
    clirr_array_limits(&device, &host);
    if (n > CLIRR_BODIES_MAX)
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s has more than %llu bodies, clirr's limit (the tree's "
                          "nodes are numbered in 32 bits)", what, (unsigned long long)CLIRR_BODIES_MAX);
    if (device && n * DEVICE_BYTES > device)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%s (%llu bodies) needs a tree array of about %.2f GiB; the devices chosen "
                          "take at most %.2f GiB per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                          what, (unsigned long long)n, n * DEVICE_BYTES / 1073741824.0,
                          device / 1073741824.0);
    if (host && n * HOST_BYTES > host)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s (%llu bodies) needs an array of %.2f GiB; a run here allows %.2f GiB "
                          "per array (an eighth of this machine's memory)",
                          what, (unsigned long long)n, n * HOST_BYTES / 1073741824.0, host / 1073741824.0);
    return CLIRR_OK;
}

uint64_t clirr_bodies_max_fit(void)
{
    uint64_t device, host, most = CLIRR_BODIES_MAX;
    clirr_array_limits(&device, &host);
    if (device && device / DEVICE_BYTES < most)
        most = device / DEVICE_BYTES;
    if (host && host / HOST_BYTES < most)
        most = host / HOST_BYTES;
    return most;
}

uint64_t clirr_bodies_hash(const clirr_bodies *b)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, &b->n, sizeof b->n);
    XXH3_64bits_update(&st, b->v, (size_t)b->n * CLIRR_BODY_REALS * sizeof *b->v);
    return XXH3_64bits_digest(&st);
}

void clirr_bodies_free(clirr_bodies *b)
{
    free(b->v);
    memset(b, 0, sizeof *b);
}
