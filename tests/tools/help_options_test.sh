#!/usr/bin/env bash
# Every option that several commands share has one spelling and one value
# form across `redline help COMMAND` (issue 28: `capture --processor` was a
# usage error because capture spelled it --target).
#
# usage: help_options_test.sh REDLINE
#
# For every command that `redline help` lists, the option lines of its help
# (indented lines starting with an option, several options per line allowed:
# "--max-decompressed B, --max-device-memory B") give each option's value
# form: the metavariable (GFX, N, OUT, ...), a choice (alternatives with
# '|': the values a command admits may differ, capture's --device takes
# none, replay's does not) or none for a flag. The test
# fails when
#   - a help text shows an alias instead of the option's one name
#     (--target for --processor: accepted by every command, docs/cli.md,
#     but never spelled in a help text), or
#   - one option has two value forms in two commands.
# One documented exception: --json is a flag for the commands that print
# their report, and --json OUT for shadow and bench, whose report is text
# and whose JSON goes to a file (docs/cli.md, "Options shared by commands").
# Negative controls: a help text with --processor respelled --target, and
# one with another value form, must fail the same check.
set -uo pipefail
redline=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The alias table: ALIAS=NAME (tools/cli.c, rl_cli_is_processor_flag).
aliases=("--target=--processor")

commands=$("$redline" help | sed -n '/^Commands:/,/^$/p' |
  awk 'NF && !/Commands:/ {print $1}')
[[ -n $commands ]] || { echo "FAIL: no commands in redline help" >&2; exit 1; }
mkdir "$work/real"
for command in $commands; do
  "$redline" help "$command" > "$work/real/$command.txt" ||
    fail "redline help $command failed"
done
[[ $(ls "$work/real" | wc -l) -ge 10 ]] || fail "fewer than 10 help texts"

# option_forms DIR: "OPTION FORM COMMAND" per option of every option line
# (FORM "-" for a flag) of the help texts in DIR.
option_forms() {
  local file command
  for file in "$1"/*.txt; do
    command=$(basename "$file" .txt)
    sed '/^Exit codes:/,$d' "$file" | grep -E '^  +--' |
      sed -E 's/^ +//; s/   .*$//' | tr ',' '\n' | sed -E 's/^ +//' |
      awk -v c="$command" '$1 ~ /^--[a-z]/ {
        form = "-"
        if (NF >= 2 && $2 ~ /\|/) form = "ONE-OF"
        else if (NF >= 2 && $2 ~ /^[A-Z][A-Z:[\]]*$/) form = $2
        print $1, form, c
      }'
  done
}

# check DIR: prints every violation; returns 1 when there is one.
check() {
  local dir=$1 bad=0 pair alias name hits forms
  for pair in "${aliases[@]}"; do
    alias=${pair%%=*} name=${pair#*=}
    hits=$(grep -lE -- "(^|[^a-z-])$alias([^a-z-]|$)" "$dir"/*.txt)
    if [[ -n $hits ]]; then
      echo "alias $alias spelled instead of $name in: $(basename -a $hits | tr '\n' ' ')"
      bad=1
    fi
  done
  option_forms "$dir" > "$dir.forms"
  [[ -s $dir.forms ]] || { echo "no option lines in $dir"; return 1; }
  forms=$(awk '$1 != "--json" {print $1, $2}' "$dir.forms" | sort -u |
    awk '{n[$1]++} END {for (o in n) if (n[o] > 1) print o}')
  for name in $forms; do
    echo "$name has several value forms: $(awk -v o="$name" \
      '$1 == o {print $3 ":" $2}' "$dir.forms" | sort -u | tr '\n' ' ')"
    bad=1
  done
  # The exception, exactly: --json is a flag, or OUT for shadow and bench.
  if awk '$1 == "--json" && !($2 == "-" || ($2 == "OUT" &&
        ($3 == "shadow" || $3 == "bench")))' "$dir.forms" | grep -q .; then
    echo "--json outside its documented forms"
    bad=1
  fi
  return $bad
}

out=$(check "$work/real") || fail "redline help: $out"
# The shared options are there to compare (a parser that found nothing
# would pass vacuously).
for option in --processor --executor --hazards --seed --cache-model --trace \
    --timeout-ms --max-decompressed; do
  n=$(awk -v o="$option" '$1 == o' "$work/real.forms" | wc -l)
  [[ $n -ge 2 ]] || fail "$option found in $n help texts, expected >= 2"
done
grep -q '^--processor GFX capture$' "$work/real.forms" ||
  fail "capture does not show --processor GFX"

# Negative controls.
cp -r "$work/real" "$work/alias"
sed -i 's/--processor GFX /--target GFX    /' "$work/alias/capture.txt"
out=$(check "$work/alias") && fail "a help text spelling --target passed"
grep -q 'alias --target spelled instead of --processor in: capture.txt' \
  <<< "$out" || fail "the alias control did not name capture: $out"
cp -r "$work/real" "$work/form"
sed -i 's/--seed N /--seed SEED /' "$work/form/replay.txt"
out=$(check "$work/form") && fail "two value forms of --seed passed"
grep -q -- '--seed has several value forms' <<< "$out" ||
  fail "the value-form control did not name --seed: $out"
cp -r "$work/real" "$work/json"
sed -i 's/--json   /--json OUT   /' "$work/json/doctor.txt"
out=$(check "$work/json") && fail "--json OUT on doctor passed"

[[ $failures -eq 0 ]] && echo "help options: PASS ($(echo $commands | wc -w) commands)"
exit $((failures > 0))
