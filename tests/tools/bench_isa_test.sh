#!/usr/bin/env bash
# tests/tools/bench_isa_test.sh BUILD_DIR — tools/bench_isa.sh prints the
# ISA throughput table: a decode row per checks setting with the
# wave-instruction count redline bench reported and a positive rate; it
# passes THREADS on (the threads column says it); it refuses a thread count
# that is not one and a build without redline (negative controls).
set -uo pipefail
BUILD=$1
SRC=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "bench_isa_test: $*" >&2; exit 1; }

out=$(ROWS=decode RUNS=1 "$SRC/tools/bench_isa.sh" "$BUILD") || fail "decode row: exit $?"
[ "$(grep -c '^| decode workload' <<<"$out")" = 2 ] || fail "want 2 decode rows: $out"
# | label | checks | threads | waves | cpu (runs) | M/CPU s | M/wall s |
awk -F'|' '/^\| decode workload/ {
  if ($5 + 0 <= 0 || $7 + 0 <= 0 || $8 + 0 <= 0 || $4 + 0 != 1) bad = 1; ++n }
  END { exit (bad || n != 2) }' <<<"$out" || fail "a decode row has a zero count or rate: $out"
grep -q '| on |' <<<"$out" && grep -q '| off |' <<<"$out" || fail "checks on and off: $out"

out=$(THREADS=2 ROWS=decode RUNS=1 "$SRC/tools/bench_isa.sh" "$BUILD") || fail "THREADS=2: exit $?"
awk -F'|' '/^\| decode workload/ { if ($4 + 0 != 2 || $7 + 0 <= 0) bad = 1; ++n }
  END { exit (bad || n != 2) }' <<<"$out" || fail "THREADS=2 rows: $out"
THREADS=0 ROWS=decode RUNS=1 "$SRC/tools/bench_isa.sh" "$BUILD" >/dev/null 2>&1
[ $? = 2 ] || fail "THREADS=0 was not refused with exit 2"
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
"$SRC/tools/bench_isa.sh" "$empty" >/dev/null 2>&1
[ $? = 2 ] || fail "a build without redline was not refused with exit 2"
echo "bench_isa_test: PASS"
