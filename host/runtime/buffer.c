/* host/runtime/buffer.c - device buffers: allocation checked against the
 * device's limits, timed copies, and per-context scratch storage. */
#include "base/parallel.h"
#include "runtime/context.h"

#include <stdio.h>

/* OpenCL refuses zero-sized buffers; empty graphs still need handles. */
#define MIN_BUFFER_BYTES 64

void clirr_mem_release(cl_mem *mem)
{
    if (mem && *mem) {
        clReleaseMemObject(*mem);
        *mem = NULL;
    }
}

void clirr_kernel_release(cl_kernel *kernel)
{
    if (kernel && *kernel) {
        clReleaseKernel(*kernel);
        *kernel = NULL;
    }
}

static void human_bytes(uint64_t b, char *buf, size_t size)
{
    const char *unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}

int clirr_buf_create(clirr_ctx *ctx, const char *what, size_t bytes,
                     cl_mem *mem, clirr_error *err)
{
    const clirr_caps *c = &ctx->device.caps;
    *mem = NULL;
    if (bytes > c->max_alloc || bytes > c->global_mem) {
        char need[32], limit[32];
        human_bytes(bytes, need, sizeof need);
        human_bytes(bytes > c->max_alloc ? c->max_alloc : c->global_mem, limit, sizeof limit);
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%s needs one buffer of %s, but %s allows at most %s per buffer "
                          "(%s); use a smaller input or a device with more memory",
                          what, need, c->name, limit,
                          bytes > c->max_alloc ? "CL_DEVICE_MAX_MEM_ALLOC_SIZE" : "CL_DEVICE_GLOBAL_MEM_SIZE");
    }
    if ((*mem = clirr_huge_buffer(ctx, bytes)))
        return CLIRR_OK;
    cl_int rc = CL_SUCCESS;
    *mem = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE,
                          bytes < MIN_BUFFER_BYTES ? MIN_BUFFER_BYTES : bytes, NULL, &rc);
    if (rc != CL_SUCCESS) {
        char need[32];
        human_bytes(bytes, need, sizeof need);
        clirr_cl_fail(err, rc, "clCreateBuffer", __FILE__, __LINE__);
        return clirr_fail_context(err, "allocating %s for %s on %s", need, what, c->name);
    }
    return CLIRR_OK;
}

int clirr_buf_sub(cl_mem parent, size_t offset, size_t bytes, cl_mem *mem, clirr_error *err)
{
    cl_buffer_region region = {offset, bytes};
    cl_int rc = CL_SUCCESS;
    *mem = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &rc);
    if (rc != CL_SUCCESS)
        return clirr_cl_fail(err, rc, "clCreateSubBuffer", __FILE__, __LINE__);
    return CLIRR_OK;
}

int clirr_buf_write(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes,
                    const void *src, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (bytes == 0)
        return CLIRR_OK;
    if (clirr_upload_wants_staging(ctx, bytes))
        return clirr_upload_staged(ctx, mem, offset, bytes, src, err);
    cl_event ev = NULL;
    CLIRR_CL_TRY(clEnqueueWriteBuffer(ctx->queue, mem, CL_TRUE, offset, bytes, src, 0, NULL, &ev));
    ctx->acc.upload_bytes += bytes;
    rc = clirr_ctx_track(ctx, ev, true, NULL, err);
fail:
    return rc;
}

/* A CPU device's buffers are host memory: mapping one costs nothing, and
 * the copy out then runs on several host threads, where a read is one
 * core's memcpy. On the H200 machine's 16-core Xeon (PoCL 5, 8 threads)
 * BFS's levels came back in 0.70-0.81 ms against 2.1-2.4 (kron 22,
 * 16.8 MB) and 1.4-1.5 against 4.2-5.0 (urand 23, 33.6 MB), PageRank's
 * scores in 2.9 against 11.3 (67 MB); tests/bench/RESULTS.md, "On an H200
 * and its Xeon", CPU devices' reads. Timed by the wall clock, as one
 * transfer. */
#define READ_MAPPED_MIN ((size_t)1 << 20)
static int read_mapped(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes, void *dst, unsigned threads,
                       clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_int cl_rc = CL_SUCCESS;
    /* Earlier queued work is not the copy's time. */
    CLIRR_CL_TRY(clFinish(ctx->queue));
    clirr_ctx_harvest(ctx);
    uint64_t t0 = clirr_now_ns();
    void *p = clEnqueueMapBuffer(ctx->queue, mem, CL_TRUE, CL_MAP_READ, offset, bytes, 0, NULL, NULL, &cl_rc);
    CLIRR_CL_CHECK(cl_rc, "clEnqueueMapBuffer (read)");
    clirr_parallel_copy(threads, dst, p, bytes);
    CLIRR_CL_TRY(clEnqueueUnmapMemObject(ctx->queue, mem, p, 0, NULL, NULL));
    CLIRR_CL_TRY(clFinish(ctx->queue));
    ctx->acc.transfers++;
    ctx->acc.transfer_ns += clirr_now_ns() - t0;
fail:
    return rc;
}

int clirr_buf_read(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes,
                   void *dst, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (bytes == 0)
        return CLIRR_OK;
    unsigned threads = ctx->device.caps.is_cpu && bytes >= READ_MAPPED_MIN ? clirr_copy_threads() : 1;
    if (threads > 1)
        return read_mapped(ctx, mem, offset, bytes, dst, threads, err);
    cl_event ev = NULL;
    CLIRR_CL_TRY(clEnqueueReadBuffer(ctx->queue, mem, CL_TRUE, offset, bytes, dst, 0, NULL, &ev));
    CLIRR_TRY(clirr_ctx_track(ctx, ev, true, NULL, err));
    /* A blocking read on an in-order queue: everything before it is done. */
    clirr_ctx_harvest(ctx);
fail:
    return rc;
}

int clirr_buf_read_async(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes, void *dst,
                         cl_event *done, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_event ev = NULL;
    *done = NULL;
    CLIRR_CL_TRY(clEnqueueReadBuffer(ctx->queue, mem, CL_FALSE, offset, bytes, dst, 0, NULL, &ev));
    /* One reference for the timing (released when harvested), one for the
     * caller. */
    CLIRR_CL_TRY(clRetainEvent(ev));
    *done = ev;
    CLIRR_TRY(clirr_ctx_track(ctx, ev, true, NULL, err));
    CLIRR_CL_TRY(clFlush(ctx->queue));
    return CLIRR_OK;
fail:
    if (*done)
        clReleaseEvent(*done);
    else if (ev)
        clReleaseEvent(ev);
    *done = NULL;
    return rc;
}

int clirr_event_wait(cl_event *ev, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (!*ev)
        return CLIRR_OK;
    CLIRR_CL_TRY(clWaitForEvents(1, ev));
fail:
    clReleaseEvent(*ev);
    *ev = NULL;
    return rc;
}

int clirr_pinned_alloc(clirr_ctx *ctx, size_t bytes, clirr_pinned *p, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_int cl_rc = CL_SUCCESS;
    p->host = NULL;
    p->buf = clCreateBuffer(ctx->context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, NULL, &cl_rc);
    CLIRR_CL_CHECK(cl_rc, "clCreateBuffer (pinned host memory)");
    p->host = clEnqueueMapBuffer(ctx->queue, p->buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL,
                                 &cl_rc);
    CLIRR_CL_CHECK(cl_rc, "clEnqueueMapBuffer (pinned host memory)");
    return CLIRR_OK;
fail:
    clirr_pinned_free(ctx, p);
    return rc;
}

void clirr_pinned_free(clirr_ctx *ctx, clirr_pinned *p)
{
    if (p->host) {
        clEnqueueUnmapMemObject(ctx->queue, p->buf, p->host, 0, NULL, NULL);
        clFinish(ctx->queue);
    }
    clirr_mem_release(&p->buf);
    p->host = NULL;
}

int clirr_buf_copy(clirr_ctx *ctx, cl_mem src, size_t src_off, cl_mem dst, size_t dst_off,
                   size_t bytes, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (bytes == 0)
        return CLIRR_OK;
    cl_event ev = NULL;
    CLIRR_CL_TRY(clEnqueueCopyBuffer(ctx->queue, src, dst, src_off, dst_off, bytes, 0, NULL,
                                     ctx->untimed_launches ? NULL : &ev));
    if (!ev)
        return CLIRR_OK;
    if (!ctx->copy_name)
        ctx->copy_name = clirr_ctx_timed_name(ctx, "copy");
    rc = clirr_ctx_track(ctx, ev, false, ctx->copy_name, err);
fail:
    return rc;
}

int clirr_scratch(clirr_ctx *ctx, unsigned slot, size_t bytes, cl_mem *mem,
                  clirr_error *err)
{
    if (slot >= CLIRR_SCRATCH_SLOTS)
        return clirr_fail(err, CLIRR_ERR_USAGE, "scratch slot %u out of range", slot);
    if (!ctx->scratch[slot] || ctx->scratch_size[slot] < bytes) {
        /* Grow by half again so slowly rising sizes do not reallocate often. */
        size_t want = bytes + bytes / 2;
        if (want > ctx->device.caps.max_alloc)
            want = bytes;
        clirr_mem_release(&ctx->scratch[slot]);
        ctx->scratch_size[slot] = 0;
        int rc = clirr_buf_create(ctx, "scratch storage", want, &ctx->scratch[slot], err);
        if (rc != CLIRR_OK)
            return rc;
        ctx->scratch_size[slot] = want;
    }
    *mem = ctx->scratch[slot];
    return CLIRR_OK;
}
