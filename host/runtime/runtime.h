/* host/runtime/runtime.h - the runtime's internal interface, used by prim/,
 * templates/ and algo/: programs, kernels, buffers, launches, scratch.
 *
 * Error handling follows one pattern (after LAGraph's LG_TRY): a function
 * declares `int rc = CLIRR_OK;`, ends with a `fail:` label that frees what
 * it holds and returns rc, and wraps calls in CLIRR_TRY (clirr calls) or
 * CLIRR_CL_TRY (OpenCL calls, which records the call, file:line and the
 * error's name). Handles start as NULL so cleanup is always safe. */
#ifndef CLIRR_RUNTIME_H
#define CLIRR_RUNTIME_H

#include "clirr/device.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Jump to fail with rc set when a clirr call fails. */
#define CLIRR_TRY(expr)                                                        \
    do {                                                                       \
        rc = (expr);                                                           \
        if (rc != CLIRR_OK)                                                    \
            goto fail;                                                         \
    } while (0)

/* Jump to fail with rc = CLIRR_ERR_OPENCL when an OpenCL call fails. */
#define CLIRR_CL_TRY(call)                                                     \
    do {                                                                       \
        cl_int clirr_cl_rc_ = (call);                                          \
        if (clirr_cl_rc_ != CL_SUCCESS) {                                      \
            rc = clirr_cl_fail(err, clirr_cl_rc_, #call, __FILE__, __LINE__);  \
            goto fail;                                                         \
        }                                                                      \
    } while (0)

/* The same for an error code returned through a pointer argument:
 * CLIRR_CL_CHECK(code, "clCreateBuffer"). */
#define CLIRR_CL_CHECK(code, name)                                             \
    do {                                                                       \
        if ((code) != CL_SUCCESS) {                                            \
            rc = clirr_cl_fail(err, (code), (name), __FILE__, __LINE__);       \
            goto fail;                                                         \
        }                                                                      \
    } while (0)

/* Record a failed OpenCL call ("clEnqueueNDRangeKernel failed:
 * CL_OUT_OF_RESOURCES (host/x.c:12)"); returns CLIRR_ERR_OPENCL. */
int clirr_cl_fail(clirr_error *err, cl_int code, const char *call,
                  const char *file, int line);

/* Release helpers that accept NULL and reset the handle. */
void clirr_mem_release(cl_mem *mem);
void clirr_kernel_release(cl_kernel *kernel);

/* ---- programs ---------------------------------------------------------- */

/* Directory the .cl sources are loaded from (searched once per process:
 * $CLIRR_KERNEL_DIR, then cl/ beside or above the executable in a build
 * tree, then the installed share directory). */
int clirr_kernel_dir(const char **dir, clirr_error *err);

/* Build (or fetch from the context's cache, then the on-disk binary cache)
 * the program in FILE (relative to the kernel dir, e.g. "bfs.cl") with the
 * capability -D options plus `options`. The program belongs to the context;
 * do not release it. A build failure returns CLIRR_ERR_OPENCL with the
 * device, options and build log in err. */
int clirr_program_get(clirr_ctx *ctx, const char *file, const char *options,
                      cl_program *program, clirr_error *err);

/* Build source text (label names it in messages) with the capability
 * options plus `options`, through the binary cache. The caller owns (and
 * releases) the program. clirr_program_get is this plus reading the file
 * and keeping the program in the context. Both add their wall time to the
 * context's build_ns (clirr_timing), cache hits of clirr_program_get
 * excepted. */
int clirr_program_build_source(clirr_ctx *ctx, const char *label, const char *source,
                               const char *options, cl_program *program, clirr_error *err);

/* How program builds were served since the context was created. */
typedef struct clirr_cache_stats {
    unsigned source_builds;   /* compiled from source */
    unsigned binary_loads;    /* loaded from the on-disk cache */
    unsigned rejected;        /* cache entries found unusable and rebuilt */
    unsigned stored;          /* entries written */
    unsigned kernels_created; /* kernels the context created and keeps */
} clirr_cache_stats;
void clirr_ctx_cache_stats(const clirr_ctx *ctx, clirr_cache_stats *stats);


/* The context's kernel `name` of program, created on first use and kept
 * by the context (do not release it). Its arguments persist between uses,
 * so set every argument before each launch. Creating it adds to build_ns;
 * its launches are timed under its name (clirr_timing.kernels). */
int clirr_kernel_get(clirr_ctx *ctx, cl_program program, const char *name, cl_kernel *kernel,
                     clirr_error *err);

/* clirr_kernel_get for a kernel whose parameters the host binds from a
 * .def list (cl/common/kargs.h): the kernel must take exactly nargs
 * arguments (CL_KERNEL_NUM_ARGS, asked once when it is created), else
 * CLIRR_ERR_OPENCL naming the kernel and both counts. */
int clirr_kernel_get_checked(clirr_ctx *ctx, cl_program program, const char *name, cl_uint nargs,
                             cl_kernel *kernel, clirr_error *err);

/* CL_KERNEL_NUM_ARGS of any kernel (no driver query for the context's
 * own kernels). */
int clirr_kernel_num_args(clirr_ctx *ctx, cl_kernel kernel, cl_uint *nargs, clirr_error *err);

/* Create a kernel; the caller releases it. Its launches are timed under
 * its function name, asked of the driver at every launch. */
int clirr_kernel_create(clirr_ctx *ctx, cl_program program, const char *name,
                        cl_kernel *kernel, clirr_error *err);

/* Set kernel argument idx (value NULL with size > 0 = local memory). */
int clirr_arg(cl_kernel kernel, cl_uint idx, size_t size, const void *value,
              clirr_error *err);
#define CLIRR_ARG(kernel, idx, var) clirr_arg((kernel), (idx), sizeof(var), &(var), err)

/* Work-group size for a kernel: `wanted` (or the device default when 0),
 * capped by the kernel's and the device's limits, a power of two. */
size_t clirr_wg_size(clirr_ctx *ctx, cl_kernel kernel, size_t wanted);

/* Enqueue a 1-D kernel over `items` work-items (rounded up to a multiple of
 * local; kernels bound-check). Nothing is enqueued when items == 0. Its
 * execution time is added to the context's kernel time. */
int clirr_launch(clirr_ctx *ctx, cl_kernel kernel, size_t items, size_t local,
                 clirr_error *err);

/* Create (once) the default on-device queue that kernels using
 * enqueue_kernel(get_default_queue(), ...) need. CLIRR_ERR_UNSUPPORTED on a
 * device without device-side enqueue. */
int clirr_ctx_device_queue(clirr_ctx *ctx, clirr_error *err);

/* The recursion templates' streams (cl/nested/streams.clh): q[0] the
 * default on-device queue, q[1..n] n extra on-device queues (made once per
 * context), the rest of q[0..CLIRR_MAX_STREAMS] the default queue again. */
#define CLIRR_MAX_STREAMS 4
int clirr_ctx_stream_queues(clirr_ctx *ctx, unsigned n, cl_command_queue q[CLIRR_MAX_STREAMS + 1], clirr_error *err);

/* Wait for everything enqueued so far. */
int clirr_finish(clirr_ctx *ctx, clirr_error *err);
/* After a clirr_finish: the kernel time and launches accumulated since the
 * last timing reset, without resetting them (per-round traces). */
int clirr_ctx_peek(clirr_ctx *ctx, uint64_t *kernel_ns, uint64_t *launches, clirr_error *err);

/* ---- buffers ----------------------------------------------------------- */

/* Allocate `bytes` of device memory (at least a few bytes, so empty inputs
 * work). `what` names the buffer in messages. A size beyond the device's
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE returns CLIRR_ERR_TOO_LARGE saying so. */
int clirr_buf_create(clirr_ctx *ctx, const char *what, size_t bytes,
                     cl_mem *mem, clirr_error *err);

/* A buffer over bytes [offset, offset + bytes) of parent (offset a
 * multiple of the device's caps.mem_base_align). */
int clirr_buf_sub(cl_mem parent, size_t offset, size_t bytes, cl_mem *mem, clirr_error *err);

/* Blocking copies, timed as transfers. */
int clirr_buf_write(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes,
                    const void *src, clirr_error *err);
int clirr_buf_read(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes,
                   void *dst, clirr_error *err);

/* Non-blocking read, flushed so the device starts on everything queued
 * before it; *done gets an event of the caller's, to pass to
 * clirr_event_wait. Timed as a transfer. With dst in pinned memory
 * (clirr_pinned_alloc) the host does not wait for the copy on any driver. */
int clirr_buf_read_async(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes, void *dst,
                         cl_event *done, clirr_error *err);

/* Wait for *ev (a NULL event is done already), then release it. */
int clirr_event_wait(cl_event *ev, clirr_error *err);

/* A little host memory that the device copies into without the host
 * waiting (pinned where the driver pins CL_MEM_ALLOC_HOST_PTR buffers),
 * mapped once for its whole life. */
typedef struct clirr_pinned {
    cl_mem buf;
    void *host;
} clirr_pinned;
int clirr_pinned_alloc(clirr_ctx *ctx, size_t bytes, clirr_pinned *p, clirr_error *err);
void clirr_pinned_free(clirr_ctx *ctx, clirr_pinned *p);

/* Device-side copy of bytes from src at src_off to dst at dst_off, timed
 * as kernel work (under the name "copy"). */
int clirr_buf_copy(clirr_ctx *ctx, cl_mem src, size_t src_off, cl_mem dst, size_t dst_off,
                   size_t bytes, clirr_error *err);

/* A buffer of at least `bytes` kept by the context under `slot` (grown on
 * demand, contents undefined), for primitives' temporary storage. */
enum { CLIRR_SCRATCH_SLOTS = 8 };
int clirr_scratch(clirr_ctx *ctx, unsigned slot, size_t bytes, cl_mem *mem,
                  clirr_error *err);

#endif
