#!/bin/sh
# tests/bench/bh.sh DEVICE OUT_PREFIX [gpu|cpu] - Barnes-Hut's measurements
# (shared/papers/000 Figure 6 and 13, 002 BHtree/BHforce) in a few `clirr
# bench` calls on one device, each writing OUT_PREFIX-NAME.json (the
# tables go to stdout; tests/bench/bh_table.py reads the JSON):
#   gpu: the study's inputs 50K x 50 steps, 500K x 10, 5M x 2, 10M x 1:
#        topo, data and hybrid summarization; sorted and unsorted force,
#        float and double; Figure 13 (hybrid, pre-passes 0..5) at 5M;
#        --cells recalc and store; the force walk's vote and bodies per
#        work-item at 5M x 1; the group walk against the warp vote (5M x 2,
#        500K x 10) and its work-group and bodies a work-item (5M x 1).
#   cpu: 50K x 3 (variants, double, --cells store; unsorted x 1; the
#        group walk against the work-group vote) and 500K x 1 with fewer
#        trials (a CPU device takes a second or more
#        per step).
# --kernels gives the time per phase: tree = prim_fill (slots emptied) +
# bh_bbox + bh_root + bh_build; summarization = bh_sum_*; bh_sort; force =
# bh_link (the walk's layout) + bh_force; bh_integrate.
# Verification is off (the serial reference of 5M bodies takes minutes);
# tests/test_bh.c verifies every variant and option on the same devices.
# Each call is limited to LIMIT seconds (default 240) so that one slow
# case cannot eat a shared machine's time; a call that fails or runs out
# is reported and the next one runs.
# Run from the build directory's parent: build/clirr must exist.
dev=$1
out=$2
kind=${3:-gpu}
C=${CLIRR:-build/clirr}
LIMIT=${LIMIT:-240}
run() {
    name=$1
    shift
    echo "== $name: $*"
    timeout "$LIMIT" $C bench bh --device "$dev" --no-verify --kernels "$@" --json="$out-$name.json" ||
        echo "== $name: exit $?"
}
if [ "$kind" = gpu ]; then
    R="--repeat 3 --warmup 1"
    run 5m $R --gen plummer:n=5000000 --steps 2 --variant topo,data,hybrid
    run 5m-fig13 $R --gen plummer:n=5000000 --steps 2 --variant hybrid --prepasses 0,2,3,4,5
    run 5m-options $R --gen plummer:n=5000000 --steps 2 --variant topo --precision float,double --sort=on,off
    run 5m-cells $R --gen plummer:n=5000000 --steps 2 --variant topo --cells store
    run 5m-walk --repeat 2 --warmup 1 --gen plummer:n=5000000 --steps 1 --variant topo --walk warp,workgroup \
        --per-item 1,2,4
    run 5m-group $R --gen plummer:n=5000000 --steps 2 --variant topo --walk warp,group
    run 5m-group-sweep --repeat 2 --warmup 1 --gen plummer:n=5000000 --steps 1 --variant topo --walk group \
        --per-item 1,2 --wg-size 32,64,128
    run 500k-group $R --gen plummer:n=500000 --steps 10 --variant topo --walk warp,group
    run 500k $R --gen plummer:n=500000 --steps 10 --variant topo,data,hybrid
    run 500k-options $R --gen plummer:n=500000 --steps 10 --variant topo --precision float,double --sort=on,off \
        --cells recalc,store
    run 50k $R --gen plummer:n=50000 --steps 50 --variant topo,data,hybrid --precision float,double
    run 10m $R --gen plummer:n=10000000 --steps 1 --variant topo
else
    R="--repeat 2 --warmup 1"
    run 50k $R --gen plummer:n=50000 --steps 3 --variant topo,data,hybrid
    run 50k-double $R --gen plummer:n=50000 --steps 3 --variant topo --precision double
    run 50k-store $R --gen plummer:n=50000 --steps 3 --variant topo --cells store
    run 50k-unsorted --repeat 1 --warmup 0 --gen plummer:n=50000 --steps 1 --variant topo --sort=off
    run 500k --repeat 1 --warmup 1 --gen plummer:n=500000 --steps 1 --variant topo
    run 50k-group $R --gen plummer:n=50000 --steps 3 --variant topo --walk workgroup,group
    run 500k-group --repeat 1 --warmup 1 --gen plummer:n=500000 --steps 1 --variant topo --walk workgroup,group
fi
