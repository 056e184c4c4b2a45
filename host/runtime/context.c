/* host/runtime/context.c - an open device: context, profiling queue, kernel
 * launches, and the kernel/transfer time gathered from profiling events. */
#include "runtime/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -D options every kernel sees; cl/common/compat.clh maps them. The newer
 * -cl-std is asked for only where a feature needs it, so the rest compiles
 * as plain OpenCL C 1.2 everywhere. */
void clirr_caps_build_options(const clirr_caps *c, char *buf, size_t size)
{
    const char *std = "";
    if ((c->wg_collectives || c->device_enqueue) && c->c_3_0)
        std = " -cl-std=CL3.0";
    else if ((c->wg_collectives || c->device_enqueue) && c->c_2_0)
        std = " -cl-std=CL2.0";
    else if (c->c_major > 1 || (c->c_major == 1 && c->c_minor >= 2))
        std = " -cl-std=CL1.2";
    snprintf(buf, size,
             "-DCLIRR_SIMD_WIDTH=%u -DCLIRR_IS_GPU=%d -DCLIRR_IS_CPU=%d "
             "-DCLIRR_HAS_INT64_ATOMICS=%d -DCLIRR_HAS_INT64_EXTENDED_ATOMICS=%d "
             "-DCLIRR_HAS_WG_COLLECTIVES=%d -DCLIRR_HAS_SUBGROUPS=%d "
             "-DCLIRR_HAS_GENERIC_AS=%d -DCLIRR_HAS_DEVICE_ENQUEUE=%d "
             "-DCLIRR_HAS_FP64=%d%s",
             c->simd_width, c->is_gpu, c->is_cpu, c->int64_atomics,
             c->int64_extended_atomics, c->wg_collectives, c->subgroups,
             c->generic_address_space, c->device_enqueue, c->fp64, std);
}

int clirr_ctx_create(const clirr_device *device, clirr_ctx **out, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_int cl_rc = CL_SUCCESS;
    *out = NULL;
    clirr_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory creating a context");
    ctx->device = *device;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)device->platform, 0};
    ctx->context = clCreateContext(props, 1, &device->id, NULL, NULL, &cl_rc);
    CLIRR_CL_CHECK(cl_rc, "clCreateContext");
    /* clCreateCommandQueue is deprecated in 2.0 but the one call that every
     * platform (1.2 ones included) accepts. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ctx->queue = clCreateCommandQueue(ctx->context, device->id, CL_QUEUE_PROFILING_ENABLE, &cl_rc);
#pragma GCC diagnostic pop
    CLIRR_CL_CHECK(cl_rc, "clCreateCommandQueue");
    clirr_caps_build_options(&device->caps, ctx->cap_options, sizeof ctx->cap_options);
    /* Epoch 0 is what fresh timed names hold: none has a row yet. */
    ctx->timing_epoch = 1;
    *out = ctx;
    return CLIRR_OK;
fail:
    clirr_fail_context(err, "opening device '%s'", device->caps.name);
    clirr_ctx_release(ctx);
    return rc;
}

void clirr_ctx_release(clirr_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->queue)
        clFinish(ctx->queue);
    clirr_ctx_harvest(ctx);
    clirr_upload_stage_release(ctx);
    clirr_irr_free(ctx);
    free(ctx->pending);
    for (unsigned i = 0; i < CLIRR_SCRATCH_SLOTS; i++)
        clirr_mem_release(&ctx->scratch[i]);
    for (clirr_kernel_entry *k = ctx->kernels, *next; k; k = next) {
        next = k->next;
        clReleaseKernel(k->kernel);
        free(k->name);
        free(k);
    }
    free(ctx->kernel_index);
    for (clirr_timed_name *t = ctx->timed_names, *next; t; t = next) {
        next = t->next;
        free(t->name);
        free(t);
    }
    for (clirr_program_entry *p = ctx->programs, *next; p; p = next) {
        next = p->next;
        clReleaseProgram(p->program);
        free(p->file);
        free(p->options);
        free(p);
    }
    for (int i = 0; i < CLIRR_MAX_STREAMS; i++)
        if (ctx->stream_queues[i])
            clReleaseCommandQueue(ctx->stream_queues[i]);
    if (ctx->device_queue)
        clReleaseCommandQueue(ctx->device_queue);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->context)
        clReleaseContext(ctx->context);
    free(ctx);
}

const clirr_caps *clirr_ctx_caps(const clirr_ctx *ctx) { return &ctx->device.caps; }
const char *clirr_ctx_cap_options(const clirr_ctx *ctx) { return ctx->cap_options; }
void clirr_ctx_cache_stats(const clirr_ctx *ctx, clirr_cache_stats *stats) { *stats = ctx->cache; }

int clirr_ctx_device_queue(clirr_ctx *ctx, clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_caps *c = &ctx->device.caps;
    if (ctx->device_queue)
        return CLIRR_OK;
    if (!c->device_enqueue)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED, "%s has no device-side enqueue", c->name);
    /* Room for many pending children: the device's preferred size, at least
     * 1 MiB, within its maximum. */
    cl_uint preferred = 0;
    clGetDeviceInfo(ctx->device.id, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof preferred,
                    &preferred, NULL);
    size_t size = preferred > (1u << 20) ? preferred : (1u << 20);
    if (size > c->queue_on_device_max_size)
        size = c->queue_on_device_max_size;
    cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT,
        CL_QUEUE_SIZE, (cl_queue_properties)size, 0};
    cl_int cl_rc = CL_SUCCESS;
    ctx->device_queue = clCreateCommandQueueWithProperties(ctx->context, ctx->device.id, props, &cl_rc);
    CLIRR_CL_CHECK(cl_rc, "clCreateCommandQueueWithProperties(CL_QUEUE_ON_DEVICE_DEFAULT)");
fail:
    return rc;
}

int clirr_ctx_stream_queues(clirr_ctx *ctx, unsigned n, cl_command_queue q[CLIRR_MAX_STREAMS + 1], clirr_error *err)
{
    int rc = clirr_ctx_device_queue(ctx, err);
    if (rc != CLIRR_OK)
        return rc;
    if (n > CLIRR_MAX_STREAMS)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%u streams: at most %d", n, CLIRR_MAX_STREAMS);
    size_t size = ctx->device.caps.queue_on_device_max_size;
    size = size < (1u << 20) ? size : (1u << 20);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE,
                                   CL_QUEUE_SIZE, (cl_queue_properties)size, 0};
    q[0] = ctx->device_queue;
    for (unsigned i = 0; i < CLIRR_MAX_STREAMS; i++) {
        if (i < n && !ctx->stream_queues[i]) {
            cl_int cl_rc = CL_SUCCESS;
            ctx->stream_queues[i] = clCreateCommandQueueWithProperties(ctx->context, ctx->device.id, props, &cl_rc);
            CLIRR_CL_CHECK(cl_rc, "clCreateCommandQueueWithProperties(CL_QUEUE_ON_DEVICE)");
        }
        q[i + 1] = i < n ? ctx->stream_queues[i] : ctx->device_queue;
    }
fail:
    return rc;
}

int clirr_ctx_track(clirr_ctx *ctx, cl_event event, bool transfer, clirr_timed_name *what,
                    clirr_error *err)
{
    int rc = CLIRR_OK;
    /* Bound the list: finish and harvest when many launches are pending. */
    if (ctx->npending >= 4096) {
        CLIRR_CL_TRY(clFinish(ctx->queue));
        clirr_ctx_harvest(ctx);
    }
    if (ctx->npending == ctx->cpending) {
        size_t cap = ctx->cpending ? 2 * ctx->cpending : 64;
        clirr_pending_event *grown = realloc(ctx->pending, cap * sizeof *grown);
        if (!grown) {
            clReleaseEvent(event);
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory tracking events");
        }
        ctx->pending = grown;
        ctx->cpending = cap;
    }
    ctx->pending[ctx->npending++] = (clirr_pending_event){event, transfer, what};
    return CLIRR_OK;
fail:
    clReleaseEvent(event);
    return rc;
}

clirr_timed_name *clirr_ctx_timed_name(clirr_ctx *ctx, const char *name)
{
    for (clirr_timed_name *t = ctx->timed_names; t; t = t->next)
        if (!strcmp(t->name, name))
            return t;
    clirr_timed_name *t = calloc(1, sizeof *t);
    if (!t || !(t->name = strdup(name))) {
        free(t);
        return NULL;
    }
    t->next = ctx->timed_names;
    ctx->timed_names = t;
    return t;
}

/* The "other" row of this epoch, added when first needed. */
static size_t other_row(clirr_ctx *ctx)
{
    clirr_timing *acc = &ctx->acc;
    if (ctx->other_epoch != ctx->timing_epoch) {
        ctx->other_epoch = ctx->timing_epoch;
        ctx->other_row = acc->nkernels++;
        snprintf(acc->kernels[ctx->other_row].name, sizeof acc->kernels[ctx->other_row].name, "other");
    }
    return ctx->other_row;
}

/* The row of acc.kernels that `what` adds to: its own while the table has
 * room (the last row is kept for "other"), else the "other" row. */
static clirr_kernel_time *timing_row(clirr_ctx *ctx, clirr_timed_name *what)
{
    clirr_timing *acc = &ctx->acc;
    if (what && what->epoch == ctx->timing_epoch)
        return &acc->kernels[what->row];
    size_t row;
    if (what && acc->nkernels < CLIRR_MAX_TIMED_KERNELS - 1) {
        row = acc->nkernels++;
        snprintf(acc->kernels[row].name, sizeof acc->kernels[row].name, "%s", what->name);
    } else {
        row = other_row(ctx);
    }
    if (what) {
        what->epoch = ctx->timing_epoch;
        what->row = row;
    }
    return &acc->kernels[row];
}

void clirr_ctx_harvest(clirr_ctx *ctx)
{
    for (size_t i = 0; i < ctx->npending; i++) {
        cl_ulong start = 0, end = 0;
        const clirr_pending_event *p = &ctx->pending[i];
        uint64_t ns = 0;
        if (clGetEventProfilingInfo(p->event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) == CL_SUCCESS &&
            clGetEventProfilingInfo(p->event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) == CL_SUCCESS &&
            end >= start)
            ns = end - start;
        if (p->transfer) {
            ctx->acc.transfers++;
            ctx->acc.transfer_ns += ns;
        } else {
            clirr_kernel_time *row = timing_row(ctx, p->what);
            row->launches++;
            row->ns += ns;
            ctx->acc.kernel_ns += ns;
        }
        clReleaseEvent(p->event);
    }
    ctx->npending = 0;
}

int clirr_finish(clirr_ctx *ctx, clirr_error *err)
{
    int rc = CLIRR_OK;
    CLIRR_CL_TRY(clFinish(ctx->queue));
    clirr_ctx_harvest(ctx);
fail:
    return rc;
}

int clirr_ctx_peek(clirr_ctx *ctx, uint64_t *kernel_ns, uint64_t *launches, clirr_error *err)
{
    int rc = clirr_finish(ctx, err);
    *kernel_ns = ctx->acc.kernel_ns;
    *launches = 0;
    for (size_t i = 0; i < ctx->acc.nkernels; i++)
        *launches += ctx->acc.kernels[i].launches;
    return rc;
}

int clirr_ctx_timing(clirr_ctx *ctx, clirr_timing *out, clirr_error *err)
{
    int rc = clirr_finish(ctx, err);
    *out = ctx->acc;
    clirr_ctx_timing_reset(ctx);
    return rc;
}

void clirr_ctx_set_kernel_timing(clirr_ctx *ctx, bool on) { ctx->untimed_launches = !on; }

bool clirr_ctx_kernel_timing(const clirr_ctx *ctx) { return !ctx->untimed_launches; }

void clirr_ctx_timing_reset(clirr_ctx *ctx)
{
    /* Work still queued belongs to the time being forgotten. A failure
     * here shows again at the next wait, which can report it. */
    if (clFinish(ctx->queue) == CL_SUCCESS)
        clirr_ctx_harvest(ctx);
    memset(&ctx->acc, 0, sizeof ctx->acc);
    ctx->timing_epoch++;
}

size_t clirr_wg_size(clirr_ctx *ctx, cl_kernel kernel, size_t wanted)
{
    size_t limit = ctx->device.caps.max_wg_size, kmax = 0;
    if (clGetKernelWorkGroupInfo(kernel, ctx->device.id, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof kmax, &kmax, NULL) == CL_SUCCESS && kmax && kmax < limit)
        limit = kmax;
    size_t want = wanted ? wanted : 256;
    if (want > limit)
        want = limit;
    size_t p = 1;
    while (p * 2 <= want)
        p *= 2;
    return p;
}

int clirr_kernel_create(clirr_ctx *ctx, cl_program program, const char *name,
                        cl_kernel *kernel, clirr_error *err)
{
    cl_int rc = CL_SUCCESS;
    *kernel = clCreateKernel(program, name, &rc);
    if (rc != CL_SUCCESS) {
        clirr_cl_fail(err, rc, "clCreateKernel", __FILE__, __LINE__);
        return clirr_fail_context(err, "kernel '%s' on %s", name, ctx->device.caps.name);
    }
    return CLIRR_OK;
}

/* Slot of kernel in the index: where it is, or the empty slot where it
 * would go. */
static size_t index_slot(const clirr_ctx *ctx, cl_kernel kernel)
{
    size_t mask = ctx->kernel_index_size - 1;
    /* Handles are heap addresses: mix their middle bits into the low ones
     * that pick the slot. */
    uint64_t h = (uint64_t)(uintptr_t)kernel * 0x9e3779b97f4a7c15u;
    for (size_t i = (size_t)(h >> 32) & mask;; i = (i + 1) & mask)
        if (!ctx->kernel_index[i] || ctx->kernel_index[i]->kernel == kernel)
            return i;
}

/* Add e to the index, growing it to keep it at most half full. */
static bool index_add(clirr_ctx *ctx, clirr_kernel_entry *e)
{
    if (2 * (ctx->kernel_index_used + 1) > ctx->kernel_index_size) {
        size_t size = ctx->kernel_index_size ? 2 * ctx->kernel_index_size : 64;
        clirr_kernel_entry **old = ctx->kernel_index, **grown = calloc(size, sizeof *grown);
        if (!grown)
            return false;
        size_t old_size = ctx->kernel_index_size;
        ctx->kernel_index = grown;
        ctx->kernel_index_size = size;
        for (size_t i = 0; i < old_size; i++)
            if (old[i])
                grown[index_slot(ctx, old[i]->kernel)] = old[i];
        free(old);
    }
    ctx->kernel_index[index_slot(ctx, e->kernel)] = e;
    ctx->kernel_index_used++;
    return true;
}

/* The context's entry of kernel, or NULL for one it does not keep. */
static clirr_kernel_entry *index_find(const clirr_ctx *ctx, cl_kernel kernel)
{
    if (!ctx->kernel_index_size)
        return NULL;
    return ctx->kernel_index[index_slot(ctx, kernel)];
}

/* The entry of kernel `name` of program, created (and counted as build
 * time) on first use. */
static int kernel_entry(clirr_ctx *ctx, cl_program program, const char *name,
                        clirr_kernel_entry **out, clirr_error *err)
{
    int rc = CLIRR_OK;
    for (clirr_kernel_entry *e = ctx->kernels; e; e = e->next)
        if (e->program == program && !strcmp(e->name, name)) {
            *out = e;
            return CLIRR_OK;
        }
    uint64_t t0 = clirr_now_ns();
    clirr_kernel_entry *e = calloc(1, sizeof *e);
    if (!e || !(e->name = strdup(name))) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    CLIRR_TRY(clirr_kernel_create(ctx, program, name, &e->kernel, err));
    CLIRR_CL_TRY(clGetKernelInfo(e->kernel, CL_KERNEL_NUM_ARGS, sizeof e->nargs, &e->nargs, NULL));
    clirr_irr_kernel_created(ctx, e);
    e->timed = clirr_ctx_timed_name(ctx, name);
    if (!index_add(ctx, e)) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    e->program = program;
    e->next = ctx->kernels;
    ctx->kernels = e;
    ctx->cache.kernels_created++;
    ctx->acc.build_ns += clirr_now_ns() - t0;
    *out = e;
    return CLIRR_OK;
fail:
    if (e) {
        clirr_kernel_release(&e->kernel);
        free(e->name);
        free(e);
    }
    return rc;
}

int clirr_kernel_get(clirr_ctx *ctx, cl_program program, const char *name, cl_kernel *kernel,
                     clirr_error *err)
{
    clirr_kernel_entry *e = NULL;
    int rc = kernel_entry(ctx, program, name, &e, err);
    *kernel = rc == CLIRR_OK ? e->kernel : NULL;
    return rc;
}

int clirr_kernel_get_checked(clirr_ctx *ctx, cl_program program, const char *name, cl_uint nargs,
                             cl_kernel *kernel, clirr_error *err)
{
    clirr_kernel_entry *e = NULL;
    *kernel = NULL;
    int rc = kernel_entry(ctx, program, name, &e, err);
    if (rc != CLIRR_OK)
        return rc;
    clirr_irr_kernel_checked(ctx, e, nargs);
    if (e->nargs != nargs)
        return clirr_fail(err, CLIRR_ERR_OPENCL,
                          "kernel %s takes %u arguments but the host binds %u "
                          "(its .def list and the kernel disagree)",
                          name, e->nargs, nargs);
    *kernel = e->kernel;
    return CLIRR_OK;
}

int clirr_kernel_num_args(clirr_ctx *ctx, cl_kernel kernel, cl_uint *nargs, clirr_error *err)
{
    int rc = CLIRR_OK;
    const clirr_kernel_entry *e = index_find(ctx, kernel);
    if (e) {
        *nargs = e->nargs;
        return CLIRR_OK;
    }
    CLIRR_CL_TRY(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof *nargs, nargs, NULL));
fail:
    return rc;
}

static void kernel_name(cl_kernel k, char *buf, size_t size)
{
    if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, buf, NULL) != CL_SUCCESS)
        snprintf(buf, size, "?");
    buf[size - 1] = '\0';
}

int clirr_arg(cl_kernel kernel, cl_uint idx, size_t size, const void *value,
              clirr_error *err)
{
    cl_int rc = clSetKernelArg(kernel, idx, size, value);
    if (rc == CL_SUCCESS)
        return CLIRR_OK;
    char name[128];
    kernel_name(kernel, name, sizeof name);
    clirr_cl_fail(err, rc, "clSetKernelArg", __FILE__, __LINE__);
    return clirr_fail_context(err, "kernel %s argument %u", name, idx);
}

/* What a launch of kernel is timed as: its entry's name, or for a kernel
 * the context does not keep, its function name asked of the driver. */
static clirr_timed_name *launch_name(clirr_ctx *ctx, cl_kernel kernel)
{
    const clirr_kernel_entry *e = index_find(ctx, kernel);
    if (e)
        return e->timed;
    char name[128];
    kernel_name(kernel, name, sizeof name);
    return clirr_ctx_timed_name(ctx, name);
}

int clirr_launch(clirr_ctx *ctx, cl_kernel kernel, size_t items, size_t local,
                 clirr_error *err)
{
    if (items == 0)
        return CLIRR_OK;
    size_t global = local ? (items + local - 1) / local * local : items;
    cl_event ev = NULL;
    const clirr_kernel_entry *e = ctx->irr ? index_find(ctx, kernel) : NULL;
    if (ctx->irr && clirr_irr_before_launch(ctx, kernel, e, err) != CLIRR_OK)
        return err->status;
    cl_int rc = clEnqueueNDRangeKernel(ctx->queue, kernel, 1, NULL, &global, local ? &local : NULL, 0, NULL,
                                       ctx->untimed_launches ? NULL : &ev);
    if (rc != CL_SUCCESS) {
        char name[128];
        kernel_name(kernel, name, sizeof name);
        clirr_cl_fail(err, rc, "clEnqueueNDRangeKernel", __FILE__, __LINE__);
        return clirr_fail_context(err, "launching %s (%zu work-items, work-group %zu) on %s",
                                  name, global, local, ctx->device.caps.name);
    }
    ctx->acc.launches++;
    clirr_timed_name *what = launch_name(ctx, kernel);
    int trc = ev ? clirr_ctx_track(ctx, ev, false, what, err) : CLIRR_OK;
    if (ctx->irr && trc == CLIRR_OK)
        clirr_irr_after_launch(ctx, what ? what->name : "other", e && e->irr_arg >= 0);
    return trc;
}
