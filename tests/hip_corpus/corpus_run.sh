#!/bin/bash
# tests/hip_corpus/corpus_run.sh — one CTest test of a HIP corpus program
# on the simulated GPU (tests/hip_corpus.cmake):
#
#   corpus_run.sh MODE REDLINE ARCH CAPTURE PROGRAM [ARGS...]
#
#   run                 redline run --processor ARCH -- PROGRAM: exit 0
#   shadow              redline run --capture CAPTURE (exit 0), then
#                       redline shadow CAPTURE --executor isa
#                       --arms eager,aql,pm4,hip,hipgraph: exit 0 (byte-exact)
#   shadow_adversarial  the same shadow of CAPTURE with --hazards adversarial
#   dispatch_audit      the same shadow with REDLINE_TEST_FAULT=grid-ignore-y:
#                       exit 1, the dispatch audit naming axis y
#   observed_effects    the capture's kernel pointers have effects observed
#                       on the simulator (inspect says "observed") and need
#                       fewer waits than a capture with REDLINE_CAPTURE_
#                       OBSERVE=0 (every such pointer unknown); replay
#                       passes its effects audit, and with the observed
#                       extents 4 bytes short (REDLINE_TEST_FAULT=
#                       extent-shrink:L, L the first launch with one) replay
#                       and shadow fail naming launch L and the access
#   issued_args         the as-issued argument check (shadow/issued_check.h):
#                       the DEFAULT shadow of CAPTURE says "as-issued
#                       arguments: N launches checked" (N > 0, exit 0); a
#                       capture whose recorded kernargs lost the last 4
#                       bytes of their explicit arguments (REDLINE_TEST_
#                       FAULT=kernarg-tail-zero at capture time, the
#                       program ran right) fails the DEFAULT shadow naming
#                       launch, kernel, argument and offset (exit 1)
#   corrupt             negative control: REDLINE_CORPUS_CORRUPT=1 makes the
#                       program damage its first result; it must exit 1
set -u
mode=$1 redline=$2 arch=$3 capture=$4
shift 4
# RL_CORPUS_ARMS overrides the shadow's arms; RL_CORPUS_SHADOW_OPTS adds
# options to the shadow (a budget such as --max-work-items for the large
# programs, tests/hip_corpus_large.cmake).
# RL_CORPUS_ARMS=default: the shadow's own default arms (no --arms).
arms=${RL_CORPUS_ARMS:-eager,aql,pm4,hip,hipgraph}
arm_opts=(--arms "$arms")
[ "$arms" = default ] && arm_opts=()
read -r -a shadow_opts <<< "${RL_CORPUS_SHADOW_OPTS:-}"

run() { echo "+ $*" >&2; "$@"; }

case $mode in
  run)
    run "$redline" run --processor "$arch" -- "$@" ;;
  shadow)
    rm -f "$capture"
    run "$redline" run --processor "$arch" --capture "$capture" -- "$@" || exit
    run "$redline" shadow "$capture" --executor isa "${arm_opts[@]}" \
      "${shadow_opts[@]}" ;;
  shadow_adversarial)
    run "$redline" shadow "$capture" --executor isa "${arm_opts[@]}" \
      --hazards adversarial ;;
  oracle)
    # The oracle executor (docs/shadow-oracle.md) on every work-group: the
    # DEFAULT shadow with --oracle full must pass and say that every
    # dispatch and every work-group was checked, none skipped.
    out=$(run "$redline" shadow "$capture" --oracle full 2>&1)
    status=$?
    line=$(printf '%s\n' "$out" | grep '^independent reference: oracle executor')
    printf '%s\n' "$line"
    set -- $(printf '%s\n' "$line" | sed -n 's/.*(full): \([0-9]*\) of \([0-9]*\) work-groups in \([0-9]*\) of \([0-9]*\) dispatches checked, \([0-9]*\) skipped.*/\1 \2 \3 \4 \5/p')
    if [ $status -ne 0 ] || [ $# -ne 5 ] || [ "$1" != "$2" ] ||
       [ "$3" != "$4" ] || [ "$5" != 0 ] || [ "$1" -eq 0 ]; then
      echo "the oracle should check every work-group of every dispatch and the shadow pass, got exit $status" >&2
      printf '%s\n' "$out" >&2
      exit 1
    fi ;;
  oracle_extent)
    # The oracle's write-extent check's negative control (sim/
    # oracle/oracle.h): a simulator whose stores also write the byte after
    # their last element, value unchanged (REDLINE_TEST_FAULT=
    # store-extra-byte), must fail the DEFAULT shadow naming that byte.
    out=$(REDLINE_TEST_FAULT=store-extra-byte "$redline" shadow "$capture" 2>&1)
    status=$?
    printf '%s\n' "$out" | grep '^shadow:'
    if [ $status -ne 1 ] ||
       ! printf '%s\n' "$out" | grep -q '^shadow: FAIL (arm eager: window 0 (run=0): oracle executor: .*: the simulator wrote 1 byte(s) there that the'; then
      echo "negative control: the oracle should name the extra byte (exit 1), got exit $status" >&2
      printf '%s\n' "$out" >&2
      exit 1
    fi ;;
  dispatch_audit)
    # The dispatch audit's negative control (shadow/effects_audit.h): a
    # simulator that runs one row of work-groups (REDLINE_TEST_FAULT=
    # grid-ignore-y) must fail the shadow of a 2-D program naming axis y.
    out=$(REDLINE_TEST_FAULT=grid-ignore-y "$redline" shadow "$capture" \
      --executor isa --arms "$arms" 2>&1)
    status=$?
    printf '%s\n' "$out" | grep '^shadow:'
    if [ $status -ne 1 ] ||
       ! printf '%s\n' "$out" | grep -q '^shadow: FAIL (arm eager: dispatch audit: .* work-groups on axis y'; then
      echo "negative control: the dispatch audit should name axis y (exit 1), got exit $status" >&2
      exit 1
    fi ;;
  observed_effects)
    # docs/capture-interposer.md "Observed effects".
    listing=$("$redline" inspect "$capture" --launches) || exit
    launch=$(printf '%s\n' "$listing" | awk '
      /^  [ W] *[0-9]+ / { l = $1 == "W" ? $2 : $1 }
      /\(observed\)$/ { print l; exit }')
    if [ -z "$launch" ]; then
      echo "no pointer effect of $capture was observed:" >&2
      printf '%s\n' "$listing" >&2
      exit 1
    fi
    printf '%s\n' "$listing" | grep -E '^waits|\((observed|unknown)\)$'
    "$redline" inspect "$capture" --launches --json |
      grep -Eq '"source":[[:space:]]*"observed"' || {
      echo "inspect --json does not say source observed" >&2
      exit 1
    }
    # The hazard plan uses them: the same program captured without
    # observation (every such pointer unknown) needs more waits.
    plain=${capture%.rlc}.unobserved.rlc
    rm -f "$plain"
    REDLINE_CAPTURE_OBSERVE=0 "$redline" run --processor "$arch" \
      --capture "$plain" -- "$@" > /dev/null 2>&1 || exit
    waits() { "$redline" inspect "$1" | awk '/^waits/ { print $2 }'; }
    before=$(waits "$plain") after=$(waits "$capture")
    echo "waits without observation $before, with $after"
    if ! "$redline" inspect "$plain" --launches | grep -q '(unknown)$' ||
       "$redline" inspect "$plain" --launches | grep -q '(observed)$' ||
       [ -z "$before" ] || [ -z "$after" ] || [ "$after" -ge "$before" ]; then
      echo "observed effects should leave fewer waits than unknown ones" >&2
      exit 1
    fi
    # Negative control: the capture as recorded passes the audit.
    out=$(run "$redline" replay "$capture" --executor isa 2>&1)
    status=$?
    printf '%s\n' "$out" | grep '^effects'
    if [ $status -ne 0 ] ||
       ! printf '%s\n' "$out" | grep -q '^effects audited [1-9][0-9]* dispatches: 0 violations'; then
      echo "replay of the capture as recorded should pass its effects audit, got exit $status" >&2
      printf '%s\n' "$out" >&2
      exit 1
    fi
    # Refusal: the observed extents of launch $launch 4 bytes short.
    for command in replay shadow; do
      if [ $command = shadow ]; then
        set -- --arms eager,aql
      else
        set --
      fi
      out=$(REDLINE_TEST_FAULT=extent-shrink:$launch "$redline" $command \
        "$capture" --executor isa "$@" 2>&1)
      status=$?
      printf '%s\n' "$out" | grep -E '^(shadow|redline):' | head -3
      if [ $status -ne 1 ] ||
         ! printf '%s\n' "$out" | grep -q "step 0: launch $launch (.*) \(read\|wrote\) buffer .* bytes \[[0-9]*, [0-9]*): outside the declared extent"; then
        echo "$command with launch $launch's observed extents shortened should fail naming the access (exit 1), got exit $status" >&2
        printf '%s\n' "$out" >&2
        exit 1
      fi
    done
    echo "observed effects: launch $launch audited; shortened, replay and shadow name the access" ;;
  capture_stable)
    # docs/capture-interposer.md "Host memory": a capture of a program whose
    # asynchronous copies land in pinned memory has the same records every
    # run (the device's bytes there are not host stores). Four captures
    # give one boundary count and no upload buffer; negative control: with
    # REDLINE_TEST_FAULT=copy-settle-off (no settle after a copy into host
    # memory) six captures show a spurious upload at least once.
    shape() {
      "$redline" inspect "$1" | awk '/^waits/ { w = $0 } / upload[0-9]+ / { u++ }
        END { print w " uploads " u + 0 }'
    }
    first=
    for i in 1 2 3 4; do
      "$redline" run --processor "$arch" --capture "$capture.stable$i.rlc" \
        -- "$@" > /dev/null 2>&1 || exit
      now=$(shape "$capture.stable$i.rlc")
      rm -f "$capture.stable$i.rlc"
      echo "capture $i: $now"
      [ -z "$first" ] && first=$now
      if [ "$now" != "$first" ] || [ "${now##* uploads }" != 0 ]; then
        echo "capture $i differs from the first or holds uploads" >&2
        exit 1
      fi
    done
    seen=0
    for i in 1 2 3 4 5 6; do
      REDLINE_TEST_FAULT=copy-settle-off "$redline" run --processor "$arch" \
        --capture "$capture.unsettled.rlc" -- "$@" > /dev/null 2>&1 || exit
      now=$(shape "$capture.unsettled.rlc")
      rm -f "$capture.unsettled.rlc"
      echo "unsettled capture $i: $now"
      if [ "${now##* uploads }" != 0 ]; then seen=1; break; fi
    done
    if [ "$seen" -ne 1 ]; then
      echo "copy-settle-off: no spurious upload in 6 captures (control)" >&2
      exit 1
    fi
    ;;
  issued_args)
    # The default shadow, no options.
    out=$(run "$redline" shadow "$capture" 2>&1)
    status=$?
    printf '%s\n' "$out" | grep -E '^(shadow|as-issued)'
    if [ $status -ne 0 ] ||
       ! printf '%s\n' "$out" | grep -q '^as-issued arguments: [1-9][0-9]* launches checked'; then
      echo "the default shadow should pass and name its as-issued check, got exit $status" >&2
      printf '%s\n' "$out" >&2
      exit 1
    fi
    faulty=${capture%.rlc}.tailzero.rlc
    rm -f "$faulty"
    REDLINE_TEST_FAULT=kernarg-tail-zero run "$redline" run --processor "$arch" \
      --capture "$faulty" -- "$@" > /dev/null || exit
    out=$(run "$redline" shadow "$faulty" 2>&1)
    status=$?
    printf '%s\n' "$out" | grep -E '^(shadow|as-issued)'
    if [ $status -ne 1 ] ||
       ! printf '%s\n' "$out" | grep -q '^shadow: FAIL (arm [a-z0-9~-]*: .*as-issued arguments: launch [0-9]* (.*) argument [0-9]* .*at kernarg offset [0-9]*: the dispatch received'; then
      echo "negative control: kernargs recorded with a zeroed tail should fail the default shadow naming the argument (exit 1), got exit $status" >&2
      printf '%s\n' "$out" >&2
      exit 1
    fi
    echo "as-issued arguments: checked; a zeroed recorded tail is caught" ;;
  corrupt)
    REDLINE_CORPUS_CORRUPT=1 run "$redline" run --processor "$arch" -- "$@"
    status=$?
    if [ $status -ne 1 ]; then
      echo "negative control: the damaged result should fail the check (exit 1), got exit $status" >&2
      exit 1
    fi
    echo "negative control: the check caught the damaged result (exit 1)" ;;
  *)
    echo "corpus_run.sh: unknown mode '$mode'" >&2
    exit 2 ;;
esac
