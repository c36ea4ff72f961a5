// sim/oracle/oracle_model_vfloat.c — the host model (oracle_model.h): the
// vector float operations (binary32, binary16, binary64, class tests) and
// their table rows.
// Semantics follow the RDNA3 ISA guide's opcode pseudo-code; nothing here
// includes sim/isa/. Built with -ffp-contract=off: every float operation
// must round where the instruction rounds.
#include <math.h>
#include <string.h>

#include "sim/oracle/oracle_model_ops.h"

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
double rl_hm_h2d(uint32_t h) {
  h &= 0xffffu;
  int e = (int)((h >> 10) & 31);
  uint32_t m = h & 0x3ffu;
  double mag;
  if (e == 31) mag = m ? NAN : INFINITY;
  else if (e == 0) mag = ldexp((double)m, -24);
  else mag = ldexp((double)(m + 1024), e - 25);
  return (h & 0x8000u) ? -mag : mag;
}
bool rl_hm_nan16(uint32_t h) {
  return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
}
uint32_t rl_hm_d2h(double d) {
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
uint32_t rl_hm_h2f_bits(uint32_t h) {
  h &= 0xffffu;
  uint32_t sign = (h & 0x8000u) << 16;
  if ((h & 0x7c00u) == 0x7c00u) return sign | 0x7f800000u | (h & 0x3ffu) << 13;
  return sign | (rl_hm_u((float)rl_hm_h2d(h)) & 0x7fffffffu);
}
uint32_t rl_hm_f2h_bits(uint32_t f) {
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

static const rl_hm_op_t rl_hm_vfloat_ops[] = {
    // VOP2.
    V("v_add_f32", 2, 0, F3, NANY, hm_add_f32),
    V("v_sub_f32", 2, 0, F3, NANY, hm_sub_f32),
    V("v_subrev_f32", 2, 0, F3, NANY, hm_subrev_f32),
    V("v_mul_dx9_zero_f32", 2, 0, F3, NANY, hm_mul_dx9),
    V("v_mul_f32", 2, 0, F3, NANY, hm_mul_f32),
    V("v_min_f32", 2, 0, F3, 0, hm_min_f32),
    V("v_min_num_f32", 2, 0, F3, 0, hm_min_num_f32),
    V("v_max_num_f32", 2, 0, F3, 0, hm_max_num_f32),
    V("v_max_f32", 2, 0, F3, 0, hm_max_f32),
    V("v_fmac_f32", 3, 0, F3 | F2, NANY | RL_HM_ACC, hm_fma_f32),
    V("v_fmamk_f32", 3, 0, F3 | F2, NANY | RL_HM_K, hm_fmamk_f32),
    V("v_fmaak_f32", 3, 0, F3 | F2, NANY | RL_HM_K, hm_fma_f32),
    // VOP1.
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
    // VOP3 only.
    V("v_fma_f32", 3, 0, F3 | F2, NANY, hm_fma_f32),
    V("v_fma_f64", 3, W0 | W1 | W2 | WD, F0 | F1 | F2, NANY, hm_fma_f64),
    V("v_min3_f32", 3, 0, F3 | F2, 0, hm_min3_f32),
    V("v_min3_num_f32", 3, 0, F3 | F2, 0, hm_min3_num_f32),
    V("v_max3_num_f32", 3, 0, F3 | F2, 0, hm_max3_num_f32),
    V("v_max3_f32", 3, 0, F3 | F2, 0, hm_max3_f32),
    V("v_ldexp_f32", 2, 0, F0 | FD, NANY, hm_ldexp),
    V("v_add_f64", 2, W0 | W1 | WD, F0 | F1, NANY, hm_add_f64),
    V("v_mul_f64", 2, W0 | W1 | WD, F0 | F1, NANY, hm_mul_f64),
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
    // SOP2.
    SF("s_add_f32", 2, F0 | F1, NANY, hm_add_f32),
    SF("s_sub_f32", 2, F0 | F1, NANY, hm_sub_f32),
    SF("s_min_f32", 2, F0 | F1, 0, hm_min_f32),
    SF("s_min_num_f32", 2, F0 | F1, 0, hm_min_num_f32),
    SF("s_max_num_f32", 2, F0 | F1, 0, hm_max_num_f32),
    SF("s_max_f32", 2, F0 | F1, 0, hm_max_f32),
    SF("s_mul_f32", 2, F0 | F1, NANY, hm_mul_f32),
    SF("s_fmaak_f32", 3, F0 | F1 | F2, NANY | RL_HM_K, hm_fma_f32),
    SF("s_fmamk_f32", 3, F0 | F1 | F2, NANY | RL_HM_K, hm_fmamk_f32),
    // SOP1.
    SF("s_ceil_f32", 1, F0, NANY, hm_ceil),
    SF("s_floor_f32", 1, F0, NANY, hm_floor),
    SF("s_trunc_f32", 1, F0, NANY, hm_trunc),
    SF("s_rndne_f32", 1, F0, NANY, hm_rndne),
};
const rl_hm_table_t rl_hm_ops_vfloat = {
    rl_hm_vfloat_ops, sizeof(rl_hm_vfloat_ops) / sizeof(rl_hm_vfloat_ops[0])};
