/* clirr/device.h - OpenCL platforms and devices, their capabilities, and the
 * context (device + queue + program cache + timing) every run works in. */
#ifndef CLIRR_DEVICE_H
#define CLIRR_DEVICE_H

#include "clirr/export.h"

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clirr/clock.h"
#include "clirr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a device can do, probed once when devices are listed. */
typedef struct clirr_caps {
    char name[256];
    char vendor[256];
    char platform[256];          /* platform name */
    char platform_version[256];
    char version[256];           /* CL_DEVICE_VERSION */
    char driver[256];            /* CL_DRIVER_VERSION */
    char c_version[256];         /* CL_DEVICE_OPENCL_C_VERSION */
    int cl_major, cl_minor;      /* device OpenCL version */
    int c_major, c_minor;        /* highest OpenCL C version it compiles */
    bool c_2_0;                  /* accepts -cl-std=CL2.0 */
    bool c_3_0;                  /* accepts -cl-std=CL3.0 */
    bool is_cpu, is_gpu, is_accelerator;
    bool device_enqueue;         /* device-side enqueue (enqueue_kernel) */
    size_t queue_on_device_max_size;
    bool wg_collectives;         /* work_group_scan/reduce/broadcast */
    bool subgroups;
    bool generic_address_space;
    bool int64_atomics;          /* cl_khr_int64_base_atomics */
    bool int64_extended_atomics; /* cl_khr_int64_extended_atomics (min/max) */
    bool fp64;
    bool fp32_exact_divide;      /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in
                                    CL_DEVICE_SINGLE_FP_CONFIG: builds may ask
                                    for -cl-fp32-correctly-rounded-divide-sqrt */
    bool local_mem_dedicated;    /* CL_LOCAL vs CL_GLOBAL local memory */
    uint64_t local_mem;          /* bytes of local memory per work-group */
    uint64_t global_mem;
    uint64_t max_alloc;          /* largest single buffer */
    uint32_t compute_units;
    uint32_t clock_mhz;          /* CL_DEVICE_MAX_CLOCK_FREQUENCY */
    uint32_t float_vector;       /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT */
    uint32_t nv_cc;              /* NVIDIA compute capability x 10 (90:
                                    9.0), 0 elsewhere */
    size_t max_wg_size;
    uint32_t simd_width;         /* lanes that execute in lock step */
    char simd_width_source[64];  /* which query gave simd_width */
    uint32_t mem_base_align;     /* bytes; sub-buffer origin alignment */
    uint32_t cacheline;          /* CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, bytes
                                    (0 when the device does not say) */
    uint64_t global_cache;       /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, bytes (0 when
                                    not said; an H100 says 4 MiB, not its L2) */
    bool profiling;              /* queue profiling supported */
    bool host_unified;           /* CL_DEVICE_HOST_UNIFIED_MEMORY: the device
                                    works in the host's memory (CPUs) */
} clirr_caps;

typedef struct clirr_device {
    unsigned index;              /* position in clirr_device_list order */
    cl_platform_id platform;
    cl_device_id id;
    clirr_caps caps;
} clirr_device;

/* Enumerate every device of every platform, in platform order, and probe
 * each. A platform that fails to answer is skipped. Returns CLIRR_ERR_OPENCL
 * when no platform or device is found; the list is freed with free(). */
CLIRR_API int clirr_device_list(clirr_device **devices, size_t *count, clirr_error *err);

/* Probe one device. */
CLIRR_API int clirr_caps_probe(cl_platform_id platform, cl_device_id device,
                     clirr_caps *caps, clirr_error *err);

/* Select devices. selector: NULL or "" uses env CLIRR_DEVICE, then "auto".
 *   "all"          every device
 *   "auto"         the first GPU, else the first device
 *   "cpu" | "gpu"  every device of that type
 *   N[,N...]       by index
 *   other text     devices whose name, vendor or platform contains it
 *                  (case-insensitive)
 * Fills picked[] (caller allocates count entries) with indices and sets
 * *npicked. Returns CLIRR_ERR_USAGE when nothing matches. */
CLIRR_API int clirr_device_select(const clirr_device *devices, size_t count,
                        const char *selector, size_t *picked, size_t *npicked,
                        clirr_error *err);

/* "cpu", "gpu", "accelerator" or "other". */
CLIRR_API const char *clirr_caps_type_name(const clirr_caps *caps);

/* An open device: context, in-order profiling queue, program cache and the
 * kernel/transfer time accumulated since the last clirr_ctx_timing_reset. */
typedef struct clirr_ctx clirr_ctx;

CLIRR_API int clirr_ctx_create(const clirr_device *device, clirr_ctx **ctx,
                     clirr_error *err);
CLIRR_API void clirr_ctx_release(clirr_ctx *ctx);
CLIRR_API const clirr_caps *clirr_ctx_caps(const clirr_ctx *ctx);

/* How large host-to-device copies travel. A copy from ordinary (pageable)
 * memory goes through the driver's own small staging; from page-locked
 * (pinned) memory the device reads the host directly (on the H100's PCIe 5
 * x16: 55 against 8 GB/s). PINNED stages copies of CLIRR_UPLOAD_STAGED_MIN
 * bytes or more through two pinned buffers of the context, filled by
 * several host threads while the device reads the other; AUTO does so on
 * devices with memory of their own (not host_unified), from the first copy
 * large enough to repay the pinning (host/runtime/upload.c). */
typedef enum clirr_upload_mode {
    CLIRR_UPLOAD_AUTO,
    CLIRR_UPLOAD_PINNED,
    CLIRR_UPLOAD_PAGEABLE,
} clirr_upload_mode;
#define CLIRR_UPLOAD_STAGED_MIN (4u << 20)
CLIRR_API void clirr_ctx_set_upload_mode(clirr_ctx *ctx, clirr_upload_mode mode);
/* Whether large uploads on ctx are staged through pinned memory. */
CLIRR_API bool clirr_ctx_uploads_pinned(const clirr_ctx *ctx);

/* Huge pages for a CPU device's buffers (on by default). A device working
 * in the host's memory (host_unified) gets each buffer of 2 MiB or more in
 * host memory of clirr's own, 2 MiB-aligned and advised MADV_HUGEPAGE
 * (CL_MEM_USE_HOST_PTR), so that random gathers over large arrays miss the
 * TLB less (PageRank on a 16-core Xeon: 0.75-0.82 of the time with 4 KiB
 * pages). Whether the pages are huge is the system's choice (Linux THP
 * "always" or "madvise"). Set before the buffers are made. */
CLIRR_API void clirr_ctx_set_huge_pages(clirr_ctx *ctx, bool on);
/* Whether ctx makes its large buffers so: on, a host_unified device, an
 * OS with MADV_HUGEPAGE. */
CLIRR_API bool clirr_ctx_huge_pages(const clirr_ctx *ctx);

/* The -D and -cl-std options every kernel is built with on this device,
 * derived from its capabilities (clirr_caps_build_options: the same from
 * the capabilities alone, into buf). */
CLIRR_API const char *clirr_ctx_cap_options(const clirr_ctx *ctx);
CLIRR_API void clirr_caps_build_options(const clirr_caps *caps, char *buf, size_t size);

/* Device time of one kernel (by function name), of device-side copies
 * ("copy") or of buffer fills ("fill"). */
#define CLIRR_MAX_TIMED_KERNELS 48
typedef struct clirr_kernel_time {
    char name[64];
    uint64_t launches;      /* launches (copies) harvested */
    uint64_t ns;            /* their summed execution time (profiling) */
} clirr_kernel_time;

typedef struct clirr_timing {
    uint64_t kernel_ns;     /* sum of kernel execution and device-side copies
                               (profiling events) */
    uint64_t transfer_ns;   /* sum of host<->device copies (profiling) */
    uint64_t launches;      /* kernels enqueued */
    uint64_t transfers;     /* host<->device copies */
    uint64_t upload_bytes;  /* bytes copied host -> device */
    uint64_t upload_pinned_bytes; /* of them, staged through pinned memory */
    uint64_t huge_page_bytes; /* buffers made in host memory advised to use
                                 huge pages (clirr_ctx_set_huge_pages) */
    uint64_t build_ns;      /* program builds, binary-cache loads and kernel
                               creation (wall clock) */
    /* kernel_ns by name, in order of first launch; their ns add up to
     * kernel_ns. Names past the table's size share a last row, "other". */
    size_t nkernels;
    clirr_kernel_time kernels[CLIRR_MAX_TIMED_KERNELS];
} clirr_timing;

/* Kernel timing: every launch and device-side copy takes a profiling
 * event, which gives kernel_ns and the per-kernel rows. On by default.
 * The events cost host time at each launch: on an H200 with NVIDIA's
 * OpenCL, 13 us an enqueue against 6 without (tests/bench/RESULTS.md,
 * "Launches without profiling events"), so a run of thousands of short
 * rounds ends later. Off, launches and copies take no event: kernel_ns
 * and the per-kernel rows stay 0; launches, transfers and their times are
 * kept. clirr bench times its trials with it off and takes the kernel
 * times from as many trials again with it on. */
CLIRR_API void clirr_ctx_set_kernel_timing(clirr_ctx *ctx, bool on);
CLIRR_API bool clirr_ctx_kernel_timing(const clirr_ctx *ctx);

/* clirr_ctx_timing waits for all queued work, then reports and resets the
 * accumulated times. clirr_ctx_timing_reset also waits first, so work
 * enqueued before it is never counted after it. */
CLIRR_API int clirr_ctx_timing(clirr_ctx *ctx, clirr_timing *out, clirr_error *err);
CLIRR_API void clirr_ctx_timing_reset(clirr_ctx *ctx);

/* OpenCL error code name, e.g. -5 -> "CL_OUT_OF_RESOURCES". */
CLIRR_API const char *clirr_cl_errname(cl_int code);


#ifdef __cplusplus
}
#endif
#endif
