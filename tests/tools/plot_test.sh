#!/usr/bin/env bash
# tools/plot_host_cost.sh draws host_cost_bench's JSON (gnuplot, SVG): a
# short bench run (one decode depth, few steps) is plotted, and JSON that is
# not the bench's, or that lacks a series, is refused (negative controls).
#
# usage: plot_test.sh HOST_COST_BENCH KERNELS_DIR
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=$1 kernels=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bench" --kernels "$kernels" --steps 20 --layers 1 --json "$dir/bench.json" \
  >/dev/null
"$root/tools/plot_host_cost.sh" "$dir/bench.json" "$dir" >/dev/null
for svg in host-cost sim-cost; do
  grep -q "<svg" "$dir/$svg.svg" || { echo "FAIL: $svg.svg is not an SVG"; exit 1; }
  # Four series: pm4 and aql, decode and fixed sites.
  n=$(grep -c "fixed dynamic sites\|decode" "$dir/$svg.svg" || true)
  [ "$n" -ge 4 ] || { echo "FAIL: $svg.svg has $n series titles"; exit 1; }
done
printf '{"bench": "other", "rows": []}\n' >"$dir/other.json"
if "$root/tools/plot_host_cost.sh" "$dir/other.json" "$dir/out" 2>/dev/null; then
  echo "FAIL: JSON of another bench was plotted"
  exit 1
fi
python3 - "$dir/bench.json" "$dir/nofixed.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
data["rows"] = [r for r in data["rows"] if r["table"] != "fixed"]
json.dump(data, open(sys.argv[2], "w"))
PY
if "$root/tools/plot_host_cost.sh" "$dir/nofixed.json" "$dir/out" 2>/dev/null; then
  echo "FAIL: JSON without the fixed-sites rows was plotted"
  exit 1
fi
echo "plot_test: host-cost and sim-cost plots drawn from the bench's JSON;" \
     "foreign and incomplete JSON refused"
