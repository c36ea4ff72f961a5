// sim/isa/isa_float.h — the floating-point model of the ISA
// executor (private to rl_sim_isa). Pure inline functions on bit patterns.
//
// Model (and how it follows the hardware, RDNA3 ISA guide "Floating-point
// modes" and the per-opcode descriptions):
//   - Rounding: round to nearest even only. begin() refuses a descriptor
//     whose FLOAT_ROUND_MODE_32 or _16_64 is not 0, and no s_round_mode /
//     s_setreg instruction is modelled, so the mode cannot change.
//   - add, sub, mul, fma (v_fma_f32, v_fmac_f32, v_fmamk/fmaak, s_fmac_f32)
//     are the host's IEEE binary32 operations: a + b, a * b, fmaf(a, b, c),
//     each rounded once, exactly as the GPU rounds them. The host must keep
//     denormals (x86-64 SSE does unless MXCSR.FTZ/DAZ are set, which nothing
//     in redline does) and this library is built with -ffp-contract=off.
//   - Denormals: FLOAT_DENORM_MODE_32 = 3 keeps them (the host default);
//     mode 0 flushes binary32 inputs and results of arithmetic to a zero of
//     the same sign (RL_ISA_MODE_FTZ32). Modes 1 and 2 and any 16/64-bit
//     mode other than 3 are refused in begin().
//   - Transcendentals v_exp_f32, v_log_f32, v_rcp_f32, v_rcp_iflag_f32,
//     v_rsq_f32, v_sqrt_f32: sim/sim_math.h, the one model every
//     simulated executor shares: the exact value computed in double,
//     rounded once to binary32, denormal inputs and results flushed. The
//     hardware is documented to about 1 ulp and its bits are unspecified,
//     so versus real hardware these results carry a tolerance of 1 ulp;
//     versus the `ref` executor they are bit-exact.
//   - Conversions to integers truncate and saturate; NaN converts to 0.
//   - v_min/v_max: -0 orders below +0; with a NaN operand the other operand
//     is returned, except that in IEEE mode a signalling NaN operand gives a
//     quiet NaN.
//   - NaN payloads follow the host (x86 keeps the first NaN operand's
//     payload, quieted); the GPU may return another NaN. Tests that compare
//     NaN results compare "is NaN" only.
#ifndef REDLINE_SIM_ISA_ISA_FLOAT_H_
#define REDLINE_SIM_ISA_ISA_FLOAT_H_

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

// rl_isa_f32/rl_isa_f64: the float with bit pattern |from|;
// rl_isa_bits32/rl_isa_bits64: the bit pattern of float |from|.
#define RL_ISA_BITCAST(name, to_type, from_type)   \
  static inline to_type name(from_type from) {     \
    to_type to;                                    \
    memcpy(&to, &from, sizeof(to));                \
    return to;                                     \
  }
RL_ISA_BITCAST(rl_isa_f32, float, uint32_t)
RL_ISA_BITCAST(rl_isa_bits32, uint32_t, float)
RL_ISA_BITCAST(rl_isa_f64, double, uint64_t)
RL_ISA_BITCAST(rl_isa_bits64, uint64_t, double)
#undef RL_ISA_BITCAST

// A binary32 denormal becomes a zero of the same sign.
static inline uint32_t rl_isa_flush32(uint32_t bits) {
  return (bits & 0x7f800000u) == 0 ? bits & 0x80000000u : bits;
}

static inline bool rl_isa_is_nan32(uint32_t bits) {
  return (bits & 0x7fffffffu) > 0x7f800000u;
}

static inline bool rl_isa_is_snan32(uint32_t bits) {
  return rl_isa_is_nan32(bits) && !(bits & 0x00400000u);
}

// v_min_f32 / v_max_f32 on bit patterns (see the file comment).
static inline uint32_t rl_isa_minmax32(uint32_t a, uint32_t b, bool max,
                                       bool ieee) {
  bool an = rl_isa_is_nan32(a), bn = rl_isa_is_nan32(b);
  if (an || bn) {
    if (ieee && rl_isa_is_snan32(a)) return a | 0x00400000u;
    if (ieee && rl_isa_is_snan32(b)) return b | 0x00400000u;
    return an ? (bn ? a | 0x00400000u : b) : a;
  }
  float x = rl_isa_f32(a), y = rl_isa_f32(b);
  if (x == y) {  // equal, or zeros of either sign: -0 < +0
    bool a_neg = (a >> 31) != 0;
    return max ? (a_neg ? b : a) : (a_neg ? a : b);
  }
  return (max ? x > y : x < y) ? a : b;
}

// v_cvt_u32_f32 / v_cvt_i32_f32: truncate toward zero, saturate, NaN -> 0.
static inline uint32_t rl_isa_cvt_u32(float x) {
  if (isnan(x) || x <= 0.0f) return 0;
  if (x >= 4294967296.0f) return 0xffffffffu;
  return (uint32_t)x;
}

static inline uint32_t rl_isa_cvt_i32(float x) {
  if (isnan(x)) return 0;
  if (x <= -2147483648.0f) return 0x80000000u;
  if (x >= 2147483648.0f) return 0x7fffffffu;
  return (uint32_t)(int32_t)x;
}

// Float compare conditions in VOPC/SOPC opcode order (opcode - base):
// F LT EQ LE GT LG GE O U NGE NLG NGT NLE NEQ NLT T.
static inline bool rl_isa_cmp_float(double a, double b, uint32_t cond) {
  bool unordered = isnan(a) || isnan(b);
  switch (cond & 15) {
    case 0: return false;
    case 1: return a < b;
    case 2: return a == b;
    case 3: return a <= b;
    case 4: return a > b;
    case 5: return !unordered && a != b;
    case 6: return a >= b;
    case 7: return !unordered;
    case 8: return unordered;
    case 9: return !(a >= b);
    case 10: return unordered || a == b;
    case 11: return !(a > b);
    case 12: return !(a <= b);
    case 13: return !(a == b);
    case 14: return !(a < b);
    default: return true;
  }
}

// Integer compare conditions in VOPC/SOPC order: F LT EQ LE GT NE GE T.
static inline bool rl_isa_cmp_int(int64_t a, int64_t b, uint64_t ua,
                                  uint64_t ub, bool is_signed,
                                  uint32_t cond) {
  switch (cond & 7) {
    case 0: return false;
    case 1: return is_signed ? a < b : ua < ub;
    case 2: return ua == ub;
    case 3: return is_signed ? a <= b : ua <= ub;
    case 4: return is_signed ? a > b : ua > ub;
    case 5: return ua != ub;
    case 6: return is_signed ? a >= b : ua >= ub;
    default: return true;
  }
}

#endif  // REDLINE_SIM_ISA_ISA_FLOAT_H_
