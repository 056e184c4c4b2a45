/* host/algo/heights.c - tree heights (shared/papers/001, III.C, Fig. 8):
 * line i of the output is the height of vertex i's subtree (a leaf 1, any
 * other vertex 1 + its largest child's) in the tree rooted at --root. The templates,
 * variants and counters are host/algo/treerec.c's; kernels cl/heights.cl. */
#include "algo/treerec.h"

static int heights_prepare(clirr_ctx *ctx, const clirr_input *in, const clirr_plan *plan, void **s, clirr_error *err)
{
    return clirr_treerec_prepare(CLIRR_TREEREC_HEIGHTS, "heights.cl", "heights", ctx, in, plan, s, err);
}

static int heights_reference(const clirr_input *in, const clirr_plan *plan, void *out, clirr_error *err)
{
    (void)plan;
    return clirr_treerec_reference(CLIRR_TREEREC_HEIGHTS, in, out, err);
}

static bool heights_verify(const clirr_input *in, const clirr_plan *plan, const void *expected, const void *got,
                        clirr_verify_report *r)
{
    (void)plan;
    return clirr_treerec_verify(CLIRR_TREEREC_HEIGHTS, in, expected, got, r);
}

const clirr_algo clirr_algo_heights = {
    .name = "heights",
    .summary = "height of every tree vertex's subtree (--template flat, rec-naive, rec-hier)",
    .study = "shared/papers/001 (II.C, III.C, Fig. 3, 8)",
    .input = CLIRR_INPUT_TREE,
    .variants = clirr_treerec_variants,
    .nvariants = TREEREC_NVARIANTS,
    .default_variant = TREEREC_RECURSIVE,
    .params = clirr_treerec_params,
    .nparams = TREEREC_NPARAMS,
    .value_size = sizeof(uint32_t),
    .prepare = heights_prepare,
    .run = clirr_treerec_run,
    .release = clirr_treerec_release,
    .reference = heights_reference,
    .verify = heights_verify,
    .write_value = clirr_treerec_write,
    .extras = clirr_treerec_extras,
};
