/* host/algo/sp.h - what the tests reach of sp's device side beyond the
 * descriptor: one convergence of the surveys on a device from the initial
 * surveys, every variable free, to compare with the serial engine's
 * (host/ref/sp.h) survey by survey. */
#ifndef CLIRR_ALGO_SP_H
#define CLIRR_ALGO_SP_H

#include "clirr/algo.h"
#include "ref/sp.h"

/* Prepare plan's variant on ctx for formula input in, converge once from
 * the initial surveys (plan's eps, max-iter and seed) and copy the
 * surveys (one per literal) into eta. */
int clirr_sp_device_converge_once(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, float *eta,
                                  sp_sweeps *sw, clirr_error *err);

#endif
