/* host/runtime/status.c - filling clirr_error records and naming statuses. */
#include "clirr/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int clirr_fail(clirr_error *err, int status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

int clirr_fail_context(clirr_error *err, const char *fmt, ...)
{
    if (!err)
        return CLIRR_ERR_INPUT;
    char prefix[CLIRR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    if (k < 0)
        return err->status;
    char old[CLIRR_MSG_MAX];
    memcpy(old, err->msg, sizeof old);
    /* A message too long for the record keeps its beginning. */
    if (snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old) >= (int)sizeof err->msg)
        err->msg[sizeof err->msg - 1] = '\0';
    return err->status;
}

void clirr_error_clear(clirr_error *err)
{
    if (err) {
        err->status = CLIRR_OK;
        err->msg[0] = '\0';
    }
}

const char *clirr_status_name(int status)
{
    switch (status) {
    case CLIRR_OK: return "ok";
    case CLIRR_ERR_USAGE: return "bad usage";
    case CLIRR_ERR_INPUT: return "bad input";
    case CLIRR_ERR_UNSUPPORTED: return "not supported by the device";
    case CLIRR_ERR_OPENCL: return "OpenCL error";
    case CLIRR_ERR_TOO_LARGE: return "too large for the device";
    case CLIRR_ERR_NOMEM: return "out of host memory";
    case CLIRR_ERR_IO: return "I/O error";
    case CLIRR_ERR_VERIFY: return "verification failed";
    default: return "unknown error";
    }
}

int clirr_status_exit_code(int status)
{
    switch (status) {
    case CLIRR_OK: return 0;
    case CLIRR_ERR_VERIFY: return 1;
    case CLIRR_ERR_USAGE:
    case CLIRR_ERR_INPUT:
    case CLIRR_ERR_UNSUPPORTED:
    case CLIRR_ERR_TOO_LARGE: /* an input too big for the device: the input's problem */
    case CLIRR_ERR_IO: return 2;
    default: return 3;
    }
}
