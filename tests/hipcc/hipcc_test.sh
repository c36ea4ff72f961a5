#!/bin/bash
# tests/hipcc/hipcc_test.sh — redline-hipcc: option parsing (through
# REDLINE_HIPCC_DRY_RUN), --genco code objects checked with llvm-readelf,
# a whole program compiled and linked against libamdhip64, and the errors
# (unknown processor, missing value, missing device libraries) with their
# messages and exit codes. Each checker is first shown to fail on a wrong
# input (negative controls), so a passing run means something.
#
# Usage: hipcc_test.sh REDLINE_HIPCC LLVM_READELF
set -u
hipcc=$1
readelf=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/hipcc_test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

# expect_status WANT DESC CMD... : run CMD, stderr to $work/err.
expect_status() {
  local want=$1 desc=$2; shift 2
  "$@" >"$work/out" 2>"$work/err"
  local got=$?
  if [ "$got" -eq "$want" ]; then pass "$desc (exit $got)"
  else fail "$desc: exit $got, wanted $want; stderr: $(head -c 400 "$work/err")"; fi
}

# dry COMMAND-ARGS... : the clang command line the driver would run.
dry() { REDLINE_HIPCC_DRY_RUN=1 "$hipcc" "$@" 2>&1 >/dev/null; }

# has LINE WORD... : every WORD is an argument of LINE (space separated).
has() {
  local line=" $1 "; shift
  local w
  for w in "$@"; do
    case $line in *" $w "*) ;; *) return 1 ;; esac
  done
}
lacks() { ! has "$1" "$2"; }

# is_code_object FILE ARCH : an AMDGPU ELF whose e_flags name ARCH.
is_code_object() {
  local h
  h=$("$readelf" -h "$1" 2>/dev/null) || return 1
  echo "$h" | grep -q 'Machine:.*EM_AMDGPU' || return 1
  echo "$h" | grep -Eq "Flags:.*[, ]$2([, ]|\$)" || return 1
}

cat >"$work/k.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void k(float* y, int n) {
  __shared__ float t[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = i < n ? y[i] : 0.0f;
  __syncthreads();
  if (i < n) y[i] = sinf(t[63 - threadIdx.x]) + expf(t[threadIdx.x]);
}
int main() {
  float* y = nullptr;
  if (hipMalloc(&y, 64 * sizeof(float)) != hipSuccess) return 1;
  k<<<1, 64>>>(y, 64);
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
HIP

# --- option parsing -----------------------------------------------------
line=$(dry -c -O3 -I inc -D X=1 -std=c++17 "$work/k.hip" -o "$work/k.o")
has "$line" --offload-arch=gfx1100 -O3 -I inc -D X=1 -std=c++17 -c \
    -mcode-object-version=5 -x "$work/k.hip" -o "$work/k.o" &&
  lacks "$line" --hip-link && pass "compile flags pass through, default gfx1100" ||
  fail "compile flags: $line"
# negative control for `has`: a flag that is not there is not found.
has "$line" -O2 && fail "has() found -O2 in: $line" || pass "has() rejects a missing flag"

line=$(dry --offload-arch=gfx1151 --offload-arch gfx1201 --offload-arch=gfx1151 "$work/k.hip" -o "$work/k")
has "$line" --offload-arch=gfx1151 --offload-arch=gfx1201 --hip-link &&
  lacks "$line" --offload-arch=gfx1100 &&
  [ "$(echo "$line" | grep -o 'offload-arch=gfx1151' | wc -l)" -eq 1 ] &&
  pass "repeated --offload-arch, duplicates dropped, link adds --hip-link" ||
  fail "repeated arch: $line"

has "$line" -mprintf-kind=buffered && pass "device printf buffered by default" ||
  fail "no -mprintf-kind=buffered: $line"
line=$(dry -mprintf-kind=hostcall -c "$work/k.hip")
has "$line" -mprintf-kind=hostcall && lacks "$line" -mprintf-kind=buffered &&
  pass "-mprintf-kind= given by the user wins" || fail "printf kind: $line"

line=$(dry "$work/k.hip" obj.o other.cu -o prog)
echo "$line" | grep -q -- "-x hip $work/k.hip -x none obj.o -x hip other.cu" &&
  pass "HIP sources tagged -x hip, objects -x none" || fail "languages: $line"

line=$(dry --genco --offload-arch=gfx1201 "$work/k.hip" -o k.co)
has "$line" --cuda-device-only --no-gpu-bundle-output --offload-arch=gfx1201 &&
  lacks "$line" --hip-link && pass "--genco is device-only, unbundled for one processor" ||
  fail "genco: $line"

# hipcc's platform macros, defined before any header: a source that tests
# them first compiles; without them (the negative control, clang alone) it
# does not.
has "$line" -D__HIP_PLATFORM_AMD__= -D__HIP_PLATFORM_HCC__= &&
  pass "platform macros on the command line" || fail "platform macros: $line"
cat >"$work/plat.hip" <<'HIP'
#ifndef __HIP_PLATFORM_AMD__
#error "__HIP_PLATFORM_AMD__ is not defined before the HIP headers"
#endif
#include <hip/hip_runtime.h>
__global__ void plat(int* y) { y[threadIdx.x] = 1; }
HIP
expect_status 0 "a source testing __HIP_PLATFORM_AMD__ first compiles" \
  "$hipcc" --genco -O2 "$work/plat.hip" -o "$work/plat.co"
clang_bin=$(REDLINE_HIPCC_DRY_RUN=1 "$hipcc" -c "$work/plat.hip" 2>&1 >/dev/null | awk '{print $1}')
if "$clang_bin" -x hip -nogpulib -nogpuinc --offload-arch=gfx1100 --cuda-device-only \
    -fsyntax-only "$work/plat.hip" >/dev/null 2>&1; then
  fail "clang without the macros accepted plat.hip: the check cannot tell"
else
  pass "clang without the macros rejects plat.hip (negative control)"
fi

# --- errors ---------------------------------------------------------------
expect_status 2 "unknown processor" "$hipcc" --offload-arch=gfx90a "$work/k.hip"
grep -q "unsupported --offload-arch 'gfx90a' (supported: gfx1100 gfx1151 gfx1201)" "$work/err" &&
  pass "unknown processor message" || fail "message: $(cat "$work/err")"
expect_status 2 "--offload-arch without a value" "$hipcc" "$work/k.hip" --offload-arch
expect_status 2 "-o without a value" "$hipcc" "$work/k.hip" -o
expect_status 2 "no input" "$hipcc"
REDLINE_HIPCC_DEVICE_LIBS=$work/none expect_status 3 "device libraries missing" \
  "$hipcc" --genco "$work/k.hip" -o "$work/x.co"
grep -q "rocm-device-libs bitcode not found in '$work/none'" "$work/err" &&
  pass "missing device libraries message" || fail "message: $(cat "$work/err")"
REDLINE_HIPCC_CLANG=$work/no-clang expect_status 3 "clang missing" \
  "$hipcc" --genco "$work/k.hip" -o "$work/x.co"
# negative control for expect_status: a status that does not match fails.
before=$fails
expect_status 0 "(negative control: must FAIL)" "$hipcc" --offload-arch=gfx90a "$work/k.hip" 2>/dev/null
if [ $fails -eq $((before + 1)) ]; then fails=$before; pass "expect_status catches a wrong status"
else fail "expect_status did not catch a wrong status"; fi

# --- code objects -----------------------------------------------------------
for arch in gfx1100 gfx1151 gfx1201; do
  expect_status 0 "--genco $arch" "$hipcc" --genco --offload-arch=$arch -O2 \
    "$work/k.hip" -o "$work/k-$arch.co"
  is_code_object "$work/k-$arch.co" $arch && pass "$arch code object (llvm-readelf)" ||
    fail "$arch: not an AMDGPU $arch ELF"
done
# negative controls for is_code_object: wrong processor, not an ELF.
is_code_object "$work/k-gfx1100.co" gfx1151 && fail "is_code_object took gfx1100 for gfx1151" ||
  pass "is_code_object rejects the wrong processor"
is_code_object "$work/k.hip" gfx1100 && fail "is_code_object took a source file" ||
  pass "is_code_object rejects a non-ELF"
"$readelf" -s "$work/k-gfx1100.co" | grep -q ' _Z1kPfi$' &&
  pass "kernel symbol _Z1kPfi (k) in the code object" || fail "no kernel symbol _Z1kPfi (k)"

expect_status 0 "--genco for two processors" "$hipcc" --genco \
  --offload-arch=gfx1100 --offload-arch=gfx1151 "$work/k.hip" -o "$work/k2.co"
[ "$(head -c 24 "$work/k2.co")" = "__CLANG_OFFLOAD_BUNDLE__" ] &&
  pass "two processors give an offload bundle" || fail "no bundle magic"

# --- device-library corrections ------------------------------------------------
# amd_mixed_dot(__half2, __half2, float, saturate): Debian's ockl always sets
# the clamp bit; redline's ockl_fixes.bc makes it follow |saturate|. The
# saturating kernel is the negative control: the objdump check must see its
# clamp, so a check that never finds one cannot pass.
cat >"$work/dot.hip" <<'HIP'
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
__global__ void dot_plain(const __half2* a, const __half2* b, float* c) {
  c[threadIdx.x] = amd_mixed_dot(a[threadIdx.x], b[threadIdx.x], c[threadIdx.x], false);
}
__global__ void dot_saturate(const __half2* a, const __half2* b, float* c) {
  c[threadIdx.x] = amd_mixed_dot(a[threadIdx.x], b[threadIdx.x], c[threadIdx.x], true);
}
HIP
objdump="$(dirname "$readelf")/llvm-objdump"
# dot_lines KERNEL: the v_dot2 instructions of KERNEL in dot.co.
dot_lines() {
  "$objdump" -d --mcpu=gfx1100 "$work/dot.co" |
    awk -v k="$1" '/^[0-9a-f]+ <.*>:$/ { on = index($0, k) > 0 } on && /dot2/'
}
if "$hipcc" --genco -O2 "$work/dot.hip" -o "$work/dot.co" 2>"$work/err"; then
  plain=$(dot_lines dot_plain) sat=$(dot_lines dot_saturate)
  [ -n "$plain" ] && ! echo "$plain" | grep -q clamp &&
    pass "amd_mixed_dot(.., false): v_dot2 without clamp" ||
    fail "amd_mixed_dot(.., false) gives: ${plain:-no v_dot2}"
  echo "$sat" | grep -q clamp && pass "amd_mixed_dot(.., true): v_dot2 with clamp (negative control)" ||
    fail "amd_mixed_dot(.., true) gives: ${sat:-no v_dot2}"
else
  fail "dot.hip: $(head -c 400 "$work/err")"
fi

# amd_mixed_dot(char4, char4, int): Debian's __ockl_sdot4 takes the gfx9/10
# path for gfx11 and the kernel came out without any dot product; redline's
# version gives gfx11's v_dot4_i32_iu8. Negative control: the same kernel
# with a device-library directory lacking ockl_fixes.bc has none.
cat >"$work/i8.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void dot_i8(const char4* a, const char4* b, int* c) {
  c[threadIdx.x] = amd_mixed_dot(a[threadIdx.x], b[threadIdx.x], c[threadIdx.x], false);
}
HIP
mkdir -p "$work/nofix"
devlib_dir=$(cd "$(dirname "$hipcc")" && pwd)/hipcc-devlib
for f in "$devlib_dir"/oclc_isa_version_*.bc "$devlib_dir"/link_base.bc; do ln -s "$f" "$work/nofix/"; done
has_dot4() { "$objdump" -d --mcpu=gfx1100 "$1" | grep -q v_dot4_i32_iu8; }
if "$hipcc" --genco -O2 "$work/i8.hip" -o "$work/i8.co" 2>"$work/err"; then
  has_dot4 "$work/i8.co" && pass "amd_mixed_dot(char4): v_dot4_i32_iu8" ||
    fail "amd_mixed_dot(char4) has no v_dot4_i32_iu8"
else
  fail "i8.hip: $(head -c 400 "$work/err")"
fi
if REDLINE_HIPCC_DEVLIB=$work/nofix "$hipcc" --genco -O2 "$work/i8.hip" -o "$work/i8-nofix.co" 2>"$work/err"; then
  has_dot4 "$work/i8-nofix.co" && fail "Debian's sdot4 gave v_dot4 too: the check cannot tell" ||
    pass "without ockl_fixes.bc no dot product (negative control)"
else
  fail "i8.hip without fixes: $(head -c 400 "$work/err")"
fi

# Buffered device printf needs __printf_alloc, which Debian's HIP device
# libraries lack; redline's ockl_fixes.bc provides it. The code object must
# link (lld: no undefined symbols) and list the format in amdhsa.printf;
# with -nogpulib (no device library at all) the same kernel must not link.
cat >"$work/pf.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void pf(int v) { printf("value %d\n", v + (int)threadIdx.x); }
HIP
expect_status 0 "printf kernel links (__printf_alloc)" "$hipcc" --genco -O2 \
  "$work/pf.hip" -o "$work/pf.co"
"$readelf" --notes "$work/pf.co" 2>/dev/null | grep -q 'value %d' &&
  pass "printf format in amdhsa.printf" || fail "no printf metadata"
expect_status 1 "printf kernel without device libraries fails to link (negative control)" \
  "$hipcc" --genco -O2 -nogpulib "$work/pf.hip" -o "$work/pf-nolib.co"
grep -q "__printf_alloc" "$work/err" && pass "the missing symbol is __printf_alloc" ||
  fail "expected an undefined __printf_alloc: $(head -c 300 "$work/err")"

# --- a whole program ----------------------------------------------------------
expect_status 0 "compile and link a program" "$hipcc" -O2 "$work/k.hip" -o "$work/k"
"$readelf" -d "$work/k" 2>/dev/null | grep -q 'NEEDED.*libamdhip64\.so' &&
  pass "program needs libamdhip64" || fail "program does not link libamdhip64"
expect_status 0 "separate compile (-c)" "$hipcc" -c -O1 "$work/k.hip" -o "$work/k.o"
expect_status 0 "link an object only" "$hipcc" "$work/k.o" -o "$work/k-from-o"

if [ $fails -ne 0 ]; then echo "$fails check(s) failed" >&2; exit 1; fi
echo "all checks passed"
