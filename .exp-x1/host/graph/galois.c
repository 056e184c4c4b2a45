/* host/graph/galois.c - the Galois binary .gr files LonestarGPU's inputs
 * come in, sniffed by their first word (the DIMACS reader hands them over).
 * Little-endian:
 *   uint64 version (1: 32-bit heads; 2: 64-bit heads), uint64 size of the
 *   edge data (0, or 4: a 32-bit integer weight per arc), uint64 n, uint64 m,
 *   uint64 out_index[n]   (the end of each vertex's arcs),
 *   heads[m]              (uint32 in version 1, uint64 in version 2),
 *   version 1 with m odd: 4 bytes of padding (present when edge data
 *   follows; accepted, zero, at the end of a file without it),
 *   int32 edge data[m]    (when its size is 4).
 * Every field is checked: counts against clirr's limits and the file's
 * size, offsets in order and ending at m, heads below n. The writer makes
 * version 1 with 4-byte weights when the graph has them. */
#include "graph_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read exactly bytes into p; what names the field for messages. */
static int read_exact(gzFile gz, const char *path, void *p, uint64_t bytes, const char *what,
                      clirr_error *err)
{
    unsigned char *dst = p;
    while (bytes > 0) {
        unsigned chunk = bytes > (1u << 30) ? 1u << 30 : (unsigned)bytes;
        int got = gzread(gz, dst, chunk);
        if (got < 0)
            return clirr_fail(err, CLIRR_ERR_IO, "%s: reading the %s failed", path, what);
        if (got == 0)
            return clirr_fail(err, CLIRR_ERR_INPUT, "%s: truncated in the %s", path, what);
        dst += got;
        bytes -= (uint64_t)got;
    }
    return CLIRR_OK;
}

bool clirr_galois_sniff(const unsigned char *head, size_t len)
{
    if (len < 8)
        return false;
    uint64_t version = get_le64(head);
    return version == 1 || version == 2;
}

/* out_index (n uint64) into row (n + 1 uint32), checked. */
static int read_offsets(gzFile gz, const char *path, clirr_graph *g, clirr_error *err)
{
    g->row[0] = 0;
    unsigned char buf[8 * 4096];
    for (uint64_t done = 0; done < g->n;) {
        uint64_t k = g->n - done < 4096 ? g->n - done : 4096;
        int rc = read_exact(gz, path, buf, 8 * k, "out-index array", err);
        if (rc != CLIRR_OK)
            return rc;
        for (uint64_t i = 0; i < k; i++) {
            uint64_t end = get_le64(buf + 8 * i), v = done + i;
            if (end < g->row[v] || end > g->m)
                return clirr_fail(err, CLIRR_ERR_INPUT,
                                  "%s: out_index[%llu] = %llu is out of order or beyond m = %u", path,
                                  (unsigned long long)v, (unsigned long long)end, g->m);
            g->row[v + 1] = (uint32_t)end;
        }
        done += k;
    }
    if (g->row[g->n] != g->m)
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s: out_index[n-1] = %u, expected m = %u", path,
                          g->row[g->n], g->m);
    return CLIRR_OK;
}

static int read_heads(gzFile gz, const char *path, uint64_t version, clirr_graph *g, clirr_error *err)
{
    unsigned width = version == 1 ? 4 : 8;
    unsigned char buf[8 * 4096];
    for (uint64_t done = 0; done < g->m;) {
        uint64_t k = g->m - done < 4096 ? g->m - done : 4096;
        int rc = read_exact(gz, path, buf, width * k, "head array", err);
        if (rc != CLIRR_OK)
            return rc;
        for (uint64_t i = 0; i < k; i++) {
            uint64_t v = width == 4 ? get_le32(buf + 4 * i) : get_le64(buf + 8 * i);
            if (v >= g->n)
                return clirr_fail(err, CLIRR_ERR_INPUT, "%s: head %llu of arc %llu is not a vertex (n = %u)",
                                  path, (unsigned long long)v, (unsigned long long)(done + i), g->n);
            g->col[done + i] = (uint32_t)v;
        }
        done += k;
    }
    return CLIRR_OK;
}

static int read_weights(gzFile gz, const char *path, clirr_graph *g, clirr_error *err)
{
    int rc = read_exact(gz, path, g->weight, 4 * (uint64_t)g->m, "edge data", err);
    if (rc == CLIRR_OK && !host_is_le())
        for (uint32_t e = 0; e < g->m; e++)
            g->weight[e] = (int32_t)bswap32((uint32_t)g->weight[e]);
    return rc;
}

/* After the last field: nothing, or (version 1, m odd, no edge data) a
 * zero padding word. */
static int check_end(gzFile gz, const char *path, bool pad_allowed, clirr_error *err)
{
    unsigned char rest[8];
    int got = gzread(gz, rest, sizeof rest);
    if (got < 0)
        return clirr_fail(err, CLIRR_ERR_IO, "%s: reading failed", path);
    if (got == 0 || (pad_allowed && got == 4 && !get_le32(rest)))
        return CLIRR_OK;
    return clirr_fail(err, CLIRR_ERR_INPUT, "%s: trailing data after the graph", path);
}

int clirr_graph_read_galois(const char *path, clirr_graph *g, clirr_error *err)
{
    errno = 0;
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return clirr_fail(err, CLIRR_ERR_IO, "cannot open %s: %s", path, errno ? strerror(errno) : "out of memory");
    unsigned char h[32];
    int rc = read_exact(gz, path, h, sizeof h, "header", err);
    uint64_t version = get_le64(h), edata = get_le64(h + 8), n = get_le64(h + 16), m = get_le64(h + 24);
    if (rc == CLIRR_OK && edata != 0 && edata != 4)
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s: Galois .gr with %llu-byte edge data; clirr reads none or 4-byte integer "
                        "weights", path, (unsigned long long)edata);
    if (rc == CLIRR_OK && (n > CLIRR_GRAPH_MAX_NODES || m > CLIRR_GRAPH_MAX_EDGES))
        rc = clirr_fail(err, CLIRR_ERR_INPUT,
                        "%s: the header says %llu vertices and %llu arcs; clirr handles at most %llu of each",
                        path, (unsigned long long)n, (unsigned long long)m,
                        (unsigned long long)CLIRR_GRAPH_MAX_NODES);
    /* A plain file's size is known: refuse a header it cannot hold before
     * allocating what the header asks for. */
    uint64_t need = 32 + 8 * n + (version == 1 ? 4 : 8) * m + edata * m;
    if (rc == CLIRR_OK && gzdirect(gz)) {
        FILE *f = fopen(path, "rb");
        long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
        if (f)
            fclose(f);
        if (size >= 0 && (uint64_t)size < need)
            rc = clirr_fail(err, CLIRR_ERR_INPUT,
                            "%s: truncated: the header (version %llu, n = %llu, m = %llu) implies at least "
                            "%llu bytes, the file has %ld",
                            path, (unsigned long long)version, (unsigned long long)n,
                            (unsigned long long)m, (unsigned long long)need, size);
    }
    if (rc == CLIRR_OK)
        rc = clirr_graph_alloc(g, (uint32_t)n, m, edata == 4, err);
    if (rc == CLIRR_OK)
        rc = read_offsets(gz, path, g, err);
    if (rc == CLIRR_OK)
        rc = read_heads(gz, path, version, g, err);
    bool odd_v1 = version == 1 && m % 2;
    if (rc == CLIRR_OK && edata == 4 && odd_v1) {
        unsigned char pad[4];
        rc = read_exact(gz, path, pad, 4, "padding after the heads", err);
    }
    if (rc == CLIRR_OK && edata == 4)
        rc = read_weights(gz, path, g, err);
    if (rc == CLIRR_OK)
        rc = check_end(gz, path, odd_v1 && edata == 0, err);
    gzclose(gz);
    if (rc != CLIRR_OK)
        clirr_graph_free(g);
    return rc;
}

/* Version 1 with 32-bit heads, 4-byte edge data when g has weights, the
 * padding word after an odd number of heads (as Galois writes it). */
int clirr_graph_write_galois(const char *path, const clirr_graph *g, clirr_error *err)
{
    bool gz = false;
    (void)clirr_graph_format_from_path(path, &gz);
    tout t;
    int rc = clirr_tout_open(&t, path, gz, err);
    if (rc != CLIRR_OK)
        return rc;
    unsigned char word[8];
    uint64_t header[4] = {1, g->weight ? 4 : 0, g->n, g->m};
    for (int i = 0; i < 4; i++) {
        for (int b = 0; b < 8; b++)
            word[b] = (unsigned char)(header[i] >> (8 * b));
        clirr_tout_bytes(&t, word, 8);
    }
    for (uint32_t v = 0; v < g->n && !t.failed; v++) {
        uint64_t end = g->row[v + 1];
        for (int b = 0; b < 8; b++)
            word[b] = (unsigned char)(end >> (8 * b));
        clirr_tout_bytes(&t, word, 8);
    }
    for (uint32_t e = 0; e < g->m && !t.failed; e++) {
        for (int b = 0; b < 4; b++)
            word[b] = (unsigned char)(g->col[e] >> (8 * b));
        clirr_tout_bytes(&t, word, 4);
    }
    if (g->m % 2) {
        memset(word, 0, 4);
        clirr_tout_bytes(&t, word, 4);
    }
    for (uint32_t e = 0; g->weight && e < g->m && !t.failed; e++) {
        uint32_t w = (uint32_t)g->weight[e];
        for (int b = 0; b < 4; b++)
            word[b] = (unsigned char)(w >> (8 * b));
        clirr_tout_bytes(&t, word, 4);
    }
    return clirr_tout_close(&t, err);
}
