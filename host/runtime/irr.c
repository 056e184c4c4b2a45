/* host/runtime/irr.c - the irregularity recorder of a context: the record
 * buffer every instrumented kernel takes as its last parameter (named
 * irr_rec, found through the kernel's argument info), the read-back and
 * folding after each launch, and the per-kernel report
 * (include/clirr/irregularity.h). A context without it builds and runs
 * exactly as before. */
#include "clirr/clock.h"
#include "runtime/context.h"
#include "runtime/irr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IRR_DEFAULT_RECORDS (4u << 20)
#define IRR_ARG_UNKNOWN (-2) /* no argument names: see clirr_irr_kernel_checked */

struct clirr_irr_state {
    uint32_t backend;           /* CLIRR_IRR_MODEL or CLIRR_IRR_WARP */
    uint32_t simd_width, segment, banks, sample;
    uint64_t capacity;          /* records per launch */
    cl_mem buf;
    uint32_t *host;             /* read-back of the records */
    clirr_irr_scratch fold;     /* the fold's room, reused */
    size_t host_words;
    clirr_irr_report rep;
    int status;                 /* first failure during a launch's read-back */
    clirr_error err;
};

static int write_header(clirr_ctx *ctx, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_irr_state *s = ctx->irr;
    uint32_t h[IRR_HEADER] = {0};
    h[IRR_H_CAP] = (uint32_t)s->capacity;
    h[IRR_H_SAMPLE] = s->sample;
    CLIRR_CL_TRY(clEnqueueWriteBuffer(ctx->queue, s->buf, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL));
fail:
    return rc;
}

/* Warp back end: the header and every site's counters to zero. */
static int clear_sites(clirr_ctx *ctx, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_irr_state *s = ctx->irr;
    size_t bytes = IRR_HEADER * sizeof(uint32_t) + IRR_SITES * IRR_SITE_WORDS * sizeof(uint64_t);
    if (bytes > s->host_words * sizeof(uint32_t)) {
        uint32_t *grown = realloc(s->host, bytes);
        if (!grown)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        s->host = grown;
        s->host_words = bytes / sizeof(uint32_t);
    }
    memset(s->host, 0, bytes);
    CLIRR_CL_TRY(clEnqueueWriteBuffer(ctx->queue, s->buf, CL_TRUE, 0, bytes, s->host, 0, NULL, NULL));
fail:
    return rc;
}

/* The warp back end's requirements: NVIDIA's warp (its warp-size query
 * answered), compute capability 8.0+ (match.any is 7.0, redux.sync 8.0). */
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV_ 0x4000
static int warp_supported(clirr_ctx *ctx, clirr_error *err)
{
    const clirr_caps *c = &ctx->device.caps;
    cl_uint major = 0;
    if (strcmp(c->simd_width_source, "CL_DEVICE_WARP_SIZE_NV") || c->simd_width != 32 ||
        clGetDeviceInfo(ctx->device.id, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV_, sizeof major, &major,
                        NULL) != CL_SUCCESS)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "the warp back end needs an NVIDIA GPU (inline PTX); %s is none: use the model",
                          c->name);
    if (major < 8)
        return clirr_fail(err, CLIRR_ERR_UNSUPPORTED,
                          "the warp back end needs compute capability 8.0 (redux.sync); %s has %u.x",
                          c->name, major);
    return CLIRR_OK;
}

/* Records the device's buffer can hold: half its largest allocation. */
static uint64_t records_that_fit(const clirr_caps *c)
{
    return c->max_alloc / 2 / (IRR_WORDS * sizeof(uint32_t));
}

static int buffer_make(clirr_ctx *ctx, clirr_error *err)
{
    clirr_irr_state *s = ctx->irr;
    size_t bytes = s->backend == CLIRR_IRR_WARP
                       ? IRR_HEADER * sizeof(uint32_t) + IRR_SITES * IRR_SITE_WORDS * sizeof(uint64_t)
                       : (IRR_HEADER + (size_t)s->capacity * IRR_WORDS) * sizeof(uint32_t);
    int rc = clirr_buf_create(ctx, "irregularity records", bytes, &s->buf, err);
    s->rep.capacity = s->backend == CLIRR_IRR_WARP ? 0 : s->capacity;
    if (rc != CLIRR_OK)
        return rc;
    return s->backend == CLIRR_IRR_WARP ? clear_sites(ctx, err) : write_header(ctx, err);
}

int clirr_ctx_irr_grow(clirr_ctx *ctx, uint64_t records, clirr_error *err)
{
    clirr_irr_state *s = ctx->irr;
    if (!s)
        return clirr_fail(err, CLIRR_ERR_USAGE, "the irregularity recorder is not enabled");
    if (records <= s->capacity || s->backend == CLIRR_IRR_WARP)
        return CLIRR_OK;
    const clirr_caps *c = &ctx->device.caps;
    if (records > records_that_fit(c) || records > UINT32_MAX - 64)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                          "%llu irregularity records per launch (%llu bytes) do not fit %s's largest "
                          "buffer",
                          (unsigned long long)records,
                          (unsigned long long)records * IRR_WORDS * sizeof(uint32_t), c->name);
    int rc = clirr_finish(ctx, err);
    if (rc != CLIRR_OK)
        return rc;
    uint64_t old = s->capacity;
    clirr_mem_release(&s->buf);
    s->capacity = records;
    rc = buffer_make(ctx, err);
    if (rc != CLIRR_OK) { /* the device refused it: back to the old size */
        clirr_mem_release(&s->buf);
        s->capacity = old;
        if (buffer_make(ctx, NULL) != CLIRR_OK) {
            s->status = rc; /* no buffer at all: launches refuse to run */
            if (err)
                s->err = *err;
        }
    }
    return rc;
}

int clirr_ctx_irr_enable(clirr_ctx *ctx, const clirr_irr_options *opt, clirr_error *err)
{
    int rc = CLIRR_OK;
    if (ctx->irr)
        return CLIRR_OK;
    if (ctx->programs)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "the irregularity recorder must be enabled before any program is built");
    clirr_irr_state *s = calloc(1, sizeof *s);
    if (!s)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    clirr_caps *c = &ctx->device.caps;
    s->backend = opt->backend;
    s->rep.backend = s->backend == CLIRR_IRR_WARP ? "warp" : "model";
    if (s->backend == CLIRR_IRR_WARP) {
        int wrc = warp_supported(ctx, err);
        if (wrc == CLIRR_OK && ((opt->simd_width && opt->simd_width != 32) || opt->sample > 1 || opt->records))
            wrc = clirr_fail(err, CLIRR_ERR_USAGE,
                             "the warp back end counts the hardware's 32-lane warps, every one: no "
                             "--simd-width, --irr-sample or --irr-records");
        if (wrc != CLIRR_OK) {
            free(s);
            return wrc;
        }
    }
    s->simd_width = opt->simd_width ? opt->simd_width : c->simd_width ? c->simd_width : 32;
    s->segment = opt->segment ? opt->segment : c->cacheline;
    if (!s->segment) {
        s->segment = 64;
        snprintf(s->rep.notes, sizeof s->rep.notes,
                 "%s reports no cache-line size: segments of 64 bytes assumed", c->name);
    }
    s->banks = opt->banks ? opt->banks : 32;
    s->sample = opt->sample > 1 ? opt->sample : 1;
    if (s->simd_width > 4096 || s->banks > 4096) {
        free(s);
        return clirr_fail(err, CLIRR_ERR_USAGE, "SIMD width and banks must be at most 4096");
    }
    /* Room for the capacity asked for; the default shrinks to half the
     * device's largest buffer, an explicit capacity that does not fit is
     * refused. */
    uint64_t fit = records_that_fit(c);
    s->capacity = opt->records ? opt->records : IRR_DEFAULT_RECORDS;
    if (s->capacity > UINT32_MAX - 64) {
        free(s);
        return clirr_fail(err, CLIRR_ERR_USAGE, "at most %u records per launch", UINT32_MAX - 64);
    }
    if (s->capacity > fit) {
        if (opt->records) {
            free(s);
            return clirr_fail(err, CLIRR_ERR_TOO_LARGE,
                              "%llu irregularity records (%llu bytes) do not fit %s's largest buffer",
                              (unsigned long long)opt->records,
                              (unsigned long long)opt->records * IRR_WORDS * 4, c->name);
        }
        s->capacity = fit;
    }
    s->rep.simd_width = s->simd_width;
    s->rep.segment = s->segment;
    s->rep.banks = s->banks;
    s->rep.sample = s->sample;
    ctx->irr = s;
    CLIRR_TRY(buffer_make(ctx, err));
    /* Child kernels enqueued on the device would escape the records: such
     * a context runs none. The kernels' argument names tell the host which
     * kernels take the buffer. */
    c->device_enqueue = false;
    clirr_caps_build_options(c, ctx->cap_options, sizeof ctx->cap_options);
    size_t len = strlen(ctx->cap_options);
    if (s->backend == CLIRR_IRR_WARP)
        snprintf(ctx->cap_options + len, sizeof ctx->cap_options - len,
                 " -DCLIRR_IRREG=2 -DIRR_SEGMENT=%u -DIRR_BANKS=%u -cl-kernel-arg-info", s->segment,
                 s->banks);
    else
        snprintf(ctx->cap_options + len, sizeof ctx->cap_options - len,
                 " -DCLIRR_IRREG=1 -cl-kernel-arg-info");
    return CLIRR_OK;
fail:
    clirr_irr_free(ctx);
    return rc;
}

void clirr_irr_free(clirr_ctx *ctx)
{
    clirr_irr_state *s = ctx->irr;
    if (!s)
        return;
    clirr_mem_release(&s->buf);
    free(s->host);
    clirr_irr_scratch_free(&s->fold);
    free(s);
    ctx->irr = NULL;
}

void clirr_irr_kernel_created(clirr_ctx *ctx, clirr_kernel_entry *e)
{
    e->irr_arg = -1;
    if (!ctx->irr || e->nargs == 0)
        return;
    char name[32] = "";
    cl_int rc = clGetKernelArgInfo(e->kernel, e->nargs - 1, CL_KERNEL_ARG_NAME, sizeof name, name, NULL);
    if (rc == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) {
        e->irr_arg = IRR_ARG_UNKNOWN; /* a cached binary: decided by the count */
        return;
    }
    if (rc != CL_SUCCESS || strcmp(name, "irr_rec"))
        return;
    /* The buffer is not in the kernel's .def list: hide it from the
     * argument count the host checks. */
    e->nargs--;
    e->irr_arg = (int)e->nargs;
}

void clirr_irr_kernel_checked(clirr_ctx *ctx, clirr_kernel_entry *e, cl_uint nargs)
{
    if (!ctx->irr || e->irr_arg != IRR_ARG_UNKNOWN)
        return;
    e->irr_arg = -1;
    if (e->nargs == nargs + 1) {
        e->nargs = nargs;
        e->irr_arg = (int)nargs;
    }
}

static clirr_irr_kernel *report_row(clirr_irr_state *s, const char *name)
{
    clirr_irr_report *r = &s->rep;
    for (size_t i = 0; i < r->nkernels; i++)
        if (!strcmp(r->kernels[i].name, name))
            return &r->kernels[i];
    if (r->nkernels == CLIRR_IRR_MAX_KERNELS)
        return NULL;
    clirr_irr_kernel *k = &r->kernels[r->nkernels++];
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    return k;
}

int clirr_irr_before_launch(clirr_ctx *ctx, cl_kernel kernel, const clirr_kernel_entry *e,
                            clirr_error *err)
{
    int rc = CLIRR_OK;
    if (!ctx->irr || !e || e->irr_arg < 0)
        return CLIRR_OK;
    if (!ctx->irr->buf)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "no irregularity record buffer (a larger one failed)");
    CLIRR_CL_TRY(clSetKernelArg(kernel, (cl_uint)e->irr_arg, sizeof(cl_mem), &ctx->irr->buf));
fail:
    return rc;
}

/* Warp back end: add every site's counters to k, then clear them. */
static int harvest_sites(clirr_ctx *ctx, clirr_irr_kernel *k, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_irr_state *s = ctx->irr;
    size_t bytes = IRR_HEADER * sizeof(uint32_t) + IRR_SITES * IRR_SITE_WORDS * sizeof(uint64_t);
    uint64_t t0 = clirr_now_ns();
    CLIRR_CL_TRY(clEnqueueReadBuffer(ctx->queue, s->buf, CL_TRUE, 0, bytes, s->host, 0, NULL, NULL));
    uint64_t t1 = clirr_now_ns();
    s->rep.read_s += (t1 - t0) / 1e9;
    s->rep.read_bytes += bytes;
    k->dropped += s->host[IRR_H_DROPPED];
    const uint64_t *c = (const uint64_t *)(s->host + IRR_HEADER);
    for (size_t i = 0; i < IRR_SITES; i++, c += IRR_SITE_WORDS) {
        uint64_t inst = c[1], lanes = c[2], count = c[3], bytes_asked = c[4];
        if (!inst)
            continue;
        uint32_t kind = (uint32_t)(c[0] & 0xff);
        k->records += lanes;
        k->lanes += lanes;
        k->lane_slots += inst * 32;
        switch (kind) {
        case IRR_K_BRANCH:
            k->branches += inst;
            k->divergent += count;
            break;
        case IRR_K_GLD:
        case IRR_K_GST:
        case IRR_K_GAT:
            k->gmem += inst;
            k->gmem_replays += count - inst;
            if (kind == IRR_K_GLD) {
                k->gld += inst;
                k->gld_requested += bytes_asked;
                k->gld_moved += count * s->segment;
            } else {
                k->gst += inst;
                k->gst_requested += bytes_asked;
                k->gst_moved += count * s->segment;
            }
            break;
        case IRR_K_LLD:
        case IRR_K_LST:
        case IRR_K_LAT:
            k->lmem += inst;
            k->lmem_replays += count - inst;
            break;
        default:
            return clirr_fail(err, CLIRR_ERR_INPUT, "irregularity site %zu of unknown kind %u", i, kind);
        }
    }
    CLIRR_TRY(clear_sites(ctx, err));
    s->rep.fold_s += (clirr_now_ns() - t1) / 1e9;
fail:
    return rc;
}

/* Read and fold what the launch of `name` recorded, then clear the buffer. */
static int harvest(clirr_ctx *ctx, const char *name, bool instrumented, clirr_error *err)
{
    int rc = CLIRR_OK;
    clirr_irr_state *s = ctx->irr;
    clirr_irr_kernel *k = report_row(s, name);
    if (!k)
        return clirr_fail(err, CLIRR_ERR_USAGE, "more than %d kernels to profile in one case",
                          CLIRR_IRR_MAX_KERNELS);
    k->launches++;
    if (!instrumented)
        return CLIRR_OK;
    k->instrumented = true;
    uint64_t t0 = clirr_now_ns();
    CLIRR_CL_TRY(clFinish(ctx->queue));
    uint64_t t1 = clirr_now_ns();
    s->rep.wait_s += (t1 - t0) / 1e9;
    if (s->backend == CLIRR_IRR_WARP)
        return harvest_sites(ctx, k, err);
    uint32_t h[IRR_HEADER];
    CLIRR_CL_TRY(clEnqueueReadBuffer(ctx->queue, s->buf, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL));
    size_t n = h[IRR_H_CURSOR] < s->capacity ? h[IRR_H_CURSOR] : (size_t)s->capacity;
    k->dropped += h[IRR_H_DROPPED];
    if (n + h[IRR_H_DROPPED] > s->rep.largest_launch)
        s->rep.largest_launch = n + h[IRR_H_DROPPED];
    if (n) {
        size_t words = n * IRR_WORDS;
        if (words > s->host_words) {
            uint32_t *grown = realloc(s->host, words * sizeof *grown);
            if (!grown)
                return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reading %zu records", n);
            s->host = grown;
            s->host_words = words;
        }
        uint64_t t2 = clirr_now_ns();
        CLIRR_CL_TRY(clEnqueueReadBuffer(ctx->queue, s->buf, CL_TRUE, IRR_HEADER * sizeof(uint32_t),
                                         words * sizeof(uint32_t), s->host, 0, NULL, NULL));
        uint64_t t3 = clirr_now_ns();
        CLIRR_TRY(clirr_irr_fold_reusing(&s->fold, s->host, n, s->simd_width, s->segment, s->banks, k, err));
        s->rep.read_s += (t3 - t2) / 1e9;
        s->rep.fold_s += (clirr_now_ns() - t3) / 1e9;
        s->rep.read_bytes += words * sizeof(uint32_t);
        unsigned threads = clirr_irr_fold_threads(n);
        if (threads > s->rep.fold_threads)
            s->rep.fold_threads = threads;
    }
    if (n || h[IRR_H_DROPPED])
        CLIRR_TRY(write_header(ctx, err));
fail:
    return rc;
}

void clirr_irr_after_launch(clirr_ctx *ctx, const char *name, bool instrumented)
{
    clirr_irr_state *s = ctx->irr;
    if (!s || s->status != CLIRR_OK)
        return;
    clirr_error_clear(&s->err);
    s->status = harvest(ctx, name, instrumented, &s->err);
}

int clirr_ctx_irr_take(clirr_ctx *ctx, clirr_irr_report *out, clirr_error *err)
{
    clirr_irr_state *s = ctx->irr;
    if (!s)
        return clirr_fail(err, CLIRR_ERR_USAGE, "the irregularity recorder is not enabled");
    int rc = clirr_finish(ctx, err);
    if (rc == CLIRR_OK && s->status != CLIRR_OK) {
        rc = s->status;
        if (err)
            *err = s->err;
    }
    *out = s->rep;
    s->rep.nkernels = 0;
    s->rep.largest_launch = s->rep.read_bytes = 0;
    s->rep.wait_s = s->rep.read_s = s->rep.fold_s = 0;
    s->rep.fold_threads = 0;
    s->status = CLIRR_OK;
    return rc;
}
