#!/bin/bash
# tests/hip_corpus/decode_product.sh — the product path of a step capture
# of the corpus decode loop (tests/example/decode_product.c;
# docs/real-engines.md, "From a step capture to a product replay"):
#
#   decode_product.sh MODE REDLINE ARCH DIR DECODE PRODUCT
#
#   capture      `redline run --steps 4 --verify-steps 5`: one step
#                captured at pos 0, the program's state and tokens after
#                the steps at pos 0..8 (decode's last step, pos 9, has no
#                next step to record its state at) — the others' fixture
#   pass         decode_product replays pos 0..8 feeding pos and the
#                program's token, every region equal to the program's at
#                the 8 positions besides pos 0: exit 0, PASS
#   wrong_token  negative control: the token at pos 5 fed + 1: exit 1, the
#                failure names pos 5 (and pos 0..4, before it, matched)
set -u
mode=$1 redline=$2 arch=$3 dir=$4 decode=$5 product=$6
capture=$dir/decode_product.rlc

run() { echo "+ $*" >&2; "$@"; }
fail() { echo "decode_product.sh $mode: $*" >&2; exit 1; }

case "$mode" in
  capture)
    rm -f "$capture"
    run "$redline" run --processor "$arch" --capture "$capture" \
      --steps 4 --verify-steps 5 -- "$decode" ||
      fail "run failed" ;;
  pass)
    out=$(run "$product" "$capture")
    status=$?
    echo "$out"
    [ $status -eq 0 ] || fail "the product replay should pass, got exit $status"
    [ "$(grep -c '^pos .* 9 regions equal to the program.s$' <<<"$out")" -eq 9 ] ||
      fail "expected 9 positions with 9 equal regions each"
    grep -q '^PASS: 8 positions besides the captured pos 0 replayed' <<<"$out" ||
      fail "the verdict should count 8 new positions" ;;
  wrong_token)
    out=$(run "$product" "$capture" --wrong-token 5)
    status=$?
    echo "$out"
    [ $status -eq 1 ] || fail "a wrong token should fail (exit 1), got $status"
    grep -q '^FAIL: the replay differs from the program at pos 5$' <<<"$out" ||
      fail "the failure should name pos 5"
    [ "$(grep -c '^pos  *[0-4]:.* 9 regions equal' <<<"$out")" -eq 5 ] ||
      fail "pos 0..4 (before the wrong token) should still match" ;;
  *)
    echo "decode_product.sh: unknown mode '$mode'" >&2
    exit 2 ;;
esac
