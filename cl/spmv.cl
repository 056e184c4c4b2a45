/* cl/spmv.cl - sparse matrix-vector product y = A x over a CSR matrix
 * (nested-loop study, shared/papers/001): one row a nested-loop item, its
 * entries the inner loop, summed through the templates of
 * cl/templates/nested_loop.clh. With -DSPMV_UNIT every entry is 1 and
 * `val` is not read. Needs double precision (the host checks). */
#include "common/compat.clh"

#ifdef SPMV_UNIT
#define ENTRY(e) 1.0
#else
#define ENTRY(e) val[e]
#endif

#define NL_NAME spmv_rows
#define NL_PARAMS                                                              \
    __global const uint *row, __global const uint *col, __global const double *val, \
        __global const double *x, __global double *y, const uint n
#define NL_NITEMS n
#define NL_ITEM(k) (k)
#define NL_COUNT(i) (row[(i) + 1] - row[i])
#define NL_REDUCE_T double
#define NL_TERM(i, j) (ENTRY(row[i] + (j)) * x[col[row[i] + (j)]])
#define NL_FINISH(i, acc) y[i] = (acc)
#include "templates/nested_loop.clh"
#include "templates/nested_loop_end.clh"
