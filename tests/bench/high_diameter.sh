#!/bin/sh
# tests/bench/high_diameter.sh DEVICE OUT-PREFIX [ROAD.gr|.mtx ...] - the
# issue-16 measurements in `clirr bench` runs on one device, written to
# OUT-PREFIX-*.json:
#   bfs: data-driven against direction-optimizing (do);
#   rounds-L-Q (BFS data, CC label propagation) and rounds-sssp-L-Q (SSSP
#     data and near-far): --local-rounds L and --queue-rounds Q, each off
#     or auto;
#   pagerank-blocks: fused PageRank, 20 iterations, --blocks 1 to 4, on
#     uniform random graphs of 2^22, 2^23 and 2^24 vertices (degree 4),
#     whose contributions (8 bytes a vertex) fit a GPU's cache or not;
#   pagerank-precision: PageRank (auto), 20 iterations, contributions in
#     double and in float (--precision), on the grid, the uniform graph
#     and the road networks;
#   bits-delta: SSSP bits (the CPU path) without buckets (--delta
#     4294967295), at auto's width (0) and at 256 and 512, on the kron and
#     uniform graphs with weights 1-255 (GAPBS's);
# on a 2048x2048 grid, GAPBS-style kron (rmat scale 22, symmetrized) and
# uniform random (2^23 vertices, degree 4) graphs, and the road networks
# given (luxembourg_osm from ../shared/datasets is a small one). SMALL=1
# takes a 1024x1024 grid, rmat scale 20 and 2^21 random vertices instead
# (for CPU devices). Run from the build directory's parent: build/clirr must
# exist (CLIRR overrides). Extra bench options: CLIRR_BENCH_OPTS.
set -e
dev=$1
out=$2
shift 2
roads=""
for r in "$@"; do
    roads="$roads --graph $r"
done
C=${CLIRR:-build/clirr}
if [ -n "$SMALL" ]; then
    G="grid:w=1024,h=1024" R="rmat:scale=20,ef=8,seed=1" N="random:n=2097152,m=8388608,seed=1"
    B="--gen random:n=1048576,m=2097152,seed=1 --gen random:n=2097152,m=4194304,seed=1"
else
    G="grid:w=2048,h=2048" R="rmat:scale=22,ef=8,seed=1" N="random:n=8388608,m=33554432,seed=1"
    B="--gen random:n=4194304,m=8388608,seed=1 --gen random:n=8388608,m=16777216,seed=1"
    B="$B --gen random:n=16777216,m=33554432,seed=1"
fi
U="--gen $G --gen $R --gen $N --symmetrize"
W="--gen $G,weights=1-100 --gen $R,weights=1-100 --gen $N,weights=1-100 --symmetrize"
O="--device $dev --source 0 --repeat 3 --warmup 1 --kernels $CLIRR_BENCH_OPTS"
$C bench bfs --variant data,do $U $roads $O --json="$out-bfs.json"
for L in off auto; do
    for Q in off auto; do
        $C bench bfs,cc --variant data $W $roads $O --local-rounds $L --queue-rounds $Q \
            --json="$out-rounds-$L-$Q.json"
        $C bench sssp --variant data,nearfar $W $roads $O --local-rounds $L --queue-rounds $Q \
            --json="$out-rounds-sssp-$L-$Q.json"
    done
done
$C bench pagerank --variant fused --blocks 1,2,3,4 $B --symmetrize --max-iter 20 --tol 0 \
    --device $dev --repeat 3 --warmup 1 --kernels $CLIRR_BENCH_OPTS --json="$out-pagerank-blocks.json"
$C bench pagerank --variant auto --precision double,float --gen $G --gen $N --symmetrize $roads --max-iter 20 --tol 0 \
    --device $dev --repeat 3 --warmup 1 --kernels $CLIRR_BENCH_OPTS --json="$out-pagerank-precision.json"
$C bench sssp --variant bits --delta 4294967295,0,256,512 --gen $R,weights=1-255 --gen $N,weights=1-255 \
    --symmetrize $O --json="$out-bits-delta.json"
