/* host/graph/textout.c - a buffered writer for plain or gzipped files, with
 * the integer formatting the text writers use (printf per field would
 * dominate the time of writing a large graph). */
#include "graph_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOUT_BUFFER ((size_t)1 << 20)

/* Largest piece handed to gzwrite at once (its length is an unsigned int). */
#define TOUT_CHUNK ((size_t)1 << 30)

static void record_failure(tout *t)
{
    if (t->failed)
        return;
    t->failed = true;
    int zerr = Z_OK;
    const char *why = gzerror(t->gz, &zerr);
    t->err_no = zerr == Z_ERRNO ? (errno ? errno : EIO) : 0;
    snprintf(t->why, sizeof t->why, "%s", why && *why ? why : "write failed");
}

static void write_raw(tout *t, const char *p, size_t n)
{
    while (n && !t->failed) {
        size_t k = n < TOUT_CHUNK ? n : TOUT_CHUNK;
        errno = 0;
        if (gzwrite(t->gz, p, (unsigned)k) != (int)k)
            record_failure(t);
        p += k;
        n -= k;
    }
}

static void flush(tout *t)
{
    write_raw(t, t->buf, t->len);
    t->len = 0;
}

/* A file that is not there yet or is a regular file is written whole or
 * not at all: into a temporary file beside it, renamed over it at a clean
 * close, so a full disk or an interrupted run never leaves a truncated
 * graph (which a headerless format would read back as a smaller one). */
static char *temporary_name(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return NULL;
    size_t size = strlen(path) + 32;
    char *tmp = malloc(size);
    if (tmp)
        snprintf(tmp, size, "%s.tmp.%ld", path, (long)getpid());
    return tmp;
}

int clirr_tout_open(tout *t, const char *path, bool gz, clirr_error *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    t->tmp = temporary_name(path);
    errno = 0;
    /* "T" writes a plain file through the same interface. */
    t->gz = gzopen(t->tmp ? t->tmp : path, gz ? "wb6" : "wbT");
    if (!t->gz) {
        free(t->tmp);
        t->tmp = NULL;
        return clirr_fail(err, CLIRR_ERR_IO, "cannot create %s: %s", path,
                          errno ? strerror(errno) : "out of memory");
    }
    gzbuffer(t->gz, 1u << 18);
    t->cap = TOUT_BUFFER;
    t->buf = malloc(t->cap);
    if (!t->buf) {
        gzclose(t->gz);
        t->gz = NULL;
        if (t->tmp)
            remove(t->tmp);
        free(t->tmp);
        t->tmp = NULL;
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory writing %s", path);
    }
    return CLIRR_OK;
}

void clirr_tout_room(tout *t)
{
    if (t->cap - t->len < TOUT_SLACK)
        flush(t);
}

void clirr_tout_bytes(tout *t, const void *p, size_t n)
{
    if (n > t->cap - t->len)
        flush(t);
    if (n > t->cap) {
        write_raw(t, p, n);
        return;
    }
    memcpy(t->buf + t->len, p, n);
    t->len += n;
}

void clirr_tout_str(tout *t, const char *s) { clirr_tout_bytes(t, s, strlen(s)); }

void clirr_tout_u64(tout *t, uint64_t v)
{
    char tmp[20];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        t->buf[t->len++] = tmp[--k];
}

void clirr_tout_i64(tout *t, int64_t v)
{
    if (v < 0) {
        tout_char(t, '-');
        clirr_tout_u64(t, -(uint64_t)v);
    } else
        clirr_tout_u64(t, (uint64_t)v);
}

int clirr_tout_close(tout *t, clirr_error *err)
{
    flush(t);
    errno = 0;
    int zr = gzclose(t->gz);
    if (zr != Z_OK && !t->failed) {
        t->failed = true;
        t->err_no = zr == Z_ERRNO ? (errno ? errno : EIO) : 0;
        snprintf(t->why, sizeof t->why, "closing failed (zlib error %d)", zr);
    }
    t->gz = NULL;
    free(t->buf);
    t->buf = NULL;
    if (t->tmp && !t->failed && rename(t->tmp, t->path) != 0) {
        t->failed = true;
        t->err_no = errno;
    }
    if (t->tmp && t->failed)
        remove(t->tmp);
    free(t->tmp);
    t->tmp = NULL;
    if (t->failed)
        return clirr_fail(err, CLIRR_ERR_IO, "cannot write %s: %s", t->path,
                          t->err_no ? strerror(t->err_no) : t->why);
    return CLIRR_OK;
}
