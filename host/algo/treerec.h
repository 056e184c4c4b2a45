/* host/algo/treerec.h - the recursion study's templates (shared/papers/001,
 * section II.C, Fig. 3) on a post-order tree computation, shared by tree
 * descendants (descendants.c) and tree heights (heights.c): their
 * variants, parameters and every descriptor step. The kernels come from
 * cl/templates/tree_rec.clh through the algorithm's own .cl file. */
#ifndef CLIRR_ALGO_TREEREC_H
#define CLIRR_ALGO_TREEREC_H

#include "clirr/algo.h"
#include "ref/treerec.h"

/* Variants, in descriptor order: the recursion on the device (its
 * template: flat, rec-naive, rec-hier) and the two serial CPU versions. */
enum { TREEREC_RECURSIVE, TREEREC_SERIAL_REC, TREEREC_SERIAL_ITER, TREEREC_NVARIANTS };
/* Parameters, in descriptor order. */
enum { TREEREC_P_STREAMS, TREEREC_P_COUNT, TREEREC_P_NEST_LIMIT, TREEREC_NPARAMS };

extern const clirr_variant_desc clirr_treerec_variants[TREEREC_NVARIANTS];
extern const clirr_param_desc clirr_treerec_params[TREEREC_NPARAMS];

/* The descriptor's steps for op; the algorithm's file wraps them. */
int clirr_treerec_prepare(clirr_treerec_op op, const char *cl_file, const char *prefix, clirr_ctx *ctx,
                          const clirr_input *in, const clirr_plan *plan, void **session, clirr_error *err);
int clirr_treerec_run(void *session, void *result, clirr_stats *stats, clirr_error *err);
void clirr_treerec_release(void *session);
int clirr_treerec_reference(clirr_treerec_op op, const clirr_input *in, void *out, clirr_error *err);
bool clirr_treerec_verify(clirr_treerec_op op, const clirr_input *in, const void *expected, const void *got,
                          clirr_verify_report *report);
void clirr_treerec_write(FILE *f, const void *result, uint64_t i);
void clirr_treerec_extras(void *session, const void *result, clirr_extras *x);

#endif
