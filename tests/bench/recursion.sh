#!/bin/sh
# tests/bench/recursion.sh WHAT DEVICE OUT.json [clirr bench options...] -
# the recursion study's experiments (shared/papers/001, III.C) in one
# `clirr bench`:
#   trees  Fig. 7 and 8: descendants and heights on the study's regular
#          trees of depth 4, out-degree 32 .. $KMAX at sparsity 0, and
#          out-degree $KSPARSE at sparsity 1 .. 4 (the study: KMAX =
#          KSPARSE = 512, 134M vertices; defaults 256; KMIN, default
#          32, the smallest out-degree; SPARSE="1 2 3 4" the sparsities;
#          TREEOPTS is appended to every tree spec, e.g. ",shuffle=0"
#          for vertices numbered level by level);
#   bfs    Fig. 9: bfs on random graphs of $BFSN vertices (default 50000)
#          whose out-degrees are uniform in each of $DEGS (default 16-48
#          32-96 64-192 128-384 256-768: 1.6M to 26M arcs).
# Variants, templates, --streams, --count and the rest come from the extra
# arguments, e.g. --variant recursive,serial-rec,serial-iter --template
# flat,rec-naive,rec-hier --streams=off,on (bfs: --variant
# topo,data,recursive,serial-rec,serial-iter --template
# auto,flat,rec-naive,rec-hier: the loop variants take auto only). Run
# from the build directory's parent (build/clirr, or CLIRR=path).
# tests/bench/recursion_table.py turns the JSON into the tables of
# tests/bench/RESULTS.md.
set -e
what=$1
dev=$2
out=$3
shift 3
G=""
case "$what" in
trees)
    k=${KMIN:-32}
    while [ "$k" -le "${KMAX:-256}" ]; do
        G="$G --gen tree:kind=regular,depth=4,outdeg=$k$TREEOPTS"
        k=$((k * 2))
    done
    for s in ${SPARSE-1 2 3 4}; do
        G="$G --gen tree:kind=regular,depth=4,outdeg=${KSPARSE:-256},sparsity=$s$TREEOPTS"
    done
    exec ${CLIRR:-build/clirr} bench descendants,heights --device "$dev" $G --json="$out" "$@"
    ;;
bfs)
    for d in ${DEGS:-16-48 32-96 64-192 128-384 256-768}; do
        G="$G --gen random:n=${BFSN:-50000},deg=$d,seed=1"
    done
    exec ${CLIRR:-build/clirr} bench bfs --device "$dev" $G --json="$out" "$@"
    ;;
*)
    echo "usage: $0 trees|bfs DEVICE OUT.json [clirr bench options]" >&2
    exit 2
    ;;
esac
