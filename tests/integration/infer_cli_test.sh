#!/bin/sh
# `redline infer` on step captures written by step_infer_test: the position
# bindings are inferred and the held-out step predicted (exit 0), inspect
# prints the pointer-offset binding and the admitted range, shadow passes
# at 8 later positions on every route, a position past the range is
# refused (exit 4), a held-out step
# that breaks the pattern is refused (exit 4, naming it), and a --positions
# list of the wrong length is a usage error (exit 2).
# Usage: infer_cli_test.sh REDLINE STEP_INFER_TEST WORKDIR
set -u
redline=$1
writer=$2
work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
"$writer" --write-steps "$work" || fail "writing the step captures"
s="$work/step0.rlc $work/step1.rlc $work/step2.rlc"

# shellcheck disable=SC2086
"$redline" infer $s "$work/step3.rlc" --positions 62,63,64,65 \
  -o "$work/merged.rlc" >"$work/out" 2>"$work/err"
code=$?
[ "$code" -eq 0 ] || fail "infer exit $code: $(cat "$work/err")"
grep -q "held-out step 3 (pos=65): predicted exactly" "$work/out" ||
  fail "no held-out verdict: $(cat "$work/out")"
grep -q "pos .*admitted \[0, 256), per step: 62 63 64 65" "$work/out" ||
  fail "no per-step values: $(cat "$work/out")"

"$redline" inspect "$work/merged.rlc" >"$work/inspect" 2>&1 ||
  fail "inspect: $(cat "$work/inspect")"
grep -q "offset in kv = 256\*pos" "$work/inspect" ||
  fail "inspect lacks the pointer-offset binding"
grep -q "pos .*admitted \[0, 256)" "$work/inspect" ||
  fail "inspect lacks the admitted range"
grep -q "grid.x = ceil((pos+1)/64)" "$work/inspect" ||
  fail "inspect lacks the grid binding"

# The 8 positions after the captured ones (the window infer adds) through
# the eager, recorded and retained arms: the KV rows land at 256 × pos on
# every route, byte-identical.
"$redline" shadow "$work/merged.rlc" --arms eager,recorded,aql,pm4,pm4-relay \
  >"$work/shadow" 2>&1 || fail "shadow: $(cat "$work/shadow")"
grep -q "shadow: PASS (.* x 8 windows x 2 regions" "$work/shadow" ||
  fail "shadow did not walk 8 windows: $(cat "$work/shadow")"
# A position past the KV buffer is outside the admitted range: exit 4.
"$redline" replay "$work/merged.rlc" --param pos=256 >"$work/out" 2>&1
code=$?
[ "$code" -eq 4 ] || fail "replay at pos=256: exit $code, expected 4"
grep -q "pos" "$work/out" || fail "the refusal does not name pos"

# shellcheck disable=SC2086
"$redline" infer $s "$work/step3_broken.rlc" --positions 62,63,64,65 \
  -o "$work/broken.rlc" >"$work/out" 2>"$work/err"
code=$?
[ "$code" -eq 4 ] || fail "broken held-out step: exit $code, expected 4"
grep -q "held-out step 3" "$work/err" || fail "refusal: $(cat "$work/err")"
[ ! -e "$work/broken.rlc" ] || fail "a refused inference wrote its output"

# shellcheck disable=SC2086
"$redline" infer $s --positions 1,2 -o "$work/x.rlc" >/dev/null 2>&1
code=$?
[ "$code" -eq 2 ] || fail "--positions of the wrong length: exit $code"
echo "infer_cli_test: ok"
