// sim/oracle/oracle_model.c — the independent host model of
// the gfx11 ALU opcodes (oracle_model.h): the operations, their table, the
// compares parsed from the mnemonic, evaluation and matching (the memory
// operations: oracle_model_memory.c). Semantics follow the RDNA3 ISA
// guide's opcode pseudo-code; nothing here includes sim/isa/.
// Built with -ffp-contract=off: every float operation must round where the
// instruction rounds.
#include "sim/oracle/oracle_model.h"
#include "sim/oracle/oracle_model_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

// ---------------------------------------------------------------------------
// Bit views and the denormal rule.

static double rl_hm_d(uint64_t bits) {
  double v;
  memcpy(&v, &bits, 8);
  return v;
}
static uint64_t rl_hm_ud(double v) {
  uint64_t bits;
  memcpy(&bits, &v, 8);
  return bits;
}
static bool rl_hm_is_denorm(uint32_t bits) {
  return (bits & 0x7fffffffu) != 0 && (bits & 0x7f800000u) == 0;
}
static bool rl_hm_nan(uint32_t bits) {
  return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0;
}
// A binary32 input or result under the mode: FTZ turns denormals into a
// zero of the same sign.
static uint32_t rl_hm_ftz(uint32_t mode, uint32_t bits) {
  if ((mode & RL_HM_MODE_FTZ32) && rl_hm_is_denorm(bits)) {
    return bits & 0x80000000u;
  }
  return bits;
}
static float rl_hm_in(uint32_t mode, uint64_t bits) {
  return rl_hm_f(rl_hm_ftz(mode, (uint32_t)bits));
}
static uint64_t rl_hm_out(uint32_t mode, float v) {
  return rl_hm_ftz(mode, rl_hm_u(v));
}

#define FN(name) static void name(const rl_hm_op_t* op, uint32_t mode, \
                                  rl_hm_lane_t* x)
#define UNUSED (void)op, (void)mode
#define A ((uint32_t)x->s[0])
#define B ((uint32_t)x->s[1])
#define C ((uint32_t)x->s[2])
#define FA rl_hm_in(mode, x->s[0])
#define FB rl_hm_in(mode, x->s[1])
#define FC rl_hm_in(mode, x->s[2])

// ---------------------------------------------------------------------------
// Vector integer.

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
static uint32_t rl_hm_field(uint32_t v, uint32_t offset, uint32_t width) {
  return (uint32_t)(((uint64_t)v >> offset) & ((1ull << width) - 1));
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
static int64_t rl_hm_s32(uint32_t v) { return (int32_t)v; }
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

// 16-bit integer ops: the low halves of the sources; the result goes to
// the low half of D and the high half keeps its old value (gfx11).
#define LO16(v) ((uint32_t)(v) & 0xffffu)
#define SX16(v) ((int32_t)(int16_t)(uint16_t)(v))
static uint64_t rl_hm_keep_hi(const rl_hm_lane_t* x, uint32_t r) {
  return (x->d & 0xffff0000u) | (r & 0xffffu);
}
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

// ---------------------------------------------------------------------------
// Vector float.

FN(hm_add_f32) { UNUSED; x->d = rl_hm_out(mode, FA + FB); }
FN(hm_sub_f32) { UNUSED; x->d = rl_hm_out(mode, FA - FB); }
FN(hm_subrev_f32) { UNUSED; x->d = rl_hm_out(mode, FB - FA); }
FN(hm_mul_f32) { UNUSED; x->d = rl_hm_out(mode, FA * FB); }
// v_mul_dx9_zero_f32: a zero factor gives +0 even against inf or NaN.
FN(hm_mul_dx9) {
  UNUSED;
  float a = FA, b = FB;
  x->d = (a == 0.0f || b == 0.0f) ? 0u : rl_hm_out(mode, a * b);
}
FN(hm_fma_f32) { UNUSED; x->d = rl_hm_out(mode, fmaf(FA, FB, FC)); }
// v_fmamk_f32: D = S0 * K + S1 (K in source 2 here).
FN(hm_fmamk_f32) { UNUSED; x->d = rl_hm_out(mode, fmaf(FA, FC, FB)); }
FN(hm_ldexp) {
  UNUSED;
  int32_t e = (int32_t)B;
  x->d = rl_hm_out(mode, ldexpf(FA, e < -1000 ? -1000 : e > 1000 ? 1000 : e));
}

// min/max: -0 < +0; a NaN operand yields the other operand (in IEEE mode a
// signalling NaN operand yields itself, quieted); two NaNs yield the first,
// quieted.
uint32_t rl_hm_minmax(uint32_t mode, uint32_t a, uint32_t b, bool max) {
  a = rl_hm_ftz(mode, a);
  b = rl_hm_ftz(mode, b);
  bool an = rl_hm_nan(a), bn = rl_hm_nan(b);
  if ((mode & RL_HM_MODE_IEEE) && an && !(a & 0x00400000u)) return a | 0x00400000u;
  if ((mode & RL_HM_MODE_IEEE) && bn && !(b & 0x00400000u)) return b | 0x00400000u;
  if (an && bn) return a | 0x00400000u;
  if (an) return b;
  if (bn) return a;
  // Order the bit patterns as signed-magnitude numbers: -0 below +0.
  int64_t ka = (a >> 31) ? -(int64_t)(a & 0x7fffffffu) - 1 : (int64_t)a;
  int64_t kb = (b >> 31) ? -(int64_t)(b & 0x7fffffffu) - 1 : (int64_t)b;
  if (max) return ka >= kb ? a : b;
  return ka <= kb ? a : b;
}
// gfx12's *_num_* min/max (RDNA4 guide, V_MIN_NUM_F32 ...): IEEE 754-2019
// minimumNumber/maximumNumber. A NaN operand, quiet or signalling, yields
// the other operand; two NaNs the first, quieted; -0 < +0. That is the rule
// above without the IEEE-mode signalling-NaN case, whatever the mode.
#define RL_HM_NUM(mode) ((mode) & ~RL_HM_MODE_IEEE)
FN(hm_min_num_f32) { UNUSED; x->d = rl_hm_minmax(RL_HM_NUM(mode), A, B, false); }
FN(hm_max_num_f32) { UNUSED; x->d = rl_hm_minmax(RL_HM_NUM(mode), A, B, true); }
FN(hm_min3_num_f32) {
  UNUSED;
  uint32_t m = RL_HM_NUM(mode);
  x->d = rl_hm_minmax(m, rl_hm_minmax(m, A, B, false), C, false);
}
FN(hm_max3_num_f32) {
  UNUSED;
  uint32_t m = RL_HM_NUM(mode);
  x->d = rl_hm_minmax(m, rl_hm_minmax(m, A, B, true), C, true);
}
FN(hm_min_f32) { UNUSED; x->d = rl_hm_minmax(mode, A, B, false); }
FN(hm_max_f32) { UNUSED; x->d = rl_hm_minmax(mode, A, B, true); }
FN(hm_min3_f32) {
  UNUSED;
  x->d = rl_hm_minmax(mode, rl_hm_minmax(mode, A, B, false), C, false);
}
FN(hm_max3_f32) {
  UNUSED;
  x->d = rl_hm_minmax(mode, rl_hm_minmax(mode, A, B, true), C, true);
}

// Conversions: float to integer truncates toward zero and saturates; NaN
// gives 0.
static uint32_t rl_hm_to_u32(double v) {
  if (v != v || v <= 0) return 0;
  if (v >= 4294967295.0) return 0xffffffffu;
  return (uint32_t)v;
}
static uint32_t rl_hm_to_i32(double v) {
  if (v != v) return 0;
  if (v <= -2147483648.0) return 0x80000000u;
  if (v >= 2147483647.0) return 0x7fffffffu;
  return (uint32_t)(int32_t)v;
}
FN(hm_cvt_f32_i32) { UNUSED; x->d = rl_hm_u((float)(int32_t)A); }
FN(hm_cvt_f32_u32) { UNUSED; x->d = rl_hm_u((float)A); }
FN(hm_cvt_u32_f32) { UNUSED; x->d = rl_hm_to_u32(FA); }
FN(hm_cvt_i32_f32) { UNUSED; x->d = rl_hm_to_i32(FA); }
FN(hm_cvt_f32_f64) { UNUSED; x->d = rl_hm_out(mode, (float)rl_hm_d(x->s[0])); }
FN(hm_cvt_f64_f32) { UNUSED; x->d = rl_hm_ud((double)FA); }
FN(hm_cvt_ubyte) { x->d = rl_hm_u((float)((A >> (8 * op->arg)) & 0xff)); (void)mode; }
FN(hm_trunc) { UNUSED; x->d = rl_hm_out(mode, truncf(FA)); }
FN(hm_ceil) { UNUSED; x->d = rl_hm_out(mode, ceilf(FA)); }
FN(hm_floor) { UNUSED; x->d = rl_hm_out(mode, floorf(FA)); }
FN(hm_rndne) { UNUSED; x->d = rl_hm_out(mode, rintf(FA)); }
// Transcendentals: the exact value in double (rounded once to binary32);
// rl_hm_match() allows 1 ulp and flushed tiny results.
static uint64_t rl_hm_trans(double v) { return rl_hm_u((float)v); }
FN(hm_exp) { UNUSED; x->d = rl_hm_trans(exp2((double)FA)); }
FN(hm_log) { UNUSED; x->d = rl_hm_trans(log2((double)FA)); }
FN(hm_rcp) { UNUSED; x->d = rl_hm_trans(1.0 / (double)FA); }
FN(hm_rsq) { UNUSED; x->d = rl_hm_trans(1.0 / sqrt((double)FA)); }
FN(hm_sqrt) { UNUSED; x->d = rl_hm_trans(sqrt((double)FA)); }
FN(hm_add_f64) { UNUSED; x->d = rl_hm_ud(rl_hm_d(x->s[0]) + rl_hm_d(x->s[1])); }
FN(hm_mul_f64) { UNUSED; x->d = rl_hm_ud(rl_hm_d(x->s[0]) * rl_hm_d(x->s[1])); }
FN(hm_fma_f64) {
  UNUSED;
  x->d = rl_hm_ud(fma(rl_hm_d(x->s[0]), rl_hm_d(x->s[1]), rl_hm_d(x->s[2])));
}

// binary16 (RDNA3 ISA guide, "16-bit Math"; denormals always kept). A
// binary16 value is exact in binary64; results round once to nearest even.
static double rl_hm_h2d(uint32_t h) {
  h &= 0xffffu;
  int e = (int)((h >> 10) & 31);
  uint32_t m = h & 0x3ffu;
  double mag;
  if (e == 31) mag = m ? NAN : INFINITY;
  else if (e == 0) mag = ldexp((double)m, -24);
  else mag = ldexp((double)(m + 1024), e - 25);
  return (h & 0x8000u) ? -mag : mag;
}
static bool rl_hm_nan16(uint32_t h) {
  return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
}
static uint32_t rl_hm_d2h(double d) {
  uint32_t sign = signbit(d) ? 0x8000u : 0;
  if (d != d) return sign | 0x7e00u;
  double a = fabs(d);
  if (a == INFINITY) return sign | 0x7c00u;
  if (a < ldexp(1.0, -14)) {  // denormal: a multiple of 2^-24
    double q = a * 16777216.0, f = floor(q), r = q - f;
    uint32_t n = (uint32_t)f;
    if (r > 0.5 || (r == 0.5 && (n & 1))) ++n;
    return sign | n;  // 0x400 (the smallest normal) when it rounds up
  }
  int e = ilogb(a);                   // a in [2^e, 2^(e+1))
  double q = ldexp(a, 10 - e), f = floor(q), r = q - f;  // q in [1024, 2048)
  uint32_t n = (uint32_t)f;
  if (r > 0.5 || (r == 0.5 && (n & 1))) ++n;
  if (n == 2048) n = 1024, ++e;
  if (e > 15) return sign | 0x7c00u;
  return sign | (uint32_t)(e + 15) << 10 | (n - 1024);
}
#define HA rl_hm_h2d(A)
#define HB rl_hm_h2d(B)
#define HC rl_hm_h2d(C)
#define F16OUT(expr) x->d = rl_hm_keep_hi(x, rl_hm_d2h(expr))
FN(hh_add) { UNUSED; F16OUT(HA + HB); }
FN(hh_sub) { UNUSED; F16OUT(HA - HB); }
FN(hh_subrev) { UNUSED; F16OUT(HB - HA); }
FN(hh_mul) { UNUSED; F16OUT(HA * HB); }
// fma: the exact a*b+c fits no binary64 in general; fma() rounds it once
// to binary64 and the binary16 rounding follows (a double rounding, the
// documented 1-ulp tolerance of the model; the operands seen here never hit
// it because the binary64 result of binary16 inputs is exact or far from a
// binary16 tie).
FN(hh_fma) { UNUSED; F16OUT(fma(HA, HB, HC)); }
FN(hh_fmamk) { UNUSED; F16OUT(fma(HA, HC, HB)); }
FN(hh_fmac) { UNUSED; F16OUT(fma(HA, HB, rl_hm_h2d((uint32_t)x->d))); }
// min/max on binary16: the binary32 rule on the exact binary32 images
// (a binary16 NaN keeps its quiet bit at bit 22 of the image).
static uint32_t rl_hm_h2f_bits(uint32_t h) {
  h &= 0xffffu;
  uint32_t sign = (h & 0x8000u) << 16;
  if ((h & 0x7c00u) == 0x7c00u) return sign | 0x7f800000u | (h & 0x3ffu) << 13;
  return sign | (rl_hm_u((float)rl_hm_h2d(h)) & 0x7fffffffu);
}
static uint32_t rl_hm_f2h_bits(uint32_t f) {
  if (rl_hm_nan(f)) return (f >> 16 & 0x8000u) | 0x7c00u | ((f >> 13) & 0x3ffu);
  return rl_hm_d2h((double)rl_hm_f(f));
}
FN(hh_min) {
  UNUSED;
  x->d = rl_hm_keep_hi(x, rl_hm_f2h_bits(rl_hm_minmax(mode & ~RL_HM_MODE_FTZ32,
                       rl_hm_h2f_bits(A), rl_hm_h2f_bits(B), false)));
}
FN(hh_max) {
  UNUSED;
  x->d = rl_hm_keep_hi(x, rl_hm_f2h_bits(rl_hm_minmax(mode & ~RL_HM_MODE_FTZ32,
                       rl_hm_h2f_bits(A), rl_hm_h2f_bits(B), true)));
}
FN(hh_min_num) {
  UNUSED;
  x->d = rl_hm_keep_hi(x, rl_hm_f2h_bits(rl_hm_minmax(
                       RL_HM_NUM(mode) & ~RL_HM_MODE_FTZ32,
                       rl_hm_h2f_bits(A), rl_hm_h2f_bits(B), false)));
}
FN(hh_max_num) {
  UNUSED;
  x->d = rl_hm_keep_hi(x, rl_hm_f2h_bits(rl_hm_minmax(
                       RL_HM_NUM(mode) & ~RL_HM_MODE_FTZ32,
                       rl_hm_h2f_bits(A), rl_hm_h2f_bits(B), true)));
}
// A NaN keeps its payload and is quieted.
FN(hh_cvt_f32_f16) {
  UNUSED;
  x->d = rl_hm_h2f_bits(A);
  if (rl_hm_nan((uint32_t)x->d)) x->d |= 0x00400000u;
}
FN(hh_cvt_f16_f32) { UNUSED; F16OUT((double)FA); }
FN(hh_cvt_f16_u16) { UNUSED; F16OUT((double)LO16(A)); }
FN(hh_cvt_f16_i16) { UNUSED; F16OUT((double)SX16(A)); }
FN(hh_cvt_u16_f16) {
  UNUSED;
  double v = HA;
  uint32_t r = v != v || v <= 0 ? 0 : v >= 65535.0 ? 0xffffu : (uint32_t)v;
  x->d = rl_hm_keep_hi(x, r);
}
FN(hh_cvt_i16_f16) {
  UNUSED;
  double v = HA;
  int32_t r = v != v ? 0 : v <= -32768.0 ? -32768 : v >= 32767.0 ? 32767
                                                                 : (int32_t)v;
  x->d = rl_hm_keep_hi(x, (uint32_t)r);
}

// binary64 beyond add/mul/fma.
#define DA rl_hm_d(x->s[0])
FN(hd_cvt_i32_f64) { UNUSED; x->d = rl_hm_to_i32(DA); }
FN(hd_cvt_u32_f64) { UNUSED; x->d = rl_hm_to_u32(DA); }
FN(hd_cvt_f64_i32) { UNUSED; x->d = rl_hm_ud((double)(int32_t)A); }
FN(hd_cvt_f64_u32) { UNUSED; x->d = rl_hm_ud((double)A); }
FN(hd_trunc) { UNUSED; x->d = rl_hm_ud(trunc(DA)); }
FN(hd_ceil) { UNUSED; x->d = rl_hm_ud(ceil(DA)); }
FN(hd_floor) { UNUSED; x->d = rl_hm_ud(floor(DA)); }
FN(hd_rndne) { UNUSED; x->d = rl_hm_ud(nearbyint(DA)); }
FN(hd_sqrt) { UNUSED; x->d = rl_hm_ud(sqrt(DA)); }
// rcp/rsq: the exact value in long double, 1 ulp allowed (RL_HM_TRANS).
FN(hd_rcp) { UNUSED; x->d = rl_hm_ud((double)(1.0L / (long double)DA)); }
FN(hd_rsq) { UNUSED; x->d = rl_hm_ud((double)(1.0L / sqrtl((long double)DA))); }
// v_fract_f64: x - floor(x), at most the largest binary64 below 1; NaN for
// infinities.
FN(hd_fract) {
  UNUSED;
  double v = DA;
  if (isinf(v)) { x->d = 0x7ff8000000000000ull; return; }
  double f = v - floor(v);
  x->d = rl_hm_ud(f >= 1.0 ? nextafter(1.0, 0.0) : f);
}
FN(hd_ldexp) {
  UNUSED;
  int32_t e = (int32_t)B;
  x->d = rl_hm_ud(ldexp(DA, e < -5000 ? -5000 : e > 5000 ? 5000 : e));
}
// Float decomposition (RDNA3 ISA guide V_FREXP_MANT_* / V_FREXP_EXP_*),
// from the bit fields: +-inf and NaN give the source (mant) or 0 (exp); +-0
// gives itself (mant) or 0 (exp); a denormal is normalised first. |ebits|
// and |mbits| size the format (8/23, 11/52, 5/10).
static uint64_t rl_hm_frexp(uint64_t v, uint32_t ebits, uint32_t mbits,
                            bool want_exp) {
  uint64_t sign = v >> (ebits + mbits) & 1, emax = (1ull << ebits) - 1;
  uint64_t e = (v >> mbits) & emax, m = v & ((1ull << mbits) - 1);
  int64_t bias = (int64_t)(emax >> 1);
  if (e == emax || (e == 0 && m == 0)) return want_exp ? 0 : v;
  int64_t exp;
  if (e == 0) {  // m * 2^(1 - bias - mbits): shift the leading one up
    uint32_t p = 63 - (uint32_t)__builtin_clzll(m);
    exp = (int64_t)p - (int64_t)mbits + 2 - bias;
    m = (m << (mbits - p)) & ((1ull << mbits) - 1);
  } else {
    exp = (int64_t)e - bias + 1;
  }
  if (want_exp) return (uint64_t)exp;
  return sign << (ebits + mbits) | (uint64_t)(bias - 1) << mbits | m;
}
FN(hm_frexp_mant_f32) {
  (void)op;
  x->d = rl_hm_frexp(rl_hm_ftz(mode, A), 8, 23, false);
}
FN(hm_frexp_exp_f32) {
  (void)op;
  x->d = (uint32_t)rl_hm_frexp(rl_hm_ftz(mode, A), 8, 23, true);
}
FN(hd_frexp_mant) { UNUSED; x->d = rl_hm_frexp(x->s[0], 11, 52, false); }
FN(hd_frexp_exp) { UNUSED; x->d = (uint32_t)rl_hm_frexp(x->s[0], 11, 52, true); }
// v_dot2acc_f32_f16: D = D + S0.h[0] * S1.h[0] + S0.h[1] * S1.h[1], the
// products exact, the sum rounded once to binary32 (long double holds the
// binary16 products and a binary32 accumulator of nearby magnitude
// exactly); MODE denormal flushing does not apply (the guide's dot
// products keep denormals).
FN(hh_dot2acc) {
  UNUSED;
  long double sum = (long double)rl_hm_f((uint32_t)x->d);
  for (uint32_t h = 0; h < 2; ++h) {
    sum += (long double)rl_hm_h2d(LO16(A >> (16 * h))) *
           (long double)rl_hm_h2d(LO16(B >> (16 * h)));
  }
  x->d = rl_hm_u((float)sum);
}
FN(hh_frexp_mant) {
  UNUSED;
  x->d = rl_hm_keep_hi(x, (uint32_t)rl_hm_frexp(LO16(A), 5, 10, false));
}
FN(hh_frexp_exp) {
  UNUSED;
  x->d = rl_hm_keep_hi(x, (uint32_t)rl_hm_frexp(LO16(A), 5, 10, true) & 0xffffu);
}
// V_TRIG_PREOP_F64 (RDNA3 ISA guide pseudo-code): the 53 bits of 2/pi
// after the first |shift| fraction bits, at magnitude 2^(-53 - shift),
// shift = 53 * S1[4:0] (+ exponent - 1077 above 1077), times 2^128 from
// exponent 1968 up, rounded toward zero. 2/pi in 24-bit digits (the layout
// of fdlibm's ipio2 table), of which the guide uses the first 1,201 bits.
static const uint32_t rl_hm_two_over_pi24[] = {
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041,
    0xFE5163, 0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C,
    0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41,
    0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F,
    0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D,
    0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08,
    0x560330, 0x46FC7B, 0x6BABF0,
};
FN(hd_trig_preop) {
  UNUSED;
  int64_t e = (int64_t)((x->s[0] >> 52) & 0x7ff);
  int64_t shift = 53 * (int64_t)(B & 31) + (e > 1077 ? e - 1077 : 0);
  uint64_t window = 0;
  for (int64_t pos = shift; pos < shift + 53; ++pos) {  // 0-based bit index
    uint64_t bit = 0;
    if (pos < 1201) {
      bit = (rl_hm_two_over_pi24[pos / 24] >> (23 - pos % 24)) & 1;
    }
    window = window * 2 + bit;
  }
  long double r = ldexpl((long double)window,
                         (int)(-53 - shift + (e >= 1968 ? 128 : 0)));
  if (r < 0x1p-1022L) r = floorl(r * 0x1p1074L) * 0x1p-1074L;  // toward 0
  x->d = rl_hm_ud((double)r);
}
// min/max_f64: the binary32 rule on binary64 patterns.
static uint64_t rl_hm_minmax64(uint32_t mode, uint64_t a, uint64_t b, bool max) {
  bool an = (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  bool bn = (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
  const uint64_t q = 0x0008000000000000ull;
  if ((mode & RL_HM_MODE_IEEE) && an && !(a & q)) return a | q;
  if ((mode & RL_HM_MODE_IEEE) && bn && !(b & q)) return b | q;
  if (an && bn) return a | q;
  if (an) return b;
  if (bn) return a;
  double da = rl_hm_d(a), db = rl_hm_d(b);
  if (da == db) {  // -0 below +0
    bool pick_a = max ? !(a >> 63) || (b >> 63) : (a >> 63) || !(b >> 63);
    return pick_a ? a : b;
  }
  return (max ? da > db : da < db) ? a : b;
}
FN(hd_min) { UNUSED; x->d = rl_hm_minmax64(mode, x->s[0], x->s[1], false); }
FN(hd_max) { UNUSED; x->d = rl_hm_minmax64(mode, x->s[0], x->s[1], true); }
FN(hd_min_num) {
  UNUSED;
  x->d = rl_hm_minmax64(RL_HM_NUM(mode), x->s[0], x->s[1], false);
}
FN(hd_max_num) {
  UNUSED;
  x->d = rl_hm_minmax64(RL_HM_NUM(mode), x->s[0], x->s[1], true);
}

// v_cmp_class_*: bit n of S1 selects class n of S0 (0 signalling NaN, 1
// quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
// 8 +normal, 9 +inf). arg: 16, 32 or 64 bits.
static uint32_t rl_hm_class(uint64_t v, uint32_t bits) {
  uint32_t mbits = bits == 16 ? 10 : bits == 32 ? 23 : 52;
  uint64_t man = v & ((1ull << mbits) - 1);
  uint64_t emax = (1ull << (bits - 1 - mbits)) - 1;
  uint64_t exp = (v >> mbits) & emax;
  bool neg = (v >> (bits - 1)) & 1;
  if (exp == emax) {
    if (man == 0) return neg ? 2 : 9;
    return (man >> (mbits - 1)) & 1 ? 1 : 0;
  }
  if (exp == 0) return man == 0 ? (neg ? 5 : 6) : (neg ? 4 : 7);
  return neg ? 3 : 8;
}
FN(hm_cmp_class) {
  (void)mode;
  uint64_t v = op->arg == 64 ? x->s[0] : op->arg == 16 ? x->s[0] & 0xffff
                                                        : (uint32_t)x->s[0];
  x->cout = (B >> rl_hm_class(v, op->arg)) & 1;
}

// ---------------------------------------------------------------------------
// Scalar.

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

// VOP3P halves.
enum { PK_MUL_LO, PK_ADD, PK_SUB, PK_LSHL, PK_LSHR, PK_MAX_U, PK_MIN_U,
       PK_ADD_F16, PK_MUL_F16, PK_MIN_F16, PK_MAX_F16, PK_MIN_NUM_F16,
       PK_MAX_NUM_F16 };
FN(hm_packed) { UNUSED; (void)x; }

// ---------------------------------------------------------------------------
// The table. Shapes: W(n) marks 64-bit operands, F(n) floats; D = bit 3.

#define W0 1u
#define W1 2u
#define W2 4u
#define WD 8u
#define H0 RL_HM_H16_SRC(0)
#define H1 RL_HM_H16_SRC(1)
#define H2 RL_HM_H16_SRC(2)
#define HD RL_HM_H16_DST
#define F0 1u
#define F1 2u
#define F2 4u
#define FD 8u
#define SCCO RL_HM_SCC_OUT
#define SCCI RL_HM_SCC_IN
#define NANY RL_HM_NAN_ANY
#define V(name, n, w, f, flags, fn) {name, n, w, f, flags, fn, 0}
#define VA(name, n, w, f, flags, fn, arg) {name, n, w, f, flags, fn, arg}
#define S(name, n, w, flags, fn) {name, n, w, 0, RL_HM_SALU | (flags), fn, 0}
#define SF(name, n, f, flags, fn) \
  {name, n, 0, f, RL_HM_SALU | RL_HM_SALU_FLOAT | (flags), fn, 0}
#define F3 (F0 | F1 | FD)

static const rl_hm_op_t rl_hm_ops[] = {
    // VOP2.
    // Its VOP3 ABS/NEG act on bit 31 of the two data sources (RDNA3 ISA
    // guide, VOP3 input modifiers; LLVM gives the opcode float input
    // modifiers), which the float shape expresses; no flushing (hm_cndmask
    // selects raw bits).
    V("v_cndmask_b32", 2, 0, F0 | F1, RL_HM_CIN, hm_cndmask),
    V("v_add_f32", 2, 0, F3, NANY, hm_add_f32),
    V("v_sub_f32", 2, 0, F3, NANY, hm_sub_f32),
    V("v_subrev_f32", 2, 0, F3, NANY, hm_subrev_f32),
    V("v_mul_dx9_zero_f32", 2, 0, F3, NANY, hm_mul_dx9),
    V("v_mul_f32", 2, 0, F3, NANY, hm_mul_f32),
    V("v_mul_i32_i24", 2, 0, 0, 0, hm_mul_i24),
    V("v_mul_hi_i32_i24", 2, 0, 0, 0, hm_mul_hi_i24),
    V("v_mul_u32_u24", 2, 0, 0, 0, hm_mul_u24),
    V("v_mul_hi_u32_u24", 2, 0, 0, 0, hm_mul_hi_u24),
    V("v_min_f32", 2, 0, F3, 0, hm_min_f32),
    V("v_min_num_f32", 2, 0, F3, 0, hm_min_num_f32),
    V("v_max_num_f32", 2, 0, F3, 0, hm_max_num_f32),
    V("v_max_f32", 2, 0, F3, 0, hm_max_f32),
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
    V("v_fmac_f32", 3, 0, F3 | F2, NANY | RL_HM_ACC, hm_fma_f32),
    V("v_fmamk_f32", 3, 0, F3 | F2, NANY | RL_HM_K, hm_fmamk_f32),
    V("v_fmaak_f32", 3, 0, F3 | F2, NANY | RL_HM_K, hm_fma_f32),
    // VOP1.
    V("v_mov_b32", 1, 0, 0, 0, hm_mov),
    V("v_cvt_f32_i32", 1, 0, FD, 0, hm_cvt_f32_i32),
    V("v_cvt_f32_u32", 1, 0, FD, 0, hm_cvt_f32_u32),
    V("v_cvt_u32_f32", 1, 0, F0, 0, hm_cvt_u32_f32),
    V("v_cvt_i32_f32", 1, 0, F0, 0, hm_cvt_i32_f32),
    V("v_cvt_f32_f64", 1, W0, F0 | FD, NANY, hm_cvt_f32_f64),
    V("v_cvt_f64_f32", 1, WD, F0, NANY, hm_cvt_f64_f32),
    VA("v_cvt_f32_ubyte0", 1, 0, FD, 0, hm_cvt_ubyte, 0),
    VA("v_cvt_f32_ubyte1", 1, 0, FD, 0, hm_cvt_ubyte, 1),
    VA("v_cvt_f32_ubyte2", 1, 0, FD, 0, hm_cvt_ubyte, 2),
    VA("v_cvt_f32_ubyte3", 1, 0, FD, 0, hm_cvt_ubyte, 3),
    V("v_trunc_f32", 1, 0, F0 | FD, NANY, hm_trunc),
    V("v_ceil_f32", 1, 0, F0 | FD, NANY, hm_ceil),
    V("v_rndne_f32", 1, 0, F0 | FD, NANY, hm_rndne),
    V("v_floor_f32", 1, 0, F0 | FD, NANY, hm_floor),
    V("v_exp_f32", 1, 0, F0 | FD, NANY | RL_HM_TRANS, hm_exp),
    V("v_log_f32", 1, 0, F0 | FD, NANY | RL_HM_TRANS, hm_log),
    V("v_rcp_f32", 1, 0, F0 | FD, NANY | RL_HM_TRANS, hm_rcp),
    V("v_rcp_iflag_f32", 1, 0, F0 | FD, NANY | RL_HM_TRANS, hm_rcp),
    V("v_rsq_f32", 1, 0, F0 | FD, NANY | RL_HM_TRANS, hm_rsq),
    V("v_sqrt_f32", 1, 0, F0 | FD, NANY | RL_HM_TRANS, hm_sqrt),
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
    V("v_fma_f32", 3, 0, F3 | F2, NANY, hm_fma_f32),
    V("v_fma_f64", 3, W0 | W1 | W2 | WD, F0 | F1 | F2, NANY, hm_fma_f64),
    V("v_alignbit_b32", 3, 0, 0, 0, hm_alignbit),
    V("v_min3_f32", 3, 0, F3 | F2, 0, hm_min3_f32),
    V("v_min3_num_f32", 3, 0, F3 | F2, 0, hm_min3_num_f32),
    V("v_max3_num_f32", 3, 0, F3 | F2, 0, hm_max3_num_f32),
    V("v_min3_i32", 3, 0, 0, 0, hm_min3_i32),
    V("v_min3_u32", 3, 0, 0, 0, hm_min3_u32),
    V("v_max3_f32", 3, 0, F3 | F2, 0, hm_max3_f32),
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
    V("v_ldexp_f32", 2, 0, F0 | FD, NANY, hm_ldexp),
    V("v_bcnt_u32_b32", 2, 0, 0, 0, hm_bcnt),
    V("v_add_f64", 2, W0 | W1 | WD, F0 | F1, NANY, hm_add_f64),
    V("v_mul_f64", 2, W0 | W1 | WD, F0 | F1, NANY, hm_mul_f64),
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
    // binary16 (H(n): source n / the destination is a binary16 low half).
    V("v_add_f16", 2, H0 | H1 | HD, F0 | F1, NANY, hh_add),
    V("v_sub_f16", 2, H0 | H1 | HD, F0 | F1, NANY, hh_sub),
    V("v_subrev_f16", 2, H0 | H1 | HD, F0 | F1, NANY, hh_subrev),
    V("v_mul_f16", 2, H0 | H1 | HD, F0 | F1, NANY, hh_mul),
    V("v_fma_f16", 3, H0 | H1 | H2 | HD, F0 | F1 | F2, NANY, hh_fma),
    V("v_fmac_f16", 3, H0 | H1 | H2 | HD, F0 | F1 | F2, NANY | RL_HM_ACC, hh_fmac),
    V("v_fmamk_f16", 3, H0 | H1 | H2 | HD, F0 | F1 | F2, NANY | RL_HM_K, hh_fmamk),
    V("v_fmaak_f16", 3, H0 | H1 | H2 | HD, F0 | F1 | F2, NANY | RL_HM_K, hh_fma),
    V("v_min_f16", 2, H0 | H1 | HD, F0 | F1, 0, hh_min),
    V("v_min_num_f16", 2, H0 | H1 | HD, F0 | F1, 0, hh_min_num),
    V("v_max_num_f16", 2, H0 | H1 | HD, F0 | F1, 0, hh_max_num),
    V("v_max_f16", 2, H0 | H1 | HD, F0 | F1, 0, hh_max),
    V("v_cvt_f32_f16", 1, H0, F0 | FD, 0, hh_cvt_f32_f16),
    V("v_cvt_f16_f32", 1, HD, F0, NANY, hh_cvt_f16_f32),
    V("v_cvt_f16_u16", 1, HD, 0, 0, hh_cvt_f16_u16),
    V("v_cvt_f16_i16", 1, HD, 0, 0, hh_cvt_f16_i16),
    V("v_cvt_u16_f16", 1, H0, F0, 0, hh_cvt_u16_f16),
    V("v_cvt_i16_f16", 1, H0, F0, 0, hh_cvt_i16_f16),
    // binary64.
    V("v_cvt_i32_f64", 1, W0, F0, 0, hd_cvt_i32_f64),
    V("v_cvt_u32_f64", 1, W0, F0, 0, hd_cvt_u32_f64),
    V("v_cvt_f64_i32", 1, WD, 0, 0, hd_cvt_f64_i32),
    V("v_cvt_f64_u32", 1, WD, 0, 0, hd_cvt_f64_u32),
    V("v_trunc_f64", 1, W0 | WD, F0, NANY, hd_trunc),
    V("v_ceil_f64", 1, W0 | WD, F0, NANY, hd_ceil),
    V("v_floor_f64", 1, W0 | WD, F0, NANY, hd_floor),
    V("v_rndne_f64", 1, W0 | WD, F0, NANY, hd_rndne),
    V("v_sqrt_f64", 1, W0 | WD, F0, NANY, hd_sqrt),
    V("v_rcp_f64", 1, W0 | WD, F0, NANY | RL_HM_TRANS, hd_rcp),
    V("v_rsq_f64", 1, W0 | WD, F0, NANY | RL_HM_TRANS, hd_rsq),
    V("v_fract_f64", 1, W0 | WD, F0, NANY, hd_fract),
    V("v_min_f64", 2, W0 | W1 | WD, F0 | F1, 0, hd_min),
    V("v_min_num_f64", 2, W0 | W1 | WD, F0 | F1, 0, hd_min_num),
    V("v_max_num_f64", 2, W0 | W1 | WD, F0 | F1, 0, hd_max_num),
    V("v_max_f64", 2, W0 | W1 | WD, F0 | F1, 0, hd_max),
    V("v_ldexp_f64", 2, W0 | WD, F0, NANY, hd_ldexp),
    V("v_dot2acc_f32_f16", 3, 0, 0, NANY | RL_HM_ACC, hh_dot2acc),
    V("v_frexp_mant_f64", 1, W0 | WD, F0, NANY, hd_frexp_mant),
    V("v_frexp_exp_i32_f64", 1, W0, F0, 0, hd_frexp_exp),
    V("v_trig_preop_f64", 2, W0 | WD, F0, 0, hd_trig_preop),
    V("v_frexp_mant_f32", 1, 0, F0 | FD, NANY, hm_frexp_mant_f32),
    V("v_frexp_exp_i32_f32", 1, 0, F0, 0, hm_frexp_exp_f32),
    V("v_frexp_mant_f16", 1, H0 | HD, F0, NANY, hh_frexp_mant),
    V("v_frexp_exp_i16_f16", 1, H0, F0, 0, hh_frexp_exp),
    // Class tests (the compare shape; arg: the operand width).
    VA("v_cmp_class_f16", 2, H0, F0, RL_HM_CMP | RL_HM_COUT, hm_cmp_class, 16),
    VA("v_cmp_class_f32", 2, 0, F0, RL_HM_CMP | RL_HM_COUT, hm_cmp_class, 32),
    VA("v_cmp_class_f64", 2, W0, F0, RL_HM_CMP | RL_HM_COUT, hm_cmp_class, 64),
    VA("v_cmpx_class_f16", 2, H0, F0, RL_HM_CMP | RL_HM_CMPX | RL_HM_COUT, hm_cmp_class, 16),
    VA("v_cmpx_class_f32", 2, 0, F0, RL_HM_CMP | RL_HM_CMPX | RL_HM_COUT, hm_cmp_class, 32),
    VA("v_cmpx_class_f64", 2, W0, F0, RL_HM_CMP | RL_HM_CMPX | RL_HM_COUT, hm_cmp_class, 64),
    V("v_lshlrev_b64", 2, W1 | WD, 0, 0, hm_lshlrev64),
    V("v_lshrrev_b64", 2, W1 | WD, 0, 0, hm_lshrrev64),
    V("v_ashrrev_i64", 2, W1 | WD, 0, 0, hm_ashrrev64),
    // VOP3P (16-bit halves; arg selects the operation).
    VA("v_pk_mul_lo_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MUL_LO),
    VA("v_pk_add_i16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_ADD),
    VA("v_pk_lshlrev_b16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_LSHL),
    VA("v_pk_lshrrev_b16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_LSHR),
    VA("v_pk_add_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_ADD),
    VA("v_pk_sub_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_SUB),
    VA("v_pk_max_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MAX_U),
    VA("v_pk_min_u16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MIN_U),
    VA("v_pk_add_f16", 2, 0, 0, RL_HM_PACKED | NANY, hm_packed, PK_ADD_F16),
    VA("v_pk_mul_f16", 2, 0, 0, RL_HM_PACKED | NANY, hm_packed, PK_MUL_F16),
    VA("v_pk_min_f16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MIN_F16),
    VA("v_pk_min_num_f16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MIN_NUM_F16),
    VA("v_pk_max_num_f16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MAX_NUM_F16),
    VA("v_pk_max_f16", 2, 0, 0, RL_HM_PACKED, hm_packed, PK_MAX_F16),
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
    S("s_mul_i32", 2, 0, 0, hm_mul_lo),
    S("s_mul_hi_u32", 2, 0, 0, hm_mul_hi_u),
    S("s_mul_hi_i32", 2, 0, 0, hm_mul_hi_i),
    S("s_cselect_b32", 2, 0, SCCI, hs_cselect),
    S("s_cselect_b64", 2, W0 | W1 | WD, SCCI, hs_cselect),
    S("s_pack_ll_b32_b16", 2, 0, 0, hs_pack_ll),
    S("s_pack_lh_b32_b16", 2, 0, 0, hs_pack_lh),
    S("s_pack_hh_b32_b16", 2, 0, 0, hs_pack_hh),
    SF("s_add_f32", 2, F0 | F1, NANY, hm_add_f32),
    SF("s_sub_f32", 2, F0 | F1, NANY, hm_sub_f32),
    SF("s_min_f32", 2, F0 | F1, 0, hm_min_f32),
    SF("s_min_num_f32", 2, F0 | F1, 0, hm_min_num_f32),
    SF("s_max_num_f32", 2, F0 | F1, 0, hm_max_num_f32),
    SF("s_max_f32", 2, F0 | F1, 0, hm_max_f32),
    SF("s_mul_f32", 2, F0 | F1, NANY, hm_mul_f32),
    SF("s_fmaak_f32", 3, F0 | F1 | F2, NANY | RL_HM_K, hm_fma_f32),
    SF("s_fmamk_f32", 3, F0 | F1 | F2, NANY | RL_HM_K, hm_fmamk_f32),
    SF("s_fmac_f32", 2, F0 | F1, NANY | RL_HM_ACC, hs_fmac),
    // SOP1.
    S("s_mov_b32", 1, 0, 0, hs_mov),
    S("s_mov_b64", 1, W0 | WD, 0, hs_mov),
    S("s_cmov_b32", 1, 0, SCCI, hs_cmov),
    S("s_bitset1_b32", 1, 0, 0, hs_bitset1),
    S("s_cmov_b64", 1, W0 | WD, SCCI, hs_cmov),
    S("s_brev_b32", 1, 0, 0, hm_bfrev),
    S("s_ctz_i32_b32", 1, 0, 0, hm_ctz),
    S("s_clz_i32_u32", 1, 0, 0, hm_clz),
    S("s_ctz_i32_b64", 1, W0, 0, hs_ctz64),
    S("s_clz_i32_u64", 1, W0, 0, hs_clz64),
    S("s_cls_i32", 1, 0, 0, hs_cls32),
    S("s_cls_i32_i64", 1, W0, 0, hs_cls64),
    S("s_sext_i32_i8", 1, 0, 0, hs_sext8),
    S("s_sext_i32_i16", 1, 0, 0, hs_sext16),
    S("s_abs_i32", 1, 0, SCCO, hs_abs),
    S("s_bcnt1_i32_b32", 1, 0, SCCO, hs_bcnt1),
    S("s_not_b32", 1, 0, SCCO, hs_not),
    S("s_not_b64", 1, W0 | WD, SCCO, hs_not),
    SF("s_ceil_f32", 1, F0, NANY, hm_ceil),
    SF("s_floor_f32", 1, F0, NANY, hm_floor),
    SF("s_trunc_f32", 1, F0, NANY, hm_trunc),
    SF("s_rndne_f32", 1, F0, NANY, hm_rndne),
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

// ---------------------------------------------------------------------------
// Compares, parsed from the mnemonic: v_cmp[x]_<cond>_<type>,
// s_cmp_<cond>_<type>, s_cmpk_<cond>_<type>.

enum { T_F32, T_F64, T_I32, T_U32, T_I64, T_U64, T_I16, T_U16, T_F16 };

static bool rl_hm_cond(const char* cond, int order, bool unordered) {
  // |order|: -1 less, 0 equal, 1 greater (meaningless when unordered).
  bool lt = !unordered && order < 0, eq = !unordered && order == 0;
  bool gt = !unordered && order > 0;
  if (!strcmp(cond, "f")) return false;
  if (!strcmp(cond, "t")) return true;
  if (!strcmp(cond, "lt")) return lt;
  if (!strcmp(cond, "eq")) return eq;
  if (!strcmp(cond, "le")) return lt || eq;
  if (!strcmp(cond, "gt")) return gt;
  if (!strcmp(cond, "lg") || !strcmp(cond, "ne")) return lt || gt ||
                                                       (!strcmp(cond, "ne") && unordered);
  if (!strcmp(cond, "ge")) return gt || eq;
  if (!strcmp(cond, "o")) return !unordered;
  if (!strcmp(cond, "u")) return unordered;
  if (cond[0] == 'n') return !rl_hm_cond(cond + 1, order, unordered);
  return false;
}

static bool rl_hm_cond_known(const char* cond, bool is_float) {
  static const char* const f[] = {"f", "lt", "eq", "le", "gt", "lg", "ge",
                                  "o", "u", "nge", "nlg", "ngt", "nle",
                                  "neq", "nlt", "t"};
  static const char* const i[] = {"f", "lt", "eq", "le", "gt", "ne", "ge",
                                  "t", "lg"};
  const char* const* list = is_float ? f : i;
  uint32_t n = is_float ? 16 : 9;
  for (uint32_t k = 0; k < n; ++k) {
    if (!strcmp(list[k], cond)) return true;
  }
  return false;
}

typedef struct rl_hm_cmp_s {
  char cond[8];
  int type;
  bool sopk;
} rl_hm_cmp_t;

// A compare's condition, type and SOPK bit live in its op's |arg| (the
// condition as an index into rl_hm_conds), so a parsed op is a value the
// caller owns and evaluating it reads no shared state.
static const char* const rl_hm_conds[] = {
    "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg",
    "ngt", "nle", "neq", "nlt", "t", "ne"};

static uint32_t rl_hm_cmp_encode(const rl_hm_cmp_t* c) {
  uint32_t k = 0;
  while (k < sizeof(rl_hm_conds) / sizeof(rl_hm_conds[0]) &&
         strcmp(rl_hm_conds[k], c->cond) != 0) {
    ++k;
  }
  return k | ((uint32_t)c->type << 8) | (c->sopk ? 1u << 16 : 0u);
}

static rl_hm_cmp_t rl_hm_cmp_decode(uint32_t arg) {
  rl_hm_cmp_t c = {{0}, (int)((arg >> 8) & 0xff), ((arg >> 16) & 1) != 0};
  snprintf(c.cond, sizeof(c.cond), "%s", rl_hm_conds[arg & 0xff]);
  return c;
}

static rl_hm_op_t rl_hm_cmp_op;

FN(hm_compare) {
  const rl_hm_cmp_t parsed = rl_hm_cmp_decode(op->arg);
  const rl_hm_cmp_t* c = &parsed;
  int order = 0;
  bool unordered = false;
  uint64_t a = x->s[0], b = x->s[1];
  if (c->sopk) b = c->type == T_I32 ? (uint32_t)rl_hm_sext(b, 16) : (b & 0xffff);
  switch (c->type) {
    case T_F32: {
      float fa = rl_hm_in(mode, a), fb = rl_hm_in(mode, b);
      unordered = fa != fa || fb != fb;
      order = fa < fb ? -1 : fa > fb ? 1 : 0;
      break;
    }
    case T_F64: {
      double da = rl_hm_d(a), db = rl_hm_d(b);
      unordered = da != da || db != db;
      order = da < db ? -1 : da > db ? 1 : 0;
      break;
    }
    case T_I32: order = rl_hm_s32((uint32_t)a) < rl_hm_s32((uint32_t)b) ? -1
                        : rl_hm_s32((uint32_t)a) > rl_hm_s32((uint32_t)b) ? 1 : 0;
      break;
    case T_U32: order = (uint32_t)a < (uint32_t)b ? -1 : (uint32_t)a > (uint32_t)b;
      break;
    case T_F16: {
      double ha = rl_hm_h2d((uint32_t)a), hb = rl_hm_h2d((uint32_t)b);
      unordered = ha != ha || hb != hb;
      order = ha < hb ? -1 : ha > hb ? 1 : 0;
      break;
    }
    case T_I16: order = SX16(a) < SX16(b) ? -1 : SX16(a) > SX16(b);
      break;
    case T_U16: order = LO16(a) < LO16(b) ? -1 : LO16(a) > LO16(b);
      break;
    case T_I64: order = (int64_t)a < (int64_t)b ? -1 : (int64_t)a > (int64_t)b;
      break;
    default: order = a < b ? -1 : a > b; break;
  }
  x->cout = rl_hm_cond(c->cond, order, unordered);
}

static bool rl_hm_parse_compare(const char* name, rl_hm_op_t* out) {
  rl_hm_cmp_t c = {{0}, 0, false};
  const char* rest = NULL;
  bool vector = false, cmpx = false;
  if (!strncmp(name, "v_cmpx_", 7)) rest = name + 7, vector = cmpx = true;
  else if (!strncmp(name, "v_cmp_", 6)) rest = name + 6, vector = true;
  else if (!strncmp(name, "s_cmpk_", 7)) rest = name + 7, c.sopk = true;
  else if (!strncmp(name, "s_cmp_", 6)) rest = name + 6;
  else return false;
  const char* us = strchr(rest, '_');
  if (us == NULL || us - rest >= (long)sizeof(c.cond)) return false;
  memcpy(c.cond, rest, (size_t)(us - rest));
  static const char* const types[] = {"f32", "f64", "i32", "u32", "i64",
                                      "u64", "i16", "u16", "f16"};
  c.type = -1;
  for (int t = 0; t < 9; ++t) {
    if (!strcmp(us + 1, types[t])) c.type = t;
  }
  if (c.type < 0) return false;
  bool is_float = c.type <= T_F64 || c.type == T_F16;
  if (!rl_hm_cond_known(c.cond, is_float)) return false;
  if (c.type >= T_I16 && !vector) return false;
  if (!is_float && !strcmp(c.cond, "lg") && vector) return false;
  if (!is_float && !strcmp(c.cond, "ne") && !vector) return false;
  bool wide = c.type == T_F64 || c.type == T_I64 || c.type == T_U64;
  uint32_t wbits = wide ? (W0 | W1) : c.type == T_F16 ? (H0 | H1) : 0;
  rl_hm_op_t op = {name, 2, (uint8_t)wbits,
                   (uint8_t)(is_float ? (F0 | F1) : 0),
                   (uint16_t)(RL_HM_CMP | (cmpx ? RL_HM_CMPX : 0) |
                              (vector ? RL_HM_COUT
                                      : RL_HM_SALU | SCCO | RL_HM_NO_DST) |
                              (c.sopk ? RL_HM_SOPK : 0) |
                              (!vector && c.type == T_F32 ? RL_HM_SALU_FLOAT
                                                          : 0)),
                   hm_compare, rl_hm_cmp_encode(&c)};
  *out = op;
  return true;
}

// gfx12 (RDNA4 guide) names of operations this model knows under their
// gfx11 name: the carry-out SALU adds ("_co_"), the 64-bit VOP3 mad, the
// clamped atomic subtract.
const char* rl_hm_gfx12_alias(const char* name) {
  static const char* const aliases[][2] = {
      {"s_add_co_u32", "s_add_u32"},       {"s_sub_co_u32", "s_sub_u32"},
      {"s_add_co_i32", "s_add_i32"},       {"s_sub_co_i32", "s_sub_i32"},
      {"s_add_co_ci_u32", "s_addc_u32"},   {"s_sub_co_ci_u32", "s_subb_u32"},
      {"s_addk_co_i32", "s_addk_i32"},     {"v_mad_co_u64_u32", "v_mad_u64_u32"},
      {"v_mad_co_i64_i32", "v_mad_i64_i32"},
      {"global_atomic_sub_clamp_u32", "global_atomic_csub_u32"},
  };
  for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); ++i) {
    if (!strcmp(aliases[i][0], name)) return aliases[i][1];
  }
  return name;
}

const rl_hm_op_t* rl_hm_find(const char* name) {
  name = rl_hm_gfx12_alias(name);
  for (size_t i = 0; i < sizeof(rl_hm_ops) / sizeof(rl_hm_ops[0]); ++i) {
    if (!strcmp(rl_hm_ops[i].name, name)) return &rl_hm_ops[i];
  }
  return rl_hm_parse_compare(name, &rl_hm_cmp_op) ? &rl_hm_cmp_op : NULL;
}

bool rl_hm_lookup(const char* name, rl_hm_op_t* out) {
  const char* alias = rl_hm_gfx12_alias(name);
  for (size_t i = 0; i < sizeof(rl_hm_ops) / sizeof(rl_hm_ops[0]); ++i) {
    if (!strcmp(rl_hm_ops[i].name, alias)) {
      *out = rl_hm_ops[i];
      return true;
    }
  }
  return rl_hm_parse_compare(name, out);
}

// ---------------------------------------------------------------------------
// Evaluation with modifiers, matching.

static uint64_t rl_hm_modify(const rl_hm_op_t* op, uint32_t n, uint64_t v,
                             bool abs, bool neg) {
  uint64_t sign = (op->wide >> n) & 1 ? 1ull << 63
                  : (op->wide & RL_HM_H16_SRC(n)) ? 1ull << 15 : 1ull << 31;
  if (abs) v &= ~sign;
  if (neg) v ^= sign;
  return v;
}

void rl_hm_eval(const rl_hm_op_t* op, uint32_t mode, uint32_t abs,
                uint32_t neg, bool clamp, rl_hm_lane_t* x) {
  for (uint32_t n = 0; n < 3; ++n) {
    if (!((op->fp >> n) & 1)) continue;
    x->s[n] = rl_hm_modify(op, n, x->s[n], (abs >> n) & 1, (neg >> n) & 1);
  }
  x->clamp = clamp && (op->flags & RL_HM_ICLAMP);
  op->fn(op, mode, x);
  if (clamp && (op->fp & (1u << RL_HM_DST_BIT))) {
    x->d = rl_hm_clamp_f32(mode, (uint32_t)x->d);
  }
}

uint32_t rl_hm_clamp_f32(uint32_t mode, uint32_t d) {
  if (rl_hm_nan(d)) {
    if (mode & RL_HM_MODE_DX10) d = 0;
  } else if (rl_hm_f(d) <= 0.0f) {
    d = 0;
  } else if (rl_hm_f(d) > 1.0f) {
    d = 0x3f800000u;
  }
  return d;
}

static bool rl_hm_nan64(uint64_t v) {
  return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
         (v & 0x000fffffffffffffull) != 0;
}

bool rl_hm_match(const rl_hm_op_t* op, uint32_t mode, uint64_t want,
                 uint64_t got) {
  (void)mode;
  bool wide = (op->wide >> RL_HM_DST_BIT) & 1;
  if (!wide) want = (uint32_t)want, got = (uint32_t)got;
  if (want == got) return true;
  if ((op->flags & RL_HM_PACKED) && (op->flags & RL_HM_NAN_ANY)) {
    for (uint32_t half = 0; half < 2; ++half) {
      uint32_t w = (uint32_t)(want >> (16 * half)) & 0xffff;
      uint32_t g = (uint32_t)(got >> (16 * half)) & 0xffff;
      if (w != g && !(rl_hm_nan16(w) && rl_hm_nan16(g))) return false;
    }
    return (want >> 32) == (got >> 32);
  }
  if (op->wide & RL_HM_H16_DST) {
    return (op->flags & RL_HM_NAN_ANY) && (want >> 16) == (got >> 16) &&
           rl_hm_nan16((uint32_t)want) && rl_hm_nan16((uint32_t)got);
  }
  if (op->flags & RL_HM_NAN_ANY) {
    if (wide ? rl_hm_nan64(want) && rl_hm_nan64(got)
             : rl_hm_nan((uint32_t)want) && rl_hm_nan((uint32_t)got)) {
      return true;
    }
  }
  if ((op->flags & RL_HM_TRANS) && wide) {  // binary64: 1 ulp
    if ((want ^ got) >> 63) return false;
    uint64_t mw = want & ~(1ull << 63), mg = got & ~(1ull << 63);
    if (mw >= 0x7ff0000000000000ull || mg >= 0x7ff0000000000000ull) return false;
    return mw + 1 == mg || mg + 1 == mw;
  }
  if (op->flags & RL_HM_TRANS) {
    uint32_t w = (uint32_t)want, g = (uint32_t)got;
    if ((w >> 31) != (g >> 31) && ((w | g) & 0x7fffffffu) != 0) return false;
    uint32_t mw = w & 0x7fffffffu, mg = g & 0x7fffffffu;
    if (mw == 0x7f800000u || mg == 0x7f800000u) return false;  // inf exact
    if (mw + 1 == mg || mg + 1 == mw) return true;               // 1 ulp
    // A result in (or rounding to) the denormal range may be flushed.
    if ((mw < 0x00800000u || mw == 0x00800000u) && (mg == 0 || mg <= 0x00800000u)) {
      return true;
    }
    return false;
  }
  return false;
}

uint32_t rl_hm_packed(const rl_hm_op_t* op, uint32_t mode, uint32_t a,
                      uint32_t b) {
  a &= 0xffff;
  b &= 0xffff;
  mode &= ~RL_HM_MODE_FTZ32;  // binary16 denormals are always kept
  switch (op->arg) {
    case PK_ADD_F16: return rl_hm_d2h(rl_hm_h2d(a) + rl_hm_h2d(b));
    case PK_MUL_F16: return rl_hm_d2h(rl_hm_h2d(a) * rl_hm_h2d(b));
    case PK_MIN_F16:
    case PK_MAX_F16:
      return rl_hm_f2h_bits(rl_hm_minmax(mode, rl_hm_h2f_bits(a),
                                         rl_hm_h2f_bits(b),
                                         op->arg == PK_MAX_F16));
    case PK_MIN_NUM_F16:
    case PK_MAX_NUM_F16:
      return rl_hm_f2h_bits(rl_hm_minmax(RL_HM_NUM(mode), rl_hm_h2f_bits(a),
                                         rl_hm_h2f_bits(b),
                                         op->arg == PK_MAX_NUM_F16));
    case PK_MUL_LO: return (a * b) & 0xffff;
    case PK_ADD: return (a + b) & 0xffff;
    case PK_SUB: return (a - b) & 0xffff;
    case PK_LSHL: return (b << (a & 15)) & 0xffff;
    case PK_LSHR: return b >> (a & 15);
    case PK_MAX_U: return a > b ? a : b;
    default: return a < b ? a : b;
  }
}
