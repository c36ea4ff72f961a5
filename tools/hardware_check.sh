#!/bin/sh
# tools/hardware_check.sh — the hardware validation kit (docs/hardware.md).
# Run on a machine with a gfx1100, gfx1151 or gfx1201 and ROCm installed:
#   tools/hardware_check.sh BUILD_DIR [OUT.json]
# Produces one JSON report: `redline doctor --json`, a vecchain capture on
# every device that opens (rocr, hip), replays of it (sim, rocr, drm), a
# shadow run over 12 windows through eager, recorded, hip, hipgraph, aql and
# pm4, one through eager and drm, and a bench with its route proof.
# Every step is recorded with its exit code and output; a failing step does
# not stop the kit, but the kit exits 1 when any step failed (the report is
# written either way). Nothing here was run on hardware by its authors:
# these paths were exercised only through the CI stand-ins
# (tests/standins/; the test hardware_check_standins in
# tests/shadow_runtimes.cmake runs this script against them).
set -u
build=${1:?usage: hardware_check.sh BUILD_DIR [OUT.json]}
out=${2:-redline-hardware-report.json}
redline=$build/tools/redline
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
processor=$(rocminfo 2>/dev/null | grep -o 'gfx1[12][0-9][0-9]' | head -1)
processor=${processor:-gfx1100}

json_string() { python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))'; }

steps=""
failed=0
step() {  # step NAME COMMAND...
  name=$1; shift
  "$@" > "$work/$name.out" 2>&1
  code=$?
  [ "$code" -eq 0 ] || failed=$((failed + 1))
  text=$(json_string < "$work/$name.out")
  cmd=$(printf '%s ' "$@" | json_string)
  steps="$steps${steps:+,}{\"step\":\"$name\",\"exit\":$code,\"command\":$cmd,\"output\":$text}"
}

step doctor "$redline" doctor --json
step capture_sim "$redline" capture --workload vecchain --target "$processor" -o "$work/sim.rlc"
step capture_rocr "$redline" capture --workload vecchain --target "$processor" --device rocr -o "$work/rocr.rlc"
step capture_hip "$redline" capture --workload vecchain --target "$processor" --device hip -o "$work/hip.rlc"
for route in aql pm4; do
  step "replay_sim_$route" "$redline" replay "$work/sim.rlc" --route $route
  step "replay_rocr_$route" "$redline" replay "$work/sim.rlc" --device rocr --route $route
done
step replay_drm_drm "$redline" replay "$work/sim.rlc" --device drm --route drm
step shadow "$redline" shadow "$work/sim.rlc" --arms eager,recorded,hip,hipgraph,aql,pm4 --windows 1:12 --json "$work/shadow.json"
step shadow_drm "$redline" shadow "$work/sim.rlc" --arms eager,drm --windows 1:12
step bench "$redline" bench "$work/sim.rlc" --arms eager,aql,pm4 --windows 1:12 --json "$work/bench.json"

{
  printf '{"redline_hardware_report":1,"processor":"%s","host":"%s","exercised_on_hardware_by_authors":false,"steps":[%s]' \
    "$processor" "$(uname -a | tr -d '"\\')" "$steps"
  for f in shadow bench; do
    if [ -s "$work/$f.json" ]; then printf ',"%s_json":' "$f"; cat "$work/$f.json"; fi
  done
  printf '}\n'
} > "$out"
echo "hardware_check: wrote $out ($failed failed steps)"
[ "$failed" -eq 0 ]
