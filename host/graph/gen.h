/* host/graph/gen.h - shared by the graph generator files: the parsed spec
 * and the streams of the counter-based random numbers (base/rng.h) that
 * make every generated graph identical on every machine. */
#ifndef CLIRR_GRAPH_GEN_H
#define CLIRR_GRAPH_GEN_H

#include "graph_internal.h"
#include "base/rng.h" /* rng_mix, rng_key, rng_at */

typedef enum gen_kind { GEN_RMAT, GEN_RANDOM, GEN_GRID } gen_kind;

/* A spec after parsing and checking; every field holds its default unless
 * the spec set it. */
typedef struct gen_params {
    gen_kind kind;
    uint64_t scale, ef;          /* rmat */
    double a, b, c, d;           /* rmat quadrant probabilities */
    uint64_t permute;            /* rmat: relabel vertices at random */
    uint64_t n, m;               /* random; m = UINT64_MAX until given */
    bool by_degree;              /* random: deg=LO-HI given instead of m */
    uint64_t dlo, dhi;           /* random: out-degrees uniform in [dlo, dhi] */
    uint64_t w, h;               /* grid */
    uint64_t seed;
    bool weighted;
    int64_t wlo, whi;            /* weights=LO-HI, inclusive */
} gen_params;

/* Parse and check "KIND:key=value,..."; CLIRR_ERR_USAGE naming the spec and
 * the key on any problem. */
int clirr_gen_parse(const char *spec, gen_params *p, clirr_error *err);

/* Independent streams of one seed: arcs, weights, the vertex permutation. */
enum { RNG_ARCS = 1, RNG_WEIGHTS = 2, RNG_PERMUTE = 3, RNG_DEGREES = 4 };

#endif
