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
#           buffer only through its struct: the capture is complete, the
#           struct's two words are pointer slots of launch 2 (arg@0, arg@8,
#           effect observed: read), buf1 is keep-address and the default
#           shadow passes; with REDLINE_TEST_FAULT=struct-slot-off (pinned,
#           no slots) the shadow fails the effects audit at launch 2 on buf1,
#           and with struct-pin-off (neither) it fails too
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
    export REDLINE_STRUCT_PTRS_HIDDEN=1
    err=$("$redline" run --processor "$arch" --capture "$capture" -- \
      "$program" 2>&1 >/dev/null) || fail "run exited $?: $err"
    printf '%s\n' "$err" | grep -q 'complete (3 launches)' ||
      fail "capture not complete: $err"
    ins=$("$redline" inspect "$capture" --launches)
    printf '%s\n' "$ins" | grep -q '^  \[1\] buf1 .* keep-address' ||
      fail "buf1 (the temporary buffer) is not keep-address"
    for at in 0 8; do
      printf '%s\n' "$ins" |
        grep -A4 ' 2 *_Z14combine_hidden' | grep -q "arg@$at  *read  *buf1+.*(observed)" ||
        fail "launch 2 has no observed read slot at kernarg offset $at: $ins"
    done
    out=$("$redline" shadow "$capture" --executor isa 2>&1) ||
      fail "the shadow of the struct-only capture failed: $out"
    # The fault and what its shadow must fail at: the effects audit
    # (pinned, no slot) or a fault of the struct's store (no pin).
    for case in 'struct-slot-off|effects audit: .*launch 2 (_Z14combine_hidden.*) read buffer buf1' \
                'struct-pin-off|launch 1 (_Z5splitPKj6Halvesi): queue .* faulted'; do
      fault=${case%%|*} want=${case#*|}
      rm -f "$capture.off"
      REDLINE_TEST_FAULT=$fault "$redline" run --processor "$arch" \
        --capture "$capture.off" -- "$program" >/dev/null 2>&1 ||
        fail "the program failed with $fault"
      out=$("$redline" shadow "$capture.off" --executor isa 2>&1) &&
        fail "the shadow of a capture under $fault passed"
      printf '%s\n' "$out" | grep -q "^shadow: FAIL (arm eager: .*$want" ||
        fail "the shadow under $fault should FAIL at: $want: $out"
      echo "$fault: $(printf '%s\n' "$out" | grep -m1 '^shadow: FAIL' | cut -c1-200)"
    done
    rm -f "$capture.off"
    echo "hidden: complete, launch 2 slots observed, shadow passes; controls fail" ;;
  *) echo "usage: $0 pinned|hidden REDLINE ARCH CAPTURE PROGRAM" >&2; exit 2 ;;
esac
