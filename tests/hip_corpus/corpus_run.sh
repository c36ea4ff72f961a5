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
