// sim/isa/isa_lanes.h — macros that define VALU lane kernels
// (private to rl_sim_isa: isa_vop.c, isa_vop3.c).
//
// A lane kernel computes all 32 lanes of one opcode from the source rows the
// runner prepared (isa_valu.c); the runner then keeps only the active lanes.
// The result row is never a source row (the runners give it a scratch row of
// its own), so the kernels write it through a restrict pointer and the
// compiler can run the lane loop on vectors (the same operations per lane:
// integer arithmetic, and IEEE float operations rounded one by one as
// -ffp-contract=off keeps them).
// Computing inactive lanes is harmless: every expression is defined for any
// input (shift counts are masked, signed arithmetic is done unsigned,
// float-to-integer conversions saturate explicitly).
//
// Inside an expression: a, b, c are the lanes' 32-bit sources (floats in the
// F32 forms, denormals already flushed when the wave's mode says so), ah,
// bh, ch the high dwords of 64-bit sources, l the lane, mask the carry-in /
// select mask, v the whole kernel state.
#ifndef REDLINE_SIM_ISA_ISA_LANES_H_
#define REDLINE_SIM_ISA_ISA_LANES_H_

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_float.h"

#define RL_ISA_LANE_LOOP for (uint32_t l = 0; l < RL_ISA_LANES; ++l)

// 32-bit integer result.
#define RL_ISA_U32(name, expr)                                       \
  static void name(rl_isa_valu_t* v) {                               \
    const uint32_t *A = v->s[0], *B = v->s[1], *C = v->s[2];         \
    uint32_t* restrict D = v->d;                                     \
    const uint32_t mask = v->mask;                                   \
    (void)mask;                                                      \
    RL_ISA_LANE_LOOP {                                               \
      uint32_t a = A[l], b = B[l], c = C[l];                         \
      (void)a, (void)b, (void)c;                                     \
      D[l] = (uint32_t)(expr);                                       \
    }                                                                \
  }

// 32-bit integer result with a carry-out bit per lane (|carry| is set by
// the expression's statement list before the result).
#define RL_ISA_U32_CARRY(name, ...)                                 \
  static void name(rl_isa_valu_t* v) {                               \
    const uint32_t *A = v->s[0], *B = v->s[1];                       \
    uint32_t* restrict D = v->d;                                     \
    const uint32_t mask = v->mask;                                   \
    uint32_t out = 0;                                                \
    (void)mask;                                                      \
    RL_ISA_LANE_LOOP {                                               \
      uint32_t a = A[l], b = B[l], carry = 0, result = 0;            \
      uint32_t cin = (mask >> l) & 1;                                \
      (void)cin;                                                     \
      __VA_ARGS__;                                                   \
      D[l] = result;                                                 \
      out |= (carry & 1) << l;                                       \
    }                                                                \
    v->mask_out = out;                                               \
  }

// 64-bit result (d, d_hi) from 64-bit sources (a/ah, b/bh, c/ch); the
// expression yields a uint64_t.
#define RL_ISA_U64(name, expr)                                       \
  static void name(rl_isa_valu_t* v) {                               \
    RL_ISA_LANE_LOOP {                                               \
      uint64_t a = v->s[0][l] | (uint64_t)v->hi[0][l] << 32;         \
      uint64_t b = v->s[1][l] | (uint64_t)v->hi[1][l] << 32;         \
      uint64_t c = v->s[2][l] | (uint64_t)v->hi[2][l] << 32;         \
      (void)a, (void)b, (void)c;                                     \
      uint64_t r = (expr);                                           \
      v->d[l] = (uint32_t)r;                                         \
      v->d_hi[l] = (uint32_t)(r >> 32);                              \
    }                                                                \
  }

// Binary32 result from binary32 sources; FTZ mode flushes inputs and the
// result (isa_float.h).
#define RL_ISA_F32(name, expr) RL_ISA_F32_ATTR(, name, expr)
#define RL_ISA_F32_ATTR(attr, name, expr)                                \
  attr static void name(rl_isa_valu_t* v) {                              \
    const uint32_t *A = v->s[0], *B = v->s[1], *C = v->s[2];             \
    uint32_t* restrict D = v->d;                                         \
    if (v->mode & RL_ISA_MODE_FTZ32) {                                   \
      RL_ISA_LANE_LOOP {                                                 \
        float a = rl_isa_f32(rl_isa_flush32(A[l]));                      \
        float b = rl_isa_f32(rl_isa_flush32(B[l]));                      \
        float c = rl_isa_f32(rl_isa_flush32(C[l]));                      \
        (void)a, (void)b, (void)c;                                       \
        D[l] = rl_isa_flush32(rl_isa_bits32(expr));                      \
      }                                                                  \
    } else {                                                             \
      RL_ISA_LANE_LOOP {                                                 \
        float a = rl_isa_f32(A[l]), b = rl_isa_f32(B[l]);                \
        float c = rl_isa_f32(C[l]);                                      \
        (void)a, (void)b, (void)c;                                       \
        D[l] = rl_isa_bits32(expr);                                      \
      }                                                                  \
    }                                                                    \
  }

// Binary64 result from binary64 sources (FLOAT_DENORM_MODE_16_64 is 3:
// begin() refuses anything else).
// RL_ISA_F32 for an expression of fmaf(): on x86-64 a second copy of the
// kernel is built for FMA3 (x86-64-v3), where fmaf() is one instruction
// instead of a libm call per lane, and the copy runs when the CPU has FMA.
// Bit-exact: fused multiply-add rounds once, in hardware or in libm.
#if defined(__x86_64__) && defined(__GNUC__)
#define RL_ISA_F32_FMA(name, expr)                                  \
  RL_ISA_F32_ATTR(, name##_any, expr)                               \
  RL_ISA_F32_ATTR(__attribute__((target("fma"))), name##_fma3, expr) \
  static void name(rl_isa_valu_t* v) {                              \
    if (__builtin_cpu_supports("fma")) {                            \
      name##_fma3(v);                                               \
    } else {                                                        \
      name##_any(v);                                                \
    }                                                               \
  }
#else
#define RL_ISA_F32_FMA(name, expr) RL_ISA_F32(name, expr)
#endif

#define RL_ISA_F64(name, expr)                                       \
  static void name(rl_isa_valu_t* v) {                               \
    RL_ISA_LANE_LOOP {                                               \
      double a = rl_isa_f64(v->s[0][l] | (uint64_t)v->hi[0][l] << 32); \
      double b = rl_isa_f64(v->s[1][l] | (uint64_t)v->hi[1][l] << 32); \
      double c = rl_isa_f64(v->s[2][l] | (uint64_t)v->hi[2][l] << 32); \
      (void)a, (void)b, (void)c;                                     \
      uint64_t r = rl_isa_bits64(expr);                              \
      v->d[l] = (uint32_t)r;                                         \
      v->d_hi[l] = (uint32_t)(r >> 32);                              \
    }                                                                \
  }

// Short names for table rows.
#define B32 RL_ISA_T_B32
#define B64 RL_ISA_T_B64
#define F32 RL_ISA_T_F32
#define F64 RL_ISA_T_F64
#define B16 RL_ISA_T_B16
#define NO RL_ISA_T_NONE

// A VALU row with the shared runner.
#define RL_ISA_V(opc, name, flags, d, s0, s1, s2, fn) \
  RL_ISA_OP(opc, name, flags, d, s0, s1, s2, 0, rl_isa_exec_valu, fn)

// Compare runners: bit l of the mask is the opcode's condition (v->arg,
// isa_float.h order) on lane l's two sources, read by |src(v, n, l)| as a
// double (float compares) or by |usrc| / |ssrc| as an unsigned / signed
// 64-bit integer (integer compares; v->arg bit 4 set: unsigned).
#define RL_ISA_VCMP_FLOAT(name, src)                                   \
  static void name(rl_isa_valu_t* v) {                                 \
    uint32_t out = 0;                                                  \
    RL_ISA_LANE_LOOP {                                                 \
      out |= (uint32_t)rl_isa_cmp_float(src(v, 0, l), src(v, 1, l),    \
                                        v->arg)                        \
             << l;                                                     \
    }                                                                  \
    v->mask_out = out;                                                 \
  }
#define RL_ISA_VCMP_INT(name, usrc, ssrc)                              \
  static void name(rl_isa_valu_t* v) {                                 \
    bool is_signed = !(v->arg & 16);                                   \
    uint32_t out = 0;                                                  \
    RL_ISA_LANE_LOOP {                                                 \
      out |= (uint32_t)rl_isa_cmp_int(ssrc(v, 0, l), ssrc(v, 1, l),    \
                                      usrc(v, 0, l), usrc(v, 1, l),    \
                                      is_signed, v->arg)               \
             << l;                                                     \
    }                                                                  \
    v->mask_out = out;                                                 \
  }

#endif  // REDLINE_SIM_ISA_ISA_LANES_H_
