#!/bin/sh
# tests/hip_corpus/texture_capture.sh — `redline run --capture` of the
# texture corpus program (tests/hip_corpus.cmake,
# hip_corpus.texture.<arch>.capture; docs/capture-interposer.md "Textures"):
#   - the program passes under capture, and the capture holds its arrays
#     and texture objects as buffers of kinds array and texture (`redline
#     inspect` lists arrayN and textureN with their sizes), and its
#     hipMallocPitch memory as an ordinary bufN;
#   - the capture is INCOMPLETE with the reason "texture descriptor
#     relocation not supported yet" (the image descriptor holds the
#     array's address, which no binding relocates yet), and replay and the
#     default shadow refuse it with exit 4;
#   - negative control: with REDLINE_TEST_FAULT=texture-relocation-unchecked
#     (the interposer skips that check) the capture no longer gives that
#     reason (it is still incomplete: the program frees buffers its later
#     launches' predecessors used, "buffer bufN freed mid-window"), so the
#     reason above comes from the check.
# Usage: texture_capture.sh REDLINE ARCH CAPTURE PROGRAM
set -u
redline=$1 arch=$2 capture=$3 program=$4
reason='texture descriptor relocation not supported yet'

run() { echo "+ $*" >&2; "$@"; }
fail() { echo "texture_capture.sh: $*" >&2; exit 1; }

rm -f "$capture"
out=$(run "$redline" run --processor "$arch" --capture "$capture" -- \
  "$program" 2>&1)
status=$?
printf '%s\n' "$out"
[ $status -eq 0 ] || fail "run --capture exit $status, expected 0"
printf '%s\n' "$out" | grep -q "capture $capture written, INCOMPLETE: $reason" ||
  fail "the capture is not INCOMPLETE with '$reason'"
out=$(run "$redline" inspect "$capture" 2>&1)
printf "%s\n" "$out" | grep -E "^ *\[[0-9]+\] (array|texture)[0-9]+ "
arrays=$(printf '%s\n' "$out" | grep -cE '^ *\[[0-9]+\] array[0-9]+ ')
textures=$(printf '%s\n' "$out" | grep -cE '^ *\[[0-9]+\] texture[0-9]+ ')
[ "$arrays" -ge 3 ] || fail "inspect lists $arrays array buffers, expected 3 or more"
[ "$textures" -ge 4 ] || fail "inspect lists $textures texture buffers, expected 4 or more"
# hipMallocPitch memory is a buffer too: texture.hip's pitched float image
# has the rows and the 256-byte pitch of its first float array.
size=$(printf '%s\n' "$out" | sed -n 's/^ *\[[0-9]*\] array[0-9]* *state *\([0-9]*\) bytes.*/\1/p' | head -1)
printf '%s\n' "$out" | grep -qE "^ *\[[0-9]+\] buf[0-9]+ +state +$size bytes" ||
  fail "no bufN of the pitched image's $size bytes (hipMallocPitch not recorded)"
for route in aql pm4; do
  out=$(run "$redline" replay "$capture" --route $route --executor isa 2>&1)
  status=$?
  printf '%s\n' "$out" | tail -2
  [ $status -eq 4 ] || fail "replay --route $route exit $status, expected 4"
  printf '%s\n' "$out" | grep -q "capture incomplete: .*$reason" ||
    fail "replay --route $route does not refuse the capture as incomplete"
done
out=$(run "$redline" shadow "$capture" 2>&1)
status=$?
printf '%s\n' "$out" | tail -2
[ $status -eq 4 ] || fail "shadow exit $status, expected 4"
printf '%s\n' "$out" | grep -q "$reason" || fail "the shadow's refusal does not give the reason"

rm -f "$capture.control"
out=$(REDLINE_TEST_FAULT=texture-relocation-unchecked \
  run "$redline" run --processor "$arch" --capture "$capture.control" -- \
  "$program" 2>&1)
printf '%s\n' "$out" | tail -1
printf '%s\n' "$out" | grep -q "capture $capture.control written" ||
  fail "negative control: no capture written"
if printf '%s\n' "$out" | grep -q "$reason"; then
  fail "negative control: without the check the capture still gives '$reason'"
fi
rm -f "$capture.control"
