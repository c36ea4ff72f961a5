#!/bin/sh
# `redline shadow --device` and `redline bench --device` through the
# stand-ins (tests/shadow_runtimes.cmake): ROCr is the HSA stand-in
# (REDLINE_HSA_LIBRARY), libdrm_amdgpu the drm stand-in (REDLINE_DRM_LIBRARY,
# the render node an empty file made here), HIP redline's runtime over the
# simulator (REDLINE_HIP_LIBRARY). Every device runs the simulator behind
# the real API, so each arm must be byte-identical with the sim reference.
# usage: shadow_device_test.sh REDLINE CASE
#   rocr   every arm on rocr (eager, recorded, aql, pm4, pm4-relay) plus hip,
#          hipgraph and the sim reference: PASS, the devices in the route
#          proof, one graph instantiation and node updates, nothing left
#          allocated in ROCr (the stand-in's REDLINE_STANDIN_REPORT), also after an
#          arm was quarantined; --no-sim-reference drops the sim arm.
#   drm    the drm route, hip and hipgraph on drm plus sim; the arms drm
#          cannot run are refused (exit 2).
#   corrupt  the negative control: the HSA stand-in corrupts one byte of one
#          dispatch's output (REDLINE_STANDIN_CORRUPT_DISPATCH): exit 1, the
#          verdict names the rocr arm(s) differing from sim, the sim and hip
#          arms stay clean.
#   bench  `redline bench --device rocr --arms hip,hipgraph,aql,pm4`.
set -u
redline=$1
case_name=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/rl_shadow_device.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
: >"$dir/renderD128"
REDLINE_DRM_RENDER_NODE="$dir/renderD128"
export REDLINE_DRM_RENDER_NODE

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout" >&2; cat "$dir/out.txt" >&2 2>/dev/null
  echo "--- stderr" >&2; cat "$dir/err.txt" >&2 2>/dev/null
  exit 1
}

run() {
  expected=$1
  shift
  "$redline" "$@" >"$dir/out.txt" 2>"$dir/err.txt"
  code=$?
  [ "$code" -eq "$expected" ] || fail "redline $* exited $code, expected $expected"
}

expect_out() {
  grep -qF -- "$1" "$dir/out.txt" || fail "stdout lacks: $1"
}

# json_check PYTHON: asserts on the JSON report r.json (r is the document,
# arms maps arm name to its object).
json_check() {
  python3 -c "import json, sys
r = json.load(open(sys.argv[1]))
arms = {a['arm']: a for a in r['arms']}
$1" "$dir/r.json" || fail "JSON report: $1"
}

run 0 capture --workload decode -o "$dir/d.rlc"
case "$case_name" in
  rocr)
    # The stand-in's record: no API misuse, no memory freed while a queue
    # could still reach it, nothing left allocated at the last
    # hsa_shut_down (its negative control: rocr_standin_test).
    REDLINE_STANDIN_REPORT="$dir/standin.txt"
    export REDLINE_STANDIN_REPORT
    # The default arms on rocr: eager,recorded,aql,pm4,pm4-relay,hip,hipgraph.
    run 0 shadow "$dir/d.rlc" --device rocr --windows 30:4 --json "$dir/r.json"
    expect_out "shadow: PASS (8 arms x 4 windows"
    grep -qx "errors 0" "$dir/standin.txt" &&
      grep -qx "live_at_shutdown 0" "$dir/standin.txt" ||
      fail "stand-in misuse record: $(cat "$dir/standin.txt")"
    json_check "assert r['reference'] == 'sim', r['reference']
for name in ('eager', 'recorded', 'aql', 'pm4', 'pm4-relay'):
    assert arms[name]['proof']['device'] == 'rocr', name
for name in ('hip', 'hipgraph'):
    assert arms[name]['proof']['device'] == 'hip', name
assert arms['sim']['proof']['device'] == 'sim'
g = arms['hipgraph']['proof']
assert g['instantiations'] == 1 and g['node_updates'] >= 3, g
assert g['replay_count'] == 4, g"
    grep -q "^arm hipgraph .*\[1 instantiation, [0-9]* node updates over 4 windows" \
      "$dir/out.txt" || fail "the hipgraph proof line"
    # The one-instantiation check's control: the hipgraph arm rebuilding
    # its graph every window (REDLINE_TEST_FAULT=graph-rebuild) still
    # computes the same bytes but fails its route proof.
    REDLINE_TEST_FAULT=graph-rebuild
    export REDLINE_TEST_FAULT
    run 1 shadow "$dir/d.rlc" --device rocr --windows 30:3 --arms eager,hipgraph
    expect_out "shadow: FAIL (arm hipgraph: route proof: 3 graph instantiations over 3 windows, expected 1"
    unset REDLINE_TEST_FAULT
    # A queue that never completes packet 3 (the stand-in's hang switch):
    # the arm is quarantined (exit 7) and still releases its memory.
    REDLINE_STANDIN_HANG_PACKET=3
    export REDLINE_STANDIN_HANG_PACKET
    run 7 shadow "$dir/d.rlc" --device rocr --windows 30:2 --arms eager,aql \
      --timeout-ms 300
    unset REDLINE_STANDIN_HANG_PACKET
    expect_out "shadow: FAIL (arm eager: window 0 (pos=30): launch 3"
    grep -qx "errors 0" "$dir/standin.txt" &&
      grep -qx "frees_while_busy 0" "$dir/standin.txt" &&
      grep -qx "live_at_shutdown 0" "$dir/standin.txt" ||
      fail "stand-in misuse record: $(cat "$dir/standin.txt")"
    # The same without the simulated reference: eager is the reference.
    run 0 shadow "$dir/d.rlc" --device rocr --windows 30:2 --arms eager,aql \
      --no-sim-reference
    expect_out "shadow: PASS (2 arms x 2 windows"
    # No adversarial passes on a real device, a sim run keeps them.
    run 0 shadow "$dir/d.rlc" --device sim --windows 30:2 --arms eager,aql
    expect_out "shadow: PASS (4 arms x 2 windows"
    run 2 shadow "$dir/d.rlc" --device gpu0
    ;;
  drm)
    run 0 shadow "$dir/d.rlc" --device drm --windows 30:3 \
      --arms drm,hip,hipgraph --json "$dir/r.json"
    expect_out "shadow: PASS (4 arms x 3 windows"
    json_check "assert r['reference'] == 'sim'
assert arms['drm']['proof']['device'] == 'drm'
assert arms['sim']['proof']['device'] == 'sim'"
    # By default the drm device runs route drm, HIP's arms and sim.
    run 0 shadow "$dir/d.rlc" --device drm --windows 30:2
    expect_out "shadow: PASS (4 arms x 2 windows"
    run 0 shadow "$dir/d.rlc" --device drm --windows 30:2 --arms drm
    expect_out "shadow: PASS (2 arms x 2 windows"
    run 2 shadow "$dir/d.rlc" --device drm --arms aql
    grep -q "arm aql cannot run on device drm" "$dir/err.txt" ||
      fail "the refusal names the arm"
    ;;
  corrupt)
    REDLINE_STANDIN_CORRUPT_DISPATCH=${3:-1}
    export REDLINE_STANDIN_CORRUPT_DISPATCH
    run 1 shadow "$dir/d.rlc" --device rocr --windows 30:3 \
      --arms eager,aql,pm4,hip --json "$dir/r.json"
    grep -q "corrupted dispatch" "$dir/err.txt" || fail "nothing corrupted"
    expect_out "differ from sim: "
    verdict=$(grep '^shadow: FAIL (' "$dir/out.txt")
    case $verdict in
      *"(rocr)"*) ;;
      *) fail "the verdict names no rocr arm: $verdict" ;;
    esac
    case $verdict in
      *"hip (hip)"*|*"sim (sim)"*) fail "a clean arm named: $verdict" ;;
    esac
    json_check "assert not arms['sim']['diverged'] and not arms['hip']['diverged']
bad = [n for n in ('eager', 'aql', 'pm4') if arms[n]['diverged']]
assert bad, 'no rocr arm diverged'"
    # Control of the control: the same run without the corruption passes.
    unset REDLINE_STANDIN_CORRUPT_DISPATCH
    run 0 shadow "$dir/d.rlc" --device rocr --windows 30:3 --arms eager,aql,pm4,hip
    ;;
  bench)
    run 0 bench "$dir/d.rlc" --device rocr --arms hip,hipgraph,aql,pm4 \
      --rounds 2 --windows 30:3
    expect_out "bench: PASS"
    expect_out "route=aql device=rocr replays=6 "
    expect_out "route=pm4 device=rocr replays=6 "
    expect_out "route=hipgraph device=hip replays=6 "
    expect_out "route=hip device=hip "
    # The same arms are bench's default on rocr.
    run 0 bench "$dir/d.rlc" --device rocr --rounds 1 --windows 30:2
    expect_out "route=hipgraph device=hip replays=2 "
    expect_out "route=pm4 device=rocr replays=2 "
    ;;
  *)
    fail "unknown case $case_name"
    ;;
esac
exit 0
