#!/bin/sh
# tests/standins/hip/interposer_test.sh — the unmodified HIP test program
# (hip_app) under LD_PRELOAD=libredline_capture.so, forwarding to the HIP
# stand-in; then `redline replay` of the capture on the sim (aql and pm4)
# must give the program's own region hashes. Also: a window of launches,
# a buffer freed mid-window after its last use (complete, replayed) and one
# used after it was freed (documented error, replay refused), and a
# capture marked incomplete refusing to replay. Then the triple-chevron
# program (hip_app_chevron: fat binary + hipLaunchKernel): complete capture,
# replayed to the same results; an unregistered stub marks it incomplete.
# The whole-program capture is also replayed on the real-runtime devices
# through their stand-ins: rocr (aql, pm4) and drm (route drm). A window
# that records no launch gives a capture marked incomplete.
# Usage: interposer_test.sh REDLINE HIP_APP INTERPOSER STANDIN CODE_OBJECT DIR
#        CHEVRON_APP HSA_STANDIN DRM_STANDIN
set -eu
redline=$1 app=$2 interposer=$3 standin=$4 co=$5 dir=$6 chevron=$7
hsa_standin=$8 drm_standin=$9
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. Whole program, all launches.
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/all.rlc \
  LD_PRELOAD=$interposer "$app" "$co" > "$dir/app.txt"
[ -f "$dir/all.rlc" ] || fail "no capture written"
! ls -a "$dir" | grep -q 'redline-tmp' || fail "temporary file left"
for route in aql pm4; do
  "$redline" replay "$dir/all.rlc" --route $route > "$dir/replay-$route.txt"
  for region in buf0 buf1 buf2; do
    want=$(grep "^region $region " "$dir/app.txt")
    grep -qx "$want" "$dir/replay-$route.txt" ||
      fail "$route: $region differs: app '$want'"
  done
done
# The same capture through ROCr and libdrm (stand-ins over the simulator).
: > "$dir/renderD128"
for device_route in rocr:aql rocr:pm4 drm:drm; do
  device=${device_route%%:*} route=${device_route#*:}
  REDLINE_HSA_LIBRARY=$hsa_standin REDLINE_DRM_LIBRARY=$drm_standin \
    REDLINE_DRM_RENDER_NODE=$dir/renderD128 \
    "$redline" replay "$dir/all.rlc" --device $device --route $route \
      > "$dir/replay-$device-$route.txt" ||
    fail "replay --device $device --route $route failed"
  for region in buf0 buf1 buf2; do
    want=$(grep "^region $region " "$dir/app.txt")
    grep -qx "$want" "$dir/replay-$device-$route.txt" ||
      fail "$device/$route: $region differs: app '$want'"
  done
done
grep -q "^launches 6$" "$dir/replay-aql.txt" 2>/dev/null ||
  "$redline" inspect "$dir/all.rlc" > "$dir/inspect.txt" 2>&1 || true

# 2. Negative control: without the interposer the app's results are the
# same (the interposer changes nothing the program sees).
REDLINE_HIP_LIBRARY=$standin "$app" "$co" > "$dir/plain.txt"
cmp -s "$dir/app.txt" "$dir/plain.txt" || fail "interposed results differ"

# 3. A launch window: launches 3..5 (the axpy loop), replayed from the state
# at the window's start, must still end at the program's results.
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/window.rlc \
  REDLINE_CAPTURE_WINDOW=launches:3:3 LD_PRELOAD=$interposer "$app" "$co" \
  > /dev/null 2> "$dir/window.err"
grep -q "3 launches recorded" "$dir/window.err" || fail "window: $(cat "$dir/window.err")"
"$redline" replay "$dir/window.rlc" > "$dir/replay-window.txt"
want=$(grep "^region buf2 " "$dir/app.txt")
grep -qx "$want" "$dir/replay-window.txt" || fail "window: buf2 differs"

# 4. Marker window: the second vc_axpy_pos launch only.
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/marker.rlc \
  REDLINE_CAPTURE_WINDOW=marker:vc_axpy_pos:1 LD_PRELOAD=$interposer \
  "$app" "$co" > /dev/null 2> "$dir/marker.err"
grep -q "1 launches recorded" "$dir/marker.err" || fail "marker: $(cat "$dir/marker.err")"

# 5. A buffer freed mid-window after its last use: the capture is
# complete and its replay gives the program's own buf0 and buf2.
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/freed-last.rlc \
  LD_PRELOAD=$interposer "$app" "$co" free-mid > "$dir/freed-last.txt" \
  2> "$dir/freed-last.err" || fail "the program crashed under the interposer"
! grep -q INCOMPLETE "$dir/freed-last.err" ||
  fail "freed after its last use: $(cat "$dir/freed-last.err")"
"$redline" replay "$dir/freed-last.rlc" > "$dir/replay-freed-last.txt" ||
  fail "freed after its last use: replay failed"
for region in buf0 buf2; do
  want=$(grep "^region $region " "$dir/freed-last.txt")
  grep -qx "$want" "$dir/replay-freed-last.txt" ||
    fail "freed after its last use: $region differs"
done
# A buffer used after it was freed: the program runs to the end, the
# capture says why it is incomplete and replay refuses it (exit 4).
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/freed.rlc \
  LD_PRELOAD=$interposer "$app" "$co" use-after-free > /dev/null \
  2> "$dir/freed.err" || fail "the program crashed under the interposer"
grep -q "INCOMPLETE: buffer buf1 used after it was freed" "$dir/freed.err" ||
  fail "freed: $(cat "$dir/freed.err")"
set +e
"$redline" replay "$dir/freed.rlc" > /dev/null 2> "$dir/freed-replay.err"
code=$?
set -e
[ $code -eq 4 ] || fail "freed: replay exit $code, expected 4"
grep -q "capture incomplete: buffer buf1 used after it was freed" "$dir/freed-replay.err" ||
  fail "freed: $(cat "$dir/freed-replay.err")"
# 6. The triple-chevron program: a complete capture of its 6 launches whose
# replay (aql and pm4) gives its own results, which are hip_app's.
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/chevron.rlc \
  LD_PRELOAD=$interposer "$chevron" > "$dir/chevron.txt" 2> "$dir/chevron.err" ||
  fail "chevron: $(cat "$dir/chevron.err")"
cmp -s "$dir/chevron.txt" "$dir/plain.txt" || fail "chevron: results differ from hip_app"
grep -q "6 launches recorded" "$dir/chevron.err" || fail "chevron: $(cat "$dir/chevron.err")"
! grep -q INCOMPLETE "$dir/chevron.err" || fail "chevron: $(cat "$dir/chevron.err")"
for route in aql pm4; do
  "$redline" replay "$dir/chevron.rlc" --route $route > "$dir/chevron-$route.txt" ||
    fail "chevron: replay --route $route refused"
  for region in buf0 buf1 buf2; do
    want=$(grep "^region $region " "$dir/chevron.txt")
    grep -qx "$want" "$dir/chevron-$route.txt" ||
      fail "chevron $route: $region differs: app '$want'"
  done
done

# 7. Negative control: a launch of a stub never registered is only counted
# as bypassed; the capture says so and replay refuses it.
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/unknown.rlc \
  LD_PRELOAD=$interposer "$chevron" unknown-stub > /dev/null 2> "$dir/unknown.err" ||
  fail "unknown stub: $(cat "$dir/unknown.err")"
grep -q "INCOMPLETE: a launch of host stub .*, never registered (__hipRegisterFunction)" \
  "$dir/unknown.err" || fail "unknown stub: $(cat "$dir/unknown.err")"
set +e
"$redline" replay "$dir/unknown.rlc" > /dev/null 2>&1
code=$?
set -e
[ $code -eq 4 ] || fail "unknown stub: replay exit $code, expected 4"

# 7b. A stub registered under a name its code object does not have: the
# INCOMPLETE note names the kernel and the cause, not "not seen loaded".
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/unknown-kernel.rlc \
  LD_PRELOAD=$interposer "$chevron" unknown-kernel > /dev/null \
  2> "$dir/unknown-kernel.err" ||
  fail "unknown kernel: $(cat "$dir/unknown-kernel.err")"
grep -q "INCOMPLETE: a launch of a kernel the interposer did not record: kernel 'vc_not_in_the_object' (__hipRegisterFunction): not in the metadata of code object 0" \
  "$dir/unknown-kernel.err" ||
  fail "unknown kernel: $(cat "$dir/unknown-kernel.err")"

# 7c. REDLINE_CAPTURE_MAX_LAUNCHES that is not a positive size: the
# interposer records nothing and says why; with 5 the 6th launch is not
# recorded and the capture names the budget.
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/budget-bad.rlc \
  REDLINE_CAPTURE_MAX_LAUNCHES=lots LD_PRELOAD=$interposer "$chevron" \
  > /dev/null 2> "$dir/budget-bad.err" ||
  fail "bad budget: $(cat "$dir/budget-bad.err")"
grep -q "REDLINE_CAPTURE_MAX_LAUNCHES (not capturing): " "$dir/budget-bad.err" ||
  fail "bad budget: $(cat "$dir/budget-bad.err")"
[ -e "$dir/budget-bad.rlc" ] && fail "bad budget: a capture was written"
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/budget5.rlc \
  REDLINE_CAPTURE_MAX_LAUNCHES=5 LD_PRELOAD=$interposer "$chevron" \
  > /dev/null 2> "$dir/budget5.err" ||
  fail "budget 5: $(cat "$dir/budget5.err")"
grep -q "5 launches recorded.*INCOMPLETE: more than 5 launches, the capture's budget" \
  "$dir/budget5.err" || fail "budget 5: $(cat "$dir/budget5.err")"

# 9. Device writes without kernels inside the window (an async upload, a
# memset, a device-to-device copy), and a graph captured from a stream
# (memset node, kernel node, copy node) launched three times: complete
# captures whose replays (aql and pm4) give the program's own results.
# Negative control: each mode's results differ from the plain run's, so a
# capture that dropped the copies or the graph's nodes would replay to
# different hashes and fail here.
for mode in copies graph; do
  REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/$mode.rlc \
    LD_PRELOAD=$interposer "$app" "$co" $mode > "$dir/$mode.txt" \
    2> "$dir/$mode.err" || fail "$mode: $(cat "$dir/$mode.err")"
  ! grep -q INCOMPLETE "$dir/$mode.err" || fail "$mode: $(cat "$dir/$mode.err")"
  ! cmp -s "$dir/$mode.txt" "$dir/plain.txt" ||
    fail "$mode: the results do not depend on the copies (no control)"
  for route in aql pm4; do
    "$redline" replay "$dir/$mode.rlc" --route $route > "$dir/$mode-$route.txt" ||
      fail "$mode: replay --route $route refused"
    for region in buf0 buf1 buf2; do
      want=$(grep "^region $region " "$dir/$mode.txt")
      grep -qx "$want" "$dir/$mode-$route.txt" ||
        fail "$mode $route: $region differs: app '$want'"
    done
  done
done
grep -q "3 of them copies or fills" "$dir/copies.err" ||
  fail "copies: $(cat "$dir/copies.err")"
grep -q "6 of them copies or fills" "$dir/graph.err" ||
  fail "graph: $(cat "$dir/graph.err")"

# 8. A window past the program's last launch records nothing: the capture
# says so and replay refuses it (exit 4), instead of an empty "complete"
# capture.
REDLINE_HIP_LIBRARY=$standin REDLINE_CAPTURE_OUT=$dir/empty.rlc \
  REDLINE_CAPTURE_WINDOW=launches:1000:1 LD_PRELOAD=$interposer "$app" "$co" \
  > /dev/null 2> "$dir/empty.err" || fail "empty: $(cat "$dir/empty.err")"
grep -q "0 launches recorded.*INCOMPLETE: no launch was recorded" \
  "$dir/empty.err" || fail "empty: $(cat "$dir/empty.err")"
set +e
"$redline" replay "$dir/empty.rlc" > /dev/null 2> "$dir/empty-replay.err"
code=$?
set -e
[ $code -eq 4 ] || fail "empty: replay exit $code, expected 4"
grep -q "no launch was recorded" "$dir/empty-replay.err" ||
  fail "empty: $(cat "$dir/empty-replay.err")"
echo PASS
