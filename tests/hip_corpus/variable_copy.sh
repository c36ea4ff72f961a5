#!/bin/bash
# tests/hip_corpus/variable_copy.sh — negative control of the code object
# variable buffers (docs/capture-interposer.md): the shadow of the corpus
# `globals` capture, whose `squares` buffer aliases a __device__ array,
#
#   variable_copy.sh REDLINE CAPTURE
#
# passes with arms eager,aql (the control of the control), and fails with
# exit 1 (a divergence) on the `squares` region when
# REDLINE_TEST_FAULT=variable-copy makes route aql bind the buffer to a
# separate copy instead of the variable in its loaded code object.
set -u
redline=$1 capture=$2
run() { echo "+ $*" >&2; "$@"; }
run "$redline" shadow "$capture" --executor isa --arms eager,aql || {
  echo "variable_copy: the shadow without the fault should pass" >&2
  exit 1
}
out=$(REDLINE_TEST_FAULT=variable-copy run "$redline" shadow "$capture" \
        --executor isa --arms eager,aql --verbose 2>&1)
status=$?
echo "$out"
if [ $status -ne 1 ]; then
  echo "variable_copy: with the alias broken the shadow should diverge (exit 1), got exit $status" >&2
  exit 1
fi
if ! grep -q "squares" <<<"$out"; then
  echo "variable_copy: the divergence should name the squares region" >&2
  exit 1
fi
echo "variable_copy: the broken alias was caught (exit 1, region squares)"
