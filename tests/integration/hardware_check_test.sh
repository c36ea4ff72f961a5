#!/bin/sh
# The hardware kit (tools/hardware_check.sh) against the stand-ins
# (tests/shadow_runtimes.cmake sets the libraries; the render node is an
# empty file made here).
# usage: hardware_check_test.sh SOURCE_DIR BUILD_DIR CASE
#   pass     every step exits 0 and the last line is the PASS verdict.
#   corrupt  the negative control: the ROCr stand-in corrupts one byte of
#            one dispatch's output in every process
#            (REDLINE_STANDIN_CORRUPT_DISPATCH=2: a write of vecchain's
#            region y), so the rocr replays' region hashes differ from the sim's and the rocr shadow fails:
#            the kit exits 1 and its verdict names exactly those steps.
set -u
source_dir=$1
build_dir=$2
case_name=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/rl_hardware_check.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
: >"$dir/renderD128"
REDLINE_DRM_RENDER_NODE="$dir/renderD128"
export REDLINE_DRM_RENDER_NODE

fail() {
  echo "FAIL: $*" >&2
  cat "$dir/out.txt" >&2
  exit 1
}

[ "$case_name" = corrupt ] && {
  REDLINE_STANDIN_CORRUPT_DISPATCH=2
  export REDLINE_STANDIN_CORRUPT_DISPATCH
}
sh "$source_dir/tools/hardware_check.sh" "$build_dir" "$dir/report.json" \
  >"$dir/out.txt" 2>&1
code=$?
verdict=$(tail -n 1 "$dir/out.txt")
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["verdict"])' \
  "$dir/report.json" >"$dir/json_verdict.txt" || fail "the report is not JSON"
case "$case_name" in
  pass)
    [ "$code" -eq 0 ] || fail "the kit exited $code"
    case $verdict in
      "hardware_check: PASS ("*) ;;
      *) fail "last line is not the PASS verdict: $verdict" ;;
    esac
    grep -qx PASS "$dir/json_verdict.txt" || fail "JSON verdict"
    ;;
  corrupt)
    [ "$code" -eq 1 ] || fail "the kit exited $code, expected 1"
    [ "$verdict" = "hardware_check: FAIL (2 of 13 steps failed: compare_replay_hashes shadow)" ] ||
      fail "verdict: $verdict"
    grep -qx FAIL "$dir/json_verdict.txt" || fail "JSON verdict"
    ;;
  *) fail "unknown case $case_name" ;;
esac
exit 0
