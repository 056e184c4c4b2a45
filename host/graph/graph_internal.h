/* host/graph/graph_internal.h - what the files of host/graph/ share: the
 * growing arc list readers fill, the buffered text reader and writer every
 * text format goes through, little-endian helpers, and the per-format entry
 * points that format.c dispatches to. Nothing here is public. */
#ifndef CLIRR_GRAPH_INTERNAL_H
#define CLIRR_GRAPH_INTERNAL_H

#include "clirr/graph.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

/* ---- arc list ------------------------------------------------------------ */

/* Arcs in input order, grown geometrically. Readers never trust a header's
 * count for the allocation (a corrupt header must not allocate gigabytes),
 * so capacity follows what was actually read. */
typedef struct arcbuf {
    uint32_t *src, *dst;
    int32_t *w;        /* NULL when unweighted */
    double *x;         /* real values, NULL when the input has none */
    uint64_t len, cap;
} arcbuf;

/* Reserve room for `hint` arcs up front (clamped; 0 is fine). */
int clirr_arcbuf_init(arcbuf *a, bool weighted, uint64_t hint, clirr_error *err);
/* The same for a list that also keeps a real value per arc. */
int clirr_arcbuf_init_values(arcbuf *a, bool weighted, bool valued, uint64_t hint,
                       clirr_error *err);
/* Grow so that one more arc fits; call only when len == cap. */
int clirr_arcbuf_grow(arcbuf *a, clirr_error *err);
static inline int arcbuf_push(arcbuf *a, uint32_t u, uint32_t v, int32_t w,
                              clirr_error *err)
{
    if (a->len == a->cap) {
        int rc = clirr_arcbuf_grow(a, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    a->src[a->len] = u;
    a->dst[a->len] = v;
    if (a->w)
        a->w[a->len] = w;
    a->len++;
    return CLIRR_OK;
}
/* arcbuf_push with the arc's real value (kept when the list has values). */
static inline int arcbuf_push_value(arcbuf *a, uint32_t u, uint32_t v, int32_t w,
                                    double x, clirr_error *err)
{
    int rc = arcbuf_push(a, u, v, w, err);
    if (rc == CLIRR_OK && a->x)
        a->x[a->len - 1] = x;
    return rc;
}
/* Build g from the arcs over n vertices, then free the list. */
int clirr_arcbuf_to_graph(arcbuf *a, uint32_t n, clirr_graph *g, clirr_error *err);
void clirr_arcbuf_free(arcbuf *a);

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

/* ---- binary helpers ------------------------------------------------------ */

static inline bool host_is_le(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}
static inline uint32_t bswap32(uint32_t x)
{
    return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}
static inline uint32_t get_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}
static inline uint64_t get_le64(const unsigned char *p)
{
    return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}
static inline void put_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}
static inline void put_le64(unsigned char *p, uint64_t v)
{
    put_le32(p, (uint32_t)v);
    put_le32(p + 4, (uint32_t)(v >> 32));
}

/* ---- formats ------------------------------------------------------------- */

/* Each reader fills a zeroed g; each writer writes a valid g. */
int clirr_graph_read_gr(const char *path, clirr_graph *g, clirr_error *err);

/* Galois binary .gr (galois.c): whether a file's first bytes are its
 * header, and the reader. */
bool clirr_galois_sniff(const unsigned char *head, size_t len);
int clirr_graph_read_galois(const char *path, clirr_graph *g, clirr_error *err);
int clirr_graph_write_gr(const char *path, bool gz, const clirr_graph *g, clirr_error *err);
int clirr_graph_read_mtx(const char *path, clirr_graph *g, clirr_error *err);
int clirr_graph_write_mtx(const char *path, bool gz, const clirr_graph *g, clirr_error *err);
/* .el and .txt (weighted == false) and .wel (weighted == true). */
int clirr_graph_read_edgelist(const char *path, bool weighted, clirr_graph *g,
                        clirr_error *err);
int clirr_graph_write_edgelist(const char *path, bool gz, bool weighted,
                         const clirr_graph *g, clirr_error *err);
int clirr_graph_read_csrbin(const char *path, clirr_graph *g, clirr_error *err);
int clirr_graph_write_csrbin(const char *path, bool gz, const clirr_graph *g,
                       clirr_error *err);

/* clirr_graph_from_arcs with real values x[i] per arc (or x == NULL). */
int clirr_graph_build_arcs(uint32_t n, uint64_t m, const uint32_t *src, const uint32_t *dst,
                    const int32_t *w, const double *x, clirr_graph *g, clirr_error *err);

/* Allocate the three CSR arrays of g for n vertices and m arcs (weights when
 * weighted); g->n and g->m are set, row[0] = 0. */
int clirr_graph_alloc(clirr_graph *g, uint32_t n, uint64_t m, bool weighted,
                clirr_error *err);

#endif
