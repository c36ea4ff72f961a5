#!/bin/sh
# tests/unit/sim/hip_sim/hip_sim_test.sh REDLINE PROGRAMS_DIR WORK_DIR — the
# HIP runtime over the simulator on the programs of hip_sim_tests.cmake,
# through `redline run`. Every case has a negative control showing its
# check can fail:
#   api       every API check passes (exit 0, the not-supported entry named
#             once) / HIP_SIM_TEST_BREAK=1 makes a check fail (exit 1); the
#             processor and version from --processor or the stand-in ISA's
#             target id / a wrong expected arch or version fails (exit 1)
#   module    module load, globals, launches, graphs / the same break
#   printf    stdout is the expected lines / a changed line is noticed
#   trap      exit 3 with the kernel named, `redline run` exits 3 and says a
#             launch failed / without the trap it exits 0
#   run       the summary line, exit status, --processor gfx1151
#   capture   --capture, then `redline shadow FILE` (no --windows) on every
#             arm passes / --flip-byte fails; a trapped or empty run's
#             capture, or one with a hipMemsetAsync into a recorded buffer
#             mid-run, is incomplete and refused (exit 4)
set -u
redline=$1
bin=$2
dir=$3
rm -rf "$dir"
mkdir -p "$dir"
fail() {
  echo "hip_sim_test: FAIL: $*" >&2
  exit 1
}
# run NAME EXPECTED_EXIT ARGS...: redline run ARGS, stdout/stderr in
# $dir/NAME.out/.err.
run() {
  name=$1 want=$2
  shift 2
  "$redline" run "$@" > "$dir/$name.out" 2> "$dir/$name.err"
  got=$?
  [ "$got" = "$want" ] ||
    fail "$name: exit $got, expected $want: $(cat "$dir/$name.err")"
}

# api
HIP_SIM_TEST_ARCH=gfx1100 run api 0 -- "$bin/hip_sim_api"
grep -q "^hip_sim_api: ok" "$dir/api.out" || fail "api: $(cat "$dir/api.out")"
[ "$(grep -c "hipMemset2D is not supported" "$dir/api.err")" = 1 ] ||
  fail "api: the not-supported entry is not named once: $(cat "$dir/api.err")"
grep -q "^redline run: .*hip_sim_api exited 0: [0-9]* kernels, [0-9]* launches, device time [0-9.]* ms (gfx1100, isa)$" \
  "$dir/api.err" || fail "api: summary line: $(cat "$dir/api.err")"
HIP_SIM_TEST_ARCH=gfx1151 HIP_SIM_TEST_VERSION=11.5 run api_gfx1151 0 \
  --processor gfx1151 -- "$bin/hip_sim_api"
HIP_SIM_TEST_ARCH=gfx1100 run api_arch_control 1 --processor gfx1151 -- \
  "$bin/hip_sim_api"
HIP_SIM_TEST_VERSION=11.0 run api_version_control 1 --processor gfx1151 -- \
  "$bin/hip_sim_api"
# Without --processor, the stand-in ISA's target id, features and all.
REDLINE_STANDIN_ISA=amdgcn-amd-amdhsa--gfx1151:xnack- \
  HIP_SIM_TEST_ARCH=gfx1151 HIP_SIM_TEST_VERSION=11.5 run api_target_id 0 -- \
  "$bin/hip_sim_api"
HIP_SIM_TEST_BREAK=1 run api_break 1 -- "$bin/hip_sim_api"

# module and graphs
run module 0 -- "$bin/hip_sim_module" "$bin/hip_sim_kernels.co"
HIP_SIM_TEST_BREAK=1 run module_break 1 -- "$bin/hip_sim_module" \
  "$bin/hip_sim_kernels.co"

# printf
run printf 0 -- "$bin/hip_sim_printf"
printf '%s\n' \
  "thread 0: 40 4000000000 ff  2.50 hip|z|-1234567890123" \
  "thread 1: 41 4000000000 ff  2.50 hip|z|-1234567890123" \
  "host after kernel" > "$dir/printf.want"
cmp -s "$dir/printf.want" "$dir/printf.out" ||
  fail "printf: $(diff "$dir/printf.want" "$dir/printf.out")"
sed 's/41/42/' "$dir/printf.want" > "$dir/printf.control"
cmp -s "$dir/printf.control" "$dir/printf.out" &&
  fail "printf: the negative control matched"

# trap: the failure names the kernel, the exit status is the program's
run trap 3 -- "$bin/hip_sim_trap"
grep -q "kernel _Z7checkedPii failed: .*s_trap 2: the kernel trapped" \
  "$dir/trap.err" || fail "trap: kernel not named: $(cat "$dir/trap.err")"
grep -q "^redline run: .* exited 3: .*launch #0 (_Z7checkedPii) FAILED: .*a failed assert)" "$dir/trap.err" ||
  fail "trap: summary: $(cat "$dir/trap.err")"
run trap_control 0 -- "$bin/hip_sim_trap" no-trap

# run: a program that cannot start
run missing 127 -- "$dir/no-such-program"

# capture: whole program, shadow without --windows, byte-exact
run capture 0 --capture "$dir/capture.rlc" -- "$bin/hip_sim_capture"
grep -q "capture $dir/capture.rlc written, complete (6 launches)" \
  "$dir/capture.err" || fail "capture: $(cat "$dir/capture.err")"
for hazards in sequential adversarial; do
  "$redline" shadow "$dir/capture.rlc" --executor isa \
    --arms eager,aql,pm4,hip,hipgraph --hazards $hazards \
    > "$dir/shadow-$hazards.out" 2>&1 ||
    fail "shadow $hazards: $(cat "$dir/shadow-$hazards.out")"
  grep -q "^shadow: PASS (" "$dir/shadow-$hazards.out" ||
    fail "shadow $hazards: $(cat "$dir/shadow-$hazards.out")"
done
"$redline" shadow "$dir/capture.rlc" --executor isa --flip-byte buf1:4 \
  > "$dir/shadow-flip.out" 2>&1 && fail "shadow: --flip-byte passed"
grep -q "region buf1 differs" "$dir/shadow-flip.out" ||
  fail "shadow flip: $(cat "$dir/shadow-flip.out")"
# an empty run, and one whose launch failed: incomplete and refused
run capture_none 0 --capture "$dir/none.rlc" -- "$bin/hip_sim_capture" none
grep -q "INCOMPLETE: no launch was recorded" "$dir/capture_none.err" ||
  fail "capture none: $(cat "$dir/capture_none.err")"
run capture_trap 3 --capture "$dir/trap.rlc" -- "$bin/hip_sim_trap"
grep -q "INCOMPLETE: a forwarded launch failed" "$dir/capture_trap.err" ||
  fail "capture trap: $(cat "$dir/capture_trap.err")"
run capture_memset 0 --capture "$dir/memset.rlc" -- "$bin/hip_sim_capture" \
  memset
# a memset inside the window: recorded as a fill launch, complete, and its
# shadow byte-exact (docs/capture-interposer.md)
grep -q "7 launches recorded.*(1 of them copies or fills)" \
  "$dir/capture_memset.err" || fail "capture memset: $(cat "$dir/capture_memset.err")"
! grep -q INCOMPLETE "$dir/capture_memset.err" ||
  fail "capture memset: $(cat "$dir/capture_memset.err")"
"$redline" shadow "$dir/memset.rlc" --executor isa > "$dir/shadow-memset.out" 2>&1 ||
  fail "shadow memset: $(cat "$dir/shadow-memset.out")"
for file in none trap; do
  "$redline" replay "$dir/$file.rlc" > "$dir/replay-$file.out" 2>&1
  [ $? = 4 ] || fail "replay $file: not refused: $(cat "$dir/replay-$file.out")"
  "$redline" shadow "$dir/$file.rlc" --executor isa \
    > "$dir/shadow-$file.out" 2>&1
  [ $? = 4 ] || fail "shadow $file: not refused: $(cat "$dir/shadow-$file.out")"
done
# trace: --trace writes every launch's device span (Chrome/Perfetto
# format, checked by tests/tools/trace_check.py with its negative controls)
run trace 0 --trace "$dir/run-trace.json" -- "$bin/hip_sim_capture"
grep -q "trace $dir/run-trace.json written$" "$dir/trace.err" ||
  fail "trace: $(cat "$dir/trace.err")"
python3 "$(dirname "$0")/../../../tools/trace_check.py" --self-test \
  "$dir/run-trace.json" --dispatches 6 \
  --processes "redline run: HIP program" > "$dir/trace-check.out" 2>&1 ||
  fail "trace: $(cat "$dir/trace-check.out")"
echo "hip_sim_test: PASS"
