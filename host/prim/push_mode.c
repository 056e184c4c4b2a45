/* host/prim/push_mode.c - names of the worklist push modes. */
#include "clirr/worklist.h"

#include <string.h>

static const char *push_names[CLIRR_PUSH_COUNT_] = {"atomic", "chunk", "compact", "hier", "scan", "auto"};

const char *clirr_push_mode_name(clirr_push_mode mode)
{
    return (unsigned)mode < CLIRR_PUSH_COUNT_ ? push_names[mode] : "?";
}

int clirr_push_mode_parse(const char *name, clirr_push_mode *mode)
{
    for (int i = 0; i < CLIRR_PUSH_COUNT_; i++)
        if (!strcmp(name, push_names[i])) {
            *mode = (clirr_push_mode)i;
            return 0;
        }
    return -1;
}
