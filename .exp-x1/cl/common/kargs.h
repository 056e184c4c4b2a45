/* cl/common/kargs.h - the kernel argument contract, read by both the
 * kernels (OpenCL C) and the host (C).
 *
 * Each kernel's parameter list is written once, as an X-macro list in a
 * .def file beside its .cl:
 *
 *     #define BFS_TOPO_ARGS(X, S)                                            \
 *         X(__global const uint *, row) S() X(__global const uint *, col)    \
 *         S() X(const uint, depth)
 *
 * X(type, name) is one parameter, S() the separator. A list may splice in
 * another list: `S() CLIRR_WL_ARGS(X, S)`.
 *
 * Kernel side:  __kernel void bfs_topo(CLIRR_KPARAMS(BFS_TOPO_ARGS))
 * Host side:    CLIRR_KARGS_STRUCT(bfs_topo_args, BFS_TOPO_ARGS);
 *               CLIRR_KARG(bfs_topo_args, depth)  -> index of `depth`
 *               CLIRR_KNARGS(bfs_topo_args)       -> number of parameters
 * The host struct holds one char per parameter, so a parameter's offset is
 * its index; no position is ever counted by hand, and the host checks the
 * count against CL_KERNEL_NUM_ARGS when it creates the kernel. */
#ifndef CLIRR_KARGS_H
#define CLIRR_KARGS_H

/* OpenCL compilers define __OPENCL_VERSION__; clang (the offline check in
 * tests/test_templates.c) defines only __OPENCL_C_VERSION__. */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)

#define CLIRR_KARG_PARAM(type, name) type name
#define CLIRR_KARG_COMMA() ,
#define CLIRR_KPARAMS(LIST) LIST(CLIRR_KARG_PARAM, CLIRR_KARG_COMMA)

#else

#include <stddef.h>

#define CLIRR_KARG_FIELD(type, name) char name;
#define CLIRR_KARG_NOSEP()
#define CLIRR_KARGS_STRUCT(tag, LIST) struct tag { LIST(CLIRR_KARG_FIELD, CLIRR_KARG_NOSEP) }
#define CLIRR_KARG(tag, name) ((cl_uint)offsetof(struct tag, name))
#define CLIRR_KNARGS(tag) ((cl_uint)sizeof(struct tag))

#endif
#endif
