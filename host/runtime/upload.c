/* host/runtime/upload.c - large host-to-device copies staged through pinned
 * memory (clirr_upload_mode in include/clirr/device.h).
 *
 * A device reads page-locked host memory directly and fast, but clirr's
 * inputs live in ordinary memory, which the driver copies through a small
 * staging area of its own (the H100 machine: 8 GB/s against 55). So the
 * context keeps two pinned buffers; several host threads fill one while
 * the device reads the other. One thread's memcpy alone (10 GB/s there)
 * would gain nothing, hence the threads. The copy is timed by the wall
 * clock, host copying included, and counted as one transfer.
 *
 * Measured there: pinning costs about 0.5 ms a MiB (two 8 MiB buffers:
 * about 8 ms, once per context); staged copies then run at 21-25 GB/s
 * against 8-10. So AUTO makes the staging for a copy of FIRST_STAGED
 * bytes or more, where the first copy already gains, and then stages
 * every copy of CLIRR_UPLOAD_STAGED_MIN bytes or more. */
#include "base/parallel.h"
#include "runtime/context.h"

#include <stdlib.h>
#include <string.h>

#define STAGE_BYTES ((size_t)8 << 20)
#define FIRST_STAGED ((size_t)128 << 20)

struct clirr_upload_stage {
    cl_mem buf[2];
    void *host[2];    /* their mapped, page-locked memory */
    cl_event busy[2]; /* the device's read of each, or NULL */
    unsigned threads;
};

static void wait_busy(clirr_upload_stage *s, int i)
{
    if (s->busy[i]) {
        clWaitForEvents(1, &s->busy[i]);
        clReleaseEvent(s->busy[i]);
        s->busy[i] = NULL;
    }
}

void clirr_upload_stage_release(clirr_ctx *ctx)
{
    clirr_upload_stage *s = ctx->stage;
    if (!s)
        return;
    for (int i = 0; i < 2; i++) {
        wait_busy(s, i);
        if (s->host[i])
            clEnqueueUnmapMemObject(ctx->queue, s->buf[i], s->host[i], 0, NULL, NULL);
    }
    clFinish(ctx->queue);
    for (int i = 0; i < 2; i++)
        clirr_mem_release(&s->buf[i]);
    free(s);
    ctx->stage = NULL;
}

static int stage_open(clirr_ctx *ctx, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_upload_stage *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the upload staging");
    ctx->stage = s;
    s->threads = clirr_copy_threads();
    for (int i = 0; i < 2; i++) {
        cl_int cl_rc = CL_SUCCESS;
        s->buf[i] = clCreateBuffer(ctx->context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY, STAGE_BYTES, NULL, &cl_rc);
        CLIRR_CL_CHECK(cl_rc, "clCreateBuffer (pinned staging)");
        s->host[i] = clEnqueueMapBuffer(ctx->queue, s->buf[i], CL_TRUE, CL_MAP_WRITE, 0, STAGE_BYTES, 0, NULL,
                                        NULL, &cl_rc);
        CLIRR_CL_CHECK(cl_rc, "clEnqueueMapBuffer (pinned staging)");
    }
    return CLIRR_OK;
fail:
    clirr_upload_stage_release(ctx);
    clirr_fail_context(err, "making the pinned upload staging on %s", ctx->device.caps.name);
    return rc;
}

int clirr_upload_staged(clirr_ctx *ctx, cl_mem mem, size_t offset, size_t bytes, const void *src,
                        clirr_error *err)
{
    int rc = CLIRR_OK;
    /* Earlier queued work is not the copy's time. */
    clFinish(ctx->queue);
    uint64_t t0 = clirr_now_ns();
    if (!ctx->stage)
        CLIRR_TRY(stage_open(ctx, err));
    clirr_upload_stage *s = ctx->stage;
    const char *from = src;
    int i = 0;
    for (size_t done = 0, n; done < bytes; done += n, i ^= 1) {
        n = bytes - done < STAGE_BYTES ? bytes - done : STAGE_BYTES;
        wait_busy(s, i);
        clirr_parallel_copy(s->threads, s->host[i], from + done, n);
        CLIRR_CL_TRY(clEnqueueWriteBuffer(ctx->queue, mem, CL_FALSE, offset + done, n, s->host[i], 0, NULL,
                                          &s->busy[i]));
        clFlush(ctx->queue);
    }
fail:
    /* Also on failure: no copy may still read a staging buffer. */
    if (ctx->stage) {
        wait_busy(ctx->stage, 0);
        wait_busy(ctx->stage, 1);
    }
    if (rc == CLIRR_OK) {
        ctx->acc.transfers++;
        ctx->acc.transfer_ns += clirr_now_ns() - t0;
        ctx->acc.upload_bytes += bytes;
        ctx->acc.upload_pinned_bytes += bytes;
    }
    return rc;
}

void clirr_ctx_set_upload_mode(clirr_ctx *ctx, clirr_upload_mode mode) { ctx->upload_mode = mode; }

bool clirr_upload_wants_staging(const clirr_ctx *ctx, size_t bytes)
{
    if (bytes < CLIRR_UPLOAD_STAGED_MIN || !clirr_ctx_uploads_pinned(ctx))
        return false;
    return ctx->upload_mode == CLIRR_UPLOAD_PINNED || ctx->stage || bytes >= FIRST_STAGED;
}

bool clirr_ctx_uploads_pinned(const clirr_ctx *ctx)
{
    return ctx->upload_mode == CLIRR_UPLOAD_PINNED ||
           (ctx->upload_mode == CLIRR_UPLOAD_AUTO && !ctx->device.caps.host_unified);
}
