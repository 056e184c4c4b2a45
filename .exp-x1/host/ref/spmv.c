/* host/ref/spmv.c - sparse matrix times dense vector over the CSR rows: the
 * SpMV oracle. Row i of the matrix is vertex i's arcs; the entry of arc
 * i->j is its real value when the graph has values, else its weight, else 1
 * (a pattern matrix is its adjacency matrix). Duplicate arcs add up, as
 * duplicate entries of a Matrix Market file do. Each row is summed in arc
 * order in double. */
#include "ref/ref.h"

int clirr_ref_spmv(const clirr_graph *g, const double *x, double *y, clirr_error *err)
{
    if (g->n && (!x || !y))
        return clirr_fail(err, CLIRR_ERR_USAGE, "SpMV: the vectors are NULL");
    if (x == y && g->n)
        return clirr_fail(err, CLIRR_ERR_USAGE, "SpMV: y must not be x (y is written while x is read)");
    const uint32_t *row = g->row, *col = g->col;
    for (uint32_t i = 0; i < g->n; i++) {
        double sum = 0;
        if (g->value)
            for (uint32_t k = row[i]; k < row[i + 1]; k++)
                sum += g->value[k] * x[col[k]];
        else if (g->weight)
            for (uint32_t k = row[i]; k < row[i + 1]; k++)
                sum += (double)g->weight[k] * x[col[k]];
        else
            for (uint32_t k = row[i]; k < row[i + 1]; k++)
                sum += x[col[k]];
        y[i] = sum;
    }
    return CLIRR_OK;
}
