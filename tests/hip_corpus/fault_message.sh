#!/bin/bash
# tests/hip_corpus/fault_message.sh REDLINE PROGRAM — a fault message
# reaches the user whole (docs/failure-semantics.md, "Fault messages are
# whole"). PROGRAM is fault_message.hip: a kernel with a name of over 300
# characters faults with a VM fault. The runtime's line `redline hip:
# kernel NAME failed: ...` must hold the whole account: the instruction's
# PC, the fault and the simulator's closing "(packet 0, dispatch 0)". The
# line must be longer than 800 bytes (the simulator's own message in it over
# 512), so the check would fail had any
# layer cut it where one once did (256, 512 or 600 bytes).
set -u
redline=$1 program=$2
out=$("$redline" run -- "$program" 2>&1)
status=$?
line=$(grep -m1 '^redline hip: kernel .* failed: ' <<<"$out")
echo "$line"
failures=0
fail() { echo "fault_message: $*" >&2; failures=$((failures + 1)); }
[ "$status" -eq 0 ] || fail "the program exited $status (0: its launch faulted)"
[ "${#line}" -gt 800 ] || fail "the line is ${#line} bytes, expected more than 800"
for needle in "at PC +0x" "VM fault: write of 4 bytes at 0x" \
              "(packet 0, dispatch 0)"; do
  grep -qF -- "$needle" <<<"$line" || fail "no '$needle' in the message"
done
[ "$failures" -eq 0 ] || exit 1
echo "fault_message: the message is whole (${#line} bytes)"
