/* host/graph/textin.c - reading text graph files line by line through one
 * large buffer filled by gzread (which reads plain files too), and the
 * hand-written field parsers the readers use. fscanf would be several times
 * slower on the tens of millions of lines a real graph has, and could not say
 * which line and field was wrong. */
#include "graph_internal.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lines may not be longer than the buffer; 4 MiB keeps any sane comment. */
#define TIN_BUFFER ((size_t)1 << 22)

static inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
static inline bool is_digit(char c) { return (unsigned char)(c - '0') < 10; }

int clirr_tin_fail(tin *t, uint64_t line, clirr_error *err, const char *fmt, ...)
{
    char text[CLIRR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return clirr_fail(err, CLIRR_ERR_INPUT, "%s:%llu: %s", t->path,
                      (unsigned long long)line, text);
}

/* Describe what stands at p: the token up to the next blank, quoted, with
 * bytes that are not printable shown as \xNN. */
static void describe(const tin *t, const char *p, char *out, size_t size)
{
    if (!p) {
        snprintf(out, size, "end of file");
        return;
    }
    while (p < t->le && is_blank(*p))
        p++;
    if (p >= t->le) {
        snprintf(out, size, "end of line");
        return;
    }
    size_t k = 0;
    out[k++] = '\'';
    const char *q = p;
    for (; q < t->le && !is_blank(*q) && k + 8 < size && q - p < 32; q++) {
        unsigned char c = (unsigned char)*q;
        if (c >= 0x20 && c < 0x7f)
            out[k++] = (char)c;
        else
            k += (size_t)snprintf(out + k, size - k, "\\x%02x", c);
    }
    if (q < t->le && !is_blank(*q) && k + 5 < size) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k++] = '\'';
    out[k] = '\0';
}

int clirr_tin_expected(tin *t, const char *p, const char *what, clirr_error *err)
{
    char found[160];
    describe(t, p, found, sizeof found);
    return clirr_tin_fail(t, p ? t->line : t->line + 1, err, "expected %s, found %s",
                    what, found);
}

/* Move the unread tail to the front and read until the buffer is full or
 * the file ends. The first NUL byte is located here, once, so clirr_tin_next can
 * reject its line without scanning every line for it. */
static int refill(tin *t, clirr_error *err)
{
    size_t keep = (size_t)(t->end - t->pos);
    if (t->pos != t->buf)
        memmove(t->buf, t->pos, keep);
    t->pos = t->buf;
    t->end = t->buf + keep;
    while (!t->eof && t->end < t->buf + t->cap) {
        size_t want = (size_t)(t->buf + t->cap - t->end);
        int k = gzread(t->gz, t->end, (unsigned)want);
        int zerr = Z_OK;
        if (k < 0) {
            const char *why = gzerror(t->gz, &zerr);
            return clirr_fail(err, CLIRR_ERR_INPUT, "cannot read %s: %s", t->path,
                              zerr == Z_ERRNO ? strerror(errno) : why);
        }
        if (k == 0) {
            gzerror(t->gz, &zerr);
            /* zlib's way of saying the input ended inside a gzip stream. */
            if (zerr == Z_BUF_ERROR)
                return clirr_fail(err, CLIRR_ERR_INPUT,
                                  "%s: truncated gzip data (the compressed stream ends early)",
                                  t->path);
            t->eof = true;
            break;
        }
        if (!t->nul_line) {
            const char *z = memchr(t->end, '\0', (size_t)k);
            if (z) {
                uint64_t line = t->line + 1;
                for (const char *q = t->pos; (q = memchr(q, '\n', (size_t)(z - q))); q++)
                    line++;
                t->nul_line = line;
            }
        }
        t->end += k;
    }
    return CLIRR_OK;
}

int clirr_tin_open(tin *t, const char *path, clirr_error *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    errno = 0;
    t->gz = gzopen(path, "rb");
    if (!t->gz)
        return clirr_fail(err, CLIRR_ERR_INPUT, "cannot open %s: %s", path,
                          errno ? strerror(errno) : "out of memory");
    gzbuffer(t->gz, 1u << 18);
    t->cap = TIN_BUFFER;
    t->buf = malloc(t->cap);
    if (!t->buf) {
        clirr_tin_close(t);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reading %s", path);
    }
    t->pos = t->end = t->buf;
    int rc = refill(t, err);
    if (rc != CLIRR_OK)
        clirr_tin_close(t);
    return rc;
}

void clirr_tin_close(tin *t)
{
    if (t->gz)
        gzclose(t->gz);
    free(t->buf);
    t->gz = NULL;
    t->buf = NULL;
}

size_t clirr_tin_peek(const tin *t, const unsigned char **p)
{
    *p = (const unsigned char *)t->pos;
    return (size_t)(t->end - t->pos);
}

int clirr_tin_next(tin *t, clirr_error *err)
{
    for (;;) {
        char *nl = memchr(t->pos, '\n', (size_t)(t->end - t->pos));
        if (nl) {
            t->ls = t->pos;
            t->le = nl;
            t->pos = nl + 1;
            break;
        }
        if (t->eof) {
            if (t->pos == t->end) {
                t->ls = t->le = NULL;
                return CLIRR_OK;
            }
            t->ls = t->pos;
            t->le = t->end;
            t->pos = t->end;
            break;
        }
        if (t->pos == t->buf && t->end == t->buf + t->cap)
            return clirr_tin_fail(t, t->line + 1, err,
                            "line longer than %zu bytes (is this a text file?)", t->cap);
        int rc = refill(t, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    t->line++;
    if (t->line == t->nul_line)
        return clirr_tin_fail(t, t->line, err,
                        "binary data (a NUL byte) in a text file; is the extension right?");
    if (t->le > t->ls && t->le[-1] == '\r')
        t->le--;
    return CLIRR_OK;
}

bool clirr_tin_blank_rest(const tin *t, const char **p)
{
    const char *q = *p;
    while (q < t->le && is_blank(*q))
        q++;
    *p = q;
    return q == t->le;
}

/* Digits at p into *v; false when there are none or more than fit 19
 * significant digits (10^19 < 2^64, so no overflow check per digit). */
static inline bool digits(const char **pp, const char *e, uint64_t *v)
{
    const char *p = *pp;
    if (p == e || !is_digit(*p))
        return false;
    while (p + 1 < e && *p == '0' && is_digit(p[1]))
        p++;
    const char *s = p;
    uint64_t x = 0;
    while (p < e && is_digit(*p))
        x = x * 10 + (uint64_t)(*p++ - '0');
    *pp = p;
    *v = x;
    return p - s <= 19;
}

int clirr_tin_u64(tin *t, const char **pp, uint64_t lo, uint64_t hi, uint64_t *v,
            const char *what, clirr_error *err)
{
    const char *p = *pp, *e = t->le;
    while (p < e && is_blank(*p))
        p++;
    const char *s = p;
    uint64_t x;
    if (!digits(&p, e, &x) || (p < e && !is_blank(*p)) || x < lo || x > hi)
        return clirr_tin_expected(t, s, what, err);
    *v = x;
    *pp = p;
    return CLIRR_OK;
}

int clirr_tin_i64(tin *t, const char **pp, int64_t lo, int64_t hi, int64_t *v,
            const char *what, clirr_error *err)
{
    const char *p = *pp, *e = t->le;
    while (p < e && is_blank(*p))
        p++;
    const char *s = p;
    bool neg = false;
    if (p < e && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    uint64_t x;
    if (!digits(&p, e, &x) || (p < e && !is_blank(*p)) ||
        x > (uint64_t)INT64_MAX)
        return clirr_tin_expected(t, s, what, err);
    int64_t y = neg ? -(int64_t)x : (int64_t)x;
    if (y < lo || y > hi)
        return clirr_tin_expected(t, s, what, err);
    *v = y;
    *pp = p;
    return CLIRR_OK;
}

/* strtod for the rare numbers the fast path cannot convert exactly; the
 * token is copied so that the locale's decimal point can be put in. */
static bool slow_real(const char *s, size_t len, double *v)
{
    /* Any length: a valid real may carry many digits. */
    char small[128], *tmp = len < sizeof small ? small : malloc(len + 1);
    if (!tmp)
        return false;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    const char *dp = localeconv()->decimal_point;
    char *dot = memchr(tmp, '.', len);
    if (dot && dp && dp[0] && !dp[1])
        *dot = dp[0];
    char *end;
    errno = 0;
    *v = strtod(tmp, &end);
    bool whole = end == tmp + len;
    if (tmp != small)
        free(tmp);
    return whole;
}

int clirr_tin_real(tin *t, const char **pp, double *v, const char *what,
             clirr_error *err)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = *pp, *e = t->le;
    while (p < e && is_blank(*p))
        p++;
    const char *s = p;
    bool neg = false;
    if (p < e && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    /* Mantissa digits (leading zeros skipped), and the power of ten. */
    uint64_t mant = 0;
    int sig = 0, ndig = 0;
    int64_t exp10 = 0;
    for (; p < e && is_digit(*p); p++, ndig++) {
        if (sig < 19) {
            mant = mant * 10 + (uint64_t)(*p - '0');
            sig += mant != 0;
        } else
            exp10++, sig++;
    }
    if (p < e && *p == '.') {
        for (p++; p < e && is_digit(*p); p++, ndig++) {
            if (sig < 19) {
                mant = mant * 10 + (uint64_t)(*p - '0');
                sig += mant != 0;
                exp10--;
            } else
                sig++;
        }
    }
    bool ok = ndig > 0;
    if (ok && p < e && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = false;
        if (p < e && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        int64_t x = 0;
        ok = p < e && is_digit(*p);
        for (; p < e && is_digit(*p); p++)
            if (x < 100000)
                x = x * 10 + (*p - '0');
        exp10 += eneg ? -x : x;
    }
    if (!ok || (p < e && !is_blank(*p)))
        return clirr_tin_expected(t, s, what, err);
    double x;
    /* Clinger's fast path: both factors exact, so one rounding. */
    if (sig <= 19 && mant <= ((uint64_t)1 << 53) && exp10 >= -22 && exp10 <= 22)
        x = exp10 < 0 ? (double)mant / pow10[-exp10] : (double)mant * pow10[exp10];
    else if (!slow_real(s, (size_t)(p - s), &x))
        return clirr_tin_expected(t, s, what, err);
    else
        x = fabs(x);
    if (!isfinite(x))
        return clirr_tin_expected(t, s, what, err);
    *v = neg ? -x : x;
    *pp = p;
    return CLIRR_OK;
}

int clirr_tin_word(tin *t, const char **pp, char *buf, size_t size, bool fold,
             const char *what, clirr_error *err)
{
    const char *p = *pp, *e = t->le;
    while (p < e && is_blank(*p))
        p++;
    const char *s = p;
    size_t k = 0;
    for (; p < e && !is_blank(*p); p++) {
        if (k + 1 >= size)
            return clirr_tin_expected(t, s, what, err);
        char c = *p;
        buf[k++] = fold && c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    if (k == 0)
        return clirr_tin_expected(t, s, what, err);
    buf[k] = '\0';
    *pp = p;
    return CLIRR_OK;
}

int clirr_tin_end(tin *t, const char *p, const char *what, clirr_error *err)
{
    if (clirr_tin_blank_rest(t, &p))
        return CLIRR_OK;
    return clirr_tin_expected(t, p, what, err);
}

uint64_t clirr_tin_entry_line(const char *path, uint64_t k)
{
    tin t;
    clirr_error err;
    uint64_t line = 0, i = 0;
    if (clirr_tin_open(&t, path, &err) != CLIRR_OK)
        return 0;
    while (clirr_tin_next(&t, &err) == CLIRR_OK && t.ls) {
        const char *p = t.ls;
        if (clirr_tin_blank_rest(&t, &p) || *p == '#' || *p == '%')
            continue;
        if (i++ == k) {
            line = t.line;
            break;
        }
    }
    clirr_tin_close(&t);
    return line;
}
