// sim/isa/isa_divide.c — the division helpers LLVM emits for every
// IEEE a / b (v_div_scale, v_div_fmas, v_div_fixup; binary32 and binary64)
// and the class tests (v_cmp_class_*, v_cmpx_class_*) that sqrt, exp, log
// and division expansions use. Chained after the VOP3 and VOPC tables.
//
// Semantics: RDNA3 ISA guide, "Vector ALU Operations", V_DIV_SCALE_F32,
// V_DIV_FMAS_F32, V_DIV_FIXUP_F32 and V_CMP_CLASS_F32 pseudo-code, with
// the readings of V_DIV_SCALE_F32 noted at rl_isa_div_scale32() and two
// corrections where the published pseudo-code cannot produce the quotient
// LLVM's division sequence expects (AMDGPU SITargetLowering::LowerFDIV32:
// scale, rcp, two Newton-Raphson steps, fmas, fixup):
//   - V_DIV_FMAS_F32 with VCC set scales the fused result by 2^64 when
//     exponent(S2) > 127 (the quotient estimate is >= 2: the denominator was
//     scaled up) and by 2^-64 otherwise (the numerator was scaled up); the
//     guide prints a fixed 2^32;
//   - V_DIV_FIXUP_F32 with a NaN quotient estimate (the Newton-Raphson
//     steps overflowed) returns an infinity of the quotient's sign.
// The end-to-end check is tests/unit/sim/isa/isa_divide_test.c: clang-19's own
// division sequence must give the host's correctly rounded a / b.
// Denormal mode: these three never flush (the guide: "input denormals are
// not flushed"); LLVM brackets the sequence with s_denorm_mode when the
// kernel flushes, which is not modelled (refused).
#include <math.h>

#include "sim/isa/isa_lanes.h"

// The biased exponent field of a binary32 (0 for zeros and denormals).
static int32_t rl_isa_exponent32(uint32_t bits) { return (bits >> 23) & 0xff; }

static bool rl_isa_is_denorm32(uint32_t bits) {
  return rl_isa_exponent32(bits) == 0 && (bits & 0x7fffffu) != 0;
}

// True when |x| is in the binary32 denormal range (nonzero, below 2^-126).
static bool rl_isa_in_denorm_range32(double x) {
  return x != 0.0 && fabs(x) < 0x1p-126;
}

// V_DIV_SCALE_F32: the scaled S0 and whether the quotient needs
// post-scaling (VCC). S0 is the value to scale (the denominator S1 or the
// numerator S2). The guide's "1.0 / S1 == DENORM" tests are read as "1/S1
// is in the binary32 denormal range" (|S1| > 2^126: v_rcp_f32 would flush
// it), and in the case where both that and the quotient are denormal the
// denominator is scaled down, not up: scaling it up by 2^64 as printed
// would overflow it, and only 2^-64 gives the quotient v_div_fmas expects.
static uint32_t rl_isa_div_scale32(uint32_t s0, uint32_t s1, uint32_t s2,
                                   uint32_t* out_vcc) {
  float a = rl_isa_f32(s0), den = rl_isa_f32(s1), num = rl_isa_f32(s2);
  int32_t e1 = rl_isa_exponent32(s1), e2 = rl_isa_exponent32(s2);
  bool rcp_denorm = rl_isa_in_denorm_range32(1.0 / (double)den);
  bool quotient_denorm =
      rl_isa_in_denorm_range32((double)num / (double)den);
  *out_vcc = 0;
  if (num == 0.0f || den == 0.0f) return 0x7fc00000u;
  if (e2 - e1 >= 96) {  // N / D near the binary32 maximum
    *out_vcc = 1;
    return a == den ? rl_isa_bits32(ldexpf(a, 64)) : s0;
  }
  if (rl_isa_is_denorm32(s1)) return rl_isa_bits32(ldexpf(a, 64));
  if (rcp_denorm && quotient_denorm) {  // scale the denominator only
    *out_vcc = 1;
    return a == den ? rl_isa_bits32(ldexpf(a, -64)) : s0;
  }
  if (rcp_denorm) return rl_isa_bits32(ldexpf(a, -64));
  if (quotient_denorm) {  // scale the numerator only
    *out_vcc = 1;
    return a == num ? rl_isa_bits32(ldexpf(a, 64)) : s0;
  }
  if (e2 <= 23) return rl_isa_bits32(ldexpf(a, 64));  // tiny numerator
  return s0;
}

static void rl_isa_v_div_scale_f32(rl_isa_valu_t* v) {
  uint32_t out = 0;
  RL_ISA_LANE_LOOP {
    uint32_t vcc = 0;
    v->d[l] = rl_isa_div_scale32(v->s[0][l], v->s[1][l], v->s[2][l], &vcc);
    out |= vcc << l;
  }
  v->mask_out = out;
}

// V_DIV_FMAS_F32: fma, post-scaled where VCC (the mask) is set. The
// hardware rounds once, after scaling. When the scaled result is a normal
// number, fmaf() then an exact ldexpf() is that; when it is a denormal (or
// overflows) it is rounded once more from binary64 (the fma in binary64,
// scaled exactly), which can only differ on a binary64-made tie.
static void rl_isa_v_div_fmas_f32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    float a = rl_isa_f32(v->s[0][l]), b = rl_isa_f32(v->s[1][l]);
    float c = rl_isa_f32(v->s[2][l]);
    if (((v->mask >> l) & 1) == 0) {
      v->d[l] = rl_isa_bits32(fmaf(a, b, c));
      continue;
    }
    int scale = rl_isa_exponent32(v->s[2][l]) > 127 ? 64 : -64;
    float r = ldexpf(fmaf(a, b, c), scale);  // exact unless out of range
    if (!(fabsf(r) >= 0x1p-126f) || isinf(r)) {
      r = (float)ldexp(fma((double)a, (double)b, (double)c), scale);
    }
    v->d[l] = rl_isa_bits32(r);
  }
}

// V_DIV_FIXUP_F32: S0 the quotient, S1 the denominator, S2 the numerator.
static uint32_t rl_isa_div_fixup32(uint32_t q, uint32_t d, uint32_t n) {
  uint32_t sign = (d ^ n) & 0x80000000u;
  uint32_t ad = d & 0x7fffffffu, an = n & 0x7fffffffu;
  if (rl_isa_is_nan32(n)) return n | 0x400000u;
  if (rl_isa_is_nan32(d)) return d | 0x400000u;
  if (ad == 0 && an == 0) return 0xffc00000u;                    // 0 / 0
  if (ad == 0x7f800000u && an == 0x7f800000u) return 0xffc00000u;  // inf/inf
  if (ad == 0 || an == 0x7f800000u) return sign | 0x7f800000u;   // x/0, inf/y
  if (ad == 0x7f800000u || an == 0) return sign;                 // x/inf, 0/y
  if (rl_isa_exponent32(n) - rl_isa_exponent32(d) < -150) return sign;
  if (rl_isa_is_nan32(q)) return sign | 0x7f800000u;  // the steps overflowed
  return sign | (q & 0x7fffffffu);
}

static void rl_isa_v_div_fixup_f32(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    v->d[l] = rl_isa_div_fixup32(v->s[0][l], v->s[1][l], v->s[2][l]);
  }
}

// The binary64 trio, the same algorithm at binary64 scale (the guide's
// V_DIV_SCALE_F64 / V_DIV_FMAS_F64 / V_DIV_FIXUP_F64: 2^128 scaling,
// thresholds 768 and 53, underflow below -1075), read as for binary32.
static int32_t rl_isa_exponent64(uint64_t bits) {
  return (int32_t)((bits >> 52) & 0x7ff);
}

static bool rl_isa_in_denorm_range64(long double x) {
  return x != 0.0L && fabsl(x) < 0x1p-1022L;
}

static uint64_t rl_isa_div_scale64(uint64_t s0, uint64_t s1, uint64_t s2,
                                   uint32_t* out_vcc) {
  double a = rl_isa_f64(s0), den = rl_isa_f64(s1), num = rl_isa_f64(s2);
  int32_t e1 = rl_isa_exponent64(s1), e2 = rl_isa_exponent64(s2);
  bool den_denorm = e1 == 0 && (s1 << 1) != 0;
  bool rcp_denorm = rl_isa_in_denorm_range64(1.0L / (long double)den);
  bool quotient_denorm =
      rl_isa_in_denorm_range64((long double)num / (long double)den);
  *out_vcc = 0;
  if (num == 0.0 || den == 0.0) return 0x7ff8000000000000ull;
  if (e2 - e1 >= 768) {
    *out_vcc = 1;
    return a == den ? rl_isa_bits64(ldexp(a, 128)) : s0;
  }
  if (den_denorm) return rl_isa_bits64(ldexp(a, 128));
  if (rcp_denorm && quotient_denorm) {
    *out_vcc = 1;
    return a == den ? rl_isa_bits64(ldexp(a, -128)) : s0;
  }
  if (rcp_denorm) return rl_isa_bits64(ldexp(a, -128));
  if (quotient_denorm) {
    *out_vcc = 1;
    return a == num ? rl_isa_bits64(ldexp(a, 128)) : s0;
  }
  if (e2 <= 53) return rl_isa_bits64(ldexp(a, 128));
  return s0;
}

#define RL_ISA_LANE64(row, hirow, l) ((row)[l] | (uint64_t)(hirow)[l] << 32)

static void rl_isa_v_div_scale_f64(rl_isa_valu_t* v) {
  uint32_t out = 0;
  RL_ISA_LANE_LOOP {
    uint32_t vcc = 0;
    uint64_t r = rl_isa_div_scale64(RL_ISA_LANE64(v->s[0], v->hi[0], l),
                                    RL_ISA_LANE64(v->s[1], v->hi[1], l),
                                    RL_ISA_LANE64(v->s[2], v->hi[2], l), &vcc);
    v->d[l] = (uint32_t)r;
    v->d_hi[l] = (uint32_t)(r >> 32);
    out |= vcc << l;
  }
  v->mask_out = out;
}

// As v_div_fmas_f32: one rounding after scaling for normal results; a
// denormal or overflowing one goes through the x86 80-bit format.
static void rl_isa_v_div_fmas_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    uint64_t c = RL_ISA_LANE64(v->s[2], v->hi[2], l);
    double a = rl_isa_f64(RL_ISA_LANE64(v->s[0], v->hi[0], l));
    double b = rl_isa_f64(RL_ISA_LANE64(v->s[1], v->hi[1], l));
    double r;
    if ((v->mask >> l) & 1) {
      int scale = rl_isa_exponent64(c) > 1023 ? 128 : -128;
      r = ldexp(fma(a, b, rl_isa_f64(c)), scale);  // exact unless out of range
      if (!(fabs(r) >= 0x1p-1022) || isinf(r)) {
        r = (double)ldexpl(fmal(a, b, rl_isa_f64(c)), scale);
      }
    } else {
      r = fma(a, b, rl_isa_f64(c));
    }
    uint64_t bits = rl_isa_bits64(r);
    v->d[l] = (uint32_t)bits;
    v->d_hi[l] = (uint32_t)(bits >> 32);
  }
}

static uint64_t rl_isa_div_fixup64(uint64_t q, uint64_t d, uint64_t n) {
  const uint64_t abs_mask = ~(1ull << 63), inf = 0x7ff0000000000000ull;
  const uint64_t quiet = 1ull << 51;
  uint64_t sign = (d ^ n) & (1ull << 63);
  uint64_t ad = d & abs_mask, an = n & abs_mask;
  if (an > inf) return n | quiet;
  if (ad > inf) return d | quiet;
  if ((ad == 0 && an == 0) || (ad == inf && an == inf)) {
    return 0xfff8000000000000ull;
  }
  if (ad == 0 || an == inf) return sign | inf;
  if (ad == inf || an == 0) return sign;
  if (rl_isa_exponent64(n) - rl_isa_exponent64(d) < -1075) return sign;
  if ((q & abs_mask) > inf) return sign | inf;
  return sign | (q & abs_mask);
}

static void rl_isa_v_div_fixup_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    uint64_t r = rl_isa_div_fixup64(RL_ISA_LANE64(v->s[0], v->hi[0], l),
                                    RL_ISA_LANE64(v->s[1], v->hi[1], l),
                                    RL_ISA_LANE64(v->s[2], v->hi[2], l));
    v->d[l] = (uint32_t)r;
    v->d_hi[l] = (uint32_t)(r >> 32);
  }
}

// V_CMP_CLASS_*: bit n of S1 selects class n of S0: 0 signalling NaN,
// 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
// 8 +normal, 9 +inf.
static uint32_t rl_isa_class(uint64_t bits, uint32_t sign_shift,
                             uint32_t man_bits, uint32_t exp_max) {
  bool neg = (bits >> sign_shift) & 1;
  uint64_t man = bits & ((1ull << man_bits) - 1);
  uint32_t exp = (uint32_t)(bits >> man_bits) & exp_max;
  if (exp == exp_max) {
    if (man == 0) return neg ? 2 : 9;
    return (man >> (man_bits - 1)) & 1 ? 1 : 0;
  }
  if (exp == 0) return man == 0 ? (neg ? 5 : 6) : (neg ? 4 : 7);
  return neg ? 3 : 8;
}

static void rl_isa_vcmp_class(rl_isa_valu_t* v) {
  uint32_t out = 0;
  RL_ISA_LANE_LOOP {
    uint64_t x = v->s[0][l];
    uint32_t c = v->arg == 64 ? rl_isa_class(x | (uint64_t)v->hi[0][l] << 32,
                                             63, 52, 0x7ff)
                 : v->arg == 16 ? rl_isa_class(x & 0xffff, 15, 10, 0x1f)
                                : rl_isa_class(x, 31, 23, 0xff);
    out |= ((v->s[1][l] >> c) & 1) << l;
  }
  v->mask_out = out;
}

static const rl_isa_op_t rl_isa_vop3_divide_ops[] = {
    RL_ISA_V(0x227, "v_div_fixup_f32", 0, F32, F32, F32, F32,
             rl_isa_v_div_fixup_f32),
    RL_ISA_V(0x228, "v_div_fixup_f64", 0, F64, F64, F64, F64,
             rl_isa_v_div_fixup_f64),
    RL_ISA_V(0x237, "v_div_fmas_f32", RL_ISA_F_READS_VCC, F32, F32, F32, F32,
             rl_isa_v_div_fmas_f32),
    RL_ISA_V(0x238, "v_div_fmas_f64", RL_ISA_F_READS_VCC, F64, F64, F64, F64,
             rl_isa_v_div_fmas_f64),
    RL_ISA_V(0x2fc, "v_div_scale_f32", RL_ISA_F_SDST, F32, F32, F32, F32,
             rl_isa_v_div_scale_f32),
    RL_ISA_V(0x2fd, "v_div_scale_f64", RL_ISA_F_SDST, F64, F64, F64, F64,
             rl_isa_v_div_scale_f64),
};

#define VCLASS(opc, name, flags, t, bits)                                \
  RL_ISA_OP(opc, name, flags, NO, t, B32, NO, bits, rl_isa_exec_vopc, \
            rl_isa_vcmp_class)

static const rl_isa_op_t rl_isa_vopc_class_ops[] = {
    VCLASS(0x7d, "v_cmp_class_f16", 0, RL_ISA_T_F16, 16),
    VCLASS(0x7e, "v_cmp_class_f32", 0, F32, 32),
    VCLASS(0x7f, "v_cmp_class_f64", 0, F64, 64),
    VCLASS(0xfd, "v_cmpx_class_f16", RL_ISA_F_CMPX, RL_ISA_T_F16, 16),
    VCLASS(0xfe, "v_cmpx_class_f32", RL_ISA_F_CMPX, F32, 32),
    VCLASS(0xff, "v_cmpx_class_f64", RL_ISA_F_CMPX, F64, 64),
};

RL_ISA_TABLE_CHAIN(rl_isa_table_vop3_divide, rl_isa_vop3_divide_ops,
                   &rl_isa_table_vop3_f64);
RL_ISA_TABLE(rl_isa_table_vopc_class, rl_isa_vopc_class_ops);
