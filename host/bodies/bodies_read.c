/* host/bodies/bodies_read.c - reading .bodies files: "m x y z vx vy vz"
 * per line, every value a finite real, masses not negative. */
#include "bodies/bodies_internal.h"

#include "graph/textio.h"

#include <stdlib.h>
#include <string.h>

static const char *const field_names[CLIRR_BODY_REALS] = {
    "the mass, a finite real (field 1 of 'm x y z vx vy vz')", "x, a finite real (field 2 of 'm x y z vx vy vz')",
    "y, a finite real (field 3 of 'm x y z vx vy vz')",       "z, a finite real (field 4 of 'm x y z vx vy vz')",
    "vx, a finite real (field 5 of 'm x y z vx vy vz')",      "vy, a finite real (field 6 of 'm x y z vx vy vz')",
    "vz, a finite real (field 7 of 'm x y z vx vy vz')",
};

/* The next body line: t->ls on it, or t->ls NULL at the end of the file. */
static int next_body(tin *t, clirr_error *err)
{
    for (;;) {
        int rc = clirr_tin_next(t, err);
        if (rc != CLIRR_OK || !t->ls)
            return rc;
        const char *p = t->ls;
        if (!clirr_tin_blank_rest(t, &p) && *p != '#')
            return CLIRR_OK;
    }
}

/* One line's 7 reals into v. */
static int parse_body(tin *t, double *v, clirr_error *err)
{
    const char *p = t->ls;
    for (int k = 0; k < CLIRR_BODY_REALS; k++) {
        if (clirr_tin_blank_rest(t, &p))
            return clirr_tin_fail(t, t->line, err, "missing %s: a body line has 7 reals 'm x y z vx vy vz', "
                                  "this one has %d", field_names[k], k);
        int rc = clirr_tin_real(t, &p, &v[k], field_names[k], err);
        if (rc != CLIRR_OK)
            return rc;
    }
    if (v[CLIRR_BODY_M] < 0)
        return clirr_tin_fail(t, t->line, err, "negative mass %.17g (masses are 0 or more)", v[CLIRR_BODY_M]);
    return clirr_tin_end(t, p, "end of line after the 7 reals 'm x y z vx vy vz'", err);
}

int clirr_bodies_read(const char *path, clirr_bodies *b, clirr_error *err)
{
    memset(b, 0, sizeof *b);
    tin t;
    int rc = clirr_tin_open(&t, path, err);
    if (rc != CLIRR_OK)
        return rc;
    double *v = NULL, mass = 0;
    uint64_t n = 0, cap = 0;
    for (;;) {
        if ((rc = next_body(&t, err)) != CLIRR_OK)
            goto fail;
        if (!t.ls)
            break;
        if (n == cap) {
            /* The capacity follows what was read, and the limits are
             * checked before it grows. */
            if ((rc = clirr_bodies_fits(n + 1, path, err)) != CLIRR_OK) {
                clirr_fail_context(err, "%s:%llu", path, (unsigned long long)t.line);
                goto fail;
            }
            uint64_t grow = cap ? cap * 2 : 1 << 12, most = clirr_bodies_max_fit();
            if (grow > most)
                grow = most;
            double *bigger = realloc(v, (size_t)grow * CLIRR_BODY_REALS * sizeof *v);
            if (!bigger) {
                rc = clirr_fail(err, CLIRR_ERR_NOMEM, "%s:%llu: out of memory for %llu bodies", path,
                                (unsigned long long)t.line, (unsigned long long)grow);
                goto fail;
            }
            v = bigger;
            cap = grow;
        }
        if ((rc = parse_body(&t, v + n * CLIRR_BODY_REALS, err)) != CLIRR_OK)
            goto fail;
        mass += v[n * CLIRR_BODY_REALS + CLIRR_BODY_M];
        n++;
    }
    clirr_tin_close(&t);
    if (n == 0 || !(mass > 0)) {
        free(v);
        return clirr_fail(err, CLIRR_ERR_INPUT, n == 0 ? "%s: no bodies in the file (a line 'm x y z vx vy vz' "
                          "per body)" : "%s: the total mass is zero (at least one body needs a positive "
                          "mass)", path);
    }
    b->n = (uint32_t)n;
    b->v = v;
    return CLIRR_OK;
fail:
    clirr_tin_close(&t);
    free(v);
    return rc;
}
