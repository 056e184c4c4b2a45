/* host/graph/gen.h - shared by the generator files: the parsed spec and the
 * counter-based random numbers that make every generated graph identical on
 * every machine. */
#ifndef CLIRR_GRAPH_GEN_H
#define CLIRR_GRAPH_GEN_H

#include "graph_internal.h"

typedef enum gen_kind { GEN_RMAT, GEN_RANDOM, GEN_GRID } gen_kind;

/* A spec after parsing and checking; every field holds its default unless
 * the spec set it. */
typedef struct gen_params {
    gen_kind kind;
    uint64_t scale, ef;          /* rmat */
    double a, b, c, d;           /* rmat quadrant probabilities */
    uint64_t permute;            /* rmat: relabel vertices at random */
    uint64_t n, m;               /* random */
    uint64_t w, h;               /* grid */
    uint64_t seed;
    bool weighted;
    int64_t wlo, whi;            /* weights=LO-HI, inclusive */
} gen_params;

/* Parse and check "KIND:key=value,..."; CLIRR_ERR_USAGE naming the spec and
 * the key on any problem. */
int clirr_gen_parse(const char *spec, gen_params *p, clirr_error *err);

/* splitmix64's output function (Steele, Lea, Flood, OOPSLA 2014). */
static inline uint64_t rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Independent streams of one seed: arcs, weights, the vertex permutation. */
enum { RNG_ARCS = 1, RNG_WEIGHTS = 2, RNG_PERMUTE = 3 };

static inline uint64_t rng_key(uint64_t seed, uint64_t stream)
{
    return rng_mix(rng_mix(seed) + stream * 0xd1b54a32d192ed03ULL);
}

/* Draw i of a stream: splitmix64's i-th output from state `key`, computed
 * from the counter alone, so each arc can be generated (and regenerated)
 * without the ones before it. Integer arithmetic only: identical
 * everywhere. */
static inline uint64_t rng_at(uint64_t key, uint64_t i)
{
    return rng_mix(key + (i + 1) * 0x9e3779b97f4a7c15ULL);
}

#endif
