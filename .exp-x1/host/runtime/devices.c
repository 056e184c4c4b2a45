/* host/runtime/devices.c - enumerating every device of every platform, and
 * choosing devices from a selector string (--device, CLIRR_DEVICE). */
#include "runtime/runtime.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int clirr_device_list(clirr_device **devices, size_t *count, clirr_error *err)
{
    *devices = NULL;
    *count = 0;
    cl_uint np = 0;
    cl_int rc = clGetPlatformIDs(0, NULL, &np);
    if (rc == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (rc == CL_SUCCESS && np == 0))
        return clirr_fail(err, CLIRR_ERR_OPENCL,
                          "no OpenCL platform found: install an OpenCL driver "
                          "(e.g. Debian's pocl-opencl-icd) and its ICD file");
    if (rc != CL_SUCCESS)
        return clirr_cl_fail(err, rc, "clGetPlatformIDs", __FILE__, __LINE__);
    cl_platform_id *plats = calloc(np, sizeof *plats);
    if (!plats)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory listing platforms");
    rc = clGetPlatformIDs(np, plats, NULL);
    if (rc != CL_SUCCESS) {
        free(plats);
        return clirr_cl_fail(err, rc, "clGetPlatformIDs", __FILE__, __LINE__);
    }

    size_t n = 0, cap = 0;
    clirr_device *list = NULL;
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        /* A platform that cannot list its devices is skipped, not fatal. */
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
            continue;
        cl_device_id *ids = calloc(nd, sizeof *ids);
        if (!ids || clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL) != CL_SUCCESS) {
            free(ids);
            continue;
        }
        for (cl_uint i = 0; i < nd; i++) {
            if (n == cap) {
                cap = cap ? 2 * cap : 8;
                clirr_device *grown = realloc(list, cap * sizeof *list);
                if (!grown) {
                    free(ids);
                    free(list);
                    free(plats);
                    return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory listing devices");
                }
                list = grown;
            }
            clirr_device *d = &list[n];
            d->platform = plats[p];
            d->id = ids[i];
            d->index = (unsigned)n;
            if (clirr_caps_probe(plats[p], ids[i], &d->caps, err) == CLIRR_OK)
                n++;
        }
        free(ids);
    }
    free(plats);
    if (n == 0) {
        free(list);
        return clirr_fail(err, CLIRR_ERR_OPENCL,
                          "OpenCL platforms found, but no usable device on any of them");
    }
    *devices = list;
    *count = n;
    return CLIRR_OK;
}

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < nl && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == nl)
            return true;
    }
    return nl == 0;
}

/* "0", "1,3": every comma-separated field a decimal index. */
static bool parse_indices(const char *sel, size_t count, size_t *picked, size_t *np,
                          clirr_error *err, int *status)
{
    for (const char *p = sel; *p; p++)
        if (!isdigit((unsigned char)*p) && *p != ',')
            return false;
    *np = 0;
    *status = CLIRR_OK;
    const char *p = sel;
    while (*p) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno) {
            *status = clirr_fail(err, CLIRR_ERR_USAGE, "device selector '%s': expected an index", sel);
            return true;
        }
        if (v >= count) {
            *status = clirr_fail(err, CLIRR_ERR_USAGE,
                                 "device selector '%s': no device %lu (there %s %zu, numbered from 0; see 'clirr devices')",
                                 sel, v, count == 1 ? "is" : "are", count);
            return true;
        }
        bool dup = false;
        for (size_t i = 0; i < *np; i++)
            dup |= picked[i] == v;
        if (!dup)
            picked[(*np)++] = v;
        p = *end == ',' ? end + 1 : end;
    }
    return true;
}

int clirr_device_select(const clirr_device *devices, size_t count,
                        const char *selector, size_t *picked, size_t *npicked,
                        clirr_error *err)
{
    *npicked = 0;
    const char *sel = selector;
    if (!sel || !*sel)
        sel = getenv("CLIRR_DEVICE");
    if (!sel || !*sel)
        sel = "auto";

    int status;
    if (parse_indices(sel, count, picked, npicked, err, &status))
        return status;
    if (!strcmp(sel, "auto")) {
        size_t pick = 0;
        for (size_t i = 0; i < count; i++)
            if (devices[i].caps.is_gpu) {
                pick = i;
                break;
            }
        if (count)
            picked[(*npicked)++] = pick;
    } else {
        bool all = !strcmp(sel, "all");
        bool cpu = !strcasecmp(sel, "cpu"), gpu = !strcasecmp(sel, "gpu");
        for (size_t i = 0; i < count; i++) {
            const clirr_caps *c = &devices[i].caps;
            bool match = all || (cpu && c->is_cpu) || (gpu && c->is_gpu) ||
                         (!cpu && !gpu && (contains_nocase(c->name, sel) ||
                                           contains_nocase(c->vendor, sel) ||
                                           contains_nocase(c->platform, sel)));
            if (match)
                picked[(*npicked)++] = i;
        }
    }
    if (*npicked == 0)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "device selector '%s' matches none of the %zu device%s (see 'clirr devices')",
                          sel, count, count == 1 ? "" : "s");
    return CLIRR_OK;
}
