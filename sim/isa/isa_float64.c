// sim/isa/isa_float64.c — binary64 VALU operations beyond add, mul
// and fma (isa_vop3.c): v_rcp/rsq/sqrt_f64, the conversions to and from
// 32-bit integers, rounding (trunc, ceil, floor, rndne, fract), v_ldexp_f64
// and v_min/max_f64, which LLVM emits for double division, sqrt and
// ordinary double code. Chained after the VOP1 16-bit table and the VOP3
// division table.
//
// Semantics: RDNA3 ISA guide, "Vector ALU Operations" (the *_F64 opcodes).
// FLOAT_DENORM_MODE_16_64 is 3 (begin() refuses anything else), so binary64
// denormals are kept. v_rcp_f64, v_rsq_f64 are the correctly rounded
// 1/x and (1/sqrt(x) rounded twice) — the hardware is documented to about
// 1 ulp, so versus hardware these carry a 1-ulp tolerance; v_sqrt_f64 is
// correctly rounded. Min/max follow the binary32 rule of isa_float.h.
#include <math.h>

#include "sim/isa/isa_lanes.h"

static double rl_isa_fract64(double x) {
  if (isinf(x) || isnan(x)) return NAN;
  double f = x - floor(x);
  return f < 0x1.fffffffffffffp-1 ? f : 0x1.fffffffffffffp-1;
}

static uint32_t rl_isa_cvt_i32_f64(double x) {
  if (isnan(x)) return 0;
  if (x <= -2147483648.0) return 0x80000000u;
  if (x >= 2147483647.0) return 0x7fffffffu;
  return (uint32_t)(int32_t)x;
}

static uint32_t rl_isa_cvt_u32_f64(double x) {
  if (!(x > 0.0)) return 0;
  return x >= 4294967295.0 ? 0xffffffffu : (uint32_t)x;
}

// Binary64 min/max on bit patterns: -0 below +0; a NaN operand yields the
// other operand, or a quiet NaN for a signalling one in IEEE mode.
static uint64_t rl_isa_minmax64(uint64_t a, uint64_t b, bool max, bool ieee) {
  const uint64_t quiet = 1ull << 51;
  bool an = (a & ~(1ull << 63)) > 0x7ff0000000000000ull;
  bool bn = (b & ~(1ull << 63)) > 0x7ff0000000000000ull;
  if (an || bn) {
    if (ieee && an && !(a & quiet)) return a | quiet;
    if (ieee && bn && !(b & quiet)) return b | quiet;
    return an ? (bn ? a | quiet : b) : a;
  }
  double x = rl_isa_f64(a), y = rl_isa_f64(b);
  if (x == y) {
    bool a_neg = (a >> 63) != 0;
    return max ? (a_neg ? b : a) : (a_neg ? a : b);
  }
  return (max ? x > y : x < y) ? a : b;
}

#define RL_ISA_D2D(name, expr)                                        \
  static void name(rl_isa_valu_t* v) {                                \
    RL_ISA_LANE_LOOP {                                                \
      double a = rl_isa_f64(v->s[0][l] | (uint64_t)v->hi[0][l] << 32); \
      (void)a;                                                        \
      uint64_t r = rl_isa_bits64(expr);                               \
      v->d[l] = (uint32_t)r;                                          \
      v->d_hi[l] = (uint32_t)(r >> 32);                               \
    }                                                                 \
  }

RL_ISA_D2D(rl_isa_v_rcp_f64, 1.0 / a)
RL_ISA_D2D(rl_isa_v_rsq_f64, 1.0 / sqrt(a))
RL_ISA_D2D(rl_isa_v_sqrt_f64, sqrt(a))
RL_ISA_D2D(rl_isa_v_trunc_f64, trunc(a))
RL_ISA_D2D(rl_isa_v_ceil_f64, ceil(a))
RL_ISA_D2D(rl_isa_v_floor_f64, floor(a))
RL_ISA_D2D(rl_isa_v_rndne_f64, nearbyint(a))
RL_ISA_D2D(rl_isa_v_fract_f64, rl_isa_fract64(a))
RL_ISA_D2D(rl_isa_v_cvt_f64_i32, (double)(int32_t)v->s[0][l])
RL_ISA_D2D(rl_isa_v_cvt_f64_u32, (double)v->s[0][l])

static void rl_isa_v_cvt_i32_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    v->d[l] = rl_isa_cvt_i32_f64(
        rl_isa_f64(v->s[0][l] | (uint64_t)v->hi[0][l] << 32));
  }
}
static void rl_isa_v_cvt_u32_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    v->d[l] = rl_isa_cvt_u32_f64(
        rl_isa_f64(v->s[0][l] | (uint64_t)v->hi[0][l] << 32));
  }
}

// v_ldexp_f64: S0 * 2^S1 (S1 a signed 32-bit integer), rounded once.
static void rl_isa_v_ldexp_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    double a = rl_isa_f64(v->s[0][l] | (uint64_t)v->hi[0][l] << 32);
    int32_t e = (int32_t)v->s[1][l];
    uint64_t r = rl_isa_bits64(ldexp(a, e < -4000 ? -4000 : e > 4000 ? 4000 : e));
    v->d[l] = (uint32_t)r;
    v->d_hi[l] = (uint32_t)(r >> 32);
  }
}

static void rl_isa_v_minmax_f64(rl_isa_valu_t* v, bool max) {
  bool ieee = (v->mode & RL_ISA_MODE_IEEE) != 0;
  RL_ISA_LANE_LOOP {
    uint64_t r = rl_isa_minmax64(v->s[0][l] | (uint64_t)v->hi[0][l] << 32,
                                 v->s[1][l] | (uint64_t)v->hi[1][l] << 32,
                                 max, ieee);
    v->d[l] = (uint32_t)r;
    v->d_hi[l] = (uint32_t)(r >> 32);
  }
}
static void rl_isa_v_min_f64(rl_isa_valu_t* v) { rl_isa_v_minmax_f64(v, false); }
static void rl_isa_v_max_f64(rl_isa_valu_t* v) { rl_isa_v_minmax_f64(v, true); }

#define V1(opc, name, d, s, fn) RL_ISA_V(opc, name, 0, d, s, NO, NO, fn)

static const rl_isa_op_t rl_isa_vop1_f64_ops[] = {
    V1(0x03, "v_cvt_i32_f64", B32, F64, rl_isa_v_cvt_i32_f64),
    V1(0x04, "v_cvt_f64_i32", F64, B32, rl_isa_v_cvt_f64_i32),
    V1(0x15, "v_cvt_u32_f64", B32, F64, rl_isa_v_cvt_u32_f64),
    V1(0x16, "v_cvt_f64_u32", F64, B32, rl_isa_v_cvt_f64_u32),
    V1(0x17, "v_trunc_f64", F64, F64, rl_isa_v_trunc_f64),
    V1(0x18, "v_ceil_f64", F64, F64, rl_isa_v_ceil_f64),
    V1(0x19, "v_rndne_f64", F64, F64, rl_isa_v_rndne_f64),
    V1(0x1a, "v_floor_f64", F64, F64, rl_isa_v_floor_f64),
    V1(0x2f, "v_rcp_f64", F64, F64, rl_isa_v_rcp_f64),
    V1(0x31, "v_rsq_f64", F64, F64, rl_isa_v_rsq_f64),
    V1(0x34, "v_sqrt_f64", F64, F64, rl_isa_v_sqrt_f64),
    V1(0x3e, "v_fract_f64", F64, F64, rl_isa_v_fract_f64),
};

static const rl_isa_op_t rl_isa_vop3_f64_ops[] = {
    RL_ISA_V(0x329, "v_min_f64", 0, F64, F64, F64, NO, rl_isa_v_min_f64),
    RL_ISA_V(0x32a, "v_max_f64", 0, F64, F64, F64, NO, rl_isa_v_max_f64),
    RL_ISA_V(0x32b, "v_ldexp_f64", 0, F64, F64, B32, NO, rl_isa_v_ldexp_f64),
};

RL_ISA_TABLE_CHAIN(rl_isa_table_vop1_f64, rl_isa_vop1_f64_ops,
                   &rl_isa_table_vop1_frexp);
RL_ISA_TABLE_CHAIN(rl_isa_table_vop3_f64, rl_isa_vop3_f64_ops,
                   &rl_isa_table_vop3_frexp);
