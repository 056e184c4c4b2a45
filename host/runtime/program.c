/* host/runtime/program.c - building kernel programs: from the context's own
 * list when built before, else from the on-disk binary cache, else from the
 * source (whose binary is then cached). A failed build reports the device,
 * the options and the compiler's log. */
#include "runtime/bincache.h"
#include "runtime/context.h"
#include "runtime/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Put the build log of a failed build into err after `what`. */
static int build_failure(clirr_ctx *ctx, cl_program prog, cl_int code, const char *file,
                         const char *options, clirr_error *err)
{
    size_t len = 0;
    char *log = NULL;
    if (clGetProgramBuildInfo(prog, ctx->device.id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) == CL_SUCCESS &&
        len > 0 && (log = calloc(1, len + 1)) != NULL &&
        clGetProgramBuildInfo(prog, ctx->device.id, CL_PROGRAM_BUILD_LOG, len, log, NULL) != CL_SUCCESS)
        log[0] = '\0';
    int rc = clirr_fail(err, CLIRR_ERR_OPENCL,
                        "building %s for %s failed: %s\noptions: %s\nbuild log:\n%s",
                        file, ctx->device.caps.name, clirr_cl_errname(code), options,
                        log && log[0] ? log : "(empty)");
    free(log);
    return rc;
}

static int build(clirr_ctx *ctx, cl_program prog, const char *file, const char *options,
                 clirr_error *err)
{
    cl_int rc = clBuildProgram(prog, 1, &ctx->device.id, options, NULL, NULL);
    if (rc != CL_SUCCESS)
        return build_failure(ctx, prog, rc, file, options, err);
    return CLIRR_OK;
}

/* The built binary of prog for our one device (malloc'd), or NULL. */
static unsigned char *program_binary(cl_program prog, size_t *size)
{
    *size = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL) != CL_SUCCESS ||
        *size == 0)
        return NULL;
    unsigned char *bin = malloc(*size);
    if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
        free(bin);
        bin = NULL;
    }
    return bin;
}

/* Try the cached binary; on any failure leave *prog NULL (and count a
 * rejected entry) so the caller builds from source. */
static void load_cached(clirr_ctx *ctx, const clirr_cache_key *key, const char *options,
                        cl_program *prog)
{
    unsigned char *bin = NULL;
    size_t size = 0;
    bool corrupt = false;
    *prog = NULL;
    if (!clirr_cache_load(key, &bin, &size, &corrupt)) {
        ctx->cache.rejected += corrupt;
        return;
    }
    cl_int status = CL_SUCCESS, rc = CL_SUCCESS;
    const unsigned char *bins[1] = {bin};
    cl_program p = clCreateProgramWithBinary(ctx->context, 1, &ctx->device.id, &size, bins,
                                             &status, &rc);
    free(bin);
    if (rc == CL_SUCCESS && status == CL_SUCCESS &&
        clBuildProgram(p, 1, &ctx->device.id, options, NULL, NULL) == CL_SUCCESS) {
        *prog = p;
        ctx->cache.binary_loads++;
        return;
    }
    if (p)
        clReleaseProgram(p);
    ctx->cache.rejected++;
}

/* clirr_program_build_source without the clock (its callers time it). */
static int build_source(clirr_ctx *ctx, const char *label, const char *source,
                        const char *options, cl_program *program, clirr_error *err)
{
    int rc = CLIRR_OK;
    cl_program prog = NULL;
    char *full = NULL, *expanded = NULL;
    const char *extra = options ? options : "";
    const char *dir = NULL;
    CLIRR_TRY(clirr_kernel_dir(&dir, err));
    CLIRR_TRY(clirr_source_expand(dir, label, source, &expanded, err));
    source = expanded;
    size_t full_len = strlen(ctx->cap_options) + strlen(extra) + 2;
    if (!(full = malloc(full_len))) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    snprintf(full, full_len, "%s %s", ctx->cap_options, extra);

    const clirr_caps *c = &ctx->device.caps;
    clirr_cache_key key = clirr_cache_key_make(c->platform, c->platform_version, c->name,
                                               c->version, c->driver, full, source);
    /* A profiling context's binaries are cached under their own key (its
     * options hold -DCLIRR_IRREG=1); clirr_irr_kernel_checked finds the
     * record buffer of a kernel whose binary kept no argument names. */
    load_cached(ctx, &key, full, &prog);
    if (!prog) {
        cl_int cl_rc = CL_SUCCESS;
        prog = clCreateProgramWithSource(ctx->context, 1, &source, NULL, &cl_rc);
        CLIRR_CL_CHECK(cl_rc, "clCreateProgramWithSource");
        CLIRR_TRY(build(ctx, prog, label, full, err));
        ctx->cache.source_builds++;
        size_t size = 0;
        unsigned char *bin = program_binary(prog, &size);
        if (bin && clirr_cache_store(&key, bin, size))
            ctx->cache.stored++;
        free(bin);
    }
    *program = prog;
    free(full);
    free(expanded);
    return CLIRR_OK;
fail:
    if (prog)
        clReleaseProgram(prog);
    free(full);
    free(expanded);
    return rc;
}

int clirr_program_build_source(clirr_ctx *ctx, const char *label, const char *source,
                               const char *options, cl_program *program, clirr_error *err)
{
    uint64_t t0 = clirr_now_ns();
    int rc = build_source(ctx, label, source, options, program, err);
    ctx->acc.build_ns += clirr_now_ns() - t0;
    return rc;
}

int clirr_program_get(clirr_ctx *ctx, const char *file, const char *options,
                      cl_program *program, clirr_error *err)
{
    int rc = CLIRR_OK;
    const char *extra = options ? options : "";
    for (clirr_program_entry *e = ctx->programs; e; e = e->next)
        if (!strcmp(e->file, file) && !strcmp(e->options, extra)) {
            *program = e->program;
            return CLIRR_OK;
        }

    uint64_t t0 = clirr_now_ns();
    char *source = NULL;
    cl_program prog = NULL;
    clirr_program_entry *entry = NULL;
    const char *dir = NULL;
    CLIRR_TRY(clirr_kernel_dir(&dir, err));
    CLIRR_TRY(clirr_source_read(dir, file, &source, err));
    CLIRR_TRY(build_source(ctx, file, source, extra, &prog, err));
    if (!(entry = calloc(1, sizeof *entry)) || !(entry->file = strdup(file)) ||
        !(entry->options = strdup(extra))) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
        goto fail;
    }
    entry->program = prog;
    entry->next = ctx->programs;
    ctx->programs = entry;
    ctx->acc.build_ns += clirr_now_ns() - t0;
    *program = prog;
    free(source);
    return CLIRR_OK;
fail:
    ctx->acc.build_ns += clirr_now_ns() - t0;
    if (entry) {
        free(entry->file);
        free(entry->options);
        free(entry);
    }
    if (prog)
        clReleaseProgram(prog);
    free(source);
    return rc;
}
