#!/bin/sh
# tests/hip_corpus/grid_sync.sh — the cooperative launch of grid_sync.hip
# under `redline run` (tests/hip_corpus.cmake registers one test a mode):
#   nosync           negative control: without the grid barrier the program
#                    must find wrong elements (it exits 0 only then);
#   toolarge         negative control: one work-group more than can be
#                    resident is refused with hipErrorCooperativeLaunchTooLarge;
#   adversarial      the program passes with its work-groups interleaved at
#                    instruction granularity (--hazards adversarial, 2 seeds);
#   deadlock         negative control: a barrier that can never complete
#                    fails the launch (gfx11: a fault naming ds_gws_barrier
#                    and its PC; gfx12's own spin barrier: the watchdog);
#   plain            negative control: the kernel launched without
#                    hipLaunchCooperativeKernel fails the same way (gfx11:
#                    "not launched cooperatively");
#   capture_refused  `run --capture` marks the capture incomplete, and
#                    `redline shadow` refuses it naming the cooperative
#                    launch (captures do not record it: docs/hip-runtime.md).
# Usage: grid_sync.sh MODE REDLINE ARCH CAPTURE PROGRAM
set -u
mode=$1 redline=$2 arch=$3 capture=$4 program=$5

run() { echo "+ $*" >&2; "$@"; }
fail() { echo "grid_sync.sh $mode: $*" >&2; exit 1; }
# Runs the program in mode $1 (extra redline options after it); the output
# lands in $out, the exit status in $status.
run_mode() {
  m=$1
  shift
  out=$(run "$redline" run --processor "$arch" "$@" -- "$program" $m 2>&1)
  status=$?
  printf '%s\n' "$out"
}

case $mode in
  nosync)
    run_mode nosync
    [ $status -eq 0 ] || fail "exit $status, expected 0"
    printf '%s\n' "$out" | grep -q 'elements wrong without the grid barrier' ||
      fail "no wrong elements reported" ;;
  toolarge)
    run_mode toolarge
    [ $status -eq 0 ] || fail "exit $status, expected 0"
    printf '%s\n' "$out" | grep -q 'hipErrorCooperativeLaunchTooLarge' ||
      fail "not refused with hipErrorCooperativeLaunchTooLarge" ;;
  adversarial)
    for seed in 1 7; do
      run_mode "" --hazards adversarial --seed $seed
      [ $status -eq 0 ] || fail "seed $seed: exit $status, expected 0"
    done ;;
  deadlock|plain)
    run_mode $mode --timeout-ms 2000
    printf '%s\n' "$out" | grep -q "grid_sync $mode: launch failed" ||
      fail "the launch did not fail"
    case $arch in
      gfx12*) want='made no progress for 2000 ms' ;;
      *) if [ $mode = deadlock ]; then
           want='cooperative dispatch deadlocked: work-group .* at ds_gws_barrier, PC +0x'
         else
           want='ds_gws_barrier.* at PC +0x.*not launched cooperatively'
         fi ;;
    esac
    printf '%s\n' "$out" | grep -q "$want" || fail "no message matching '$want'" ;;
  capture_refused)
    rm -f "$capture"
    run "$redline" run --processor "$arch" --capture "$capture" -- "$program"
    [ -f "$capture" ] || fail "no capture written"
    out=$(run "$redline" shadow "$capture" --executor isa 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ $status -ne 0 ] || fail "the shadow accepted a capture of a cooperative launch"
    printf '%s\n' "$out" | grep -q 'hipLaunchCooperativeKernel' ||
      fail "the refusal does not name hipLaunchCooperativeKernel" ;;
  *) fail "unknown mode" ;;
esac
