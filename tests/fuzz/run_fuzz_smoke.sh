#!/usr/bin/env bash
# run_fuzz_smoke.sh FUZZER CORPUS_DIR SEED_FILE... — a short libFuzzer run
# (RL_FUZZ_SECONDS, default 20) over a fresh corpus seeded with SEED_FILEs.
# Fails when the fuzzer finds a crash, leak or sanitizer report.
set -euo pipefail
fuzzer=$1; corpus=$2; shift 2
rm -rf "$corpus"; mkdir -p "$corpus"
for seed in "$@"; do cp "$seed" "$corpus/"; done
"$fuzzer" -max_total_time="${RL_FUZZ_SECONDS:-20}" -rss_limit_mb=2048 \
  -max_len=262144 -print_final_stats=1 -artifact_prefix="$corpus/../" "$corpus"
