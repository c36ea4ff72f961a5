#!/bin/bash
# tests/integration/run_sim_options_test.sh REDLINE HIP_APP CODE_OBJECT —
# `redline run` passes the simulator options the other commands have
# (--hazards, --seed, --cache-model, --max-work-items, --max-dispatches) to
# the HIP runtime over the simulator (REDLINE_HIP_*, docs/hip-runtime.md),
# and refuses a bad value with exit 2 before the program starts.
# The budget is the check that the option reaches the simulator: hip_app
# passes by default and fails with --max-work-items 1 (its launches have
# more work-items), so a run that ignored the option would pass.
set -u
redline=$1 app=$2 co=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/rl_run_sim.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; sed 's/^/  /' "$dir/err" >&2; failures=$((failures + 1)); }
run() { "$redline" run "$@" >"$dir/out" 2>"$dir/err"; }

run -- "$app" "$co" || fail "default run: exit $?"
run --hazards adversarial --seed 7 -- "$app" "$co" ||
  fail "--hazards adversarial --seed 7: exit $?"
run --cache-model report -- "$app" "$co" || fail "--cache-model report: exit $?"
run --max-work-items 1 -- "$app" "$co" && fail "--max-work-items 1 passed"
grep -q "work-items" "$dir/err" ||
  fail "--max-work-items 1: no message naming the work-items"
run --max-work-items 16777216 --max-dispatches 65536 -- "$app" "$co" ||
  fail "the default budgets given explicitly: exit $?"
# The suffixes replay and shadow take (16M = 2^24, 64K = 65536).
run --max-work-items 16M --max-dispatches 64K -- "$app" "$co" ||
  fail "the default budgets with K/M suffixes: exit $?"

# Bad values: usage errors (exit 2) naming the option; the program never ran.
for args in "--hazards sometimes" "--cache-model lax" "--seed -1" \
    "--max-work-items 0" "--max-dispatches 4294967296" "--max-work-items 16Q" \
    "--max-dispatches 4G"; do
  # shellcheck disable=SC2086
  run $args -- "$app" "$co"
  code=$?
  [ "$code" -eq 2 ] || fail "$args: exit $code, expected 2"
  grep -q "run: ${args%% *}" "$dir/err" || fail "$args: no message naming it"
  [ -s "$dir/out" ] && fail "$args: the program ran"
done
[ "$failures" -eq 0 ] && echo "run simulator options: PASS"
exit $((failures > 0))
