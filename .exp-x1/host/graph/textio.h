/* host/graph/textio.h - the buffered text reader and writer every text
 * format goes through (textin.c, textout.c): graphs here, and the list and
 * tree files of host/list/ and host/tree/, which include this header only.
 * Nothing here is public. */
#ifndef CLIRR_GRAPH_TEXTIO_H
#define CLIRR_GRAPH_TEXTIO_H

#include "clirr/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/* ---- text input ---------------------------------------------------------- */

/* Lines of a (possibly gzipped) text file, read through one large buffer.
 * clirr_tin_next hands out one line at a time as [ls, le) without its newline or a
 * trailing '\r'; `line` is its 1-based number for messages. */
typedef struct tin {
    gzFile gz;
    const char *path;
    char *buf;            /* cap bytes */
    size_t cap;
    char *pos, *end;      /* data read but not yet handed out */
    bool eof;
    uint64_t line;        /* number of the current line */
    uint64_t nul_line;    /* line holding the first NUL byte, 0 if none yet */
    const char *ls, *le;  /* the current line */
} tin;

/* Open path and read the first block. CLIRR_ERR_INPUT naming the file and
 * the system's reason when it cannot be opened or read. */
int clirr_tin_open(tin *t, const char *path, clirr_error *err);
void clirr_tin_close(tin *t);
/* The first bytes of the file (up to the buffer size), for sniffing. */
size_t clirr_tin_peek(const tin *t, const unsigned char **p);
/* Next line: CLIRR_OK with t->ls set, CLIRR_OK with t->ls == NULL at the end
 * of the file, or CLIRR_ERR_INPUT (binary data, overlong line, read error,
 * truncated gzip stream). */
int clirr_tin_next(tin *t, clirr_error *err);

/* Field parsers over the current line. Each skips blanks (space, tab) before
 * the field, stores the value, moves *p past it, and on a problem returns
 * CLIRR_ERR_INPUT with "FILE:LINE: expected WHAT, found TOKEN". A field must
 * end at a blank or the end of the line ("12x" is not a number). */
int clirr_tin_u64(tin *t, const char **p, uint64_t lo, uint64_t hi, uint64_t *v,
            const char *what, clirr_error *err);
int clirr_tin_i64(tin *t, const char **p, int64_t lo, int64_t hi, int64_t *v,
            const char *what, clirr_error *err);
/* A finite decimal real ([+-]digits[.digits][e[+-]digits]). */
int clirr_tin_real(tin *t, const char **p, double *v, const char *what,
             clirr_error *err);
/* A word of letters, digits, '-' and '%' into buf (lowercased when fold). */
int clirr_tin_word(tin *t, const char **p, char *buf, size_t size, bool fold,
             const char *what, clirr_error *err);
/* Only blanks may follow; `what` describes what came before for the message
 * (e.g. "end of line after 2 fields"). */
int clirr_tin_end(tin *t, const char *p, const char *what, clirr_error *err);
/* Skip blanks; true when nothing else is on the line from p. */
bool clirr_tin_blank_rest(const tin *t, const char **p);
/* "FILE:LINE: expected WHAT, found TOKEN-at-p" (p may be NULL for "end of
 * file"); returns CLIRR_ERR_INPUT. */
int clirr_tin_expected(tin *t, const char *p, const char *what, clirr_error *err);
/* The line number of entry k (0-based) of a file whose entries are its
 * lines that are neither blank nor comments ('#', '%'), found by reading
 * the file again (for messages about an entry found wrong after reading);
 * 0 when the file cannot be read again. */
uint64_t clirr_tin_entry_line(const char *path, uint64_t k);
/* "FILE:LINE: MESSAGE"; returns CLIRR_ERR_INPUT. */
int clirr_tin_fail(tin *t, uint64_t line, clirr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- text output --------------------------------------------------------- */

/* A buffered writer to a plain or gzipped file. Errors are sticky: after a
 * failed write the rest is skipped and clirr_tout_close reports CLIRR_ERR_IO. */
typedef struct tout {
    gzFile gz;
    const char *path;
    char *tmp;            /* the file written, renamed to path at a clean close;
                           * NULL when path is written directly (not a
                           * regular file, e.g. /dev/stdout) */
    char *buf;
    size_t cap, len;
    bool failed;
    int err_no;           /* errno of the first failure, 0 for zlib errors */
    char why[160];        /* zlib's description of the first failure */
} tout;

/* Bytes free after clirr_tout_room: enough for one line of numbers. tout_char,
 * clirr_tout_u64 and clirr_tout_i64 do not check for room (they are the inner loop);
 * call clirr_tout_room once per line before them. clirr_tout_bytes and clirr_tout_str check. */
#define TOUT_SLACK 256

int clirr_tout_open(tout *t, const char *path, bool gz, clirr_error *err);
/* Flush when fewer than TOUT_SLACK bytes are free. */
void clirr_tout_room(tout *t);
void clirr_tout_bytes(tout *t, const void *p, size_t n);
static inline void tout_char(tout *t, char c) { t->buf[t->len++] = c; }
void clirr_tout_str(tout *t, const char *s);
void clirr_tout_u64(tout *t, uint64_t v);
void clirr_tout_i64(tout *t, int64_t v);
/* Flush, close, and report the first failure. Always releases t. */
int clirr_tout_close(tout *t, clirr_error *err);

#endif
