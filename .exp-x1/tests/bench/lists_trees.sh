#!/bin/sh
# tests/bench/lists_trees.sh DEVICE OUT.json - the list ranking and tree
# study's tables (shared/papers/003) in one `clirr bench` on one device:
#   random lists of 2^10..2^26 elements: every Wyllie variant (64- and
#     32-bit packing, original, stepwise, optimized) and rhj under both
#     splitter rules, against the serial CPU ranking (the reference time);
#   the four configurations (ordered, ordered-unbalanced, random-balanced,
#     random) at 2^20..2^24, and ordered lists from 2^19 with the scan
#     (the lower bound);
#   random binary trees of 2^20..2^24 vertices: the Euler tour ranked by
#     every variant, and clirr's BFS, against the serial DFS; --kernels
#     gives the per-kernel breakdown of the tour.
# Run from the build directory's parent: build/clirr must exist. Extra
# arguments go to clirr bench (e.g. --wg-size 128).
set -e
dev=$1
out=$2
shift 2
G=""
n=1024
while [ $n -le 67108864 ]; do
    G="$G --gen list:n=$n,order=random"
    n=$((n * 2))
done
n=1048576
while [ $n -le 16777216 ]; do
    for o in sequential ordered-unbalanced random-balanced; do
        G="$G --gen list:n=$n,order=$o"
    done
    G="$G --gen tree:kind=binary,n=$n"
    n=$((n * 2))
done
G="$G --gen list:n=524288,order=sequential"
exec ${CLIRR:-build/clirr} bench listrank,treestats --device "$dev" $G \
    --variant wyllie,wyllie32,wyllie-stepwise,wyllie-opt,rhj,scan,bfs \
    --splitters nlogn,n2log2n --repeat 3 --warmup 1 --kernels --json="$out" "$@"
