/* host/graph/csrbin.c - clirr's binary CSR format (.csr), for inputs that
 * load in the time it takes to read them. All integers little-endian:
 *
 *   offset  size  field
 *        0     8  magic "CLIRRCSR"
 *        8     4  version (2; version 1 files are read too)
 *       12     4  flags: bit 0 weighted, bit 1 weights were rounded,
 *                 bit 2 real values (version 2 only)
 *       16     8  n (vertices)
 *       24     8  m (arcs)
 *       32        row[n + 1] uint32, col[m] uint32, then weight[m] int32
 *                 when weighted, then value[m] IEEE-754 binary64 when
 *                 valued; nothing after.
 *
 * Version 2 only added the values, so a version 1 file is a version 2 file
 * without bit 2; the writer always writes version 2.
 *
 * Nothing in the file is trusted: the header is checked against the limits
 * and the file length, arrays are allocated as data actually arrives (a
 * corrupt count in a gzipped file cannot make us allocate gigabytes), and
 * offsets, heads and values are validated before the graph is handed out. */
#include "graph_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CSR_MAGIC "CLIRRCSR"
#define CSR_VERSION 2u
#define CSR_HEADER 32
#define CSR_WEIGHTED 1u
#define CSR_ROUNDED 2u
#define CSR_VALUES 4u

/* Read up to len bytes; returns the count read or -1 on a read error. */
static int64_t read_some(gzFile gz, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        size_t want = len - got < ((size_t)1 << 30) ? len - got : ((size_t)1 << 30);
        int k = gzread(gz, (char *)buf + got, (unsigned)want);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (int64_t)got;
}

static int read_error(gzFile gz, const char *path, clirr_error *err)
{
    int zerr = Z_OK;
    const char *why = gzerror(gz, &zerr);
    if (zerr == Z_BUF_ERROR)
        why = "truncated gzip data (the compressed stream ends early)";
    return clirr_fail(err, CLIRR_ERR_INPUT, "cannot read %s: %s", path,
                      zerr == Z_ERRNO ? strerror(errno) : why);
}

/* Read count little-endian elements of `size` bytes (4 or 8) into a new
 * array, growing it only as data arrives. `what` names the array for the
 * truncation message. */
static int read_array(gzFile gz, const char *path, uint64_t count, size_t size,
                      uint64_t at, const char *what, void **out, clirr_error *err)
{
    uint64_t cap = count < ((uint64_t)1 << 20) ? count : ((uint64_t)1 << 20);
    unsigned char *a = malloc((size_t)(cap ? cap : 1) * size);
    if (!a)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reading %s", path);
    uint64_t have = 0;
    while (have < count) {
        if (have == cap) {
            cap = cap * 2 < count ? cap * 2 : count;
            unsigned char *b = realloc(a, (size_t)cap * size);
            if (!b) {
                free(a);
                return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory reading %s", path);
            }
            a = b;
        }
        size_t want = (size_t)(cap - have) * size;
        int64_t got = read_some(gz, a + have * size, want);
        if (got < 0) {
            free(a);
            return read_error(gz, path, err);
        }
        have += (uint64_t)got / size;
        if ((size_t)got < want) {
            free(a);
            int zerr = Z_OK;
            gzerror(gz, &zerr);
            if (zerr == Z_BUF_ERROR)
                return read_error(gz, path, err);
            return clirr_fail(err, CLIRR_ERR_INPUT,
                              "%s: truncated: the file ends at byte %llu, inside %s "
                              "(%llu %s from byte %llu)",
                              path, (unsigned long long)(at + have * size + (uint64_t)got % size),
                              what, (unsigned long long)count,
                              size == 4 ? "words" : "doubles", (unsigned long long)at);
        }
    }
    if (!host_is_le()) {
        uint32_t *w = (uint32_t *)a;
        for (uint64_t i = 0; i < count * (size / 4); i++)
            w[i] = bswap32(w[i]);
        /* Each double's two words, swapped above, also trade places. */
        for (uint64_t i = 0; size == 8 && i < count; i++) {
            uint32_t lo = w[2 * i];
            w[2 * i] = w[2 * i + 1];
            w[2 * i + 1] = lo;
        }
    }
    *out = a;
    return CLIRR_OK;
}

static int read_words(gzFile gz, const char *path, uint64_t count, uint64_t at,
                      const char *what, uint32_t **out, clirr_error *err)
{
    void *p = NULL;
    int rc = read_array(gz, path, count, 4, at, what, &p, err);
    *out = p;
    return rc;
}

/* Offsets start at 0, never decrease, end at m; heads lie below n. */
static int validate(const char *path, const clirr_graph *g, clirr_error *err)
{
    const uint32_t *row = g->row;
    if (row[0] != 0)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s: inconsistent: row[0] is %u, expected 0", path, row[0]);
    for (uint32_t u = 0; u < g->n; u++)
        if (row[u + 1] < row[u])
            return clirr_fail(err, CLIRR_ERR_INPUT,
                              "%s: inconsistent: offsets out of order, row[%u] = %u > row[%u] = %u",
                              path, u, row[u], u + 1, row[u + 1]);
    if (row[g->n] != g->m)
        return clirr_fail(err, CLIRR_ERR_INPUT,
                          "%s: inconsistent: row[n] = row[%u] is %u, expected m = %u",
                          path, g->n, row[g->n], g->m);
    for (uint32_t k = 0; k < g->m; k++)
        if (g->col[k] >= g->n)
            return clirr_fail(err, CLIRR_ERR_INPUT,
                              "%s: inconsistent: col[%u] = %u is not a vertex (n = %u)",
                              path, k, g->col[k], g->n);
    for (uint32_t k = 0; g->value && k < g->m; k++)
        if (!isfinite(g->value[k]))
            return clirr_fail(err, CLIRR_ERR_INPUT,
                              "%s: inconsistent: value[%u] = %g is not a finite number",
                              path, k, g->value[k]);
    return CLIRR_OK;
}

int clirr_graph_read_csrbin(const char *path, clirr_graph *g, clirr_error *err)
{
    errno = 0;
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return clirr_fail(err, CLIRR_ERR_INPUT, "cannot open %s: %s", path,
                          errno ? strerror(errno) : "out of memory");
    int rc = CLIRR_OK;
    unsigned char h[CSR_HEADER];
    int64_t got = read_some(gz, h, sizeof h);
    if (got < 0) {
        rc = read_error(gz, path, err);
        goto fail;
    }
    if (got < 8 || memcmp(h, CSR_MAGIC, 8) != 0) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s: not a clirr binary CSR file (expected the magic \"%s\" at byte 0)",
                        path, CSR_MAGIC);
        goto fail;
    }
    if (got < CSR_HEADER) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s: truncated: the header needs %d bytes, the file has %lld",
                        path, CSR_HEADER, (long long)got);
        goto fail;
    }
    uint32_t version = get_le32(h + 8), flags = get_le32(h + 12);
    uint64_t n = get_le64(h + 16), m = get_le64(h + 24);
    if (version < 1 || version > CSR_VERSION) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s: binary CSR version %u, this clirr reads versions 1 to %u",
                        path, version, CSR_VERSION);
        goto fail;
    }
    uint32_t known = CSR_WEIGHTED | CSR_ROUNDED | (version >= 2 ? CSR_VALUES : 0);
    if (flags & ~known) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT, "%s: unknown flags 0x%x in the header",
                        path, flags);
        goto fail;
    }
    if (n > CLIRR_GRAPH_MAX_NODES || m > CLIRR_GRAPH_MAX_EDGES) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s: the header says %llu vertices and %llu arcs; clirr handles at most %llu of each",
                        path, (unsigned long long)n, (unsigned long long)m,
                        (unsigned long long)CLIRR_GRAPH_MAX_NODES);
        goto fail;
    }
    bool weighted = flags & CSR_WEIGHTED, valued = flags & CSR_VALUES;
    /* Rounded weights without weights would be a false note to the user. */
    if ((flags & CSR_ROUNDED) && !weighted) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s: the header's flags 0x%x say the weights were rounded but the file has "
                        "no weights",
                        path, flags);
        goto fail;
    }
    uint64_t size = CSR_HEADER + 4 * (n + 1) + 4 * m * (weighted ? 2 : 1) + (valued ? 8 * m : 0);
    /* A plain file's length is known up front: check it before allocating. */
    struct stat st;
    if (gzdirect(gz) && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size != size) {
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s: %s: the header (n = %llu, m = %llu%s%s) implies %llu bytes, the file has %llu",
                        path, (uint64_t)st.st_size < size ? "truncated" : "trailing data",
                        (unsigned long long)n, (unsigned long long)m,
                        weighted ? ", weighted" : "", valued ? ", values" : "",
                        (unsigned long long)size,
                        (unsigned long long)st.st_size);
        goto fail;
    }
    memset(g, 0, sizeof *g);
    g->n = (uint32_t)n;
    g->m = (uint32_t)m;
    g->weights_rounded = flags & CSR_ROUNDED;
    uint64_t at = CSR_HEADER;
    if ((rc = read_words(gz, path, n + 1, at, "row", &g->row, err)))
        goto fail;
    at += 4 * (n + 1);
    if ((rc = read_words(gz, path, m, at, "col", &g->col, err)))
        goto fail;
    at += 4 * m;
    if (weighted) {
        uint32_t *w = NULL;
        if ((rc = read_words(gz, path, m, at, "weight", &w, err)))
            goto fail;
        g->weight = (int32_t *)w;
        at += 4 * m;
    }
    if (valued) {
        void *x = NULL;
        if ((rc = read_array(gz, path, m, 8, at, "value", &x, err)))
            goto fail;
        g->value = x;
    }
    unsigned char extra;
    got = read_some(gz, &extra, 1);
    if (got != 0) {
        rc = got < 0 ? read_error(gz, path, err)
                     : clirr_fail(err, CLIRR_ERR_INPUT,
                                  "%s: trailing data after the %llu bytes the header implies",
                                  path, (unsigned long long)size);
        goto fail;
    }
    int zerr = Z_OK;
    gzerror(gz, &zerr);
    if (zerr == Z_BUF_ERROR) {
        rc = read_error(gz, path, err);
        goto fail;
    }
    if ((rc = validate(path, g, err)))
        goto fail;
    gzclose(gz);
    return CLIRR_OK;
fail:
    gzclose(gz);
    clirr_graph_free(g);
    return rc;
}

static void write_words(tout *t, const void *words, uint64_t count)
{
    if (host_is_le()) {
        clirr_tout_bytes(t, words, (size_t)count * 4);
        return;
    }
    const uint32_t *w = words;
    for (uint64_t i = 0; i < count; i++) {
        unsigned char b[4];
        put_le32(b, w[i]);
        clirr_tout_bytes(t, b, 4);
    }
}

static void write_doubles(tout *t, const double *x, uint64_t count)
{
    if (host_is_le()) {
        clirr_tout_bytes(t, x, (size_t)count * 8);
        return;
    }
    for (uint64_t i = 0; i < count; i++) {
        uint64_t bits;
        unsigned char b[8];
        memcpy(&bits, &x[i], 8);
        put_le64(b, bits);
        clirr_tout_bytes(t, b, 8);
    }
}

int clirr_graph_write_csrbin(const char *path, bool gz, const clirr_graph *g,
                       clirr_error *err)
{
    tout t;
    int rc = clirr_tout_open(&t, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    unsigned char h[CSR_HEADER];
    memcpy(h, CSR_MAGIC, 8);
    put_le32(h + 8, CSR_VERSION);
    put_le32(h + 12, (g->weight ? CSR_WEIGHTED : 0) |
                         (g->weight && g->weights_rounded ? CSR_ROUNDED : 0) |
                         (g->value ? CSR_VALUES : 0));
    put_le64(h + 16, g->n);
    put_le64(h + 24, g->m);
    clirr_tout_bytes(&t, h, sizeof h);
    write_words(&t, g->row, (uint64_t)g->n + 1);
    write_words(&t, g->col, g->m);
    if (g->weight)
        write_words(&t, g->weight, g->m);
    if (g->value)
        write_doubles(&t, g->value, g->m);
    return clirr_tout_close(&t, err);
}
