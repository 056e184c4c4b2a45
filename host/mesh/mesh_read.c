/* host/mesh/mesh_read.c - reading Triangle's .node, .ele and .poly files:
 * every header and line checked where it stands (counts, dimension, ids
 * counting up from the base, indices in range, corners distinct and
 * counter-clockwise), then the structure (shared edges, unused points,
 * boundary, segments), whose problems are put back on their line by
 * reading the file again. Arrays grow with what was read, never with what
 * a header claims, and the limits are checked first. */
#include "mesh/mesh_internal.h"

#include "graph/textio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The path of PREFIX.EXT, or PREFIX.EXT.gz when only that exists; false
 * when neither does. */
static bool find_file(const char *prefix, const char *ext, char *path, size_t size)
{
    snprintf(path, size, "%s.%s", prefix, ext);
    if (access(path, F_OK) == 0)
        return true;
    snprintf(path, size, "%s.%s.gz", prefix, ext);
    if (access(path, F_OK) == 0)
        return true;
    snprintf(path, size, "%s.%s", prefix, ext);
    return false;
}

/* The next line that is neither blank nor a comment: t->ls on its first
 * field (*p), or false at the end of the file (*rc says whether that was
 * an error). */
static bool next_line(tin *t, const char **p, int *rc, clirr_error *err)
{
    for (;;) {
        if ((*rc = clirr_tin_next(t, err)) != CLIRR_OK || !t->ls)
            return false;
        *p = t->ls;
        if (!clirr_tin_blank_rest(t, p) && **p != '#')
            return true;
    }
}

/* Nothing but blanks or a '#' comment after p. */
static int line_done(tin *t, const char *p, const char *what, clirr_error *err)
{
    if (clirr_tin_blank_rest(t, &p) || *p == '#')
        return CLIRR_OK;
    return clirr_tin_expected(t, p, what, err);
}

/* A header line that must come: its first field at *p. */
static int need_line(tin *t, const char **p, const char *what, clirr_error *err)
{
    int rc;
    if (next_line(t, p, &rc, err))
        return CLIRR_OK;
    if (rc != CLIRR_OK)
        return rc;
    return clirr_tin_fail(t, t->line, err, "the file ends before %s", what);
}

/* n reals (attributes) to skip over, each checked. */
static int skip_reals(tin *t, const char **p, uint64_t n, const char *what, clirr_error *err)
{
    for (uint64_t k = 0; k < n; k++) {
        double v;
        int rc = clirr_tin_real(t, p, &v, what, err);
        if (rc != CLIRR_OK)
            return rc;
    }
    return CLIRR_OK;
}

/* An optional boundary marker (an integer) when the header has markers. */
static int skip_marker(tin *t, const char **p, uint64_t markers, clirr_error *err)
{
    int64_t v;
    if (!markers)
        return CLIRR_OK;
    return clirr_tin_i64(t, p, INT64_MIN / 2, INT64_MAX / 2, &v, "a boundary marker (an integer)", err);
}

/* The id of entry k (0-based) of n: the first sets *base (0 or 1), the
 * others count up from it. */
static int entry_id(tin *t, const char **p, uint64_t k, uint64_t *base, const char *what, clirr_error *err)
{
    uint64_t id;
    char text[96];
    if (k == 0) {
        snprintf(text, sizeof text, "the first %s's number, 0 or 1 (the base of every index)", what);
        int rc = clirr_tin_u64(t, p, 0, 1, &id, text, err);
        if (rc == CLIRR_OK)
            *base = id;
        return rc;
    }
    snprintf(text, sizeof text, "%s number %llu (numbers count up by one)", what,
             (unsigned long long)(*base + k));
    return clirr_tin_u64(t, p, *base + k, *base + k, &id, text, err);
}

/* Room for k + 1 entries of `size` bytes in *arr (capacity *cap, at most
 * `most`): doubled as the entries are read. */
static int grow_array(void **arr, uint64_t *cap, uint64_t k, uint64_t most, size_t size, const char *path,
                      clirr_error *err)
{
    if (k < *cap)
        return CLIRR_OK;
    uint64_t want = *cap ? 2 * *cap : 4096;
    if (want > most)
        want = most;
    void *bigger = realloc(*arr, (size_t)want * size);
    if (!bigger)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "%s: out of memory for %llu entries", path, (unsigned long long)want);
    *arr = bigger;
    *cap = want;
    return CLIRR_OK;
}

/* A point index in [base, base + n). */
static int point_index(tin *t, const char **p, uint64_t base, uint32_t n, uint32_t *v, const char *what,
                       clirr_error *err)
{
    char text[128];
    snprintf(text, sizeof text, "%s, a point number from %llu to %llu", what, (unsigned long long)base,
             (unsigned long long)(base + n - 1));
    uint64_t x;
    int rc = clirr_tin_u64(t, p, base, base + n - 1, &x, text, err);
    *v = (uint32_t)(x - base);
    return rc;
}

/* After the last entry: only blanks and comments. */
static int no_more(tin *t, uint64_t declared, const char *what, clirr_error *err)
{
    const char *p;
    int rc;
    if (next_line(t, &p, &rc, err))
        return clirr_tin_fail(t, t->line, err, "more %s than the %llu the header declares", what,
                              (unsigned long long)declared);
    return rc;
}

static int read_node(const char *path, clirr_mesh *m, uint64_t *base, clirr_error *err)
{
    tin t;
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    const char *p;
    uint64_t n, dim, attrs, markers;
    if ((rc = need_line(&t, &p, "the header 'POINTS 2 ATTRIBUTES MARKERS'", err)) != CLIRR_OK ||
        (rc = clirr_tin_u64(&t, &p, 3, CLIRR_MESH_MAX_POINTS, &n, "the number of points (3 or more)", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, UINT32_MAX, &dim, "the dimension, 2", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, 1000, &attrs, "the number of attributes per point (0 to 1000)", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, 1, &markers, "the number of boundary markers, 0 or 1", err)) ||
        (rc = line_done(&t, p, "end of line after 'POINTS 2 ATTRIBUTES MARKERS'", err)))
        goto done;
    if (dim != 2) {
        rc = clirr_tin_fail(&t, t.line, err, "the points have dimension %llu; clirr's meshes are plane (2)",
                            (unsigned long long)dim);
        goto done;
    }
    if ((rc = clirr_mesh_fits(n, 0, path, err)) != CLIRR_OK)
        goto done;
    uint64_t cap = 0;
    for (uint64_t k = 0; k < n; k++) {
        if (!next_line(&t, &p, &rc, err)) {
            if (rc == CLIRR_OK)
                rc = clirr_tin_fail(&t, t.line, err, "the header declares %llu points, the file holds %llu",
                                    (unsigned long long)n, (unsigned long long)k);
            goto done;
        }
        if ((rc = grow_array((void **)&m->xy, &cap, k, n, 2 * sizeof *m->xy, path, err)) ||
            (rc = entry_id(&t, &p, k, base, "point", err)) ||
            (rc = clirr_tin_real(&t, &p, &m->xy[2 * k], "x, a finite real", err)) ||
            (rc = clirr_tin_real(&t, &p, &m->xy[2 * k + 1], "y, a finite real", err)) ||
            (rc = skip_reals(&t, &p, attrs, "an attribute (a finite real)", err)) ||
            (rc = skip_marker(&t, &p, markers, err)) ||
            (rc = line_done(&t, p, "end of line after 'ID X Y [attributes] [marker]'", err)))
            goto done;
    }
    m->npoints = (uint32_t)n;
    rc = no_more(&t, n, "points", err);
done:
    clirr_tin_close(&t);
    return rc;
}

static int read_ele(const char *path, clirr_mesh *m, uint64_t base, clirr_error *err)
{
    tin t;
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    const char *p;
    uint64_t n, corners, attrs, tbase = base;
    if ((rc = need_line(&t, &p, "the header 'TRIANGLES 3 ATTRIBUTES'", err)) != CLIRR_OK ||
        (rc = clirr_tin_u64(&t, &p, 1, CLIRR_MESH_MAX_TRIANGLES, &n, "the number of triangles (1 or more)", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, UINT32_MAX, &corners, "the points per triangle, 3", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, 1000, &attrs, "the number of attributes per triangle (0 to 1000)", err)) ||
        (rc = line_done(&t, p, "end of line after 'TRIANGLES 3 ATTRIBUTES'", err)))
        goto done;
    if (corners != 3) {
        rc = clirr_tin_fail(&t, t.line, err, "triangles with %llu points each; clirr reads linear triangles "
                            "(3 points)", (unsigned long long)corners);
        goto done;
    }
    if ((rc = clirr_mesh_fits(m->npoints, n, path, err)) != CLIRR_OK)
        goto done;
    uint64_t cap = 0;
    static const char *const which[3] = {"the first corner", "the second corner", "the third corner"};
    for (uint64_t k = 0; k < n; k++) {
        if (!next_line(&t, &p, &rc, err)) {
            if (rc == CLIRR_OK)
                rc = clirr_tin_fail(&t, t.line, err, "the header declares %llu triangles, the file holds %llu",
                                    (unsigned long long)n, (unsigned long long)k);
            goto done;
        }
        if ((rc = grow_array((void **)&m->tri, &cap, k, n, 3 * sizeof *m->tri, path, err)))
            goto done;
        uint32_t *c = m->tri + 3 * k;
        if ((rc = entry_id(&t, &p, k, &tbase, "triangle", err)))
            goto done;
        if (k == 0 && tbase != base) {
            rc = clirr_tin_fail(&t, t.line, err, "the triangles are numbered from %llu, the points from %llu "
                                "(one base for both)", (unsigned long long)tbase, (unsigned long long)base);
            goto done;
        }
        for (int j = 0; j < 3; j++)
            if ((rc = point_index(&t, &p, base, m->npoints, &c[j], which[j], err)))
                goto done;
        if ((rc = skip_reals(&t, &p, attrs, "an attribute (a finite real)", err)) ||
            (rc = line_done(&t, p, "end of line after 'ID A B C [attributes]'", err)))
            goto done;
        if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2]) {
            rc = clirr_tin_fail(&t, t.line, err, "triangle %llu is degenerate: it names a point twice",
                                (unsigned long long)(base + k));
            goto done;
        }
        double o = clirr_mesh_orient(m->xy + 2 * (size_t)c[0], m->xy + 2 * (size_t)c[1], m->xy + 2 * (size_t)c[2]);
        if (!(o > 0)) {
            rc = clirr_tin_fail(&t, t.line, err, "triangle %llu is %s (twice its signed area is %.17g; "
                                "corners go counter-clockwise)", (unsigned long long)(base + k),
                                o == 0 ? "degenerate" : "clockwise", o);
            goto done;
        }
    }
    m->ntri = (uint32_t)n;
    rc = no_more(&t, n, "triangles", err);
done:
    clirr_tin_close(&t);
    return rc;
}

/* The .poly's holes and regions: counted lines of reals, then nothing. */
static int read_poly_tail(tin *t, clirr_error *err)
{
    const char *p;
    uint64_t holes, regions;
    int rc;
    if ((rc = need_line(t, &p, "the number of holes", err)) ||
        (rc = clirr_tin_u64(t, &p, 0, UINT32_MAX, &holes, "the number of holes", err)) ||
        (rc = line_done(t, p, "end of line after the number of holes", err)))
        return rc;
    for (uint64_t k = 0; k < holes; k++) {
        uint64_t hbase = 0;
        double xy[2];
        if ((rc = need_line(t, &p, "every hole the header declares", err)) ||
            (rc = entry_id(t, &p, k, &hbase, "hole", err)) ||
            (rc = clirr_tin_real(t, &p, &xy[0], "the hole's x, a finite real", err)) ||
            (rc = clirr_tin_real(t, &p, &xy[1], "the hole's y, a finite real", err)) ||
            (rc = line_done(t, p, "end of line after 'ID X Y'", err)))
            return rc;
    }
    if (!next_line(t, &p, &rc, err))
        return rc;
    if ((rc = clirr_tin_u64(t, &p, 0, UINT32_MAX, &regions, "the number of regional attributes", err)) ||
        (rc = line_done(t, p, "end of line after the number of regions", err)))
        return rc;
    for (uint64_t k = 0; k < regions; k++) {
        uint64_t rbase = 0;
        if ((rc = need_line(t, &p, "every region the header declares", err)) ||
            (rc = entry_id(t, &p, k, &rbase, "region", err)) ||
            (rc = skip_reals(t, &p, 3, "a region's 'X Y ATTRIBUTE', finite reals", err)))
            return rc;
        if (!clirr_tin_blank_rest(t, &p) && *p != '#' && (rc = skip_reals(t, &p, 1, "a maximum area", err)))
            return rc;
        if ((rc = line_done(t, p, "end of line after 'ID X Y ATTRIBUTE [MAXAREA]'", err)))
            return rc;
    }
    return no_more(t, regions, "regions", err);
}

static int read_poly(const char *path, clirr_mesh *m, uint64_t base, clirr_error *err)
{
    tin t;
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    const char *p;
    uint64_t np, dim, attrs, markers, ns, smarkers;
    if ((rc = need_line(&t, &p, "the header '0 2 0 MARKERS'", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, UINT32_MAX, &np, "the number of points, 0 (they are the .node's)", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, UINT32_MAX, &dim, "the dimension, 2", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, 1000, &attrs, "the number of attributes per point", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, 1, &markers, "the number of boundary markers, 0 or 1", err)) ||
        (rc = line_done(&t, p, "end of line after 'POINTS 2 ATTRIBUTES MARKERS'", err)))
        goto done;
    if (np != 0 || dim != 2) {
        rc = clirr_tin_fail(&t, t.line, err, np ? "the .poly lists %llu points; clirr reads a .poly whose points "
                            "are the .node's (header '0 2 0 0')" : "dimension %llu; clirr's meshes are plane (2)",
                            (unsigned long long)(np ? np : dim));
        goto done;
    }
    if ((rc = need_line(&t, &p, "the line 'SEGMENTS MARKERS'", err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, 3 * (uint64_t)m->ntri, &ns, "the number of segments (at most 3 per triangle)",
                            err)) ||
        (rc = clirr_tin_u64(&t, &p, 0, 1, &smarkers, "the number of segment markers, 0 or 1", err)) ||
        (rc = line_done(&t, p, "end of line after 'SEGMENTS MARKERS'", err)))
        goto done;
    uint64_t sbase = base, cap = 0;
    for (uint64_t k = 0; k < ns; k++) {
        if ((rc = grow_array((void **)&m->seg, &cap, k, ns, 2 * sizeof *m->seg, path, err)))
            goto done;
        uint32_t *s = m->seg + 2 * k;
        if ((rc = need_line(&t, &p, "every segment the header declares", err)) ||
            (rc = entry_id(&t, &p, k, &sbase, "segment", err)) ||
            (rc = point_index(&t, &p, base, m->npoints, &s[0], "the segment's first end", err)) ||
            (rc = point_index(&t, &p, base, m->npoints, &s[1], "the segment's second end", err)) ||
            (rc = skip_marker(&t, &p, smarkers, err)) ||
            (rc = line_done(&t, p, "end of line after 'ID A B [marker]'", err)))
            goto done;
        if (s[0] == s[1]) {
            rc = clirr_tin_fail(&t, t.line, err, "segment %llu joins point %llu to itself",
                                (unsigned long long)(sbase + k), (unsigned long long)(base + s[0]));
            goto done;
        }
        m->nseg++;
    }
    rc = read_poly_tail(&t, err);
done:
    clirr_tin_close(&t);
    return rc;
}

/* A structure problem, put on the line of the file it belongs to. */
static int structure_failure(const mesh_problem *prob, const char *node, const char *ele, const char *poly,
                             uint64_t base, clirr_error *err)
{
    char text[512];
    mesh_problem pr = *prob;
    const char *file = ele;
    uint64_t entry = 0;
    switch (pr.kind) {
    case MESH_POINT_UNUSED:
    case MESH_PINCHED: file = node; entry = pr.p + 1; break;
    case MESH_EDGE_TWICE: entry = pr.b + 1; break;
    case MESH_SEG_NOT_BOUNDARY:
    case MESH_SEG_TWICE: file = poly; entry = pr.a + 2; break;
    default: entry = pr.a + 1; break;
    }
    /* Numbers as the files write them. */
    pr.a += (uint32_t)base;
    pr.b += (uint32_t)base;
    pr.p += (uint32_t)base;
    pr.q += (uint32_t)base;
    clirr_mesh_problem_text(&pr, text, sizeof text);
    uint64_t line = clirr_tin_entry_line(file, entry);
    if (line)
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s:%llu: %s", file, (unsigned long long)line, text);
    return clirr_fail(err, CLIRR_ERR_INPUT, "%s: %s", file, text);
}

int clirr_mesh_read(const char *path, clirr_mesh *m, clirr_error *err)
{
    memset(m, 0, sizeof *m);
    char prefix[4096], node[4200], ele[4200], poly[4200];
    bool gz;
    clirr_mesh_prefix(path, prefix, sizeof prefix, &gz);
    if (!find_file(prefix, "node", node, sizeof node))
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s: no such file (nor %s.gz): a mesh is PREFIX.node, "
                          "PREFIX.ele and optionally PREFIX.poly", node, node);
    if (!find_file(prefix, "ele", ele, sizeof ele))
        return clirr_fail(err, CLIRR_ERR_INPUT, "%s: no such file (nor %s.gz): a mesh's triangles are in "
                          "PREFIX.ele beside PREFIX.node", ele, ele);
    bool have_poly = find_file(prefix, "poly", poly, sizeof poly);
    uint64_t base = 0;
    int rc = read_node(node, m, &base, err);
    if (rc == CLIRR_OK)
        rc = read_ele(ele, m, base, err);
    if (rc == CLIRR_OK && have_poly)
        rc = read_poly(poly, m, base, err);
    mesh_problem prob;
    if (rc == CLIRR_OK) {
        rc = clirr_mesh_structure(m, true, NULL, &prob, err);
        if (rc == CLIRR_ERR_INPUT && prob.kind != MESH_FINE)
            rc = structure_failure(&prob, node, ele, poly, base, err);
    }
    if (rc != CLIRR_OK)
        clirr_mesh_free(m);
    return rc;
}
