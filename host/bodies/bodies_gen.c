/* host/bodies/bodies_gen.c - generated bodies "plummer:n=N[,seed=S]": the
 * Plummer sphere the way LonestarGPU's Barnes-Hut draws it. Body i:
 *   - mass 1/N;
 *   - a radius r from the model's cumulative mass M(r) = r^3 / (1+r^2)^1.5
 *     inverted at a uniform draw u (scaled by 0.999 to cut the far tail):
 *     r = 1 / sqrt(u^(-2/3) - 1);
 *   - a direction uniform on the sphere (a point of the cube drawn until
 *     it falls in the unit ball), the position r * 3pi/16 along it;
 *   - a speed x * sqrt(2) * (1+r^2)^(-1/4) (x times the escape speed),
 *     x drawn by von Neumann rejection from g(x) = x^2 (1-x^2)^3.5 under
 *     the constant 0.1, in an independent uniform direction, scaled by
 *     sqrt(16 / 3pi).
 * Each body draws from its own counter-based stream (base/rng.h), and
 * only correctly rounded operations (+ - * / sqrt, a cube root by a fixed
 * Newton iteration) turn draws into reals, so every machine gets the same
 * doubles (pinned by hash in tests/test_bodies.c). */
#include "bodies/bodies_internal.h"

#include "base/rng.h"
#include "base/spec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A fused multiply-add would round differently from machine to machine. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

typedef struct bodies_params {
    uint64_t n, seed;
} bodies_params;

static const clirr_spec_key plummer_keys[] = {
    {"n", CLIRR_SPEC_UINT, 1, CLIRR_BODIES_MAX, NULL, true, offsetof(bodies_params, n)},
    {"seed", CLIRR_SPEC_UINT, 0, UINT64_MAX, NULL, false, offsetof(bodies_params, seed)},
};
static const clirr_spec_kind body_kinds[] = {
    {"plummer", plummer_keys, sizeof plummer_keys / sizeof plummer_keys[0]},
};

enum { STREAM_BODY = 21 };

bool clirr_bodies_spec(const char *spec) { return clirr_spec_is(spec, body_kinds, 1); }

/* The draws of one body, one after another. */
typedef struct draws {
    uint64_t key, next;
} draws;

/* A uniform double in [0, 1): 53 random bits. */
static double uniform(draws *d) { return (double)(rng_at(d->key, d->next++) >> 11) * 0x1.0p-53; }

/* The cube root of w in (0, 1]: w = f 8^-k with f in [1/8, 1) by exact
 * scalings, Newton's iteration on f from a linear guess (a fixed number of
 * steps, so the same operations everywhere), then the exact rescaling. */
static double cube_root(double w)
{
    int k = 0;
    while (w < 0.125) {
        w *= 8;
        k++;
    }
    double y = 0.5 + (w - 0.125) * (0.5 / 0.875);
    for (int i = 0; i < 8; i++)
        y = y - (y * y * y - w) / (3 * y * y);
    while (k--)
        y *= 0.5;
    return y;
}

/* A uniform point of the unit ball (not the origin): *sq its squared norm. */
static void in_ball(draws *d, double p[3], double *sq)
{
    do {
        for (int k = 0; k < 3; k++)
            p[k] = uniform(d) * 2.0 - 1.0;
        *sq = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
    } while (*sq > 1.0 || *sq == 0.0);
}

static void plummer_body(uint64_t seed, uint32_t i, uint32_t n, double *v)
{
    static const double rsc = 3 * 3.14159265358979323846 / 16;
    double vsc = sqrt(1.0 / rsc);
    draws d = {rng_key(seed, STREAM_BODY) ^ rng_mix((uint64_t)i + 1), 0};
    v[CLIRR_BODY_M] = 1.0 / n;
    double u = uniform(&d) * 0.999, r = 0;
    if (u > 0) {
        double c = cube_root(u);
        r = 1.0 / sqrt(1.0 / (c * c) - 1.0);
    }
    double p[3], sq;
    in_ball(&d, p, &sq);
    double scale = rsc * r / sqrt(sq);
    for (int k = 0; k < 3; k++)
        v[CLIRR_BODY_X + k] = p[k] * scale;
    double x, y, g;
    do {
        x = uniform(&d);
        y = uniform(&d) * 0.1;
        double q = 1.0 - x * x;
        g = x * x * (q * q * q * sqrt(q));
    } while (y > g);
    double speed = x * sqrt(2.0 / sqrt(1.0 + r * r));
    in_ball(&d, p, &sq);
    scale = vsc * speed / sqrt(sq);
    for (int k = 0; k < 3; k++)
        v[CLIRR_BODY_VX + k] = p[k] * scale;
}

int clirr_bodies_generate(const char *spec, clirr_bodies *b, clirr_error *err)
{
    memset(b, 0, sizeof *b);
    bodies_params bp = {0, 1};
    int k = clirr_spec_parse(spec, "bodies", body_kinds, 1, &bp, err);
    if (k < 0)
        return k;
    int rc = clirr_bodies_fits(bp.n, spec, err);
    if (rc != CLIRR_OK)
        return rc;
    uint32_t n = (uint32_t)bp.n;
    b->v = malloc((size_t)n * CLIRR_BODY_REALS * sizeof *b->v);
    if (!b->v)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %u bodies", n);
    b->n = n;
    for (uint32_t i = 0; i < n; i++)
        plummer_body(bp.seed, i, n, b->v + (size_t)i * CLIRR_BODY_REALS);
    return CLIRR_OK;
}
