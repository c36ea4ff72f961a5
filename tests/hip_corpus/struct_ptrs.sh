#!/bin/bash
# tests/hip_corpus/struct_ptrs.sh MODE REDLINE ARCH CAPTURE PROGRAM — the
# capture of pointers inside struct arguments (tests/hip_corpus/
# struct_ptrs.hip, docs/capture-interposer.md "Pointers inside struct
# arguments"):
#   pinned  the capture is complete and the temporary buffer the struct
#           arguments point into is marked keep-address (`redline inspect`);
#           the same capture with REDLINE_TEST_FAULT=struct-pin-off (nothing
#           pinned) must fail the default shadow at the struct's store
#   hidden  with REDLINE_STRUCT_PTRS_HIDDEN=1 the last launch reaches that
#           buffer only through its struct: the program still passes, the
#           capture is INCOMPLETE naming launch 2, combine_hidden and the
#           address, and shadow refuses it with exit 4
set -u
mode=$1 redline=$2 arch=$3 capture=$4 program=$5
fail() { echo "FAIL: $*" >&2; exit 1; }
case $mode in
  pinned)
    rm -f "$capture"
    err=$("$redline" run --processor "$arch" --capture "$capture" -- \
      "$program" 2>&1 >/dev/null) || fail "run exited $?: $err"
    printf '%s\n' "$err" | grep -q 'complete (3 launches)' ||
      fail "capture not complete: $err"
    "$redline" inspect "$capture" | grep -q '^  \[1\] buf1 .* keep-address' ||
      fail "buf1 (the temporary buffer) is not keep-address"
    rm -f "$capture.off"
    REDLINE_TEST_FAULT=struct-pin-off "$redline" run --processor "$arch" \
      --capture "$capture.off" -- "$program" >/dev/null 2>&1 ||
      fail "the program failed with struct-pin-off"
    out=$("$redline" shadow "$capture.off" --executor isa 2>&1) &&
      fail "the shadow of an unpinned capture passed"
    printf '%s\n' "$out" | grep -q "^shadow: FAIL (arm eager: .*launch 1 (_Z5splitPKj6Halvesi)" ||
      fail "the shadow of an unpinned capture should fail at launch 1: $out"
    rm -f "$capture.off"
    echo "pinned: complete, buf1 keep-address; unpinned control fails" ;;
  hidden)
    rm -f "$capture"
    err=$(REDLINE_STRUCT_PTRS_HIDDEN=1 "$redline" run --processor "$arch" \
      --capture "$capture" -- "$program" 2>&1 >/dev/null) ||
      fail "run exited $?: $err"
    printf '%s\n' "$err" | grep -q 'INCOMPLETE: launch 2: the by-value argument at kernarg offset 0 holds address 0x[0-9a-f]* inside buf1, which no pointer argument .*; kernel _Z14combine_hidden11ConstHalvesPji' ||
      fail "the capture should be INCOMPLETE naming launch 2: $err"
    "$redline" shadow "$capture" --executor isa >/dev/null 2>&1
    status=$?
    [ $status -eq 4 ] || fail "shadow of the incomplete capture exited $status, want 4"
    echo "hidden: INCOMPLETE naming launch 2; shadow exit 4" ;;
  *) echo "usage: $0 pinned|hidden REDLINE ARCH CAPTURE PROGRAM" >&2; exit 2 ;;
esac
