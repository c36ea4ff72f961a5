#!/usr/bin/env bash
# `--trace FILE` of replay, shadow and bench writes a trace that follows the
# Chrome/Perfetto trace-event format (tests/tools/trace_check.py, written
# independently of the writer, with its negative controls) and holds one
# dispatch span per launch per step per simulated arm.
#
# usage: trace_cli_test.sh REDLINE PYTHON
set -euo pipefail
redline=$1 python=$2
check=$(dirname "$0")/trace_check.py
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$redline" capture --workload decode --layers 2 -o "$dir/decode.rlc" >/dev/null
launches=$("$redline" inspect "$dir/decode.rlc" --json |
  "$python" -c 'import json, sys; print(json.load(sys.stdin)["launch_count"])')

"$redline" shadow "$dir/decode.rlc" --arms eager,aql,pm4 --windows 30:2 \
  --trace "$dir/shadow.json" >/dev/null
# Three arms and, by default, aql and pm4 under two adversarial seeds and
# eager on the second executor.
"$python" "$check" --self-test "$dir/shadow.json" \
  --dispatches $((launches * 2 * 8)) \
  --processes "shadow: eager,shadow: aql,shadow: pm4,shadow: pm4~adv2,shadow: eager@isa"

"$redline" replay "$dir/decode.rlc" --route pm4 --repeat 3 \
  --trace "$dir/replay.json" >/dev/null
"$python" "$check" "$dir/replay.json" --dispatches $((launches * 3)) \
  --processes "replay: pm4" \
  --spans "run 0,admit,apply (bind + patch),publish (+ doorbell),wait"

"$redline" bench "$dir/decode.rlc" --arms aql --windows 30:2 --rounds 2 \
  --trace "$dir/bench.json" >/dev/null
"$python" "$check" "$dir/bench.json" --dispatches $((launches * 2 * 2)) \
  --processes "bench: aql"

# The adversarial interleaving runs dispatches concurrently: lanes keep the
# spans nested (eager, pm4 and eager@isa, all adversarial).
"$redline" shadow "$dir/decode.rlc" --arms eager,pm4 --windows 30:1 \
  --hazards adversarial --seed 3 --trace "$dir/adversarial.json" >/dev/null
"$python" "$check" "$dir/adversarial.json" --dispatches $((launches * 3))

# A trace path that names the input is refused before anything runs.
status=0
"$redline" shadow "$dir/decode.rlc" --trace "$dir/decode.rlc" \
  >/dev/null 2>&1 || status=$?
[[ $status -eq 2 ]] || { echo "FAIL: --trace INPUT exited $status, want 2"; exit 1; }
echo "trace_cli_test: shadow, replay and bench traces well-formed"
