#!/usr/bin/env bash
# tools/reliability_sweep.sh [-n N] [-b BUILD] [-o REPORT.md] — the
# reliability sweep: damaged captures (flipped, truncated, re-signed,
# field-mutated; tests/tools/capture_mutate.c) fed to `redline inspect`,
# `redline replay` (routes aql and pm4) and `redline shadow`, each under a
# hard time limit. Every run must end in a documented exit code (0-8) with
# no signal, no sanitizer report and no hang; the script prints one table
# of exit codes per mode and command and fails on the first violation.
# Then the refusals (issue 25): fixed cases that must end in one exact exit
# code — a capture declaring 20,000,000 windows (3), reports onto
# /dev/full or a closed stdout (3), `run` with a bad --window (2, the old
# capture untouched).
#
#   -n N      mutations per mode (default 100)
#   -b BUILD  build tree holding tools/redline and tests/capture_mutate
#             (default build; use build-asan to run under ASan+UBSan)
#   -o FILE   also write the table as Markdown to FILE
# Seeds are the mutation index, so a failure names a reproducible case:
#   build/tests/capture_mutate SEED.rlc out.rlc MODE INDEX
set -euo pipefail
cd "$(dirname "$0")/.."
N=100 BUILD=build REPORT=""
while getopts "n:b:o:" opt; do
  case $opt in
    n) N=$OPTARG ;; b) BUILD=$OPTARG ;; o) REPORT=$OPTARG ;;
    *) sed -n '2,16p' "$0" >&2; exit 2 ;;
  esac
done
REDLINE=$BUILD/tools/redline
MUTATE=$BUILD/tests/capture_mutate
for exe in "$REDLINE" "$MUTATE"; do
  [ -x "$exe" ] || { echo "reliability_sweep: $exe not built" >&2; exit 2; }
done
WORK=$(mktemp -d /tmp/redline-sweep.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

"$REDLINE" capture --workload vecchain --param pos=3 -o "$WORK/vecchain.rlc" 2>/dev/null
"$REDLINE" capture --workload decode --param pos=5 -o "$WORK/decode.rlc" 2>/dev/null

declare -A COUNT
violations=0 runs=0
start=$(date +%s)

# run NAME ARGS... — one command with a 60 s limit; records its exit code.
run() {
  local name=$1; shift
  local code=0
  timeout -s KILL 60 "$REDLINE" "$@" >"$WORK/out" 2>"$WORK/err" || code=$?
  runs=$((runs + 1))
  local bad=""
  if [ "$code" -eq 137 ]; then bad="hang (killed after 60 s)";
  elif [ "$code" -gt 8 ]; then bad="exit $code";
  elif grep -q "Sanitizer\|runtime error:" "$WORK/err"; then bad="sanitizer report"; fi
  if [ -n "$bad" ]; then
    violations=$((violations + 1))
    echo "VIOLATION: $mode seed $i ($seed_name): redline $name: $bad" >&2
    head -5 "$WORK/err" >&2
    cp "$WORK/m.rlc" "$WORK/../redline-sweep-violation-$mode-$i.rlc" 2>/dev/null || true
  fi
  COUNT["$mode,$name,$code"]=$(( ${COUNT["$mode,$name,$code"]:-0} + 1 ))
}

MODES=(flip truncate resign field)
for mode in "${MODES[@]}"; do
  for i in $(seq 1 "$N"); do
    seed_name=$([ $((i % 2)) -eq 0 ] && echo decode || echo vecchain)
    code=0
    "$MUTATE" "$WORK/$seed_name.rlc" "$WORK/m.rlc" "$mode" "$i" 2>/dev/null || code=$?
    if [ "$code" -eq 3 ]; then
      COUNT["$mode,mutate,refused"]=$(( ${COUNT["$mode,mutate,refused"]:-0} + 1 ))
      continue
    fi
    [ "$code" -eq 0 ] || { echo "capture_mutate failed ($code)" >&2; exit 2; }
    run inspect inspect "$WORK/m.rlc"
    run replay-aql replay "$WORK/m.rlc" --route aql --timeout-ms 5000
    run replay-pm4 replay "$WORK/m.rlc" --route pm4 --timeout-ms 5000
    run shadow shadow "$WORK/m.rlc" --arms eager,aql,pm4 --windows 3:2 --timeout-ms 5000
  done
done

# expect NAME CODE ARGS... — one refusal that must exit exactly CODE
# (stdout redirected by the caller).
refusals=0
expect() {
  local name=$1 want=$2 code=0
  shift 2
  timeout -s KILL 60 "$REDLINE" "$@" 2>"$WORK/err" || code=$?
  runs=$((runs + 1)) refusals=$((refusals + 1))
  if [ "$code" -ne "$want" ]; then
    violations=$((violations + 1))
    echo "VIOLATION: refusal $name: exit $code, expected $want" >&2
    head -5 "$WORK/err" >&2
  fi
  COUNT["refusal,$name,$code"]=$(( ${COUNT["refusal,$name,$code"]:-0} + 1 ))
}
mode=refusal i=0 seed_name=fixed
expect windows-20M 3 shadow "$WORK/vecchain.rlc" --arms eager \
  --windows 3:20000000:0 >/dev/null
expect inspect-full 3 inspect "$WORK/vecchain.rlc" --launches >/dev/full
expect replay-json-full 3 replay "$WORK/vecchain.rlc" --json >/dev/full
expect shadow-full 3 shadow "$WORK/vecchain.rlc" --arms eager,aql >/dev/full
expect inspect-closed 3 inspect "$WORK/vecchain.rlc" >&-
printf 'old\n' >"$WORK/old.rlc"
expect run-bad-window 2 run --capture "$WORK/old.rlc" --window x -- true \
  >/dev/null
[ "$(cat "$WORK/old.rlc")" = old ] || {
  violations=$((violations + 1))
  echo "VIOLATION: run --window x touched the old capture" >&2
}
elapsed=$(( $(date +%s) - start ))

table() {
  echo "| mode | command | exit codes (count) |"
  echo "|---|---|---|"
  for mode in "${MODES[@]}" refusal; do
    for name in mutate inspect replay-aql replay-pm4 shadow windows-20M \
        inspect-full replay-json-full shadow-full inspect-closed \
        run-bad-window; do
      local cells=()
      for key in "${!COUNT[@]}"; do
        IFS=, read -r m n c <<<"$key"
        [ "$m" = "$mode" ] && [ "$n" = "$name" ] && cells+=("$c: ${COUNT[$key]}")
      done
      [ ${#cells[@]} -eq 0 ] && continue
      echo "| $mode | $name | $(printf '%s\n' "${cells[@]}" | sort -n | paste -sd';' - | sed 's/;/, /g') |"
    done
  done
  echo
  echo "$N mutations per mode, $runs runs, $violations violations, ${elapsed} s ($BUILD)."
}
table
[ -z "$REPORT" ] || table >"$REPORT"
[ "$violations" -eq 0 ]
