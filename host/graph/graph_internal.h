/* host/graph/graph_internal.h - what the files of host/graph/ share: the
 * growing arc list readers fill (the text reader and writer are in
 * textio.h), little-endian helpers, and the per-format entry
 * points that format.c dispatches to. Nothing here is public. */
#ifndef CLIRR_GRAPH_INTERNAL_H
#define CLIRR_GRAPH_INTERNAL_H

#include "clirr/graph.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "textio.h" /* the text reader and writer */

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

/* Split vertices 0..n-1 into `parts` consecutive ranges of about equal
 * arcs (row_a's, plus row_b's when not NULL; both CSR row offsets):
 * range i is [bound[i], bound[i + 1]), bound[parts] = n. Host threads
 * share the derived forms' work this way (transpose.c). */
void clirr_graph_split_rows(const uint32_t *row_a, const uint32_t *row_b, uint32_t n,
                            unsigned parts, uint32_t *bound);

/* Allocate the three CSR arrays of g for n vertices and m arcs (weights when
 * weighted); g->n and g->m are set, row[0] = 0. */
int clirr_graph_alloc(clirr_graph *g, uint32_t n, uint64_t m, bool weighted,
                clirr_error *err);

#endif
