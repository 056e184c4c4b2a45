/* clirr/worklist.h - the worklist push modes a data-driven run can use
 * (data-driven vs topology-driven study, shared/papers/000, section III). */
#ifndef CLIRR_WORKLIST_H
#define CLIRR_WORKLIST_H

#include "clirr/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum clirr_push_mode {
    CLIRR_PUSH_ATOMIC = 0, /* one atomic increment of the length per push */
    CLIRR_PUSH_CHUNK,      /* each work-item reserves its pushes at once */
    CLIRR_PUSH_COMPACT,    /* atomic-free: mark, then compact the marks of all items */
    CLIRR_PUSH_HIER,       /* a work-group queue in local memory, spilling */
    CLIRR_PUSH_SCAN,       /* atomic-free: per-work-item counts, a prefix sum, reserved ranges */
    CLIRR_PUSH_AUTO,       /* chosen per round by the policy (templates/policy.c) */
    CLIRR_PUSH_COUNT_
} clirr_push_mode;

/* "atomic", "chunk", "compact", "hier", "scan", "auto". */
CLIRR_API const char *clirr_push_mode_name(clirr_push_mode mode);

/* Parse a name; returns 0 and sets *mode, or -1 for an unknown name. */
CLIRR_API int clirr_push_mode_parse(const char *name, clirr_push_mode *mode);

#ifdef __cplusplus
}
#endif
#endif
