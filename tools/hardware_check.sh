#!/bin/sh
# tools/hardware_check.sh — the hardware validation kit (docs/hardware.md).
# Run on a machine with a gfx1100, gfx1151 or gfx1201 and ROCm installed:
#   tools/hardware_check.sh BUILD_DIR [OUT.json]
# Produces one JSON report: `redline doctor --json`, a vecchain capture on
# every device that opens (rocr, hip), replays of it (sim, rocr, drm) whose
# region hashes the kit compares itself (every replay must hash every
# region as the sim's aql replay does), a shadow over 12 windows with every
# redline arm on the rocr device (eager, recorded, aql, pm4, pm4-relay) plus
# hip, hipgraph and the simulated reference arm sim, one with the drm route
# on the drm device (plus hip, hipgraph, sim), and a bench of hip, hipgraph,
# aql and pm4 on the rocr device with its route proof.
# Every step is recorded with its exit code and output; a failing step does
# not stop the kit. The last line of stdout is the one verdict:
#   hardware_check: PASS (N steps; replay hashes: sim = rocr = drm)
#   hardware_check: FAIL (<failed steps>)
# and the kit exits 1 unless PASS (the report is written either way). Nothing
# here was run on hardware by its authors: these paths were exercised only
# through the CI stand-ins (tests/standins/; the tests
# hardware_check_standins and hardware_check_standins_corrupt in
# tests/shadow_runtimes.cmake run this script against them).
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
failed_names=""
count=0
step() {  # step NAME COMMAND...
  name=$1; shift
  "$@" > "$work/$name.out" 2>&1
  code=$?
  count=$((count + 1))
  if [ "$code" -ne 0 ]; then
    failed=$((failed + 1))
    failed_names="$failed_names $name"
  fi
  text=$(json_string < "$work/$name.out")
  cmd=$(printf '%s ' "$@" | json_string)
  steps="$steps${steps:+,}{\"step\":\"$name\",\"exit\":$code,\"command\":$cmd,\"output\":$text}"
}

step doctor "$redline" doctor --json
step capture_sim "$redline" capture --workload vecchain --target "$processor" -o "$work/sim.rlc"
step capture_rocr "$redline" capture --workload vecchain --target "$processor" --device rocr -o "$work/rocr.rlc"
step capture_hip "$redline" capture --workload vecchain --target "$processor" --device hip -o "$work/hip.rlc"
for route in aql pm4; do
  step "replay_sim_$route" "$redline" replay "$work/sim.rlc" --route $route --json
  step "replay_rocr_$route" "$redline" replay "$work/sim.rlc" --device rocr --route $route --json
done
step replay_drm_drm "$redline" replay "$work/sim.rlc" --device drm --route drm --json

# compare_hashes: every replay's region hashes against the sim's aql replay
# (the reference); prints one line per replay and exits 1 on any difference
# or a replay without hashes.
compare_hashes() {
  python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
def regions(name):
    try:
        with open(os.path.join(work, name + ".out")) as f:
            text = f.read()
        doc = json.JSONDecoder().raw_decode(text[text.index("{"):])[0]
        return {r["name"]: r["xxh3_128"] for r in doc["regions"]}
    except (OSError, ValueError, KeyError) as e:
        return "no region hashes (%s)" % type(e).__name__
reference = regions("replay_sim_aql")
if isinstance(reference, str):
    print("replay_sim_aql: %s" % reference)
    sys.exit(1)
bad = 0
for name in ("replay_sim_pm4", "replay_rocr_aql", "replay_rocr_pm4",
             "replay_drm_drm"):
    got = regions(name)
    if isinstance(got, str):
        print("%s: %s" % (name, got))
        bad += 1
        continue
    differ = sorted(r for r in reference if got.get(r) != reference[r])
    if differ or set(got) != set(reference):
        print("%s: regions differ from replay_sim_aql: %s" %
              (name, ", ".join(differ) or "region sets"))
        bad += 1
    else:
        print("%s: %d regions equal to replay_sim_aql" % (name, len(got)))
sys.exit(1 if bad else 0)
PY
}
step compare_replay_hashes compare_hashes
step shadow "$redline" shadow "$work/sim.rlc" --device rocr \
  --arms eager,recorded,aql,pm4,pm4-relay,hip,hipgraph --windows 1:12 \
  --json "$work/shadow.json"
step shadow_drm "$redline" shadow "$work/sim.rlc" --device drm \
  --arms drm,hip,hipgraph --windows 1:12
step bench "$redline" bench "$work/sim.rlc" --device rocr \
  --arms hip,hipgraph,aql,pm4 --windows 1:12 --json "$work/bench.json"

{
  printf '{"redline_hardware_report":1,"processor":"%s","host":"%s","exercised_on_hardware_by_authors":false,"steps":[%s]' \
    "$processor" "$(uname -a | tr -d '"\\')" "$steps"
  for f in shadow bench; do
    if [ -s "$work/$f.json" ]; then printf ',"%s_json":' "$f"; cat "$work/$f.json"; fi
  done
  printf ',"verdict":"%s","failed_steps":"%s"}\n' \
    "$([ "$failed" -eq 0 ] && echo PASS || echo FAIL)" "$failed_names"
} > "$out"
echo "hardware_check: wrote $out"
if [ "$failed" -eq 0 ]; then
  echo "hardware_check: PASS ($count steps; replay hashes: sim = rocr = drm; shadow on rocr and drm byte-exact with the sim reference)"
else
  echo "hardware_check: FAIL ($failed of $count steps failed:$failed_names)"
fi
[ "$failed" -eq 0 ]
