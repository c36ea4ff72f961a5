#!/bin/sh
# tests/hip_corpus/texture_capture.sh — `redline run --capture` and the
# default shadow of the texture corpus program (tests/hip_corpus.cmake,
# hip_corpus.texture.<arch>.capture; docs/capture-interposer.md "Textures"):
#   - the program passes under capture, and the capture is complete: it
#     holds its arrays and texture objects as buffers of kinds array and
#     texture (`redline inspect` lists arrayN and textureN with their
#     sizes), its hipMallocPitch memory as an ordinary bufN, and a
#     descriptor binding for every texture object (the T# at byte 0 of
#     textureN pointing at an arrayN or bufN); the program frees arrays and
#     destroys texture objects after their last use inside the window,
#     which leaves the capture complete;
#   - the default `redline shadow` passes, and so does the adversarial one
#     (the hazard plan counts a launch reading a texture object as reading
#     its image): every arm patches the descriptors for where it placed
#     the images;
#   - the shadow of the arms eager, aql, pm4, hip and hipgraph passes;
#   - negative control: with REDLINE_TEST_FAULT=descriptor-unpatched (every
#     route keeps the capture's image address in the descriptors) the
#     shadow of each arm alone (eager, recorded, aql, pm4, hip, hipgraph)
#     fails (the sampling kernel faults, exit 6), so each pass comes from
#     that route's patching.
# Usage: texture_capture.sh REDLINE ARCH CAPTURE PROGRAM
set -u
redline=$1 arch=$2 capture=$3 program=$4

run() { echo "+ $*" >&2; "$@"; }
fail() { echo "texture_capture.sh: $*" >&2; exit 1; }

rm -f "$capture"
out=$(run "$redline" run --processor "$arch" --capture "$capture" -- \
  "$program" 2>&1)
status=$?
printf '%s\n' "$out"
[ $status -eq 0 ] || fail "run --capture exit $status, expected 0"
printf '%s\n' "$out" | grep -q "capture $capture written" ||
  fail "no capture written"
if printf '%s\n' "$out" | grep -q "INCOMPLETE"; then
  fail "the capture is incomplete"
fi
out=$(run "$redline" inspect "$capture" 2>&1)
printf "%s\n" "$out" | grep -E "^ *\[[0-9]+\] (array|texture)[0-9]+ |^descriptor "
arrays=$(printf '%s\n' "$out" | grep -cE '^ *\[[0-9]+\] array[0-9]+ ')
textures=$(printf '%s\n' "$out" | grep -cE '^ *\[[0-9]+\] texture[0-9]+ ')
descriptors=$(printf '%s\n' "$out" |
  grep -cE '^descriptor texture[0-9]+\+0: image (array|buf)[0-9]+\+0 \(gfx11 T#\)$')
[ "$arrays" -ge 3 ] || fail "inspect lists $arrays array buffers, expected 3 or more"
[ "$textures" -ge 4 ] || fail "inspect lists $textures texture buffers, expected 4 or more"
[ "$descriptors" -eq "$textures" ] ||
  fail "inspect lists $descriptors descriptors for $textures texture objects"
# hipMallocPitch memory is a buffer too: texture.hip's pitched float image
# has the rows and the 256-byte pitch of its first float array.
size=$(printf '%s\n' "$out" | sed -n 's/^ *\[[0-9]*\] array[0-9]* *state *\([0-9]*\) bytes.*/\1/p' | head -1)
printf '%s\n' "$out" | grep -qE "^ *\[[0-9]+\] buf[0-9]+ +state +$size bytes" ||
  fail "no bufN of the pitched image's $size bytes (hipMallocPitch not recorded)"
printf '%s\n' "$out" | grep -qE '^descriptor texture[0-9]+\+0: image buf[0-9]+\+0 ' ||
  fail "no descriptor points at the pitched image"

out=$(run "$redline" shadow "$capture" --executor isa 2>&1)
status=$?
printf '%s\n' "$out" | tail -3
[ $status -eq 0 ] || fail "shadow exit $status, expected 0"
printf '%s\n' "$out" | grep -q '^shadow: PASS' || fail "the shadow does not PASS"

out=$(run "$redline" shadow "$capture" --executor isa --hazards adversarial 2>&1)
status=$?
printf '%s\n' "$out" | tail -1
[ $status -eq 0 ] || fail "adversarial shadow exit $status, expected 0"

# The HIP arms too (not among the default arms).
out=$(run "$redline" shadow "$capture" --executor isa \
  --arms eager,aql,pm4,hip,hipgraph 2>&1)
status=$?
printf '%s\n' "$out" | tail -1
[ $status -eq 0 ] || fail "shadow of the HIP arms exit $status, expected 0"

# Negative control, route by route: the descriptors then point where the
# images lay in the capture run, memory the arm never placed them at: the
# sampling kernel faults (exit 6).
for arm in eager recorded aql pm4 hip hipgraph; do
  out=$(REDLINE_TEST_FAULT=descriptor-unpatched \
    run "$redline" shadow "$capture" --executor isa --arms $arm 2>&1)
  status=$?
  printf '%s\n' "$out" | grep '^shadow:' | cut -c1-200
  [ $status -eq 6 ] ||
    fail "negative control: arm $arm exit $status with the descriptors unpatched, expected 6"
  printf '%s\n' "$out" | grep -qE "^shadow: FAIL \(arm $arm: .*(fault|hipErrorLaunchFailure)" ||
    fail "negative control: arm $arm does not fail on the sampling kernel"
done
