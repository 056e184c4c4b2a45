/* host/graph/gen_spec.c - parsing generator specs "KIND:key=value,...":
 * a table of keys per kind (type, range, required or default), one parser
 * for all of them, then the checks that involve several keys. Every error
 * is CLIRR_ERR_USAGE and names the spec and the key. */
#include "gen.h"

#include "base/spec.h"

#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum key_type { K_UINT, K_PROB, K_WEIGHTS, K_DEGREES } key_type;

typedef struct key_def {
    const char *name;
    key_type type;
    uint64_t lo, hi;   /* K_UINT range */
    bool required;
    size_t off;        /* where the value goes in gen_params */
} key_def;

#define UINT_KEY(name, lo, hi, req, field)                                     \
    {name, K_UINT, lo, hi, req, offsetof(gen_params, field)}
#define PROB_KEY(name, field) {name, K_PROB, 0, 0, false, offsetof(gen_params, field)}
#define SEED_KEY UINT_KEY("seed", 0, UINT64_MAX, false, seed)
#define WEIGHTS_KEY {"weights", K_WEIGHTS, 0, 0, false, 0}

static const key_def rmat_keys[] = {
    UINT_KEY("scale", 1, 31, true, scale),
    UINT_KEY("ef", 1, CLIRR_GRAPH_MAX_EDGES, false, ef),
    PROB_KEY("a", a), PROB_KEY("b", b), PROB_KEY("c", c), PROB_KEY("d", d),
    SEED_KEY,
    UINT_KEY("permute", 0, 1, false, permute),
    WEIGHTS_KEY,
};
static const key_def random_keys[] = {
    UINT_KEY("n", 1, CLIRR_GRAPH_MAX_NODES, true, n),
    UINT_KEY("m", 0, CLIRR_GRAPH_MAX_EDGES, false, m),
    {"deg", K_DEGREES, 0, CLIRR_GRAPH_MAX_NODES, false, 0},
    SEED_KEY,
    WEIGHTS_KEY,
};
static const key_def grid_keys[] = {
    UINT_KEY("w", 1, CLIRR_GRAPH_MAX_NODES, true, w),
    UINT_KEY("h", 1, CLIRR_GRAPH_MAX_NODES, true, h),
    SEED_KEY,
    WEIGHTS_KEY,
};

static const struct kind_def {
    const char *name;
    gen_kind kind;
    const key_def *keys;
    size_t nkeys;
} kinds[] = {
    {"rmat", GEN_RMAT, rmat_keys, sizeof rmat_keys / sizeof rmat_keys[0]},
    {"random", GEN_RANDOM, random_keys, sizeof random_keys / sizeof random_keys[0]},
    {"grid", GEN_GRID, grid_keys, sizeof grid_keys / sizeof grid_keys[0]},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static bool parse_int(const char *s, size_t len, int64_t *v)
{
    bool neg = len && s[0] == '-';
    uint64_t x;
    if (!clirr_spec_parse_uint(s + neg, len - neg, &x) || x > (uint64_t)INT64_MAX)
        return false;
    *v = neg ? -(int64_t)x : (int64_t)x;
    return true;
}

/* A plain decimal number (no "nan", "inf" or hex, which strtod would take),
 * converted in the C locale's notation whatever the process locale is. */
static bool parse_real(const char *s, size_t len, double *v)
{
    char tmp[64];
    if (len == 0 || len >= sizeof tmp || strspn(s, "0123456789.eE+-") < len)
        return false;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    const char *dp = localeconv()->decimal_point;
    char *dot = strchr(tmp, '.');
    if (dot && dp && dp[0] && !dp[1])
        *dot = dp[0];
    char *end;
    *v = strtod(tmp, &end);
    return end == tmp + len && isfinite(*v);
}

static int parse_value(const char *spec, const key_def *key, const char *s,
                       size_t len, gen_params *p, clirr_error *err)
{
    switch (key->type) {
    case K_UINT: {
        uint64_t x;
        if (!clirr_spec_parse_uint(s, len, &x) || x < key->lo || x > key->hi)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': key '%s': expected an integer from %llu to %llu, found '%.*s'",
                              spec, key->name, (unsigned long long)key->lo,
                              (unsigned long long)key->hi, (int)len, s);
        *(uint64_t *)((char *)p + key->off) = x;
        return CLIRR_OK;
    }
    case K_PROB: {
        double x;
        if (!parse_real(s, len, &x) || x < 0 || x > 1)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': key '%s': expected a probability from 0 to 1, found '%.*s'",
                              spec, key->name, (int)len, s);
        *(double *)((char *)p + key->off) = x;
        return CLIRR_OK;
    }
    case K_DEGREES: {
        /* LO-HI out-degrees of every vertex, the recursion study's random
         * graphs (shared/papers/001, III.C). */
        const char *dash = memchr(s, '-', len);
        uint64_t lo, hi;
        if (!dash || !clirr_spec_parse_uint(s, (size_t)(dash - s), &lo) ||
            !clirr_spec_parse_uint(dash + 1, len - (size_t)(dash + 1 - s), &hi) || lo > hi || hi > key->hi)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': key 'deg': expected LO-HI, integers from 0 to %llu "
                              "with LO <= HI, found '%.*s'",
                              spec, (unsigned long long)key->hi, (int)len, s);
        p->by_degree = true;
        p->dlo = lo;
        p->dhi = hi;
        return CLIRR_OK;
    }
    case K_WEIGHTS: {
        /* LO-HI: the separator is the first '-' after LO's optional sign. */
        const char *dash = len > 1 ? memchr(s + 1, '-', len - 1) : NULL;
        int64_t lo, hi;
        if (!dash || !parse_int(s, (size_t)(dash - s), &lo) ||
            !parse_int(dash + 1, len - (size_t)(dash + 1 - s), &hi) ||
            lo < INT32_MIN || hi > INT32_MAX || lo > hi)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': key 'weights': expected LO-HI, integers from "
                              "-2147483648 to 2147483647 with LO <= HI, found '%.*s'",
                              spec, (int)len, s);
        p->weighted = true;
        p->wlo = lo;
        p->whi = hi;
        return CLIRR_OK;
    }
    }
    return CLIRR_OK;
}

/* Checks that involve more than one key. */
static int check_kind(const char *spec, const gen_params *p, clirr_error *err)
{
    switch (p->kind) {
    case GEN_RMAT: {
        double sum = p->a + p->b + p->c + p->d;
        if (fabs(sum - 1.0) > 1e-9)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': keys 'a', 'b', 'c', 'd': they must sum to 1, "
                              "they sum to %.12g (a=%g b=%g c=%g d=%g)",
                              spec, sum, p->a, p->b, p->c, p->d);
        if (p->ef > (CLIRR_GRAPH_MAX_EDGES >> p->scale))
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': keys 'scale', 'ef': ef * 2^scale arcs is more "
                              "than clirr's limit of %llu",
                              spec, (unsigned long long)CLIRR_GRAPH_MAX_EDGES);
        return CLIRR_OK;
    }
    case GEN_GRID: {
        uint64_t n = p->w * p->h;
        uint64_t m = 2 * ((p->w - 1) * p->h + p->w * (p->h - 1));
        if (n > CLIRR_GRAPH_MAX_NODES || m > CLIRR_GRAPH_MAX_EDGES)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': keys 'w', 'h': a %llux%llu grid has %llu vertices "
                              "and %llu arcs, more than clirr's limit of %llu",
                              spec, (unsigned long long)p->w, (unsigned long long)p->h,
                              (unsigned long long)n, (unsigned long long)m,
                              (unsigned long long)CLIRR_GRAPH_MAX_NODES);
        return CLIRR_OK;
    }
    case GEN_RANDOM:
        if ((p->m == UINT64_MAX) == !p->by_degree)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': random takes either m=M (arcs) or deg=LO-HI (every "
                              "vertex's out-degree), %s", spec, p->by_degree ? "not both" : "and got neither");
        if (p->by_degree && p->dhi * p->n > CLIRR_GRAPH_MAX_EDGES && p->dlo * p->n > CLIRR_GRAPH_MAX_EDGES)
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': %llu vertices of out-degree at least %llu make more "
                              "than clirr's limit of %llu arcs", spec, (unsigned long long)p->n,
                              (unsigned long long)p->dlo, (unsigned long long)CLIRR_GRAPH_MAX_EDGES);
        return CLIRR_OK;
    }
    return CLIRR_OK;
}

/* clirr_gen_parse's values: into p at each key's offset. */
struct key_value {
    const char *spec;
    const key_def *keys;
    gen_params *p;
};

static int key_value(void *user, size_t key, const char *text, size_t len, clirr_error *err)
{
    struct key_value *kv = user;
    return parse_value(kv->spec, &kv->keys[key], text, len, kv->p, err);
}

int clirr_gen_parse(const char *spec, gen_params *p, clirr_error *err)
{
    static const char *usage = "expected KIND:key=value,... with KIND rmat, random or grid";
    if (!spec || !*spec)
        return clirr_fail(err, CLIRR_ERR_USAGE, "empty generator spec: %s", usage);
    const char *colon = strchr(spec, ':');
    size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
    const struct kind_def *kd = NULL;
    for (size_t i = 0; i < NKINDS; i++)
        if (strlen(kinds[i].name) == klen && strncmp(spec, kinds[i].name, klen) == 0)
            kd = &kinds[i];
    if (!kd)
        return clirr_fail(err, CLIRR_ERR_USAGE,
                          "generator spec '%s': unknown kind '%.*s' (valid: rmat, random, grid)",
                          spec, (int)klen, spec);

    *p = (gen_params){.kind = kd->kind, .ef = 16, .a = 0.57, .b = 0.19, .c = 0.19,
                      .d = 0.05, .permute = 1, .seed = 1, .m = UINT64_MAX};
    char valid[160];
    clirr_spec_join_names(valid, sizeof valid, &kd->keys[0].name, kd->nkeys, sizeof kd->keys[0]);
    uint64_t seen = 0;
    struct key_value kv = {spec, kd->keys, p};
    int rc = clirr_spec_walk(spec, kd->name, &kd->keys[0].name, kd->nkeys, sizeof kd->keys[0], valid, key_value,
                             &kv, &seen, err);
    if (rc != CLIRR_OK)
        return rc;
    for (size_t i = 0; i < kd->nkeys; i++)
        if (kd->keys[i].required && !(seen & (1ull << i)))
            return clirr_fail(err, CLIRR_ERR_USAGE,
                              "generator spec '%s': missing required key '%s' (keys of %s: %s)",
                              spec, kd->keys[i].name, kd->name, valid);
    return check_kind(spec, p, err);
}
