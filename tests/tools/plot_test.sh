#!/usr/bin/env bash
# tools/plot_host_cost.sh draws the host-cost tables of docs/BENCHMARKS.md
# (gnuplot, SVG), and refuses a file without them (the negative control).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$root/tools/plot_host_cost.sh" "$root/docs/BENCHMARKS.md" "$dir" >/dev/null
for svg in host-cost sim-cost; do
  grep -q "<svg" "$dir/$svg.svg" || { echo "FAIL: $svg.svg is not an SVG"; exit 1; }
  # Four series: pm4 and aql, decode and fixed sites.
  n=$(grep -c "fixed dynamic sites\|decode" "$dir/$svg.svg" || true)
  [ "$n" -ge 4 ] || { echo "FAIL: $svg.svg has $n series titles"; exit 1; }
done
printf '# no tables here\n' >"$dir/empty.md"
if "$root/tools/plot_host_cost.sh" "$dir/empty.md" "$dir/out" 2>/dev/null; then
  echo "FAIL: a file without the tables was plotted"
  exit 1
fi
echo "plot_test: host-cost and sim-cost plots drawn; a file without tables refused"
