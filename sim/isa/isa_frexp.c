// sim/isa/isa_frexp.c — the float decomposition opcodes LLVM's
// device math library (ocml: log, pow, frexp, sin/cos of large arguments)
// emits: v_frexp_mant and v_frexp_exp for binary32, binary64 and binary16,
// and v_trig_preop_f64, the 2/pi segment lookup of the large-argument
// trigonometric range reduction. Chained after the binary64 VOP1 and VOP3
// tables (isa_float64.c).
//
// Semantics (RDNA3 ISA guide, "Vector ALU Operations", V_FREXP_MANT_*,
// V_FREXP_EXP_*, V_TRIG_PREOP_F64):
//   - frexp_mant: +-inf and NaN return the source unchanged; otherwise the
//     significand scaled into [0.5, 1.0) with the source's sign (+-0 stays
//     +-0); frexp_exp: +-inf and NaN give 0, otherwise the exponent e with
//     S0 = mant * 2^e (0 for +-0). Denormal sources are normalised first
//     (C frexp); binary32 sources are flushed first under
//     FLOAT_DENORM_MODE_32 = 0, like every binary32 source (isa_float.h).
//   - trig_preop: shift = 53 * S1[4:0], plus exponent(S0) - 1077 when the
//     biased exponent of S0 is above 1077; the result is the 53-bit window
//     of the fraction bits of 2/pi that starts at fraction bit shift + 1,
//     at its own magnitude (2^(-53 - shift) times the window), scaled by
//     2^128 when the biased exponent of S0 is 1968 or more; rounding is
//     toward zero (a window that lands in the denormal range loses its low
//     bits). 2/pi has 1,201 fraction bits (the guide's 2/PI[1200:0]);
//     windows past them read zeros.
#include <math.h>

#include "sim/isa/isa_f16.h"
#include "sim/isa/isa_lanes.h"

#define F16 RL_ISA_T_F16

// The fraction bits of 2/pi, most significant first: 2/pi =
// 0.a2f9836e 4e441529 ... (hex). Computed with exact integer arithmetic
// from Machin's formula (pi = 16 atan(1/5) - 4 atan(1/239)); the leading
// words agree with the 24-bit table of fdlibm's k_rem_pio2.c (ipio2).
static const uint32_t rl_isa_two_over_pi[38] = {
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041,
    0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c,
    0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41,
    0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d,
    0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
    0x56033046, 0xfc7b6bab,
};

// Fraction bit |i| of 2/pi (bit 1 is the first after the point); the
// guide's constant has 1,201 bits (2/PI[1200:0]), the rest read as zero.
static uint64_t rl_isa_two_over_pi_bit(uint32_t i) {
  uint32_t k = i - 1;
  if (k >= 1201u) return 0;
  return (rl_isa_two_over_pi[k / 32] >> (31 - k % 32)) & 1u;
}

static double rl_isa_trig_preop(uint64_t s0, uint32_t segment) {
  uint32_t exponent = (uint32_t)(s0 >> 52) & 0x7ff;
  uint32_t shift = 53u * (segment & 31u);
  if (exponent > 1077) shift += exponent - 1077;
  uint64_t window = 0;
  for (uint32_t i = 1; i <= 53; ++i) {
    window = window << 1 | rl_isa_two_over_pi_bit(shift + i);
  }
  int scale = -53 - (int)shift + (exponent >= 1968 ? 128 : 0);
  if (window == 0) return 0.0;
  // Round toward zero below the normal range: keep the bits at or above
  // 2^-1074 (ldexp of the truncated window is then exact).
  int top = 63 - __builtin_clzll(window) + scale;  // exponent of the MSB
  if (top < -1022 && scale < -1074) {
    uint32_t drop = (uint32_t)(-1074 - scale);
    window = drop >= 64 ? 0 : window >> drop;
    scale = -1074;
  }
  return ldexp((double)window, scale);
}

static void rl_isa_v_trig_preop_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    uint64_t a = v->s[0][l] | (uint64_t)v->hi[0][l] << 32;
    uint64_t r = rl_isa_bits64(rl_isa_trig_preop(a, v->s[1][l]));
    v->d[l] = (uint32_t)r;
    v->d_hi[l] = (uint32_t)(r >> 32);
  }
}

static double rl_isa_frexp_mant(double x) {
  if (isinf(x) || isnan(x) || x == 0.0) return x;
  int e;
  return frexp(x, &e);
}

static int32_t rl_isa_frexp_exp(double x) {
  if (isinf(x) || isnan(x) || x == 0.0) return 0;
  int e;
  (void)frexp(x, &e);
  return e;
}

// binary32: NaN and inf pass through as bits (no quieting).
static uint32_t rl_isa_frexp_mant32(uint32_t bits, uint32_t mode) {
  if (mode & RL_ISA_MODE_FTZ32) bits = rl_isa_flush32(bits);
  if ((bits & 0x7f800000u) == 0x7f800000u) return bits;
  return rl_isa_bits32((float)rl_isa_frexp_mant((double)rl_isa_f32(bits)));
}

static void rl_isa_v_frexp_mant_f32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP { v->d[l] = rl_isa_frexp_mant32(v->s[0][l], v->mode); }
}

static void rl_isa_v_frexp_exp_i32_f32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    uint32_t bits = v->s[0][l];
    if (v->mode & RL_ISA_MODE_FTZ32) bits = rl_isa_flush32(bits);
    v->d[l] = (uint32_t)rl_isa_frexp_exp((double)rl_isa_f32(bits));
  }
}

static void rl_isa_v_frexp_mant_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    uint64_t a = v->s[0][l] | (uint64_t)v->hi[0][l] << 32;
    uint64_t r = (a & 0x7ff0000000000000ull) == 0x7ff0000000000000ull
                     ? a
                     : rl_isa_bits64(rl_isa_frexp_mant(rl_isa_f64(a)));
    v->d[l] = (uint32_t)r;
    v->d_hi[l] = (uint32_t)(r >> 32);
  }
}

static void rl_isa_v_frexp_exp_i32_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    uint64_t a = v->s[0][l] | (uint64_t)v->hi[0][l] << 32;
    v->d[l] = (uint32_t)rl_isa_frexp_exp(rl_isa_f64(a));
  }
}

// binary16 (low halves; the result keeps the destination's high half).
static void rl_isa_v_frexp_mant_f16(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    uint32_t h = v->s[0][l] & 0xffffu;
    uint32_t r = (h & 0x7c00u) == 0x7c00u
                     ? h
                     : rl_isa_f64_to_f16(rl_isa_frexp_mant(rl_isa_f16_to_f64(h)));
    v->d[l] = (v->old[l] & 0xffff0000u) | r;
  }
}

static void rl_isa_v_frexp_exp_i16_f16(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    uint32_t h = v->s[0][l] & 0xffffu;
    uint32_t r = (uint32_t)rl_isa_frexp_exp(rl_isa_f16_to_f64(h)) & 0xffffu;
    v->d[l] = (v->old[l] & 0xffff0000u) | r;
  }
}

#define V1(opc, name, flags, d, s, fn) RL_ISA_V(opc, name, flags, d, s, NO, NO, fn)
#define KEEP RL_ISA_F_KEEP_HI

static const rl_isa_op_t rl_isa_vop1_frexp_ops[] = {
    V1(0x3c, "v_frexp_exp_i32_f64", 0, B32, F64, rl_isa_v_frexp_exp_i32_f64),
    V1(0x3d, "v_frexp_mant_f64", 0, F64, F64, rl_isa_v_frexp_mant_f64),
    V1(0x3f, "v_frexp_exp_i32_f32", 0, B32, F32, rl_isa_v_frexp_exp_i32_f32),
    V1(0x40, "v_frexp_mant_f32", 0, F32, F32, rl_isa_v_frexp_mant_f32),
    V1(0x59, "v_frexp_mant_f16", KEEP, F16, F16, rl_isa_v_frexp_mant_f16),
    V1(0x5a, "v_frexp_exp_i16_f16", KEEP, B16, F16,
       rl_isa_v_frexp_exp_i16_f16),
};

static const rl_isa_op_t rl_isa_vop3_frexp_ops[] = {
    RL_ISA_V(0x32f, "v_trig_preop_f64", 0, F64, F64, B32, NO,
             rl_isa_v_trig_preop_f64),
};

RL_ISA_TABLE(rl_isa_table_vop1_frexp, rl_isa_vop1_frexp_ops);
RL_ISA_TABLE_CHAIN(rl_isa_table_vop3_frexp, rl_isa_vop3_frexp_ops,
                   &rl_isa_table_vop3_permlane);
