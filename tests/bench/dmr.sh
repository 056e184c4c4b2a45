#!/bin/sh
# tests/bench/dmr.sh DEVICE OUT_PREFIX [gpu|cpu] - Delaunay mesh
# refinement's measurements (shared/papers/000 Figure 6: topo vs data;
# Figure 11: the temporal hybrid's threshold; 002: the DMR rows) in a few
# `clirr bench` calls on one device, each writing OUT_PREFIX-NAME.json.
# Every trial is verified (the verifier needs no reference mesh); the
# serial refinement's time is the JSON's reference_ms (it includes finding
# the input's neighbours).
#   gpu: 10^5 points (2*10^5 triangles in, ~10^6 out): topo, data, and the
#        hybrid at --hybrid 0.1 .. 0.9; 10^6 points (2*10^6 triangles in,
#        ~9.5*10^6 out): topo, data, hybrid.
#   cpu: 10^5 points: topo, data, hybrid (a CPU device takes seconds).
# Run from the build directory's parent: build/clirr must exist.
set -e
dev=$1
out=$2
kind=${3:-gpu}
C=${CLIRR:-build/clirr}
B="bench dmr --device $dev --kernels --warmup 1"
if [ "$kind" = gpu ]; then
    $C $B --repeat 3 --gen mesh:n=100000,seed=1 --variant topo,data,hybrid --hybrid 0.1,0.3,0.5,0.7,0.9 \
        --json="$out-100k.json"
    $C $B --repeat 2 --gen mesh:n=1000000,seed=1 --variant topo,data,hybrid --json="$out-1m.json"
else
    $C $B --repeat 1 --gen mesh:n=100000,seed=1 --variant topo,data,hybrid --json="$out-100k.json"
fi
