#!/bin/sh
# tests/bench/bh.sh DEVICE OUT_PREFIX [gpu|cpu] - Barnes-Hut's measurements
# (shared/papers/000 Figure 6 and 13, 002 BHtree/BHforce) in a few `clirr
# bench` calls on one device, each writing OUT_PREFIX-NAME.json:
#   gpu: the study's inputs 50K x 50 steps, 500K x 10, 5M x 2, 10M x 1:
#        topo, data and hybrid summarization; sorted and unsorted force,
#        float and double at 500K; Figure 13 (hybrid, pre-passes 0..5) at
#        5M; --kernels gives the time per phase (bh_bbox + bh_root +
#        bh_build + prim_fill (the slots emptied): the tree; bh_sum_*: summarization; bh_sort; bh_force;
#        bh_integrate).
#   cpu: 50K x 5 and 500K x 1 (a CPU device takes seconds per step).
# Verification is off (the serial reference of 5M bodies takes minutes);
# tests/test_bh.c verifies every variant on the same devices.
# Run from the build directory's parent: build/clirr must exist.
set -e
dev=$1
out=$2
kind=${3:-gpu}
C=${CLIRR:-build/clirr}
B="bench bh --device $dev --no-verify --kernels --repeat 3 --warmup 1"
if [ "$kind" = gpu ]; then
    $C $B --gen plummer:n=5000000 --steps 2 --variant topo,data --sort=on --json="$out-5m.json"
    $C $B --gen plummer:n=500000 --steps 10 --variant topo,data,hybrid --precision float,double \
        --sort=on,off --json="$out-500k.json"
    $C $B --gen plummer:n=5000000 --steps 2 --variant hybrid --prepasses 0,1,2,3,4,5 \
        --json="$out-5m-fig13.json"
    $C $B --gen plummer:n=5000000 --steps 2 --variant topo --no-sort --json="$out-5m-unsorted.json"
    $C $B --gen plummer:n=5000000 --steps 2 --variant topo --precision double --json="$out-5m-double.json"
    $C $B --gen plummer:n=50000 --steps 50 --variant topo,data,hybrid --json="$out-50k.json"
    $C $B --gen plummer:n=10000000 --steps 1 --variant topo --json="$out-10m.json"
else
    $C $B --gen plummer:n=50000 --steps 5 --variant topo,data,hybrid --sort=on,off --json="$out-50k.json"
    $C $B --gen plummer:n=500000 --steps 1 --variant topo,data,hybrid --json="$out-500k.json"
fi
