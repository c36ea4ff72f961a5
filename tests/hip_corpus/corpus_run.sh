#!/bin/bash
# tests/hip_corpus/corpus_run.sh — one CTest test of a HIP corpus program
# on the simulated GPU (tests/hip_corpus.cmake):
#
#   corpus_run.sh MODE REDLINE ARCH CAPTURE PROGRAM [ARGS...]
#
#   run                 redline run --processor ARCH -- PROGRAM: exit 0
#   shadow              redline run --capture CAPTURE (exit 0), then
#                       redline shadow CAPTURE --executor isa
#                       --arms eager,aql,pm4,hip,hipgraph: exit 0 (byte-exact)
#   shadow_adversarial  the same shadow of CAPTURE with --hazards adversarial
#   dispatch_audit      the same shadow with REDLINE_TEST_FAULT=grid-ignore-y:
#                       exit 1, the dispatch audit naming axis y
#   corrupt             negative control: REDLINE_CORPUS_CORRUPT=1 makes the
#                       program damage its first result; it must exit 1
set -u
mode=$1 redline=$2 arch=$3 capture=$4
shift 4
# RL_CORPUS_ARMS overrides the shadow's arms.
arms=${RL_CORPUS_ARMS:-eager,aql,pm4,hip,hipgraph}

run() { echo "+ $*" >&2; "$@"; }

case $mode in
  run)
    run "$redline" run --processor "$arch" -- "$@" ;;
  shadow)
    rm -f "$capture"
    run "$redline" run --processor "$arch" --capture "$capture" -- "$@" || exit
    run "$redline" shadow "$capture" --executor isa --arms "$arms" ;;
  shadow_adversarial)
    run "$redline" shadow "$capture" --executor isa --arms "$arms" \
      --hazards adversarial ;;
  dispatch_audit)
    # The dispatch audit's negative control (shadow/effects_audit.h): a
    # simulator that runs one row of work-groups (REDLINE_TEST_FAULT=
    # grid-ignore-y) must fail the shadow of a 2-D program naming axis y.
    out=$(REDLINE_TEST_FAULT=grid-ignore-y "$redline" shadow "$capture" \
      --executor isa --arms "$arms" 2>&1)
    status=$?
    printf '%s\n' "$out" | grep '^shadow:'
    if [ $status -ne 1 ] ||
       ! printf '%s\n' "$out" | grep -q '^shadow: FAIL (arm eager: dispatch audit: .* work-groups on axis y'; then
      echo "negative control: the dispatch audit should name axis y (exit 1), got exit $status" >&2
      exit 1
    fi ;;
  corrupt)
    REDLINE_CORPUS_CORRUPT=1 run "$redline" run --processor "$arch" -- "$@"
    status=$?
    if [ $status -ne 1 ]; then
      echo "negative control: the damaged result should fail the check (exit 1), got exit $status" >&2
      exit 1
    fi
    echo "negative control: the check caught the damaged result (exit 1)" ;;
  *)
    echo "corpus_run.sh: unknown mode '$mode'" >&2
    exit 2 ;;
esac
