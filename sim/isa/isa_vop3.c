// sim/isa/isa_vop3.c — lane kernels and opcode tables of the
// VOP3-only operations, the compares (VOPC, whose VOP3 forms share the
// table) and the packed 16-bit integer operations (VOP3P).
//
// Sources: opcodes from LLVM VOP3Instructions.td, VOPCInstructions.td and
// VOP3PInstructions.td (gfx11), confirmed with llvm-mc-19 -mcpu=gfx1100 by
// tests/unit/sim/isa/isa_decode_test.c; semantics from the RDNA3 ISA guide
// ("Vector ALU Operations"). Compare conditions: isa_float.h.
#include "sim/isa/isa_lanes.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static uint32_t rl_isa_field_mask(uint32_t width) {
  return width >= 32 ? 0xffffffffu : (1u << width) - 1u;
}

// v_bfe_i32: the sign-extended field of width c[4:0] at offset b[4:0].
static uint32_t rl_isa_bfe_i32(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t width = c & 31, field = (a >> (b & 31)) & rl_isa_field_mask(width);
  if (width == 0) return 0;
  if ((field >> (width - 1)) & 1) field |= ~rl_isa_field_mask(width);
  return field;
}

static uint32_t rl_isa_med3_i32(int32_t a, int32_t b, int32_t c) {
  int32_t lo = a < b ? a : b, hi = a < b ? b : a;
  return (uint32_t)(c < lo ? lo : c > hi ? hi : c);
}

static uint32_t rl_isa_med3_u32(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
  return c < lo ? lo : c > hi ? hi : c;
}

static int64_t rl_isa_i24x(uint32_t x) { return (int32_t)(x << 8) >> 8; }

RL_ISA_U32(rl_isa_v_lshl_or_b32, (a << (b & 31)) | c)
RL_ISA_U32(rl_isa_v_lshl_add_u32, (a << (b & 31)) + c)
RL_ISA_U32(rl_isa_v_add_lshl_u32, (a + b) << (c & 31))
RL_ISA_U32(rl_isa_v_and_or_b32, (a & b) | c)
RL_ISA_U32(rl_isa_v_or3_b32, a | b | c)
RL_ISA_U32(rl_isa_v_xor3_b32, a ^ b ^ c)
RL_ISA_U32(rl_isa_v_xad_u32, (a ^ b) + c)
RL_ISA_U32(rl_isa_v_add3_u32, a + b + c)
RL_ISA_U32(rl_isa_v_bfe_u32, (a >> (b & 31)) & rl_isa_field_mask(c & 31))
RL_ISA_U32(rl_isa_v_bfe_i32, rl_isa_bfe_i32(a, b, c))
RL_ISA_U32(rl_isa_v_bfi_b32, (a & b) | (~a & c))
RL_ISA_U32(rl_isa_v_mad_u32_u24, (uint64_t)(a & 0xffffff) * (b & 0xffffff) + c)
RL_ISA_U32(rl_isa_v_mad_i32_i24,
           (uint64_t)(rl_isa_i24x(a) * rl_isa_i24x(b)) + c)
RL_ISA_U32(rl_isa_v_mul_lo_u32, (uint64_t)a * b)
RL_ISA_U32(rl_isa_v_mul_hi_u32, ((uint64_t)a * b) >> 32)
RL_ISA_U32(rl_isa_v_mul_hi_i32,
           (uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32)
RL_ISA_U32(rl_isa_v_alignbit_b32, (((uint64_t)a << 32) | b) >> (c & 31))
RL_ISA_U32(rl_isa_v_min3_u32, (a < b ? a : b) < c ? (a < b ? a : b) : c)
RL_ISA_U32(rl_isa_v_max3_u32, (a > b ? a : b) > c ? (a > b ? a : b) : c)
RL_ISA_U32(rl_isa_v_med3_i32, rl_isa_med3_i32((int32_t)a, (int32_t)b,
                                              (int32_t)c))
RL_ISA_U32(rl_isa_v_med3_u32, rl_isa_med3_u32(a, b, c))
RL_ISA_U32(rl_isa_v_bcnt_u32_b32, (uint32_t)__builtin_popcount(a) + b)
RL_ISA_U32_CARRY(rl_isa_v_add_co_u32,
                 uint64_t r = (uint64_t)a + b;
                 result = (uint32_t)r; carry = (uint32_t)(r >> 32))
RL_ISA_U32_CARRY(rl_isa_v_sub_co_u32,
                 result = a - b; carry = a < b)
RL_ISA_U32_CARRY(rl_isa_v_subrev_co_u32,
                 result = b - a; carry = b < a)

// v_mbcnt_lo/hi_u32_b32: S1 plus the number of set bits of S0 below this
// lane in the low / high 32 lanes of a 64-lane mask; in wave32 every lane
// is below 32, so the hi form counts nothing and returns S1.
RL_ISA_U32(rl_isa_v_mbcnt_lo, (uint32_t)__builtin_popcount(a & ((1u << l) - 1u)) + b)
RL_ISA_U32(rl_isa_v_mbcnt_hi, b)

// v_perm_b32: byte i of D is selected by byte i of S2 from the 8 bytes of
// {S0, S1} (S1 the low dword): 0-7 a byte, 8-11 the sign of byte 1, 3, 5,
// 7 replicated, 12 zero, 13 and up 0xff (RDNA3 ISA guide, V_PERM_B32).
static uint32_t rl_isa_perm_byte(uint64_t data, uint32_t sel) {
  if (sel >= 13) return 0xff;
  if (sel == 12) return 0;
  if (sel >= 8) return ((data >> (16 * (sel - 8) + 15)) & 1) ? 0xff : 0;
  return (uint32_t)(data >> (8 * sel)) & 0xff;
}
static uint32_t rl_isa_perm(uint32_t a, uint32_t b, uint32_t c) {
  uint64_t data = (uint64_t)a << 32 | b;
  uint32_t r = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    r |= rl_isa_perm_byte(data, (c >> (8 * i)) & 0xff) << (8 * i);
  }
  return r;
}
RL_ISA_U32(rl_isa_v_perm_b32, rl_isa_perm(a, b, c))

// v_add_nc_i32 / v_sub_nc_i32: wrap, or saturate to the signed range when
// the VOP3 CLAMP bit is set (LLVM's sadd.sat / ssub.sat).
static uint32_t rl_isa_addsub_i32(uint32_t a, uint32_t b, bool sub,
                                  bool clamp) {
  int64_t r = sub ? (int64_t)(int32_t)a - (int32_t)b
                  : (int64_t)(int32_t)a + (int32_t)b;
  if (clamp && r > INT32_MAX) return (uint32_t)INT32_MAX;
  if (clamp && r < INT32_MIN) return (uint32_t)INT32_MIN;
  return (uint32_t)r;
}
RL_ISA_U32(rl_isa_v_add_nc_i32, rl_isa_addsub_i32(a, b, false, v->clamp))
RL_ISA_U32(rl_isa_v_sub_nc_i32, rl_isa_addsub_i32(a, b, true, v->clamp))

static int32_t rl_isa_min_i32(int32_t a, int32_t b) { return a < b ? a : b; }
static int32_t rl_isa_max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static void rl_isa_v_min3_i32_lanes(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    int32_t m = rl_isa_min_i32((int32_t)v->s[0][l], (int32_t)v->s[1][l]);
    v->d[l] = (uint32_t)rl_isa_min_i32(m, (int32_t)v->s[2][l]);
  }
}
static void rl_isa_v_max3_i32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    int32_t m = rl_isa_max_i32((int32_t)v->s[0][l], (int32_t)v->s[1][l]);
    v->d[l] = (uint32_t)rl_isa_max_i32(m, (int32_t)v->s[2][l]);
  }
}

// v_maxmin: D = min(max(S0, S1), S2); v_minmax: D = max(min(S0, S1), S2)
// (RDNA3 ISA, "VOP3 Opcodes": V_MAXMIN_I32/U32, V_MINMAX_I32/U32; clang
// emits them for a clamp such as min(max(x, lo), hi)).
static void rl_isa_v_maxmin_i32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    int32_t m = rl_isa_max_i32((int32_t)v->s[0][l], (int32_t)v->s[1][l]);
    v->d[l] = (uint32_t)rl_isa_min_i32(m, (int32_t)v->s[2][l]);
  }
}
static void rl_isa_v_minmax_i32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    int32_t m = rl_isa_min_i32((int32_t)v->s[0][l], (int32_t)v->s[1][l]);
    v->d[l] = (uint32_t)rl_isa_max_i32(m, (int32_t)v->s[2][l]);
  }
}
static uint32_t rl_isa_min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }
static uint32_t rl_isa_max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }
static void rl_isa_v_maxmin_u32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    v->d[l] = rl_isa_min_u32(rl_isa_max_u32(v->s[0][l], v->s[1][l]),
                             v->s[2][l]);
  }
}
static void rl_isa_v_minmax_u32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    v->d[l] = rl_isa_max_u32(rl_isa_min_u32(v->s[0][l], v->s[1][l]),
                             v->s[2][l]);
  }
}

// 64-bit shifts: a is the shift count (low 6 bits), b the 64-bit value.
RL_ISA_U64(rl_isa_v_lshlrev_b64, b << (a & 63))
RL_ISA_U64(rl_isa_v_lshrrev_b64, b >> (a & 63))
RL_ISA_U64(rl_isa_v_ashrrev_i64, (uint64_t)((int64_t)b >> (a & 63)))

// v_mad_u64_u32 / v_mad_i64_i32: D = S0 * S1 + S2 in 64 bits; the SGPR
// destination receives the carry out of bit 63 (unsigned) or the signed
// overflow of the addition.
static void rl_isa_v_mad_64_32(rl_isa_valu_t* v, bool is_signed) {
  uint32_t out = 0;
  RL_ISA_LANE_LOOP {
    uint64_t c = v->s[2][l] | (uint64_t)v->hi[2][l] << 32;
    uint64_t p = is_signed ? (uint64_t)((int64_t)(int32_t)v->s[0][l] *
                                        (int32_t)v->s[1][l])
                           : (uint64_t)v->s[0][l] * v->s[1][l];
    uint64_t r = p + c;
    uint32_t carry = is_signed ? (uint32_t)((~(p ^ c) & (p ^ r)) >> 63)
                               : r < p;
    v->d[l] = (uint32_t)r;
    v->d_hi[l] = (uint32_t)(r >> 32);
    out |= carry << l;
  }
  v->mask_out = out;
}
static void rl_isa_v_mad_u64_u32(rl_isa_valu_t* v) { rl_isa_v_mad_64_32(v, false); }
static void rl_isa_v_mad_i64_i32(rl_isa_valu_t* v) { rl_isa_v_mad_64_32(v, true); }

// Float.
RL_ISA_F32_FMA(rl_isa_v_fma_f32_3, fmaf(a, b, c))
// The exponent is an integer: read it unflushed (B[l], not b).
RL_ISA_F32(rl_isa_v_ldexp_f32, ldexpf(a, (int32_t)B[l]))
RL_ISA_F64(rl_isa_v_add_f64, a + b)
RL_ISA_F64(rl_isa_v_mul_f64, a * b)
RL_ISA_F64(rl_isa_v_fma_f64, fma(a, b, c))

static void rl_isa_v_minmax3_f32(rl_isa_valu_t* v, bool max) {
  bool ftz = (v->mode & RL_ISA_MODE_FTZ32) != 0;
  bool ieee = (v->mode & RL_ISA_MODE_IEEE) != 0;
  RL_ISA_LANE_LOOP {
    uint32_t a = v->s[0][l], b = v->s[1][l], c = v->s[2][l];
    if (ftz) a = rl_isa_flush32(a), b = rl_isa_flush32(b), c = rl_isa_flush32(c);
    v->d[l] = rl_isa_minmax32(rl_isa_minmax32(a, b, max, ieee), c, max, ieee);
  }
}
static void rl_isa_v_min3_f32(rl_isa_valu_t* v) { rl_isa_v_minmax3_f32(v, false); }
static void rl_isa_v_max3_f32(rl_isa_valu_t* v) { rl_isa_v_minmax3_f32(v, true); }

#define SD RL_ISA_F_SDST

static const rl_isa_op_t rl_isa_vop3_ops[] = {
    RL_ISA_V(0x20a, "v_mad_i32_i24", 0, B32, B32, B32, B32, rl_isa_v_mad_i32_i24),
    RL_ISA_V(0x20b, "v_mad_u32_u24", 0, B32, B32, B32, B32, rl_isa_v_mad_u32_u24),
    RL_ISA_V(0x210, "v_bfe_u32", 0, B32, B32, B32, B32, rl_isa_v_bfe_u32),
    RL_ISA_V(0x211, "v_bfe_i32", 0, B32, B32, B32, B32, rl_isa_v_bfe_i32),
    RL_ISA_V(0x212, "v_bfi_b32", 0, B32, B32, B32, B32, rl_isa_v_bfi_b32),
    RL_ISA_V(0x213, "v_fma_f32", 0, F32, F32, F32, F32, rl_isa_v_fma_f32_3),
    RL_ISA_V(0x214, "v_fma_f64", 0, F64, F64, F64, F64, rl_isa_v_fma_f64),
    RL_ISA_V(0x216, "v_alignbit_b32", 0, B32, B32, B32, B32,
             rl_isa_v_alignbit_b32),
    RL_ISA_V(0x219, "v_min3_f32", 0, F32, F32, F32, F32, rl_isa_v_min3_f32),
    RL_ISA_V(0x21a, "v_min3_i32", 0, B32, B32, B32, B32,
             rl_isa_v_min3_i32_lanes),
    RL_ISA_V(0x21b, "v_min3_u32", 0, B32, B32, B32, B32, rl_isa_v_min3_u32),
    RL_ISA_V(0x21c, "v_max3_f32", 0, F32, F32, F32, F32, rl_isa_v_max3_f32),
    RL_ISA_V(0x21d, "v_max3_i32", 0, B32, B32, B32, B32, rl_isa_v_max3_i32),
    RL_ISA_V(0x21e, "v_max3_u32", 0, B32, B32, B32, B32, rl_isa_v_max3_u32),
    RL_ISA_V(0x220, "v_med3_i32", 0, B32, B32, B32, B32, rl_isa_v_med3_i32),
    RL_ISA_V(0x221, "v_med3_u32", 0, B32, B32, B32, B32, rl_isa_v_med3_u32),
    RL_ISA_V(0x240, "v_xor3_b32", 0, B32, B32, B32, B32, rl_isa_v_xor3_b32),
    RL_ISA_V(0x244, "v_perm_b32", 0, B32, B32, B32, B32, rl_isa_v_perm_b32),
    RL_ISA_V(0x245, "v_xad_u32", 0, B32, B32, B32, B32, rl_isa_v_xad_u32),
    RL_ISA_V(0x246, "v_lshl_add_u32", 0, B32, B32, B32, B32,
             rl_isa_v_lshl_add_u32),
    RL_ISA_V(0x247, "v_add_lshl_u32", 0, B32, B32, B32, B32,
             rl_isa_v_add_lshl_u32),
    RL_ISA_V(0x255, "v_add3_u32", 0, B32, B32, B32, B32, rl_isa_v_add3_u32),
    RL_ISA_V(0x256, "v_lshl_or_b32", 0, B32, B32, B32, B32,
             rl_isa_v_lshl_or_b32),
    RL_ISA_V(0x257, "v_and_or_b32", 0, B32, B32, B32, B32, rl_isa_v_and_or_b32),
    RL_ISA_V(0x258, "v_or3_b32", 0, B32, B32, B32, B32, rl_isa_v_or3_b32),
    RL_ISA_V(0x262, "v_maxmin_u32", 0, B32, B32, B32, B32, rl_isa_v_maxmin_u32),
    RL_ISA_V(0x263, "v_minmax_u32", 0, B32, B32, B32, B32, rl_isa_v_minmax_u32),
    RL_ISA_V(0x264, "v_maxmin_i32", 0, B32, B32, B32, B32, rl_isa_v_maxmin_i32),
    RL_ISA_V(0x265, "v_minmax_i32", 0, B32, B32, B32, B32, rl_isa_v_minmax_i32),
    RL_ISA_V(0x2fe, "v_mad_u64_u32", SD, B64, B32, B32, B64,
             rl_isa_v_mad_u64_u32),
    RL_ISA_V(0x2ff, "v_mad_i64_i32", SD, B64, B32, B32, B64,
             rl_isa_v_mad_i64_i32),
    RL_ISA_V(0x300, "v_add_co_u32", SD, B32, B32, B32, NO, rl_isa_v_add_co_u32),
    RL_ISA_V(0x301, "v_sub_co_u32", SD, B32, B32, B32, NO, rl_isa_v_sub_co_u32),
    RL_ISA_V(0x302, "v_subrev_co_u32", SD, B32, B32, B32, NO,
             rl_isa_v_subrev_co_u32),
    RL_ISA_V(0x31c, "v_ldexp_f32", 0, F32, F32, B32, NO, rl_isa_v_ldexp_f32),
    RL_ISA_V(0x31e, "v_bcnt_u32_b32", 0, B32, B32, B32, NO,
             rl_isa_v_bcnt_u32_b32),
    RL_ISA_V(0x31f, "v_mbcnt_lo_u32_b32", 0, B32, B32, B32, NO,
             rl_isa_v_mbcnt_lo),
    RL_ISA_V(0x320, "v_mbcnt_hi_u32_b32", 0, B32, B32, B32, NO,
             rl_isa_v_mbcnt_hi),
    RL_ISA_V(0x325, "v_sub_nc_i32", RL_ISA_F_INT_CLAMP, B32, B32, B32, NO,
             rl_isa_v_sub_nc_i32),
    RL_ISA_V(0x326, "v_add_nc_i32", RL_ISA_F_INT_CLAMP, B32, B32, B32, NO,
             rl_isa_v_add_nc_i32),
    RL_ISA_V(0x327, "v_add_f64", 0, F64, F64, F64, NO, rl_isa_v_add_f64),
    RL_ISA_V(0x328, "v_mul_f64", 0, F64, F64, F64, NO, rl_isa_v_mul_f64),
    RL_ISA_V(0x32c, "v_mul_lo_u32", 0, B32, B32, B32, NO, rl_isa_v_mul_lo_u32),
    RL_ISA_V(0x32d, "v_mul_hi_u32", 0, B32, B32, B32, NO, rl_isa_v_mul_hi_u32),
    RL_ISA_V(0x32e, "v_mul_hi_i32", 0, B32, B32, B32, NO, rl_isa_v_mul_hi_i32),
    RL_ISA_V(0x33c, "v_lshlrev_b64", 0, B64, B32, B64, NO,
             rl_isa_v_lshlrev_b64),
    RL_ISA_V(0x33d, "v_lshrrev_b64", 0, B64, B32, B64, NO,
             rl_isa_v_lshrrev_b64),
    RL_ISA_V(0x33e, "v_ashrrev_i64", 0, B64, B32, B64, NO,
             rl_isa_v_ashrrev_i64),
    RL_ISA_OP(0x360, "v_readlane_b32", 0, B32, B32, B32, NO, 0,
              rl_isa_exec_readlane, NULL),
    RL_ISA_OP(0x361, "v_writelane_b32", 0, B32, B32, B32, NO, 0,
              rl_isa_exec_writelane, NULL),
};

// Compares: the condition is the low bits of the opcode (isa_float.h);
// arg bit 4 marks unsigned. The 32-bit integer and binary32 compares have
// one kernel per condition (no switch inside the lane loop), each the
// condition of rl_isa_cmp_int / rl_isa_cmp_float on the same values (a
// binary32 compare in float equals the one in double: the widening is
// exact); the 64-bit ones take the condition from arg.
// The lanes' results go to a row of 0 / -1 words first (a loop the
// compiler vectorises), then into the mask, four lanes per movmskps where
// SSE2 is there.
static inline uint32_t rl_isa_vcmp_pack(const int32_t* row) {
  uint32_t out = 0;
#if defined(__SSE2__)
  for (uint32_t i = 0; i < RL_ISA_LANES / 4; ++i) {
    __m128 quad =
        _mm_castsi128_ps(_mm_loadu_si128((const __m128i*)(row + 4 * i)));
    out |= (uint32_t)_mm_movemask_ps(quad) << (4 * i);
  }
#else
  RL_ISA_LANE_LOOP { out |= ((uint32_t)row[l] & 1u) << l; }
#endif
  return out;
}
#define RL_ISA_VCMP_LOOP(load, expr)                                \
  {                                                                 \
    int32_t row[RL_ISA_LANES];                                      \
    RL_ISA_LANE_LOOP {                                              \
      load;                                                         \
      row[l] = -(int32_t)(expr);                                    \
    }                                                               \
    out = rl_isa_vcmp_pack(row);                                    \
  }
#define RL_ISA_VCMP_I32(name, T, expr)                              \
  static void name(rl_isa_valu_t* v) {                              \
    const uint32_t *s0 = v->s[0], *s1 = v->s[1];                    \
    uint32_t out = 0;                                               \
    RL_ISA_VCMP_LOOP(T a = (T)s0[l]; T b = (T)s1[l], expr)          \
    v->mask_out = out;                                              \
  }
#define RL_ISA_VCMP_F32(name, expr)                                        \
  static void name(rl_isa_valu_t* v) {                                     \
    const uint32_t *s0 = v->s[0], *s1 = v->s[1];                           \
    uint32_t out = 0;                                                      \
    if (v->mode & RL_ISA_MODE_FTZ32) {                                     \
      RL_ISA_VCMP_LOOP(float a = rl_isa_f32(rl_isa_flush32(s0[l]));        \
                       float b = rl_isa_f32(rl_isa_flush32(s1[l])), expr)  \
    } else {                                                               \
      RL_ISA_VCMP_LOOP(float a = rl_isa_f32(s0[l]);                        \
                       float b = rl_isa_f32(s1[l]), expr)                  \
    }                                                                      \
    v->mask_out = out;                                                     \
  }
// The constant conditions F and T of every type.
static void rl_isa_vcmp_false(rl_isa_valu_t* v) { v->mask_out = 0; }
static void rl_isa_vcmp_true(rl_isa_valu_t* v) { v->mask_out = RL_ISA_ALL_LANES; }
RL_ISA_VCMP_I32(rl_isa_vcmp_i32_lt, int32_t, a < b)
RL_ISA_VCMP_I32(rl_isa_vcmp_i32_eq, int32_t, a == b)
RL_ISA_VCMP_I32(rl_isa_vcmp_i32_le, int32_t, a <= b)
RL_ISA_VCMP_I32(rl_isa_vcmp_i32_gt, int32_t, a > b)
RL_ISA_VCMP_I32(rl_isa_vcmp_i32_ne, int32_t, a != b)
RL_ISA_VCMP_I32(rl_isa_vcmp_i32_ge, int32_t, a >= b)
RL_ISA_VCMP_I32(rl_isa_vcmp_u32_lt, uint32_t, a < b)
RL_ISA_VCMP_I32(rl_isa_vcmp_u32_le, uint32_t, a <= b)
RL_ISA_VCMP_I32(rl_isa_vcmp_u32_gt, uint32_t, a > b)
RL_ISA_VCMP_I32(rl_isa_vcmp_u32_ge, uint32_t, a >= b)
#define rl_isa_vcmp_u32_eq rl_isa_vcmp_i32_eq
#define rl_isa_vcmp_u32_ne rl_isa_vcmp_i32_ne
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_lt, a < b)
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_eq, a == b)
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_le, a <= b)
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_gt, a > b)
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_lg, !isnan(a) && !isnan(b) && a != b)
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_ge, a >= b)
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_o, !isnan(a) && !isnan(b))
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_u, isnan(a) || isnan(b))
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_nge, !(a >= b))
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_nlg, isnan(a) || isnan(b) || a == b)
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_ngt, !(a > b))
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_nle, !(a <= b))
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_neq, !(a == b))
RL_ISA_VCMP_F32(rl_isa_vcmp_f32_nlt, !(a < b))

// Lane |l| of the 64-bit source |n| (low dword and high dword), as bits,
// signed and f64.
#define RL_ISA_LANE_U64(v, n, l) \
  ((v)->s[n][l] | (uint64_t)(v)->hi[n][l] << 32)
#define RL_ISA_LANE_I64(v, n, l) (int64_t)RL_ISA_LANE_U64(v, n, l)
#define RL_ISA_LANE_F64(v, n, l) rl_isa_f64(RL_ISA_LANE_U64(v, n, l))
RL_ISA_VCMP_FLOAT(rl_isa_vcmp_f64, RL_ISA_LANE_F64)
RL_ISA_VCMP_INT(rl_isa_vcmp_i64, RL_ISA_LANE_U64, RL_ISA_LANE_I64)

#define VC(opc, name, flags, t, arg, fn) \
  RL_ISA_OP(opc, name, flags, NO, t, t, NO, arg, rl_isa_exec_vopc, fn)
// The 16 float conditions (F LT EQ LE GT LG GE O U NGE NLG NGT NLE NEQ NLT T)
// with one kernel for all (fn) or one per condition (fn##_lt ...).
#define VC_FLOAT_WITH(base, p, sfx, flags, t, f, lt, eq, le, gt, lg, ge, o, \
                      u, nge, nlg, ngt, nle, neq, nlt, tr)                  \
  VC(base + 0, p "f_" sfx, flags, t, 0, f),                                  \
      VC(base + 1, p "lt_" sfx, flags, t, 1, lt),                             \
      VC(base + 2, p "eq_" sfx, flags, t, 2, eq),                             \
      VC(base + 3, p "le_" sfx, flags, t, 3, le),                             \
      VC(base + 4, p "gt_" sfx, flags, t, 4, gt),                             \
      VC(base + 5, p "lg_" sfx, flags, t, 5, lg),                             \
      VC(base + 6, p "ge_" sfx, flags, t, 6, ge),                             \
      VC(base + 7, p "o_" sfx, flags, t, 7, o),                               \
      VC(base + 8, p "u_" sfx, flags, t, 8, u),                               \
      VC(base + 9, p "nge_" sfx, flags, t, 9, nge),                           \
      VC(base + 10, p "nlg_" sfx, flags, t, 10, nlg),                         \
      VC(base + 11, p "ngt_" sfx, flags, t, 11, ngt),                         \
      VC(base + 12, p "nle_" sfx, flags, t, 12, nle),                         \
      VC(base + 13, p "neq_" sfx, flags, t, 13, neq),                         \
      VC(base + 14, p "nlt_" sfx, flags, t, 14, nlt),                         \
      VC(base + 15, p "t_" sfx, flags, t, 15, tr)
#define VC_FLOAT(base, p, sfx, flags, t, fn)                                  \
  VC_FLOAT_WITH(base, p, sfx, flags, t, fn, fn, fn, fn, fn, fn, fn, fn, fn,   \
                fn, fn, fn, fn, fn, fn, fn)
#define VC_FLOAT_EACH(base, p, sfx, flags, t, k)                             \
  VC_FLOAT_WITH(base, p, sfx, flags, t, rl_isa_vcmp_false, k##_lt, k##_eq,   \
                k##_le, k##_gt, k##_lg, k##_ge, k##_o, k##_u, k##_nge,       \
                k##_nlg, k##_ngt, k##_nle, k##_neq, k##_nlt, rl_isa_vcmp_true)
// The 8 integer conditions (F LT EQ LE GT NE GE T); |u| is 16 for unsigned.
#define VC_INT_WITH(base, p, sfx, flags, t, u, f, lt, eq, le, gt, ne, ge, tr) \
  VC(base + 0, p "f_" sfx, flags, t, (u) | 0, f),                             \
      VC(base + 1, p "lt_" sfx, flags, t, (u) | 1, lt),                       \
      VC(base + 2, p "eq_" sfx, flags, t, (u) | 2, eq),                       \
      VC(base + 3, p "le_" sfx, flags, t, (u) | 3, le),                       \
      VC(base + 4, p "gt_" sfx, flags, t, (u) | 4, gt),                       \
      VC(base + 5, p "ne_" sfx, flags, t, (u) | 5, ne),                       \
      VC(base + 6, p "ge_" sfx, flags, t, (u) | 6, ge),                       \
      VC(base + 7, p "t_" sfx, flags, t, (u) | 7, tr)
#define VC_INT(base, p, sfx, flags, t, u, fn) \
  VC_INT_WITH(base, p, sfx, flags, t, u, fn, fn, fn, fn, fn, fn, fn, fn)
#define VC_INT_EACH(base, p, sfx, flags, t, u, k)                          \
  VC_INT_WITH(base, p, sfx, flags, t, u, rl_isa_vcmp_false, k##_lt, k##_eq, \
              k##_le, k##_gt, k##_ne, k##_ge, rl_isa_vcmp_true)
#define VC_ALL(off, p, flags)                                                 \
  VC_FLOAT_EACH(0x10 + (off), p, "f32", flags, F32, rl_isa_vcmp_f32),         \
      VC_FLOAT(0x20 + (off), p, "f64", flags, F64, rl_isa_vcmp_f64),          \
      VC_INT_EACH(0x40 + (off), p, "i32", flags, B32, 0, rl_isa_vcmp_i32),    \
      VC_INT_EACH(0x48 + (off), p, "u32", flags, B32, 16, rl_isa_vcmp_u32),   \
      VC_INT(0x50 + (off), p, "i64", flags, B64, 0, rl_isa_vcmp_i64),         \
      VC_INT(0x58 + (off), p, "u64", flags, B64, 16, rl_isa_vcmp_i64)

// v_cmp_* at 0x10.., v_cmpx_* at 0x90.. (the same layout + 0x80).
static const rl_isa_op_t rl_isa_vopc_ops[] = {
    VC_ALL(0x00, "v_cmp_", 0),
    VC_ALL(0x80, "v_cmpx_", RL_ISA_F_CMPX),
};

// VOP3P packed 16-bit integer kernels: one 16-bit half at a time.
static uint32_t rl_isa_pk_add_u16(uint32_t a, uint32_t b, uint32_t c) {
  (void)c;
  return a + b;
}
static uint32_t rl_isa_pk_sub_u16(uint32_t a, uint32_t b, uint32_t c) {
  (void)c;
  return a - b;
}
static uint32_t rl_isa_pk_mul_lo_u16(uint32_t a, uint32_t b, uint32_t c) {
  (void)c;
  return a * b;
}
static uint32_t rl_isa_pk_lshlrev_b16(uint32_t a, uint32_t b, uint32_t c) {
  (void)c;
  return b << (a & 15);
}
static uint32_t rl_isa_pk_lshrrev_b16(uint32_t a, uint32_t b, uint32_t c) {
  (void)c;
  return (b & 0xffff) >> (a & 15);
}
static uint32_t rl_isa_pk_max_u16(uint32_t a, uint32_t b, uint32_t c) {
  (void)c;
  return a > b ? a : b;
}
static uint32_t rl_isa_pk_min_u16(uint32_t a, uint32_t b, uint32_t c) {
  (void)c;
  return a < b ? a : b;
}

#define VP(opc, name, fn) \
  RL_ISA_OP(opc, name, 0, B16, B16, B16, NO, 0, rl_isa_exec_vop3p, fn)

static const rl_isa_op_t rl_isa_vop3p_ops[] = {
    VP(0x01, "v_pk_mul_lo_u16", rl_isa_pk_mul_lo_u16),
    VP(0x02, "v_pk_add_i16", rl_isa_pk_add_u16),
    VP(0x04, "v_pk_lshlrev_b16", rl_isa_pk_lshlrev_b16),
    VP(0x05, "v_pk_lshrrev_b16", rl_isa_pk_lshrrev_b16),
    VP(0x0a, "v_pk_add_u16", rl_isa_pk_add_u16),
    VP(0x0b, "v_pk_sub_u16", rl_isa_pk_sub_u16),
    VP(0x0c, "v_pk_max_u16", rl_isa_pk_max_u16),
    VP(0x0d, "v_pk_min_u16", rl_isa_pk_min_u16),
};

RL_ISA_TABLE_CHAIN(rl_isa_table_vop3, rl_isa_vop3_ops, &rl_isa_table_vop3_16);
RL_ISA_TABLE_CHAIN(rl_isa_table_vopc, rl_isa_vopc_ops, &rl_isa_table_vopc_16);
RL_ISA_TABLE_CHAIN(rl_isa_table_vop3p, rl_isa_vop3p_ops, &rl_isa_table_vop3p_packed);
