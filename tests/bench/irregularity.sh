#!/bin/sh
# tests/bench/irregularity.sh - the irregularity study's measurements with
# `clirr profile` (issue 13; shared/papers/002 Figures 1 and 3, and Tables
# I-II of shared/papers/001), one device at a time:
#
#   tests/bench/irregularity.sh CLIRR DEVICE OUTDIR DATADIR [SCALE]
#
# Environment: ONLY="fig3 table1 ..." runs those steps only; IRR_OPTS adds
# options to every profile (e.g. "--irr-sample 4": every fourth work-group
# recorded, a quarter of the host's counting).
# DATADIR holds luxembourg_osm.mtx.gz and email-Enron.txt.gz (copies of
# the SuiteSparse / SNAP files); SCALE is the rmat scale (default 14).
# Writes OUTDIR/*.csv and *.txt (the tables as printed); then
#   tests/bench/irr_table.py OUTDIR      the Markdown tables of RESULTS.md
#   tests/bench/irr_scatter.py OUTDIR/fig1 OUTDIR/fig1.csv OUTDIR/calib.csv --paper
# Failing cases (a variant the device cannot run) are rows with their error;
# the script goes on. The most wanted measurements come first, so that a
# time limit cuts the least.
set -u
CLIRR=$1 DEV=$2 OUT=$3 DATA=$4 SCALE=${5:-14}
mkdir -p "$OUT"
RMAT="rmat:scale=$SCALE,ef=8,seed=1,weights=1-100"
ROAD=$DATA/luxembourg_osm.mtx.gz
ENRON=$DATA/email-Enron.txt.gz
P="$CLIRR profile --device $DEV ${IRR_OPTS:-}"
run() {
    name=$1; shift
    case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    echo "== $name: $*" >&2; t0=$(date +%s); "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err"; echo "   exit $? in $(( $(date +%s) - t0 )) s" >&2
}

# Figure 1: every kernel (every variant, the planned template), and the
# regular calibration kernels.
run calib $P --calib all --csv "$OUT/calib.csv"
run fig1 $P bfs,sssp,pagerank,spmv,color,cc,mst --gen "$RMAT" --variant all --source max-degree \
    --csv "$OUT/fig1.csv"
# Figure 3: SSSP on rmat graphs of three sizes against a road network
# (data-driven, as the study's LonestarGPU SSSP).
run fig3 $P sssp --gen "rmat:scale=12,ef=8,seed=1,weights=1-100" --gen "$RMAT" \
    --gen "rmat:scale=$((SCALE + 2)),ef=8,seed=1,weights=1-100" --graph "$ROAD" \
    --variant data --source max-degree --csv "$OUT/fig3.csv"
# Table I of 001: SSSP per template at lb_THRES = 32 (email-Enron stands in
# for CiteSeer).
run table1 $P sssp --graph "$ENRON" --variant topo \
    --template baseline,dual-queue,dbuf-global,dbuf-shared --lb-thres 32 --source max-degree \
    --csv "$OUT/table1.csv"
# Table II of 001: dbuf-shared's SIMD utilisation against lb_THRES.
run table2 $P sssp --graph "$ENRON" --variant topo --template dbuf-shared,baseline \
    --lb-thres 32,64,256,1024 --source max-degree --csv "$OUT/table2.csv"
# PageRank: 5 iterations (each does the same work, so the ratios are those
# of a converged run; the reference runs 5 too).
run table2_pr $P pagerank,spmv --graph "$ENRON" --template dbuf-shared,baseline \
    --lb-thres 32,64,256,1024 --max-iter 5 --csv "$OUT/table2_pr.csv"
# Figure 1, BFS and SSSP in every loop template.
run fig1_templates $P bfs,sssp --gen "$RMAT" --variant topo,data \
    --template baseline,dual-queue,dbuf-global,dbuf-shared --source max-degree \
    --csv "$OUT/fig1_templates.csv"
run fig1_bc $P bc --gen "$RMAT" --sources 2 --csv "$OUT/fig1_bc.csv"
run table2_bc $P bc --graph "$ENRON" --sources 2 --template dbuf-shared,baseline \
    --lb-thres 32,64,256,1024 --csv "$OUT/table2_bc.csv"
