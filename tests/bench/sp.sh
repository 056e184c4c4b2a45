#!/bin/sh
# tests/bench/sp.sh BUILD OUT - survey propagation on random 3-SAT, the
# numbers of tests/bench/RESULTS.md's "Survey propagation" section. Needs a
# GPU (--device gpu) and PoCL (--device cpu). Steps run in priority order,
# each with its own time limit; every JSON document is appended to
# OUT/sp.jsonl (one per line) and every recount to OUT/recount.txt.
#  1. clirr bench over every device and variant on a small formula,
#     verified against the serial SP (whose time is reference_ms);
#  2. single runs at the study's sizes (1M+ variables, 4.2 and 4.0 clauses
#     per variable) without the serial reference, which would take many
#     minutes there: sp_recount.c recounts each assignment instead.
set -u
B=$1
O=$2
C=$B/clirr
T=$(mktemp -d)
cc -O2 -o "$T/recount" "$(dirname "$0")/sp_recount.c" || exit 1
log() { echo "$(date -u +%T) $*" >> "$O/log.txt"; }
keep() { tr -d '\n' < "$1" >> "$O/sp.jsonl"; echo >> "$O/sp.jsonl"; }

timeout 25 $C bench sp --gen ksat:n=10000,m=40000,seed=1 --device all --repeat 3 --warmup 1 --json > "$T/b.json"
log "bench10k rc=$?"
keep "$T/b.json"

# run NAME DEVICE VARIANT SPEC LIMIT [options]
run() {
    name=$1 dev=$2 var=$3 spec=$4 lim=$5
    shift 5
    f="$T/$(echo "$spec" | tr ':,=' '___').cnf"
    [ -f "$f" ] || $C gen "$spec" -o "$f" 2>> "$O/log.txt"
    timeout "$lim" $C run sp --cnf "$f" --device "$dev" --variant "$var" --repeat 1 --warmup 0 --no-verify \
        --output "$T/$name.sol" --json "$@" > "$T/$name.json"
    log "$name rc=$?"
    keep "$T/$name.json"
    echo "$name: $("$T/recount" "$f" "$T/$name.sol" "$T/$name.json" 2>&1)" >> "$O/recount.txt"
    rm -f "$T/$name.sol"
}

run gpu-1M-4.2-topo gpu topo ksat:n=1000000,m=4200000,seed=1 25 --walksat-flips 10000000
run gpu-1M-4.2-data gpu data ksat:n=1000000,m=4200000,seed=1 25 --walksat-flips 10000000
run gpu-1M-4.0-topo gpu topo ksat:n=1000000,m=4000000,seed=1 20
run gpu-1M-4.0-data gpu data ksat:n=1000000,m=4000000,seed=1 20
run cpu-100k-4.0-topo cpu topo ksat:n=100000,m=400000,seed=1 20
run cpu-100k-4.0-data cpu data ksat:n=100000,m=400000,seed=1 20
run gpu-2M-4.2-topo gpu topo ksat:n=2000000,m=8400000,seed=1 40 --walksat-flips 10000000
run gpu-1M-4.0-topo-s2 gpu topo ksat:n=1000000,m=4000000,seed=2 20
run gpu-1M-4.0-data-s2 gpu data ksat:n=1000000,m=4000000,seed=2 20
rm -rf "$T"
