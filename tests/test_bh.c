/* tests/test_bh.c - Barnes-Hut and its input: the Plummer generator's
 * pinned hashes, .bodies round trips (plain, .gz, through `clirr gen` and
 * `convert`), the malformed-file table (exit 2 with file, line, reason);
 * the serial Barnes-Hut against the direct sum, the tree's invariants,
 * and a verifier that refuses perturbed results; on every device, every
 * summarization variant, precision, sort and walk on Plummer spheres of
 * 1, 2, 7, 1000 and 10^5 bodies, coincident bodies and bodies on a line
 * (degenerate boxes), the hybrid's pre-passes 0 to 5; the command's
 * --output and JSON. */
#include "harness.h"

#include "ref/bh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- bodies ---------------------------------------------------------------- */

/* The generator's doubles, pinned: a change here changes every input. */
static void plummer_hashes(th_case *tc)
{
    static const struct {
        const char *spec;
        uint64_t hash;
    } pins[] = {
        {"plummer:n=1", 0x1fe641c783a86e32ull},
        {"plummer:n=7,seed=3", 0x3670346a329c8557ull},
        {"plummer:n=1000", 0xec062fc4a41febb6ull},
        {"plummer:n=100000,seed=9", 0x8809b14c93cf9f6cull},
    };
    clirr_error err;
    clirr_bodies b = {0};
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        TH_OK(tc, clirr_bodies_generate(pins[i].spec, &b, &err));
        TH_EXPECT(tc, clirr_bodies_hash(&b) == pins[i].hash, "%s: hash %016llx", pins[i].spec,
                  (unsigned long long)clirr_bodies_hash(&b));
        double mass = 0;
        for (uint32_t k = 0; k < b.n; k++)
            mass += b.v[(size_t)k * CLIRR_BODY_REALS + CLIRR_BODY_M];
        TH_EXPECT(tc, fabs(mass - 1) < 1e-9, "%s: total mass %.17g", pins[i].spec, mass);
        clirr_bodies_free(&b);
    }
    static const char *bad[] = {"plummer:n=0", "plummer:seed=2", "plummer:n=5,m=3", "plummer:n=x", "plum:n=3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = clirr_bodies_generate(bad[i], &b, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_USAGE, "%s: %s", bad[i], clirr_status_name(rc));
    }
done:
    clirr_bodies_free(&b);
}

static void round_trip(th_case *tc)
{
    clirr_error err;
    clirr_bodies a = {0}, b = {0};
    char path[1024];
    TH_OK(tc, clirr_bodies_generate("plummer:n=5000,seed=4", &a, &err));
    static const char *names[] = {"rt.bodies", "rt.bodies.gz"};
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/%s", th_tmp_dir(), names[k]);
        TH_OK(tc, clirr_bodies_write(path, &a, &err));
        TH_OK(tc, clirr_bodies_read(path, &b, &err));
        TH_EXPECT(tc, b.n == a.n && clirr_bodies_hash(&b) == clirr_bodies_hash(&a), "%s: differs", names[k]);
        clirr_bodies_free(&b);
    }
    /* Comments, blank lines, blanks and exponents. */
    snprintf(path, sizeof path, "%s/hand.bodies", th_tmp_dir());
    TH_REQUIRE(tc, th_write_text(path, "# two bodies\n\n 1 0 0 0 0 0 0\n\t2.5e-1 1e0 -2 +3 0.5 -.5e1 0  \n"), "write");
    TH_OK(tc, clirr_bodies_read(path, &b, &err));
    TH_EXPECT(tc, b.n == 2 && b.v[7] == 0.25 && b.v[8] == 1 && b.v[9] == -2 && b.v[10] == 3 && b.v[12] == -5,
              "hand-written file read wrong");
done:
    clirr_bodies_free(&a);
    clirr_bodies_free(&b);
}

/* The malformed files: each refused with file, line and reason. */
static const struct {
    const char *text, *msg;
} malformed[] = {
    {"1 0 0 0 0 0\n", "bad.bodies:1: missing vz"},
    {"# c\n1 0 0 0 0 0 0\n1 2 3\n", "bad.bodies:3: missing z"},
    {"1 0 0 0 0 0 0 7\n", "bad.bodies:1: expected end of line after the 7 reals"},
    {"-1 0 0 0 0 0 0\n", "bad.bodies:1: negative mass"},
    {"1 0 nan 0 0 0 0\n", "bad.bodies:1: expected y, a finite real"},
    {"1 0 0 inf 0 0 0\n", "bad.bodies:1: expected z, a finite real"},
    {"1 0 0 0 1e400 0 0\n", "bad.bodies:1: expected vx, a finite real"},
    {"1 0 0 0 0 x 0\n", "bad.bodies:1: expected vy, a finite real"},
    {"1,0,0,0,0,0,0\n", "bad.bodies:1: expected the mass"},
    {"# nothing\n\n", "no bodies in the file"},
    {"0 0 0 0 0 0 0\n0 1 1 1 0 0 0\n", "the total mass is zero"},
};

static void malformed_files(th_case *tc)
{
    char path[1024];
    clirr_error err;
    clirr_bodies b = {0};
    snprintf(path, sizeof path, "%s/bad.bodies", th_tmp_dir());
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        TH_REQUIRE(tc, th_write_text(path, malformed[i].text), "cannot write");
        int rc = clirr_bodies_read(path, &b, &err);
        TH_EXPECT(tc, rc == CLIRR_ERR_INPUT && strstr(err.msg, malformed[i].msg) && !b.v, "case %zu: %s: %s", i,
                  clirr_status_name(rc), err.msg);
    }
    snprintf(path, sizeof path, "%s/absent.bodies", th_tmp_dir());
    TH_EXPECT(tc, clirr_bodies_read(path, &b, &err) == CLIRR_ERR_INPUT && strstr(err.msg, "absent.bodies"),
              "a missing file: %s", err.msg);
done:;
}

/* ---- the serial Barnes-Hut and the verifier ------------------------------- */

/* Bodies for the corner cases: "coincident:N" (N/2 at one point, the
 * rest a Plummer sphere), "line:N" (on the x axis), "point:N" (all at one
 * point), else a generator spec. */
static int make_bodies(const char *what, clirr_bodies *b, clirr_error *err)
{
    if (!strncmp(what, "plummer:", 8))
        return clirr_bodies_generate(what, b, err);
    uint32_t n = (uint32_t)strtoul(strchr(what, ':') + 1, NULL, 10);
    char spec[64];
    snprintf(spec, sizeof spec, "plummer:n=%u,seed=7", n);
    int rc = clirr_bodies_generate(spec, b, err);
    for (uint32_t i = 0; rc == CLIRR_OK && i < n; i++) {
        double *v = b->v + (size_t)i * CLIRR_BODY_REALS;
        if (!strncmp(what, "line", 4)) {
            v[CLIRR_BODY_Y] = v[CLIRR_BODY_Z] = 0;
            v[CLIRR_BODY_VY] = v[CLIRR_BODY_VZ] = 0;
        } else if (!strncmp(what, "point", 5) || i < n / 2) {
            v[CLIRR_BODY_X] = 0.25, v[CLIRR_BODY_Y] = -0.5, v[CLIRR_BODY_Z] = 0.125;
        }
    }
    return rc;
}

static void ref_against_direct(th_case *tc)
{
    clirr_error err;
    clirr_bodies b = {0};
    double *out = NULL;
    TH_OK(tc, clirr_bodies_generate("plummer:n=1000", &b, &err));
    out = malloc((size_t)b.n * BH_OUT_REALS * sizeof *out);
    TH_REQUIRE(tc, out, "out of memory");
    for (int dbl = 0; dbl < 2; dbl++) {
        clirr_bh_config c = {1, 0.025, 0.05, 0.5, dbl};
        TH_OK(tc, clirr_ref_bh(&b, &c, out, NULL, &err));
        clirr_bh_errors e;
        clirr_verify_report r;
        TH_EXPECT(tc, clirr_verify_bh(&b, &c, out, out, &e, &r), "%s: %s", dbl ? "double" : "float", r.text);
        /* The figures the tolerances are set from (ref/bh_verify.c). */
        TH_EXPECT(tc, e.direct_p99 > 0.002 && e.direct_p99 < 0.01 && e.direct_max < 0.02,
                  "theta 0.5: p99 %.3g, max %.3g", e.direct_p99, e.direct_max);
        /* theta 0 opens every cell: the direct sum, up to rounding. */
        c.theta = 0;
        TH_OK(tc, clirr_ref_bh(&b, &c, out, NULL, &err));
        TH_EXPECT(tc, clirr_verify_bh(&b, &c, out, out, &e, &r), "theta 0: %s", r.text);
        TH_EXPECT(tc, e.direct_max < (dbl ? 1e-10 : 1e-4), "%s theta 0: largest error %.3g",
                  dbl ? "double" : "float", e.direct_max);
    }
done:
    free(out);
    clirr_bodies_free(&b);
}

static void ref_trees(th_case *tc)
{
    static const char *inputs[] = {"plummer:n=1", "plummer:n=2", "plummer:n=1000", "coincident:300",
                                   "line:500", "point:40"};
    clirr_error err;
    clirr_bodies b = {0};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        for (int dbl = 0; dbl < 2; dbl++) {
            TH_OK(tc, make_bodies(inputs[i], &b, &err));
            clirr_bh_config c = {1, 0.025, 0.05, 0.5, dbl};
            char msg[256];
            TH_EXPECT(tc, clirr_ref_bh_tree_ok(&b, &c, msg, sizeof msg), "%s: %s", inputs[i], msg);
            clirr_bodies_free(&b);
        }
    /* The check itself fails on a broken tree: a body in two leaves, a
     * cell whose mass is not its children's. */
    uint32_t child[16] = {0, 1, 2, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
             next[3] = {0xffffffffu, 0xffffffffu, 0xffffffffu}, pslot[1] = {0xffffffffu}, count[1] = {3};
    double bm[3] = {1, 1, 1}, cm[1] = {3};
    for (int k = 3; k < 8; k++)
        child[k] = 0xffffffffu;
    clirr_bh_tree_view v = {3, 1, child, next, pslot, count, bm, cm};
    char msg[256];
    TH_EXPECT(tc, clirr_bh_tree_check(&v, 1e-12, msg, sizeof msg), "a good tree refused: %s", msg);
    child[3] = 1;
    count[0] = 4, cm[0] = 4;
    TH_EXPECT(tc, !clirr_bh_tree_check(&v, 1e-12, msg, sizeof msg) && strstr(msg, "body 1 lies in 2"),
              "a body in two leaves: %s", msg);
    child[3] = 0xffffffffu;
    count[0] = 3, cm[0] = 3.5;
    TH_EXPECT(tc, !clirr_bh_tree_check(&v, 1e-12, msg, sizeof msg) && strstr(msg, "mass"), "wrong mass: %s", msg);
done:
    clirr_bodies_free(&b);
}

/* Results that must be refused: accelerations 20% off for 5% of the
 * bodies, one body moved, a velocity changed (momentum), a NaN. */
static void verify_fails(th_case *tc)
{
    clirr_error err;
    clirr_bodies b = {0};
    double *good = NULL, *bad = NULL;
    TH_OK(tc, clirr_bodies_generate("plummer:n=2000,seed=6", &b, &err));
    size_t bytes = (size_t)b.n * BH_OUT_REALS * sizeof(double);
    good = malloc(bytes), bad = malloc(bytes);
    TH_REQUIRE(tc, good && bad, "out of memory");
    clirr_bh_config c = {2, 0.025, 0.05, 0.5, false};
    TH_OK(tc, clirr_ref_bh(&b, &c, good, NULL, &err));
    clirr_verify_report r;
    TH_REQUIRE(tc, clirr_verify_bh(&b, &c, good, good, NULL, &r), "the reference refused: %s", r.text);
    for (int kind = 0; kind < 4; kind++) {
        memcpy(bad, good, bytes);
        if (kind == 0)
            for (uint32_t i = 0; i < b.n; i += 20)
                for (int k = 0; k < 3; k++)
                    bad[(size_t)i * BH_OUT_REALS + BH_OUT_AX + k] *= 1.2;
        if (kind == 1)
            bad[(size_t)77 * BH_OUT_REALS + BH_OUT_Y] += 1e-3;
        if (kind == 2)
            bad[(size_t)5 * BH_OUT_REALS + BH_OUT_VZ] += 0.1;
        if (kind == 3)
            bad[(size_t)1999 * BH_OUT_REALS + BH_OUT_AX] = NAN;
        TH_EXPECT(tc, !clirr_verify_bh(&b, &c, good, bad, NULL, &r), "perturbation %d accepted", kind);
    }
done:
    free(good);
    free(bad);
    clirr_bodies_free(&b);
}

/* ---- on every device -------------------------------------------------------- */

typedef struct bh_run {
    const char *variant, *precision, *sort, *walk, *prepasses, *steps, *cells, *per_item;
    int trials; /* 0: two */
} bh_run;

/* Plan, reference, prepare, two trials, each verified, the device's tree
 * checked (tree_ok); *skipped when the device cannot run it. */
static bool check(th_case *tc, const clirr_input *in, const bh_run *r, bool *skipped)
{
    const clirr_algo *a = clirr_algo_find("bh");
    clirr_error err;
    clirr_session *s = NULL;
    uint64_t n = clirr_input_items(in);
    double *expected = malloc(n * a->value_size), *got = malloc(n * a->value_size);
    bool ok = false;
    *skipped = false;
    TH_REQUIRE(tc, expected && got, "out of memory");
    clirr_intent it;
    clirr_intent_default(a, &it);
    it.variant = clirr_algo_variant(a, r->variant);
    const char *names[] = {"precision", "sort", "walk", "prepasses", "steps", "cells", "per-item"};
    const char *vals[] = {r->precision, r->sort, r->walk, r->prepasses, r->steps, r->cells, r->per_item};
    for (int k = 0; k < 7; k++)
        if (vals[k])
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, names[k]), vals[k], &it.params, &err));
    clirr_plan plan;
    TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
    int rc = clirr_session_prepare(tc->ctx, in, &plan, &s, &err);
    if (rc == CLIRR_ERR_UNSUPPORTED) {
        *skipped = true;
        ok = true;
        goto done;
    }
    TH_OK(tc, rc);
    TH_OK(tc, a->reference(in, &plan, expected, &err));
    for (int trial = 0; trial < (r->trials ? r->trials : 2); trial++) {
        clirr_stats st;
        clirr_verify_report rep;
        memset(got, 0x5a, n * a->value_size);
        TH_OK(tc, clirr_session_run(s, got, &st, &err));
        TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep),
                   "%s %s sort %s walk %s cells %s per-item %s on %s, trial %d: %s", r->variant, r->precision,
                   r->sort, r->walk, r->cells ? r->cells : "-", r->per_item ? r->per_item : "-",
                   clirr_input_name(in), trial + 1, rep.text);
        clirr_extras x = {0};
        clirr_session_extras(s, got, &x);
        bool tree = false;
        for (size_t k = 0; k < x.n; k++)
            if (!strcmp(x.e[k].name, "tree_ok"))
                tree = x.e[k].b;
        TH_REQUIRE(tc, tree, "%s on %s: the device's tree breaks an invariant (stderr says which)", r->variant,
                   clirr_input_name(in));
    }
    ok = true;
done:
    clirr_session_release(s);
    free(expected);
    free(got);
    return ok;
}

static int load(const char *what, clirr_input **in, clirr_error *err)
{
    clirr_bodies b = {0};
    int rc = make_bodies(what, &b, err);
    if (rc == CLIRR_OK)
        rc = clirr_input_from_bodies(&b, true, what, in, err);
    clirr_bodies_free(&b);
    return rc;
}

/* Every variant, precision, sort and walk on the small and corner inputs. */
static void device_small(th_case *tc)
{
    static const char *inputs[] = {"plummer:n=1", "plummer:n=2", "plummer:n=7,seed=3", "plummer:n=1000",
                                   "coincident:300", "line:500", "point:40"};
    static const char *variants[] = {"topo", "data", "hybrid"}, *precisions[] = {"float", "double"};
    static const char *walks[] = {"workgroup", "subgroup", "warp", "group"}, *sorts[] = {"on", "off"};
    clirr_error err;
    clirr_input *in = NULL;
    unsigned skipped = 0, ran = 0;
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        TH_OK(tc, load(inputs[i], &in, &err));
        for (int v = 0; v < 3; v++)
            for (int p = 0; p < 2; p++)
                for (int w = 0; w < 4; w++)
                    for (int o = 0; o < 2; o++) {
                        bh_run r = {variants[v], precisions[p], sorts[o], walks[w], NULL, i == 3 ? "3" : NULL, NULL, NULL, 0};
                        bool sk;
                        if (!check(tc, in, &r, &sk))
                            goto done;
                        skipped += sk, ran += !sk;
                    }
        clirr_input_free(in);
        in = NULL;
    }
    TH_EXPECT(tc, ran > 0, "nothing ran");
done:
    clirr_input_free(in);
}

/* The cell-coordinate options (--cells recalc|store: build and sort) and
 * bodies per work-item of the walk (1 to 4, and one that does not divide
 * a group) with every walk, on Plummer, coincident and collinear bodies;
 * store in double too. */
static void device_options(th_case *tc)
{
    static const char *inputs[] = {"plummer:n=1000,seed=4", "coincident:300", "line:500", "plummer:n=7,seed=3"};
    static const char *cells[] = {"recalc", "store"}, *pers[] = {"1", "2", "3", "4"};
    static const char *walks[] = {"workgroup", "subgroup", "warp", "group"};
    clirr_error err;
    clirr_input *in = NULL;
    unsigned ran = 0;
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        TH_OK(tc, load(inputs[i], &in, &err));
        for (int c = 0; c < 2; c++)
            for (int w = 0; w < 4; w++)
                for (int p = 0; p < 4; p++) {
                    bh_run r = {"topo", "float", "on", walks[w], NULL, "2", cells[c], pers[p], 0};
                    bool sk;
                    if (!check(tc, in, &r, &sk))
                        goto done;
                    ran += !sk;
                }
        bh_run r = {"hybrid", "double", "off", "auto", "1", "2", "store", NULL, 0};
        bool sk;
        if (!check(tc, in, &r, &sk))
            goto done;
        clirr_input_free(in);
        in = NULL;
    }
    TH_EXPECT(tc, ran > 0, "nothing ran");
done:
    clirr_input_free(in);
}

/* The instrumented kernels (-DCLIRR_IRREG, `clirr profile`) give the plain
 * run's result bit for bit, in every walk and cell option, record the
 * study's two kernels (the build: BHtree; the force walk: BHforce) and
 * lose no record. */
static void device_irregularity(th_case *tc)
{
    const clirr_algo *a = clirr_algo_find("bh");
    clirr_error err;
    clirr_error_clear(&err);
    clirr_ctx *ictx = NULL;
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    double *expected = NULL, *plain = NULL, *instr = NULL;
    TH_OK(tc, load("plummer:n=600,seed=5", &in, &err));
    size_t bytes = (size_t)clirr_input_items(in) * a->value_size;
    expected = malloc(bytes), plain = malloc(bytes), instr = malloc(bytes);
    TH_REQUIRE(tc, expected && plain && instr, "out of memory");
    clirr_irr_options opt = {0};
    TH_OK(tc, clirr_ctx_create(tc->device, &ictx, &err));
    TH_OK(tc, clirr_ctx_irr_enable(ictx, &opt, &err));
    static const char *walks[] = {"workgroup", "subgroup", "warp", "group"}, *cells[] = {"recalc", "store"};
    unsigned ran = 0;
    for (int w = 0; w < 4; w++)
        for (int c = 0; c < 2; c++) {
            clirr_intent it;
            clirr_intent_default(a, &it);
            it.variant = clirr_algo_variant(a, c ? "hybrid" : "topo");
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "walk"), walks[w], &it.params, &err));
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "cells"), cells[c], &it.params, &err));
            TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "steps"), "2", &it.params, &err));
            clirr_plan plan;
            TH_OK(tc, clirr_plan_make(a, clirr_ctx_caps(ictx), &it, in, &plan, &err));
            int rc = clirr_session_prepare(tc->ctx, in, &plan, &s, &err);
            if (rc == CLIRR_ERR_UNSUPPORTED)
                continue;
            TH_OK(tc, rc);
            clirr_stats st;
            TH_OK(tc, clirr_session_run(s, plain, &st, &err));
            clirr_session_release(s);
            s = NULL;
            clirr_irr_report rep;
            TH_OK(tc, clirr_session_prepare(ictx, in, &plan, &s, &err));
            TH_OK(tc, clirr_ctx_irr_take(ictx, &rep, &err));
            TH_OK(tc, clirr_session_run(s, instr, &st, &err));
            TH_OK(tc, clirr_ctx_irr_take(ictx, &rep, &err));
            clirr_session_release(s);
            s = NULL;
            TH_OK(tc, a->reference(in, &plan, expected, &err));
            clirr_verify_report vr;
            memset(&vr, 0, sizeof vr);
            TH_REQUIRE(tc, a->verify(in, &plan, expected, instr, &vr), "walk %s cells %s instrumented: %s",
                       walks[w], cells[c], vr.text);
            TH_REQUIRE(tc, !memcmp(plain, instr, bytes), "walk %s cells %s: instrumented and plain results differ",
                       walks[w], cells[c]);
            bool build = false, force = false;
            for (size_t k = 0; k < rep.nkernels; k++) {
                const clirr_irr_kernel *kr = &rep.kernels[k];
                TH_REQUIRE(tc, kr->dropped == 0, "%s: %llu records lost", kr->name,
                           (unsigned long long)kr->dropped);
                build |= !strcmp(kr->name, "bh_build") && kr->instrumented && kr->records > 0;
                force |= !strcmp(kr->name, "bh_force") && kr->instrumented && kr->records > 0 && kr->branches > 0;
            }
            TH_REQUIRE(tc, build && force, "walk %s cells %s: bh_build recorded %d, bh_force %d", walks[w],
                       cells[c], build, force);
            ran++;
        }
    TH_EXPECT(tc, ran > 0, "nothing ran");
done:
    clirr_session_release(s);
    clirr_ctx_release(ictx);
    clirr_input_free(in);
    free(expected);
    free(plain);
    free(instr);
}

/* 10^5 bodies: each variant in float (data with --cells store), topo in
 * double, the group walk; one trial each (the small inputs repeat theirs): a CPU device
 * of the 2-core test machine takes minutes over these. */
static void device_large(th_case *tc)
{
    clirr_error err;
    clirr_input *in = NULL;
    TH_OK(tc, load("plummer:n=100000,seed=9", &in, &err));
    static const bh_run runs[] = {
        {"topo", "float", "on", "auto", NULL, NULL, NULL, NULL, 1},
        {"data", "float", "on", "auto", NULL, NULL, "store", NULL, 1},
        {"hybrid", "float", "on", "auto", "2", NULL, NULL, NULL, 1},
        {"topo", "double", "on", "auto", NULL, NULL, NULL, NULL, 1},
        {"topo", "float", "on", "group", NULL, NULL, NULL, NULL, 1},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        bool sk;
        if (!check(tc, in, &runs[k], &sk))
            goto done;
    }
done:
    clirr_input_free(in);
}

/* One run of the walk `walk` (wg: --wg-size, 0 the default; theta) on in:
 * verified; its errors against the direct sum and its interaction counts
 * (this step's, with bodies, all steps'). False when the device cannot. */
typedef struct walk_stats {
    clirr_bh_errors e, serial; /* the walk's errors, the serial (per-body) Barnes-Hut's */
    uint64_t inter, with_bodies, all;
} walk_stats;

static bool walk_once(th_case *tc, const clirr_input *in, const char *walk, unsigned wg, const char *theta,
                      walk_stats *ws, bool *ran)
{
    const clirr_algo *a = clirr_algo_find("bh");
    clirr_error err;
    clirr_session *s = NULL;
    uint64_t n = clirr_input_items(in);
    double *expected = malloc(n * a->value_size), *got = malloc(n * a->value_size);
    bool ok = false;
    *ran = false;
    memset(ws, 0, sizeof *ws);
    TH_REQUIRE(tc, expected && got, "out of memory");
    clirr_intent it;
    clirr_intent_default(a, &it);
    it.wg_size = wg;
    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "walk"), walk, &it.params, &err));
    TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "theta"), theta, &it.params, &err));
    clirr_plan plan;
    TH_OK(tc, clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err));
    int rc = clirr_session_prepare(tc->ctx, in, &plan, &s, &err);
    if (rc == CLIRR_ERR_UNSUPPORTED) {
        ok = true;
        goto done;
    }
    TH_OK(tc, rc);
    TH_OK(tc, a->reference(in, &plan, expected, &err));
    clirr_stats st;
    TH_OK(tc, clirr_session_run(s, got, &st, &err));
    clirr_bh_config c = {1, 0.025, 0.05, atof(theta), false};
    clirr_verify_report vr;
    memset(&vr, 0, sizeof vr);
    TH_REQUIRE(tc, clirr_verify_bh(clirr_input_bodies(in), &c, expected, got, &ws->e, &vr),
               "walk %s wg %u theta %s: %s", walk, wg, theta, vr.text);
    TH_REQUIRE(tc, clirr_verify_bh(clirr_input_bodies(in), &c, expected, expected, &ws->serial, &vr),
               "the serial Barnes-Hut against itself: %s", vr.text);
    clirr_extras x = {0};
    clirr_session_extras(s, got, &x);
    for (size_t k = 0; k < x.n; k++) {
        if (!strcmp(x.e[k].name, "interactions"))
            ws->inter = x.e[k].u;
        if (!strcmp(x.e[k].name, "interactions_with_bodies"))
            ws->with_bodies = x.e[k].u;
        if (!strcmp(x.e[k].name, "force.interactions"))
            ws->all = x.e[k].u;
    }
    *ran = ok = true;
done:
    clirr_session_release(s);
    free(expected);
    free(got);
    return ok;
}

/* The group walk opens a cell wherever the work-group's box comes nearer
 * than the per-body rule allows, so it is at least as accurate as the
 * serial Barnes-Hut, which opens per body (it performs more interactions,
 * never a coarser one): its errors against the direct sum at most the
 * serial one's (and 5%: rounding; a finer tree need not err less on every
 * body), interactions at least the per-body vote walk's, at least the
 * serial one's, counts consistent (one step: this step's = all steps'),
 * at theta 0 the direct sum exactly (n - 1 interactions a body, all with
 * bodies), and bodies all at one point (a root of size 0) one interaction
 * a body, with the root used whole. Work-groups of 1, 32 and 128 besides the default. */
static void device_group(th_case *tc)
{
    clirr_error err;
    clirr_input *in = NULL;
    TH_OK(tc, load("plummer:n=3000,seed=11", &in, &err));
    uint64_t n = clirr_input_items(in);
    walk_stats vote, ws;
    bool ran;
    if (!walk_once(tc, in, "workgroup", 0, "0.5", &vote, &ran))
        goto done;
    TH_REQUIRE(tc, ran, "the work-group vote did not run");
    static const unsigned wgs[] = {0, 1, 32, 128};
    for (size_t k = 0; k < sizeof wgs / sizeof wgs[0]; k++) {
        if (!walk_once(tc, in, "group", wgs[k], "0.5", &ws, &ran))
            goto done;
        if (!ran)
            continue;
        TH_EXPECT(tc, ws.e.direct_p99 <= ws.serial.direct_p99 * 1.05 + 1e-6 &&
                          ws.e.direct_max <= ws.serial.direct_max * 1.05 + 1e-6,
                  "wg %u: group walk errs more than the serial Barnes-Hut: p99 %g vs %g, max %g vs %g", wgs[k],
                  ws.e.direct_p99, ws.serial.direct_p99, ws.e.direct_max, ws.serial.direct_max);
        TH_EXPECT(tc, (wgs[k] == 1 || ws.inter >= vote.inter) && ws.inter == ws.all && ws.with_bodies < ws.inter,
                  "wg %u: counts %llu (vote %llu), with bodies %llu, all steps %llu", wgs[k],
                  (unsigned long long)ws.inter, (unsigned long long)vote.inter,
                  (unsigned long long)ws.with_bodies, (unsigned long long)ws.all);
    }
    if (!walk_once(tc, in, "group", 0, "0", &ws, &ran))
        goto done;
    TH_EXPECT(tc, !ran || (ws.inter == n * (n - 1) && ws.with_bodies == ws.inter),
              "theta 0: %llu interactions, %llu with bodies, not %llu", (unsigned long long)ws.inter,
              (unsigned long long)ws.with_bodies, (unsigned long long)(n * (n - 1)));
    clirr_input_free(in);
    in = NULL;
    TH_OK(tc, load("point:40", &in, &err));
    if (!walk_once(tc, in, "group", 0, "0.5", &ws, &ran))
        goto done;
    TH_EXPECT(tc, !ran || (ws.inter == 40 && ws.with_bodies == 0), "40 bodies at one point: %llu interactions, "
              "%llu with bodies (the root, of size 0, is far from every body)", (unsigned long long)ws.inter,
              (unsigned long long)ws.with_bodies);
done:
    clirr_input_free(in);
}

static void device_prepasses(th_case *tc)
{
    clirr_error err;
    clirr_input *in = NULL;
    TH_OK(tc, load("plummer:n=3000,seed=2", &in, &err));
    static const char *k[] = {"0", "1", "2", "3", "4", "5"};
    for (int i = 0; i < 6; i++) {
        bh_run r = {"hybrid", "float", "on", "auto", k[i], "2", NULL, NULL, 0};
        bool sk;
        if (!check(tc, in, &r, &sk))
            goto done;
    }
done:
    clirr_input_free(in);
}

/* ---- the command ------------------------------------------------------------ */

static char out[1 << 20], errtext[1 << 16];

/* clirr's output into out and errtext. */
#define clirr(tc, ...) th_clirr_run((tc), out, sizeof out, errtext, sizeof errtext, __VA_ARGS__)

static void cli_malformed(th_case *tc)
{
    char dev[16], path[1024];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    snprintf(path, sizeof path, "%s/bad.bodies", th_tmp_dir());
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        TH_REQUIRE(tc, th_write_text(path, malformed[i].text), "cannot write");
        int rc = clirr(tc, "run", "bh", "--bodies", path, "--device", dev, NULL);
        TH_EXPECT(tc, rc == 2 && strstr(errtext, malformed[i].msg), "case %zu: exit %d, stderr: %s", i, rc, errtext);
    }
    int rc = clirr(tc, "run", "bh", "--gen", "plummer:n=10", "--theta", "-1", "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "--theta"), "theta -1: exit %d: %s", rc, errtext);
    rc = clirr(tc, "run", "bh", "--gen", "plummer:n=10", "--precision", "half", "--device", dev, NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "--precision"), "precision half: exit %d: %s", rc, errtext);
done:;
}

/* `clirr profile bh`: the instrumented kernels report, the study's two
 * (BHtree: bh_build; BHforce: bh_force) among them, nothing lost. */
static void cli_profile(th_case *tc)
{
    char dev[16];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    int rc = clirr(tc, "profile", "bh", "--gen", "plummer:n=200,seed=2", "--device", dev, NULL);
    TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
    static const char *want[] = {"bh_build", "bh_force", "bh_sum_topo", "bh_sort", "bh_link"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        TH_EXPECT(tc, strstr(out, want[i]), "profile lacks %s: %s", want[i], out);
    TH_EXPECT(tc, !strstr(out, "overflowed") && !strstr(errtext, "overflowed"), "records lost: %s", errtext);
done:;
}

/* --output: n lines of 9 reals; the JSON's energy, momentum and kernels. */
static void cli_output(th_case *tc)
{
    char dev[16], json[1024], opt[1100];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    snprintf(json, sizeof json, "%s/bh.json", th_tmp_dir());
    snprintf(opt, sizeof opt, "--json=%s", json);
    int rc = clirr(tc, "run", "bh", "--gen", "plummer:n=50", "--steps", "2", "--device", dev, "--output", "-", opt,
                   NULL);
    TH_REQUIRE(tc, rc == 0, "exit %d: %s", rc, errtext);
    unsigned lines = 0;
    for (const char *p = out; *p;) {
        const char *nl = strchr(p, '\n');
        TH_REQUIRE(tc, nl && nl - p < 400, "line %u unterminated or too long", lines + 1);
        char line[400], *q = line, *end;
        memcpy(line, p, (size_t)(nl - p));
        line[nl - p] = 0;
        int reals = 0;
        for (double v = strtod(q, &end); end != q; v = strtod(q, &end)) {
            reals += isfinite(v) != 0;
            q = end;
        }
        TH_REQUIRE(tc, reals == 9 && !*q, "line %u is not 9 reals: %s", lines + 1, line);
        lines++;
        p = nl + 1;
    }
    TH_EXPECT(tc, lines == 50, "%u lines", lines);
    FILE *f = fopen(json, "rb");
    TH_REQUIRE(tc, f, "no JSON");
    static char text[1 << 18];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    static const char *want[] = {"\"energy\"", "\"before\"", "\"after\"", "\"momentum\"", "\"bh_force\"",
                                 "\"bh_build\"", "\"bh_sum_topo\"", "\"bh_link\"", "\"interactions\"",
                                 "\"tolerance\"", " a work-item\"", "\"cells\":\"recalc\"",
                                 "\"interactions_with_bodies\"", "\"ginteractions_per_s\""};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        TH_EXPECT(tc, strstr(text, want[i]), "the JSON lacks %s", want[i]);
done:;
}

static void cli_gen_convert(th_case *tc)
{
    char a[1024], b[1024], c[1024];
    snprintf(a, sizeof a, "%s/g.bodies", th_tmp_dir());
    snprintf(b, sizeof b, "%s/g.bodies.gz", th_tmp_dir());
    snprintf(c, sizeof c, "%s/g2.bodies", th_tmp_dir());
    clirr_error err;
    clirr_bodies x = {0}, y = {0}, z = {0};
    int rc = clirr(tc, "gen", "plummer:n=700,seed=11", "-o", a, NULL);
    TH_REQUIRE(tc, rc == 0 && strstr(errtext, "700 bodies"), "gen: exit %d: %s", rc, errtext);
    rc = clirr(tc, "convert", a, b, NULL);
    TH_REQUIRE(tc, rc == 0, "convert: exit %d: %s", rc, errtext);
    rc = clirr(tc, "convert", b, c, NULL);
    TH_REQUIRE(tc, rc == 0, "convert back: exit %d: %s", rc, errtext);
    TH_OK(tc, clirr_bodies_read(b, &x, &err));
    TH_OK(tc, clirr_bodies_read(c, &y, &err));
    TH_OK(tc, clirr_bodies_generate("plummer:n=700,seed=11", &z, &err));
    TH_EXPECT(tc, clirr_bodies_hash(&x) == clirr_bodies_hash(&z) && clirr_bodies_hash(&y) == clirr_bodies_hash(&z),
              "round trip differs");
    rc = clirr(tc, "gen", "plummer:n=5", "-o", c, "--symmetrize", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "--symmetrize is for graphs"), "symmetrize: exit %d: %s", rc, errtext);
    rc = clirr(tc, "gen", "plummer:n=5", "-o", "x.list", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, ".bodies"), "wrong extension: exit %d: %s", rc, errtext);
    rc = clirr(tc, "convert", a, "x.tree", NULL);
    TH_EXPECT(tc, rc == 2 && strstr(errtext, "bodies convert to bodies"), "bodies to a tree: exit %d: %s", rc, errtext);
done:
    clirr_bodies_free(&x);
    clirr_bodies_free(&y);
    clirr_bodies_free(&z);
}

TH_REGISTER(register_bh_tests)
{
    th_add("bh/plummer-hashes", plummer_hashes, NULL);
    th_add("bh/round-trip", round_trip, NULL);
    th_add("bh/malformed", malformed_files, NULL);
    th_add("bh/ref-direct", ref_against_direct, NULL);
    th_add("bh/ref-trees", ref_trees, NULL);
    th_add("bh/verify-fails", verify_fails, NULL);
    th_add("bh/cli/gen-convert", cli_gen_convert, NULL);
    th_add_device("bh/device/small", device_small, NULL);
    th_add_device("bh/device/large", device_large, NULL);
    th_add_device("bh/device/prepasses", device_prepasses, NULL);
    th_add_device("bh/device/options", device_options, NULL);
    th_add_device("bh/device/group", device_group, NULL);
    th_add_device("bh/device/irregularity", device_irregularity, NULL);
    th_add_device("bh/cli/malformed", cli_malformed, NULL);
    th_add_device("bh/cli/output", cli_output, NULL);
    th_add_device("bh/cli/profile", cli_profile, NULL);
}
