#!/bin/bash
# tests/integration/run_outputs_cli_test.sh REDLINE HIP_APP CODE_OBJECT DIR —
# `redline run --capture FILE --trace FILE` keeps every existing file as the
# output-writer rules say (docs/cli.md "Output files", "redline run"):
# nothing is removed before the new file is complete, a bad option value is
# a usage error before anything is touched, a symbolic link stays a link, a
# FIFO stays a FIFO, a write that fails (a file-size limit standing in for
# a full disk) keeps the previous capture byte for byte, and a forked child
# of the program writes nothing. Each case fails on the old `run`, which
# unlinked both paths before starting the program.
set -u
redline=$1 app=$2 co=$3 dir=$4
rm -rf "$dir"
mkdir -p "$dir/tmp"
# The reports' private directory goes under TMPDIR: none may be left behind.
export TMPDIR=$dir/tmp
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
run() { "$redline" run "$@" >"$dir/out" 2>"$dir/err"; }

# 1. A bad --window: exit 2 before the program starts; the old capture stays.
printf 'previous capture\n' >"$dir/keep.rlc"
cp "$dir/keep.rlc" "$dir/keep.orig"
run --capture "$dir/keep.rlc" --window launches:x -- "$app" "$co"
[ $? -eq 2 ] || fail "bad --window: expected exit 2"
grep -q "run: --window: window 'launches:x'" "$dir/err" ||
  fail "bad --window: no message naming the value"
cmp -s "$dir/keep.rlc" "$dir/keep.orig" || fail "bad --window: capture changed"
[ -s "$dir/out" ] && fail "bad --window: the program ran"

# 2. The same path for --trace and --capture: exit 2, nothing touched.
run --capture "$dir/keep.rlc" --trace "$dir/keep.rlc" -- "$app" "$co"
[ $? -eq 2 ] || fail "same --trace and --capture: expected exit 2"
cmp -s "$dir/keep.rlc" "$dir/keep.orig" || fail "same path: capture changed"

# 3. A write that fails (EFBIG under a 4 KiB file-size limit, SIGXFSZ
#    ignored, as a full disk gives ENOSPC): the previous capture is kept.
(trap '' XFSZ; ulimit -f 8; run --capture "$dir/keep.rlc" -- "$app" "$co")
cmp -s "$dir/keep.rlc" "$dir/keep.orig" ||
  fail "failed write: the previous capture is gone"
grep -q "capture $dir/keep.rlc NOT written" "$dir/err" ||
  fail "failed write: the summary does not say the capture is not written"

# 4. A symbolic link is followed: the link stays, its target is the capture.
ln -s target.rlc "$dir/link.rlc"
run --capture "$dir/link.rlc" -- "$app" "$co" || fail "symlink: run failed"
[ -L "$dir/link.rlc" ] || fail "symlink: the link was replaced"
"$redline" inspect "$dir/target.rlc" >/dev/null ||
  fail "symlink: the target is not a capture"
grep -q "capture $dir/link.rlc written, complete (6 launches)" "$dir/err" ||
  fail "symlink: summary: $(cat "$dir/err")"

# 5. A link to /dev/null: written in place; the link and the device stay.
ln -s /dev/null "$dir/null.rlc"
run --capture "$dir/null.rlc" --trace "$dir/null.rlc.json" -- "$app" "$co" ||
  fail "/dev/null: run failed"
[ -L "$dir/null.rlc" ] || fail "/dev/null: the link was replaced"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

# 6. A FIFO nobody reads: it stays a FIFO, and the summary says why the
#    capture was not written (no hang).
mkfifo "$dir/fifo"
run --capture "$dir/fifo" -- "$app" "$co"
[ -p "$dir/fifo" ] || fail "FIFO: no longer a FIFO"
grep -q "capture $dir/fifo NOT written (FIFO .* has no reader)" "$dir/err" ||
  fail "FIFO: summary: $(cat "$dir/err")"

# 7. A forked child writes neither the capture nor the trace: one capture
#    line on stderr, and the files are the parent's.
run --capture "$dir/fork.rlc" --trace "$dir/fork.json" -- "$app" "$co" fork ||
  fail "fork: run failed"
lines=$(grep -c "launches recorded into" "$dir/err")
[ "$lines" -eq 1 ] || fail "fork: $lines processes wrote the capture"
grep -q "written, complete (6 launches); trace $dir/fork.json written" \
  "$dir/err" || fail "fork: summary: $(cat "$dir/err")"

# 7b. The capture's launch budget (--capture-max-launches, a trusted run's
#     own, not the 65,536 of a file's replay): the program's 6 launches fit
#     in 6; with 4 the capture is written incomplete naming the budget (and
#     replay refuses it, exit 4); a value that is not a size is exit 2.
run --capture "$dir/budget6.rlc" --capture-max-launches 6 -- "$app" "$co" ||
  fail "budget 6: run failed"
grep -q "capture $dir/budget6.rlc written, complete (6 launches)" "$dir/err" ||
  fail "budget 6: summary: $(cat "$dir/err")"
run --capture "$dir/budget4.rlc" --capture-max-launches 4 -- "$app" "$co" ||
  fail "budget 4: run failed"
grep -q "INCOMPLETE: more than 4 launches, the capture's budget (REDLINE_CAPTURE_MAX_LAUNCHES, redline run --capture-max-launches)" \
  "$dir/err" || fail "budget 4: summary: $(cat "$dir/err")"
"$redline" replay "$dir/budget4.rlc" >/dev/null 2>&1
[ $? -eq 4 ] || fail "budget 4: replay of the incomplete capture not exit 4"
run --capture "$dir/budget0.rlc" --capture-max-launches 0 -- "$app" "$co"
[ $? -eq 2 ] || fail "budget 0: expected exit 2"
grep -q "run: --capture-max-launches expects a positive number" "$dir/err" ||
  fail "budget 0: $(cat "$dir/err")"
[ -e "$dir/budget0.rlc" ] && fail "budget 0: a capture was written"
run --capture-max-launches 8 -- "$app" "$co"
[ $? -eq 2 ] || fail "budget without --capture: expected exit 2"

# 8. The reports' private directories are gone.
left=$(ls -A "$dir/tmp")
[ -z "$left" ] || fail "left in TMPDIR: $left"

if [ $failures -ne 0 ]; then
  echo "run_outputs_cli_test: $failures failures" >&2
  exit 1
fi
echo "run_outputs_cli_test: every output kept as the rules say"
