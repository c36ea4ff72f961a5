#!/usr/bin/env bash
# tools/mutate.sh — mutation check of the `isa` executor (sim/isa/).
#
# Copies the source tree into a scratch directory, builds the ISA tests
# there once, then for each curated semantic mutation: applies it (a perl
# substitution against one specific line; the script stops loudly when a
# mutation no longer applies), rebuilds only what changed, runs the tests
# and records which of them catch it; the file is restored before the
# next mutation. Prints a markdown table; exits non-zero when a mutation
# survives, does not apply or does not build.
#
# Usage: tools/mutate.sh [--only id,id,...] [--jobs N] [--keep]
#   --only   run only the listed mutation ids (the ctest runs a subset)
#   --keep   keep the scratch directory (its path is printed)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ONLY=""
JOBS=2
KEEP=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) ONLY="$2"; shift 2 ;;
    --jobs) JOBS="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    *) echo "usage: $0 [--only id,...] [--jobs N] [--keep]" >&2; exit 2 ;;
  esac
done

# id | file | perl substitution (perl -0pi, applied once) | description
MUTATIONS=(
  "add_is_sub|sim/isa/isa_vop.c|s/RL_ISA_F32\(rl_isa_v_add_f32, a \+ b\)/RL_ISA_F32(rl_isa_v_add_f32, a - b)/|v_add_f32 computes a subtraction"
  "fmac_unfused|sim/isa/isa_vop.c|s/RL_ISA_F32\(rl_isa_v_fma_f32, fmaf\(a, b, c\)\)/RL_ISA_F32(rl_isa_v_fma_f32, a * b + c)/|v_fmac_f32 rounds twice (unfused, 1 ulp)"
  "rndne_rounds_away|sim/isa/isa_vop.c|s/RL_ISA_F32\(rl_isa_v_rndne_f32, nearbyintf\(a\)\)/RL_ISA_F32(rl_isa_v_rndne_f32, roundf(a))/|v_rndne_f32 rounds ties away from zero"
  "global_offset_plus4|sim/isa/isa_mem.c|s/out_address\[l\] = base \+ wave->vgpr\[inst->addr\]\[l\] \+ \(uint64_t\)offset;/out_address[l] = base + wave->vgpr[inst->addr][l] + (uint64_t)(offset + 4);/|global load/store (SGPR base) immediate offset off by 4"
  "neg_ignored|sim/isa/isa_valu.c|s/flip = neg \? sign : 0;/flip = (neg \&\& 0) ? sign : 0;/|VOP3 neg modifier ignored"
  "abs_ignored|sim/isa/isa_valu.c|s/uint32_t clear = abs \? sign : 0,/uint32_t clear = (abs \&\& 0) ? sign : 0,/|VOP3 abs modifier ignored"
  "clamp_ignored|sim/isa/isa_valu.c|s/if \(inst->clamp && op->dst == RL_ISA_T_F32\) rl_isa_clamp_f32\(v->d, v->mode\);/if (inst->clamp \&\& op->dst == RL_ISA_T_F32 \&\& 0) rl_isa_clamp_f32(v->d, v->mode);/|VOP3 clamp ignored"
  "exec_ignored|sim/isa/isa_valu.c|s/if \(exec == RL_ISA_ALL_LANES\) \{/exec = RL_ISA_ALL_LANES; if (exec == RL_ISA_ALL_LANES) {/|VALU write-back ignores EXEC"
  "scc_not_set|sim/isa/isa_salu.c|s/uint64_t r = \(uint64_t\)A32 \+ B32V; s->d = \(uint32_t\)r; s->scc = \(uint32_t\)\(r >> 32\)\)/uint64_t r = (uint64_t)A32 + B32V; s->d = (uint32_t)r; s->scc = 0)/|s_add_u32 does not set SCC (carry)"
  "carry_out_wrong|sim/isa/isa_vop3.c|s/(rl_isa_v_add_co_u32,\s+uint64_t r = \(uint64_t\)a \+ b;\s+result = \(uint32_t\)r; carry = )\(uint32_t\)\(r >> 32\)/\${1}(uint32_t)(r >> 31) \& 1/|v_add_co_u32 carry-out taken from bit 31"
  "shift_not_masked|sim/isa/isa_vop.c|s/RL_ISA_U32\(rl_isa_v_lshrrev_b32, b >> \(a & 31\)\)/RL_ISA_U32(rl_isa_v_lshrrev_b32, a >= 32 ? 0 : b >> (a \& 31))/|v_lshrrev_b32 shift amount not masked to 5 bits"
  "sext_missing|sim/isa/isa_mem.c|s/value = size == 1 \? \(uint32_t\)\(int32_t\)\(int8_t\)value/value = size == 1 ? value/|sub-dword signed loads (i8) not sign-extended"
  "bfe_width_plus1|sim/isa/isa_vop3.c|s/rl_isa_field_mask\(c & 31\)\)/rl_isa_field_mask((c + 1) \& 31))/|v_bfe_u32 width operand off by one"
  "ds_offset1_plus1|sim/isa/isa_mem.c|s/a1 = base \+ inst->offset1 \* scale;/a1 = base + (inst->offset1 + 1) * scale;/|DS 2addr offset1 off by one element"
  "min_i32_unsigned|sim/isa/isa_vop.c|s/RL_ISA_U32\(rl_isa_v_min_i32, \(int32_t\)a < \(int32_t\)b \? a : b\)/RL_ISA_U32(rl_isa_v_min_i32, a < b ? a : b)/|v_min_i32 compares unsigned"
  "readfirstlane_lane0|sim/isa/isa_valu.c|s/uint32_t lane = exec \? \(uint32_t\)__builtin_ctz\(exec\) : 0;/uint32_t lane = (uint32_t)(exec \& 0);/|v_readfirstlane_b32 ignores EXEC (always lane 0)"
  "ftz_result_kept|sim/isa/isa_lanes.h|s/v->d\[l\] = rl_isa_flush32\(rl_isa_bits32\(expr\)\);/v->d[l] = rl_isa_bits32(expr);/|FTZ mode does not flush binary32 results"
  "ldexp_exponent_flushed|sim/isa/isa_vop3.c|s/ldexpf\(a, \(int32_t\)B\[l\]\)/ldexpf(a, (int32_t)rl_isa_bits32(b))/|v_ldexp_f32 reads its integer exponent through the FTZ-flushed float view"
  "salu_min_unflushed|sim/isa/isa_salu.c|s/rl_isa_sf_bits\(s, A32\), rl_isa_sf_bits\(s, B32V\)/A32, B32V/|s_min_f32 does not flush denormal inputs under FTZ"
  "f16_min_quiets_snan|sim/isa/isa_valu16.c|s/uint32_t a = rl_isa_f16_image32\(RL_ISA_LO\(v->s\[0\]\[l\]\)\);/uint32_t a = rl_isa_bits32(rl_isa_f16_to_f32(RL_ISA_LO(v->s[0][l])));/|v_min/max_f16 quiet a signalling NaN in source 0 before the IEEE rule"
  "mbcnt_counts_own_lane|sim/isa/isa_vop3.c|s/a \& \(\(1u << l\) - 1u\)/a \& ((2u << l) - 1u)/|v_mbcnt_lo_u32_b32 counts its own lane"
  "atomic_inc_wraps_late|sim/isa/isa_atomic.c|s/case RL_ISA_ATOM_INC: return tmp >= data \? 0/case RL_ISA_ATOM_INC: return tmp > data ? 0/|atomic inc (DS, GLOBAL, FLAT) wraps one step late"
  "omod_ignored|sim/isa/isa_valu.c|s/if \(inst->omod && op->dst == RL_ISA_T_F32\) \{/if (inst->omod \&\& op->dst == RL_ISA_T_F32 \&\& 0) {/|VOP3 omod (x2, x4, /2) ignored"
  "opsel_hi_ignored|sim/isa/isa_valu.c|s/  if \(hi\) \{/  if (hi \&\& 0) {/|VOP3 op_sel of a binary16 source ignored (low half read)"
  "opsel_dst_ignored|sim/isa/isa_valu.c|s/if \(\(inst->opsel & 8\) && op->dst == RL_ISA_T_F16\) \{/if ((inst->opsel \& 8) \&\& op->dst == RL_ISA_T_F16 \&\& 0) {/|VOP3 op_sel of a binary16 result ignored (low half written)"
  "dpp_row_shr_plus1|sim/isa/isa_dpp.c|s/case 0x110: return i - n < 0 \? -1 : i - n;/case 0x110: return i - n + 1 < 0 ? -1 : i - n + 1;/|DPP row_shr shifts one lane too few"
  "dpp_bound_ctrl_ignored|sim/isa/isa_dpp.c|s/if \(masked_in && \(valid .. inst->dpp_bc\)\)/if (masked_in \&\& (valid))/|DPP16 bound_ctrl ignored (invalid sources never write)"
  "dpp_fi_ignored|sim/isa/isa_dpp.c|s/uint32_t fetchable = inst->dpp_fi \? RL_ISA_ALL_LANES : exec;/uint32_t fetchable = exec;/|DPP fetch-inactive (fi) ignored"
  "dpp_bank_mask_ignored|sim/isa/isa_dpp.c|s/\(\(inst->dpp_bank_mask >> \(\(l >> 2\) & 3\)\) & 1\)/1/|DPP16 bank_mask ignored"
  "ftz_input_kept|sim/isa/isa_lanes.h|s/float a = rl_isa_f32\(rl_isa_flush32\(A\[l\]\)\);/float a = rl_isa_f32(A[l]);/|FTZ mode does not flush binary32 source 0 (denorm flush ignored)"
  "denorm_mode_ignored|sim/isa/isa_mode.c|s/\(\(\(reg >> 4\) & 3\) == 0 \? RL_ISA_MODE_FTZ32 : 0\)/(wave->mode \& RL_ISA_MODE_FTZ32)/|s_denorm_mode / s_setreg of FP_DENORM do not change the denormal flush"
  "vopd_x_writes_first|sim/isa/isa_valu.c|s/!rl_isa_is_source_row\(&x, tx\) && !rl_isa_is_source_row\(&y, tx\) &&/!rl_isa_is_source_row(\&x, tx) \&\&/|VOPD: X writes its result before Y reads its sources"
  "frexp_exp_off_by_one|sim/isa/isa_frexp.c|s/  \(void\)frexp\(x, &e\);\n  return e;/  (void)frexp(x, \&e);\n  return e - 1;/|v_frexp_exp_* one too small (mantissa in [1, 2) convention)"
  "trig_preop_no_exponent_shift|sim/isa/isa_frexp.c|s/if \(exponent > 1077\) shift \+= exponent - 1077;/if (exponent > 1077) shift += 0;/|v_trig_preop_f64 ignores the large-exponent window shift"
  "ctz_b64_low_word_only|sim/isa/isa_salu.c|s/s->d = s->a \? \(uint32_t\)__builtin_ctzll\(s->a\) : 0xffffffffu/s->d = (uint32_t)s->a ? (uint32_t)__builtin_ctzll(s->a) : 0xffffffffu/|s_ctz_i32_b64 looks at the low word only (-1 when it is zero)"
  "salu_plain_scc_dropped|sim/isa/isa_salu.c|s/if \(\(FLAGS\) & SCC\) wave->scc = s\.scc & 1;/(void)0;/|the plain SALU runners (rl_isa_salu_plain) do not write SCC"
  "cls_excludes_sign_bit|sim/isa/isa_salu.c|s/s->d = v \? \(uint32_t\)__builtin_clz\(v\) : 0xffffffffu\)/s->d = v ? (uint32_t)__builtin_clz(v) - 1 : 0xffffffffu)/|s_cls_i32 does not count the sign bit"
  "cndmask_mods_on_bit15|sim/isa/isa_valu.c|s/uint32_t sign = type == RL_ISA_T_F16 \? 0x8000u : 0x80000000u;/uint32_t sign = type != RL_ISA_T_F32 \&\& type != RL_ISA_T_F64 ? 0x8000u : 0x80000000u;/|v_cndmask_b32 abs and neg act on bit 15 (not bit 31) of its integer sources"
  "bpermute_reads_inactive|sim/isa/isa_permute.c|s/tmp\[i\] = \(\(exec >> lane\) \& 1\) \? data\[lane\] : 0;/tmp[i] = data[lane];/|ds_bpermute_b32 reads inactive source lanes"
  "swizzle_xor_ignored|sim/isa/isa_permute.c|s/ or_mask\) \^ xor_mask;/ or_mask) ^ (xor_mask \& 0);/|ds_swizzle_b32 bit-mask mode ignores the xor mask"
  "permlanex16_same_row|sim/isa/isa_permlane.c|s/uint32_t row = \(l >> 4\) \^ \(arg & RL_ISA_PERMLANE_X\);/uint32_t row = l >> 4;/|v_permlanex16 reads its own row (not the other)"
  "permlane_bound_ctrl_ignored|sim/isa/isa_permlane.c|s/out\[l\] = bound_ctrl \? 0 : dst\[l\];/out[l] = (bound_ctrl \& 0) ? 0 : dst[l];/|v_permlane16/x16 bound_ctrl ignored (an inactive source keeps the old value)"
  "dpp_row_share_is_xmask|sim/isa/isa_dpp.c|s/case 0x150: return n;  /case 0x150: return i ^ n;/|DPP row_share:n reads lane i ^ n (row_xmask) instead of lane n"
  "vopc_dpp_enable_ignored|sim/isa/isa_valu.c|s/  v.exec &= enable;\n  \(\(rl_isa_lanes_fn\)inst->op->lanes\)\(&v\);/  (void)enable;\n  ((rl_isa_lanes_fn)inst->op->lanes)(\&v);/|DPP on a compare ignores the lanes DPP disables (masked rows/banks, invalid sources)"
  "d16_hi_into_low|sim/isa/isa_mem.c|s/\(\(value \& 0xffffu\) << shift\);/((value \& 0xffffu) << 0);/|d16_hi loads write the low half of the VGPR"
  "scratch_sve_ignored|sim/isa/isa_scratch.c|s/\(inst->sve \? wave->vgpr\[inst->addr\]\[lane\] : 0u\)/(0 ? wave->vgpr[inst->addr][lane] : 0u)/|SCRATCH ignores its VGPR address (SVE)"
  "scratch_d16_hi_as_lo|sim/isa/isa_scratch.c|s/\(arg & RL_ISA_MEM_D16_HI\) \? 16u : 0u/0u/|scratch d16_hi loads and stores use the low half"
  "private_aperture_off4|sim/isa/isa_mem.c|s/wave, inst, lane, a - RL_SIM_APERTURE_PRIVATE_BASE\)\);/wave, inst, lane, a - RL_SIM_APERTURE_PRIVATE_BASE + 4));/|FLAT into the private aperture lands 4 bytes off"
  "swappc_returns_to_call|sim/isa/isa_call.c|s/wave->group->entry_address \+ inst->pc \+ inst->size\);/wave->group->entry_address + inst->pc);/|s_swappc_b64 saves its own address (the callee returns to the call)"
  "ds_bound_off_by_one|sim/isa/isa_mem.c|s/  if \(any \+ reach <= limit\) return true;/  if (any + reach <= limit + 1) return true;/|DS whole-wave bounds check lets an element end one byte past the segment"
  "ds_b64_rows_swapped|sim/isa/isa_mem.c|s/_mm_storeu_si128\(\(__m128i\*\)&rows\[1\]\[l\], _mm_unpackhi_epi64\(ab_lo, cd_lo\)\);/_mm_storeu_si128((__m128i*)\&rows[1][l], _mm_unpacklo_epi64(ab_lo, cd_lo));/|64- and 128-bit DS and global loads (all lanes) write dword 0 into the second row"
  "ds_stores_lanes_reversed|sim/isa/isa_mem.c|s/    for \(uint32_t l = 0; l < RL_ISA_LANES; \+\+l\) \{\n      rl_isa_ds_lane\(m, l, form, size, sign\);/    for (uint32_t l = RL_ISA_LANES; l-- > 0;) {\n      rl_isa_ds_lane(m, l, form, size, sign);/|DS whole-wave stores (all lanes) in reverse lane order: the lowest lane wins a shared address"
)

TESTS=(isa_conformance_test isa_executor_test isa_decode_test isa_ds_wave_test
       isa_salu_plain_test)

SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/rl-mutate.XXXXXX")"
cleanup() {
  if [[ $KEEP -eq 1 ]]; then echo "scratch kept: $SCRATCH" >&2; else rm -rf "$SCRATCH"; fi
}
trap cleanup EXIT

echo "copying the source tree to $SCRATCH/src" >&2
mkdir -p "$SCRATCH/src"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
   grep -zv '^build' | xargs -0 cp --parents -t "$SCRATCH/src")
echo "building the ISA tests (once)" >&2
cmake -S "$SCRATCH/src" -B "$SCRATCH/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$SCRATCH/build" -j"$JOBS" --target "${TESTS[@]}" >"$SCRATCH/build.log" 2>&1 ||
  { tail -30 "$SCRATCH/build.log" >&2; echo "baseline build failed" >&2; exit 1; }
find_test() { find "$SCRATCH/build" -name "$1" -type f -perm -u+x | head -1; }
run_tests() {  # prints the tests that fail
  local caught=()
  for t in "${TESTS[@]}"; do
    local bin; bin="$(find_test "$t")"
    if ! (cd "$(dirname "$bin")" && timeout 300 "$bin" >"$SCRATCH/$t.log" 2>&1); then
      caught+=("$t")
    fi
  done
  echo "${caught[*]:-}"
}
baseline="$(run_tests)"
if [[ -n "$baseline" ]]; then
  echo "baseline already fails: $baseline" >&2
  exit 1
fi

echo "| mutation | file | what it breaks | caught by |"
echo "|---|---|---|---|"
status=0
for entry in "${MUTATIONS[@]}"; do
  IFS='|' read -r id file expr what <<<"$entry"
  if [[ -n "$ONLY" && ",$ONLY," != *",$id,"* ]]; then continue; fi
  path="$SCRATCH/src/$file"
  cp "$path" "$SCRATCH/original"
  perl -0pi -e "$expr" "$path"
  if cmp -s "$path" "$SCRATCH/original"; then
    echo "MUTATION $id NO LONGER APPLIES to $file: update tools/mutate.sh" >&2
    status=1
    echo "| $id | $file | $what | **does not apply** |"
    continue
  fi
  if ! cmake --build "$SCRATCH/build" -j"$JOBS" --target "${TESTS[@]}" \
       >"$SCRATCH/$id.build.log" 2>&1; then
    # A mutation that does not compile proves nothing: rewrite it.
    echo "MUTATION $id DOES NOT BUILD: update tools/mutate.sh" >&2
    tail -5 "$SCRATCH/$id.build.log" >&2
    caught="**does not build**"
    status=1
  else
    caught="$(run_tests)"
  fi
  cp "$SCRATCH/original" "$path"
  touch "$path"
  if [[ -z "$caught" ]]; then
    caught="**SURVIVED**"
    status=1
  fi
  echo "| $id | $file | $what | $caught |"
done
exit $status
