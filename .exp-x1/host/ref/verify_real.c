/* host/ref/verify_real.c - checking real-valued device results (BC, SpMV)
 * against the references, entrywise within a tolerance (PageRank has its own
 * verifier in host/ref/pagerank.c). Reports name the first few differences
 * as (index, expected, got) with 17 significant digits, like the integer
 * verifiers in verify.c. */
#include "ref/ref.h"

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
