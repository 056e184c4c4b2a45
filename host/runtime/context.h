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

/* A name device work is timed under (a kernel's function name, "copy"),
 * kept once per context so that launches carry a pointer, not a string.
 * `row` is its row in acc.kernels while `epoch` equals the context's
 * timing_epoch; a reset starts a new epoch, so no table needs clearing. */
typedef struct clirr_timed_name {
    char *name;
    size_t row;
    uint64_t epoch;
    struct clirr_timed_name *next;
} clirr_timed_name;

typedef struct clirr_kernel_entry {
    cl_program program;
    char *name;
    cl_kernel kernel;
    cl_uint nargs;            /* CL_KERNEL_NUM_ARGS, asked once */
    clirr_timed_name *timed;  /* its function name for the per-kernel times */
    int irr_arg;              /* index of its irregularity record buffer, or -1 */
    struct clirr_kernel_entry *next;
} clirr_kernel_entry;

typedef struct clirr_pending_event {
    cl_event event;
    bool transfer;            /* host<->device copy rather than device work */
    clirr_timed_name *what;   /* device work: what it is timed as (NULL: "other") */
} clirr_pending_event;

/* The irregularity recorder (irr.c), NULL unless clirr_ctx_irr_enable. */
typedef struct clirr_irr_state clirr_irr_state;

typedef struct clirr_upload_stage clirr_upload_stage;

/* upload.c: a timed host-to-device copy through the pinned staging; the
 * staging's release (with the context). */
int clirr_upload_staged(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes, const void *src,
                        clirr_error *err);
void clirr_upload_stage_release(clirr_ctx *ctx);
/* Whether a copy of `bytes` goes through the staging (the mode, its size). */
bool clirr_upload_wants_staging(const clirr_ctx *ctx, size_t bytes);
/* A buffer of `bytes` in host memory advised to use huge pages
 * (hugepages.c), or NULL where clirr_ctx_huge_pages is false, the buffer
 * is under one huge page, or the runtime refused it. */
cl_mem clirr_huge_buffer(clirr_ctx *ctx, size_t bytes);

struct clirr_ctx {
    clirr_device device;
    cl_context context;
    cl_command_queue queue;
    cl_command_queue device_queue; /* default on-device queue, or NULL */
    cl_command_queue stream_queues[CLIRR_MAX_STREAMS]; /* extra on-device queues ("streams"), made on demand */
    char cap_options[1024];
    clirr_program_entry *programs;
    clirr_kernel_entry *kernels;
    /* kernels again, by handle (open addressing, a power-of-two size), so
     * a launch finds its kernel's name without a driver query */
    clirr_kernel_entry **kernel_index;
    size_t kernel_index_size, kernel_index_used;
    clirr_timed_name *timed_names;
    clirr_timed_name *copy_name;
    uint64_t timing_epoch;
    size_t other_row;          /* the "other" row of acc.kernels ... */
    uint64_t other_epoch;      /* ... when this equals timing_epoch */
    clirr_pending_event *pending;
    size_t npending, cpending;
    clirr_timing acc;
    clirr_cache_stats cache;
    cl_mem scratch[CLIRR_SCRATCH_SLOTS];
    size_t scratch_size[CLIRR_SCRATCH_SLOTS];
    clirr_irr_state *irr;
    clirr_upload_mode upload_mode;
    clirr_upload_stage *stage;     /* pinned staging (upload.c), made on first use */
    bool untimed_launches;         /* clirr_ctx_set_kernel_timing(ctx, false) */
    bool no_huge_pages;            /* clirr_ctx_set_huge_pages(ctx, false) */
};

/* Keep an event for timing; it is released when harvested. `what` names
 * device work (NULL for a transfer, or when naming failed). */
int clirr_ctx_track(clirr_ctx *ctx, cl_event event, bool transfer, clirr_timed_name *what,
                    clirr_error *err);

/* The context's one record of `name`, created on first use; NULL when out
 * of memory (the work is then timed as "other"). */
clirr_timed_name *clirr_ctx_timed_name(clirr_ctx *ctx, const char *name);

/* Add the profiled times of completed events (call after a wait). */
void clirr_ctx_harvest(clirr_ctx *ctx);

/* The recorder's hooks (irr.c), each a no-op without a recorder: note
 * whether a new kernel takes the record buffer (and hide it from nargs),
 * bind the buffer before a launch, read and fold the records after it
 * (a failure there is kept and returned by clirr_ctx_irr_take), free. */
void clirr_irr_kernel_created(clirr_ctx *ctx, clirr_kernel_entry *e);
int clirr_irr_before_launch(clirr_ctx *ctx, cl_kernel kernel, const clirr_kernel_entry *e,
                            clirr_error *err);
void clirr_irr_after_launch(clirr_ctx *ctx, const char *name, bool instrumented);
void clirr_irr_free(clirr_ctx *ctx);
/* Called with the parameter count the host binds, before it is checked:
 * a kernel from a binary that kept no argument names (Intel's and
 * NVIDIA's cached binaries) takes the record buffer when it has exactly
 * one parameter more than its .def list (IRR_KPARAM is always last). */
void clirr_irr_kernel_checked(clirr_ctx *ctx, clirr_kernel_entry *e, cl_uint nargs);

#endif
