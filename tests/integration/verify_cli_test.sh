#!/bin/sh
# CLI tests of the verify workload (tests/verify.cmake): the route's
# envelope refusals and the negative controls of its state regions.
# usage: verify_cli_test.sh REDLINE CASE
#   refuse  recording refuses B = 3 and 33 and a workspace below S = 8
#           (exit 2); a replay binding a smaller partials workspace fails
#           the contract before anything runs (exit 4); a window below the
#           crossover is not admitted (exit 4).
#   flip    the shadow fails naming the region and offset when one byte of
#           the state after rollback (recur), after forward (kv_forward) or
#           of the guard rows (kv_guard, reported as the kv_cache byte it
#           is) is corrupted in the pm4 arm.
#   executors  the eager arm with the reference kernels and with the ISA
#           executor gives the same XXH3 of every region after every window
#           (the references are bit-exact models of the compiled kernels);
#           control: the same comparison against a run one window later
#           differs.
# Captures are at demo scale: 2 layers, 1024 rows, crossover 256.
set -u
redline=$1
case_name=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/rl_verify_cli.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
small="--config layers=2 --config max_context=1024 --config crossover=256"

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout" >&2; cat "$dir/out.txt" >&2 2>/dev/null
  echo "--- stderr" >&2; cat "$dir/err.txt" >&2 2>/dev/null
  exit 1
}

run() {
  expected=$1
  shift
  "$redline" "$@" >"$dir/out.txt" 2>"$dir/err.txt"
  code=$?
  [ "$code" -eq "$expected" ] || fail "redline $* exited $code, expected $expected"
}

expect() {
  cat "$dir/out.txt" "$dir/err.txt" | grep -qF -- "$1" || fail "output lacks: $1"
}

# shellcheck disable=SC2086
capture() { run 0 capture --workload verify $small "$@" -o "$dir/v.rlc"; }

case "$case_name" in
  refuse)
    # shellcheck disable=SC2086
    run 2 capture --workload verify $small --config batch=3 -o "$dir/x.rlc"
    expect "batch=3 is outside the admitted range [4, 33)"
    # shellcheck disable=SC2086
    run 2 capture --workload verify $small --config batch=33 -o "$dir/x.rlc"
    expect "batch=33 is outside the admitted range [4, 33)"
    # shellcheck disable=SC2086
    run 2 capture --workload verify $small --config workspace_chunks=7 \
      -o "$dir/x.rlc"
    expect "S = 8 at B 16 needs 18432 bytes"
    # shellcheck disable=SC2086
    run 2 capture --workload verify $small --param pos=240 -o "$dir/x.rlc"
    expect "pos=240 is outside the admitted range [241, 1009)"
    capture
    run 4 shadow "$dir/v.rlc" --arms eager,aql,pm4 --bind partials=18428
    expect "workspace capacity 18428 bytes"
    run 4 shadow "$dir/v.rlc" --windows 224:2:16
    expect "pos=224 is outside the admitted range [241, 1009)"
    ;;
  flip)
    capture
    # eager and pm4 only: the comparator's control, not a route check.
    flip="--arms eager,pm4 --adversarial-seeds 0"
    # shellcheck disable=SC2086
    run 1 shadow "$dir/v.rlc" $flip --flip-byte recur:5
    expect "region recur differs in arm pm4 at offset 5 (1 byte differs)"
    # shellcheck disable=SC2086
    run 1 shadow "$dir/v.rlc" $flip --flip-byte kv_forward:100
    expect "region kv_forward differs in arm pm4 at offset 100 (1 byte differs)"
    # The guard rows (1008.. at 128 bytes a row) lie inside kv_cache, which
    # is compared first.
    # shellcheck disable=SC2086
    run 1 shadow "$dir/v.rlc" $flip --flip-byte kv_guard:3
    expect "region kv_cache differs in arm pm4 at offset 129027 (1 byte differs)"
    ;;
  executors)
    capture
    hashes() { grep -o '"xxh3_128":[[:space:]]*"[0-9a-f]*"' "$1" >"$2"; }
    # One arm each (no second executor): the hashes of one executor.
    run 0 shadow "$dir/v.rlc" --arms eager --no-second-executor \
      --json "$dir/ref.json"
    run 0 shadow "$dir/v.rlc" --arms eager --executor isa --no-second-executor \
      --json "$dir/isa.json"
    run 0 shadow "$dir/v.rlc" --arms eager --windows 832:12:16 \
      --no-second-executor --json "$dir/later.json"
    hashes "$dir/ref.json" "$dir/ref.txt"
    hashes "$dir/isa.json" "$dir/isa.txt"
    hashes "$dir/later.json" "$dir/later.txt"
    [ "$(wc -l <"$dir/ref.txt")" -eq 192 ] || fail "expected 12 x 16 hashes"
    cmp -s "$dir/ref.txt" "$dir/isa.txt" || fail "ref and isa executors differ"
    cmp -s "$dir/ref.txt" "$dir/later.txt" && fail "control: windows not compared"
    ;;
  *)
    fail "unknown case $case_name"
    ;;
esac
echo "PASS: $case_name"
