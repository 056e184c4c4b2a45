#!/bin/sh
# tests/bench/sp.sh BUILD OUT - survey propagation on random 3-SAT, the
# numbers of tests/bench/RESULTS.md's "Survey propagation" section. Needs a
# GPU (--device gpu) and PoCL (--device cpu). Each step has its own time
# limit and writes its JSON under OUT as it finishes, in priority order.
#  1. clirr bench over every device and variant on a 20k-variable formula
#     (verified against the serial SP, whose time is reference_ms);
#  2. single runs on the study's sizes (1M-5M variables, 4.2 and 4.0
#     clauses per variable) without the serial reference, which would take
#     many minutes: each assignment is recounted by sp_recount.c instead.
set -u
B=$1
O=$2
C=$B/clirr
mkdir -p "$O/f"
cc -O2 -o "$O/f/recount" "$(dirname "$0")/sp_recount.c" || exit 1
log() { echo "$(date -u +%T) $*" >> "$O/log"; }

timeout 100 $C bench sp --gen ksat:n=20000,m=80000,seed=1 --device all --repeat 3 --warmup 1 \
    --json > "$O/bench20k.json" 2> "$O/bench20k.err"
log "bench20k rc=$?"

# run NAME DEVICE VARIANT SPEC LIMIT [options]
run() {
    name=$1 dev=$2 var=$3 spec=$4 lim=$5
    shift 5
    f="$O/f/$(echo "$spec" | tr ':,=' '___').cnf"
    [ -f "$f" ] || $C gen "$spec" -o "$f" 2>> "$O/log"
    timeout "$lim" $C run sp --cnf "$f" --device "$dev" --variant "$var" --repeat 1 --warmup 0 --no-verify \
        --output "$O/f/$name.sol" --json "$@" > "$O/$name.json" 2> "$O/$name.err"
    log "$name rc=$?"
    "$O/f/recount" "$f" "$O/f/$name.sol" "$O/$name.json" >> "$O/recount.txt" 2>&1
    rm -f "$O/f/$name.sol"
}

run gpu-1M-4.2-topo gpu topo ksat:n=1000000,m=4200000,seed=1 40 --walksat-flips 5000000
run gpu-1M-4.2-data gpu data ksat:n=1000000,m=4200000,seed=1 40 --walksat-flips 5000000
run gpu-1M-4.0-topo gpu topo ksat:n=1000000,m=4000000,seed=1 40
run gpu-1M-4.0-data gpu data ksat:n=1000000,m=4000000,seed=1 40
run cpu-100k-4.0-topo cpu topo ksat:n=100000,m=400000,seed=1 40
run cpu-100k-4.0-data cpu data ksat:n=100000,m=400000,seed=1 40
run gpu-2M-4.2-topo gpu topo ksat:n=2000000,m=8400000,seed=1 40 --walksat-flips 5000000
run gpu-2M-4.0-topo gpu topo ksat:n=2000000,m=8000000,seed=1 40
for s in 2 3; do
    run gpu-1M-4.0-topo-s$s gpu topo ksat:n=1000000,m=4000000,seed=$s 30
    run gpu-1M-4.0-data-s$s gpu data ksat:n=1000000,m=4000000,seed=$s 30
done
run gpu-5M-4.0-topo gpu topo ksat:n=5000000,m=20000000,seed=1 60
rm -rf "$O/f"
