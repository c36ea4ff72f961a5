#!/bin/sh
# tests/install/public_api_null_coverage.sh INCLUDE_DIR TEST — the NULL
# table of public_api_null_test (TEST --list) must name exactly the pointer
# parameters of the public headers (public_api_pointers.sh): a function or
# parameter added to a header without a NULL case fails here.
set -eu
include=$1 test=$2
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/public_api_pointers.sh" "$include" >"$work/headers"
# RL_API_TABLE_DROP=FUNCTION (the negative control) leaves a function out.
"$test" --list | grep -v "^${RL_API_TABLE_DROP:-^} " | sort -u >"$work/table"
if ! diff -u --label headers "$work/headers" --label "$test --list" \
    "$work/table"; then
  echo "public_api_null_coverage: the NULL table and the headers disagree" >&2
  exit 1
fi
echo "public_api_null_coverage: $(wc -l <"$work/headers") pointer parameters" \
  "of $(cut -d' ' -f1 "$work/headers" | sort -u | wc -l) functions covered"
