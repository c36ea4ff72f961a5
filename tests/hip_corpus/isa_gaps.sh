#!/bin/bash
# tests/hip_corpus/isa_gaps.sh — which instructions of the built HIP corpus
# the isa executor does not model yet: takes each program's gfx code object
# out of its offload bundle (section .hip_fatbin) and runs
# `redline kernels CODEOBJ --isa` on it. A report for people working on the
# executor (docs/hip-corpus.md), not a test.
#
# Usage: isa_gaps.sh BUILD_DIR [ARCH]     (ARCH defaults to gfx1100)
set -u
build=$1 arch=${2:-gfx1100}
llvm=${RL_LLVM_ROOT:-/usr/lib/llvm-19}/bin
dir=$build/tests/hip_corpus/$arch
work=$(mktemp -d "${TMPDIR:-/tmp}/isa_gaps.XXXXXX")
trap 'rm -rf "$work"' EXIT
for p in "$dir"/*; do
  name=$(basename "$p")
  case $name in
    *.co) co=$p ;;
    *.rlc|*.*) continue ;;
    *)
      [ -x "$p" ] || continue
      if ! "$llvm/llvm-objcopy" --dump-section ".hip_fatbin=$work/$name.fatbin" "$p" /dev/null 2>/dev/null; then
        echo "== $name (no device code)"
        continue
      fi
      co=$work/$name.co
      "$llvm/clang-offload-bundler" --unbundle --type=o \
        "--targets=hipv4-amdgcn-amd-amdhsa--$arch" --input="$work/$name.fatbin" \
        --output="$co" || continue ;;
  esac
  echo "== $name"
  "$build/tools/redline" kernels "$co" --isa |
    grep -E '^kernel |^ +[+]0x|instructions not modelled' | sed 's/^kernel /  kernel /' 
done
