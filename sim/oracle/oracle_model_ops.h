// sim/oracle/oracle_model_ops.h — how the files of the host model write
// an operation and its table row (oracle_model_vint.c, oracle_model_vfloat.c,
// oracle_model_scalar.c, oracle_model_packed.c, oracle_model_compare.c): the
// bit views and the denormal rule, the operand shorthands, the shapes of a
// row. Private to sim/oracle; the shorthands (A, FA, FN...) are short on
// purpose, so only the model's files include it.
#ifndef REDLINE_SIM_ORACLE_ORACLE_MODEL_OPS_H_
#define REDLINE_SIM_ORACLE_ORACLE_MODEL_OPS_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sim/oracle/oracle_model.h"
#include "sim/oracle/oracle_model_internal.h"

// Bit views and the denormal rule.
static inline double rl_hm_d(uint64_t bits) {
  double v;
  memcpy(&v, &bits, 8);
  return v;
}
static inline uint64_t rl_hm_ud(double v) {
  uint64_t bits;
  memcpy(&bits, &v, 8);
  return bits;
}
static inline bool rl_hm_is_denorm(uint32_t bits) {
  return (bits & 0x7fffffffu) != 0 && (bits & 0x7f800000u) == 0;
}
static inline bool rl_hm_nan(uint32_t bits) {
  return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0;
}
// A binary32 input or result under the mode: FTZ turns denormals into a
// zero of the same sign.
static inline uint32_t rl_hm_ftz(uint32_t mode, uint32_t bits) {
  if ((mode & RL_HM_MODE_FTZ32) && rl_hm_is_denorm(bits)) {
    return bits & 0x80000000u;
  }
  return bits;
}
static inline float rl_hm_in(uint32_t mode, uint64_t bits) {
  return rl_hm_f(rl_hm_ftz(mode, (uint32_t)bits));
}
static inline uint64_t rl_hm_out(uint32_t mode, float v) {
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

static inline int64_t rl_hm_s32(uint32_t v) { return (int32_t)v; }
static inline uint32_t rl_hm_field(uint32_t v, uint32_t offset, uint32_t width) {
  return (uint32_t)(((uint64_t)v >> offset) & ((1ull << width) - 1));
}

// Conversions: float to integer truncates toward zero and saturates; NaN
// gives 0.
static inline uint32_t rl_hm_to_u32(double v) {
  if (v != v || v <= 0) return 0;
  if (v >= 4294967295.0) return 0xffffffffu;
  return (uint32_t)v;
}
static inline uint32_t rl_hm_to_i32(double v) {
  if (v != v) return 0;
  if (v <= -2147483648.0) return 0x80000000u;
  if (v >= 2147483647.0) return 0x7fffffffu;
  return (uint32_t)(int32_t)v;
}

// gfx12's *_num_* min/max (RDNA4 guide, V_MIN_NUM_F32 ...): IEEE 754-2019
// minimumNumber/maximumNumber. A NaN operand, quiet or signalling, yields
// the other operand; two NaNs the first, quieted; -0 < +0. That is the rule
// above without the IEEE-mode signalling-NaN case, whatever the mode.
#define RL_HM_NUM(mode) ((mode) & ~RL_HM_MODE_IEEE)

// 16-bit integer ops: the low halves of the sources; the result goes to
// the low half of D and the high half keeps its old value (gfx11).
#define LO16(v) ((uint32_t)(v) & 0xffffu)
#define SX16(v) ((int32_t)(int16_t)(uint16_t)(v))
static inline uint64_t rl_hm_keep_hi(const rl_hm_lane_t* x, uint32_t r) {
  return (x->d & 0xffff0000u) | (r & 0xffffu);
}

// The shapes of a table row. W(n) marks 64-bit operands, F(n) floats;
// D = bit 3.
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

#endif  // REDLINE_SIM_ORACLE_ORACLE_MODEL_OPS_H_
