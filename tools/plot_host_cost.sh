#!/usr/bin/env bash
# Draws host_cost_bench's tables (tests/bench/host_cost_bench.c) as SVG with
# gnuplot: host CPU per step and simulator cost per dispatch against the
# launch count, per route, for the decode workload (every parameter moving)
# and for fixed dynamic sites. tools/bench.sh calls it with the bench's
# output; any file holding those Markdown tables works (docs/BENCHMARKS.md).
#
# usage: tools/plot_host_cost.sh TABLES OUTDIR
#   writes OUTDIR/host-cost.svg and OUTDIR/sim-cost.svg
set -euo pipefail
tables=$1 outdir=$2
mkdir -p "$outdir"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# One data file per (table, route): launches, host CPU median (µs), sim
# µs/dispatch median. Rows: "| 4 layers: 56 | ... | pm4 | wall | cpu | ..."
# in the decode table, "| 10 | ... | pm4 | ..." in the fixed-sites table.
awk -F'|' -v dir="$dir" '
  /^### Decode workload/ { table = "decode" }
  /^### Fixed dynamic sites/ { table = "fixed" }
  table != "" && NF >= 10 && ($4 ~ /^ *(pm4|aql) *$/) {
    launches = $2; sub(/.*: */, "", launches); gsub(/ /, "", launches)
    route = $4; gsub(/ /, "", route)
    split($6, cpu, "/"); split($9, sim, "/")
    gsub(/ /, "", cpu[1]); gsub(/ /, "", sim[1])
    print launches, cpu[1], sim[1] >> (dir "/" table "-" route ".dat")
  }' "$tables"
for f in decode-pm4 decode-aql fixed-pm4 fixed-aql; do
  [ -s "$dir/$f.dat" ] || { echo "plot_host_cost.sh: no $f rows in $tables" >&2; exit 1; }
done

plot() {  # plot FILE TITLE YLABEL COLUMN
  gnuplot <<GNUPLOT
set terminal svg size 720,420 dynamic font "sans,12"
set output "$outdir/$1"
set termoption noenhanced
set title "$2\nhost_cost_bench, simulated device, no-op executor"
set xlabel "launches per step"
set ylabel "$3"
set logscale xy
set key bottom right
set grid
plot "$dir/decode-pm4.dat" using 1:$4 with linespoints title "pm4, decode (every parameter moving)", \
     "$dir/decode-aql.dat" using 1:$4 with linespoints title "aql, decode", \
     "$dir/fixed-pm4.dat" using 1:$4 with linespoints title "pm4, fixed dynamic sites", \
     "$dir/fixed-aql.dat" using 1:$4 with linespoints title "aql, fixed dynamic sites"
GNUPLOT
}
plot host-cost.svg "Host CPU per step (admit + apply + publish)" "µs per step, CPU median" 2
plot sim-cost.svg "Simulator cost per dispatch" "µs per dispatch, median" 3
echo "plot_host_cost.sh: wrote $outdir/host-cost.svg and $outdir/sim-cost.svg"
