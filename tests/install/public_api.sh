#!/bin/sh
# tests/install/public_api.sh INCLUDE_DIR [declarations] — prints, one per
# line and sorted, the functions the public headers INCLUDE_DIR/redline/*.h
# declare with external linkage (static inline helpers excluded); with
# `declarations`, each such declaration instead, as
# "extern TYPE rl_name (T1, T2 *, ...);" (public_api_pointers.sh reads
# their parameters). GCC's -aux-info writes every declaration it sees with
# its file and line, so the list comes from the compiler, not from a
# pattern over the header text.
set -eu
include=$1
mode=${2:-names}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for header in "$include"/redline/*.h; do
  printf '#include "redline/%s"\n' "$(basename "$header")"
done >"$work/all.c"
${CC:-gcc} -std=c11 -I"$include" -aux-info "$work/aux.txt" -fsyntax-only \
  "$work/all.c"
# Lines look like "/* PATH:LINE:NC */ extern TYPE rl_name (ARGS);".
grep -F "$include/redline/" "$work/aux.txt" | grep -v '\*/ static ' |
  sed -E 's|^/\*[^*]*\*/ ||' | grep -E '\brl_[a-z0-9_]+ \(' >"$work/decls"
if [ "$mode" = declarations ]; then
  cat "$work/decls"
else
  grep -oE '\brl_[a-z0-9_]+ \(' "$work/decls" | sed 's/ ($//' | sort -u
fi
