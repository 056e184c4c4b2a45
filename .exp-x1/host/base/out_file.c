/* host/base/out_file.c - output files written whole or not at all. */
#include "clirr/file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int clirr_out_open(clirr_out_file *out, const char *path, clirr_error *err)
{
    out->path = path;
    out->tmp = NULL;
    out->f = NULL;
    if (!strcmp(path, "-")) {
        out->f = stdout;
        return CLIRR_OK;
    }
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) {
        size_t size = strlen(path) + 32;
        if (!(out->tmp = malloc(size)))
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory opening %s", path);
        snprintf(out->tmp, size, "%s.tmp.%ld", path, (long)getpid());
    }
    out->f = fopen(out->tmp ? out->tmp : path, "w");
    if (!out->f) {
        int e = errno;
        free(out->tmp);
        out->tmp = NULL;
        return clirr_fail(err, CLIRR_ERR_IO, "cannot write %s: %s", path, strerror(e));
    }
    return CLIRR_OK;
}

void clirr_out_abandon(clirr_out_file *out)
{
    if (out->f && out->f != stdout)
        fclose(out->f);
    if (out->tmp)
        remove(out->tmp);
    free(out->tmp);
    out->f = NULL;
    out->tmp = NULL;
}

int clirr_out_close(clirr_out_file *out, clirr_error *err)
{
    if (!out->f)
        return CLIRR_OK;
    errno = 0;
    if (out->f == stdout) {
        out->f = NULL;
        return fflush(stdout) == 0 && !ferror(stdout)
                   ? CLIRR_OK
                   : clirr_fail(err, CLIRR_ERR_IO, "writing to standard output failed: %s",
                                errno ? strerror(errno) : "write error");
    }
    bool bad = ferror(out->f) != 0;
    int e = errno;
    if (fclose(out->f) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    out->f = NULL;
    if (!bad && out->tmp && rename(out->tmp, out->path) != 0) {
        bad = true;
        e = errno;
    }
    if (bad && out->tmp)
        remove(out->tmp);
    free(out->tmp);
    out->tmp = NULL;
    return bad ? clirr_fail(err, CLIRR_ERR_IO, "writing %s failed: %s", out->path,
                            e ? strerror(e) : "write error")
               : CLIRR_OK;
}
