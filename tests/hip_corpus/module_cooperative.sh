#!/bin/sh
# tests/hip_corpus/module_cooperative.sh REDLINE ARCH CAPTURE PROGRAM
# CODE_OBJECT — hipModuleLaunchCooperativeKernel (module.hip with
# REDLINE_MODULE_COOPERATIVE=1) under `redline run --capture`: the program
# passes, the capture is complete with its first launch in the COOPERATIVE
# section (docs/capture-interposer.md, as hipLaunchCooperativeKernel), and
# the default shadow passes. Negative control: the same program without
# the variable records no cooperative launch (the check can fail).
set -u
redline=$1 arch=$2 capture=$3 program=$4 co=$5
fail() { echo "module_cooperative.sh: $*" >&2; exit 1; }
rm -f "$capture"
out=$(REDLINE_MODULE_COOPERATIVE=1 "$redline" run --processor "$arch" \
  --capture "$capture" -- "$program" "$co" 2>&1) || fail "run exited $?: $out"
printf '%s\n' "$out" | grep -q 'written, complete (2 launches)' ||
  fail "the capture is not complete: $out"
ins=$("$redline" inspect "$capture" 2>&1)
printf '%s\n' "$ins" | grep -q '^cooperative 1 launches' ||
  fail "inspect names no cooperative launch: $ins"
out=$("$redline" shadow "$capture" --executor isa 2>&1) ||
  fail "shadow exited $?: $out"
printf '%s\n' "$out" | grep -q '^shadow: PASS' || fail "no PASS: $out"
# Control: the plain module launch is not cooperative.
rm -f "$capture"
"$redline" run --processor "$arch" --capture "$capture" -- "$program" "$co" \
  >/dev/null 2>&1 || fail "the plain run failed"
"$redline" inspect "$capture" 2>&1 | grep -q '^cooperative' &&
  fail "the control's capture has a cooperative launch"
rm -f "$capture"
echo "module_cooperative: complete, launch cooperative, shadow PASS; control plain"
