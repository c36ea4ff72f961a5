#!/bin/sh
# tests/unit/sim/hip_sim/hip_sim_exports.sh check|control OURS REFERENCE —
# the `hip*` functions redline's libamdhip64 (OURS) exports against those
# of the reference libamdhip64 (REFERENCE: Debian's libamdhip64.so.5).
#   check    passes when every reference name is exported and every extra
#            name is one of EXTRAS (entries of later HIP releases redline
#            adds); otherwise fails listing the difference;
#   control  negative control: the same comparison against OURS with one
#            reference name removed must fail, naming that name.
# Names are compared without their version node (hip_sim.map puts each in
# the node the reference gives it).
set -eu
mode=$1 ours=$2 reference=$3
EXTRAS="hipChooseDeviceR0600 hipDeviceSetLimit hipExtModuleLaunchKernel
hipGetDevicePropertiesR0600 hipLaunchHostFunc hipModuleLaunchCooperativeKernel"

hip_names() {
  nm -D --defined-only "$1" | awk '$2 == "T" && $3 ~ /^hip/ { sub(/@.*/, "", $3); print $3 }' |
    LC_ALL=C sort -u
}

# compare OURS_LIST REFERENCE_LIST: prints the difference, fails on one.
compare() {
  missing=$(LC_ALL=C comm -13 "$1" "$2")
  extra=$(LC_ALL=C comm -23 "$1" "$2" | grep -vxF "$(echo "$EXTRAS" | tr ' ' '\n')" || true)
  [ -z "$missing" ] && [ -z "$extra" ] && return 0
  [ -n "$missing" ] && echo "missing from $(basename "$ours") (exported by $(basename "$reference")):" $missing
  [ -n "$extra" ] && echo "exported by $(basename "$ours") only (not in EXTRAS):" $extra
  return 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hip_names "$ours" > "$tmp/ours"
hip_names "$reference" > "$tmp/reference"
[ -s "$tmp/reference" ] || { echo "no hip* functions in $reference"; exit 1; }
case $mode in
  check)
    compare "$tmp/ours" "$tmp/reference"
    echo "hip_sim_exports: $(wc -l < "$tmp/reference") reference names, all exported" ;;
  control)
    removed=$(sed -n 100p "$tmp/reference")
    grep -vxF "$removed" "$tmp/ours" > "$tmp/ours_less"
    if out=$(compare "$tmp/ours_less" "$tmp/reference"); then
      echo "control: the comparison passed without $removed"; exit 1
    fi
    case $out in
      *"$removed"*) echo "control: the comparison failed naming $removed, as it must" ;;
      *) echo "control: the comparison failed without naming $removed: $out"; exit 1 ;;
    esac ;;
  *) echo "usage: hip_sim_exports.sh check|control OURS REFERENCE"; exit 2 ;;
esac
