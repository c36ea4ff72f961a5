// sim/oracle/oracle_model_vint.c — the host model (oracle_model.h): the
// vector integer operations (32-, 64- and 16-bit) and their table rows.
// Semantics follow the RDNA3 ISA guide's opcode pseudo-code; nothing here
// includes sim/isa/. Built with -ffp-contract=off: every float operation
// must round where the instruction rounds.
#include <math.h>
#include <string.h>

#include "sim/oracle/oracle_model_ops.h"

FN(hm_cndmask) { UNUSED; x->d = x->cin ? B : A; }
FN(hm_mul_i24) { UNUSED; x->d = (uint32_t)(rl_hm_sext(A, 24) * rl_hm_sext(B, 24)); }
FN(hm_mul_hi_i24) {
  UNUSED;
  x->d = (uint32_t)((uint64_t)(rl_hm_sext(A, 24) * rl_hm_sext(B, 24)) >> 32);
}
FN(hm_mul_u24) { UNUSED; x->d = (uint32_t)((uint64_t)(A & 0xffffff) * (B & 0xffffff)); }
FN(hm_mul_hi_u24) {
  UNUSED;
  x->d = (uint32_t)(((uint64_t)(A & 0xffffff) * (B & 0xffffff)) >> 32);
}
FN(hm_min_i32) { UNUSED; x->d = (int32_t)A <= (int32_t)B ? A : B; }
FN(hm_max_i32) { UNUSED; x->d = (int32_t)A >= (int32_t)B ? A : B; }
FN(hm_min_u32) { UNUSED; x->d = A <= B ? A : B; }
FN(hm_max_u32) { UNUSED; x->d = A >= B ? A : B; }
// "rev" shifts: S1 is shifted by S0[4:0].
FN(hm_lshlrev) { UNUSED; x->d = (uint32_t)((uint64_t)B << (A % 32)); }
FN(hm_lshrrev) { UNUSED; x->d = B >> (A % 32); }
FN(hm_ashrrev) { UNUSED; x->d = (uint32_t)(rl_hm_sext(B, 32) >> (A % 32)); }
FN(hm_and) { UNUSED; x->d = A & B; }
FN(hm_or) { UNUSED; x->d = A | B; }
FN(hm_xor) { UNUSED; x->d = A ^ B; }
FN(hm_xnor) { UNUSED; x->d = (uint32_t)~(A ^ B); }
// With CLAMP (RL_HM_ICLAMP) the unsigned result saturates to [0, 2^32-1].
static uint32_t rl_hm_usat(const rl_hm_lane_t* x, int64_t r) {
  if (x->clamp && r < 0) return 0;
  if (x->clamp && r > 0xffffffffll) return 0xffffffffu;
  return (uint32_t)r;
}
FN(hm_add_nc) { UNUSED; x->d = rl_hm_usat(x, (int64_t)A + B); }
FN(hm_sub_nc) { UNUSED; x->d = rl_hm_usat(x, (int64_t)A - B); }
FN(hm_subrev_nc) { UNUSED; x->d = rl_hm_usat(x, (int64_t)B - A); }
// Carry ops: VCC/SDST gets the unsigned carry (add) or borrow (sub).
FN(hm_add_co_ci) {
  UNUSED;
  uint64_t sum = (uint64_t)A + B + (x->cin & 1);
  x->d = (uint32_t)sum;
  x->cout = sum > 0xffffffffull;
}
FN(hm_sub_co_ci) {
  UNUSED;
  x->d = (uint32_t)((uint64_t)A - B - (x->cin & 1));
  x->cout = (uint64_t)B + (x->cin & 1) > A;
}
FN(hm_subrev_co_ci) {
  UNUSED;
  x->d = (uint32_t)((uint64_t)B - A - (x->cin & 1));
  x->cout = (uint64_t)A + (x->cin & 1) > B;
}
FN(hm_add_co) { UNUSED; x->d = A + B; x->cout = (uint64_t)A + B > 0xffffffffull; }
FN(hm_sub_co) { UNUSED; x->d = A - B; x->cout = B > A; }
FN(hm_subrev_co) { UNUSED; x->d = B - A; x->cout = A > B; }
FN(hm_mov) { UNUSED; x->d = A; }
FN(hm_not) { UNUSED; x->d = ~A; }
FN(hm_bfrev) {
  UNUSED;
  uint32_t r = 0;
  for (uint32_t i = 0; i < 32; ++i) r |= ((A >> i) & 1u) << (31 - i);
  x->d = r;
}
// v_clz_i32_u32 / v_ctz_i32_b32: -1 when no bit is set.
FN(hm_clz) {
  UNUSED;
  uint32_t n = 0;
  while (n < 32 && !((A >> (31 - n)) & 1)) ++n;
  x->d = n == 32 ? 0xffffffffu : n;
}
FN(hm_ctz) {
  UNUSED;
  uint32_t n = 0;
  while (n < 32 && !((A >> n) & 1)) ++n;
  x->d = n == 32 ? 0xffffffffu : n;
}
// The 64-bit scalar forms: S_CTZ_I32_B64 / S_CLZ_I32_U64 scan 64 bits.
FN(hs_ctz64) {
  UNUSED;
  uint32_t n = 0;
  while (n < 64 && !((x->s[0] >> n) & 1)) ++n;
  x->d = n == 64 ? 0xffffffffu : n;
}
FN(hs_clz64) {
  UNUSED;
  uint32_t n = 0;
  while (n < 64 && !((x->s[0] >> (63 - n)) & 1)) ++n;
  x->d = n == 64 ? 0xffffffffu : n;
}
// S_CLS_I32(_I64) pseudo-code: D = -1; for i in 1..bits-1, from the MSB:
// the first bit S0[bits-1-i] that differs from the sign bit gives D = i.
static uint32_t rl_hm_cls(uint64_t v, uint32_t bits) {
  uint64_t sign = (v >> (bits - 1)) & 1;
  for (uint32_t i = 1; i < bits; ++i) {
    if (((v >> (bits - 1 - i)) & 1) != sign) return i;
  }
  return 0xffffffffu;
}
FN(hs_cls32) { UNUSED; x->d = rl_hm_cls(A, 32); }
FN(hs_cls64) { UNUSED; x->d = rl_hm_cls(x->s[0], 64); }
FN(hm_bcnt) {
  UNUSED;
  uint32_t n = 0;
  for (uint32_t i = 0; i < 32; ++i) n += (A >> i) & 1;
  x->d = n + B;
}
FN(hm_bfe_u32) { UNUSED; x->d = rl_hm_field(A, B & 31, C & 31); }
FN(hm_bfe_i32) {
  UNUSED;
  uint32_t width = C & 31;
  x->d = width ? (uint32_t)rl_hm_sext(rl_hm_field(A, B & 31, width), width) : 0;
}
FN(hm_bfi) { UNUSED; x->d = (A & B) | (~A & C); }
FN(hm_alignbit) {
  UNUSED;
  x->d = (uint32_t)((((uint64_t)A << 32) | B) >> (C & 31));
}
FN(hm_mad_i24) {
  UNUSED;
  x->d = (uint32_t)(rl_hm_sext(A, 24) * rl_hm_sext(B, 24) + (int64_t)(int32_t)C);
}
FN(hm_mad_u24) {
  UNUSED;
  x->d = (uint32_t)((uint64_t)(A & 0xffffff) * (B & 0xffffff) + C);
}
FN(hm_min3_i32) {
  UNUSED;
  int64_t m = rl_hm_s32(A);
  if (rl_hm_s32(B) < m) m = rl_hm_s32(B);
  if (rl_hm_s32(C) < m) m = rl_hm_s32(C);
  x->d = (uint32_t)m;
}
FN(hm_max3_i32) {
  UNUSED;
  int64_t m = rl_hm_s32(A);
  if (rl_hm_s32(B) > m) m = rl_hm_s32(B);
  if (rl_hm_s32(C) > m) m = rl_hm_s32(C);
  x->d = (uint32_t)m;
}
// v_maxmin: min(max(A, B), C); v_minmax: max(min(A, B), C), in 64 bits.
FN(hm_maxmin_i32) {
  UNUSED;
  int64_t m = rl_hm_s32(A) > rl_hm_s32(B) ? rl_hm_s32(A) : rl_hm_s32(B);
  x->d = (uint32_t)(m < rl_hm_s32(C) ? m : rl_hm_s32(C));
}
FN(hm_minmax_i32) {
  UNUSED;
  int64_t m = rl_hm_s32(A) < rl_hm_s32(B) ? rl_hm_s32(A) : rl_hm_s32(B);
  x->d = (uint32_t)(m > rl_hm_s32(C) ? m : rl_hm_s32(C));
}
FN(hm_maxmin_u32) {
  UNUSED;
  uint64_t m = A > B ? A : B;
  x->d = (uint32_t)(m < C ? m : C);
}
FN(hm_minmax_u32) {
  UNUSED;
  uint64_t m = A < B ? A : B;
  x->d = (uint32_t)(m > C ? m : C);
}
FN(hm_min3_u32) {
  UNUSED;
  uint32_t m = A;
  if (B < m) m = B;
  if (C < m) m = C;
  x->d = m;
}
FN(hm_max3_u32) {
  UNUSED;
  uint32_t m = A;
  if (B > m) m = B;
  if (C > m) m = C;
  x->d = m;
}
// Median of three: the sum minus the minimum and the maximum.
FN(hm_med3_i32) {
  UNUSED;
  int64_t a = rl_hm_s32(A), b = rl_hm_s32(B), c = rl_hm_s32(C);
  int64_t lo = a < b ? (a < c ? a : c) : (b < c ? b : c);
  int64_t hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
  x->d = (uint32_t)(a + b + c - lo - hi);
}
FN(hm_med3_u32) {
  UNUSED;
  uint64_t a = A, b = B, c = C;
  uint64_t lo = a < b ? (a < c ? a : c) : (b < c ? b : c);
  uint64_t hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
  x->d = (uint32_t)(a + b + c - lo - hi);
}
FN(hm_xor3) { UNUSED; x->d = A ^ B ^ C; }
FN(hm_xad) { UNUSED; x->d = (A ^ B) + C; }
FN(hm_lshl_add) { UNUSED; x->d = (uint32_t)(((uint64_t)A << (B & 31)) + C); }
FN(hm_add_lshl) { UNUSED; x->d = (uint32_t)((uint64_t)(A + B) << (C & 31)); }
FN(hm_add3) { UNUSED; x->d = (uint32_t)((uint64_t)A + B + C); }
FN(hm_lshl_or) { UNUSED; x->d = (uint32_t)((uint64_t)A << (B & 31)) | C; }
FN(hm_and_or) { UNUSED; x->d = (A & B) | C; }
FN(hm_or3) { UNUSED; x->d = A | B | C; }
FN(hm_mul_lo) { UNUSED; x->d = (uint32_t)((uint64_t)A * B); }
FN(hm_mul_hi_u) { UNUSED; x->d = (uint32_t)(((uint64_t)A * B) >> 32); }
FN(hm_mul_hi_i) { UNUSED; x->d = (uint32_t)((uint64_t)(rl_hm_s32(A) * rl_hm_s32(B)) >> 32); }
// v_mad_u64_u32: D = S0 * S1 + S2 (64-bit), SDST = unsigned carry out;
// v_mad_i64_i32: signed, SDST = signed overflow of the addition.
FN(hm_mad_u64_u32) {
  UNUSED;
  unsigned __int128 r = (unsigned __int128)((uint64_t)A * B) + x->s[2];
  x->d = (uint64_t)r;
  x->cout = (uint32_t)(r >> 64) & 1;
}
FN(hm_mad_i64_i32) {
  UNUSED;
  __int128 p = (__int128)rl_hm_s32(A) * rl_hm_s32(B);
  __int128 r = p + (__int128)(int64_t)x->s[2];
  x->d = (uint64_t)r;
  x->cout = r > INT64_MAX || r < INT64_MIN;
}
FN(hm_lshlrev64) { UNUSED; x->d = x->s[1] << (A & 63); }
FN(hm_lshrrev64) { UNUSED; x->d = x->s[1] >> (A & 63); }
FN(hm_ashrrev64) { UNUSED; x->d = (uint64_t)((int64_t)x->s[1] >> (A & 63)); }

// v_perm_b32 (RDNA3 ISA guide, V_PERM_B32): byte i of D is chosen by byte i
// of S2 from the eight bytes of {S0, S1}, S1 being bytes 0-3.
static uint32_t rl_hm_perm_sel(uint32_t s0, uint32_t s1, uint32_t sel) {
  uint8_t bytes[8];
  for (uint32_t i = 0; i < 4; ++i) {
    bytes[i] = (uint8_t)(s1 >> (8 * i));
    bytes[4 + i] = (uint8_t)(s0 >> (8 * i));
  }
  if (sel <= 7) return bytes[sel];
  if (sel == 8) return (bytes[1] & 0x80) ? 0xff : 0x00;
  if (sel == 9) return (bytes[3] & 0x80) ? 0xff : 0x00;
  if (sel == 10) return (bytes[5] & 0x80) ? 0xff : 0x00;
  if (sel == 11) return (bytes[7] & 0x80) ? 0xff : 0x00;
  if (sel == 12) return 0x00;
  return 0xff;
}
FN(hm_perm) {
  UNUSED;
  uint32_t r = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    r |= rl_hm_perm_sel(A, B, (C >> (8 * i)) & 0xff) << (8 * i);
  }
  x->d = r;
}
// v_mbcnt_lo_u32_b32: S1 + the set bits of S0 at lanes below this one;
// v_mbcnt_hi_u32_b32 counts lanes 32..63 below this one, none in wave32.
FN(hm_mbcnt_lo) {
  UNUSED;
  uint32_t n = 0;
  for (uint32_t i = 0; i < x->lane; ++i) n += (A >> i) & 1;
  x->d = (uint32_t)(n + B);
}
FN(hm_mbcnt_hi) { UNUSED; x->d = B; }
// With CLAMP the signed result saturates to [INT32_MIN, INT32_MAX].
static uint32_t rl_hm_ssat(const rl_hm_lane_t* x, int64_t r) {
  if (x->clamp && r < INT32_MIN) return 0x80000000u;
  if (x->clamp && r > INT32_MAX) return 0x7fffffffu;
  return (uint32_t)r;
}
FN(hm_add_nc_i32) { UNUSED; x->d = rl_hm_ssat(x, rl_hm_s32(A) + rl_hm_s32(B)); }
FN(hm_sub_nc_i32) { UNUSED; x->d = rl_hm_ssat(x, rl_hm_s32(A) - rl_hm_s32(B)); }

#define H16(name, expr)                                              \
  FN(name) {                                                         \
    UNUSED;                                                          \
    uint32_t a = LO16(A), b = LO16(B), c = LO16(C);                  \
    (void)a, (void)b, (void)c;                                       \
    x->d = rl_hm_keep_hi(x, (uint32_t)(expr));                       \
  }
H16(hm_add_u16, a + b)
H16(hm_sub_u16, a - b)
H16(hm_mul_lo_u16, a * b)
H16(hm_mad_u16, a * b + c)
H16(hm_max_u16, a >= b ? a : b)
H16(hm_min_u16, a <= b ? a : b)
H16(hm_max_i16, SX16(a) >= SX16(b) ? a : b)
H16(hm_min_i16, SX16(a) <= SX16(b) ? a : b)
H16(hm_lshlrev_b16, b << (a % 16))
H16(hm_lshrrev_b16, b >> (a % 16))
H16(hm_ashrrev_i16, (uint32_t)(SX16(b) >> (a % 16)))
H16(hm_and_b16, a & b)
H16(hm_or_b16, a | b)
H16(hm_xor_b16, a ^ b)
H16(hm_not_b16, ~a)
FN(hm_cvt_i32_i16) { UNUSED; x->d = (uint32_t)SX16(A); }
FN(hm_cvt_u32_u16) { UNUSED; x->d = LO16(A); }
FN(hm_mad_u32_u16) { UNUSED; x->d = (uint32_t)((uint64_t)LO16(A) * LO16(B) + C); }
FN(hm_mad_i32_i16) {
  UNUSED;
  x->d = (uint32_t)((int64_t)SX16(A) * SX16(B) + rl_hm_s32(C));
}
FN(hm_pack_b32_f16) { UNUSED; x->d = LO16(A) | LO16(B) << 16; }

static const rl_hm_op_t rl_hm_vint_ops[] = {
    // VOP2.
    // Its VOP3 ABS/NEG act on bit 31 of the two data sources (RDNA3 ISA
    // guide, VOP3 input modifiers; LLVM gives the opcode float input
    // modifiers), which the float shape expresses; no flushing (hm_cndmask
    // selects raw bits).
    V("v_cndmask_b32", 2, 0, F0 | F1, RL_HM_CIN, hm_cndmask),
    V("v_mul_i32_i24", 2, 0, 0, 0, hm_mul_i24),
    V("v_mul_hi_i32_i24", 2, 0, 0, 0, hm_mul_hi_i24),
    V("v_mul_u32_u24", 2, 0, 0, 0, hm_mul_u24),
    V("v_mul_hi_u32_u24", 2, 0, 0, 0, hm_mul_hi_u24),
    V("v_min_i32", 2, 0, 0, 0, hm_min_i32),
    V("v_max_i32", 2, 0, 0, 0, hm_max_i32),
    V("v_min_u32", 2, 0, 0, 0, hm_min_u32),
    V("v_max_u32", 2, 0, 0, 0, hm_max_u32),
    V("v_lshlrev_b32", 2, 0, 0, 0, hm_lshlrev),
    V("v_lshrrev_b32", 2, 0, 0, 0, hm_lshrrev),
    V("v_ashrrev_i32", 2, 0, 0, 0, hm_ashrrev),
    V("v_and_b32", 2, 0, 0, 0, hm_and),
    V("v_or_b32", 2, 0, 0, 0, hm_or),
    V("v_xor_b32", 2, 0, 0, 0, hm_xor),
    V("v_xnor_b32", 2, 0, 0, 0, hm_xnor),
    V("v_add_co_ci_u32", 2, 0, 0, RL_HM_CIN | RL_HM_COUT, hm_add_co_ci),
    V("v_sub_co_ci_u32", 2, 0, 0, RL_HM_CIN | RL_HM_COUT, hm_sub_co_ci),
    V("v_subrev_co_ci_u32", 2, 0, 0, RL_HM_CIN | RL_HM_COUT, hm_subrev_co_ci),
    V("v_add_nc_u32", 2, 0, 0, RL_HM_ICLAMP, hm_add_nc),
    V("v_sub_nc_u32", 2, 0, 0, RL_HM_ICLAMP, hm_sub_nc),
    V("v_subrev_nc_u32", 2, 0, 0, RL_HM_ICLAMP, hm_subrev_nc),
    // VOP1.
    V("v_mov_b32", 1, 0, 0, 0, hm_mov),
    V("v_not_b32", 1, 0, 0, 0, hm_not),
    V("v_bfrev_b32", 1, 0, 0, 0, hm_bfrev),
    V("v_clz_i32_u32", 1, 0, 0, 0, hm_clz),
    V("v_ctz_i32_b32", 1, 0, 0, 0, hm_ctz),
    // VOP3 only.
    V("v_mad_i32_i24", 3, 0, 0, 0, hm_mad_i24),
    V("v_mad_u32_u24", 3, 0, 0, 0, hm_mad_u24),
    V("v_bfe_u32", 3, 0, 0, 0, hm_bfe_u32),
    V("v_bfe_i32", 3, 0, 0, 0, hm_bfe_i32),
    V("v_bfi_b32", 3, 0, 0, 0, hm_bfi),
    V("v_alignbit_b32", 3, 0, 0, 0, hm_alignbit),
    V("v_min3_i32", 3, 0, 0, 0, hm_min3_i32),
    V("v_min3_u32", 3, 0, 0, 0, hm_min3_u32),
    V("v_max3_i32", 3, 0, 0, 0, hm_max3_i32),
    V("v_max3_u32", 3, 0, 0, 0, hm_max3_u32),
    V("v_med3_i32", 3, 0, 0, 0, hm_med3_i32),
    V("v_maxmin_u32", 3, 0, 0, 0, hm_maxmin_u32),
    V("v_minmax_u32", 3, 0, 0, 0, hm_minmax_u32),
    V("v_maxmin_i32", 3, 0, 0, 0, hm_maxmin_i32),
    V("v_minmax_i32", 3, 0, 0, 0, hm_minmax_i32),
    V("v_med3_u32", 3, 0, 0, 0, hm_med3_u32),
    V("v_xor3_b32", 3, 0, 0, 0, hm_xor3),
    V("v_xad_u32", 3, 0, 0, 0, hm_xad),
    V("v_lshl_add_u32", 3, 0, 0, 0, hm_lshl_add),
    V("v_add_lshl_u32", 3, 0, 0, 0, hm_add_lshl),
    V("v_add3_u32", 3, 0, 0, 0, hm_add3),
    V("v_lshl_or_b32", 3, 0, 0, 0, hm_lshl_or),
    V("v_and_or_b32", 3, 0, 0, 0, hm_and_or),
    V("v_or3_b32", 3, 0, 0, 0, hm_or3),
    V("v_mad_u64_u32", 3, W2 | WD, 0, RL_HM_COUT, hm_mad_u64_u32),
    V("v_mad_i64_i32", 3, W2 | WD, 0, RL_HM_COUT, hm_mad_i64_i32),
    V("v_add_co_u32", 2, 0, 0, RL_HM_COUT, hm_add_co),
    V("v_sub_co_u32", 2, 0, 0, RL_HM_COUT, hm_sub_co),
    V("v_subrev_co_u32", 2, 0, 0, RL_HM_COUT, hm_subrev_co),
    V("v_bcnt_u32_b32", 2, 0, 0, 0, hm_bcnt),
    V("v_mul_lo_u32", 2, 0, 0, 0, hm_mul_lo),
    V("v_mul_hi_u32", 2, 0, 0, 0, hm_mul_hi_u),
    V("v_mul_hi_i32", 2, 0, 0, 0, hm_mul_hi_i),
    V("v_perm_b32", 3, 0, 0, 0, hm_perm),
    V("v_mbcnt_lo_u32_b32", 2, 0, 0, 0, hm_mbcnt_lo),
    V("v_mbcnt_hi_u32_b32", 2, 0, 0, 0, hm_mbcnt_hi),
    V("v_add_nc_i32", 2, 0, 0, RL_HM_ICLAMP, hm_add_nc_i32),
    V("v_sub_nc_i32", 2, 0, 0, RL_HM_ICLAMP, hm_sub_nc_i32),
    // 16-bit integer (VOP1, VOP3).
    V("v_not_b16", 1, 0, 0, 0, hm_not_b16),
    V("v_cvt_i32_i16", 1, 0, 0, 0, hm_cvt_i32_i16),
    V("v_cvt_u32_u16", 1, 0, 0, 0, hm_cvt_u32_u16),
    V("v_mad_u16", 3, 0, 0, 0, hm_mad_u16),
    V("v_mad_i16", 3, 0, 0, 0, hm_mad_u16),
    V("v_mad_u32_u16", 3, 0, 0, 0, hm_mad_u32_u16),
    V("v_mad_i32_i16", 3, 0, 0, 0, hm_mad_i32_i16),
    V("v_add_nc_u16", 2, 0, 0, 0, hm_add_u16),
    V("v_sub_nc_u16", 2, 0, 0, 0, hm_sub_u16),
    V("v_add_nc_i16", 2, 0, 0, 0, hm_add_u16),
    V("v_sub_nc_i16", 2, 0, 0, 0, hm_sub_u16),
    V("v_mul_lo_u16", 2, 0, 0, 0, hm_mul_lo_u16),
    V("v_max_u16", 2, 0, 0, 0, hm_max_u16),
    V("v_max_i16", 2, 0, 0, 0, hm_max_i16),
    V("v_min_u16", 2, 0, 0, 0, hm_min_u16),
    V("v_min_i16", 2, 0, 0, 0, hm_min_i16),
    V("v_lshlrev_b16", 2, 0, 0, 0, hm_lshlrev_b16),
    V("v_lshrrev_b16", 2, 0, 0, 0, hm_lshrrev_b16),
    V("v_ashrrev_i16", 2, 0, 0, 0, hm_ashrrev_i16),
    V("v_and_b16", 2, 0, 0, 0, hm_and_b16),
    V("v_or_b16", 2, 0, 0, 0, hm_or_b16),
    V("v_xor_b16", 2, 0, 0, 0, hm_xor_b16),
    V("v_pack_b32_f16", 2, H0 | H1, 0, RL_HM_NO_INLINE, hm_pack_b32_f16),
    // Class tests (the compare shape; arg: the operand width).
    V("v_lshlrev_b64", 2, W1 | WD, 0, 0, hm_lshlrev64),
    V("v_lshrrev_b64", 2, W1 | WD, 0, 0, hm_lshrrev64),
    V("v_ashrrev_i64", 2, W1 | WD, 0, 0, hm_ashrrev64),
    // SOP2.
    S("s_mul_i32", 2, 0, 0, hm_mul_lo),
    S("s_mul_hi_u32", 2, 0, 0, hm_mul_hi_u),
    S("s_mul_hi_i32", 2, 0, 0, hm_mul_hi_i),
    // SOP1.
    S("s_brev_b32", 1, 0, 0, hm_bfrev),
    S("s_ctz_i32_b32", 1, 0, 0, hm_ctz),
    S("s_clz_i32_u32", 1, 0, 0, hm_clz),
    S("s_ctz_i32_b64", 1, W0, 0, hs_ctz64),
    S("s_clz_i32_u64", 1, W0, 0, hs_clz64),
    S("s_cls_i32", 1, 0, 0, hs_cls32),
    S("s_cls_i32_i64", 1, W0, 0, hs_cls64),
};
const rl_hm_table_t rl_hm_ops_vint = {
    rl_hm_vint_ops, sizeof(rl_hm_vint_ops) / sizeof(rl_hm_vint_ops[0])};
