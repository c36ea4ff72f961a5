#!/bin/sh
# tests/install/check_exports.sh LIBRARY INCLUDE_DIR MAP — checks that the
# shared library exports exactly the public API: the functions the headers
# in INCLUDE_DIR declare (public_api.sh), the global list of the version
# script MAP, and `nm -D --defined-only LIBRARY` must be the same set.
# Prints the differences and exits 1 when they disagree.
set -eu
library=$1 include=$2 map=$3
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/public_api.sh" "$include" >"$work/headers"
# The version node itself is an absolute symbol (type A); skip it.
nm -D --defined-only "$library" | awk '$2 != "A" { print $3 }' |
  sed 's/@.*//' | sort -u >"$work/exported"
sed -n '/global:/,/local:/p' "$map" | grep -oE '\brl_[a-z0-9_]+' |
  sort -u >"$work/map"
status=0
if ! diff -u --label headers "$work/headers" --label "nm -D" \
    "$work/exported"; then
  echo "check_exports: $library does not export exactly the public API" >&2
  status=1
fi
if ! diff -u --label headers "$work/headers" --label "$map" "$work/map"; then
  echo "check_exports: $map does not list exactly the public API" >&2
  status=1
fi
[ $status -eq 0 ] &&
  echo "check_exports: $(wc -l <"$work/headers") functions, headers = map = nm -D"
exit $status
