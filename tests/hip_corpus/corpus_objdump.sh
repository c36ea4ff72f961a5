#!/bin/bash
# tests/hip_corpus/corpus_objdump.sh — the isa decoder against llvm-objdump-19
# on the HIP corpus (tests/hip_corpus.cmake, test hip_corpus_objdump): takes
# each program's code object for every ARCH out of its offload bundle
# (section .hip_fatbin), adds module_kernels.co, and runs isa_objdump_test
# with RL_ISA_OBJDUMP_DIR pointing at them, so every instruction objdump
# lists must decode to the same mnemonic and length.
#
# Usage: corpus_objdump.sh CORPUS_DIR ISA_OBJDUMP_TEST LLVM_BIN ARCH...
set -u
corpus=$1 test=$2 llvm=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/corpus_objdump.XXXXXX")
trap 'rm -rf "$work"' EXIT
count=0
for arch in "$@"; do
  for p in "$corpus/$arch"/*; do
    name=$(basename "$p")
    case $name in
      module_kernels.co) cp "$p" "$work/module_kernels-$arch.co" ;;
      *.*) continue ;;
      *)
        [ -x "$p" ] || continue
        # module has no device code of its own (it loads module_kernels.co)
        "$llvm/llvm-objcopy" --dump-section ".hip_fatbin=$work/$name.fatbin" \
          "$p" /dev/null 2>/dev/null || continue
        "$llvm/clang-offload-bundler" --unbundle --type=o \
          "--targets=hipv4-amdgcn-amd-amdhsa--$arch" \
          "--input=$work/$name.fatbin" "--output=$work/$name-$arch.co" || {
          echo "corpus_objdump: $p: no $arch code object in its bundle" >&2
          exit 1
        }
        rm -f "$work/$name.fatbin" ;;
    esac
    count=$((count + 1))
  done
done
if [ "$count" -eq 0 ]; then
  echo "corpus_objdump: no programs under $corpus for: $*" >&2
  exit 1
fi
echo "corpus_objdump: $count code objects extracted"
RL_ISA_OBJDUMP_DIR=$work "$test"
