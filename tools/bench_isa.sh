#!/usr/bin/env bash
# tools/bench_isa.sh — the ISA executor's throughput table of
# docs/BENCHMARKS.md (issue 33 item 6), printed as markdown on stdout:
# wave-instructions per CPU second and per second of device busy time
# (wall clock) of `redline bench --executor isa --arms eager` on
#   decode     the decode workload capture (56 launches, 3 rounds),
#   verify     the verify workload, 2 layers, captured on the ISA executor
#              (3 windows of 16 steps),
#   corpus     HIP corpus programs captured by `redline run` (softmax,
#              reduce, and gemm: the tiled f32 matrix multiply with 16x16
#              LDS tiles), when the build has them (RL_HIP_CORPUS=ON),
# each with the checks on (the defaults: cache model strict, hazard
# verdicts) and off (--cache-model off --no-hazard-check), medians of RUNS
# runs. CPU = user + system time of the whole process (/usr/bin/time):
# loading the capture, the engine and the replay are included, and it is
# the figure a loaded machine distorts least; wall = the device's busy time
# as the bench prints it (descheduled time included).
#
# Usage: tools/bench_isa.sh BUILD_DIR       (called by tools/bench.sh)
#        RUNS=N        runs per row (3)
#        THREADS=N     host threads per dispatch (`redline bench
#                      --sim-threads N`, docs/cache-model.md "Work-groups in
#                      parallel"; default 1, so rows compare per core)
#        CORPUS=DIR    the gfx1100 HIP corpus programs (default
#                      BUILD_DIR/tests/hip_corpus/gfx1100; rows of programs
#                      not there are left out)
#        ROWS=LIST     some of decode,verify,corpus (default all three)
#        PROFILE=1     adds the top functions of a perf profile of the
#                      verify row (perf record -e cpu-clock), when perf
#                      works on this machine
set -euo pipefail
BUILD=${1:?usage: tools/bench_isa.sh BUILD_DIR}
RUNS=${RUNS:-3}
THREADS=${THREADS:-1}
PROFILE=${PROFILE:-0}
CORPUS=${CORPUS:-$BUILD/tests/hip_corpus/gfx1100}
ROWS=",${ROWS:-decode,verify,corpus},"
R="$BUILD/tools/redline"
if ! [[ $THREADS =~ ^[1-9][0-9]*$ ]]; then
  echo "tools/bench_isa.sh: THREADS=$THREADS: not a positive thread count" >&2
  exit 2
fi
[ -x "$R" ] || { echo "tools/bench_isa.sh: $R: not built" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

rows=()
if [[ $ROWS == *,decode,* ]]; then
  "$R" capture --workload decode -o "$W/decode.rlc" >/dev/null 2>&1
  rows+=("decode|decode workload (56 launches)|$W/decode.rlc|--rounds 3")
fi
if [[ $ROWS == *,verify,* || $PROFILE == 1 ]]; then
  "$R" capture --workload verify --config layers=2 --executor isa \
    -o "$W/verify.rlc" >/dev/null 2>&1
fi
if [[ $ROWS == *,verify,* ]]; then
  rows+=("verify|verify workload, 2 layers|$W/verify.rlc|--rounds 1 --windows 8176:3:16")
fi
for p in softmax reduce gemm; do
  [[ $ROWS == *,corpus,* ]] || break
  exe="$CORPUS/$p"
  [ -x "$exe" ] || continue
  if "$R" run --processor gfx1100 --capture "$W/$p.rlc" -- "$exe" >/dev/null 2>&1; then
    rows+=("$p|HIP corpus $p (\`redline run --capture\`)|$W/$p.rlc|--rounds 100")
  fi
done

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| program | checks | threads | wave-instructions per run | CPU s median (runs) | M wave-instructions / CPU s | M wave-instructions / s of device busy time (wall) |"
echo "|---|---|---:|---:|---|---:|---:|"
for row in "${rows[@]}"; do
  IFS='|' read -r name label file args <<<"$row"
  for checks in on off; do
    extra=""
    [ "$checks" = off ] && extra="--cache-model off --no-hazard-check"
    : >"$W/cpu" ; : >"$W/busy"
    waves=0
    for _ in $(seq "$RUNS"); do
      # shellcheck disable=SC2086
      /usr/bin/time -o "$W/time" -f '%U %S' "$R" bench "$file" --executor isa \
        --arms eager --sim-threads "$THREADS" $args $extra >"$W/out" 2>&1
      awk '{ print $1 + $2 }' "$W/time" >>"$W/cpu"
      line=$(grep -m1 'M wave-instructions/s per core' "$W/out")
      # "isa, M wave-instructions/s per core: eager 21.2 (24343430 in 1147.9 ms busy)"
      waves=$(sed -E 's/.*\(([0-9]+) in .*/\1/' <<<"$line")
      sed -E 's/.*: eager ([0-9.]+).*/\1/' <<<"$line" >>"$W/busy"
    done
    cpu=$(median <"$W/cpu")
    printf '| %s | %s | %s | %s | %s (%s) | %.1f | %s |\n' "$label" "$checks" "$THREADS" \
      "$waves" "$cpu" "$(sort -g "$W/cpu" | paste -sd, - | sed 's/,/, /g')" \
      "$(awk -v w="$waves" -v c="$cpu" 'BEGIN { print w / c / 1e6 }')" \
      "$(median <"$W/busy")"
  done
done

if [ "$PROFILE" = 1 ] && perf record -q -e cpu-clock -o "$W/perf.data" -- true >/dev/null 2>&1; then
  perf record -q -e cpu-clock -o "$W/perf.data" -- "$R" bench "$W/verify.rlc" \
    --executor isa --arms eager --rounds 1 --windows 8176:3:16 >/dev/null 2>&1
  echo
  echo "Top functions of the verify row, checks on (\`perf record -e cpu-clock\`, share of the"
  echo "process's samples, self time):"
  echo
  echo '```text'
  perf report -q -i "$W/perf.data" --no-children --sort symbol 2>/dev/null |
    awk '/^ +[0-9]/ && n < 15 { sub(/ +- +- *$/, ""); print; ++n }' || true
  echo '```'
fi
