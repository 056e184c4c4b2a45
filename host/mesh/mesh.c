/* host/mesh/mesh.c - a mesh itself: array limits, the structure check
 * (neighbours from each point's outgoing edges, sorted; the boundary and
 * its segments), hash and freeing. The check only reorients and adds
 * segments when asked to (the readers and the generator). */
#include "mesh/mesh_internal.h"

#include "clirr/graph.h" /* clirr_array_limits */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

/* Bytes per triangle of the largest host array (3 corners, 3 neighbours)
 * and of a device's largest (a refinement's triangles with their
 * neighbours grow about 4-fold). */
enum { HOST_BYTES = 24, DEVICE_BYTES = 4 * 12 };

int clirr_mesh_fits(uint64_t np, uint64_t nt, const char *what, clirr_error *err)
{
    uint64_t device, host;
    clirr_array_limits(&device, &host);
    if (np > CLIRR_MESH_MAX_POINTS || nt > CLIRR_MESH_MAX_TRIANGLES)
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s has %llu points and %llu triangles; clirr takes at most "
                          "%llu and %llu (32-bit indices with room to refine)", what, (unsigned long long)np,
                          (unsigned long long)nt, (unsigned long long)CLIRR_MESH_MAX_POINTS,
                          (unsigned long long)CLIRR_MESH_MAX_TRIANGLES);
    if (device && nt * DEVICE_BYTES > device)
        return clirr_fail(err, CLIRR_ERR_TOO_LARGE, "%s (%llu triangles) needs device arrays of about %.2f GiB; "
                          "the devices chosen take at most %.2f GiB per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                          what, (unsigned long long)nt, nt * DEVICE_BYTES / 1073741824.0, device / 1073741824.0);
    if (host && np * 16 > host)
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s (%llu points) needs an array of %.2f GiB; a run here allows "
                          "%.2f GiB per array (an eighth of this machine's memory)", what, (unsigned long long)np,
                          np * 16 / 1073741824.0, host / 1073741824.0);
    if (host && nt * HOST_BYTES > host)
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s (%llu triangles) needs arrays of %.2f GiB; a run here "
                          "allows %.2f GiB per array (an eighth of this machine's memory)", what,
                          (unsigned long long)nt, nt * HOST_BYTES / 1073741824.0, host / 1073741824.0);
    return CLIRR_OK;
}

double clirr_mesh_orient(const double *a, const double *b, const double *c)
{
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/* An outgoing edge of a point: where it goes, and its half-edge 3t+i
 * (the edge of triangle t opposite its corner i). */
typedef struct half {
    uint32_t to, h;
} half;

static int by_target(const void *x, const void *y)
{
    const half *a = x, *b = y;
    return a->to < b->to ? -1 : a->to > b->to ? 1 : (a->h > b->h) - (a->h < b->h);
}

/* The half-edge from point `from` to point `to`, or CLIRR_MESH_NONE. */
static uint32_t find_half(const uint64_t *off, const half *hs, uint32_t from, uint32_t to)
{
    uint64_t lo = off[from], hi = off[from + 1];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (hs[mid].to < to)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < off[from + 1] && hs[lo].to == to ? hs[lo].h : CLIRR_MESH_NONE;
}

static int problem(mesh_problem *prob, mesh_problem_kind kind, uint32_t a, uint32_t b, uint32_t p, uint32_t q)
{
    prob->kind = kind;
    prob->a = a;
    prob->b = b;
    prob->p = p;
    prob->q = q;
    return CLIRR_ERR_INPUT;
}

/* Every triangle's corners in range and counter-clockwise. */
static int corners(const clirr_mesh *m, mesh_problem *prob)
{
    for (uint32_t t = 0; t < m->ntri; t++) {
        const uint32_t *c = m->tri + 3 * (size_t)t;
        for (int k = 0; k < 3; k++)
            if (c[k] >= m->npoints)
                return problem(prob, MESH_TRI_INDEX, t, 0, c[k], 0);
        double o = clirr_mesh_orient(m->xy + 2 * (size_t)c[0], m->xy + 2 * (size_t)c[1], m->xy + 2 * (size_t)c[2]);
        if (!(o > 0)) {
            prob->v = o;
            return problem(prob, MESH_TRI_FLAT, t, 0, 0, 0);
        }
    }
    return CLIRR_OK;
}

/* The segments against the boundary half-edges (nb NONE): each names one,
 * once; oriented as it. seg_of[h] marks the half-edges named. */
static int match_segments(clirr_mesh *m, bool orient, const uint64_t *off, const half *hs,
                          const uint32_t *nb, uint32_t *seg_of, mesh_problem *prob)
{
    for (uint32_t s = 0; s < m->nseg; s++) {
        uint32_t u = m->seg[2 * (size_t)s], v = m->seg[2 * (size_t)s + 1];
        if (u >= m->npoints || v >= m->npoints)
            return problem(prob, MESH_SEG_INDEX, s, 0, u >= m->npoints ? u : v, 0);
        uint32_t h = find_half(off, hs, u, v);
        if (h == CLIRR_MESH_NONE || nb[h] != CLIRR_MESH_NONE) {
            h = find_half(off, hs, v, u);
            if (h == CLIRR_MESH_NONE || nb[h] != CLIRR_MESH_NONE)
                return problem(prob, MESH_SEG_NOT_BOUNDARY, s, 0, u, v);
            if (orient) {
                m->seg[2 * (size_t)s] = v;
                m->seg[2 * (size_t)s + 1] = u;
            }
        }
        if (seg_of[h] != CLIRR_MESH_NONE)
            return problem(prob, MESH_SEG_TWICE, s, seg_of[h], u, v);
        seg_of[h] = s;
    }
    return CLIRR_OK;
}

int clirr_mesh_structure(clirr_mesh *m, bool add_missing, uint32_t *nb_out, mesh_problem *prob,
                         clirr_error *err)
{
    memset(prob, 0, sizeof *prob);
    int rc = corners(m, prob);
    if (rc != CLIRR_OK)
        return rc;
    size_t nh = 3 * (size_t)m->ntri;
    uint64_t *off = calloc((size_t)m->npoints + 1, sizeof *off);
    half *hs = malloc((nh ? nh : 1) * sizeof *hs);
    uint32_t *nb = nb_out ? nb_out : malloc((nh ? nh : 1) * sizeof *nb);
    uint32_t *seg_of = malloc((nh ? nh : 1) * sizeof *seg_of);
    uint8_t *out_bound = calloc((size_t)m->npoints + 1, 1);
    if (!off || !hs || !nb || !seg_of || !out_bound) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for the neighbours of %u triangles", m->ntri);
        goto done;
    }
    for (size_t h = 0; h < nh; h++)
        off[m->tri[h / 3 * 3 + (h % 3 + 1) % 3] + 1]++;
    for (uint32_t p = 0; p < m->npoints; p++) {
        if (off[p + 1] == 0) {
            rc = problem(prob, MESH_POINT_UNUSED, 0, 0, p, 0);
            goto done;
        }
        off[p + 1] += off[p];
    }
    for (size_t h = 0; h < nh; h++) {
        size_t t3 = h / 3 * 3, i = h % 3;
        uint32_t from = m->tri[t3 + (i + 1) % 3];
        hs[off[from]++] = (half){m->tri[t3 + (i + 2) % 3], (uint32_t)h};
    }
    for (uint32_t p = m->npoints; p > 0; p--)
        off[p] = off[p - 1];
    off[0] = 0;
    for (uint32_t p = 0; p < m->npoints; p++) {
        qsort(hs + off[p], off[p + 1] - off[p], sizeof *hs, by_target);
        for (uint64_t k = off[p] + 1; k < off[p + 1]; k++)
            if (hs[k].to == hs[k - 1].to) {
                rc = problem(prob, MESH_EDGE_TWICE, hs[k - 1].h / 3, hs[k].h / 3, p, hs[k].to);
                goto done;
            }
    }
    size_t nbound = 0;
    for (uint32_t p = 0; p < m->npoints; p++)
        for (uint64_t k = off[p]; k < off[p + 1]; k++) {
            uint32_t twin = find_half(off, hs, hs[k].to, p);
            nb[hs[k].h] = twin == CLIRR_MESH_NONE ? CLIRR_MESH_NONE : twin / 3;
            if (twin == CLIRR_MESH_NONE) {
                nbound++;
                if (out_bound[p]++) {
                    rc = problem(prob, MESH_PINCHED, 0, 0, p, 0);
                    goto done;
                }
            }
        }
    memset(seg_of, 0xff, (nh ? nh : 1) * sizeof *seg_of);
    if ((rc = match_segments(m, add_missing, off, hs, nb, seg_of, prob)) != CLIRR_OK)
        goto done;
    if (nbound > m->nseg && add_missing) {
        uint32_t *bigger = realloc(m->seg, 2 * nbound * sizeof *bigger);
        if (!bigger) {
            rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %zu segments", nbound);
            goto done;
        }
        m->seg = bigger;
    }
    for (size_t h = 0; h < nh; h++) {
        if (nb[h] != CLIRR_MESH_NONE || seg_of[h] != CLIRR_MESH_NONE)
            continue;
        size_t t3 = h / 3 * 3, i = h % 3;
        uint32_t p = m->tri[t3 + (i + 1) % 3], q = m->tri[t3 + (i + 2) % 3];
        if (!add_missing) {
            rc = problem(prob, MESH_SEG_MISSING, (uint32_t)(h / 3), 0, p, q);
            goto done;
        }
        m->seg[2 * (size_t)m->nseg] = p;
        m->seg[2 * (size_t)m->nseg + 1] = q;
        m->nseg++;
    }
done:
    free(off);
    free(hs);
    if (nb != nb_out)
        free(nb);
    free(seg_of);
    free(out_bound);
    return rc;
}

void clirr_mesh_problem_text(const mesh_problem *pr, char *buf, size_t size)
{
    switch (pr->kind) {
    case MESH_EDGE_TWICE:
        snprintf(buf, size, "triangles %u and %u both hold edge %u -> %u in the same direction (they "
                 "overlap, or an edge has more than two triangles)", pr->a, pr->b, pr->p, pr->q);
        break;
    case MESH_POINT_UNUSED:
        snprintf(buf, size, "point %u is a corner of no triangle (clirr refines triangulations: every "
                 "point is in one)", pr->p);
        break;
    case MESH_PINCHED:
        snprintf(buf, size, "the boundary passes point %u twice (clirr refines domains with a simple "
                 "boundary)", pr->p);
        break;
    case MESH_SEG_NOT_BOUNDARY:
        snprintf(buf, size, "segment %u (%u, %u) is no boundary edge of the triangles (clirr keeps the "
                 "boundary as segments and takes no interior ones)", pr->a, pr->p, pr->q);
        break;
    case MESH_SEG_TWICE:
        snprintf(buf, size, "segment %u (%u, %u) repeats segment %u", pr->a, pr->p, pr->q, pr->b);
        break;
    case MESH_SEG_MISSING:
        snprintf(buf, size, "boundary edge %u -> %u of triangle %u is no segment", pr->p, pr->q, pr->a);
        break;
    case MESH_SEG_INDEX:
        snprintf(buf, size, "segment %u names point %u, past the points", pr->a, pr->p);
        break;
    case MESH_TRI_INDEX:
        snprintf(buf, size, "triangle %u names point %u, past the points", pr->a, pr->p);
        break;
    case MESH_TRI_FLAT:
        snprintf(buf, size, "triangle %u is %s (twice its signed area is %.17g; corners go "
                 "counter-clockwise)", pr->a, pr->v == 0 ? "degenerate" : "clockwise", pr->v);
        break;
    default:
        snprintf(buf, size, "no problem");
    }
}

int clirr_mesh_check(const clirr_mesh *m, const char *what, clirr_error *err)
{
    clirr_mesh copy = *m; /* not changed: add_missing is off */
    mesh_problem prob;
    int rc = clirr_mesh_fits(m->npoints, m->ntri, what, err);
    if (rc == CLIRR_OK)
        rc = clirr_mesh_structure(&copy, false, NULL, &prob, err);
    if (rc == CLIRR_ERR_INPUT && prob.kind != MESH_FINE) {
        char text[512];
        clirr_mesh_problem_text(&prob, text, sizeof text);
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s: %s", what, text);
    }
    return rc;
}

int clirr_mesh_neighbors(const clirr_mesh *m, uint32_t *nb, clirr_error *err)
{
    clirr_mesh copy = *m;
    copy.nseg = 0; /* the segments are not this function's business */
    mesh_problem prob;
    int rc = clirr_mesh_structure(&copy, false, nb, &prob, err);
    if (rc == CLIRR_ERR_INPUT && prob.kind == MESH_SEG_MISSING)
        return CLIRR_OK; /* seen after every neighbour was found */
    if (rc == CLIRR_ERR_INPUT) {
        char text[512];
        clirr_mesh_problem_text(&prob, text, sizeof text);
        return clirr_fail(err, CLIRR_ERR_INPUT, "mesh: %s", text);
    }
    return rc;
}

uint64_t clirr_mesh_hash(const clirr_mesh *m)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    uint32_t counts[3] = {m->npoints, m->ntri, m->nseg};
    XXH3_64bits_update(&st, counts, sizeof counts);
    XXH3_64bits_update(&st, m->xy, 2 * (size_t)m->npoints * sizeof *m->xy);
    XXH3_64bits_update(&st, m->tri, 3 * (size_t)m->ntri * sizeof *m->tri);
    XXH3_64bits_update(&st, m->seg, 2 * (size_t)m->nseg * sizeof *m->seg);
    return XXH3_64bits_digest(&st);
}

void clirr_mesh_free(clirr_mesh *m)
{
    free(m->xy);
    free(m->tri);
    free(m->seg);
    memset(m, 0, sizeof *m);
}
