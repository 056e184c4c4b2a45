/* host/runtime/hugepages.c - CPU devices' large buffers in host memory
 * advised to use transparent huge pages.
 *
 * A CPU device's buffer is host memory; the runtimes take it in 4 KiB
 * pages, so a gather over tens of megabytes (PageRank's contributions,
 * SSSP's distances) misses the TLB on nearly every read. Given memory of
 * our own, 2 MiB-aligned and advised MADV_HUGEPAGE, through
 * CL_MEM_USE_HOST_PTR (which PoCL and Intel's runtime use in place), the
 * kernel maps it in 2 MiB pages where it can. On the H200 machine's
 * 16-core Xeon (PoCL 5, THP "madvise"), 20 PageRank iterations on
 * GAPBS's urand 2^23 took 366-405 ms against 446-538 (three rounds), and
 * uploads half the time (fewer page faults); tests/bench/RESULTS.md, "Huge
 * pages for CPU devices' buffers". Where the system gives no huge pages
 * the advice is a no-op. */
#include "runtime/context.h"

#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

void clirr_ctx_set_huge_pages(clirr_ctx *ctx, bool on) { ctx->no_huge_pages = !on; }

bool clirr_ctx_huge_pages(const clirr_ctx *ctx)
{
#ifdef MADV_HUGEPAGE
    return !ctx->no_huge_pages && ctx->device.caps.host_unified;
#else
    return false;
#endif
}

static void CL_CALLBACK free_host(cl_mem mem, void *host)
{
    (void)mem;
    free(host);
}

cl_mem clirr_huge_buffer(clirr_ctx *ctx, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes < HUGE_PAGE || !clirr_ctx_huge_pages(ctx))
        return NULL;
    size_t size = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *host = NULL;
    if (posix_memalign(&host, HUGE_PAGE, size) != 0)
        return NULL;
    /* Advice only: refused, the memory is still good in small pages. */
    (void)madvise(host, size, MADV_HUGEPAGE);
    cl_int rc = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host, &rc);
    if (rc == CL_SUCCESS && clSetMemObjectDestructorCallback(mem, free_host, host) == CL_SUCCESS) {
        ctx->acc.huge_page_bytes += bytes;
        return mem;
    }
    /* The caller allocates an ordinary buffer instead. */
    if (rc == CL_SUCCESS)
        clReleaseMemObject(mem);
    free(host);
#else
    (void)ctx;
    (void)bytes;
#endif
    return NULL;
}
