#!/bin/bash
# tests/integration/stdout_errors_cli_test.sh REDLINE DIR — a report that
# cannot be written to standard output fails the command (docs/cli.md "Exit
# codes": exit 3, "cannot write standard output"): onto /dev/full (ENOSPC)
# and onto a closed descriptor (EBADF), for inspect, replay --json and
# shadow. The negative control: the same commands onto /dev/null exit 0.
set -u
redline=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
"$redline" capture --workload vecchain -o "$dir/c.rlc" >/dev/null ||
  { echo "cannot record the capture" >&2; exit 1; }

# expect CODE DESCRIPTION COMMAND... (stdout redirected by the caller)
check() {
  local want=$1 what=$2 got
  shift 2
  "$@" 2>"$dir/err"
  got=$?
  [ $got -eq "$want" ] || fail "$what: exit $got, expected $want"
  if [ "$want" -eq 3 ]; then
    grep -q "redline: cannot write standard output" "$dir/err" ||
      fail "$what: no message: $(cat "$dir/err")"
  fi
}
for target in /dev/null /dev/full; do
  want=0
  [ $target = /dev/full ] && want=3
  check $want "inspect --launches > $target" \
    "$redline" inspect "$dir/c.rlc" --launches >$target
  check $want "replay --json > $target" \
    "$redline" replay "$dir/c.rlc" --json >$target
  check $want "shadow > $target" \
    "$redline" shadow "$dir/c.rlc" --arms eager,aql >$target
done
check 3 "inspect with stdout closed" "$redline" inspect "$dir/c.rlc" >&-
check 3 "replay --json with stdout closed" \
  "$redline" replay "$dir/c.rlc" --json >&-
# A command that already failed keeps its own code (a missing input: 3 from
# the reader, usage: 2).
check 2 "usage error with stdout closed" "$redline" inspect >&-

if [ $failures -ne 0 ]; then
  echo "stdout_errors_cli_test: $failures failures" >&2
  exit 1
fi
echo "stdout_errors_cli_test: every write error on stdout fails the command"
