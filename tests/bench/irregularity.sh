#!/bin/sh
# tests/bench/irregularity.sh - the irregularity study's measurements with
# `clirr profile` (issue 13; shared/papers/002 Figures 1-4, and Tables I-II
# of shared/papers/001), one device at a time:
#
#   tests/bench/irregularity.sh CLIRR DEVICE OUTDIR DATADIR [SCALE]
#
# Environment: ONLY="fig3 table1 ..." runs those steps only; STEP_TIMEOUT=S
# stops a step after S seconds (its error file says so); IRR_OPTS adds
# options to every profile (e.g. "--irr-sample 4": every fourth work-group
# recorded, a quarter of the host's counting).
# DATADIR holds luxembourg_osm.mtx.gz, email-Enron.txt.gz and rome99.gr.gz
# (copies of the SuiteSparse / SNAP / DIMACS files); SCALE is the rmat scale
# (default 14); lists, trees and meshes scale with it (2^(SCALE+6) items).
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
ROME=$DATA/rome99.gr.gz
N=$((1 << (SCALE + 6)))
# The study's road networks (fla, w, usa: 1-24M vertices) stand as rome99,
# luxembourg_osm and grids (road-like: degree <= 4, diameter 2w). Data-driven
# only (the study's SSSP is a worklist code; a topology-driven sweep over a
# road network runs a round per hop of its diameter over every vertex).
# Small frontiers make many rounds run in one work-group's launch
# (bfs_local / sssp_local): the record buffer grows to what it wanted and
# the case runs again (the "recording:" line of each case says so).
P="$CLIRR profile --device $DEV ${IRR_OPTS:-}"
run() {
    name=$1; shift
    case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    echo "== $name: $*" >&2; t0=$(date +%s)
    timeout "${STEP_TIMEOUT:-0}" "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err"; echo "   exit $? in $(( $(date +%s) - t0 )) s" >&2
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
# Figure 2: input sensitivity, small / medium / large of one kind each, a
# step per input (so that a time limit cuts one input, not the figure).
# Road: rome99 (3353 vertices), luxembourg_osm (115k), a GRID_L x GRID_L
# grid (default 1024: 1M vertices). rmat: SCALE - 2, SCALE, SCALE + 2.
GRID_L=${GRID_L:-1024}
for I in "s --graph $ROME" "m --graph $ROAD" "l --gen grid:w=$GRID_L,h=$GRID_L,seed=1,weights=1-100"; do
    set -- $I; sz=$1; shift
    run fig2_road_$sz $P bfs,sssp "$@" --variant data --source max-degree --csv "$OUT/fig2_road_$sz.csv"
done
for I in "s $((SCALE - 2))" "m $SCALE" "l $((SCALE + 2))"; do
    set -- $I
    run fig2_rmat_$1 $P cc,mst,color,pagerank --gen "rmat:scale=$2,ef=8,seed=1,weights=1-100" \
        --csv "$OUT/fig2_rmat_$1.csv"
done
# Figure 4: SSSP (and BFS) on road inputs in each vertex layout: the
# profile (MAI, CFI) on luxembourg_osm and a GRID4 x GRID4 grid (default
# 512), and the uninstrumented time on luxembourg_osm and a GRID4T x GRID4T
# grid (default 2048: 4M vertices).
GRID4=${GRID4:-512} GRID4T=${GRID4T:-2048}
for L in none bfs rcm degree; do
    run fig4_$L $P sssp,bfs --graph "$ROAD" --gen "grid:w=$GRID4,h=$GRID4,seed=1,weights=1-100" \
        --variant data --reorder $L --source max-degree --csv "$OUT/fig4_$L.csv"
    run fig4_time_$L "$CLIRR" bench sssp,bfs --device "$DEV" --graph "$ROAD" \
        --gen "grid:w=$GRID4T,h=$GRID4T,seed=1,weights=1-100" --variant data --reorder $L \
        --source max-degree --repeat 3 --csv "$OUT/fig4_time_$L.csv"
done
run fig2_lists $P listrank --gen "list:n=$((N / 16)),order=random,seed=1" \
    --gen "list:n=$((N / 4)),order=random,seed=1" --gen "list:n=$N,order=random,seed=1" \
    --csv "$OUT/fig2_lists.csv"
run fig2_trees $P treestats --gen "tree:kind=attach,n=$((N / 16)),seed=1" \
    --gen "tree:kind=attach,n=$((N / 4)),seed=1" --gen "tree:kind=attach,n=$N,seed=1" \
    --csv "$OUT/fig2_trees.csv"
run fig2_dmr $P dmr --gen "mesh:n=$((N / 64)),seed=1,shape=disk" --gen "mesh:n=$((N / 16)),seed=1,shape=disk" \
    --gen "mesh:n=$((N / 4)),seed=1,shape=disk" --variant data --csv "$OUT/fig2_dmr.csv"
# Figure 1, the algorithms of other input kinds: lists, trees, meshes.
run fig1_lists $P listrank --gen "list:n=$N,order=random,seed=1" --variant all --csv "$OUT/fig1_lists.csv"
run fig1_trees $P treestats,descendants,heights --gen "tree:kind=attach,n=$N,seed=1" --variant all \
    --csv "$OUT/fig1_trees.csv"
run fig1_dmr $P dmr --gen "mesh:n=$((N / 8)),seed=1,shape=disk" --variant all --csv "$OUT/fig1_dmr.csv"
# The hardware-warp back end (WARP=1; NVIDIA GPUs of compute capability
# 8.0+): the calibration kernels and Figure 1's kernels counted as the warp
# executed them, to set beside the model's calib.csv and fig1.csv.
if [ "${WARP:-0}" = 1 ]; then
    run warp_calib $P --calib all --irr-backend warp --csv "$OUT/warp_calib.csv"
    run warp_fig1 $P bfs,sssp,pagerank,spmv,color,cc,mst --gen "$RMAT" --variant all --source max-degree \
        --irr-backend warp --csv "$OUT/warp_fig1.csv"
    run warp_road $P bfs,sssp --graph "$ROAD" --variant data --source max-degree --irr-backend warp \
        --csv "$OUT/warp_road.csv"
    # Figure 4's SSSP on the timed inputs (no records: the 4M-vertex grid
    # is in reach), and Figure 2's large road input.
    for L in none bfs rcm degree; do
        run warp_fig4_$L $P sssp --graph "$ROAD" --gen "grid:w=$GRID4T,h=$GRID4T,seed=1,weights=1-100" \
            --variant data --reorder $L --source max-degree --irr-backend warp --csv "$OUT/warp_fig4_$L.csv"
    done
    run warp_fig2_road_l $P bfs,sssp --gen "grid:w=$GRID_L,h=$GRID_L,seed=1,weights=1-100" --variant data \
        --source max-degree --irr-backend warp --csv "$OUT/warp_fig2_road_l.csv"
fi
