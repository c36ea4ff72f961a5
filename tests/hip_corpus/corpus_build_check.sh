#!/bin/bash
# tests/hip_corpus/corpus_build_check.sh — what the corpus build must give,
# checked without running anything: every program is an executable that
# needs libamdhip64, and its embedded offload bundle carries a code object
# for its processor and for no other corpus processor (a program listed as
# NAME:host has no device code and must carry none); module_kernels.co is
# an AMDGPU ELF for its processor. The first program is also checked
# against the wrong processor, which must fail (negative control).
#
# Usage: corpus_build_check.sh DIR LLVM_READELF "ARCH..." PROGRAM...
set -u
dir=$1 readelf=$2 archs=$3
shift 3
first=$1
fails=0

# carries PROGRAM ARCH: the bundle entry id of ARCH is in the program.
carries() { grep -q -a "hipv4-amdgcn-amd-amdhsa--$2" "$1"; }

check() {  # check PROGRAM ARCH [host]
  local p=$1 arch=$2 other
  [ -x "$p" ] || { echo "missing: $p"; return 1; }
  "$readelf" -d "$p" | grep -q 'NEEDED.*libamdhip64\.so' ||
    { echo "$p: does not need libamdhip64"; return 1; }
  if [ "${3:-}" = host ]; then  # host code only: no bundle at all
    grep -q -a "hipv4-amdgcn-amd-amdhsa--" "$p" &&
      { echo "$p: host-only program carries a code object"; return 1; }
    return 0
  fi
  carries "$p" "$arch" || { echo "$p: no $arch code object"; return 1; }
  for other in $archs; do
    [ "$other" = "$arch" ] && continue
    carries "$p" "$other" && { echo "$p: carries $other too"; return 1; }
  done
  return 0
}

count=0
for arch in $archs; do
  for name in "$@"; do
    # NAME:host marks a program without device code (module.hip loads its
    # kernels at run time).
    check "$dir/$arch/${name%:host}" "$arch" "$([ "${name%:host}" != "$name" ] && echo host)" ||
      fails=$((fails + 1))
    count=$((count + 1))
  done
  "$readelf" -h "$dir/$arch/module_kernels.co" 2>/dev/null |
    grep -Eq "Flags:.*, $arch(,|\$)" ||
    { echo "$dir/$arch/module_kernels.co: not a $arch code object"; fails=$((fails + 1)); }
done

# Negative control: the first program of the first processor checked as if
# built for the second must fail.
set -- $archs
if [ $# -ge 2 ] && check "$dir/$1/$first" "$2" >/dev/null; then
  echo "negative control: $1 program accepted as $2"; fails=$((fails + 1))
fi

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "$count programs checked"
