#!/usr/bin/env bash
# tools/shadow_mutations.sh — the mutation proof of `redline shadow`.
#
# Every row makes one named mistake in the engine through the test-only
# switch REDLINE_TEST_FAULT (redline/base/test_fault.h: compiled into every
# build, off unless set) and runs the default `redline shadow` (arms eager,
# recorded, aql, pm4, pm4-relay, and the three retained routes again under
# two seeded adversarial interleavings; the capture's own window) on a fresh capture, with the
# row's extra options when it has them. A row expected to "fail" must make the shadow exit non-zero;
# the script reports which check caught it, the exit code and the first
# line of the verdict. A row expected to be "equivalent" is a mutation that
# cannot change what runs on that workload: the script proves it by showing
# that the lowered AQL and PM4 streams (`redline lower`) are byte-identical
# to the unmutated ones, and that the shadow passes. The negative control
# (no fault) must pass.
#
# Prints a markdown table (docs/shadow-mutations.md holds a copy); exits 1
# when a "fail" mutation passes, an "equivalent" one changes a stream, or
# the negative control fails.
#
# Usage: tools/shadow_mutations.sh [REDLINE] [WORKDIR] [TARGET]
#   REDLINE  the redline binary (default build/tools/redline)
#   WORKDIR  scratch directory for the captures (default: a temporary one)
#   TARGET   the processor the captures are made for: gfx1100 (default),
#            gfx1151 or gfx1201
# REDLINE_KERNELS_DIR must name the code objects when the binary does not
# find them by itself (as for `redline capture`).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REDLINE="${1:-$ROOT/build/tools/redline}"
WORK="${2:-}"
TARGET="${3:-gfx1100}"
if [[ -z "$WORK" ]]; then
  WORK="$(mktemp -d)"
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
unset REDLINE_TEST_FAULT

# workload | REDLINE_TEST_FAULT | expectation | what the mistake is [| extra
# shadow options]
MUTATIONS=(
  "decode||pass|negative control: no fault"
  "decode|drop-barrier:1|fail|AQL lowering: no barrier bit on packet 1"
  "decode|drop-barrier:1,no-census|fail|... with the census off: reaches the device"
  "decode|drop-wait:1|fail|PM4 lowering: no CS_PARTIAL_FLUSH + ACQUIRE_MEM before launch 1"
  "decode|drop-wait:1,no-census|fail|... with the census off"
  "decode|drop-acquire:1|fail|PM4 lowering: the wait before launch 1 has no ACQUIRE_MEM"
  "decode|drop-acquire:1,no-census|fail|... with the census off"
  "decode|miss-raw|fail|hazard analysis misses every RAW"
  "decode|miss-raw:20|fail|hazard analysis misses the RAW before launch 20"
  "decode|miss-war|equivalent|hazard analysis misses every WAR"
  "decode|miss-waw|equivalent|hazard analysis misses every WAW"
  "vecchain|miss-war|fail|hazard analysis misses every WAR"
  "vecchain|miss-waw|equivalent|hazard analysis misses every WAW"
  "decode|patch-off:3|fail|scalar patch of launch 3 (pos) written 4 bytes off"
  "decode|patch-skip:3|fail|scalar patch of launch 3 (pos) skipped"
  "decode|patch-skip:6|fail|scalar patch of launch 6 (chunk count) skipped"
  "decode|grid-skip:5|fail|grid patch of launch 5 (attention chunks) skipped"
  "decode|bind-stale:3|fail|binding of launch 3 evaluated at the capture's pos (every route agrees)"
  "decode|bind-stale:6|fail|binding of launch 6 evaluated at the capture's pos"
  "decode|nop-acquire:1|fail|route pm4, after the census: the ACQUIRE_MEM before launch 1 is a NOP"
  "decode|weaken-gcr|fail|route pm4, after the census: every ACQUIRE_MEM loses GLV_INV (GCR bits weakened)"
  "decode|narrow-acquire:1|fail|route aql, after the census: packet 1's acquire fence scope narrowed to NONE"
  "decode|narrow-release|fail|route aql, after the census: SYSTEM release scopes narrowed to AGENT (no L2 write-back for the host)"
  "decode|nop-copy:1|fail|route pm4 relay, after the census: the second COPY_DATA is a NOP (a launch keeps the previous step's value)"
  "decode|nop-copy|fail|... every relay copy a NOP, re-recording off: only the bytes|--arms eager,pm4-relay"
  "decode|retain-any-value|fail|PM4 lowering: register retention ignores the value (a held register is never rewritten)"
  "decode|retain-any-value,no-census|fail|... with the census off: the stale registers reach the device"
  "decode|effect-shift|fail|declared effects: each pointer slot has its neighbour's effect (as a mistaken interposer records them)"
  "decode|extent-shrink:1|fail|declared effects: every slot extent of launch 1 is 4 bytes short"
  "decode|drop-barrier:1,no-census|fail|no barrier bit, census and hazard checker off: only the bytes of the seeded interleavings|--no-hazard-check"
  "decode|drop-wait:1,no-census|fail|no wait, census and hazard checker off|--no-hazard-check"
  "decode|miss-raw|fail|every RAW missed, hazard checker off|--no-hazard-check"
  "decode|nop-acquire|fail|every ACQUIRE_MEM a NOP, hazard checker off: only the strict cache model|--no-hazard-check"
  "decode|weaken-gcr|fail|GLV_INV cleared, hazard checker off: only the strict cache model|--no-hazard-check"
)

capture() {  # capture WORKLOAD
  local file="$WORK/$1.rlc"
  [[ -f "$file" ]] ||
    "$REDLINE" capture --workload "$1" --target "$TARGET" -o "$file" 2>/dev/null
  echo "$file"
}

# The check a FAIL verdict names.
classify() {
  case "$1" in
    *"hazard in"*) echo "dynamic hazard checker (${2:-?})" ;;
    *"effects audit"*) echo "effects audit (${2:-?})" ;;
    *"dispatch audit"*) echo "dispatch audit (${2:-?})" ;;
    *"AQL census"*) echo "AQL census (prepare)" ;;
    *"PM4 census"*) echo "PM4 census (prepare)" ;;
    *"dispatched launch"*|*"dispatched "*" kernels"*)
      echo "re-record: what ${2:-?} dispatched" ;;
    *"re-recorded"*) echo "re-record: the capture's bindings" ;;
    *"differs in arm"*) echo "region comparison (${2:-?})" ;;
    *"cache model"*|*"stale"*) echo "cache model (${2:-?})" ;;
    *"not available"*|*"faulted"*) echo "device or prepare (${2:-?})" ;;
    PASS*) echo "none" ;;
    *) echo "other" ;;
  esac
}

# Digest of the lowered AQL and PM4 streams of FILE under fault $2.
streams() {
  { REDLINE_TEST_FAULT="$2" "$REDLINE" lower "$1" --route aql
    REDLINE_TEST_FAULT="$2" "$REDLINE" lower "$1" --route pm4; } 2>&1 |
    md5sum | cut -c1-12
}

echo "Target: $TARGET"
echo
echo "| workload | REDLINE_TEST_FAULT | mistake | expected | caught by | exit | first line of the verdict |"
echo "|---|---|---|---|---|---|---|"
failures=0
for row in "${MUTATIONS[@]}"; do
  IFS='|' read -r workload fault expect what extra <<<"$row"
  file="$(capture "$workload")"
  set +e
  # shellcheck disable=SC2086
  out="$(REDLINE_TEST_FAULT="$fault" "$REDLINE" shadow "$file" $extra 2>/dev/null)"
  code=$?
  set -e
  verdict="$(printf '%s\n' "$out" | grep -m1 '^shadow: ' || echo 'shadow: (no verdict)')"
  reason="${verdict#shadow: }"
  reason="${reason#FAIL (}"
  arm="$(printf '%s' "$reason" | sed -n 's/^arm \([a-z0-9~-]*\).*/\1/p')"
  [[ -z "$arm" ]] && arm="$(printf '%s' "$reason" | sed -n 's/.* differs in arm \([a-z0-9~-]*\).*/\1/p')"
  check="$(classify "$reason" "$arm")"
  ok=1
  case "$expect" in
    pass) [[ $code -eq 0 ]] || ok=0 ;;
    # A crash or an unrecognised failure is not a catch.
    fail) [[ $code -ne 0 && "$check" != other ]] || ok=0 ;;
    equivalent)
      if [[ "$(streams "$file" "")" == "$(streams "$file" "$fault")" && $code -eq 0 ]]; then
        check="none: AQL and PM4 streams byte-identical"
      else
        ok=0
      fi ;;
  esac
  [[ $ok -eq 1 ]] || { failures=$((failures + 1)); expect="$expect (VIOLATED)"; }
  line="$(printf '%s' "$verdict" | cut -c1-220 | sed 's/|/\\|/g')"
  echo "| $workload | \`${fault:-none}\`${extra:+ \`$extra\`} | $what | $expect | $check | $code | $line |"
done
if [[ $failures -ne 0 ]]; then
  echo "shadow mutations: $failures row(s) violated their expectation" >&2
  exit 1
fi
echo "shadow mutations: every row as expected" >&2
