#!/bin/bash
# tests/hip_corpus/threads.sh — the simulator's verdicts do not depend on how
# many host threads run a dispatch's work-groups (docs/cache-model.md,
# "Work-groups in parallel"):
#
#   threads.sh REDLINE WORKDIR CAPTURE...
#
# CAPTURE is a capture file, or workload:NAME[:LAYERS] (captured into WORKDIR
# with `redline capture --workload NAME [--layers LAYERS]`). Each capture is replayed on the ISA
# executor with the cache model in report mode, twice: on the aql route,
# and on the pm4 route with every ACQUIRE_MEM dropped (REDLINE_TEST_FAULT=
# nop-acquire: stale reads and RAW (no acquire) findings to compare), with
# REDLINE_SIM_THREADS=1, 2 and 4. The region hashes, the cache model's
# counts, the effects audit, the hazard count, the digest of every finding
# in order and the first findings must be the same for every count, and at
# least one replay must have findings.
# Negative control: with findings reported in the order threads completed
# them (REDLINE_TEST_FAULT=parallel-completion-order), some replay's
# 2-thread output must differ from its 1-thread output.
set -u
redline=$1 workdir=$2
shift 2
mkdir -p "$workdir"

# replay CAPTURE ROUTE FAULT THREADS: the verdict lines (no timings).
replay() {
  REDLINE_TEST_FAULT=$3 REDLINE_SIM_THREADS=$4 "$redline" replay "$1" \
    --route "$2" --executor isa --cache-model report --timeout-ms 3600000 \
    2>&1 | grep -v '^proof \|^counters '
}

captures=()
for spec in "$@"; do
  case $spec in
    workload:*)
      name=${spec#workload:} layers=()
      if [[ $name == *:* ]]; then
        layers=(--layers "${name#*:}") name=${name%%:*}
      fi
      file=$workdir/$name.rlc
      "$redline" capture --workload "$name" "${layers[@]}" -o "$file" \
        >/dev/null || exit
      captures+=("$file") ;;
    *) captures+=("$spec") ;;
  esac
done

failed=0 findings=0 caught=0
for capture in "${captures[@]}"; do
  for case in "aql " "pm4 nop-acquire"; do
    set -- $case
    route=$1 fault=${2:-}
    one=$(replay "$capture" "$route" "$fault" 1)
    for threads in 2 4; do
      other=$(replay "$capture" "$route" "$fault" "$threads")
      if [ "$one" != "$other" ]; then
        echo "FAIL: $capture route $route fault '$fault': $threads threads differ from 1:" >&2
        diff <(echo "$one") <(echo "$other") | head -20 >&2
        failed=1
      fi
    done
    count=$(sed -n 's/^hazards \([0-9]*\)$/\1/p' <<<"$one")
    findings=$((findings + ${count:-0}))
    mutated=$(replay "$capture" "$route" "$fault${fault:+,}parallel-completion-order" 2)
    [ "$one" != "$mutated" ] && caught=$((caught + 1))
    echo "$(basename "$capture") $route${fault:+ ($fault)}: ${count:-0} findings, same with 1, 2 and 4 threads"
  done
done
if [ "$findings" -eq 0 ]; then
  echo "FAIL: no replay had a finding to compare" >&2
  failed=1
fi
if [ "$caught" -eq 0 ]; then
  echo "FAIL: negative control: findings in completion order went unnoticed" >&2
  failed=1
else
  echo "negative control: findings in completion order differ in $caught replays"
fi
exit $failed
