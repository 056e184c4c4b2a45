/* host/templates/policy.c - which parallelization templates a device can
 * run, from its capabilities. One table, so every rule is in one place. */
#include "clirr/templates.h"

#include <string.h>

typedef struct template_rule {
    const char *name;
    bool needs_device_enqueue; /* enqueue_kernel from a kernel (C 2.0+) */
    bool needs_local_memory;   /* a work-group buffer in local memory */
} template_rule;

static const template_rule rules[CLIRR_TEMPLATE_COUNT_] = {
    [CLIRR_TEMPLATE_BASELINE] = {"baseline", false, false},
    [CLIRR_TEMPLATE_DUAL_QUEUE] = {"dual-queue", false, false},
    [CLIRR_TEMPLATE_DBUF_GLOBAL] = {"dbuf-global", false, false},
    [CLIRR_TEMPLATE_DBUF_SHARED] = {"dbuf-shared", false, true},
    [CLIRR_TEMPLATE_NESTED_NAIVE] = {"nested-naive", true, false},
    [CLIRR_TEMPLATE_NESTED_OPT] = {"nested-opt", true, true},
};

const char *clirr_template_name(clirr_template t)
{
    return (unsigned)t < CLIRR_TEMPLATE_COUNT_ ? rules[t].name : "?";
}

int clirr_template_parse(const char *name, clirr_template *t)
{
    for (int i = 0; i < CLIRR_TEMPLATE_COUNT_; i++)
        if (!strcmp(name, rules[i].name)) {
            *t = (clirr_template)i;
            return 0;
        }
    return -1;
}

bool clirr_template_runnable(const clirr_caps *caps, clirr_template t, const char **why)
{
    const char *no = NULL;
    if ((unsigned)t >= CLIRR_TEMPLATE_COUNT_)
        no = "unknown template";
    else if (rules[t].needs_device_enqueue && !caps->device_enqueue)
        no = "no device-side enqueue";
    else if (rules[t].needs_local_memory && caps->local_mem == 0)
        no = "no local memory";
    if (why)
        *why = no;
    return no == NULL;
}
