/* tests/test_dmr.c - Delaunay mesh refinement: the serial refinement on
 * generated meshes (square and disk, 100 to 10^4 points), a single
 * triangle, a rectangle of two, and a grid of collinear and cocircular
 * points, each checked by the verifier; the verifier refusing perturbed
 * meshes (a clockwise triangle, a wrong neighbour, a non-Delaunay edge, a
 * moved input point, a bad triangle left, a wrong count, a dropped
 * triangle, a lost input point); then every variant on every device on
 * the same meshes (and 10^5 points on GPUs), storage growth with reruns,
 * the hybrid's threshold, and the command's --mesh, --output and JSON,
 * a non-Delaunay input refused. The
 * malformed-file table is tests/test_mesh.c's. */
#include "harness.h"

#include "mesh/mesh_internal.h"
#include "ref/dmr.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A mesh from points and counter-clockwise triangles, its boundary made
 * the segments. */
static int make_mesh(const double *xy, uint32_t np, const uint32_t *tri, uint32_t nt, clirr_mesh *m,
                     clirr_error *err)
{
    memset(m, 0, sizeof *m);
    m->xy = malloc(2 * (size_t)np * sizeof *m->xy);
    m->tri = malloc(3 * (size_t)nt * sizeof *m->tri);
    if (!m->xy || !m->tri)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory");
    memcpy(m->xy, xy, 2 * (size_t)np * sizeof *xy);
    memcpy(m->tri, tri, 3 * (size_t)nt * sizeof *tri);
    m->npoints = np;
    m->ntri = nt;
    mesh_problem prob;
    int rc = clirr_mesh_structure(m, true, NULL, &prob, err);
    return rc == CLIRR_ERR_INPUT ? clirr_fail(err, rc, "bad test mesh (%d)", (int)prob.kind) : rc;
}

/* A w x h grid of points 3 apart in x and 1 in y, each cell cut by a
 * diagonal: collinear boundary points, four cocircular points per cell,
 * and triangles of 18.4 degrees to refine. */
static int grid_mesh(uint32_t w, uint32_t h, clirr_mesh *m, clirr_error *err)
{
    uint32_t np = w * h, nt = 2 * (w - 1) * (h - 1);
    double *xy = malloc(2 * (size_t)np * sizeof *xy);
    uint32_t *tri = malloc(3 * (size_t)nt * sizeof *tri);
    int rc = CLIRR_ERR_NOMEM;
    if (xy && tri) {
        for (uint32_t j = 0; j < h; j++)
            for (uint32_t i = 0; i < w; i++) {
                xy[2 * (j * w + i)] = 3.0 * i;
                xy[2 * (j * w + i) + 1] = j;
            }
        uint32_t k = 0;
        for (uint32_t j = 0; j + 1 < h; j++)
            for (uint32_t i = 0; i + 1 < w; i++) {
                uint32_t a = j * w + i, b = a + 1, c = a + w + 1, d = a + w;
                uint32_t t[6] = {a, b, c, a, c, d};
                memcpy(tri + 3 * (size_t)k, t, sizeof t);
                k += 2;
            }
        rc = make_mesh(xy, np, tri, nt, m, err);
    }
    free(xy);
    free(tri);
    return rc;
}

/* The small meshes every test refines, by name. */
static int small_mesh(const char *name, clirr_mesh *m, clirr_error *err)
{
    if (!strcmp(name, "triangle")) { /* angles 11.3, 11.3, 157.4: unfixable */
        static const double xy[] = {0, 0, 1, 0, 0.5, 0.1};
        static const uint32_t tri[] = {0, 1, 2};
        return make_mesh(xy, 3, tri, 1, m, err);
    }
    if (!strcmp(name, "rectangle")) { /* 4 x 1 cut in two: 14 degrees */
        static const double xy[] = {0, 0, 4, 0, 4, 1, 0, 1};
        static const uint32_t tri[] = {0, 1, 2, 0, 2, 3};
        return make_mesh(xy, 4, tri, 2, m, err);
    }
    if (!strcmp(name, "grid"))
        return grid_mesh(12, 9, m, err);
    return clirr_mesh_generate(name, m, err);
}

static const char *const small_names[] = {"triangle", "rectangle", "grid", "mesh:n=100,seed=1",
                                          "mesh:n=1000,seed=2,shape=disk", "mesh:n=10000,seed=3"};

/* ---- the serial refinement and its verifier ------------------------------- */

static void serial(th_case *tc)
{
    clirr_error err;
    clirr_mesh m = {0};
    dmr_mesh w = {0};
    for (size_t i = 0; i < sizeof small_names / sizeof small_names[0]; i++) {
        TH_OK(tc, small_mesh(small_names[i], &m, &err));
        TH_OK(tc, dmr_mesh_init(&w, &m, 30, 0, &err));
        dmr_ref_stats st;
        TH_OK(tc, clirr_ref_dmr(&w, 30, &st, &err));
        dmr_verdict v;
        clirr_verify_report rep;
        uint32_t left = 0;
        double cos_min = dmr_cos_min(30);
        for (uint32_t t = 0; t < w.nt; t++) {
            bool unfixable;
            left += dmr_is_bad(&w, t, cos_min, &unfixable);
        }
        TH_REQUIRE(tc, clirr_verify_dmr(&m, 30, &w, left, &v, &rep), "%s: %s", small_names[i], rep.text);
        TH_REQUIRE(tc, st.failures == 0, "%s: %llu bad triangles given up", small_names[i],
                   (unsigned long long)st.failures);
        bool tri = !strcmp(small_names[i], "triangle");
        TH_REQUIRE(tc, v.bad_left == (tri ? 1u : 0u) && v.unfixable == v.bad_left, "%s: %u bad left, %u unfixable",
                   small_names[i], v.bad_left, v.unfixable);
        TH_REQUIRE(tc, tri ? w.nt == 1 : w.nt > m.ntri && st.insertions + st.splits > 0, "%s: %u triangles from %u",
                   small_names[i], w.nt, m.ntri);
        if (!strcmp(small_names[i], "mesh:n=10000,seed=3"))
            TH_REQUIRE(tc, st.splits > 0 && st.bad_before > m.ntri / 4, "%s: %llu splits, %u bad before",
                       small_names[i], (unsigned long long)st.splits, st.bad_before);
        dmr_mesh_free(&w);
        clirr_mesh_free(&m);
    }
    /* A lower minimum angle leaves fewer triangles. */
    size_t nt[2];
    for (int k = 0; k < 2; k++) {
        dmr_ref_stats st;
        TH_OK(tc, clirr_mesh_generate("mesh:n=2000,seed=5", &m, &err));
        TH_OK(tc, dmr_mesh_init(&w, &m, k ? 20 : 30, 0, &err));
        TH_OK(tc, clirr_ref_dmr(&w, k ? 20 : 30, &st, &err));
        nt[k] = w.nt;
        dmr_mesh_free(&w);
        clirr_mesh_free(&m);
    }
    TH_EXPECT(tc, nt[1] < nt[0], "20 degrees gave %zu triangles, 30 gave %zu", nt[1], nt[0]);
done:
    dmr_mesh_free(&w);
    clirr_mesh_free(&m);
}

/* Flip the edge opposite corner i of triangle t (a convex quadrilateral),
 * neighbours recomputed: the edge was Delaunay, its flip is not. */
static bool flip(dmr_mesh *w, uint32_t t, int i)
{
    uint32_t n = w->tn[3 * t + i];
    if (n == CLIRR_MESH_NONE)
        return false;
    uint32_t *c = w->tv + 3 * t, *d = w->tv + 3 * n;
    uint32_t p = c[i], a = c[(i + 1) % 3], b = c[(i + 2) % 3];
    uint32_t q = d[0] != a && d[0] != b ? d[0] : d[1] != a && d[1] != b ? d[1] : d[2];
    const double *P = w->xy + 2 * p, *A = w->xy + 2 * a, *B = w->xy + 2 * b, *Q = w->xy + 2 * q;
    if (clirr_mesh_orient(P, A, Q) <= 0 || clirr_mesh_orient(P, Q, B) <= 0)
        return false;
    c[0] = p, c[1] = a, c[2] = q;
    d[0] = p, d[1] = q, d[2] = b;
    clirr_mesh view = {w->np, w->xy, w->nt, w->tv, 0, NULL};
    clirr_error err;
    return clirr_mesh_neighbors(&view, w->tn, &err) == CLIRR_OK;
}

static void verifier_fails(th_case *tc)
{
    clirr_error err;
    clirr_mesh m = {0};
    dmr_mesh w = {0};
    dmr_verdict v;
    clirr_verify_report rep;
    TH_OK(tc, clirr_mesh_generate("mesh:n=500,seed=6", &m, &err));
    for (int kind = 0; kind < 8; kind++) {
        TH_OK(tc, dmr_mesh_init(&w, &m, 30, 0, &err));
        dmr_ref_stats st;
        TH_OK(tc, clirr_ref_dmr(&w, 30, &st, &err));
        TH_REQUIRE(tc, clirr_verify_dmr(&m, 30, &w, 0, &v, &rep), "unperturbed: %s", rep.text);
        uint32_t claimed = 0, t = w.nt / 2;
        const char *what = "";
        switch (kind) {
        case 0: {
            uint32_t s = w.tv[3 * t];
            w.tv[3 * t] = w.tv[3 * t + 1];
            w.tv[3 * t + 1] = s;
            what = "a clockwise triangle";
            break;
        }
        case 1:
            for (int i = 0; i < 3; i++)
                if (w.tn[3 * t + i] != CLIRR_MESH_NONE) {
                    w.tn[3 * t + i] = (w.tn[3 * t + i] + 1) % w.nt;
                    break;
                }
            what = "a wrong neighbour";
            break;
        case 2: {
            bool flipped = false;
            for (uint32_t u = 0; u < w.nt && !flipped; u++)
                for (int i = 0; i < 3 && !flipped; i++)
                    flipped = flip(&w, u, i);
            TH_REQUIRE(tc, flipped, "no edge to flip");
            what = "a flipped (non-Delaunay) edge";
            break;
        }
        case 3:
            w.xy[2 * 7] += 1e-6;
            what = "a moved input point";
            break;
        case 4:
            claimed = 1;
            what = "a wrong count of bad triangles";
            break;
        case 5: {
            /* The input itself: plenty of bad triangles. */
            dmr_mesh_free(&w);
            TH_OK(tc, dmr_mesh_init(&w, &m, 30, 0, &err));
            what = "the unrefined mesh";
            break;
        }
        case 6:
            w.nt--;
            what = "a dropped triangle";
            break;
        case 7:
            w.np_input--;
            what = "a lost input point";
            break;
        }
        TH_EXPECT(tc, !clirr_verify_dmr(&m, 30, &w, claimed, &v, &rep), "%s passed the verifier", what);
        dmr_mesh_free(&w);
    }
done:
    dmr_mesh_free(&w);
    clirr_mesh_free(&m);
}

/* ---- on the devices --------------------------------------------------------- */

static const char *const variant_names[] = {"topo", "data", "hybrid"};

/* One device run of the registry's dmr on m, verified: returns the run's
 * extras in x (NULL: not wanted). */
static bool device_run(th_case *tc, const clirr_mesh *m, const char *name, int variant, const char *sw,
                       const char *reserve, uint32_t *rounds, clirr_extras *x)
{
    const clirr_algo *a = clirr_algo_find("dmr");
    clirr_error err;
    clirr_input *in = NULL;
    clirr_session *s = NULL;
    bool ok = false;
    clirr_mesh copy = *m; /* the input borrows m */
    TH_REQUIRE(tc, a, "no dmr in the registry");
    TH_OK(tc, clirr_input_from_mesh(&copy, false, name, &in, &err));
    clirr_intent it;
    clirr_intent_default(a, &it);
    it.variant = variant;
    if (sw)
        TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "hybrid"), sw, &it.params, &err));
    if (reserve)
        TH_OK(tc, clirr_param_set(a, (unsigned)clirr_algo_param(a, "reserve"), reserve, &it.params, &err));
    clirr_plan plan;
    int rc = clirr_plan_make(a, &tc->device->caps, &it, in, &plan, &err);
    if (rc == CLIRR_ERR_UNSUPPORTED) {
        th_skip(tc, "%s", err.msg);
        goto done;
    }
    TH_OK(tc, rc);
    TH_OK(tc, clirr_session_prepare(tc->ctx, in, &plan, &s, &err));
    unsigned char expected[256], got[256];
    TH_REQUIRE(tc, a->value_size <= sizeof got, "result too large");
    TH_OK(tc, a->reference(in, &plan, expected, &err));
    for (int trial = 0; trial < 2; trial++) {
        clirr_stats st;
        TH_OK(tc, clirr_session_run(s, got, &st, &err));
        clirr_verify_report rep;
        TH_REQUIRE(tc, a->verify(in, &plan, expected, got, &rep), "%s (%s), trial %d: %s", name,
                   variant_names[variant], trial + 1, rep.text);
        TH_REQUIRE(tc, st.timing.build_ns == 0, "%s: trial %d compiled", name, trial + 1);
        if (rounds)
            *rounds = st.iterations;
    }
    if (x)
        clirr_session_extras(s, got, x);
    ok = true;
done:
    clirr_session_release(s);
    clirr_input_free(in);
    return ok;
}

static uint64_t extra(const clirr_extras *x, const char *name)
{
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->e[i].name, name))
            return x->e[i].u;
    return UINT64_MAX;
}

/* Every small mesh, the 10^4-point one here and 10^5 points on a GPU
 * (10^5 on PoCL takes tens of seconds a variant on a 2-core machine). */
static void device_variant(th_case *tc)
{
    int variant = (int)(intptr_t)tc->param;
    clirr_error err;
    clirr_mesh m = {0};
    size_t n = sizeof small_names / sizeof small_names[0];
    for (size_t i = 0; i <= n; i++) {
        const char *name = i < n ? small_names[i] : "mesh:n=100000,seed=9";
        if (i == n && !tc->device->caps.is_gpu)
            break;
        TH_OK(tc, small_mesh(name, &m, &err));
        clirr_extras x;
        if (!device_run(tc, &m, name, variant, NULL, NULL, NULL, &x))
            goto done;
        bool tri = !strcmp(name, "triangle");
        TH_REQUIRE(tc, extra(&x, "bad_left") == (tri ? 1u : 0u) && extra(&x, "unfixable") == extra(&x, "bad_left"),
                   "%s: %llu bad left, %llu unfixable", name, (unsigned long long)extra(&x, "bad_left"),
                   (unsigned long long)extra(&x, "unfixable"));
        TH_REQUIRE(tc, extra(&x, "given_up") == 0, "%s: %llu given up", name, (unsigned long long)extra(&x, "given_up"));
        TH_REQUIRE(tc, tri || extra(&x, "triangles.after") > m.ntri, "%s: not refined", name);
        TH_REQUIRE(tc, extra(&x, "cavities.built") == extra(&x, "cavities.committed") + extra(&x, "cavities.aborted"),
                   "%s: built %llu != committed %llu + aborted %llu", name,
                   (unsigned long long)extra(&x, "cavities.built"), (unsigned long long)extra(&x, "cavities.committed"),
                   (unsigned long long)extra(&x, "cavities.aborted"));
        clirr_mesh_free(&m);
    }
done:
    clirr_mesh_free(&m);
}

/* Storage of one triangle per input triangle: it grows, the rounds rerun,
 * and the mesh is still right; the hybrid at --hybrid 0 runs topology-
 * driven rounds only, at 1 data-driven ones only. */
static void device_growth_and_threshold(th_case *tc)
{
    clirr_error err;
    clirr_mesh m = {0};
    clirr_extras x;
    TH_OK(tc, clirr_mesh_generate("mesh:n=3000,seed=11,shape=disk", &m, &err));
    for (int v = 0; v < 3; v++) {
        if (!device_run(tc, &m, "reserve 1", v, NULL, "1", NULL, &x))
            goto done;
        TH_REQUIRE(tc, extra(&x, "triangles.after") > 2 * m.ntri, "%s: refined little", variant_names[v]);
    }
    uint32_t rounds = 0;
    if (!device_run(tc, &m, "hybrid 0", 2, "0", NULL, &rounds, &x))
        goto done;
    TH_REQUIRE(tc, extra(&x, "data_rounds") == 0 && extra(&x, "topo_rounds") == rounds, "hybrid 0: %llu data rounds",
               (unsigned long long)extra(&x, "data_rounds"));
    if (!device_run(tc, &m, "hybrid 1", 2, "1", NULL, &rounds, &x))
        goto done;
    TH_REQUIRE(tc, extra(&x, "topo_rounds") == 0 && extra(&x, "data_rounds") == rounds, "hybrid 1: %llu topo rounds",
               (unsigned long long)extra(&x, "topo_rounds"));
done:
    clirr_mesh_free(&m);
}

/* The command: --mesh PREFIX, --output PREFIX read back and verified,
 * the JSON's rounds and per-round cavities; a malformed mesh exits 2
 * naming its file and line. */
static void device_cli(th_case *tc)
{
    char dev[16], in[1024], out[1024], json[1024], opt[1100], so[8192], se[8192];
    snprintf(dev, sizeof dev, "%u", tc->device->index);
    snprintf(in, sizeof in, "%s/dmr-in", th_tmp_dir());
    snprintf(out, sizeof out, "%s/dmr-out", th_tmp_dir());
    snprintf(json, sizeof json, "%s/dmr.json", th_tmp_dir());
    snprintf(opt, sizeof opt, "--json=%s", json);
    clirr_error err;
    clirr_mesh m = {0}, r = {0};
    dmr_mesh w = {0};
    json_object *doc = NULL;
    int rc = th_clirr_run(tc, so, sizeof so, se, sizeof se, "gen", "mesh:n=400,seed=12", "-o", in, NULL);
    TH_REQUIRE(tc, rc == 0, "gen: exit %d: %s", rc, se);
    rc = th_clirr_run(tc, so, sizeof so, se, sizeof se, "run", "dmr", "--mesh", in, "--device", dev, "--output", out,
                      "--min-angle", "28", opt, NULL);
    TH_REQUIRE(tc, rc == 0, "run: exit %d: %s", rc, se);
    TH_OK(tc, clirr_mesh_read(in, &m, &err));
    TH_OK(tc, clirr_mesh_read(out, &r, &err));
    /* The written mesh, as the verifier sees a device's. */
    TH_OK(tc, dmr_mesh_init(&w, &r, 28, 0, &err));
    w.np_input = m.npoints;
    dmr_verdict v;
    clirr_verify_report rep;
    TH_REQUIRE(tc, clirr_verify_dmr(&m, 28, &w, 0, &v, &rep), "the written mesh: %s", rep.text);
    doc = json_object_from_file(json);
    TH_REQUIRE(tc, doc, "no JSON in %s", json);
    json_object *runs, *run, *res, *o;
    TH_REQUIRE(tc, json_object_object_get_ex(doc, "runs", &runs) && (run = json_object_array_get_idx(runs, 0)) &&
                   json_object_object_get_ex(run, "results", &res),
               "no results");
    TH_REQUIRE(tc, json_object_object_get_ex(run, "iterations", &o) && json_object_get_int(o) > 0, "no rounds");
    TH_REQUIRE(tc, json_object_object_get_ex(res, "bad_left", &o) && json_object_get_int(o) == 0, "bad_left");
    TH_REQUIRE(tc, json_object_object_get_ex(res, "triangles", &o) && json_object_object_get_ex(o, "after", &o) &&
                   (uint32_t)json_object_get_int64(o) == r.ntri,
               "triangles.after differs from the written mesh's %u", r.ntri);
    TH_REQUIRE(tc, json_object_object_get_ex(res, "aborted_per_round", &o) && json_object_array_length(o) > 0,
               "no aborted_per_round");
    /* A malformed mesh: exit 2, its file and line. */
    snprintf(in, sizeof in, "%s/dmr-bad", th_tmp_dir());
    char path[1100];
    snprintf(path, sizeof path, "%s.node", in);
    TH_REQUIRE(tc, th_write_text(path, "4 2 0 0\n1 0 0\n2 1 0\n3 1 1\n4 0 1\n"), "cannot write");
    snprintf(path, sizeof path, "%s.ele", in);
    TH_REQUIRE(tc, th_write_text(path, "2 3 0\n1 1 3 2\n2 1 3 4\n"), "cannot write");
    rc = th_clirr_run(tc, so, sizeof so, se, sizeof se, "run", "dmr", "--mesh", in, "--device", dev, NULL);
    TH_REQUIRE(tc, rc == 2 && strstr(se, "dmr-bad.ele:2: ") && strstr(se, "clockwise"), "bad mesh: exit %d: %s", rc, se);
    rc = th_clirr_run(tc, so, sizeof so, se, sizeof se, "run", "dmr", "--gen", "mesh:n=30", "--device", dev,
                      "--output", "-", NULL);
    TH_REQUIRE(tc, rc == 2 && strstr(se, "not standard output"), "--output -: exit %d: %s", rc, se);
    /* A kite cut along its long diagonal: valid, not Delaunay. */
    snprintf(path, sizeof path, "%s.node", in);
    TH_REQUIRE(tc, th_write_text(path, "4 2 0 0\n1 0 0\n2 2 -1\n3 4 0\n4 2 1\n"), "cannot write");
    snprintf(path, sizeof path, "%s.ele", in);
    TH_REQUIRE(tc, th_write_text(path, "2 3 0\n1 1 2 3\n2 1 3 4\n"), "cannot write");
    rc = th_clirr_run(tc, so, sizeof so, se, sizeof se, "run", "dmr", "--mesh", in, "--device", dev, NULL);
    TH_REQUIRE(tc, rc == 2 && strstr(se, "not a Delaunay triangulation"), "a kite: exit %d: %s", rc, se);
    rc = th_clirr_run(tc, so, sizeof so, se, sizeof se, "run", "dmr", "--gen", "mesh:n=50", "--min-angle", "40",
                      "--device", dev, NULL);
    TH_REQUIRE(tc, rc == 2 && strstr(se, "--min-angle"), "min-angle 40: exit %d: %s", rc, se);
done:
    if (doc)
        json_object_put(doc);
    dmr_mesh_free(&w);
    clirr_mesh_free(&m);
    clirr_mesh_free(&r);
}

TH_REGISTER(register_dmr_tests)
{
    th_add("dmr/serial", serial, NULL);
    th_add("dmr/verifier-fails", verifier_fails, NULL);
    th_add_device("dmr/device/topo", device_variant, (void *)(intptr_t)0);
    th_add_device("dmr/device/data", device_variant, (void *)(intptr_t)1);
    th_add_device("dmr/device/hybrid", device_variant, (void *)(intptr_t)2);
    th_add_device("dmr/device/growth-and-threshold", device_growth_and_threshold, NULL);
    th_add_device_noctx("dmr/cli", device_cli, NULL);
}
