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
#   capture          `run --capture` records the cooperative launch (a
#                    complete capture whose COOPERATIVE section names it,
#                    docs/capture-format.md); the default shadow passes and
#                    replay passes on routes aql and pm4 (the simulator
#                    keeps all work-groups resident); negative control: a
#                    device that cannot (the drm stand-in, DRM_LIBRARY)
#                    refuses it with exit 4 naming the launch.
#   graph            the cooperative launch captured from a stream into a
#                    graph and launched: the program passes (the node runs
#                    cooperatively, as HIP's runtime makes it); `run
#                    --capture` records the node's launch as cooperative (a
#                    complete capture whose COOPERATIVE section names it)
#                    and the default shadow passes; negative control: with
#                    REDLINE_TEST_FAULT=graph-coop-off at capture the node
#                    is recorded as an ordinary launch, and the shadow
#                    fails (gfx11: ds_gws_barrier "not launched
#                    cooperatively"; gfx12's spin barrier: no progress).
# Usage: grid_sync.sh MODE REDLINE ARCH CAPTURE PROGRAM [DRM_LIBRARY]
set -u
mode=$1 redline=$2 arch=$3 capture=$4 program=$5 drm_library=${6:-}

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
  capture)
    rm -f "$capture"
    out=$(run "$redline" run --processor "$arch" --capture "$capture" -- \
      "$program" 2>&1)
    printf '%s\n' "$out"
    printf '%s\n' "$out" | grep -q "capture $capture written, complete (1 launches)" ||
      fail "the capture is not complete"
    out=$(run "$redline" inspect "$capture" 2>&1)
    printf '%s\n' "$out" | grep -q '^cooperative 1 launches' ||
      fail "inspect names no cooperative launch"
    out=$(run "$redline" shadow "$capture" --executor isa 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ $status -eq 0 ] || fail "shadow exit $status, expected 0"
    printf '%s\n' "$out" | grep -q 'shadow: PASS' || fail "the shadow did not pass"
    for route in aql pm4; do
      run "$redline" replay "$capture" --route $route --executor isa >/dev/null ||
        fail "replay --route $route failed"
    done
    if [ -n "$drm_library" ]; then
      node=$(mktemp "${TMPDIR:-/tmp}/grid_sync_render.XXXXXX")
      out=$(REDLINE_DRM_RENDER_NODE=$node REDLINE_DRM_LIBRARY=$drm_library \
        REDLINE_STANDIN_DRM_TARGET=$arch \
        run "$redline" replay "$capture" --device drm --route drm 2>&1)
      status=$?
      rm -f "$node"
      printf '%s\n' "$out"
      [ $status -eq 4 ] || fail "drm replay exit $status, expected 4"
      printf '%s\n' "$out" | grep -q 'launch 0 (kernel .*) is cooperative' ||
        fail "the drm refusal does not name the cooperative launch"
    fi ;;
  graph)
    capture=${capture%.rlc}.graph.rlc  # beside mode capture's, not over it
    run_mode graph
    [ $status -eq 0 ] || fail "exit $status, expected 0"
    rm -f "$capture"
    out=$(run "$redline" run --processor "$arch" --capture "$capture" -- \
      "$program" graph 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ $status -eq 0 ] || fail "the captured run exited $status"
    printf '%s\n' "$out" | grep -q "capture $capture written, complete (1 launches)" ||
      fail "the graph's capture is not complete"
    out=$(run "$redline" inspect "$capture" 2>&1)
    printf '%s\n' "$out" | grep -q '^cooperative 1 launches' ||
      fail "inspect names no cooperative launch"
    out=$(run "$redline" shadow "$capture" --executor isa 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ $status -eq 0 ] || fail "shadow exit $status, expected 0"
    printf '%s\n' "$out" | grep -q 'shadow: PASS' || fail "the shadow did not pass"
    # Control: the node recorded as an ordinary launch is caught.
    rm -f "$capture"
    out=$(REDLINE_TEST_FAULT=graph-coop-off run "$redline" run \
      --processor "$arch" --capture "$capture" -- "$program" graph 2>&1)
    status=$?
    [ $status -eq 0 ] || fail "control: the captured run exited $status: $out"
    "$redline" inspect "$capture" 2>&1 | grep -q '^cooperative' &&
      fail "control: the capture still has a cooperative launch"
    out=$(run "$redline" shadow "$capture" --executor isa --arms eager,aql \
      --timeout-ms 2000 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ $status -ne 0 ] || fail "control: the shadow passed a non-cooperative grid barrier"
    case $arch in
      gfx12*) want='made no progress\|quarantined' ;;
      *) want='not launched cooperatively' ;;
    esac
    printf '%s\n' "$out" | grep -q "$want" ||
      fail "control: no message matching '$want'"
    rm -f "$capture" ;;
  *) fail "unknown mode" ;;
esac
