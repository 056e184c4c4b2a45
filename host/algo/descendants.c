/* host/algo/descendants.c - tree descendants (shared/papers/001, Fig. 3):
 * line i of the output is the number of descendants of vertex i (its
 * subtree size minus one) in the tree rooted at --root. The templates,
 * variants and counters are host/algo/treerec.c's; kernels cl/descendants.cl. */
#include "algo/treerec.h"

static int desc_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **s, clirr_error *err)
{
    return clirr_treerec_prepare(CLIRR_TREEREC_DESCENDANTS, "descendants.cl", "desc", ctx, in, plan, s, err);
}

static int desc_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    (void)plan;
    return clirr_treerec_reference(CLIRR_TREEREC_DESCENDANTS, in, out, err);
}

static bool desc_verify(const clirr_input *in, const clirr_plan *plan, const void *expected, const void *got,
                        clirr_verify_report *r)
{
    (void)plan;
    return clirr_treerec_verify(CLIRR_TREEREC_DESCENDANTS, in, expected, got, r);
}

const clirr_algo clirr_algo_descendants = {
    .name = "descendants",
    .summary = "descendants of every tree vertex (--template flat, rec-naive, rec-hier)",
    .study = "shared/papers/001 (II.C, III.C, Fig. 3, 7)",
    .input = CLIRR_INPUT_TREE,
    .variants = clirr_treerec_variants,
    .nvariants = TREEREC_NVARIANTS,
    .default_variant = TREEREC_RECURSIVE,
    .params = clirr_treerec_params,
    .nparams = TREEREC_NPARAMS,
    .value_size = sizeof(uint32_t),
    .prepare = desc_prepare,
    .run = clirr_treerec_run,
    .release = clirr_treerec_release,
    .reference = desc_reference,
    .verify = desc_verify,
    .write_value = clirr_treerec_write,
    .extras = clirr_treerec_extras,
};
