/* host/ref/dmr_refine.c - serial Delaunay mesh refinement (dmr.h has the rule):
 * the mesh being refined with its neighbours, a FIFO worklist of bad
 * triangles, and per triangle: locate the circumcentre, grow the cavity,
 * replace it by the fan from the new point. cl/dmr.cl follows the same
 * steps, with the cavity claimed before it is replaced. */
#include "ref/dmr.h"
#include "ref/dmr_geom.h"

#include <stdlib.h>
#include <string.h>

#define NONE CLIRR_MESH_NONE
/* Steps of the walk towards a circumcentre before giving up (the walk
 * ends in a Delaunay mesh; this bounds a broken one). */
#define WALK_LIMIT 100000

static const double *pt(const dmr_mesh *w, uint32_t i) { return w->xy + 2 * (size_t)i; }

double dmr_cos_min(double min_angle_deg) { return cos(min_angle_deg * 3.14159265358979323846 / 180.0); }

/* 64 times the input, and below 2^31 so a device's 32-bit counters of
 * triangles cannot wrap within a round. */
uint64_t dmr_triangle_limit(uint32_t input_triangles)
{
    uint64_t limit = 64 * (uint64_t)input_triangles + 65536;
    return limit < ((uint64_t)1 << 31) ? limit : (uint64_t)1 << 31;
}

int dmr_mesh_reserve(dmr_mesh *w, size_t np, size_t nt, clirr_error *err)
{
    if (np > w->cap_p) {
        size_t cap = w->cap_p * 2 > np ? w->cap_p * 2 : np;
        double *xy = realloc(w->xy, 2 * cap * sizeof *xy);
        if (!xy)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %zu points", cap);
        w->xy = xy;
        w->cap_p = cap;
    }
    if (nt > w->cap_t) {
        size_t cap = w->cap_t * 2 > nt ? w->cap_t * 2 : nt;
        uint32_t *tv = realloc(w->tv, 3 * cap * sizeof *tv);
        if (tv)
            w->tv = tv;
        uint32_t *tn = tv ? realloc(w->tn, 3 * cap * sizeof *tn) : NULL;
        if (!tn)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %zu triangles", cap);
        w->tn = tn;
        w->cap_t = cap;
    }
    return CLIRR_OK;
}

/* The input's boundary corners narrower than the minimum angle: at point
 * v with boundary u -> v -> x (the domain on the left), the inner angle is
 * the turn from (x - v) to (u - v) counter-clockwise. */
static void flag_small_corners(dmr_mesh *w, const clirr_mesh *m, double min_angle_deg)
{
    uint32_t *from = malloc((size_t)m->npoints * sizeof *from);
    if (!from)
        return; /* left unflagged: the verifier then counts such triangles as bad */
    memset(from, 0xff, (size_t)m->npoints * sizeof *from);
    for (uint32_t s = 0; s < m->nseg; s++)
        from[m->seg[2 * (size_t)s + 1]] = m->seg[2 * (size_t)s];
    for (uint32_t s = 0; s < m->nseg; s++) {
        uint32_t v = m->seg[2 * (size_t)s], x = m->seg[2 * (size_t)s + 1], u = from[v];
        if (u == NONE)
            continue;
        const double *pv = pt(w, v), *pu = pt(w, u), *px = pt(w, x);
        double ax = px[0] - pv[0], ay = px[1] - pv[1], bx = pu[0] - pv[0], by = pu[1] - pv[1];
        double angle = atan2(ax * by - ay * bx, ax * bx + ay * by);
        if (angle < 0)
            angle += 2 * 3.14159265358979323846;
        w->small_corner[v] = angle * 180.0 / 3.14159265358979323846 < min_angle_deg;
    }
    free(from);
}

int dmr_mesh_init(dmr_mesh *w, const clirr_mesh *m, double min_angle_deg, size_t extra_t, clirr_error *err)
{
    memset(w, 0, sizeof *w);
    int rc = dmr_mesh_reserve(w, (size_t)m->npoints + extra_t / 2 + 1, (size_t)m->ntri + extra_t, err);
    w->small_corner = calloc((size_t)m->npoints + 1, 1);
    if (rc == CLIRR_OK && !w->small_corner)
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for %u points", m->npoints);
    if (rc == CLIRR_OK)
        rc = clirr_mesh_neighbors(m, w->tn, err);
    if (rc != CLIRR_OK) {
        dmr_mesh_free(w);
        return rc;
    }
    w->np = w->np_input = m->npoints;
    w->nt = m->ntri;
    memcpy(w->xy, m->xy, 2 * (size_t)m->npoints * sizeof *w->xy);
    memcpy(w->tv, m->tri, 3 * (size_t)m->ntri * sizeof *w->tv);
    flag_small_corners(w, m, min_angle_deg);
    return CLIRR_OK;
}

void dmr_mesh_free(dmr_mesh *w)
{
    free(w->xy);
    free(w->tv);
    free(w->tn);
    free(w->small_corner);
    memset(w, 0, sizeof *w);
}

bool dmr_is_bad(const dmr_mesh *w, uint32_t t, double cos_min, bool *unfixable)
{
    const uint32_t *c = w->tv + 3 * (size_t)t;
    double cosine;
    int s = dmr_smallest_angle(pt(w, c[0]), pt(w, c[1]), pt(w, c[2]), &cosine);
    *unfixable = c[s] < w->np_input && w->small_corner[c[s]];
    return cosine > cos_min;
}

int dmr_mesh_export(const dmr_mesh *w, clirr_mesh *out, clirr_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nbound = 0;
    for (size_t h = 0; h < 3 * (size_t)w->nt; h++)
        nbound += w->tn[h] == NONE;
    out->xy = malloc(2 * (size_t)w->np * sizeof *out->xy);
    out->tri = malloc(3 * (size_t)w->nt * sizeof *out->tri);
    out->seg = malloc((2 * nbound + 1) * sizeof *out->seg);
    if (!out->xy || !out->tri || !out->seg) {
        clirr_mesh_free(out);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a mesh of %u triangles", w->nt);
    }
    out->npoints = w->np;
    out->ntri = w->nt;
    memcpy(out->xy, w->xy, 2 * (size_t)w->np * sizeof *out->xy);
    memcpy(out->tri, w->tv, 3 * (size_t)w->nt * sizeof *out->tri);
    for (size_t h = 0; h < 3 * (size_t)w->nt; h++)
        if (w->tn[h] == NONE) {
            size_t t3 = h / 3 * 3, i = h % 3;
            out->seg[2 * (size_t)out->nseg] = w->tv[t3 + (i + 1) % 3];
            out->seg[2 * (size_t)out->nseg + 1] = w->tv[t3 + (i + 2) % 3];
            out->nseg++;
        }
    return CLIRR_OK;
}

/* ---- one insertion --------------------------------------------------------- */

/* A cavity: its triangles, and its boundary edges (a, b) counter-clockwise
 * with the triangle outside (out) and the cavity triangle that had it. */
typedef struct cavity {
    uint32_t *tri;
    size_t n, cap;
    uint32_t *ea, *eb, *eout;
    size_t ne, cap_e;
    uint32_t *mark;          /* per triangle: stamp when in the cavity */
    size_t cap_mark;
    uint32_t stamp;
} cavity;

static bool cav_add(cavity *cv, uint32_t t)
{
    if (cv->n == cv->cap) {
        size_t cap = cv->cap ? 2 * cv->cap : 64;
        uint32_t *p = realloc(cv->tri, cap * sizeof *p);
        if (!p)
            return false;
        cv->tri = p;
        cv->cap = cap;
    }
    cv->tri[cv->n++] = t;
    cv->mark[t] = cv->stamp;
    return true;
}

static bool cav_edge(cavity *cv, uint32_t a, uint32_t b, uint32_t out)
{
    if (cv->ne == cv->cap_e) {
        size_t cap = cv->cap_e ? 2 * cv->cap_e : 64;
        uint32_t *pa = realloc(cv->ea, cap * sizeof *pa);
        if (pa)
            cv->ea = pa;
        uint32_t *pb = pa ? realloc(cv->eb, cap * sizeof *pb) : NULL;
        if (pb)
            cv->eb = pb;
        uint32_t *po = pb ? realloc(cv->eout, cap * sizeof *po) : NULL;
        if (!po)
            return false;
        cv->eout = po;
        cv->cap_e = cap;
    }
    cv->ea[cv->ne] = a;
    cv->eb[cv->ne] = b;
    cv->eout[cv->ne++] = out;
    return true;
}

enum { GROW_OK = 0, GROW_ENCROACHED = 1, GROW_FAILED = -1, GROW_NOMEM = -2 };

/* Walk from triangle t towards p: GROW_OK with *x the triangle holding p,
 * GROW_ENCROACHED with (*x, *edge) the boundary edge the walk leaves by. */
static int locate(const dmr_mesh *w, uint32_t t, const double *p, uint32_t *x, int *edge)
{
    for (int steps = 0; steps < WALK_LIMIT; steps++) {
        const uint32_t *c = w->tv + 3 * (size_t)t;
        int i = 0;
        for (; i < 3; i++)
            if (dmr_orient(pt(w, c[(i + 1) % 3]), pt(w, c[(i + 2) % 3]), p) < 0)
                break;
        if (i == 3) {
            *x = t;
            return GROW_OK;
        }
        uint32_t n = w->tn[3 * (size_t)t + i];
        if (n == NONE) {
            *x = t;
            *edge = i;
            return GROW_ENCROACHED;
        }
        t = n;
    }
    return GROW_FAILED;
}

/* The cavity of p from seed (which holds p, or has p on its boundary edge
 * split_edge when split_edge >= 0). With check (an interior point), a
 * boundary segment of the cavity that p encroaches upon, or sees from
 * outside, is returned as GROW_ENCROACHED in (*et, *ei). */
static int grow(const dmr_mesh *w, cavity *cv, const double *p, uint32_t seed, int split_edge, bool check,
                uint32_t *et, int *ei)
{
    cv->stamp++;
    cv->n = 0;
    if (!cav_add(cv, seed))
        return GROW_NOMEM;
    size_t k = 0;
    for (;;) {
        for (; k < cv->n; k++) {
            uint32_t t = cv->tri[k];
            const uint32_t *c = w->tv + 3 * (size_t)t;
            for (int i = 0; i < 3; i++) {
                uint32_t n = w->tn[3 * (size_t)t + i];
                if (n == NONE) {
                    if (t == seed && i == split_edge)
                        continue;
                    if (check && dmr_encroaches(pt(w, c[(i + 1) % 3]), pt(w, c[(i + 2) % 3]), p)) {
                        *et = t;
                        *ei = i;
                        return GROW_ENCROACHED;
                    }
                    continue;
                }
                if (cv->mark[n] == cv->stamp)
                    continue;
                const uint32_t *d = w->tv + 3 * (size_t)n;
                if (dmr_incircle(pt(w, d[0]), pt(w, d[1]), pt(w, d[2]), p, NULL) > 0 && !cav_add(cv, n))
                    return GROW_NOMEM;
            }
        }
        /* The boundary, and every edge seeing p from its inner side. */
        bool grew = false;
        cv->ne = 0;
        for (size_t j = 0; j < cv->n; j++) {
            uint32_t t = cv->tri[j];
            const uint32_t *c = w->tv + 3 * (size_t)t;
            for (int i = 0; i < 3; i++) {
                uint32_t n = w->tn[3 * (size_t)t + i];
                if ((n != NONE && cv->mark[n] == cv->stamp) || (n == NONE && t == seed && i == split_edge))
                    continue;
                uint32_t a = c[(i + 1) % 3], b = c[(i + 2) % 3];
                if (dmr_orient(pt(w, a), pt(w, b), p) > 0) {
                    if (!cav_edge(cv, a, b, n))
                        return GROW_NOMEM;
                    continue;
                }
                if (n == NONE) {
                    if (!check)
                        return GROW_FAILED;
                    *et = t;
                    *ei = i;
                    return GROW_ENCROACHED;
                }
                if (!cav_add(cv, n))
                    return GROW_NOMEM;
                grew = true;
            }
        }
        if (!grew)
            break;
    }
    /* A disk of n triangles has n + 2 edges; one fewer when one is split. */
    return cv->ne == cv->n + (split_edge >= 0 ? 1 : 2) ? GROW_OK : GROW_FAILED;
}

/* The slot of the new triangle on the cavity edge with a == v (first) or
 * b == v (!first), or NONE. */
static uint32_t fan_neighbour(const cavity *cv, const uint32_t *slot, uint32_t v, bool first)
{
    for (size_t k = 0; k < cv->ne; k++)
        if ((first ? cv->ea[k] : cv->eb[k]) == v)
            return slot[k];
    return NONE;
}

/* Replace the cavity by the fan from new point p: the cavity's slots
 * first, then new ones at the end. */
static int commit(dmr_mesh *w, cavity *cv, const double *p, uint32_t **slot, size_t *cap_slot, clirr_error *err)
{
    int rc = dmr_mesh_reserve(w, (size_t)w->np + 1, (size_t)w->nt + cv->ne - cv->n, err);
    if (rc != CLIRR_OK)
        return rc;
    if (cv->ne > *cap_slot) {
        uint32_t *s = realloc(*slot, 2 * cv->ne * sizeof *s);
        if (!s)
            return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for a cavity");
        *slot = s;
        *cap_slot = 2 * cv->ne;
    }
    uint32_t pi = w->np++;
    w->xy[2 * (size_t)pi] = p[0];
    w->xy[2 * (size_t)pi + 1] = p[1];
    for (size_t k = 0; k < cv->ne; k++)
        (*slot)[k] = k < cv->n ? cv->tri[k] : w->nt + (uint32_t)(k - cv->n);
    w->nt += (uint32_t)(cv->ne - cv->n);
    for (size_t k = 0; k < cv->ne; k++) {
        uint32_t s = (*slot)[k], a = cv->ea[k], b = cv->eb[k], out = cv->eout[k];
        uint32_t *c = w->tv + 3 * (size_t)s, *n = w->tn + 3 * (size_t)s;
        c[0] = a;
        c[1] = b;
        c[2] = pi;
        n[0] = fan_neighbour(cv, *slot, b, true);
        n[1] = fan_neighbour(cv, *slot, a, false);
        n[2] = out;
        if (out != NONE) {
            const uint32_t *oc = w->tv + 3 * (size_t)out;
            int j = oc[0] != a && oc[0] != b ? 0 : oc[1] != a && oc[1] != b ? 1 : 2;
            w->tn[3 * (size_t)out + j] = s;
        }
    }
    return CLIRR_OK;
}

/* ---- the serial loop --------------------------------------------------------- */

typedef struct fifo {
    uint32_t *v;
    size_t head, tail, cap;
} fifo;

static bool push(fifo *q, uint32_t t)
{
    if (q->tail == q->cap) {
        if (q->head > q->cap / 2) {
            memmove(q->v, q->v + q->head, (q->tail - q->head) * sizeof *q->v);
            q->tail -= q->head;
            q->head = 0;
        } else {
            size_t cap = q->cap ? 2 * q->cap : 1024;
            uint32_t *v = realloc(q->v, cap * sizeof *v);
            if (!v)
                return false;
            q->v = v;
            q->cap = cap;
        }
    }
    q->v[q->tail++] = t;
    return true;
}

int clirr_ref_dmr(dmr_mesh *w, double min_angle_deg, dmr_ref_stats *st, clirr_error *err)
{
    memset(st, 0, sizeof *st);
    double cos_min = dmr_cos_min(min_angle_deg);
    uint64_t limit = dmr_triangle_limit(w->nt);
    cavity cv;
    memset(&cv, 0, sizeof cv);
    fifo q = {0};
    uint32_t *slot = NULL;
    size_t cap_slot = 0;
    int rc = CLIRR_OK;
    bool unfixable;
    for (uint32_t t = 0; t < w->nt; t++)
        if (dmr_is_bad(w, t, cos_min, &unfixable)) {
            st->bad_before++;
            if (!unfixable && !push(&q, t))
                goto nomem;
        }
    while (q.head < q.tail) {
        uint32_t t = q.v[q.head++];
        if (!dmr_is_bad(w, t, cos_min, &unfixable) || unfixable)
            continue;
        if (w->nt > limit) {
            rc = clirr_fail(err, CLIRR_ERR_INPUT, "the refinement passed %llu triangles (its limit: 64 times the "
                            "input's, at most 2^31) without ending: an input angle the rule cannot reach?",
                            (unsigned long long)limit);
            goto done;
        }
        if (cv.cap_mark < w->cap_t) {
            uint32_t *m = realloc(cv.mark, w->cap_t * sizeof *m);
            if (!m)
                goto nomem;
            memset(m + cv.cap_mark, 0, (w->cap_t - cv.cap_mark) * sizeof *m);
            cv.mark = m;
            cv.cap_mark = w->cap_t;
        }
        const uint32_t *c = w->tv + 3 * (size_t)t;
        double p[2];
        dmr_circumcentre(pt(w, c[0]), pt(w, c[1]), pt(w, c[2]), p);
        uint32_t x, et = 0;
        int ei = -1, g = locate(w, t, p, &x, &ei);
        if (g == GROW_OK)
            g = grow(w, &cv, p, x, -1, true, &et, &ei);
        else if (g == GROW_ENCROACHED)
            et = x;
        if (g == GROW_ENCROACHED) {
            const uint32_t *ec = w->tv + 3 * (size_t)et;
            const double *a = pt(w, ec[(ei + 1) % 3]), *b = pt(w, ec[(ei + 2) % 3]);
            p[0] = (a[0] + b[0]) / 2;
            p[1] = (a[1] + b[1]) / 2;
            g = grow(w, &cv, p, et, ei, false, &et, &ei);
            st->splits += g == GROW_OK;
        } else {
            st->insertions += g == GROW_OK;
        }
        if (g == GROW_NOMEM)
            goto nomem;
        if (g == GROW_FAILED) {
            st->failures++;
            continue;
        }
        uint32_t first_new = w->nt;
        if ((rc = commit(w, &cv, p, &slot, &cap_slot, err)) != CLIRR_OK)
            goto done;
        for (size_t k = 0; k < cv.n; k++)
            if (dmr_is_bad(w, cv.tri[k], cos_min, &unfixable) && !unfixable && !push(&q, cv.tri[k]))
                goto nomem;
        for (uint32_t s = first_new; s < w->nt; s++)
            if (dmr_is_bad(w, s, cos_min, &unfixable) && !unfixable && !push(&q, s))
                goto nomem;
        if (cv.mark[t] != cv.stamp && !push(&q, t)) /* t outside the cavity: still bad */
            goto nomem;
    }
    for (uint32_t t = 0; t < w->nt; t++)
        if (dmr_is_bad(w, t, cos_min, &unfixable))
            st->unfixable += unfixable;
    goto done;
nomem:
    rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory refining a mesh of %u triangles", w->nt);
done:
    free(cv.tri);
    free(cv.ea);
    free(cv.eb);
    free(cv.eout);
    free(cv.mark);
    free(q.v);
    free(slot);
    return rc;
}
