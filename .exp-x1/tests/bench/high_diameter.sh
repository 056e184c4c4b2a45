#!/bin/sh
# tests/bench/high_diameter.sh DEVICE OUT-PREFIX [ROAD.gr|.mtx ...] - the
# issue-16 measurements in three `clirr bench` runs on one device, written
# to OUT-PREFIX-{bfs,sssp,rounds}.json:
#   bfs: data-driven against direction-optimizing (do);
#   sssp: data-driven against near-far (bucketed);
#   rounds: BFS, SSSP and CC label propagation with --local-rounds off and
#     auto (two runs, the second's JSON as OUT-PREFIX-rounds-auto.json);
# on a 2048x2048 grid, GAPBS-style kron (rmat scale 22, symmetrized) and
# uniform random (2^23 vertices, degree 4) graphs, and the road networks
# given (luxembourg_osm from ../shared/datasets is a small one). Run from
# the build directory's parent: build/clirr must exist (CLIRR overrides).
# Extra bench options: CLIRR_BENCH_OPTS.
set -e
dev=$1
out=$2
shift 2
roads=""
for r in "$@"; do
    roads="$roads --graph $r"
done
C=${CLIRR:-build/clirr}
U="--gen grid:w=2048,h=2048 --gen rmat:scale=22,ef=8,seed=1 --gen random:n=8388608,m=33554432,seed=1 --symmetrize"
W="--gen grid:w=2048,h=2048,weights=1-100 --gen rmat:scale=22,ef=8,seed=1,weights=1-100 --gen random:n=8388608,m=33554432,seed=1,weights=1-100 --symmetrize"
O="--device $dev --source 0 --repeat 3 --warmup 1 --kernels $CLIRR_BENCH_OPTS"
$C bench bfs --variant data,do $U $roads $O --json="$out-bfs.json"
$C bench sssp --variant data,nearfar $W $roads $O --json="$out-sssp.json"
$C bench bfs,sssp,cc --variant data $W $roads $O --local-rounds off --json="$out-rounds.json"
$C bench bfs,sssp,cc --variant data $W $roads $O --local-rounds auto --json="$out-rounds-auto.json"
