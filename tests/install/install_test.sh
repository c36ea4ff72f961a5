#!/bin/sh
# tests/install/install_test.sh BUILD_DIR SOURCE_DIR — installs BUILD_DIR
# into a staging prefix and uses it the way a product does:
#   1. libredline.so.0 exports exactly the public API (check_exports.sh);
#   2. the example builds out of tree with pkg-config (shared, and static
#      with --static) and with find_package(redline), and every build runs;
#   3. the installed CLI finds its code objects without REDLINE_KERNELS_DIR.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/stage
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$stage" >"$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }
lib=$(dirname "$(find "$stage" -name libredline.so.0 | head -n 1)")
[ -n "$lib" ] && [ -L "$lib/libredline.so" ] || fail "no libredline.so.0"
readelf -d "$lib/libredline.so.0" | grep -q 'SONAME.*\[libredline.so.0\]' ||
  fail "SONAME is not libredline.so.0"
for f in bin/redline include/redline/replay.h include/redline/shadow_json.h; do
  [ -e "$stage/$f" ] || fail "missing $f"
done
for f in pkgconfig/redline.pc cmake/redline/redlineConfig.cmake \
    redline/libredline_capture.so redline/kernels/vecchain-gfx1100.co; do
  [ -e "$lib/$f" ] || fail "missing $lib/$f"
done
"$src/tests/install/check_exports.sh" "$lib/libredline.so.0" \
  "$stage/include" "$src/redline/libredline.map"

co=$lib/redline/kernels/vecchain-gfx1100.co
examples="$src/tests/example/vecchain_example.c $src/kernels/workloads/workload.c
  $src/kernels/workloads/workload_seed.c $src/kernels/workloads/vecchain.c $src/kernels/workloads/decode.c
  $src/kernels/workloads/decode_buffers.c $src/kernels/workloads/verify.c
  $src/kernels/workloads/verify_buffers.c $src/kernels/workloads/verify_draft.c"
export PKG_CONFIG_PATH="$lib/pkgconfig"
# shellcheck disable=SC2046,SC2086
${CC:-cc} -std=c11 -O1 -I"$src" $(pkg-config --cflags redline) $examples \
  -o "$work/example-pc" $(pkg-config --libs redline) -lm
LD_LIBRARY_PATH=$lib "$work/example-pc" "$co" >"$work/pc.txt" ||
  fail "pkg-config example failed"
# shellcheck disable=SC2046,SC2086
${CC:-cc} -std=c11 -O1 -I"$src" $(pkg-config --cflags redline) $examples \
  -o "$work/example-static" -L"$lib" -l:libredline.a \
  $(pkg-config --static --libs-only-l redline | sed 's/-lredline//') -lm
ldd "$work/example-static" | grep -q libredline && fail "static example links libredline.so"
"$work/example-static" "$co" >"$work/static.txt" || fail "static example failed"

cmake -S "$src/tests/install" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$stage" \
  -DREDLINE_SOURCE_DIR="$src" >"$work/cmake.log" ||
  { cat "$work/cmake.log" >&2; fail "find_package(redline) failed"; }
cmake --build "$work/cmake" >"$work/build.log" ||
  { cat "$work/build.log" >&2; fail "CMake example build failed"; }
LD_LIBRARY_PATH=$lib "$work/cmake/vecchain_example" "$co" >"$work/cm.txt" ||
  fail "CMake example failed"
"$work/cmake/vecchain_example_static" "$co" >/dev/null ||
  fail "CMake static example failed"
grep -q '^proof: device=sim route=aql state=replaying replays=12 ' "$work/cm.txt" ||
  fail "CMake example printed no proof"
cmp -s "$work/pc.txt" "$work/cm.txt" || fail "the two builds disagree"

# The installed CLI finds the installed code objects by itself.
env -u REDLINE_KERNELS_DIR "$stage/bin/redline" capture --workload vecchain \
  -o "$work/v.rlc" >/dev/null || fail "installed redline capture failed"
echo "install_test: PASS (pkg-config shared + static, find_package shared + static, installed CLI)"
