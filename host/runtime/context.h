/* host/runtime/context.h - the layout of clirr_ctx, shared by the runtime's
 * own files only (everyone else goes through runtime.h and device.h). */
#ifndef CLIRR_RUNTIME_CONTEXT_H
#define CLIRR_RUNTIME_CONTEXT_H

#include "runtime/runtime.h"

typedef struct clirr_program_entry {
    char *file;
    char *options;
    cl_program program;
    struct clirr_program_entry *next;
} clirr_program_entry;

typedef struct clirr_kernel_entry {
    cl_program program;
    char *name;
    cl_kernel kernel;
    struct clirr_kernel_entry *next;
} clirr_kernel_entry;

typedef struct clirr_pending_event {
    cl_event event;
    bool transfer; /* host<->device copy rather than device work */
} clirr_pending_event;

struct clirr_ctx {
    clirr_device device;
    cl_context context;
    cl_command_queue queue;
    cl_command_queue device_queue; /* default on-device queue, or NULL */
    char cap_options[1024];
    clirr_program_entry *programs;
    clirr_kernel_entry *kernels;
    clirr_pending_event *pending;
    size_t npending, cpending;
    clirr_timing acc;
    clirr_cache_stats cache;
    cl_mem scratch[CLIRR_SCRATCH_SLOTS];
    size_t scratch_size[CLIRR_SCRATCH_SLOTS];
};

/* Keep an event for timing; it is released when harvested. */
int clirr_ctx_track(clirr_ctx *ctx, cl_event event, bool transfer, clirr_error *err);

/* Add the profiled times of completed events (call after a wait). */
void clirr_ctx_harvest(clirr_ctx *ctx);

#endif
