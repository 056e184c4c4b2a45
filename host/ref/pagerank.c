/* host/ref/pagerank.c - PageRank by Jacobi iteration in pull form (as GAPBS
 * pr.cc, with the dangling mass spread evenly): the PageRank oracle, and the
 * verifier of device scores by the true operator.
 *
 *   T(r)(v) = (1 - d) / n + d * (sum over arcs u->v of r(u) / outdeg(u) + D / n)
 *
 * with D the sum of r(u) over vertices without out-arcs. Start at 1/n,
 * r <- T(r); stop when the L1 norm of the step is at most tol, or after
 * max_iter iterations. Out-degrees are CSR degrees, so duplicate arcs count
 * with multiplicity and a self-loop keeps part of a vertex's rank at home.
 * Scores sum to 1 (up to rounding): every vertex passes on all of its rank,
 * dangling ones evenly. T is an L1 contraction by d, which the verifier's
 * residual bound rests on.
 *
 * In-arcs come from the transpose (host/graph/transpose.c), sorted by
 * source, so each T(r)(v) is one sequential run over its in-arcs reading
 * contrib[u] = r(u) / outdeg(u), computed once per iteration. */
#include "ref/ref.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHOW 5

/* What one application of T needs: the graph, its transpose, the damping
 * and a scratch array of n contributions. */
typedef struct pr_operator {
    const clirr_graph *g;
    clirr_graph t;
    double damping;
    double *contrib;
} pr_operator;

static int operator_init(pr_operator *op, const clirr_graph *g, double damping, clirr_error *err)
{
    *op = (pr_operator){.g = g, .damping = damping};
    /* Only the structure is needed: leave weights and values behind. */
    clirr_graph shape = {.n = g->n, .m = g->m, .row = g->row, .col = g->col};
    op->contrib = malloc((size_t)g->n * sizeof *op->contrib);
    if (!op->contrib)
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for PageRank on %u vertices", g->n);
    return clirr_graph_transpose(&shape, &op->t, err);
}

static void operator_free(pr_operator *op)
{
    free(op->contrib);
    clirr_graph_free(&op->t);
}

/* next = T(r); returns |next - r|_1. */
static double apply(pr_operator *op, const double *r, double *next)
{
    const clirr_graph *g = op->g;
    uint32_t n = g->n;
    double dangling = 0;
    for (uint32_t u = 0; u < n; u++) {
        uint32_t deg = g->row[u + 1] - g->row[u];
        if (deg)
            op->contrib[u] = r[u] / deg;
        else {
            op->contrib[u] = 0;
            dangling += r[u];
        }
    }
    double d = op->damping, base = (1 - d) / n + d * dangling / n, change = 0;
    for (uint32_t v = 0; v < n; v++) {
        double sum = 0;
        for (uint32_t k = op->t.row[v]; k < op->t.row[v + 1]; k++)
            sum += op->contrib[op->t.col[k]];
        next[v] = base + d * sum;
        change += fabs(next[v] - r[v]);
    }
    return change;
}

static int check_args(double damping, double tol, clirr_error *err)
{
    if (!(damping >= 0 && damping <= 1))
        return clirr_fail(err, CLIRR_ERR_USAGE, "PageRank damping %g is not in [0, 1]", damping);
    if (!(tol >= 0) || isinf(tol))
        return clirr_fail(err, CLIRR_ERR_USAGE, "PageRank tolerance %g is not a finite number >= 0",
                          tol);
    return CLIRR_OK;
}

int clirr_ref_pagerank(const clirr_graph *g, double damping, double tol, uint32_t max_iter,
                       double *rank, uint32_t *iterations, clirr_error *err)
{
    int rc = check_args(damping, tol, err);
    if (rc)
        return rc;
    if (iterations)
        *iterations = 0;
    uint32_t n = g->n;
    if (n == 0)
        return CLIRR_OK;
    pr_operator op;
    double *next = malloc((size_t)n * sizeof *next);
    if ((rc = operator_init(&op, g, damping, err)))
        goto done;
    if (!next) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for PageRank on %u vertices", n);
        goto done;
    }
    double *r = rank;
    for (uint32_t v = 0; v < n; v++)
        r[v] = 1.0 / n;
    uint32_t it = 0;
    while (it < max_iter) {
        double change = apply(&op, r, next);
        double *swap = r;
        r = next;
        next = swap;
        it++;
        if (change <= tol) /* tol 0: an exact fixed point stops too */
            break;
    }
    /* After an odd number of swaps the latest scores are in the scratch
     * array, and next points at rank. */
    if (r != rank) {
        memcpy(rank, r, (size_t)n * sizeof *rank);
        next = r;
    }
    if (iterations)
        *iterations = it;
done:
    free(next);
    operator_free(&op);
    return rc;
}

static double l1_distance(uint32_t n, const double *a, const double *b)
{
    double s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += fabs(a[i] - b[i]);
    return s;
}

/* Where got lies among the iterates x_1, x_2, ... of T from 1/n. */
typedef struct pr_match {
    uint32_t stop;    /* where the stopping rule ends the reference's run */
    bool converged;   /* it ended by a step <= tol, not by max_iter */
    uint32_t nearest; /* the closest iterate compared (0: none) */
    double dist;      /* its L1 distance from got */
    bool matched;     /* within rounding of it */
} pr_match;

/* Compare got with the iterates the stopping rule allows: the one where it
 * stops, one earlier when that step lies within rounding of tol (a device
 * may see it on the other side), and later ones (a device that runs on
 * converges further; the residual check judges it). The walk ends at a
 * match, at max_iter, or once a step is below rounding: later iterates then
 * differ from this one by at most step * d / (1 - d), allowed on top. */
static int match_iterate(pr_operator *op, double tol, uint32_t max_iter, const double *got,
                         double slack, pr_match *m, clirr_error *err)
{
    uint32_t n = op->g->n;
    double *x = malloc((size_t)n * sizeof *x), *next = malloc((size_t)n * sizeof *next);
    *m = (pr_match){.dist = INFINITY};
    if (!x || !next) {
        free(x);
        free(next);
        return clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory verifying PageRank on %u vertices", n);
    }
    for (uint32_t v = 0; v < n; v++)
        x[v] = 1.0 / n;
    for (uint32_t k = 1; k <= max_iter && !m->matched; k++) {
        double step = apply(op, x, next), *swap = x;
        x = next;
        next = swap;
        if (!m->stop && (step <= tol || k == max_iter)) {
            m->stop = k;
            m->converged = step <= tol;
        }
        if (!m->stop && step > tol + slack)
            continue;
        double dist = l1_distance(n, x, got);
        if (dist < m->dist) {
            m->dist = dist;
            m->nearest = k;
        }
        double settle = op->damping < 1 ? step * op->damping / (1 - op->damping) : INFINITY;
        if (dist <= slack) {
            m->matched = true;
            if (!m->stop) { /* the early stop at the rounding boundary */
                m->stop = k;
                m->converged = true;
            }
        }
        else if (m->stop && step <= slack) {
            m->matched = dist <= slack + settle;
            break;
        }
    }
    free(x);
    free(next);
    return CLIRR_OK;
}

/* The L1 error a device may carry: the rounding of a double computation
 * over n scores, in any order; with contributions stored as floats, each
 * rounded to 2^-24 of itself, an iteration's new scores are off by at most
 * damping * 2^-24 in L1 (the contributions add up to at most 1), and T's
 * contraction by damping keeps the sum of those below 2^-24 * damping /
 * (1 - damping) (the ratio taken at most 1000, for a damping near 1).
 * Allowed: four times that, 2^-22 * damping / (1 - damping), twice for the
 * step the device computed from such scores and twice as margin. */
static double pagerank_slack(uint32_t n, double damping, bool float_contrib)
{
    double slack = 100.0 * n * DBL_EPSILON;
    if (float_contrib) {
        double growth = damping < 0.999 ? damping / (1 - damping) : 1000;
        slack += 2 * FLT_EPSILON * growth;
    }
    return slack;
}

bool clirr_verify_pagerank(const clirr_graph *g, double damping, double tol, uint32_t max_iter,
                           const double *got, clirr_verify_report *r)
{
    return clirr_verify_pagerank_as(g, damping, tol, max_iter, false, got, r);
}

bool clirr_verify_pagerank_as(const clirr_graph *g, double damping, double tol, uint32_t max_iter,
                              bool float_contrib, const double *got, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    uint32_t n = g->n;
    if (n == 0)
        return true;
    double slack = pagerank_slack(n, damping, float_contrib);
    uint64_t bad = 0;
    double sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!(got[i] > 0 && isfinite(got[i])) && bad++ < SHOW)
            clirr_verify_note(r, "vertex %u has score %.17g (scores are positive and finite). ", i, got[i]);
        sum += got[i];
    }
    if (!(fabs(sum - 1) <= slack) && bad++ < SHOW + 1)
        clirr_verify_note(r, "the scores sum to %.17g, not 1 (allowed %.3g). ", sum, slack);
    if (bad)
        return clirr_verify_done(r, bad);

    clirr_error err;
    pr_operator op;
    double *image = malloc((size_t)n * sizeof *image);
    pr_match m;
    int rc = operator_init(&op, g, damping, &err);
    if (!rc && !image)
        rc = clirr_fail(&err, CLIRR_ERR_NOMEM, "out of memory verifying PageRank on %u vertices", n);
    if (!rc)
        rc = match_iterate(&op, tol, max_iter, got, slack, &m, &err);
    if (rc) {
        clirr_verify_note(r, "could not verify: %s. ", err.msg);
        bad++;
        goto done;
    }
    /* The operator: the scores are an iterate of T from the uniform start,
     * up to rounding. A wrong damping, lost mass or a wrong graph fails this
     * at any tolerance. */
    if (!m.matched) {
        bad++;
        clirr_verify_note(r, "the scores are no iterate of PageRank (damping %g) from 1/n that the "
                             "stopping rule allows: the closest, iteration %" PRIu32 ", is %.3g "
                             "away in L1 (allowed %.3g); ",
                          damping, m.nearest, m.dist, slack);
        if (m.nearest) {
            /* Name the entries that differ most from that iterate. */
            double *x = malloc((size_t)n * sizeof *x), *next = malloc((size_t)n * sizeof *next);
            if (x && next) {
                for (uint32_t v = 0; v < n; v++)
                    x[v] = 1.0 / n;
                for (uint32_t k = 0; k < m.nearest; k++) {
                    apply(&op, x, next);
                    double *swap = x;
                    x = next;
                    next = swap;
                }
                double share = slack / n;
                uint64_t shown = 0;
                for (uint32_t v = 0; v < n && shown < SHOW; v++)
                    if (!(fabs(got[v] - x[v]) <= share) && shown++ < SHOW)
                        clirr_verify_note(r, "(%u: iterate %.17g, got %.17g) ", v, x[v], got[v]);
            }
            free(x);
            free(next);
        }
        goto done;
    }
    /* Convergence, by the true operator's residual: a run the stopping rule
     * ended at step <= tol has |T(x) - x|_1 <= d * tol (T contracts by d),
     * plus rounding. A run max_iter ended must be that very iterate. */
    double residual = apply(&op, got, image);
    if (!m.converged && m.nearest != max_iter) {
        bad++;
        clirr_verify_note(r, "the scores are iteration %" PRIu32 ", but the run must end at "
                             "max-iter %" PRIu32 " (no step was within tol %g). ",
                          m.nearest, max_iter, tol);
    } else if (m.converged && !(residual <= damping * tol + 2 * slack)) {
        bad++;
        clirr_verify_note(r, "not converged: the residual |T(x) - x|_1 is %.3g, above "
                             "damping * tol + rounding = %.3g (iteration %" PRIu32 "). ",
                          residual, damping * tol + 2 * slack, m.nearest);
    }
done:
    free(image);
    operator_free(&op);
    return clirr_verify_done(r, bad);
}
