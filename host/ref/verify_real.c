/* host/ref/verify_real.c - checking real-valued device results (BC, SpMV,
 * PageRank) against the references: entrywise within a tolerance, and for
 * PageRank the properties scores must have plus a distance bound derived
 * from the convergence tolerance (see ref.h for why that bound). Reports
 * name the first few differences as (index, expected, got) with 17
 * significant digits, like the integer verifiers in verify.c. */
#include "ref/ref.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SHOW 5


static void mismatch(clirr_verify_report *r, const char *what, uint32_t i, double expected,
                     double got)
{
    if (r->mismatches++ == 0)
        clirr_verify_note(r, "%s differ from the reference at", what);
    if (r->mismatches <= SHOW)
        clirr_verify_note(r, " (%u, expected %.17g, got %.17g)", i, expected, got);
}

bool clirr_verify_real(const char *what, uint32_t n, const double *expected, const double *got,
                       double rel_tol, double abs_tol, clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    for (uint32_t i = 0; i < n; i++) {
        double e = expected[i], x = got[i];
        /* Equal infinities pass, other ones and NaN fail (an infinite
         * expected value would make the relative bound infinite). */
        if (x == e || (isfinite(e) && fabs(x - e) <= abs_tol + rel_tol * fabs(e)))
            continue;
        mismatch(r, what, i, e, x);
    }
    if (r->mismatches)
        clirr_verify_note(r, "; %" PRIu64 " of %u wrong (allowed |got - expected| <= %g + %g * |expected|).",
             r->mismatches, n, abs_tol, rel_tol);
    return r->mismatches == 0;
}

bool clirr_verify_pagerank(uint32_t n, const double *expected, const double *got, double tol,
                           clirr_verify_report *r)
{
    memset(r, 0, sizeof *r);
    if (n == 0)
        return true;
    /* Rounding of a double computation over n scores, as in the sum check. */
    double slack = 100.0 * n * DBL_EPSILON;
    double bound = tol / 2 + slack;
    uint64_t bad = 0;
    double sum = 0, l1 = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!(got[i] > 0 && isfinite(got[i])) && bad++ < SHOW)
            clirr_verify_note(r, "vertex %u has score %.17g (scores are positive and finite). ", i, got[i]);
        sum += got[i];
        l1 += fabs(got[i] - expected[i]);
    }
    if (!(fabs(sum - 1) <= slack + tol) && bad++ < SHOW + 1)
        clirr_verify_note(r, "the scores sum to %.17g, not 1 (allowed %.3g). ", sum, slack + tol);
    if (!(l1 <= bound)) {
        /* The L1 distance is too large: name the entries that carry more
         * than half an even share of the allowed distance (one does at
         * least, or the sum could not exceed the bound even with rounding). */
        double share = bound / (2.0 * n);
        for (uint32_t i = 0; i < n; i++)
            if (!(fabs(got[i] - expected[i]) <= share))
                mismatch(r, "scores", i, expected[i], got[i]);
        clirr_verify_note(r, "; L1 distance %.17g exceeds the bound %.3g (tol / 2 + 100 n eps); "
                "%" PRIu64 " of %u scores differ by more than %.3g. ", l1, bound, r->mismatches, n,
             share);
    }
    return clirr_verify_done(r, bad);
}
