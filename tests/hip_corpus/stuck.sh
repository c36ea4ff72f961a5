#!/bin/bash
# tests/hip_corpus/stuck.sh — stop means stop (docs/failure-semantics.md,
# "A kernel that never ends"): a kernel that spins forever ends every path
# within twice its bound.
#
#   stuck.sh REDLINE ARCH CAPTURE PROGRAM
#
# PROGRAM (stuck.hip) launches wait_flag, which spins until a flag is set
# and consumes it; `PROGRAM` launches it once (it ends), `PROGRAM 2` twice
# (the second spins). The capture of `PROGRAM` replays once; its second run
# on the same state spins. Each of these must end with exit 7 in less than
# twice its bound (BOUND_MS), measured here:
#   replay --repeat 2 --timeout-ms BOUND_MS, routes aql and pm4;
#   shadow --windows 0:2:0 --timeout-ms BOUND_MS (two windows at the
#     capture's one value; one arm, --adversarial-seeds 0: every arm waits
#     its own bound, one after the other);
#   run --timeout-ms BOUND_MS -- PROGRAM 2 (the summary names the kernel).
# Controls: `run -- PROGRAM` and one replay run end with exit 0, so the
# spin comes from the consumed flag, not from a kernel that never works.
set -u
redline=$1 arch=$2 capture=$3 program=$4
BOUND_MS=1000
failures=0
fail() { echo "stuck: $*" >&2; failures=$((failures + 1)); }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# expect_bounded EXIT NEEDLE CMD...: runs CMD, which must exit EXIT within
# 2 x BOUND_MS with NEEDLE in its output.
expect_bounded() {
  local want=$1 needle=$2
  shift 2
  local what="redline $2 ${*: -1}"
  echo "+ $*"
  local start out status took
  start=$(now_ms)
  out=$("$@" 2>&1)
  status=$?
  took=$(( $(now_ms) - start ))
  echo "$out" | tail -n 3
  echo "  -> exit $status after $took ms (bound $BOUND_MS ms)"
  [ "$status" -eq "$want" ] || fail "$what: exit $status, expected $want"
  [ "$took" -lt $((2 * BOUND_MS)) ] ||
    fail "$what: $took ms, more than twice the bound of $BOUND_MS ms"
  grep -qF -- "$needle" <<<"$out" || fail "$what: no '$needle' in the output"
}

rm -f "$capture"
echo "+ $redline run --processor $arch --capture $capture -- $program"
"$redline" run --processor "$arch" --capture "$capture" -- "$program" ||
  { echo "stuck: the capture run failed" >&2; exit 1; }
expect_bounded 0 "replays=1" "$redline" replay "$capture" --executor isa \
  --timeout-ms "$BOUND_MS"
for route in aql pm4; do
  expect_bounded 7 "expired" "$redline" replay "$capture" --executor isa \
    --route "$route" --repeat 2 --timeout-ms "$BOUND_MS"
done
expect_bounded 7 "state=quarantined" "$redline" shadow "$capture" \
  --executor isa --arms aql --adversarial-seeds 0 --windows 0:2:0 \
  --timeout-ms "$BOUND_MS"
expect_bounded 0 "stuck: PASS" "$redline" run --processor "$arch" \
  --timeout-ms "$BOUND_MS" -- "$program" 1
expect_bounded 7 "kernel wait_flag made no progress for $BOUND_MS ms (0 of 1 work-groups done) and was STOPPED" \
  "$redline" run --processor "$arch" --timeout-ms "$BOUND_MS" -- "$program" 2
if [ "$failures" -ne 0 ]; then
  echo "stuck: $failures check(s) failed" >&2
  exit 1
fi
echo "stuck: every path ended within twice its bound"
