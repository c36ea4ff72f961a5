#!/bin/bash
# tests/hip_conformance/host_uploads.sh REDLINE PROGRAM DIR — what the host
# stores into host memory between launches reaches the capture
# (docs/capture-interposer.md, "Host memory"). PROGRAM is
# host_memory_kernels: its 5th kernel launch (sum) reads pinned memory the
# host rewrote after the 2nd wrote it.
#
# Two captures of the same run: the whole run, and the window of the 5th
# launch alone (launches:4:1), whose initial state is the host memory as
# the program had it then, read directly: the ground truth. Replaying each
# must leave the same bytes in every region (xxh3_128 of replay --json).
# Negative control: with REDLINE_TEST_FAULT=host-writes-off the interposer
# records no host stores, and the whole run's replay must differ.
set -u
redline=$1 program=$2 dir=$3
mkdir -p "$dir"
hashes() {  # CAPTURE -> the replay's region hashes, one a line
  "$redline" replay "$1" --executor isa --json 2>/dev/null |
    grep -o '"xxh3_128":[[:space:]]*"[0-9a-f]*"'
}
capture() {  # OUT [ENV...] -> runs the program under capture
  local out=$1
  shift
  rm -f "$out"
  env "$@" "$redline" run --capture "$out" ${window:+--window "$window"} \
    -- "$program" >/dev/null || { echo "host_uploads: capture $out failed" >&2; exit 1; }
}
window= capture "$dir/whole.rlc"
window=launches:4:1 capture "$dir/window.rlc"
window= capture "$dir/broken.rlc" REDLINE_TEST_FAULT=host-writes-off
truth=$(hashes "$dir/window.rlc")
whole=$(hashes "$dir/whole.rlc")
broken=$(hashes "$dir/broken.rlc")
echo "window (ground truth):"; echo "$truth"
echo "whole run:"; echo "$whole"
echo "whole run, host stores not recorded:"; echo "$broken"
[ "$(echo "$truth" | wc -l)" -eq 3 ] || { echo "host_uploads: expected 3 region hashes" >&2; exit 1; }
if [ "$whole" != "$truth" ]; then
  echo "host_uploads: the whole run's replay differs from the ground truth" >&2
  exit 1
fi
if [ "$broken" = "$truth" ]; then
  echo "host_uploads: negative control: without the host stores the replay should differ" >&2
  exit 1
fi
echo "host_uploads: the host's stores are in the capture (and their absence shows)"
