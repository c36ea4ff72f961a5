#!/bin/bash
# tests/hip_corpus/corpus_kernels.sh — `redline kernels` on the executables
# redline-hipcc links (docs/cli.md, `redline kernels`): for every processor
# the corpus program lists its one embedded code object under that
# processor's bundle triple with its kernels, `--isa` scans them and
# `--json` gives {code_objects: [...]} with the triple. A program built for
# two processors (a host ELF with both entries) lists both, and a shared
# library its one. Negative
# controls: an ELF without device code (/bin/sh) and a program whose
# bundle header is corrupted each fail with exit 3 and a message naming
# why; a program is never listed with a processor it was not built for.
#
# Usage: corpus_kernels.sh REDLINE DIR HIPCC SRC "ARCH..."
set -u
redline=$1 dir=$2 hipcc=$3 src=$4 archs=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for arch in $archs; do
  p=$dir/$arch/saxpy
  out=$("$redline" kernels "$p" 2>&1) || fail "$arch: exit $? on $p: $out"
  grep -q "== code object hipv4-amdgcn-amd-amdhsa--$arch" <<<"$out" ||
    fail "$arch: no $arch code object listed: $out"
  grep -q "^kernel .*saxpy" <<<"$out" || fail "$arch: saxpy kernel not listed"
  grep -q "1 embedded code object$" <<<"$out" || fail "$arch: count: $out"
  for other in $archs; do
    [ "$other" = "$arch" ] && continue
    grep -q -- "--$other" <<<"$out" && fail "$arch: lists $other"
  done
  out=$("$redline" kernels --isa "$p" 2>&1) || fail "$arch --isa: exit $?"
  grep -q "instructions not modelled" <<<"$out" ||
    fail "$arch --isa: no scan: $out"
  "$redline" kernels --json "$p" >"$tmp/k.json" || fail "$arch --json: exit $?"
  python3 - "$tmp/k.json" "$arch" <<'PY' || fail "$arch --json: wrong form"
import json, sys
root = json.load(open(sys.argv[1]))
objs = root["code_objects"]
assert len(objs) == 1, objs
assert objs[0]["bundle_entry"].endswith("--" + sys.argv[2]), objs[0]
assert objs[0]["processor"] == sys.argv[2]
assert any("saxpy" in k["name"] for k in objs[0]["kernels"])
PY
done

# Two processors in one executable: both listed, in bundle order.
set -- $archs
if [ $# -lt 2 ]; then
  echo "corpus_kernels: one processor given, the two-processor case skipped"
elif "$hipcc" --offload-arch="$1" --offload-arch="$2" -O2 -o "$tmp/two" \
    "$src/saxpy.hip" 2>"$tmp/hipcc.err"; then
  out=$("$redline" kernels "$tmp/two" 2>&1) || fail "two: exit $?: $out"
  grep -q "2 embedded code objects" <<<"$out" || fail "two: count: $out"
  for a in "$1" "$2"; do
    grep -q "== code object hipv4-amdgcn-amd-amdhsa--$a" <<<"$out" ||
      fail "two: $a missing"
  done
else
  fail "redline-hipcc for two processors: $(cat "$tmp/hipcc.err")"
fi

# A shared library carries its code objects the same way.
if "$hipcc" --offload-arch="$1" -O2 -fPIC -shared -o "$tmp/libsaxpy.so" \
    "$src/saxpy.hip" 2>"$tmp/hipcc.err"; then
  out=$("$redline" kernels "$tmp/libsaxpy.so" 2>&1) || fail "so: exit $?: $out"
  grep -q "== code object hipv4-amdgcn-amd-amdhsa--$1" <<<"$out" &&
    grep -q "^kernel .*saxpy" <<<"$out" || fail "so: not listed: $out"
else
  fail "redline-hipcc -shared: $(cat "$tmp/hipcc.err")"
fi

# Negative controls.
"$redline" kernels /bin/sh >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "/bin/sh: exit $rc, expected 3"
grep -q "no code objects.*no .hip_fatbin section" "$tmp/out" ||
  fail "/bin/sh: message: $(cat "$tmp/out")"
cp "$dir/$1/saxpy" "$tmp/corrupt"
python3 - "$tmp/corrupt" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(b"__CLANG_OFFLOAD_BUNDLE__")
data[at + 24:at + 32] = (10**6).to_bytes(8, "little")  # entry count
open(sys.argv[1], "wb").write(data)
PY
"$redline" kernels "$tmp/corrupt" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "corrupt bundle: exit $rc, expected 3"
grep -q "offload bundle 0: 1000000 entries" "$tmp/out" ||
  fail "corrupt bundle: message: $(cat "$tmp/out")"

[ $fails -eq 0 ] && echo "corpus_kernels: ok ($archs)"
exit $((fails > 0))
