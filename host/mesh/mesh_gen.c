/* host/mesh/mesh_gen.c - generated meshes "mesh:n=N[,seed=S][,shape=
 * square|disk]": points from clirr's counter-based random numbers (exact
 * scalings of 53-bit draws only, so every machine gets the same doubles),
 * their Delaunay triangulation from Qhull (the lower hull of the points
 * lifted to the paraboloid, triangulated: "d Qbb Qt Qz"), triangles
 * rotated to start at their smallest corner and sorted, so the mesh
 * depends on the points alone (pinned by hash in tests/test_mesh.c); the
 * convex hull's edges become the segments. */
#include "mesh/mesh_internal.h"

#include "base/rng.h"
#include "base/spec.h"

#include <libqhull_r/qhull_ra.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mesh_params {
    uint64_t n, seed, shape;
} mesh_params;

enum { SHAPE_SQUARE, SHAPE_DISK };
static const char *const shapes[] = {"square", "disk", NULL};

static const clirr_spec_key mesh_keys[] = {
    {"n", CLIRR_SPEC_UINT, 3, CLIRR_MESH_MAX_POINTS, NULL, true, offsetof(mesh_params, n)},
    {"seed", CLIRR_SPEC_UINT, 0, UINT64_MAX, NULL, false, offsetof(mesh_params, seed)},
    {"shape", CLIRR_SPEC_WORD, 0, 0, shapes, false, offsetof(mesh_params, shape)},
};
static const clirr_spec_kind mesh_kinds[] = {
    {"mesh", mesh_keys, sizeof mesh_keys / sizeof mesh_keys[0]},
};

enum { STREAM_MESH = 31 };

bool clirr_mesh_spec(const char *spec) { return clirr_spec_is(spec, mesh_kinds, 1); }

static double uniform(uint64_t key, uint64_t *next) { return (double)(rng_at(key, (*next)++) >> 11) * 0x1.0p-53; }

/* Point i's coordinates: its own stream, so any point can be drawn alone. */
static void draw_point(uint64_t seed, uint64_t shape, uint32_t i, double *xy)
{
    uint64_t key = rng_key(seed, STREAM_MESH) ^ rng_mix((uint64_t)i + 1), next = 0;
    do {
        xy[0] = uniform(key, &next);
        xy[1] = uniform(key, &next);
        if (shape == SHAPE_SQUARE)
            return;
        xy[0] = xy[0] * 2 - 1;
        xy[1] = xy[1] * 2 - 1;
    } while (xy[0] * xy[0] + xy[1] * xy[1] >= 1.0 || (xy[0] == 0 && xy[1] == 0));
}

static int by_corners(const void *x, const void *y)
{
    const uint32_t *a = x, *b = y;
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

/* A point's place on a Z-order curve over the bounding box (16 bits a
 * coordinate), and its index: Qhull inserts points in the order given,
 * and neighbours inserted one after the other keep its search short (3x
 * faster on random points). The triangulation does not depend on it. */
typedef struct zpoint {
    uint64_t key;
    uint32_t i;
} zpoint;

static int by_key(const void *x, const void *y)
{
    const zpoint *a = x, *b = y;
    return a->key < b->key ? -1 : a->key > b->key ? 1 : (a->i > b->i) - (a->i < b->i);
}

static uint64_t spread(uint32_t v)
{
    uint64_t x = v & 0xffff;
    x = (x | x << 8) & 0x00ff00ffull;
    x = (x | x << 4) & 0x0f0f0f0full;
    x = (x | x << 2) & 0x33333333ull;
    return (x | x << 1) & 0x55555555ull;
}

static zpoint *z_order(const clirr_mesh *m)
{
    zpoint *z = malloc((size_t)m->npoints * sizeof *z);
    if (!z)
        return NULL;
    double lo[2] = {m->xy[0], m->xy[1]}, hi[2] = {m->xy[0], m->xy[1]};
    for (uint32_t i = 0; i < m->npoints; i++)
        for (int k = 0; k < 2; k++) {
            double v = m->xy[2 * (size_t)i + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    for (uint32_t i = 0; i < m->npoints; i++) {
        uint32_t q[2];
        for (int k = 0; k < 2; k++)
            q[k] = hi[k] > lo[k] ? (uint32_t)((m->xy[2 * (size_t)i + k] - lo[k]) / (hi[k] - lo[k]) * 65535.0) : 0;
        z[i] = (zpoint){spread(q[0]) | spread(q[1]) << 1, i};
    }
    qsort(z, m->npoints, sizeof *z, by_key);
    return z;
}

/* Qhull's lower-hull facets as counter-clockwise triangles. */
static int triangulate(clirr_mesh *m, clirr_error *err)
{
    qhT qh_store, *qh = &qh_store;
    FILE *errfile = tmpfile();
    coordT *pts = malloc(2 * (size_t)m->npoints * sizeof *pts);
    zpoint *z = z_order(m);
    if (!pts || !errfile || !z) {
        if (errfile)
            fclose(errfile);
        free(pts);
        free(z);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for Qhull's %u points", m->npoints);
    }
    for (uint32_t k = 0; k < m->npoints; k++) {
        pts[2 * (size_t)k] = m->xy[2 * (size_t)z[k].i];
        pts[2 * (size_t)k + 1] = m->xy[2 * (size_t)z[k].i + 1];
    }
    qh_zero(qh, errfile);
    char options[] = "qhull d Qbb Qt Qz";
    int rc = CLIRR_OK, exitcode = qh_new_qhull(qh, 2, (int)m->npoints, pts, False, options, NULL, errfile);
    if (exitcode) {
        char why[512] = "";
        rewind(errfile);
        size_t got = fread(why, 1, sizeof why - 1, errfile);
        why[got] = '\0';
        rc = clirr_fail(err, CLIRR_ERR_INPUT, "Qhull could not triangulate the points (code %d): %.400s", exitcode, why);
        goto done;
    }
    size_t cap = 2 * (size_t)m->npoints + 8;
    m->tri = malloc(3 * cap * sizeof *m->tri);
    if (!m->tri) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the triangles of %u points", m->npoints);
        goto done;
    }
    facetT *facet;
    vertexT *vertex, **vertexp;
    size_t nt = 0;
    FORALLfacets {
        if (facet->upperdelaunay)
            continue;
        uint32_t c[3];
        int k = 0;
        bool outside = false;
        FOREACHvertex_(facet->vertices) {
            int id = qh_pointid(qh, vertex->point);
            outside |= id < 0 || (uint32_t)id >= m->npoints;
            if (k < 3 && !outside)
                c[k] = z[id].i;
            k++;
        }
        if (k != 3 || outside || nt == cap) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "Qhull gave a facet of %d points that clirr cannot use", k);
            goto done;
        }
        double o = clirr_mesh_orient(m->xy + 2 * (size_t)c[0], m->xy + 2 * (size_t)c[1], m->xy + 2 * (size_t)c[2]);
        if (o == 0) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "Qhull gave a flat triangle (%u, %u, %u)", c[0], c[1], c[2]);
            goto done;
        }
        if (o < 0) {
            uint32_t s = c[1];
            c[1] = c[2];
            c[2] = s;
        }
        /* Rotate the smallest corner first (the orientation stays). */
        int r = c[0] < c[1] ? (c[0] < c[2] ? 0 : 2) : (c[1] < c[2] ? 1 : 2);
        for (int j = 0; j < 3; j++)
            m->tri[3 * nt + j] = c[(r + j) % 3];
        nt++;
    }
    m->ntri = (uint32_t)nt;
    qsort(m->tri, nt, 3 * sizeof *m->tri, by_corners);
done:
    qh_freeqhull(qh, !qh_ALL);
    int curlong, totlong;
    qh_memfreeshort(qh, &curlong, &totlong);
    fclose(errfile);
    free(pts);
    free(z);
    return rc;
}

int clirr_mesh_generate(const char *spec, clirr_mesh *m, clirr_error *err)
{
    memset(m, 0, sizeof *m);
    mesh_params mp = {0, 1, SHAPE_SQUARE};
    int k = clirr_spec_parse(spec, "mesh", mesh_kinds, 1, &mp, err);
    if (k < 0)
        return k;
    if (mp.shape == SHAPE_SQUARE && mp.n < 4)
        return clirr_fail(err, CLIRR_ERR_USAGE, "%s: a square mesh has its 4 corners: n=4 or more", spec);
    int rc = clirr_mesh_fits(mp.n, 2 * mp.n, spec, err);
    if (rc != CLIRR_OK)
        return rc;
    m->npoints = (uint32_t)mp.n;
    m->xy = malloc(2 * (size_t)m->npoints * sizeof *m->xy);
    if (!m->xy)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %u points", m->npoints);
    uint32_t first = 0;
    if (mp.shape == SHAPE_SQUARE) {
        static const double corner[8] = {0, 0, 1, 0, 1, 1, 0, 1};
        memcpy(m->xy, corner, sizeof corner);
        first = 4;
    }
    for (uint32_t i = first; i < m->npoints; i++)
        draw_point(mp.seed, mp.shape, i, m->xy + 2 * (size_t)i);
    rc = triangulate(m, err);
    mesh_problem prob;
    if (rc == CLIRR_OK) {
        rc = clirr_mesh_structure(m, true, NULL, &prob, err);
        if (rc == CLIRR_ERR_INPUT && prob.kind != MESH_FINE) {
            char text[512];
            clirr_mesh_problem_text(&prob, text, sizeof text);
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "%s: Qhull's triangulation: %s", spec, text);
        }
    }
    if (rc != CLIRR_OK)
        clirr_mesh_free(m);
    return rc;
}
