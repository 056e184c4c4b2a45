/* clirr/status.h - status codes and the error record every library call fills.
 *
 * Library functions return an int: CLIRR_OK (0) on success or one of the
 * negative codes below, and write what failed (and where) into the caller's
 * clirr_error. They never print and never exit; only the command-line tool
 * turns a status into a message and an exit code (clirr_status_exit_code). */
#ifndef CLIRR_STATUS_H
#define CLIRR_STATUS_H

#include "clirr/export.h"

#ifdef __cplusplus
extern "C" {
#endif

enum clirr_status {
    CLIRR_OK = 0,
    CLIRR_ERR_USAGE = -1,       /* impossible option or argument */
    CLIRR_ERR_INPUT = -2,       /* malformed or unreadable input file */
    CLIRR_ERR_UNSUPPORTED = -3, /* the device cannot run what was asked */
    CLIRR_ERR_OPENCL = -4,      /* an OpenCL call failed */
    CLIRR_ERR_TOO_LARGE = -5,   /* data exceeds a device limit */
    CLIRR_ERR_NOMEM = -6,       /* host memory exhausted */
    CLIRR_ERR_IO = -7,          /* writing a file failed */
    CLIRR_ERR_VERIFY = -8       /* a result disagrees with the reference */
};

#define CLIRR_MSG_MAX 4096

typedef struct clirr_error {
    int status;
    char msg[CLIRR_MSG_MAX];
} clirr_error;

/* Record status and a printf-style message in err (err may be NULL);
 * returns status so callers can write `return clirr_fail(err, ...)`. */
CLIRR_API int clirr_fail(clirr_error *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefix the message already in err with more context ("reading X: ...");
 * returns err->status. */
CLIRR_API int clirr_fail_context(clirr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reset err to CLIRR_OK with an empty message. */
CLIRR_API void clirr_error_clear(clirr_error *err);

/* Short name of a status ("bad input", "OpenCL error", ...). */
CLIRR_API const char *clirr_status_name(int status);

/* Process exit code for a status: 0 ok, 1 verification failed,
 * 2 bad usage or input (a template the device cannot run, an input too
 * large for the device's limits), 3 OpenCL or device error. */
CLIRR_API int clirr_status_exit_code(int status);

#ifdef __cplusplus
}
#endif
#endif
