/* host/bodies/bodies_internal.h - what the files of host/bodies/ share:
 * the array-limit check every body set passes before its memory is taken.
 * Nothing here is public. */
#ifndef CLIRR_BODIES_INTERNAL_H
#define CLIRR_BODIES_INTERNAL_H

#include "clirr/bodies.h"

/* Refuse n bodies whose arrays exceed clirr's limits (CLIRR_BODIES_MAX,
 * clirr_array_limits: the host keeps 7 doubles a body, a device's largest
 * array is the tree's 8 child slots per cell, about 2 cells a body). `what`
 * names the input in the message. */
int clirr_bodies_fits(uint64_t n, const char *what, clirr_error *err);

/* The most bodies the limits allow (for a reader's growth). */
uint64_t clirr_bodies_max_fit(void);

#endif
