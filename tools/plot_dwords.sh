#!/usr/bin/env bash
# Draws the stream size per dispatch by route and retention against the
# launch count of the decode workload (4 to 200 layers) as an SVG, with
# gnuplot, from `redline lower --stats --json`, and prints the table it drew
# (Markdown) on stdout.
#
# usage: tools/plot_dwords.sh BUILD_DIR OUT.svg [LAYERS...]
set -euo pipefail
build=$1 out=$2
shift 2
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(4 16 48 100 200)
redline=$build/tools/redline
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
stats() {  # stats CAPTURE ROUTE RETAIN-FLAG -> "dispatches dwords_per_dispatch"
  "$redline" lower "$1" --route "$2" $3 --stats --json | python3 -c '
import json, sys
s = json.load(sys.stdin)["stats"]
print(s["dispatches"], s["stream_bytes"] / 4 / s["dispatches"])'
}
printf '| layers | launches | aql | pm4 retained | pm4 not retained |\n|---|---|---|---|---|\n'
for n in "${layers[@]}"; do
  "$redline" capture --workload decode --layers "$n" --device none \
    -o "$dir/d$n.rlc" >/dev/null 2>&1
  read -r launches aql < <(stats "$dir/d$n.rlc" aql "")
  read -r _ retained < <(stats "$dir/d$n.rlc" pm4 --retain)
  read -r _ plain < <(stats "$dir/d$n.rlc" pm4 --no-retain)
  echo "$launches $aql $retained $plain" >>"$dir/data"
  printf '| %s | %s | %.1f | %.1f | %.1f |\n' "$n" "$launches" "$aql" "$retained" "$plain"
done
gnuplot <<GNUPLOT
set terminal svg size 720,420 dynamic font "sans,12"
set output "$out"
set termoption noenhanced
set title "Published stream per dispatch (decode workload, redline lower --stats)"
set xlabel "launches per step"
set ylabel "dwords per dispatch"
set logscale x
set key top right
set grid
plot "$dir/data" using 1:2 with linespoints title "aql (64-byte packets)", \
     "" using 1:3 with linespoints title "pm4, register state retained", \
     "" using 1:4 with linespoints title "pm4, not retained"
GNUPLOT
