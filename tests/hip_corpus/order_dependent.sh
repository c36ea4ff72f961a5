#!/bin/bash
# tests/hip_corpus/order_dependent.sh — the shadow names order dependence
# as the cause of a divergence (shadow/shadow_report.c):
#
#   order_dependent.sh REDLINE ARCH CAPTURE PROGRAM
#
# PROGRAM (order_dependent.hip: a float atomicAdd sum) passes its own check
# under `redline run --capture`; its shadow over eager,aql,pm4 must fail
# (exit 1) with a "cause:" line naming two arms of one route that differ
# only in work-group order. Negative control: with --adversarial-seeds 0
# there is no such pair, and the report must not claim that cause.
set -u
redline=$1 arch=$2 capture=$3 program=$4
run() { echo "+ $*" >&2; "$@"; }
rm -f "$capture"
run "$redline" run --processor "$arch" --capture "$capture" -- "$program" || exit
out=$(run "$redline" shadow "$capture" --executor isa --arms eager,aql,pm4 2>&1)
status=$?
echo "$out" | grep -v HAZARD
if [ $status -ne 1 ]; then
  echo "order_dependent: the shadow should diverge (exit 1), got exit $status" >&2
  exit 1
fi
if ! grep -q "^cause: arms .* differ only in the order work-groups ran" <<<"$out"; then
  echo "order_dependent: the report should name order dependence as the cause" >&2
  exit 1
fi
out=$(run "$redline" shadow "$capture" --executor isa --arms eager,aql,pm4 \
        --adversarial-seeds 0 2>&1)
if grep -q "^cause:" <<<"$out"; then
  echo "order_dependent: without arms that differ only in order, no such cause may be claimed" >&2
  exit 1
fi
echo "order_dependent: the cause is named, and only when the arms show it"
