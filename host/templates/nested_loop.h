/* host/templates/nested_loop.h - the host side of the nested-loop
 * templates (kernels: cl/templates/nested_loop.clh, cl/nested/): which
 * kernels a template launches, with what sizes and buffers, in what order.
 *
 * Use: build the algorithm's program (it includes the skeleton), then
 *     clirr_nl_init(&nl, ctx, prog, "sssp_relax", nparams, max_items, &cfg, err);
 *     clirr_nl_arg(&nl, 0, ...) ... for the algorithm's own parameters;
 *     clirr_nl_run(&nl, nitems, err);   as often as needed;
 *     clirr_nl_release(&nl);
 * The algorithm's parameters are arguments 0..nparams-1 of every kernel;
 * the template's own follow, as listed in cl/templates/nested_loop.def.
 * clirr_nl_init checks that every kernel takes exactly nparams plus its
 * list's count, and creates everything a run launches (the template's
 * kernels, the primitives it uses), so no run builds anything. */
#ifndef CLIRR_TEMPLATES_NESTED_LOOP_H
#define CLIRR_TEMPLATES_NESTED_LOOP_H

#include "clirr/templates.h"
#include "runtime/runtime.h"

typedef struct clirr_nl_config {
    clirr_template tmpl;
    uint32_t thres;     /* lb_THRES: items with more inner iterations are large */
    size_t wg;          /* thread-mapped work-group size (0 = device default) */
    size_t group_wg;    /* block-mapped / child work-group size (0 = 64) */
    size_t reduce_size; /* sizeof(NL_REDUCE_T) for a summing loop, else 0 */
    unsigned coarsen;   /* items per thread-mapped work-item (0 = 1): thread coarsening */
    uint32_t donate;    /* baseline only: 0, or work donation (the loop's _donate
                           kernel) of inner iterations past the tile's average
                           plus this many, in chunks of this many */
} clirr_nl_config;

enum { CLIRR_NL_MAX_KERNELS = 3 };

typedef struct clirr_nl {
    clirr_ctx *ctx;
    clirr_nl_config cfg;
    cl_uint nparams;
    cl_kernel k[CLIRR_NL_MAX_KERNELS]; /* the template's kernels (context-owned) */
    unsigned nk;
    size_t wg, group_wg;
    uint32_t max_items;
    cl_mem flags;    /* dual-queue: 1 for large items */
    cl_mem queue[2]; /* dual-queue: small and large item indices; dbuf-global: [1] */
    cl_mem qn;       /* length of queue[1], read by the block-mapped kernel */
    cl_mem launches; /* nested: child kernels enqueued */
    uint64_t launches_seen; /* of them, reported by earlier calls */
    cl_mem gbuf;     /* nested-opt: items handed to children */
    cl_mem gbuf_n;
    cl_mem donated;  /* donate: {chunks given by work-group 0, by all} */
    uint32_t donated_seen[2]; /* of them, reported by earlier calls */
} clirr_nl;

/* Set up template cfg->tmpl of loop `name` in prog for up to max_items
 * items per run. A template the device cannot run gives
 * CLIRR_ERR_UNSUPPORTED naming what it lacks and the templates it can run. */
int clirr_nl_init(clirr_nl *nl, clirr_ctx *ctx, cl_program prog, const char *name,
                  cl_uint nparams, uint32_t max_items, const clirr_nl_config *cfg,
                  clirr_error *err);

/* Set algorithm argument idx (< nparams) of every kernel. */
int clirr_nl_arg(clirr_nl *nl, cl_uint idx, size_t size, const void *value, clirr_error *err);
#define CLIRR_NL_ARG(nl, idx, var) clirr_nl_arg((nl), (idx), sizeof(var), &(var), err)

/* The template's kernels, e.g. to bind a worklist to each. */
static inline unsigned clirr_nl_kernels(const clirr_nl *nl, const cl_kernel **k)
{
    *k = nl->k;
    return nl->nk;
}

/* Run the loop once over nitems (<= max_items) items. */
int clirr_nl_run(clirr_nl *nl, uint32_t nitems, clirr_error *err);

/* Child kernels enqueued by the nested templates since the last call (a
 * trial reports its own). */
int clirr_nl_child_launches(clirr_nl *nl, uint64_t *count, clirr_error *err);

/* Chunks of work donated since the last call, by work-group 0 and by all
 * work-groups (0 and 0 without --donate). */
int clirr_nl_donations(clirr_nl *nl, uint32_t *group0, uint64_t *all, clirr_error *err);

void clirr_nl_release(clirr_nl *nl);

/* CLIRR_OK when the device can run template t, else CLIRR_ERR_UNSUPPORTED
 * naming what it lacks and the templates it can run. */
int clirr_template_require(const clirr_caps *caps, clirr_template t, clirr_error *err);


#endif
