/* clirr/graph.h - graphs in CSR form: reading, writing, generating.
 *
 * Vertices are 0-based 32-bit ids. Files whose format is 1-based (DIMACS .gr,
 * Matrix Market) are shifted on read: file vertex k becomes vertex k-1.
 * Edges are directed arcs u -> v; an undirected input is represented by both
 * arcs (Matrix Market "symmetric", or --symmetrize). Self-loops and duplicate
 * arcs are kept as given. Weights, when present, are 32-bit signed integers,
 * one per arc, in the same order as the arcs. Real values (Matrix Market
 * "real" or "integer" entries, for SpMV and the like) are kept beside them as
 * doubles, also one per arc in arc order. Nothing here touches OpenCL. */
#ifndef CLIRR_GRAPH_H
#define CLIRR_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "clirr/export.h"
#include "clirr/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest vertex and arc counts a graph may have: ids and offsets are 32-bit
 * on the device, and UINT32_MAX is kept free as a sentinel. */
#define CLIRR_GRAPH_MAX_NODES ((uint64_t)UINT32_MAX - 1)
#define CLIRR_GRAPH_MAX_EDGES ((uint64_t)UINT32_MAX - 1)

typedef struct clirr_graph {
    uint32_t n;          /* vertices */
    uint32_t m;          /* arcs */
    uint32_t *row;       /* n + 1 offsets; arcs of u are col[row[u] .. row[u+1]) */
    uint32_t *col;       /* m arc heads, in input order within each row */
    int32_t *weight;     /* m weights, or NULL when unweighted */
    bool weights_rounded; /* real-valued input rounded to integer weights */
    double *value;       /* m finite real values, or NULL; filled by Matrix
                          * Market files with values (weight then holds them
                          * rounded), .csr files that kept them, and
                          * clirr_graph_set_values */
} clirr_graph;

/* File formats, chosen from the file name (a trailing .gz means gzip). */
typedef enum clirr_graph_format {
    CLIRR_FMT_UNKNOWN = 0,
    CLIRR_FMT_GR,    /* DIMACS shortest-path: "p sp N M", "a U V W", 1-based */
    CLIRR_FMT_MTX,   /* Matrix Market coordinate, 1-based */
    CLIRR_FMT_EL,    /* "u v" per line, 0-based (.el) */
    CLIRR_FMT_TXT,   /* SNAP-style "u v" per line, 0-based (.txt) */
    CLIRR_FMT_WEL,   /* "u v w" per line, 0-based (.wel) */
    CLIRR_FMT_CSR    /* clirr binary CSR (.csr) */
} clirr_graph_format;

/* Format from a path's extension (".gz" stripped first); sets *gz.
 * Returns CLIRR_FMT_UNKNOWN for an extension clirr does not read. */
CLIRR_API clirr_graph_format clirr_graph_format_from_path(const char *path, bool *gz);

/* Short name of a format ("gr", "mtx", ...). */
CLIRR_API const char *clirr_graph_format_name(clirr_graph_format fmt);

/* Read a graph; the format comes from the file name. On malformed input
 * returns CLIRR_ERR_INPUT with "FILE:LINE: what was expected, what was found"
 * in err; CLIRR_ERR_NOMEM when memory runs out. *g is zeroed on failure. */
CLIRR_API int clirr_graph_read(const char *path, clirr_graph *g, clirr_error *err);

/* Write g in the format named by path's extension (gzip for .gz).
 * Weighted formats written from an unweighted graph get weight 1; an
 * unweighted format drops weights. Real values are kept by .csr (with the
 * weights) and by .mtx ("real general", full precision, instead of the
 * weights); the other formats drop them. Returns CLIRR_ERR_IO on write
 * failure. */
CLIRR_API int clirr_graph_write(const char *path, const clirr_graph *g, clirr_error *err);

/* Generate a graph from a SPEC "KIND:key=value,...":
 *   rmat:scale=S,ef=E[,a=..,b=..,c=..,d=..][,seed=N][,permute=0|1]
 *   random:n=N,m=M[,seed=N]
 *   grid:w=W,h=H[,seed=N]
 * any of them with weights=LO-HI for uniform random integer weights.
 * The result is identical for a given spec on every machine.
 * Returns CLIRR_ERR_USAGE for a malformed or impossible spec. */
CLIRR_API int clirr_graph_generate(const char *spec, clirr_graph *g, clirr_error *err);

/* Replace g by its symmetric closure: every arc u->v also as v->u (an arc
 * already present in both directions is not added again; self-loops once).
 * An added arc carries the weight and value of the arc it mirrors. */
CLIRR_API int clirr_graph_symmetrize(clirr_graph *g, clirr_error *err);

/* Fill und (not g itself) with the simple undirected graph of g: for every
 * pair {u, v}, u != v, joined by an arc in either direction, the arcs
 * u -> v and v -> u, each weighted with the lightest weight of the arcs
 * joining the pair (unweighted stays unweighted); no self-loops, no
 * duplicates, each row's heads in increasing order; real values dropped,
 * weights_rounded copied. What minimum spanning forests and connected
 * components read. CLIRR_ERR_NOMEM, or CLIRR_ERR_TOO_LARGE beyond
 * CLIRR_GRAPH_MAX_EDGES arcs (und is zeroed then). */
CLIRR_API int clirr_graph_undirected(const clirr_graph *g, clirr_graph *und, clirr_error *err);

/* Fill t (not g itself) with the transpose of g: an arc v->u for every arc
 * u->v, with its weight and value, n unchanged. Each row of t lists its arcs
 * by increasing source u, and arcs from one source in g's order (a stable
 * counting sort), so row v of t is v's in-arcs. weights_rounded is copied.
 * CLIRR_ERR_NOMEM when memory runs out (t is zeroed then). */
CLIRR_API int clirr_graph_transpose(const clirr_graph *g, clirr_graph *t, clirr_error *err);

/* Give g the m real values x, in g's arc order (copied), replacing any it
 * had; x == NULL removes them. CLIRR_ERR_USAGE for a NaN or infinite value,
 * CLIRR_ERR_NOMEM; g is unchanged on failure. */
CLIRR_API int clirr_graph_set_values(clirr_graph *g, const double *x, clirr_error *err);

/* Build a CSR graph from n vertices and m arcs (src[i] -> dst[i], weight w[i]
 * or w == NULL); arcs keep their relative order within each source. */
CLIRR_API int clirr_graph_from_arcs(uint32_t n, uint64_t m, const uint32_t *src,
                          const uint32_t *dst, const int32_t *w,
                          clirr_graph *g, clirr_error *err);

/* A deep copy of g into out. */
CLIRR_API int clirr_graph_copy(const clirr_graph *g, clirr_graph *out, clirr_error *err);

/* Whether b holds a's arcs in a's order, with the same weights and values
 * (bit for bit), or neither has them. weights_rounded is not compared. */
CLIRR_API bool clirr_graph_equal(const clirr_graph *a, const clirr_graph *b);

/* Out-degree of u. */
static inline uint32_t clirr_graph_degree(const clirr_graph *g, uint32_t u)
{
    return g->row[u + 1] - g->row[u];
}

/* Largest out-degree. */
CLIRR_API uint32_t clirr_graph_max_degree(const clirr_graph *g);

/* Hubs: the largest out-degree is at least `factor` times the mean. */
CLIRR_API bool clirr_graph_has_hubs(const clirr_graph *g, uint32_t factor);

/* Bounded degree (grids, road networks): no vertex has more than `most`
 * (at most 127) neighbours in the symmetric form, tested as out-degree +
 * in-degree <= 2 most: exact on symmetric graphs, at most twice the bound
 * on directed ones. O(m), skipped (false) as soon as an out-degree alone
 * exceeds 2 most, so only sparse graphs pay for the count; false for a
 * graph without arrays (a shape, as `clirr devices` plans with). */
CLIRR_API bool clirr_graph_bounded_degree(const clirr_graph *g, uint32_t most);

/* 64-bit hash of the structure, weights and values (for determinism
 * checks). A graph without values hashes as it did before values existed. */
CLIRR_API uint64_t clirr_graph_hash(const clirr_graph *g);

/* Free the arrays of g and zero it. */
/* Compact the ids to the vertices that have an arc (in or out), keeping
 * their order; *old_ids (malloc'ed, g->n entries after the call) maps each
 * new id to its old one. Arcs, weights and values keep their order. */
CLIRR_API int clirr_graph_relabel_compact(clirr_graph *g, uint32_t **old_ids, clirr_error *err);

/* Locality-optimized vertex layouts (host/graph/reorder.c): none, bfs
 * (breadth-first from the largest out-degree), rcm (reverse Cuthill-McKee),
 * degree (decreasing out-degree). AUTO is no layout but the planner's
 * choice of one (host/templates/plan.c); the functions below take the
 * layouts from NONE to COUNT_ only (the name and parse know "auto"). */
typedef enum clirr_reorder {
    CLIRR_REORDER_AUTO = -1,
    CLIRR_REORDER_NONE = 0,
    CLIRR_REORDER_BFS,
    CLIRR_REORDER_RCM,
    CLIRR_REORDER_DEGREE,
    CLIRR_REORDER_COUNT_
} clirr_reorder;
CLIRR_API const char *clirr_reorder_name(clirr_reorder r);
/* Returns 0 and sets *r, or -1 for an unknown name. */
CLIRR_API int clirr_reorder_parse(const char *name, clirr_reorder *r);
/* perm[old id] = new id (room for g->n) for layout `how`. */
CLIRR_API int clirr_graph_reorder(const clirr_graph *g, clirr_reorder how, uint32_t *perm, clirr_error *err);
/* out = g with vertex v renamed perm[v] (arcs, weights and values kept,
 * each row in its original order). */
CLIRR_API int clirr_graph_permute(const clirr_graph *g, const uint32_t *perm, clirr_graph *out, clirr_error *err);

/* Give every arc a weight drawn uniformly from [lo, hi] by the generators'
 * stream for seed (the same on every machine), replacing any weights and
 * values. */
CLIRR_API int clirr_graph_set_random_weights(clirr_graph *g, int32_t lo, int32_t hi, uint64_t seed,
                                             clirr_error *err);

CLIRR_API void clirr_graph_free(clirr_graph *g);

/* Write g as a Galois binary .gr (version 1, 32-bit heads, the weights as
 * 4-byte edge data), the format LonestarGPU reads; gzipped when path ends
 * in .gz. clirr_graph_read reads it back from any .gr name. */
CLIRR_API int clirr_graph_write_galois(const char *path, const clirr_graph *g, clirr_error *err);

/* Refuse, while reading or generating, a graph one of whose arrays (row
 * offsets, arcs) would exceed device_bytes (CLIRR_ERR_TOO_LARGE: no device
 * chosen could hold it) or host_bytes (CLIRR_ERR_INPUT: more than the host
 * should give it), with the numbers, before the memory is taken. 0 = no
 * such limit (the default: only the machine's memory). */
CLIRR_API void clirr_graph_set_array_limits(uint64_t device_bytes, uint64_t host_bytes);

/* The limits clirr_graph_set_array_limits set (0 = none), which lists and
 * trees (clirr/list.h, clirr/tree.h) obey as well. */
CLIRR_API void clirr_array_limits(uint64_t *device_bytes, uint64_t *host_bytes);

/* Bytes of physical memory, or 0 when the system does not say. */
CLIRR_API uint64_t clirr_physical_memory(void);

/* Read a dense vector of exactly n reals into *x (malloc'd, at least one
 * element; the caller frees it). The file (plain or .gz) holds one number per
 * line, blanks around it allowed; blank lines and lines starting with '#' or
 * '%' are skipped. A Matrix Market dense vector ("%%MatrixMarket matrix
 * array real general", size line "n 1" or "1 n") is read too. On a missing,
 * extra, malformed, NaN or infinite value returns CLIRR_ERR_INPUT with
 * "FILE:LINE: what was expected, what was found"; *x is NULL on failure. */
CLIRR_API int clirr_vector_read(const char *path, uint32_t n, double **x, clirr_error *err);

/* ---- sources ----------------------------------------------------------- */

typedef enum clirr_source_rule {
    CLIRR_SOURCE_VERTEX = 0,  /* the given vertex */
    CLIRR_SOURCE_RANDOM,      /* seeded random vertices with out-degree > 0 (GAPBS) */
    CLIRR_SOURCE_MAX_DEGREE,  /* the vertices of largest out-degree */
    CLIRR_SOURCE_SPREAD       /* evenly spaced: v_i = floor(i * n / k) */
} clirr_source_rule;

typedef struct clirr_source_spec {
    clirr_source_rule rule;
    uint32_t vertex;          /* CLIRR_SOURCE_VERTEX */
    uint32_t count;           /* how many roots; 0 = one (SPREAD: every vertex) */
    uint64_t seed;            /* CLIRR_SOURCE_RANDOM */
} clirr_source_spec;

/* The roots spec picks on g, written to out (room for max) in order; returns
 * how many (fewer when g has fewer candidates), or 0 with err filled
 * (CLIRR_ERR_USAGE: a vertex out of range, a graph without vertices). */
CLIRR_API uint32_t clirr_sources_pick(const clirr_graph *g, const clirr_source_spec *spec,
                                      uint32_t *out, uint32_t max, clirr_error *err);

/* "0", "random", "max-degree", "spread". Parse: a vertex number or a rule
 * name; returns 0, or -1 for anything else. */
CLIRR_API const char *clirr_source_rule_name(clirr_source_rule rule);
CLIRR_API int clirr_source_parse(const char *text, clirr_source_spec *spec);

#ifdef __cplusplus
}
#endif
#endif
