#!/usr/bin/env bash
# Draws host_cost_bench's results (tests/bench/host_cost_bench.c, written
# with --json FILE) as SVG with gnuplot: host CPU per step and simulator
# cost per dispatch against the launch count, per route, for the decode
# workload (every parameter moving) and for fixed dynamic sites.
# tools/bench.sh calls it with the JSON of the run it put in
# docs/BENCHMARKS.md.
#
# usage: tools/plot_host_cost.sh BENCH.json OUTDIR
#   writes OUTDIR/host-cost.svg and OUTDIR/sim-cost.svg
set -euo pipefail
json=$1 outdir=$2
mkdir -p "$outdir"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# One data file per (table, route): launches, host CPU median (µs), sim
# µs/dispatch median.
python3 - "$json" "$dir" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
if data.get("bench") != "host_cost_bench":
    sys.exit(f"plot_host_cost.sh: {sys.argv[1]} is not host_cost_bench JSON")
for row in data["rows"]:
    name = f'{sys.argv[2]}/{row["table"]}-{row["route"]}.dat'
    with open(name, "a") as out:
        print(row["launches"], row["host_cpu_median_us"],
              row["sim_us_per_dispatch_median"], file=out)
PY
for f in decode-pm4 decode-aql fixed-pm4 fixed-aql; do
  [ -s "$dir/$f.dat" ] || { echo "plot_host_cost.sh: no $f rows in $json" >&2; exit 1; }
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
