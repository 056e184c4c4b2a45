/* cl/spmv.cl - sparse matrix-vector product y = A x over a CSR matrix
 * (nested-loop study, shared/papers/001): one row a nested-loop item, its
 * entries the inner loop, summed through the templates of
 * cl/templates/nested_loop.clh. With -DSPMV_UNIT every entry is 1 and
 * `val` is not read. Needs double precision (the plan checks).
 * Parameter list: cl/spmv.def. */
#include "common/compat.clh"
#include "common/kargs.h"
#include "spmv.def"

#ifdef SPMV_UNIT
#define ENTRY(e) 1.0
#else
#define ENTRY(e) (*IRR_GLD(1, &val[e]))
#endif

#define NL_NAME spmv_rows
#define NL_PARAMS CLIRR_KPARAMS(SPMV_ROWS_ARGS)
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(i) (*IRR_GLD(2, &row[(i) + 1]) - *IRR_GLD(3, &row[i]))
#define NL_REDUCE_T double
#define NL_TERM(i, j) (ENTRY(row[i] + (j)) * *IRR_GLD(5, &x[*IRR_GLD(4, &col[row[i] + (j)])]))
#define NL_FINISH(i, acc) *IRR_GST(6, &y[i]) = (acc)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"
