#!/bin/sh
# CLI tests of `redline shadow`, `bench` and `demo` (tests/shadow.cmake).
# usage: shadow_cli_test.sh REDLINE CASE [ARGS...]
#   pass WORKLOAD TARGET [CAPTURE ARGS...] -- [SHADOW ARGS...]
#       capture, then shadow with all four arms (pm4 included: this case
#       passes only while the pm4 route works); expects exit 0 and PASS.
#   flip   the negative control: exit 1, naming exactly the region and
#          offset in the text and the JSON report.
#   workspace  an undersized bound workspace: exit 4 (contract).
#   cache  the cache model's negative control: the pm4 arm with its
#          ACQUIRE_MEMs dropped or weakened after the census
#          (REDLINE_TEST_FAULT) fails in strict mode (the default) and
#          passes with --cache-model off, so the model caught it; the same
#          for the aql route with its fence scopes narrowed.
#   arms ARMS N WORKLOAD TARGET [CAPTURE ARGS...] -- [SHADOW ARGS...]
#       capture, then shadow with --arms ARMS (N of them); expects exit 0 and
#       PASS. For the runtime arms (hip, hipgraph, drm) the caller sets
#       REDLINE_HIP_LIBRARY / REDLINE_DRM_LIBRARY to the stand-ins; the drm
#       render node is an empty file made here.
#   hipflip  the negative control in the hip arm (exit 1 naming region and
#          offset), a hung HIP stream (bounded wait: exit 7), and hip
#          unavailable (a missing library: exit 8).
#   effects  the effects audit's negative control: vecchain's declared
#          effects made wrong (REDLINE_TEST_FAULT effect-shift /
#          extent-shrink) fail the default shadow naming launch, buffer,
#          bytes and direction; unmutated, every arm reports the audit.
#   bench  a short interleaved bench with PM4 statistics.
#   bench_split  the host share split (issue 28): engine + doorbell = host
#          per retained arm in text and JSON (engine <= host), the hand-off
#          beyond the device span, --wait spin and --pin reported; the
#          checker fails a report whose engine exceeds its host (negative
#          control); --executor noop (bench only) runs; --wait other than
#          block|spin is a usage error (2).
#   findings  repeated hazard findings (two barrier bits dropped with the
#          census off, REDLINE_TEST_FAULT, over 3 windows: 6 findings, 2
#          distinct) are printed once each with their count, the counts add
#          up to the JSON's findings, and the verdict line is at most 200
#          characters; negative control: a report with one finding printed
#          twice fails the same check.
#   demo   `redline demo` prints `redline demo: PASS (T s)`.
set -u
redline=$1
case_name=$2
shift 2
dir=$(mktemp -d "${TMPDIR:-/tmp}/rl_shadow_cli.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout" >&2; cat "$dir/out.txt" >&2 2>/dev/null
  echo "--- stderr" >&2; cat "$dir/err.txt" >&2 2>/dev/null
  exit 1
}

# hung_run ARMS: shadow with the HIP stand-in's streams never completing;
# the bounded wait must end it quarantined (exit 7). The hung arm leaks its
# stream's memory on purpose (documented), so LeakSanitizer does not count
# leaks in this run only.
hung_run() {
  env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" REDLINE_STANDIN_HIP_HANG=1 \
    "$redline" shadow "$dir/d.rlc" --arms "$1" --timeout-ms 200 \
    >"$dir/out.txt" 2>"$dir/err.txt"
  code=$?
  [ "$code" -eq 7 ] || fail "hung HIP stream, arms $1: exit $code, expected 7"
}

# run EXPECTED_EXIT ARGS...: runs redline, checks its exit code.
run() {
  expected=$1
  shift
  "$redline" "$@" >"$dir/out.txt" 2>"$dir/err.txt"
  code=$?
  [ "$code" -eq "$expected" ] || fail "redline $* exited $code, expected $expected"
}

expect_out() {
  grep -qF -- "$1" "$dir/out.txt" || fail "stdout lacks: $1"
}

capture_decode() {
  run 0 capture --workload decode -o "$dir/d.rlc" "$@"
}

# check_grouped OUT JSON ARM: every distinct finding (kind, path, launches,
# buffer) of ARM in the JSON report has exactly one HAZARD line in the text
# report OUT, whose count ("HAZARD xN", else 1) is the JSON's; prints why
# not and returns 1.
check_grouped() {
  python3 - "$1" "$2" "$3" 2>&1 <<'PY'
import collections, json, re, sys
out, report, arm_name = sys.argv[1:4]
arm = next(a for a in json.load(open(report))["arms"] if a["arm"] == arm_name)
keys = collections.Counter(
    (f["kind"], f["earlier_launch"], f["later_launch"], f["buffer"])
    for f in arm["hazard_check"]["findings"])
lines = [l for l in open(out) if l.startswith("    HAZARD ")]
printed = collections.Counter()
for line in lines:
    m = re.match(r"    HAZARD (?:x(\d+), windows \d+\.\.\d+, first )?window \d+ "
                 r"\([^)]*\): (RAW \(no acquire\)|RAW|WAR|WAW) between launch "
                 r"(\d+) \([^)]*\) and launch (\d+) \([^)]*\): buffer (\S+) ", line)
    if not m:
        sys.exit("unparsed: " + line)
    key = (m.group(2), int(m.group(3)), int(m.group(4)), m.group(5))
    if key in printed:
        sys.exit("printed twice: %s" % (key,))
    printed[key] = int(m.group(1) or 1)
if printed != keys:
    sys.exit("text %s != json %s" % (dict(printed), dict(keys)))
PY
}

case "$case_name" in
  findings)
    capture_decode
    REDLINE_TEST_FAULT=drop-barrier:1,drop-barrier:20,no-census \
      run 1 shadow "$dir/d.rlc" --arms eager,aql --adversarial-seeds 0 \
      --windows 30:3 --json "$dir/r.json"
    expect_out "hazards: 6 found, 2 distinct"
    # The quiet default: the failing arm in full, the passing one folded
    # into its route family's line.
    grep -q '^arm aql  ' "$dir/out.txt" || fail "the failing arm's line"
    grep -q '^ok eager     (eager): ' "$dir/out.txt" || fail "the eager family"
    if grep -q '^arm eager' "$dir/out.txt"; then fail "a passing arm in full"; fi
    [ "$(grep -c '^    HAZARD x3, windows 0..2' "$dir/out.txt")" -eq 2 ] ||
      fail "two grouped HAZARD lines of 3 each"
    why=$(check_grouped "$dir/out.txt" "$dir/r.json" aql) || fail "$why"
    verdict=$(grep '^shadow: FAIL (' "$dir/out.txt")
    [ -n "$verdict" ] && [ "${#verdict}" -le 200 ] ||
      fail "verdict line of ${#verdict} characters: $verdict"
    case $verdict in
      *"(6 found, 2 distinct))") ;;
      *) fail "verdict without the counts: $verdict" ;;
    esac
    # The whole reason (and every finding) is in the JSON.
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
assert r["verdict"] == "FAIL" and "hazard in window 0" in r["reason"], r["reason"]
assert len([a for a in r["arms"] if a["arm"] == "aql"][0]["hazard_check"]["findings"]) == 6' \
      "$dir/r.json" || fail "JSON report"
    # Negative control: the first HAZARD line printed twice.
    awk '/^    HAZARD / && !done {print; done = 1} {print}' "$dir/out.txt" \
      > "$dir/twice.txt"
    why=$(check_grouped "$dir/twice.txt" "$dir/r.json" aql) &&
      fail "a finding printed twice passed the check"
    case $why in *"printed twice"*) ;; *) fail "control: $why" ;; esac
    ;;
  pass)
    workload=$1
    target=$2
    shift 2
    capture_args=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
      capture_args="$capture_args $1"
      shift
    done
    [ $# -gt 0 ] && shift
    # shellcheck disable=SC2086
    run 0 capture --workload "$workload" --target "$target" $capture_args \
      -o "$dir/c.rlc"
    run 0 shadow "$dir/c.rlc" --arms eager,recorded,aql,pm4,pm4-relay \
      --json "$dir/r.json" "$@"
    # The arms given, and by default aql~adv1/2, pm4~adv1/2 and
    # pm4-relay~adv1/2 (seeded interleavings) unless every arm is
    # adversarial already, and eager on the second executor.
    case " $* " in
      *" --hazards adversarial "*) expect_out "shadow: PASS (6 arms x " ;;
      *) expect_out "shadow: PASS (12 arms x " ;;
    esac
    grep -q '"verdict":[[:space:]]*"PASS"' "$dir/r.json" || fail "JSON verdict"
    # The workloads have C reference kernels: the second executor is the
    # one the arms do not run, and the report names it.
    case " $* " in
      *" --executor isa "*) second=ref ;;
      *) second=isa ;;
    esac
    expect_out "independent reference: eager@$second ("
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
arm = [a for a in r["arms"] if a["arm"] == "eager@" + sys.argv[2]]
assert len(arm) == 1 and arm[0]["executor"] == sys.argv[2], r["arms"]
assert r["independent_reference"].startswith("eager@" + sys.argv[2])' \
      "$dir/r.json" "$second" || fail "JSON: no eager@$second arm"
    ;;
  arms)
    arms=$1
    count=$2
    workload=$3
    target=$4
    shift 4
    capture_args=""
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
      capture_args="$capture_args $1"
      shift
    done
    [ $# -gt 0 ] && shift
    : >"$dir/renderD128"
    REDLINE_DRM_RENDER_NODE="$dir/renderD128"
    export REDLINE_DRM_RENDER_NODE
    # shellcheck disable=SC2086
    run 0 capture --workload "$workload" --target "$target" $capture_args \
      -o "$dir/c.rlc"
    run 0 shadow "$dir/c.rlc" --arms "$arms" --json "$dir/r.json" "$@"
    expect_out "shadow: PASS ($count arms x "
    grep -q '"verdict":[[:space:]]*"PASS"' "$dir/r.json" || fail "JSON verdict"
    ;;
  hipflip)
    capture_decode
    run 1 shadow "$dir/d.rlc" --arms eager,hip,hipgraph --flip-byte logits:7
    expect_out "shadow: FAIL (window 0 (pos=30): region logits differs in arm hipgraph at offset 7 (1 byte differs))"
    run 1 shadow "$dir/d.rlc" --arms eager,hip --flip-byte kv_cache:4100
    expect_out "region kv_cache differs in arm hip at offset 4100 (1 byte differs)"
    # Control of the control: the same run without the flip passes.
    run 0 shadow "$dir/d.rlc" --arms eager,hip
    # A HIP stream that never completes (the stand-in's hang switch): the
    # arms' bounded wait expires and the shadow ends quarantined (exit 7)
    # instead of blocking in hipStreamSynchronize.
    hung_run eager,hip
    grep -q "HIP stream still busy after the bounded wait of 200000000 ns" \
      "$dir/err.txt" "$dir/out.txt" || fail "no bounded-wait message"
    hung_run eager,hipgraph
    REDLINE_HIP_LIBRARY=/nonexistent/libamdhip64.so.6
    export REDLINE_HIP_LIBRARY
    run 8 shadow "$dir/d.rlc" --arms eager,hip,aql
    expect_out "not available: HIP arm hip: libamdhip64 not loaded"
    ;;
  flip)
    capture_decode
    run 1 shadow "$dir/d.rlc" --flip-byte kv_cache:4100 --json "$dir/r.json"
    expect_out "shadow: FAIL (window 0 (pos=30): region kv_cache differs in arm pm4 at offset 4100 (1 byte differs))"
    expect_out "negative control: flipped byte 4100 of region kv_cache in arm pm4"
    tr -d ' \n\t' <"$dir/r.json" >"$dir/r.min"
    grep -qF '"first_divergence":{"window":0,"region":"kv_cache","arm":"pm4","offset":4100,"element_offset":4100,' \
      "$dir/r.min" || fail "JSON first_divergence"
    # Quiet by default: the first divergence with both values, no table.
    expect_out "first divergence: window 0 (pos=30), region kv_cache ("
    grep -qE '^  eager +@4100 ' "$dir/out.txt" || fail "reference value"
    grep -qE '^  pm4 +@4100 ' "$dir/out.txt" || fail "arm value"
    if grep -qE '^  window ' "$dir/out.txt"; then fail "table without --verbose"; fi
    run 1 shadow "$dir/d.rlc" --flip-byte kv_cache:4100 --verbose
    grep -qE '^  window 0 +pos=30 +kv_cache +DIFFERS' "$dir/out.txt" ||
      fail "--verbose table"
    # Without pm4 the last retained arm (aql) is corrupted.
    run 1 shadow "$dir/d.rlc" --arms eager,aql --flip-byte logits:7
    expect_out "region logits differs in arm aql at offset 7 (1 byte differs)"
    # Control of the control: the same run without the flip passes.
    run 0 shadow "$dir/d.rlc" --arms eager,aql
    run 2 shadow "$dir/d.rlc" --flip-byte kv_cache:99999999
    run 2 shadow "$dir/d.rlc" --flip-byte nosuch:1
    ;;
  cache)
    # The cache model's own proof runs with --no-hazard-check, so that only
    # the model (strict: stale bytes) can make the comparison fail.
    capture_decode
    run 0 shadow "$dir/d.rlc" --arms eager,pm4
    REDLINE_TEST_FAULT=nop-acquire
    export REDLINE_TEST_FAULT
    run 1 shadow "$dir/d.rlc" --arms eager,pm4 --no-hazard-check
    expect_out "shadow: FAIL (window 0 (pos=30): region"
    expect_out "in arm pm4 at offset"
    run 0 shadow "$dir/d.rlc" --arms eager,pm4 --cache-model off --no-hazard-check
    # The dynamic hazard checker, an oracle independent of the cache model,
    # names the same missing acquire when it is on (the default).
    run 1 shadow "$dir/d.rlc" --arms eager,pm4 --cache-model off
    expect_out "RAW (no acquire) between launch 0 (dc_embed) and launch 1"
    REDLINE_TEST_FAULT=weaken-gcr
    run 1 shadow "$dir/d.rlc" --arms eager,pm4 --cache-model strict --no-hazard-check
    run 0 shadow "$dir/d.rlc" --arms eager,pm4 --cache-model off --no-hazard-check
    # The aql route: acquire scopes narrowed to NONE, and the last packet's
    # system release narrowed to agent (no L2 write-back for the host).
    REDLINE_TEST_FAULT=narrow-acquire
    run 1 shadow "$dir/d.rlc" --arms eager,aql --no-hazard-check
    expect_out "in arm aql at offset"
    run 0 shadow "$dir/d.rlc" --arms eager,aql --cache-model off --no-hazard-check
    REDLINE_TEST_FAULT=narrow-release
    run 1 shadow "$dir/d.rlc" --arms eager,aql --no-hazard-check
    run 0 shadow "$dir/d.rlc" --arms eager,aql --cache-model report --no-hazard-check
    unset REDLINE_TEST_FAULT
    run 2 shadow "$dir/d.rlc" --cache-model sometimes
    ;;
  relay)
    # pm4-relay (the CP copies kernarg values from per-expression slots):
    # a copy that never reaches the device (REDLINE_TEST_FAULT=nop-copy
    # turns the relay's COPY_DATA packets into NOPs after the census
    # passed them) leaves a launch with last step's value, and the
    # comparison with eager, not the census, catches it; pm4 is unaffected.
    capture_decode
    run 0 shadow "$dir/d.rlc" --arms eager,pm4-relay
    REDLINE_TEST_FAULT=nop-copy
    export REDLINE_TEST_FAULT
    run 1 shadow "$dir/d.rlc" --arms eager,pm4-relay
    expect_out "in arm pm4-relay at offset"
    run 0 shadow "$dir/d.rlc" --arms eager,pm4
    # Only the copy of one launch (the second COPY_DATA of the IB).
    REDLINE_TEST_FAULT=nop-copy:1
    run 1 shadow "$dir/d.rlc" --arms eager,pm4-relay --executor isa
    expect_out "in arm pm4-relay at offset"
    unset REDLINE_TEST_FAULT
    ;;
  effects)
    run 0 capture --workload vecchain -o "$dir/v.rlc"
    run 0 shadow "$dir/v.rlc"
    expect_out "effects audit: every access inside the declared effects (64 dispatches)"
    expect_out "dispatch audit: grids and work-groups as launched"
    REDLINE_TEST_FAULT=effect-shift:2
    export REDLINE_TEST_FAULT
    run 1 shadow "$dir/v.rlc"
    expect_out "shadow: FAIL (arm eager: effects audit: window 0 (pos=1), step 0: launch 2 (vc_add) read buffer a bytes [0, 4096): a read where only a write was declared"
    REDLINE_TEST_FAULT=extent-shrink:3
    run 1 shadow "$dir/v.rlc" --json "$dir/v.json"
    expect_out "launch 3 (vc_axpy_pos) read buffer x bytes [4092, 4096): outside the declared extent"
    grep -qF '"effects_audit"' "$dir/v.json" || fail "JSON lacks effects_audit"
    unset REDLINE_TEST_FAULT
    # Off with the hazard check: the simulator records no accesses.
    run 0 shadow "$dir/v.rlc" --no-hazard-check
    expect_out "effects audit: not checked (--no-hazard-check)"
    ;;
  workspace)
    # Recording refuses a workspace below the longest admitted context.
    run 2 capture --workload decode --config workspace_chunks=1 -o "$dir/w.rlc"
    capture_decode
    run 4 shadow "$dir/d.rlc" --arms eager,aql,pm4 --bind partials=1024
    expect_out "workspace capacity 1024 bytes"
    # A larger caller-bound workspace is fine.
    run 0 shadow "$dir/d.rlc" --arms eager,aql,pm4 --bind partials=8192
    run 4 shadow "$dir/d.rlc" --windows 500:20
    ;;
  bench)
    capture_decode
    run 0 bench "$dir/d.rlc" --rounds 2 --windows 30:3 --json "$dir/b.json"
    expect_out "bench: PASS"
    expect_out "pm4 IB: "
    expect_out "route=pm4 device=sim replays=6 "
    grep -q '"dwords_per_dispatch"' "$dir/b.json" || fail "JSON pm4 stats"
    ;;
  bench_split)
    capture_decode
    run 0 bench "$dir/d.rlc" --arms eager,aql,pm4,pm4-relay --rounds 2 \
      --windows 30:3 --wait spin --pin --json "$dir/b.json"
    expect_out "bench: PASS"
    # Pinned, or says why not (a machine that allows one CPU).
    grep -qE '^wait spin \(polls the completion signal\); threads (pinned: host on CPU [0-9]+, command processors on CPU [0-9]+|not pinned \(one CPU allowed\))$' \
      "$dir/out.txt" || fail "the wait and pinning line"
    # check_split OUT JSON: every retained arm has a split line whose engine
    # + doorbell is its host (rounding) with engine <= host, the JSON has
    # host_engine/host_doorbell with engine <= host median, eager has none.
    check_split() {
      python3 - "$1" "$2" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
r = json.load(open(sys.argv[2]))
assert r["wait"] == "spin", r["wait"]
assert r["pinning"], "pinning not reported"
for arm in r["arms"]:
    name = arm["arm"]
    if name == "eager":
        assert arm["host_engine"] is None and arm["host_doorbell"] is None, name
        assert "eager host split" not in text
        continue
    e, d, h = (arm[k]["median_ns"] for k in ("host_engine", "host_doorbell", "host"))
    assert e <= h, "%s: engine %s > host %s" % (name, e, h)
    assert arm["host_engine"]["min_ns"] <= arm["host"]["max_ns"], name
    assert arm["handoff"] is not None, name + ": no handoff"
    m = re.search(r"^%s host split \(medians, us\): host ([0-9.]+) = "
                  r"engine ([0-9.]+) .*\+ doorbell ([0-9.]+) .*; wait beyond "
                  r"the device span ([0-9.]+)" % re.escape(name), text, re.M)
    assert m, name + ": no split line"
    th, te, td = (float(m.group(i)) for i in (1, 2, 3))
    assert te <= th, "%s: text engine %s > host %s" % (name, te, th)
    assert abs(te - e / 1000) < 0.006 and abs(th - h / 1000) < 0.006, name
PY
    }
    check_split "$dir/out.txt" "$dir/b.json" || fail "host split"
    # Negative control: a report whose pm4 engine exceeds its host fails.
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
a=[a for a in r["arms"] if a["arm"]=="pm4"][0]
a["host_engine"]["median_ns"]=a["host"]["median_ns"]+1
json.dump(r,open(sys.argv[2],"w"))' "$dir/b.json" "$dir/bad.json"
    if check_split "$dir/out.txt" "$dir/bad.json" >/dev/null 2>&1; then
      fail "the split check accepted engine > host"
    fi
    # Default wait: block, not pinned; the bench-only noop executor.
    run 0 bench "$dir/d.rlc" --arms pm4 --rounds 1 --windows 30:2 \
      --executor noop
    expect_out "wait block (the device's wait); threads not pinned (--pin)"
    expect_out "pm4 host split (medians, us): host "
    run 2 bench "$dir/d.rlc" --wait sometimes
    grep -qF -- "--wait 'sometimes': expected block or spin" "$dir/err.txt" ||
      fail "the --wait usage error"
    ;;
  demo)
    run 0 demo "$@"
    expect_out "shadow: PASS"
    # The quiet default (issue 28): at most 40 lines, the inspect stage as
    # counts, the shadow as one line per route family of arms that passed,
    # no per-arm line, no per-window table, PASS/FAIL per stage.
    # (The verify demo adds its route envelope and serve steps: 70.)
    limit=40
    case " $* " in *" verify "*) limit=70 ;; esac
    lines=$(wc -l < "$dir/out.txt")
    [ "$lines" -le "$limit" ] ||
      fail "demo printed $lines lines, expected <= $limit"
    expect_out "parameters pos admitted"
    grep -q '^ok aql       (aql, aql~adv1, aql~adv2): ' "$dir/out.txt" ||
      fail "the aql family line"
    # 5 route families and the second executor (eager@isa or eager@ref).
    [ "$(grep -c '^ok ' "$dir/out.txt")" -eq 6 ] || fail "6 family lines"
    if grep -qE '^arm [^ ]+ +route=|^  window |^  \[0\] ' "$dir/out.txt"; then
      fail "per-arm, per-window or per-buffer lines without --verbose"
    fi
    expect_out "bench: PASS"
    tail -n 1 "$dir/out.txt" | grep -qxE "redline demo: PASS \([0-9.]+ s\)" || fail "last line"
    # --verbose: today's detail (every buffer, a line per arm and window);
    # once, in the default demo only (the ISA variants take minutes).
    if [ $# -eq 0 ]; then
      run 0 demo --verbose
      [ "$(grep -cE '^arm [^ ]+ +route=' "$dir/out.txt")" -eq 12 ] ||
        fail "12 arm lines (11 and the second executor)"
      grep -qE '^  window ' "$dir/out.txt" || fail "no table with --verbose"
      grep -qE '^  \[0\] embedding ' "$dir/out.txt" || fail "no buffer list"
      tail -n 1 "$dir/out.txt" | grep -qxE "redline demo: PASS \([0-9.]+ s\)" || fail "last line"
    fi
    ;;
  *)
    echo "unknown case $case_name" >&2
    exit 2
    ;;
esac
echo "ok: $case_name $*"
