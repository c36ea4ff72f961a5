// sim/oracle/oracle_model_scalar.c — the host model (oracle_model.h): the
// scalar (SALU) operations and their table rows.
// Semantics follow the RDNA3 ISA guide's opcode pseudo-code; nothing here
// includes sim/isa/. Built with -ffp-contract=off: every float operation
// must round where the instruction rounds.
#include <math.h>
#include <string.h>

#include "sim/oracle/oracle_model_ops.h"

static uint32_t rl_hm_nz(uint64_t v) { return v != 0; }
FN(hs_add_u32) { UNUSED; uint64_t r = (uint64_t)A + B; x->d = (uint32_t)r; x->cout = r >> 32 != 0; }
FN(hs_sub_u32) { UNUSED; x->d = A - B; x->cout = B > A; }
// Signed overflow: the exact sum does not fit 32 bits.
FN(hs_add_i32) {
  UNUSED;
  int64_t r = rl_hm_s32(A) + rl_hm_s32(B);
  x->d = (uint32_t)r;
  x->cout = r != (int32_t)r;
}
FN(hs_sub_i32) {
  UNUSED;
  int64_t r = rl_hm_s32(A) - rl_hm_s32(B);
  x->d = (uint32_t)r;
  x->cout = r != (int32_t)r;
}
FN(hs_addc_u32) {
  UNUSED;
  uint64_t r = (uint64_t)A + B + x->cin;
  x->d = (uint32_t)r;
  x->cout = r > 0xffffffffull;
}
FN(hs_subb_u32) {
  UNUSED;
  x->d = (uint32_t)((uint64_t)A - B - x->cin);
  x->cout = (uint64_t)B + x->cin > A;
}
FN(hs_absdiff) {
  UNUSED;
  int64_t r = rl_hm_s32(A) - rl_hm_s32(B);
  x->d = (uint32_t)(r < 0 ? -r : r);
  x->cout = rl_hm_nz((uint32_t)x->d);
}
FN(hs_lshl32) { UNUSED; x->d = (uint32_t)((uint64_t)A << (B & 31)); x->cout = rl_hm_nz(x->d); }
FN(hs_lshr32) { UNUSED; x->d = A >> (B & 31); x->cout = rl_hm_nz(x->d); }
FN(hs_ashr32) { UNUSED; x->d = (uint32_t)(rl_hm_s32(A) >> (B & 31)); x->cout = rl_hm_nz(x->d); }
FN(hs_lshl64) { UNUSED; x->d = x->s[0] << (B & 63); x->cout = rl_hm_nz(x->d); }
FN(hs_lshr64) { UNUSED; x->d = x->s[0] >> (B & 63); x->cout = rl_hm_nz(x->d); }
FN(hs_ashr64) { UNUSED; x->d = (uint64_t)((int64_t)x->s[0] >> (B & 63)); x->cout = rl_hm_nz(x->d); }
// s_lshlN_add_u32: SCC is the carry out of the 64-bit (S0 << N) + S1.
FN(hs_lshl_add) {
  (void)mode;
  uint64_t r = ((uint64_t)A << op->arg) + B;
  x->d = (uint32_t)r;
  x->cout = r >= (1ull << 32);
}
FN(hs_min_i32) { UNUSED; x->cout = rl_hm_s32(A) < rl_hm_s32(B); x->d = x->cout ? A : B; }
FN(hs_max_i32) { UNUSED; x->cout = rl_hm_s32(A) > rl_hm_s32(B); x->d = x->cout ? A : B; }
FN(hs_min_u32) { UNUSED; x->cout = A < B; x->d = x->cout ? A : B; }
FN(hs_max_u32) { UNUSED; x->cout = A > B; x->d = x->cout ? A : B; }
// Bitwise ops: |wide| picks 64 bits; SCC = result != 0.
static uint64_t rl_hm_width(const rl_hm_op_t* op, uint64_t v) {
  return (op->wide & (1u << RL_HM_DST_BIT)) ? v : (uint32_t)v;
}
#define HS_BIT(name, expr)                                   \
  FN(name) {                                                 \
    (void)mode;                                              \
    uint64_t a = x->s[0], b = x->s[1];                       \
    (void)b;                                                 \
    x->d = rl_hm_width(op, (expr));                          \
    x->cout = rl_hm_nz(x->d);                                \
  }
HS_BIT(hs_and, a & b)
HS_BIT(hs_or, a | b)
HS_BIT(hs_xor, a ^ b)
HS_BIT(hs_nand, ~(a & b))
HS_BIT(hs_nor, ~(a | b))
HS_BIT(hs_xnor, ~(a ^ b))
HS_BIT(hs_and_not1, a & ~b)
HS_BIT(hs_or_not1, a | ~b)
HS_BIT(hs_not, ~a)
// s_bfe_*: offset S1[4:0] (S1[5:0] for 64 bits), width S1[22:16].
FN(hs_bfe_u32) {
  UNUSED;
  uint32_t width = (B >> 16) & 0x7f;
  x->d = rl_hm_field(A, B & 31, width > 32 ? 32 : width);
  x->cout = rl_hm_nz(x->d);
}
FN(hs_bfe_i32) {
  UNUSED;
  uint32_t width = (B >> 16) & 0x7f;
  x->d = width ? (uint32_t)rl_hm_sext(rl_hm_field(A, B & 31, width), width) : 0;
  x->cout = rl_hm_nz(x->d);
}
FN(hs_bfe_u64) {
  UNUSED;
  uint32_t width = (B >> 16) & 0x7f;
  uint64_t v = x->s[0] >> (B & 63);
  x->d = width >= 64 ? v : v & ((1ull << width) - 1);
  x->cout = rl_hm_nz(x->d);
}
FN(hs_bfm) { UNUSED; x->d = (uint32_t)(((1ull << (A & 31)) - 1) << (B & 31)); }
FN(hs_cselect) { UNUSED; x->d = x->cin ? x->s[0] : x->s[1]; }
FN(hs_cmov) { UNUSED; if (x->cin) x->d = x->s[0]; }
FN(hs_bitset1) { UNUSED; x->d = (uint32_t)x->d | 1u << (A & 31); }
FN(hs_pack_ll) { UNUSED; x->d = (A & 0xffffu) | (B & 0xffffu) << 16; }
FN(hs_pack_lh) { UNUSED; x->d = (A & 0xffffu) | (B & 0xffff0000u); }
FN(hs_pack_hh) { UNUSED; x->d = (A >> 16) | (B & 0xffff0000u); }
FN(hs_mov) { UNUSED; x->d = x->s[0]; }
FN(hs_abs) {
  UNUSED;
  x->d = rl_hm_s32(A) < 0 ? (uint32_t)(0u - A) : A;
  x->cout = rl_hm_nz(x->d);
}
FN(hs_sext8) { UNUSED; x->d = (uint32_t)rl_hm_sext(A, 8); }
FN(hs_sext16) { UNUSED; x->d = (uint32_t)rl_hm_sext(A, 16); }
FN(hs_bcnt1) {
  UNUSED;
  uint32_t n = 0;
  for (uint32_t v = A; v; v &= v - 1) ++n;
  x->d = n;
  x->cout = n != 0;
}
// SOPK: source 0 is the destination's old value, source 1 the immediate.
FN(hs_movk) { UNUSED; x->d = (uint32_t)rl_hm_sext(B, 16); }
FN(hs_cmovk) { UNUSED; if (x->cin) x->d = (uint32_t)rl_hm_sext(B, 16); }
FN(hs_addk) {
  UNUSED;
  int64_t r = rl_hm_s32(A) + rl_hm_sext(B, 16);
  x->d = (uint32_t)r;
  x->cout = r != (int32_t)r;
}
FN(hs_mulk) { UNUSED; x->d = (uint32_t)(rl_hm_s32(A) * rl_hm_sext(B, 16)); }
FN(hs_nop) { UNUSED; (void)x; }
FN(hs_bitcmp) { (void)mode; x->cout = ((A >> (B & 31)) & 1) == op->arg; }
// SALU float (gfx1150+): the VALU's binary32 model.
FN(hs_fmac) { UNUSED; x->d = rl_hm_out(mode, fmaf(FA, FB, rl_hm_in(mode, x->d))); }
FN(hs_cvt_i32_f32) { UNUSED; x->d = rl_hm_to_i32(FA); }
FN(hs_cvt_u32_f32) { UNUSED; x->d = rl_hm_to_u32(FA); }
FN(hs_cvt_f32_i32) { UNUSED; x->d = rl_hm_out(mode, (float)(int32_t)A); }
FN(hs_cvt_f32_u32) { UNUSED; x->d = rl_hm_out(mode, (float)A); }

static const rl_hm_op_t rl_hm_scalar_ops[] = {
    // SOP2.
    S("s_add_u32", 2, 0, SCCO, hs_add_u32),
    S("s_sub_u32", 2, 0, SCCO, hs_sub_u32),
    S("s_add_i32", 2, 0, SCCO, hs_add_i32),
    S("s_sub_i32", 2, 0, SCCO, hs_sub_i32),
    S("s_addc_u32", 2, 0, SCCO | SCCI, hs_addc_u32),
    S("s_subb_u32", 2, 0, SCCO | SCCI, hs_subb_u32),
    S("s_absdiff_i32", 2, 0, SCCO, hs_absdiff),
    S("s_lshl_b32", 2, 0, SCCO, hs_lshl32),
    S("s_lshl_b64", 2, W0 | WD, SCCO, hs_lshl64),
    S("s_lshr_b32", 2, 0, SCCO, hs_lshr32),
    S("s_lshr_b64", 2, W0 | WD, SCCO, hs_lshr64),
    S("s_ashr_i32", 2, 0, SCCO, hs_ashr32),
    S("s_ashr_i64", 2, W0 | WD, SCCO, hs_ashr64),
    {"s_lshl1_add_u32", 2, 0, 0, RL_HM_SALU | SCCO, hs_lshl_add, 1},
    {"s_lshl2_add_u32", 2, 0, 0, RL_HM_SALU | SCCO, hs_lshl_add, 2},
    {"s_lshl3_add_u32", 2, 0, 0, RL_HM_SALU | SCCO, hs_lshl_add, 3},
    {"s_lshl4_add_u32", 2, 0, 0, RL_HM_SALU | SCCO, hs_lshl_add, 4},
    S("s_min_i32", 2, 0, SCCO, hs_min_i32),
    S("s_min_u32", 2, 0, SCCO, hs_min_u32),
    S("s_max_i32", 2, 0, SCCO, hs_max_i32),
    S("s_max_u32", 2, 0, SCCO, hs_max_u32),
    S("s_and_b32", 2, 0, SCCO, hs_and),
    S("s_and_b64", 2, W0 | W1 | WD, SCCO, hs_and),
    S("s_or_b32", 2, 0, SCCO, hs_or),
    S("s_or_b64", 2, W0 | W1 | WD, SCCO, hs_or),
    S("s_xor_b32", 2, 0, SCCO, hs_xor),
    S("s_xor_b64", 2, W0 | W1 | WD, SCCO, hs_xor),
    S("s_nand_b32", 2, 0, SCCO, hs_nand),
    S("s_nor_b32", 2, 0, SCCO, hs_nor),
    S("s_xnor_b32", 2, 0, SCCO, hs_xnor),
    S("s_and_not1_b32", 2, 0, SCCO, hs_and_not1),
    S("s_and_not1_b64", 2, W0 | W1 | WD, SCCO, hs_and_not1),
    S("s_or_not1_b32", 2, 0, SCCO, hs_or_not1),
    S("s_or_not1_b64", 2, W0 | W1 | WD, SCCO, hs_or_not1),
    S("s_bfe_u32", 2, 0, SCCO, hs_bfe_u32),
    S("s_bfe_i32", 2, 0, SCCO, hs_bfe_i32),
    S("s_bfe_u64", 2, W0 | WD, SCCO, hs_bfe_u64),
    S("s_bfm_b32", 2, 0, 0, hs_bfm),
    S("s_cselect_b32", 2, 0, SCCI, hs_cselect),
    S("s_cselect_b64", 2, W0 | W1 | WD, SCCI, hs_cselect),
    S("s_pack_ll_b32_b16", 2, 0, 0, hs_pack_ll),
    S("s_pack_lh_b32_b16", 2, 0, 0, hs_pack_lh),
    S("s_pack_hh_b32_b16", 2, 0, 0, hs_pack_hh),
    SF("s_fmac_f32", 2, F0 | F1, NANY | RL_HM_ACC, hs_fmac),
    // SOP1.
    S("s_mov_b32", 1, 0, 0, hs_mov),
    S("s_mov_b64", 1, W0 | WD, 0, hs_mov),
    S("s_cmov_b32", 1, 0, SCCI, hs_cmov),
    S("s_bitset1_b32", 1, 0, 0, hs_bitset1),
    S("s_cmov_b64", 1, W0 | WD, SCCI, hs_cmov),
    S("s_sext_i32_i8", 1, 0, 0, hs_sext8),
    S("s_sext_i32_i16", 1, 0, 0, hs_sext16),
    S("s_abs_i32", 1, 0, SCCO, hs_abs),
    S("s_bcnt1_i32_b32", 1, 0, SCCO, hs_bcnt1),
    S("s_not_b32", 1, 0, SCCO, hs_not),
    S("s_not_b64", 1, W0 | WD, SCCO, hs_not),
    SF("s_cvt_f32_i32", 1, 0, 0, hs_cvt_f32_i32),
    SF("s_cvt_f32_u32", 1, 0, 0, hs_cvt_f32_u32),
    SF("s_cvt_i32_f32", 1, F0, 0, hs_cvt_i32_f32),
    SF("s_cvt_u32_f32", 1, F0, 0, hs_cvt_u32_f32),
    // SOPK.
    S("s_movk_i32", 2, 0, RL_HM_SOPK, hs_movk),
    S("s_version", 0, 0, RL_HM_SOPK | RL_HM_NO_DST, hs_nop),
    S("s_cmovk_i32", 2, 0, RL_HM_SOPK | SCCI, hs_cmovk),
    S("s_addk_i32", 2, 0, RL_HM_SOPK | SCCO, hs_addk),
    S("s_mulk_i32", 2, 0, RL_HM_SOPK, hs_mulk),
    S("s_waitcnt_vscnt", 0, 0, RL_HM_SOPK | RL_HM_NO_DST, hs_nop),
    S("s_waitcnt_vmcnt", 0, 0, RL_HM_SOPK | RL_HM_NO_DST, hs_nop),
    S("s_waitcnt_expcnt", 0, 0, RL_HM_SOPK | RL_HM_NO_DST, hs_nop),
    S("s_waitcnt_lgkmcnt", 0, 0, RL_HM_SOPK | RL_HM_NO_DST, hs_nop),
    // SOPC (the s_cmp_* family is parsed below).
    {"s_bitcmp0_b32", 2, 0, 0, RL_HM_SALU | SCCO | RL_HM_NO_DST | RL_HM_CMP, hs_bitcmp, 0},
    {"s_bitcmp1_b32", 2, 0, 0, RL_HM_SALU | SCCO | RL_HM_NO_DST | RL_HM_CMP, hs_bitcmp, 1},
};
const rl_hm_table_t rl_hm_ops_scalar = {
    rl_hm_scalar_ops, sizeof(rl_hm_scalar_ops) / sizeof(rl_hm_scalar_ops[0])};
