#!/usr/bin/env bash
# The coloring measurements of the README ("Measured", graph coloring): one
# `clirr bench` run per configuration over the four inputs, the CSVs joined
# with a config column, the serial reference lines kept.
#
#   tests/bench/color_matrix.sh DEVICE REPEAT OUT.csv [LUXEMBOURG_MTX]
#
# CLIRR (default build/clirr) is the binary; the road graph defaults to
# ../shared/datasets/luxembourg_osm.mtx.gz.
set -euo pipefail
dev=$1 rep=$2 out=$3
road=${4:-../shared/datasets/luxembourg_osm.mtx.gz}
clirr=${CLIRR:-build/clirr}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
IN=(--gen rmat:scale=20,ef=5,a=0.45,b=0.15,c=0.15,d=0.25,seed=1
    --gen rmat:scale=20,ef=5,a=0.25,b=0.25,c=0.25,d=0.25,seed=1
    --gen grid:w=1024,h=1024 --graph "$road")
# The study's baseline: data-driven, no refinement, atomic pushes, thread-mapped,
# asynchronous rounds (the study's).
BASE=(--variant data --no-heuristic --no-bitset --fuse off --sync off --push atomic --template baseline)
run() {
    local name=$1
    shift
    if ! "$clirr" bench --device "$dev" --algo color "${IN[@]}" --repeat "$rep" --warmup 1 \
            --csv "$tmp/$name.csv" "$@" > "$tmp/$name.txt" 2>&1; then
        printf '!! %s failed:\n' "$name" >&2
        tail -n 5 "$tmp/$name.txt" >&2
        return
    fi
    grep '^reference' "$tmp/$name.txt" | sed "s/^/$name: /"
    awk -v c="$name" 'NR==1{print "config," $0; next}{print c "," $0}' "$tmp/$name.csv"
}
{
    run topo --variant topo --sync off
    run topo-sync --variant topo --sync on
    run data-base "${BASE[@]}"
    run data-opt --variant data --sync off
    run jp --variant jp
    run heuristic "${BASE[@]}" --heuristic
    run bitset "${BASE[@]}" --bitset
    run fuse "${BASE[@]}" --fuse on
    run compact-push "${BASE[@]}" --push compact
    run coarsen4 "${BASE[@]}" --coarsen 4
    run balance-global "${BASE[@]}" --template dbuf-global
    run balance-shared "${BASE[@]}" --template dbuf-shared
} > "$out"
