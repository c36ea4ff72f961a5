#!/bin/sh
# tests/install/public_api_pointers.sh INCLUDE_DIR — prints, sorted, one
# "FUNCTION INDEX" line for every pointer parameter (0-based) of every
# function the public headers INCLUDE_DIR/redline/*.h declare with external
# linkage, from public_api.sh's declarations (the compiler's -aux-info).
# rl_status_t parameters are left out: a status is a pointer whose NULL
# means OK, never a missing argument. public_api_null_test
# compares this list with the table of its NULL calls, so a new public
# function, or a new pointer parameter, cannot be left out of it.
set -eu
# public_api.sh's declarations: "extern TYPE rl_name (T1, T2 *, ...);".
"$(dirname "$0")/public_api.sh" "$1" declarations |
  awk '{
    match($0, /rl_[a-z0-9_]+ \(/)
    name = substr($0, RSTART, RLENGTH - 2)
    args = substr($0, RSTART + RLENGTH)
    sub(/\);[ ]*$/, "", args)
    n = split(args, list, ",")
    for (i = 1; i <= n; ++i) {
      if (list[i] ~ /\*/ && list[i] !~ /__va_list_tag/) print name, i - 1
    }
  }' | sort -u
