#!/bin/sh
# tests/bench/irr_plots.sh - the irregularity study's figures (shared/papers/002
# Figures 1, 2 and 4) as SVG and PNG from the CSVs of tests/bench/irregularity.sh
# in each DIR (a step cut by its time limit leaves NAME.partial.csv, used when
# NAME.csv is absent; a figure whose files are all absent is skipped):
#
#   tests/bench/irr_plots.sh DIR [DIR ...]
#
# DIR/fig1.{svg,png}       every kernel and the calibration kernels, the study's
#                          Table II values in grey
# DIR/fig2_road, fig2_rmat input sensitivity: small, medium, large joined
# DIR/fig4, warp_fig4      SSSP/BFS per vertex layout, arrows from "none"
# DIR/model_vs_warp        Figure 1's cases, an arrow from the model's point to
#                          the hardware warp's (fig1_c and warp_fig1: one run)
# matplotlib: Debian's python3-matplotlib (/usr/bin/python3).
set -u
PY=${PYTHON:-/usr/bin/python3}
HERE=$(dirname "$0")
pick() { # the full file, else the partial one, else nothing
    if [ -f "$1.csv" ]; then echo "$1.csv"; elif [ -f "$1.partial.csv" ]; then echo "$1.partial.csv"; fi
}
series() { # OUT TITLE NAMES STEM... : the files of the stems present, their names
    out=$1 title=$2 names=$3 by=$4; shift 4
    files="" used=""
    i=1
    for stem in "$@"; do
        n=$(echo "$names" | cut -d, -f$i); i=$((i + 1))
        f=$(pick "$stem")
        [ -n "$f" ] || continue
        files="$files $f"; used="${used:+$used,}$n"
    done
    [ -n "$files" ] || return 0
    $PY "$HERE/irr_scatter.py" "$out" $files --series "$used" $by --title "$title"
}
for D in "$@"; do
    dev=$(basename "$D")
    f1=$(pick "$D/fig1")
    if [ -n "$f1" ]; then
        extra=""
        [ -f "$D/calib.csv" ] && extra="$D/calib.csv"
        $PY "$HERE/irr_scatter.py" "$D/fig1" $f1 $extra --paper \
            --title "Figure 1 ($dev): kernels in irregularity space, model"
    fi
    series "$D/fig2_road" "Figure 2 ($dev): road inputs, small / medium / large" S,M,L "" \
        "$D/fig2_road_s" "$D/fig2_road_m" "$D/fig2_road_l"
    series "$D/fig2_rmat" "Figure 2 ($dev): rmat, three scales (S < M < L)" S,M,L "" \
        "$D/fig2_rmat_s" "$D/fig2_rmat_m" "$D/fig2_rmat_l"
    series "$D/fig4" "Figure 4 ($dev): vertex layout (--reorder), model" none,bfs,rcm,degree --by-input \
        "$D/fig4_none" "$D/fig4_bfs" "$D/fig4_rcm" "$D/fig4_degree"
    series "$D/warp_fig4" "Figure 4 ($dev): vertex layout (--reorder), hardware warp" none,bfs,rcm,degree \
        --by-input "$D/warp_fig4_none" "$D/warp_fig4_bfs" "$D/warp_fig4_rcm" "$D/warp_fig4_degree"
    series "$D/model_vs_warp" "Model against hardware warp ($dev), Figure 1's cases" model,warp --by-input \
        "$D/fig1_c" "$D/warp_fig1"
done
