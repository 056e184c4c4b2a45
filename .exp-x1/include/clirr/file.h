/* clirr/file.h - output files written whole or not at all: the text goes
 * to a temporary file beside the target, renamed over it only when every
 * write and the close succeeded, so a full disk or an interrupted run never
 * leaves a truncated file, and a failed run leaves an existing file as it
 * was. "-" is standard output; a device or pipe is written directly. */
#ifndef CLIRR_FILE_H
#define CLIRR_FILE_H

#include <stdio.h>

#include "clirr/export.h"
#include "clirr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct clirr_out_file {
    FILE *f;          /* write here */
    const char *path; /* the target */
    char *tmp;        /* the file written, or NULL (stdout, a device) */
} clirr_out_file;

/* Open path for writing; CLIRR_ERR_IO naming it when that fails. */
CLIRR_API int clirr_out_open(clirr_out_file *out, const char *path, clirr_error *err);

/* Close: on success the file replaces path; on any write error (or
 * abandon), the target is untouched and the temporary removed.
 * CLIRR_ERR_IO naming path and the reason. */
CLIRR_API int clirr_out_close(clirr_out_file *out, clirr_error *err);
CLIRR_API void clirr_out_abandon(clirr_out_file *out);

#ifdef __cplusplus
}
#endif
#endif
