#!/bin/sh
# tests/bench/sp.sh BUILD OUT [SECONDS [a|b]] - survey propagation on random
# 3-SAT, the numbers of tests/bench/RESULTS.md's "Survey propagation"
# section, in one batch that stops starting steps once SECONDS (default
# 280) have passed. Needs a GPU (--device gpu) and PoCL (--device cpu).
# Steps in priority order, each with its own time limit; every JSON
# document goes to OUT/sp.jsonl (one a line), every recount to
# OUT/recount.txt, the end-to-end wall time of each run (the process: file
# read, device setup, decimation, WalkSAT, output written) to OUT/log.txt.
#  - single runs at the study's sizes (1M variables, 4.2 clauses per
#    variable, the default eps, five seeds: the issue's target; the data
#    variant; 2M variables) without the serial reference, which would take
#    many minutes there: sp_recount.c recounts each assignment from the
#    .cnf file instead;
#  - clirr bench over every device and variant on a 10K formula, verified
#    against the serial SP (whose time is reference_ms);
#  - PoCL at 100K variables.
set -u
B=$1
O=$2
BUDGET=${3:-280}
PART=${4:-all}  # a: the two 1M target runs; b: the rest; all: both
C=$B/clirr
T=$(mktemp -d)
START=$(date +%s)
cc -O2 -o "$T/recount" "$(dirname "$0")/sp_recount.c" || exit 1
log() { echo "$(date -u +%T) $*" >> "$O/log.txt"; }
keep() { tr -d '\n' < "$1" >> "$O/sp.jsonl"; echo >> "$O/sp.jsonl"; }
# left LIMIT: the seconds a step may take within the budget (0: skip it).
left() {
    r=$((BUDGET - ($(date +%s) - START)))
    if [ "$r" -lt 8 ]; then echo 0; elif [ "$r" -lt "$1" ]; then echo "$r"; else echo "$1"; fi
}

# run NAME DEVICE VARIANT SPEC LIMIT [options]
run() {
    name=$1 dev=$2 var=$3 spec=$4 lim=$(left "$5")
    shift 5
    if [ "$lim" -eq 0 ]; then log "$name skipped (budget)"; return 1; fi
    f="$T/$(echo "$spec" | tr ':,=' '___').cnf"
    [ -f "$f" ] || $C gen "$spec" -o "$f" 2>> "$O/log.txt"
    t0=$(date +%s%N)
    timeout "$lim" $C run sp --cnf "$f" --device "$dev" --variant "$var" --repeat 1 --warmup 0 --no-verify \
        --output "$T/$name.sol" --json "$@" > "$T/$name.json"
    rc=$?
    t1=$(date +%s%N)
    log "$name rc=$rc wall_ms=$(( (t1 - t0) / 1000000 )) $*"
    keep "$T/$name.json"
    echo "$name: $("$T/recount" "$f" "$T/$name.sol" "$T/$name.json" 2>&1)" >> "$O/recount.txt"
    rm -f "$T/$name.sol"
    grep -q '"solved":true' "$T/$name.json"
}

# Kernels built once (and cached) before anything is timed.
$C run sp --gen ksat:n=100,m=420,seed=1 --device all --variant topo,data --repeat 1 --warmup 0 > /dev/null 2>&1

K1=ksat:n=1000000,m=4200000,k=3,seed=1
if [ "$PART" != b ]; then
    # The target: 1M variables / 4.2M clauses at the default eps, 5 seeds.
    for seed in 1 2 3 4 5; do
        run gpu-1M-4.2-topo-s$seed gpu topo ksat:n=1000000,m=4200000,k=3,seed=$seed 20
    done
fi
if [ "$PART" != a ]; then
    # One clirr bench on the GPU: both variants (Figure 6) on two of those
    # formulas, no serial reference (minutes at this size; the runs above
    # are recounted instead).
    lim=$(left 60)
    if [ "$lim" -gt 0 ]; then
        timeout "$lim" $C bench sp --cnf "$T/$(echo $K1 | tr ':,=' '___').cnf" \
            --cnf "$T/$(echo ksat:n=1000000,m=4200000,k=3,seed=2 | tr ':,=' '___').cnf" --device gpu \
            --repeat 1 --warmup 0 --no-verify --json > "$T/b1m.json"
        log "bench1M rc=$?"
        keep "$T/b1m.json"
    fi
    run gpu-2M-8.4-topo-e01 gpu topo ksat:n=2000000,m=8400000,k=3,seed=1 30 --eps 0.01
    lim=$(left 40)
    if [ "$lim" -gt 0 ]; then
        timeout "$lim" $C bench sp --gen ksat:n=10000,m=40000,seed=1 --device all --repeat 1 --warmup 1 --json \
            > "$T/b.json"
        log "bench10k rc=$?"
        keep "$T/b.json"
    fi
    run cpu-100k-4.2-topo cpu topo ksat:n=100000,m=420000,k=3,seed=1 20
    run gpu-2M-8.4-data gpu data ksat:n=2000000,m=8400000,k=3,seed=1 40
fi
log "done"
rm -rf "$T"
