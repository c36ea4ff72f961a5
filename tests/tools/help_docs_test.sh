#!/usr/bin/env bash
# The manual pages and the bash completion say what `redline help` says.
#
# usage: help_docs_test.sh REDLINE MANDIR COMPLETION
#
# The independent side is groff (it renders the pages; any warning fails)
# and bash itself (it runs the completion function). For every command that
# `redline help` lists:
#   - MANDIR/redline-COMMAND.1 exists, renders without a warning, and its
#     rendering contains every option line of `redline help COMMAND`;
#   - the completion offers, after `redline COMMAND -`, every option word
#     that `redline help COMMAND` mentions.
# Then a few value completions, and the negative controls: a page with one
# option line removed and a completion with one option removed must fail
# the same checks.
set -uo pipefail
redline=$1 mandir=$2 completion=$3
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

commands=$("$redline" help | sed -n '/^Commands:/,/^$/p' | awk 'NF && !/Commands:/ {print $1}')
[[ -n $commands ]] || { echo "FAIL: no commands in redline help" >&2; exit 1; }

# The option lines of `redline help COMMAND`: indented lines of the help text
# between the description and the exit codes, leading blanks removed.
option_lines() {
  "$redline" help "$1" | sed -n '/^usage:/,/^Exit codes:/p' |
    grep -E '^  ' | sed -E 's/^ +//; s/ +$//'
}
option_words() {
  "$redline" help "$1" | sed '/^Exit codes:/,$d' |
    grep -oE '(^|[][ (|,])--?[a-z][a-z0-9-]*' | sed -E 's/^[][ (|,]//' | sort -u
}

# check_page PAGE COMMAND: renders PAGE, fails on a warning or a missing line.
check_page() {
  local page=$1 command=$2 rendered warnings ok=0
  [[ -f $page ]] || { echo "missing page $page"; return 1; }
  warnings=$(groff -man -ww -z -Tutf8 "$page" 2>&1)
  [[ -z $warnings ]] || { echo "$page: groff: $warnings"; ok=1; }
  rendered=$(groff -man -Tascii -rLL=200n -P-c "$page" 2>/dev/null |
    sed -E 's/.\x08//g; s/^ +//; s/ +$//')
  while IFS= read -r line; do
    [[ -z $line ]] && continue
    grep -qxF -- "$line" <<<"$rendered" ||
      { echo "$page: option line not rendered: '$line'"; ok=1; }
  done < <(option_lines "$command")
  return $ok
}

# complete_words FILE WORD...: COMPREPLY of the completion in FILE for the
# command line WORD... (the last word is the one being completed).
complete_words() {
  local file=$1
  shift
  bash --norc --noprofile -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _redline
    printf "%s\n" "${COMPREPLY[@]}"' _ "$file" "$redline" "$@" 2>/dev/null
}

check_completion() {
  local file=$1 command=$2 offered ok=0
  offered=$(complete_words "$file" "$command" -)
  while IFS= read -r word; do
    grep -qxF -- "$word" <<<"$offered" ||
      { echo "$file: '$command -' does not offer $word"; ok=1; }
  done < <(option_words "$command")
  return $ok
}

for command in $commands; do
  out=$(check_page "$mandir/redline-$command.1" "$command") || fail "$out"
  [[ $command == help ]] && continue
  out=$(check_completion "$completion" "$command") || fail "$out"
done
out=$(check_page "$mandir/redline.1" help) || fail "$out"
for command in $commands; do
  grep -q "redline\\\\-$command" "$mandir/redline.1" ||
    fail "redline.1 does not name redline-$command"
done

expect() {  # expect "WANTED WORDS" WORD...
  local wanted=$1
  shift
  local got
  got=$(complete_words "$completion" "$@" | sort | tr '\n' ' ' | sed 's/ $//')
  [[ $got == "$wanted" ]] || fail "completion of '$*': got '$got', want '$wanted'"
}
expect "shadow" sh
expect "aql pm4" replay --route ""
expect "eager,aql" shadow --arms eager,a
expect "gfx1100 gfx1151 gfx1201" demo --processor ""
# The workloads the CLI registers, read from its own list.
workloads=$("$redline" capture --list | awk '/^[a-z]/ {print $1}' | sort | tr '\n' ' ' | sed 's/ $//')
[[ -n $workloads ]] || fail "no workloads in redline capture --list"
expect "$workloads" capture --workload ""
expect "isa ref" shadow --executor ""

# Negative controls: the same checks on damaged copies must fail.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
grep -v -- '^\\-\\-arms LIST' "$mandir/redline-shadow.1" >"$scratch/redline-shadow.1"
check_page "$scratch/redline-shadow.1" shadow >/dev/null &&
  fail "negative control: a page without the --arms line passed"
sed 's/ --seed / /g' "$completion" >"$scratch/completion"
check_completion "$scratch/completion" replay >/dev/null &&
  fail "negative control: a completion without --seed passed"

if ((failures)); then
  echo "help_docs_test: $failures failure(s)" >&2
  exit 1
fi
echo "help_docs_test: $(wc -w <<<"$commands") commands: pages and completion match redline help"
