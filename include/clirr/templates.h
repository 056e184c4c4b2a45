/* clirr/templates.h - the parallelization templates of the nested-loop
 * study (shared/papers/001): the loop family for irregular nested loops
 * (section III.B) and the recursion family for recursive computations
 * (section II.C), and which of them a device can run. */
#ifndef CLIRR_TEMPLATES_H
#define CLIRR_TEMPLATES_H

#include "clirr/export.h"

#include <stdbool.h>
#include <stdint.h>

#include "clirr/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum clirr_template {
    CLIRR_TEMPLATE_BASELINE = 0, /* one work-item per item */
    CLIRR_TEMPLATE_DUAL_QUEUE,   /* small/large queues, two mappings */
    CLIRR_TEMPLATE_DBUF_GLOBAL,  /* large items delayed to a global buffer */
    CLIRR_TEMPLATE_DBUF_SHARED,  /* large items delayed to local memory */
    CLIRR_TEMPLATE_NESTED_NAIVE, /* device-side enqueue per large item */
    CLIRR_TEMPLATE_NESTED_OPT,   /* device-side enqueue per work-group */
    /* The recursion family: a variant whose work is a recursion (tree
     * descendants and heights, the recursive BFS) runs one of these. */
    CLIRR_TEMPLATE_FLAT,         /* the iterative form, one work-item per node */
    CLIRR_TEMPLATE_REC_NAIVE,    /* a child kernel per internal child */
    CLIRR_TEMPLATE_REC_HIER,     /* a child kernel per work-group */
    CLIRR_TEMPLATE_COUNT_
} clirr_template;
/* Loop templates are those below this one. */
#define CLIRR_TEMPLATE_FIRST_RECURSION CLIRR_TEMPLATE_FLAT

/* A measured template profile of one algorithm: the template (and
 * lb_THRES; 0 = the SIMD width) that --template auto takes for it on any
 * device that can run it, ahead of the device rules, and why. */
typedef struct clirr_template_hint {
    clirr_template tmpl;
    uint32_t lb_thres;
    const char *reason;
} clirr_template_hint;

/* "baseline", "dual-queue", "dbuf-global", "dbuf-shared", "nested-naive",
 * "nested-opt"; "flat", "rec-naive", "rec-hier". */
CLIRR_API const char *clirr_template_name(clirr_template t);

/* Is t one of the recursion family (flat, rec-naive, rec-hier)? */
CLIRR_API bool clirr_template_is_recursion(clirr_template t);

/* Returns 0 and sets *t, or -1 for an unknown name. */
CLIRR_API int clirr_template_parse(const char *name, clirr_template *t);

/* Can the device run template t? When not, *why (if given) says what it
 * lacks, e.g. "no device-side enqueue". */
CLIRR_API bool clirr_template_runnable(const clirr_caps *caps, clirr_template t, const char **why);

#ifdef __cplusplus
}
#endif
#endif
