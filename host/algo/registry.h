/* host/algo/registry.h - the descriptors registry.c lists; each is defined
 * in its algorithm's own file. */
#ifndef CLIRR_ALGO_REGISTRY_H
#define CLIRR_ALGO_REGISTRY_H

#include "clirr/algo.h"

extern const clirr_algo clirr_algo_bfs;
extern const clirr_algo clirr_algo_sssp;
extern const clirr_algo clirr_algo_bc;
extern const clirr_algo clirr_algo_pagerank;
extern const clirr_algo clirr_algo_spmv;
extern const clirr_algo clirr_algo_color;

#endif
