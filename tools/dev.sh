#!/usr/bin/env bash
# tools/dev.sh — one entry point for a fresh Debian 12 machine.
#   tools/dev.sh demo        install what is missing, build, run the main job
#   tools/dev.sh test        install what is missing, build, run the test suite
#   tools/dev.sh test-asan   the suite (without the slow label) under ASan+UBSan
#   tools/dev.sh test-tsan   the threaded tests (command processor, ring
#                            protocol, replays) built with TSan
#   tools/dev.sh fuzz-smoke  build the libFuzzer targets (clang-19), short runs
#   tools/dev.sh deb         build the Debian packages (dpkg-buildpackage, into
#                            build-deb/), lintian them, install them with apt
#                            and run `redline demo` from the installed package;
#                            DEB_BUILD_OPTIONS=nocheck skips the package tests
#   tools/dev.sh deps        only install the Debian packages
# Build trees: build/ (default), build-asan/, build-tsan/, build-fuzz/. Set JOBS to
# override the parallelism. Package installation and build output go to
# build-logs/STAGE.log; the terminal shows one line per stage with its time,
# and on a failure the log's last lines and its path (DEV_VERBOSE=1: all of
# it on the terminal, as before).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JOBS=${JOBS:-$(nproc)}

PACKAGES=(
  cmake pkg-config gcc make
  libxxhash-dev libelf-dev libmsgpack-dev libcjson-dev libzstd-dev libcmocka-dev
  clang-19 clang-tools-19 llvm-19 lld-19 libclang-rt-19-dev rocm-device-libs
  libhsa-runtime-dev libdrm-dev libamdhip64-dev librocprim-dev
  python3 python3-pytest python3-venv python3-setuptools python3-wheel groff-base man-db gnuplot-nox
  debhelper dh-python dpkg-dev fakeroot lintian
)

LOG_DIR=$ROOT/build-logs

# stage NAME CMD...: runs CMD with its output in build-logs/NAME.log and
# prints one line: the stage, ok or FAILED, the time it took.
stage() {
  local name=$1 start=$SECONDS status=0
  shift
  if [ "${DEV_VERBOSE:-0}" = 1 ]; then
    "$@"
    return
  fi
  mkdir -p "$LOG_DIR"
  local log=$LOG_DIR/$name.log
  printf '%s ... ' "$name" >&2
  "$@" >"$log" 2>&1 || status=$?
  if [ $status -eq 0 ]; then
    echo "ok ($((SECONDS - start)) s)" >&2
    return 0
  fi
  echo "FAILED ($((SECONDS - start)) s, exit $status); the log's last lines:" >&2
  tail -n 40 "$log" >&2
  echo "full log: $log" >&2
  return $status
}

deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure() {  # configure DIR [cmake args...]
  local dir=$1; shift
  cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
}

build() {  # build DIR [cmake args...]
  stage "configure-$1" configure "$@"
  stage "build-$1" cmake --build "$1" -j "$JOBS"
}

# The executables of the tests carrying LABEL (each such test is named after
# its executable; the executables' add_dependencies bring what they load at
# run time): the TSan stage builds only these instead of the whole tree.
label_targets() {  # label_targets DIR LABEL
  ctest --test-dir "$1" --show-only=json-v1 -L "$2" |
    python3 -c 'import json, sys; print(" ".join(t["name"] for t in json.load(sys.stdin)["tests"]))'
}

demo() {
  build build
  build/tools/redline demo
}

run_tests() {  # run_tests DIR [ctest args...]
  local dir=$1; shift
  ctest --test-dir "$dir" --output-on-failure -j "$JOBS" --timeout 600 "$@"
}

# Builds the packages from a copy of the tracked tree (dpkg-buildpackage
# writes next to the source directory), checks them with lintian, installs
# them and runs the demo from the installed CLI.
deb() {
  local out=$ROOT/build-deb src
  rm -rf "$out" && mkdir -p "$out"
  src=$out/redline-$(sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)
  mkdir -p "$src"
  git ls-files -z | xargs -0 cp --parents -t "$src"
  local start=$SECONDS
  (cd "$src" && DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} parallel=$JOBS" \
    dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 ||
    { tail -n 50 "$out/build.log" >&2; return 1; }
  echo "deb: packages built in $((SECONDS - start)) s (log: $out/build.log)" >&2
  lintian --fail-on error,warning "$out"/*.changes
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # --reinstall: packages of the same version from an earlier build would
  # otherwise stay installed ("already the newest version"), and the checks
  # below would test the old build.
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --reinstall \
    --no-install-recommends "$out"/*.deb
  (cd / && env -u REDLINE_KERNELS_DIR redline demo --layers 2)
  (cd / && /usr/bin/python3 -c 'import redline; print("python3-redline", redline.__version__)')
  # Python driving a replay, and the C example built against the installed
  # -dev package with pkg-config, both on the installed code objects.
  local kernels
  kernels=$(pkg-config --variable=libdir redline)/redline/kernels
  local work
  work=$(mktemp -d)
  (cd / && redline capture --workload vecchain -o "$work/v.rlc" >/dev/null)
  (cd / && /usr/bin/python3 -c '
import sys, redline
capture = redline.Capture.read(sys.argv[1])
with redline.Device() as device, device.replay(capture) as replay:
    replay.contract()
    replay.prepare("pm4")
    replay.run(pos=3)
    assert replay.proof()["replay_count"] == 1, replay.proof()
print("python3-redline: replay ok")' "$work/v.rlc")
  # shellcheck disable=SC2046
  cc -std=c11 -O1 -I"$ROOT" $(pkg-config --cflags redline) \
    tests/example/vecchain_example.c kernels/workloads/workload.c \
    kernels/workloads/workload_seed.c \
    kernels/workloads/vecchain.c kernels/workloads/decode.c \
    kernels/workloads/decode_buffers.c kernels/workloads/verify.c \
    kernels/workloads/verify_buffers.c kernels/workloads/verify_draft.c \
    -o "$work/example" \
    $(pkg-config --libs redline) -lm
  "$work/example" "$kernels/vecchain-gfx1100.co" >/dev/null ||
    { echo "deb: the pkg-config example failed" >&2; return 1; }
  rm -rf "$work"
  # The installed manual page renders and names the options; the completion
  # is where bash-completion looks for it.
  man -P cat redline-shadow 2>/dev/null | grep -q -- '--arms' ||
    { echo "deb: man redline-shadow does not show --arms" >&2; return 1; }
  test -f /usr/share/bash-completion/completions/redline
}

case "${1:-}" in
  deps) stage deps deps ;;
  demo) stage deps deps; demo ;;
  # The large label (the large corpus programs' default shadows on three
  # targets, docs/hip-corpus.md "Large programs") takes longer than CI's
  # budget: run it by hand with `ctest --test-dir build -L large`.
  test) stage deps deps; build build; run_tests build -LE large ;;
  test-asan)
    stage deps deps
    build build-asan -DRL_SANITIZE=address,undefined
    # The slow label (48-layer shadows) adds no coverage the sanitizers need
    # beyond the 4-layer runs, and costs minutes under ASan.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
      run_tests build-asan -LE slow ;;
  test-tsan)
    stage deps deps
    stage configure-build-tsan configure build-tsan -DRL_SANITIZE=thread
    # shellcheck disable=SC2046  # one word per target
    stage build-build-tsan cmake --build build-tsan -j "$JOBS" \
      --target $(label_targets build-tsan threaded)
    TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure \
      -j "$JOBS" --timeout 600 -L threaded ;;
  deb) stage deps deps; deb ;;
  fuzz-smoke)
    stage deps deps
    stage configure-build-fuzz configure build-fuzz -DCMAKE_C_COMPILER=clang-19 -DRL_FUZZ=ON
    stage build-build-fuzz cmake --build build-fuzz -j "$JOBS" --target rl_fuzz_all  # fuzzers + seeds
    ctest --test-dir build-fuzz --output-on-failure -L fuzz ;;
  *) sed -n '2,18p' "$0" >&2; exit 2 ;;
esac
