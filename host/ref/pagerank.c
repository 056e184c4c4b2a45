/* host/ref/pagerank.c - PageRank by Jacobi iteration in pull form (as GAPBS
 * pr.cc, with the dangling mass spread evenly): the PageRank oracle.
 *
 *   r'(v) = (1 - d) / n + d * (sum over arcs u->v of r(u) / outdeg(u) + D / n)
 *
 * with D the sum of r(u) over vertices without out-arcs. Start at 1/n; stop
 * when the L1 norm of r' - r is below tol, or after max_iter iterations.
 * Out-degrees are CSR degrees, so duplicate arcs count with multiplicity and
 * a self-loop keeps part of a vertex's rank at home. Scores sum to 1 (up to
 * rounding): every vertex passes on all of its rank, dangling ones evenly.
 *
 * In-arcs come from the transpose (host/graph/transpose.c), sorted by
 * source, so each r'(v) is one sequential run over its in-arcs reading
 * contrib[u] = r(u) / outdeg(u), computed once per iteration. */
#include "ref/ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int clirr_ref_pagerank(const clirr_graph *g, double damping, double tol, uint32_t max_iter,
                       double *rank, uint32_t *iterations, clirr_error *err)
{
    if (!(damping >= 0 && damping <= 1))
        return clirr_fail(err, CLIRR_ERR_USAGE, "PageRank damping %g is not in [0, 1]", damping);
    if (!(tol >= 0) || isinf(tol))
        return clirr_fail(err, CLIRR_ERR_USAGE, "PageRank tolerance %g is not a finite number >= 0",
                          tol);
    if (iterations)
        *iterations = 0;
    uint32_t n = g->n;
    if (n == 0)
        return CLIRR_OK;
    /* Only the structure is needed: leave weights and values behind. */
    clirr_graph shape = {.n = g->n, .m = g->m, .row = g->row, .col = g->col};
    clirr_graph t = {0};
    double *next = malloc((size_t)n * sizeof *next);
    double *contrib = malloc((size_t)n * sizeof *contrib);
    int rc = CLIRR_OK;
    if (!next || !contrib) {
        rc = clirr_fail(err, CLIRR_ERR_NOMEM, "out of memory for PageRank on %u vertices", n);
        goto done;
    }
    if ((rc = clirr_graph_transpose(&shape, &t, err)))
        goto done;
    double *r = rank;
    for (uint32_t v = 0; v < n; v++)
        r[v] = 1.0 / n;
    uint32_t it = 0;
    while (it < max_iter) {
        double dangling = 0;
        for (uint32_t u = 0; u < n; u++) {
            uint32_t deg = g->row[u + 1] - g->row[u];
            if (deg)
                contrib[u] = r[u] / deg;
            else {
                contrib[u] = 0;
                dangling += r[u];
            }
        }
        double base = (1 - damping) / n + damping * dangling / n, change = 0;
        for (uint32_t v = 0; v < n; v++) {
            double sum = 0;
            for (uint32_t k = t.row[v]; k < t.row[v + 1]; k++)
                sum += contrib[t.col[k]];
            next[v] = base + damping * sum;
            change += fabs(next[v] - r[v]);
        }
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
    free(contrib);
    clirr_graph_free(&t);
    return rc;
}
