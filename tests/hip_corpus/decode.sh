#!/bin/bash
# tests/hip_corpus/decode.sh — the corpus decode loop under `redline run`:
# step capture, copies by address and the failure summary
# (tests/hip_corpus/decode.hip; docs/real-engines.md, docs/cli.md "redline
# run"):
#
#   decode.sh MODE REDLINE ARCH DIR DECODE
#
#   period       --steps 4 --skip-steps 1 (the step found as the period of
#                the launch sequence): exit 0, a step of 14 launches whose
#                embedding copy reads the embedding buffer (copies by
#                address), parameter pos captured at 1, the bindings
#                inferred (pos, KV-cache destinations, grid, the token)
#                and the held-out step predicted; then `redline shadow` of
#                it at positions 1..15 passes on every arm, and `redline
#                bench` of it passes
#   start        --steps 4 --step-start logits: exit 0, 14 launches
#   uneven       `decode uneven` (one step's rope has another work-group
#                size) with --step-start: exit 4 naming step, launch, rope
#   too_many     --steps 8 --skip-steps 4 of a 10-step run: exit 4
#   usage        bad --steps values and combinations: exit 2 each
#   verify       --verify-steps 3: the capture holds the program's state
#                after steps 1..7 (9 regions each, `redline inspect`); the
#                replay of the step (pos 1) gives exactly the hashes of pos
#                1, and not those of pos 2 (negative control); `redline
#                shadow` over pos 1..7 (the program's tokens fed) matches
#                all 63, and fails naming pos 4 and buf3 when that recorded
#                hash is flipped (REDLINE_TEST_FAULT=program-flip:30)
#   failed_launch  `decode fault` (one attend launch of step 3 reads
#                address 0): the summary names that launch, not the first
#   annotated    decode_annotated (redline/annotate.h: step begin, token,
#                pos) with --steps 4 --skip-steps 1: the steps cut at the
#                annotated begins (no period search), the free parameter is
#                named token after the declaration (inspect), the held-out
#                step is predicted, `redline shadow` at 1..15 passes
#   annotated_disagree  negative control: `decode_annotated disagree`
#                declares pos 103 at position 3: the capture is written
#                INCOMPLETE naming pos, step 3 and both values
#   annotated_split  negative control of the cut at the begins:
#                `decode_annotated split` begins an extra step after one
#                copy: exit 4 naming the annotated step of unequal length
#   copy_by_kind negative control of the copies by address: with
#                REDLINE_TEST_FAULT=copy-by-kind (the kind decides, as
#                before) the check `period` makes must fail
set -u
mode=$1 redline=$2 arch=$3 dir=$4 decode=$5
capture=$dir/decode_steps_$mode.rlc
log=$dir/decode_steps_$mode.log

run() { echo "+ $*" >&2; "$@"; }
fail() { echo "decode.sh $mode: $*" >&2; exit 1; }

# Captures K steps with the extra options "$@"; the exit status of run.
capture_steps() {
  rm -f "$capture"
  run "$redline" run --processor "$arch" --capture "$capture" "$@" 2>"$log"
  local status=$?
  cat "$log" >&2
  return $status
}

# The checks of a good step capture of decode: one step of 14 launches
# (copy, 2 x [matvec matvec rope copy scores attend], logits), the
# embedding copy reading the embedding buffer buf0 (device memory, though
# the program says hipMemcpyHostToDevice), no staging buffer, pos at
# |first|.
check_step() {
  local first=$1 out
  out=$("$redline" inspect "$capture" --launches) || return 1
  grep -q '^launches   14$' <<<"$out" || { echo "not 14 launches" >&2; return 1; }
  grep -q "pos  *admitted \[.*)  captured at $first" <<<"$out" ||
    { echo "no parameter pos captured at $first" >&2; return 1; }
  if grep -q 'upload' <<<"$out"; then
    echo "a staging (upload) buffer: a device copy was recorded as host bytes" >&2
    return 1
  fi
  awk '/^launches$/{on=1} on' <<<"$out" | grep -m1 -A2 'rl_capture_copy' |
    grep -q 'read  buf0+' ||
    { echo "the embedding copy does not read buf0" >&2; return 1; }
}

# The bindings inference finds in decode's step (capture/recording/step_infer.h):
# the token row of the embedding copy, pos in the kernargs, the KV-cache
# destinations of both layers at pos x 128 bytes, the scores grid pos + 1.
check_bindings() {
  local out
  out=$("$redline" inspect "$capture") || return 1
  for want in 'launch 0    slot 1 (kernarg\[8:16\]) offset in buf0 = 256\*free0' \
              'launch 3    kernarg\[16:20\] = pos' \
              'launch 4    slot 0 (kernarg\[0:8\]) offset in buf3 = 128\*pos$' \
              'launch 5    grid.x = pos+1' \
              'launch 10   slot 0 (kernarg\[0:8\]) offset in buf3 = 128\*pos+2048' \
              'pos from 5, 8 steps, stride 1'; do
    grep -q "$want" <<<"$out" || { echo "missing binding: $want" >&2; return 1; }
  done
  grep -q 'held-out step 3 (pos=4): predicted exactly' "$log" ||
    { echo "the held-out step should be predicted exactly" >&2; return 1; }
  # The token fed to the steps at pos 1..4 is the one the program generated
  # at pos 0..3 (its stdout: "decode: tokens T0 T1 ...").
  local tokens
  tokens=$("$redline" run --processor "$arch" -- "$decode" 2>/dev/null | sed -n 's/^decode: tokens \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\).*/\1 \2 \3 \4/p')
  grep -q "free0 per step: $tokens\$" "$log" ||
    { echo "free0 should be the tokens $tokens" >&2; return 1; }
}

case $mode in
  period)
    capture_steps --steps 4 --skip-steps 1 -- "$decode" || fail "run failed"
    grep -q 'the step is 14 launches, copies and fills long' "$log" ||
      fail "the period should be 14 items"
    check_step 1 || fail "bad step capture"
    check_bindings || fail "bindings not inferred"
    # 15 positions, most never captured, on every arm.
    run "$redline" shadow "$capture" --executor isa --windows 1:15 \
      --arms eager,aql,pm4,pm4-relay,recorded,hip,hipgraph ||
      fail "shadow failed"
    run "$redline" bench "$capture" --executor isa | tail -1 |
      grep -q '^bench: PASS' || fail "bench of the step capture failed" ;;
  start)
    capture_steps --steps 4 --step-start logits -- "$decode" ||
      fail "run failed"
    grep -q '^launches   14$' <(run "$redline" inspect "$capture") ||
      fail "not 14 launches" ;;
  uneven)
    capture_steps --steps 4 --step-start logits -- "$decode" uneven
    status=$?
    [ $status -eq 4 ] || fail "expected exit 4 (steps refused), got $status"
    grep -q 'steps REFUSED: steps differ: step 1 launch 4 is rope work-group 16x1x1, step 0 has 32x1x1' "$log" ||
      fail "the refusal should name step 1, launch 4, rope and both sizes"
    [ ! -e "$capture" ] || fail "a refused capture must not be written" ;;
  too_many)
    capture_steps --steps 8 --skip-steps 4 -- "$decode"
    status=$?
    [ $status -eq 4 ] || fail "expected exit 4, got $status"
    grep -q 'needs 12 steps, the program ran 10' "$log" ||
      fail "the refusal should say 12 steps are needed and 10 ran" ;;
  usage)
    for args in "--steps 1" "--steps 0" "--steps x" "--steps 5000" \
                "--skip-steps 1" "--step-start logits" \
                "--steps 4 --window launches:0:3" "--verify-steps 2" \
                "--steps 4 --verify-steps x"; do
      # shellcheck disable=SC2086
      run "$redline" run --capture "$capture" $args -- "$decode" 2>"$log"
      status=$?
      cat "$log" >&2
      [ $status -eq 2 ] || fail "'$args' should be a usage error (2), got $status"
    done
    run "$redline" run --steps 4 -- "$decode" 2>"$log"
    [ $? -eq 2 ] || fail "--steps without --capture should exit 2" ;;
  verify)
    capture_steps --steps 4 --skip-steps 1 --verify-steps 3 -- "$decode" ||
      fail "run failed"
    listing=$("$redline" inspect "$capture")
    states=$(grep -E '^  pos +[0-9]+ +buf' <<<"$listing")
    # The token fed at pos 1..7 is the one the program generated at 0..6.
    fed=$(awk '$3 == "free0" {printf "%s ", $5}' <<<"$listing")
    generated=$("$redline" run --processor "$arch" -- "$decode" 2>/dev/null |
                awk '/^decode: tokens/ {for (i = 3; i <= 9; ++i) printf "%s ", $i}')
    [ -n "$fed" ] && [ "$fed" = "$generated" ] ||
      fail "free0 at pos 1..7 ($fed) should be the program's tokens ($generated)"
    [ "$(wc -l <<<"$states")" -eq 63 ] || fail "expected 7 steps x 9 regions"
    [ "$(awk '{print $2}' <<<"$states" | sort -un | tr '\n' ' ')" = "1 2 3 4 5 6 7 " ] ||
      fail "expected the states after steps 1 .. 7"
    [ "$("$redline" inspect "$capture" --json | grep -o '"digest":	"[0-9a-f]*"' | wc -l)" -eq 65 ] ||
      fail "inspect --json should list the 63 program-state hashes (and 2 code objects')"
    replayed=$(run "$redline" replay "$capture" --executor isa |
               awk '/^region /{print $2, $3}')
    at() { awk -v p="$1" '$2 == p {print $3, $4}' <<<"$states"; }
    [ -n "$replayed" ] && [ "$replayed" = "$(at 1)" ] ||
      fail "the replay at pos 1 should give the program's state after step 1"
    [ "$replayed" != "$(at 2)" ] ||
      fail "negative control: the state after step 2 should differ"
    echo "the replay matches the program's own state after step 1"
    # The shadow walks pos 1..7 feeding the program's tokens and compares
    # every arm's regions with the program's state after each step.
    out=$(run "$redline" shadow "$capture" --executor isa \
            --arms eager,aql,pm4,pm4-relay,recorded,hip,hipgraph 2>&1)
    status=$?
    echo "$out"
    [ $status -eq 0 ] || fail "the shadow against the program should pass"
    grep -q 'reference program: 63 region states at 7 positions compared with the program.s own, all equal' <<<"$out" ||
      fail "the shadow should compare 63 region states with the program's"
    # Negative control: recorded hash 30 (pos 4, buf3) flipped.
    out=$(REDLINE_TEST_FAULT=program-flip:30 run "$redline" shadow "$capture" \
            --executor isa --arms eager,aql 2>&1)
    status=$?
    echo "$out"
    [ $status -eq 1 ] || fail "a flipped program hash should fail the shadow (exit 1), got $status"
    grep -q 'FAIL (reference program: after the step at pos=4 (window 3) region buf3 ' <<<"$out" ||
      fail "the failure should name the step (pos=4) and the region (buf3)" ;;
  failed_launch)
    run "$redline" run --processor "$arch" -- "$decode" fault 2>"$log"
    status=$?
    cat "$log" >&2
    [ $status -eq 2 ] || fail "the program should see its launch fail (exit 2), got $status"
    grep -q '; launch #42 (attend) FAILED: ' "$log" ||
      fail "the summary should name launch #42, attend (the first failed)" ;;
  annotated)
    capture_steps --steps 4 --skip-steps 1 -- "$dir/decode_annotated" ||
      fail "run failed"
    grep -q 'the step is 14 launches, copies and fills long, from the annotated step begins (step 1 at item 18 of 144)' "$log" ||
      fail "the step should be cut at the annotated step begins"
    grep -q 'free0 is the declared parameter token' "$log" ||
      fail "free0 should be named after the declared token"
    grep -q 'held-out step 3 (pos=4): predicted exactly' "$log" ||
      fail "the held-out step should be predicted exactly"
    out=$("$redline" inspect "$capture") || fail "inspect failed"
    echo "$out"
    grep -q 'launch 0    slot 1 (kernarg\[8:16\]) offset in buf0 = 256\*token' <<<"$out" ||
      fail "inspect should show the embedding row bound to token"
    grep -q 'free0' <<<"$out" && fail "no parameter should be left named free0"
    run "$redline" shadow "$capture" --executor isa --windows 1:15 \
      --arms eager,aql,pm4,pm4-relay,recorded,hip,hipgraph ||
      fail "shadow failed" ;;
  annotated_disagree)
    capture_steps --steps 4 --skip-steps 1 -- "$dir/decode_annotated" disagree
    grep -q 'INCOMPLETE: .*declared parameter pos disagrees with the inferred one: step 3 declares pos=103, its position is 3' "$log" ||
      fail "the capture should be incomplete naming pos, step 3, 103 and 3"
    grep -q 'token' <(run "$redline" inspect "$capture") &&
      fail "an incomplete capture has no declared bindings"
    echo "negative control: the disagreeing declaration was refused" ;;
  annotated_split)
    capture_steps --steps 4 --skip-steps 1 -- "$dir/decode_annotated" split
    status=$?
    [ $status -eq 4 ] || fail "expected exit 4 (steps refused), got $status"
    grep -q 'annotated step 2 is 1 launches, copies and fills long, step 1 14' "$log" ||
      fail "the refusal should name annotated step 2 (1 item) against step 1 (14)" ;;
  copy_by_kind)
    REDLINE_TEST_FAULT=copy-by-kind capture_steps --steps 4 --skip-steps 1 \
      -- "$decode" && check_step 1 &&
      fail "with the copy classified by its kind the check should fail"
    echo "negative control: the copy recorded by its kind was caught" ;;
  *)
    echo "decode.sh: unknown mode '$mode'" >&2
    exit 2 ;;
esac
