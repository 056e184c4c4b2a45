/* tests/test_dmr.c - Delaunay mesh refinement: the serial refinement on
 * generated meshes (square and disk), a single triangle, a rectangle of
 * two, and a grid of collinear and cocircular points, each checked by the
 * verifier; the verifier refusing perturbed meshes (a flipped triangle, a
 * wrong neighbour, a non-Delaunay edge, a moved input point, a bad
 * triangle left, a wrong count, a dropped segment); then every variant on
 * every device on the same meshes and the command's --output and JSON. */
#include "harness.h"

#include "mesh/mesh_internal.h"
#include "ref/dmr.h"

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

TH_REGISTER(register_dmr_tests)
{
    th_add("dmr/serial", serial, NULL);
    th_add("dmr/verifier-fails", verifier_fails, NULL);
}
