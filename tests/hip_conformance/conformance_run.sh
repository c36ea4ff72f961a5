#!/bin/sh
# tests/hip_conformance/conformance_run.sh MODE REDLINE PROGRAM — one test
# of the HIP runtime conformance suite (tests/hip_conformance.cmake):
#   run      redline run -- PROGRAM must exit 0 (the rule holds)
#   control  with REDLINE_CONFORMANCE_BREAK=1 the program inverts its first
#            check: it must exit 1, showing the check can fail
set -u
mode=$1 redline=$2 program=$3
case $mode in
  run)
    "$redline" run -- "$program" ;;
  control)
    REDLINE_CONFORMANCE_BREAK=1 "$redline" run -- "$program"
    status=$?
    if [ "$status" -ne 1 ]; then
      echo "negative control: the inverted check should fail (exit 1), got exit $status" >&2
      exit 1
    fi
    echo "negative control: the inverted check failed as it must (exit 1)" ;;
  *)
    echo "conformance_run.sh: unknown mode $mode" >&2
    exit 2 ;;
esac
