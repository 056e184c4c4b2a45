/* host/base/rng.h - the counter-based random numbers every generator draws
 * from (graphs, lists, trees), so that a generated input is identical on
 * every machine, and a keyed pseudo-random permutation of [0, n) computed
 * element by element (no shuffle pass over memory). Integer arithmetic
 * only. */
#ifndef CLIRR_BASE_RNG_H
#define CLIRR_BASE_RNG_H

#include <stdint.h>

/* splitmix64's output function (Steele, Lea, Flood, OOPSLA 2014). */
static inline uint64_t rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The key of stream `stream` of a seed: independent streams of one seed. */
static inline uint64_t rng_key(uint64_t seed, uint64_t stream)
{
    return rng_mix(rng_mix(seed) + stream * 0xd1b54a32d192ed03ULL);
}

/* Draw i of a stream: splitmix64's i-th output from state `key`, computed
 * from the counter alone, so each draw can be made (and remade) without
 * the ones before it. */
static inline uint64_t rng_at(uint64_t key, uint64_t i)
{
    return rng_mix(key + (i + 1) * 0x9e3779b97f4a7c15ULL);
}

/* A uniform integer in [0, bound) from a 64-bit draw (Lemire's multiply;
 * the bias is below 2^-32 for any 32-bit bound). */
static inline uint32_t rng_below(uint64_t draw, uint32_t bound)
{
    return (uint32_t)(((draw >> 32) * (uint64_t)bound) >> 32);
}

/* A keyed permutation of [0, n): a 4-round Feistel network on the
 * smallest even number of bits covering n, walked in cycles until the
 * value falls below n (under 4 steps on average). */
typedef struct rng_perm {
    uint64_t key;
    uint32_t n;
    unsigned half;      /* bits of each half */
    uint64_t mask;
} rng_perm;

static inline rng_perm rng_perm_make(uint64_t key, uint32_t n)
{
    rng_perm p = {key, n, 1, 1};
    while ((1ull << (2 * p.half)) < (uint64_t)n)
        p.half++;
    p.mask = (1ull << p.half) - 1;
    return p;
}

static inline uint32_t rng_perm_at(const rng_perm *p, uint32_t x)
{
    if (p->n <= 1)
        return x;
    uint64_t v = x;
    do {
        uint64_t l = v >> p->half, r = v & p->mask;
        for (uint64_t round = 0; round < 4; round++) {
            uint64_t f = rng_mix(p->key ^ (r + round * 0x9e3779b97f4a7c15ULL)) & p->mask;
            uint64_t t = r;
            r = l ^ f;
            l = t;
        }
        v = l << p->half | r;
    } while (v >= p->n);
    return (uint32_t)v;
}

#endif
