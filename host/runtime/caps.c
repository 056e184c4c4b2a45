/* host/runtime/caps.c - the capability probe: what one device can do, read
 * once through clGetDeviceInfo. Queries a device does not know (older
 * OpenCL versions, missing extensions) count as "not supported". */
#include "runtime/runtime.h"

#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void info_str(cl_device_id d, cl_device_info what, char *buf, size_t size)
{
    buf[0] = '\0';
    if (clGetDeviceInfo(d, what, size, buf, NULL) != CL_SUCCESS)
        buf[0] = '\0';
    buf[size - 1] = '\0';
    /* Drivers pad some strings with trailing spaces. */
    size_t len = strlen(buf);
    while (len > 0 && buf[len - 1] == ' ')
        buf[--len] = '\0';
}

static bool info_ok(cl_device_id d, cl_device_info what, size_t size, void *out)
{
    memset(out, 0, size);
    return clGetDeviceInfo(d, what, size, out, NULL) == CL_SUCCESS;
}

/* Variable-length query into a malloc'd buffer (NULL when unsupported). */
static void *info_alloc(cl_device_id d, cl_device_info what, size_t *size)
{
    *size = 0;
    if (clGetDeviceInfo(d, what, 0, NULL, size) != CL_SUCCESS || *size == 0)
        return NULL;
    void *buf = calloc(1, *size + 1);
    if (buf && clGetDeviceInfo(d, what, *size, buf, NULL) != CL_SUCCESS) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Does the space-separated list contain word? */
static bool has_word(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)) != NULL; p += len) {
        bool start = p == list || p[-1] == ' ';
        bool end = p[len] == '\0' || p[len] == ' ';
        if (start && end)
            return true;
    }
    return false;
}

/* "OpenCL 3.0 ..." or "OpenCL C 1.2 ..." -> major, minor. */
static void parse_version(const char *text, const char *prefix, int *major, int *minor)
{
    *major = *minor = 0;
    size_t len = strlen(prefix);
    if (strncmp(text, prefix, len) == 0 && sscanf(text + len, "%d.%d", major, minor) != 2)
        *major = *minor = 0;
}

static bool has_c_feature(const cl_name_version *f, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(f[i].name, name))
            return true;
    return false;
}

/* Lanes executing in lock step: the vendor's own answer where there is one
 * (NVIDIA warp, AMD wavefront), the integer vector width on CPUs (what the
 * kernel vectoriser packs), Intel's largest sub-group on its GPUs, else 32. */
static void probe_simd_width(cl_device_id d, const char *ext, clirr_caps *c)
{
    cl_uint u = 0;
    if (has_word(ext, "cl_nv_device_attribute_query") &&
        info_ok(d, CL_DEVICE_WARP_SIZE_NV, sizeof u, &u) && u) {
        c->simd_width = u;
        snprintf(c->simd_width_source, sizeof c->simd_width_source, "CL_DEVICE_WARP_SIZE_NV");
        return;
    }
    if (has_word(ext, "cl_amd_device_attribute_query") &&
        info_ok(d, CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof u, &u) && u) {
        c->simd_width = u;
        snprintf(c->simd_width_source, sizeof c->simd_width_source, "CL_DEVICE_WAVEFRONT_WIDTH_AMD");
        return;
    }
    if (c->is_cpu && info_ok(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof u, &u) && u) {
        c->simd_width = u;
        snprintf(c->simd_width_source, sizeof c->simd_width_source, "CL_DEVICE_NATIVE_VECTOR_WIDTH_INT");
        return;
    }
    size_t size = 0;
    size_t *sizes = has_word(ext, "cl_intel_required_subgroup_size")
                        ? info_alloc(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, &size) : NULL;
    if (sizes) {
        size_t best = 0;
        for (size_t i = 0; i < size / sizeof *sizes; i++)
            if (sizes[i] > best)
                best = sizes[i];
        free(sizes);
        if (best) {
            c->simd_width = (uint32_t)best;
            snprintf(c->simd_width_source, sizeof c->simd_width_source, "CL_DEVICE_SUB_GROUP_SIZES_INTEL");
            return;
        }
    }
    c->simd_width = 32;
    snprintf(c->simd_width_source, sizeof c->simd_width_source, "default (no vendor query)");
}

int clirr_caps_probe(cl_platform_id platform, cl_device_id d, clirr_caps *c,
                     clirr_error *err)
{
    memset(c, 0, sizeof *c);
    cl_int rc = clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof c->platform, c->platform, NULL);
    if (rc != CL_SUCCESS)
        return clirr_cl_fail(err, rc, "clGetPlatformInfo(CL_PLATFORM_NAME)", __FILE__, __LINE__);
    clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof c->platform_version, c->platform_version, NULL);
    c->platform[sizeof c->platform - 1] = c->platform_version[sizeof c->platform_version - 1] = '\0';

    info_str(d, CL_DEVICE_NAME, c->name, sizeof c->name);
    info_str(d, CL_DEVICE_VENDOR, c->vendor, sizeof c->vendor);
    info_str(d, CL_DEVICE_VERSION, c->version, sizeof c->version);
    info_str(d, CL_DRIVER_VERSION, c->driver, sizeof c->driver);
    info_str(d, CL_DEVICE_OPENCL_C_VERSION, c->c_version, sizeof c->c_version);
    parse_version(c->version, "OpenCL ", &c->cl_major, &c->cl_minor);
    parse_version(c->c_version, "OpenCL C ", &c->c_major, &c->c_minor);

    cl_device_type type = 0;
    info_ok(d, CL_DEVICE_TYPE, sizeof type, &type);
    c->is_cpu = type & CL_DEVICE_TYPE_CPU;
    c->is_gpu = type & CL_DEVICE_TYPE_GPU;
    c->is_accelerator = type & CL_DEVICE_TYPE_ACCELERATOR;

    size_t ext_size = 0;
    char *ext = info_alloc(d, CL_DEVICE_EXTENSIONS, &ext_size);
    bool cl3 = c->cl_major >= 3;

    /* OpenCL C versions: 3.0 devices list them all (and report 1.2 in the
     * version string when 2.0 features are optional); 2.x devices compile
     * C 2.0. */
    c->c_2_0 = c->c_major == 2;
    c->c_3_0 = c->c_major >= 3;
    size_t size = 0;
    cl_name_version *cv = cl3 ? info_alloc(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, &size) : NULL;
    for (size_t i = 0; cv && i < size / sizeof *cv; i++) {
        unsigned major = CL_VERSION_MAJOR(cv[i].version), minor = CL_VERSION_MINOR(cv[i].version);
        if (major == 2)
            c->c_2_0 = true;
        if (major == 3)
            c->c_3_0 = true;
        if ((int)major > c->c_major || ((int)major == c->c_major && (int)minor > c->c_minor)) {
            c->c_major = (int)major;
            c->c_minor = (int)minor;
        }
    }
    free(cv);

    /* Optional OpenCL C features: named in CL_DEVICE_OPENCL_C_FEATURES on
     * 3.0, mandatory in C 2.0. */
    cl_name_version *feat = cl3 ? info_alloc(d, CL_DEVICE_OPENCL_C_FEATURES, &size) : NULL;
    size_t nfeat = feat ? size / sizeof *feat : 0;
    bool c20 = c->c_2_0 && !cl3;
    c->wg_collectives = c20 || has_c_feature(feat, nfeat, "__opencl_c_work_group_collective_functions");
    c->generic_address_space = c20 || has_c_feature(feat, nfeat, "__opencl_c_generic_address_space");
    c->subgroups = has_word(ext, "cl_khr_subgroups") ||
                   has_c_feature(feat, nfeat, "__opencl_c_subgroups");
    if (cl3) {
        cl_device_device_enqueue_capabilities dq = 0;
        c->device_enqueue = info_ok(d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof dq, &dq) &&
                            (dq & CL_DEVICE_QUEUE_SUPPORTED) &&
                            has_c_feature(feat, nfeat, "__opencl_c_device_enqueue");
    } else if (c->cl_major == 2) {
        c->device_enqueue = true; /* mandatory in OpenCL 2.x */
    }
    free(feat);
    if (c->device_enqueue) {
        cl_uint q = 0;
        info_ok(d, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof q, &q);
        c->queue_on_device_max_size = q;
        if (q == 0)
            c->device_enqueue = false; /* a queue of no bytes holds nothing */
    }

    c->int64_atomics = has_word(ext, "cl_khr_int64_base_atomics");
    c->int64_extended_atomics = has_word(ext, "cl_khr_int64_extended_atomics");
    c->fp64 = has_word(ext, "cl_khr_fp64");
    cl_device_fp_config fp32 = 0;
    info_ok(d, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32, &fp32);
    c->fp32_exact_divide = (fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;

    cl_device_local_mem_type lmt = 0;
    info_ok(d, CL_DEVICE_LOCAL_MEM_TYPE, sizeof lmt, &lmt);
    c->local_mem_dedicated = lmt == CL_LOCAL;
    cl_ulong ul = 0;
    info_ok(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ul, &ul);
    c->local_mem = ul;
    info_ok(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ul, &ul);
    c->global_mem = ul;
    info_ok(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ul, &ul);
    c->max_alloc = ul;
    cl_uint u = 0;
    info_ok(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u);
    c->compute_units = u;
    info_ok(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u);
    c->clock_mhz = u;
    info_ok(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof u, &u);
    c->float_vector = u;
    if (has_word(ext, "cl_nv_device_attribute_query")) {
        cl_uint major = 0, minor = 0;
        info_ok(d, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major);
        info_ok(d, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor);
        c->nv_cc = major * 10 + minor;
    }
    info_ok(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof u, &u);
    c->mem_base_align = u / 8;
    u = 0;
    info_ok(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof u, &u);
    c->cacheline = u;
    ul = 0;
    info_ok(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof ul, &ul);
    c->global_cache = ul;
    cl_bool unified = CL_FALSE;
    info_ok(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified);
    c->host_unified = unified == CL_TRUE;
    size_t wg = 0;
    info_ok(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg);
    c->max_wg_size = wg ? wg : 1;
    probe_simd_width(d, ext, c);
    free(ext);
    /* CLIRR_MAX_ALLOC=BYTES makes a device look smaller than it is: to try
     * how clirr handles inputs too large for a device. */
    const char *cap = getenv("CLIRR_MAX_ALLOC");
    if (cap && *cap) {
        char *end;
        unsigned long long v = strtoull(cap, &end, 10);
        if (*end == '\0' && v > 0 && v < c->max_alloc)
            c->max_alloc = v;
    }
    return CLIRR_OK;
}

const char *clirr_caps_type_name(const clirr_caps *caps)
{
    if (caps->is_gpu)
        return "gpu";
    if (caps->is_cpu)
        return "cpu";
    if (caps->is_accelerator)
        return "accelerator";
    return "other";
}
