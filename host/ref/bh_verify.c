/* host/ref/bh_verify.c - what Barnes-Hut's results are checked against:
 * the direct O(n^2) sum, the tree's invariants, and the verifier with its
 * stated tolerances. */
#include "ref/bh.h"
#include "ref/ref.h"

#include "cl/bh.def"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clirr_bh_direct(const clirr_bodies *b, const double p[3], uint32_t self, double eps, double a[3],
                     double *gross, double *stiff)
{
    double eps2 = eps * eps, g = 0, st = 0;
    a[0] = a[1] = a[2] = 0;
    for (uint32_t j = 0; j < b->n; j++) {
        if (j == self)
            continue;
        const double *q = b->v + (size_t)j * CLIRR_BODY_REALS;
        double dx = q[CLIRR_BODY_X] - p[0], dy = q[CLIRR_BODY_Y] - p[1], dz = q[CLIRR_BODY_Z] - p[2];
        double d2 = dx * dx + dy * dy + dz * dz + eps2;
        double s = q[CLIRR_BODY_M] / (d2 * sqrt(d2));
        a[0] += dx * s, a[1] += dy * s, a[2] += dz * s;
        g += s * sqrt(dx * dx + dy * dy + dz * dz);
        st += q[CLIRR_BODY_M] / (d2 * sqrt(d2));
    }
    if (gross)
        *gross = g;
    if (stiff)
        *stiff = st;
}

bool clirr_bh_tree_check(const clirr_bh_tree_view *t, double rel, char *msg, size_t size)
{
    uint32_t n = t->n;
    uint32_t *seen = calloc(n, sizeof *seen), *stack = malloc((size_t)t->ncells * sizeof *stack);
    uint8_t *visited = calloc(t->ncells ? t->ncells : 1, 1);
    bool ok = false;
    if (!seen || !stack || !visited) {
        snprintf(msg, size, "out of memory checking the tree");
        goto done;
    }
    uint32_t sp = 0;
    stack[sp++] = 0;
    visited[0] = 1;
    while (sp) {
        uint32_t c = stack[--sp], count = 0;
        double mass = 0;
        for (uint32_t k = 0; k < 8; k++) {
            uint32_t v = t->child[8 * (size_t)c + k];
            if (v == BH_EMPTY)
                continue;
            if (v < n) {
                uint32_t len = 0;
                for (uint32_t b = v; b != BH_EMPTY; b = t->next[b]) {
                    if (b >= n || ++len > n) {
                        snprintf(msg, size, "cell %u octant %u: a chain of bodies that leaves the range or "
                                 "loops", c, k);
                        goto done;
                    }
                    seen[b]++;
                    mass += t->body_mass[b];
                    count++;
                }
                continue;
            }
            uint32_t cc = v - n;
            if (cc >= t->ncells || visited[cc] || t->pslot[cc] != 8 * c + k) {
                snprintf(msg, size, "cell %u octant %u names cell %u, which is out of range, reached twice or "
                         "does not name this slot as its parent", c, k, cc);
                goto done;
            }
            visited[cc] = 1;
            stack[sp++] = cc;
            mass += t->cell_mass[cc];
            count += t->ccount[cc];
        }
        if (t->ccount[c] != count || fabs(t->cell_mass[c] - mass) > rel * fmax(fabs(mass), 1e-300)) {
            snprintf(msg, size, "cell %u: mass %.9g and %u bodies, its children hold %.9g and %u", c,
                     t->cell_mass[c], t->ccount[c], mass, count);
            goto done;
        }
    }
    for (uint32_t b = 0; b < n; b++)
        if (seen[b] != 1) {
            snprintf(msg, size, "body %u lies in %u leaves (one expected)", b, seen[b]);
            goto done;
        }
    ok = true;
done:
    free(seen), free(stack), free(visited);
    return ok;
}

/* Barnes-Hut's monopole error, measured with the serial walk against the
 * direct sum, relative to each body's gross pairwise sum (float and double
 * agree to 3 digits): at theta 0.5 the 99th percentile is 0.40% and 0.23%
 * on Plummer spheres of 1000 and 20000 bodies (largest 0.53%, 0.35%),
 * 1.6% (largest 1.9%) on 500 bodies on a line; it grows about as theta^2
 * (0.12% at 0.3, 2.7% at 1.0 on 1000 bodies). A group walk opens more
 * cells than the serial one and errs less. The bounds: 3% at the 99th
 * percentile and 6% for the worst body up to theta 0.5, times
 * (theta / 0.5)^2 beyond; float adds its rounding of the sums (1e-4). */
void clirr_bh_tolerance_for(const clirr_bh_config *c, clirr_bh_tolerance *t)
{
    double q = c->theta / 0.5, s = q > 1 ? q * q : 1.0;
    double fl = c->dbl ? 0 : 1e-4;
    t->p99 = 0.03 * s + fl;
    t->max = 0.06 * s + 10 * fl;
    t->state = 1.0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* 99th percentile and largest of e[0..k) (sorted in place). */
static void quantiles(double *e, uint32_t k, double *p99, double *max)
{
    *p99 = *max = 0;
    if (!k)
        return;
    qsort(e, k, sizeof *e, cmp_double);
    *p99 = e[(uint32_t)floor(0.99 * (k - 1))];
    *max = e[k - 1];
}

static double norm3(double x, double y, double z) { return sqrt(x * x + y * y + z * z); }

bool clirr_verify_bh(const clirr_bodies *b, const clirr_bh_config *c, const double *expected,
                     const double *got, clirr_bh_errors *e, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    clirr_bh_errors local;
    if (!e)
        e = &local;
    memset(e, 0, sizeof *e);
    clirr_bh_tolerance tol;
    clirr_bh_tolerance_for(c, &tol);
    uint32_t n = b->n, violations = 0;
    for (uint64_t i = 0; i < (uint64_t)n * BH_OUT_REALS; i++)
        if (!isfinite(got[i])) {
            clirr_verify_note(r, "body %llu: value %llu is not finite. ", (unsigned long long)(i / BH_OUT_REALS),
                              (unsigned long long)(i % BH_OUT_REALS));
            return clirr_verify_done(r, 1);
        }
    uint32_t S = n <= 2048 ? n : 2048;
    double *err_d = malloc((size_t)S * sizeof *err_d), *err_s = malloc((size_t)S * sizeof *err_s);
    clirr_bodies start = {n, malloc((size_t)n * CLIRR_BODY_REALS * sizeof(double))};
    if (!err_d || !err_s || !start.v) {
        clirr_verify_note(r, "out of memory verifying. ");
        free(err_d), free(err_s), free(start.v);
        return clirr_verify_done(r, 1);
    }
    /* Where the last step started, rebuilt from the result. */
    double dt = c->dt, T = c->steps;
    for (uint32_t i = 0; i < n; i++) {
        const double *g = got + (size_t)i * BH_OUT_REALS;
        double *s = start.v + (size_t)i * CLIRR_BODY_REALS;
        s[CLIRR_BODY_M] = b->v[(size_t)i * CLIRR_BODY_REALS + CLIRR_BODY_M];
        for (int k = 0; k < 3; k++)
            s[CLIRR_BODY_X + k] = g[BH_OUT_X + k] - dt * (g[BH_OUT_VX + k] - g[BH_OUT_AX + k] * dt * 0.5);
    }
    /* On the sample: errors relative to the gross pairwise sum (where
     * forces cancel, Barnes-Hut errs by a share of the parts, not of the
     * small net); positions and velocities within what the acceleration
     * bound allows over the steps (T^2 dt^2 and T dt times tol.max of the
     * gross sum) plus rounding. */
    double ulp = c->dbl ? 0x1p-52 : 0x1p-23, gross_mass = 0, mass_s = 0;
    uint32_t worst = 0;
    for (uint32_t k = 0; k < S; k++) {
        uint32_t i = (uint32_t)((uint64_t)k * n / S);
        const double *g = got + (size_t)i * BH_OUT_REALS, *x = expected + (size_t)i * BH_OUT_REALS;
        double dir[3], gross, stiff;
        clirr_bh_direct(&start, start.v + (size_t)i * CLIRR_BODY_REALS + CLIRR_BODY_X, i, c->eps, dir, &gross,
                        &stiff);
        double scale = gross > 0 ? gross : 1e-300;
        double dx = norm3(g[BH_OUT_X] - x[BH_OUT_X], g[BH_OUT_Y] - x[BH_OUT_Y], g[BH_OUT_Z] - x[BH_OUT_Z]);
        double dv = norm3(g[BH_OUT_VX] - x[BH_OUT_VX], g[BH_OUT_VY] - x[BH_OUT_VY], g[BH_OUT_VZ] - x[BH_OUT_VZ]);
        double xs = norm3(x[BH_OUT_X], x[BH_OUT_Y], x[BH_OUT_Z]), vs = norm3(x[BH_OUT_VX], x[BH_OUT_VY], x[BH_OUT_VZ]);
        /* Rounding moves the rebuilt start (and the two runs' positions
         * apart): the acceleration may move by 3 stiff per unit of it. */
        double as = norm3(g[BH_OUT_AX], g[BH_OUT_AY], g[BH_OUT_AZ]);
        double slack = 3 * stiff * 4 * ulp * (xs + dt * vs + dt * dt * as), slack_s = slack + 3 * stiff * dx;
        err_d[k] = fmax(0, norm3(g[BH_OUT_AX] - dir[0], g[BH_OUT_AY] - dir[1], g[BH_OUT_AZ] - dir[2]) - slack) / scale;
        err_s[k] = fmax(0, norm3(g[BH_OUT_AX] - x[BH_OUT_AX], g[BH_OUT_AY] - x[BH_OUT_AY],
                                 g[BH_OUT_AZ] - x[BH_OUT_AZ]) - slack_s) / scale;
        if (err_d[k] > err_d[worst])
            worst = k;
        double ok_x = T * T * dt * dt * tol.max * gross + 16 * T * ulp * (xs + vs * T * dt) + 1e-300;
        double ok_v = T * dt * tol.max * gross + 16 * T * ulp * (vs + gross * T * dt) + 1e-300;
        double q = fmax(dx / ok_x, dv / ok_v);
        if (q > tol.state && r->mismatches++ < 3)
            clirr_verify_note(r, "(body %u: position off the serial Barnes-Hut's by %.3g, velocity by %.3g; "
                              "bounds %.3g, %.3g) ", i, dx, dv, ok_x, ok_v);
        e->state_max = fmax(e->state_max, q);
        double m = b->v[(size_t)i * CLIRR_BODY_REALS + CLIRR_BODY_M];
        gross_mass += m * gross;
        mass_s += m;
    }
    e->sampled = S;
    if (S && err_d[worst] > tol.max)
        clirr_verify_note(r, "body %u: acceleration off the direct sum by %.3g of its gross sum (bound %.3g). ",
                          (uint32_t)((uint64_t)worst * n / S), err_d[worst], tol.max);
    quantiles(err_d, S, &e->direct_p99, &e->direct_max);
    quantiles(err_s, S, &e->serial_p99, &e->serial_max);
    if (e->direct_p99 > tol.p99 || e->direct_max > tol.max) {
        violations++;
        clirr_verify_note(r, "accelerations against the direct sum: 99th percentile %.3g (bound %.3g), largest "
                          "%.3g (bound %.3g). ", e->direct_p99, tol.p99, e->direct_max, tol.max);
    }
    if (e->serial_p99 > tol.p99 || e->serial_max > tol.max) {
        violations++;
        clirr_verify_note(r, "accelerations against the serial Barnes-Hut: 99th percentile %.3g (bound %.3g), "
                          "largest %.3g (bound %.3g). ", e->serial_p99, tol.p99, e->serial_max, tol.max);
    }
    /* Momentum: Barnes-Hut's forces are not exactly antisymmetric, so the
     * total changes by at most the acceleration error over the steps (the
     * gross sums' mass-weighted mean from the sample). */
    double pe[3] = {0}, pg[3] = {0}, pv = 0, mass = 0;
    for (uint32_t i = 0; i < n; i++) {
        const double *g = got + (size_t)i * BH_OUT_REALS, *in = b->v + (size_t)i * CLIRR_BODY_REALS;
        double m = in[CLIRR_BODY_M];
        for (int k = 0; k < 3; k++) {
            pe[k] += m * in[CLIRR_BODY_VX + k];
            pg[k] += m * g[BH_OUT_VX + k];
        }
        pv += m * norm3(g[BH_OUT_VX], g[BH_OUT_VY], g[BH_OUT_VZ]);
        mass += m;
    }
    double dp = norm3(pg[0] - pe[0], pg[1] - pe[1], pg[2] - pe[2]);
    double ok_p = T * dt * tol.p99 * (mass_s > 0 ? gross_mass / mass_s * mass : 0) + 16 * T * ulp * pv + 1e-300;
    if (dp > ok_p) {
        violations++;
        clirr_verify_note(r, "momentum changed by %.3g over %u steps (bound %.3g). ", dp, c->steps, ok_p);
    }
    free(err_d), free(err_s), free(start.v);
    return clirr_verify_done(r, violations + (r->mismatches > 0));
}
