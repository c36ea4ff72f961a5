// sim/isa/isa_packed.c — packed and mixed-precision VALU of gfx11:
// the VOP3P binary16 pairs (v_pk_fma/add/mul/min/max_f16), the dot
// products (v_dot2_f32_f16, v_dot4_i32_iu8, v_dot4_u32_u8 and VOP2
// v_dot2acc_f32_f16) and the mixed fma (v_fma_mix_f32, v_fma_mixlo_f16,
// v_fma_mixhi_f16). Chained after the VOP3P and VOP2 tables.
//
// Operand selection (RDNA3 ISA guide, "VOP3P Instructions"): for a packed
// operation, source n feeds the low half of the result from its high half
// when OP_SEL[n] is set (else its low half), and the high half of the
// result from its high half when OP_SEL_HI[n] is set; NEG[n] / NEG_HI[n]
// negate the binary16 feeding the low / high half. An inline constant or
// literal is a 32-bit value read like a register (a binary16 inline
// constant sits in the low half, the high half is zero). For the dot
// products and v_fma_mix, the guide's pseudo-code:
//   V_DOT2_F32_F16   D.f32 = S0.h[0]*S1.h[0] + S0.h[1]*S1.h[1] + S2.f32
//   V_DOT4_I32_IU8   D.i32 = S2.i32 + sum of 4 byte products, each byte
//                    signed when NEG[0] (S0) / NEG[1] (S1) is set; CLAMP
//                    saturates (refused here)
//   V_FMA_MIX_*      source n is binary32 when OP_SEL_HI[n] is 0, else the
//                    binary16 half OP_SEL[n] selects; NEG[n] negates and
//                    NEG_HI[n] takes the absolute value; fma rounds to
//                    binary32, mixlo/mixhi then round to binary16 into the
//                    low/high half and keep the other half.
// The f16 dot product sums in binary64 and rounds once to binary32; the
// hardware's internal precision is unspecified (tolerance 1 ulp).
#include "sim/isa/isa_f16.h"
#include "sim/isa/isa_lanes.h"

#define F16 RL_ISA_T_F16

enum {
  RL_ISA_PK_FMA = 0,
  RL_ISA_PK_ADD,
  RL_ISA_PK_MUL,
  RL_ISA_PK_MIN,
  RL_ISA_PK_MAX,
  RL_ISA_MIX_F32 = 8,
  RL_ISA_MIX_LO,
  RL_ISA_MIX_HI,
};

// The 16-bit input of source |n| for result half |hi| of |value|.
static uint32_t rl_isa_pk_half(const rl_isa_inst_t* inst, uint32_t n,
                               uint32_t value, bool hi) {
  bool sel = ((hi ? inst->opsel_hi : inst->opsel) >> n) & 1;
  uint32_t half = (sel ? value >> 16 : value) & 0xffffu;
  bool neg = ((hi ? inst->neg_hi : inst->neg) >> n) & 1;
  return neg ? half ^ 0x8000u : half;
}

static uint32_t rl_isa_pk_op(uint32_t kind, uint32_t a, uint32_t b,
                             uint32_t c, uint32_t mode) {
  double x = rl_isa_f16_to_f64(a), y = rl_isa_f16_to_f64(b);
  switch (kind) {
    case RL_ISA_PK_FMA:
      return rl_isa_f64_to_f16(fma(x, y, rl_isa_f16_to_f64(c)));
    case RL_ISA_PK_ADD: return rl_isa_f64_to_f16(x + y);
    case RL_ISA_PK_MUL: return rl_isa_f64_to_f16(x * y);
    default: {  // min / max: the binary32 rule on exact images
      uint32_t fa = rl_isa_f16_image32(a), fb = rl_isa_f16_image32(b);
      uint32_t r = rl_isa_minmax32(fa, fb, kind == RL_ISA_PK_MAX,
                                   (mode & RL_ISA_MODE_IEEE) != 0);
      return rl_isa_f32_to_f16(rl_isa_f32(r));
    }
  }
}

// Reads the three source rows of a VOP3P instruction; returns the row the
// result is built in (rl_isa_pk_write copies it to the destination).
static uint32_t* rl_isa_pk_sources(rl_isa_wave_t* wave,
                                   const rl_isa_inst_t* inst,
                                   const uint32_t* out_rows[3]) {
  for (uint32_t n = 0; n < 3; ++n) {
    const rl_isa_operand_t* o = &inst->src[n];
    if (o->kind == RL_ISA_OPK_VGPR) {
      out_rows[n] = wave->vgpr[o->reg];
      continue;
    }
    uint32_t value = o->kind == RL_ISA_OPK_NONE ? 0 : rl_isa_read_s32(wave, o);
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) wave->tmp[n][l] = value;
    out_rows[n] = wave->tmp[n];
  }
  return wave->tmp[6];
}

// Writes result row |d| to the destination VGPR in the active lanes.
static rl_status_t rl_isa_pk_write(rl_isa_wave_t* wave,
                                   const rl_isa_inst_t* inst,
                                   const uint32_t* d) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  rl_isa_write_lanes(wave->vgpr[inst->dst], d, exec);
  return RL_OK;
}

// v_pk_*_f16.
static rl_status_t rl_isa_exec_pk_f16(rl_isa_wave_t* wave,
                                      const rl_isa_inst_t* inst) {
  const uint32_t* s[3];
  uint32_t* d = rl_isa_pk_sources(wave, inst, s);
  const uint32_t kind = inst->op->arg, mode = wave->mode;
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t lo = rl_isa_pk_op(kind, rl_isa_pk_half(inst, 0, s[0][l], false),
                               rl_isa_pk_half(inst, 1, s[1][l], false),
                               rl_isa_pk_half(inst, 2, s[2][l], false), mode);
    uint32_t hi = rl_isa_pk_op(kind, rl_isa_pk_half(inst, 0, s[0][l], true),
                               rl_isa_pk_half(inst, 1, s[1][l], true),
                               rl_isa_pk_half(inst, 2, s[2][l], true), mode);
    d[l] = lo | hi << 16;
  }
  return rl_isa_pk_write(wave, inst, d);
}

// v_dot2_f32_f16 (S2 is binary32; NEG[2] negates it).
static rl_status_t rl_isa_exec_dot2_f32_f16(rl_isa_wave_t* wave,
                                            const rl_isa_inst_t* inst) {
  const uint32_t* s[3];
  uint32_t* d = rl_isa_pk_sources(wave, inst, s);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    long double sum = (long double)rl_isa_f32(
        s[2][l] ^ ((inst->neg & 4) ? 0x80000000u : 0u));
    for (uint32_t h = 0; h < 2; ++h) {
      sum += (long double)(rl_isa_f16_to_f64(rl_isa_pk_half(inst, 0, s[0][l], h)) *
                           rl_isa_f16_to_f64(rl_isa_pk_half(inst, 1, s[1][l], h)));
    }
    d[l] = rl_isa_bits32((float)sum);
  }
  return rl_isa_pk_write(wave, inst, d);
}

// v_dot4_i32_iu8 (arg 0: signedness from NEG[0], NEG[1]) and v_dot4_u32_u8
// (arg 1: unsigned), wrapping (CLAMP is refused).
static rl_status_t rl_isa_exec_dot4_8(rl_isa_wave_t* wave,
                                      const rl_isa_inst_t* inst) {
  const uint32_t* s[3];
  uint32_t* d = rl_isa_pk_sources(wave, inst, s);
  bool unsigned_only = inst->op->arg == 1;
  bool sa = !unsigned_only && (inst->neg & 1);
  bool sb = !unsigned_only && (inst->neg & 2);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    int64_t sum = unsigned_only ? (int64_t)s[2][l] : (int32_t)s[2][l];
    for (uint32_t i = 0; i < 4; ++i) {
      uint32_t a = (s[0][l] >> (8 * i)) & 0xff, b = (s[1][l] >> (8 * i)) & 0xff;
      int64_t x = sa ? (int8_t)a : (int64_t)a, y = sb ? (int8_t)b : (int64_t)b;
      sum += x * y;
    }
    d[l] = (uint32_t)sum;
  }
  return rl_isa_pk_write(wave, inst, d);
}

// The binary32 value of source |n| of a v_fma_mix_* instruction.
static float rl_isa_mix_source(const rl_isa_inst_t* inst, uint32_t n,
                               uint32_t value) {
  float x = ((inst->opsel_hi >> n) & 1)
                ? rl_isa_f16_to_f32(((inst->opsel >> n) & 1) ? value >> 16
                                                              : value & 0xffff)
                : rl_isa_f32(value);
  if ((inst->neg_hi >> n) & 1) x = fabsf(x);
  return ((inst->neg >> n) & 1) ? -x : x;
}

static rl_status_t rl_isa_exec_fma_mix(rl_isa_wave_t* wave,
                                       const rl_isa_inst_t* inst) {
  const uint32_t* s[3];
  uint32_t* d = rl_isa_pk_sources(wave, inst, s);
  const uint32_t* old = wave->vgpr[inst->dst];
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    float r = fmaf(rl_isa_mix_source(inst, 0, s[0][l]),
                   rl_isa_mix_source(inst, 1, s[1][l]),
                   rl_isa_mix_source(inst, 2, s[2][l]));
    uint32_t h = rl_isa_f32_to_f16(r);
    switch (inst->op->arg) {
      case RL_ISA_MIX_F32: d[l] = rl_isa_bits32(r); break;
      case RL_ISA_MIX_LO: d[l] = (old[l] & 0xffff0000u) | h; break;
      default: d[l] = (old[l] & 0xffffu) | h << 16; break;
    }
  }
  return rl_isa_pk_write(wave, inst, d);
}

// The forms these runners do not model (isa_valu.c calls it for
// RL_ISA_F_PK_MODS opcodes): a binary16 half of a constant in v_fma_mix
// (the guide does not say which bits it takes) and op_sel on the dot4.
const char* rl_isa_packed_reason(const rl_isa_inst_t* inst) {
  if (inst->op->exec == rl_isa_exec_fma_mix) {
    for (uint32_t n = 0; n < 3; ++n) {
      if (inst->src[n].kind == RL_ISA_OPK_CONST && ((inst->opsel_hi >> n) & 1)) {
        return "a binary16 constant operand of v_fma_mix is not modelled";
      }
    }
  }
  if (inst->op->exec == rl_isa_exec_dot4_8 && inst->opsel) {
    return "op_sel on v_dot4 is not modelled";
  }
  return NULL;
}

// v_dot2acc_f32_f16 (VOP2): D = D + S0.h[0]*S1.h[0] + S0.h[1]*S1.h[1],
// rounded once to binary32. The binary16 products are exact in binary64;
// their sum with the accumulator is kept in long double (64 significant
// bits), so the one binary32 rounding sees the exact sum for all but
// operands of wildly different magnitude (a binary64 sum rounded twice
// was 1 ulp off on 1 of 4,096 random cases of the conformance suite).
static void rl_isa_v_dot2acc_f32_f16(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    long double sum = (long double)rl_isa_f32(v->s[2][l]);
    for (uint32_t h = 0; h < 2; ++h) {
      sum += (long double)(rl_isa_f16_to_f64((v->s[0][l] >> (16 * h)) & 0xffff) *
                           rl_isa_f16_to_f64((v->s[1][l] >> (16 * h)) & 0xffff));
    }
    v->d[l] = rl_isa_bits32((float)sum);
  }
}

#define MODS RL_ISA_F_PK_MODS
#define PK(opc, name, arg, exec, d, s0, s1, s2) \
  RL_ISA_OP(opc, name, MODS, d, s0, s1, s2, arg, exec, NULL)

static const rl_isa_op_t rl_isa_vop3p_packed_ops[] = {
    PK(0x0e, "v_pk_fma_f16", RL_ISA_PK_FMA, rl_isa_exec_pk_f16, F16, F16, F16,
       F16),
    PK(0x0f, "v_pk_add_f16", RL_ISA_PK_ADD, rl_isa_exec_pk_f16, F16, F16, F16,
       NO),
    PK(0x10, "v_pk_mul_f16", RL_ISA_PK_MUL, rl_isa_exec_pk_f16, F16, F16, F16,
       NO),
    PK(0x11, "v_pk_min_f16", RL_ISA_PK_MIN, rl_isa_exec_pk_f16, F16, F16, F16,
       NO),
    PK(0x12, "v_pk_max_f16", RL_ISA_PK_MAX, rl_isa_exec_pk_f16, F16, F16, F16,
       NO),
    PK(0x13, "v_dot2_f32_f16", 0, rl_isa_exec_dot2_f32_f16, F32, F16, F16,
       F32),
    PK(0x16, "v_dot4_i32_iu8", 0, rl_isa_exec_dot4_8, B32, B32, B32, B32),
    PK(0x17, "v_dot4_u32_u8", 1, rl_isa_exec_dot4_8, B32, B32, B32, B32),
    PK(0x20, "v_fma_mix_f32", RL_ISA_MIX_F32, rl_isa_exec_fma_mix, F32, F32,
       F32, F32),
    PK(0x21, "v_fma_mixlo_f16", RL_ISA_MIX_LO, rl_isa_exec_fma_mix, F16, F32,
       F32, F32),
    PK(0x22, "v_fma_mixhi_f16", RL_ISA_MIX_HI, rl_isa_exec_fma_mix, F16, F32,
       F32, F32),
};

static const rl_isa_op_t rl_isa_vop2_packed_ops[] = {
    RL_ISA_V(0x02, "v_dot2acc_f32_f16", RL_ISA_F_ACCUM | RL_ISA_F_NO_VOP3, F32,
             B32, B32, F32,
             rl_isa_v_dot2acc_f32_f16),
};

// The VOPD form (X or Y, opcode 12): the same kernel, the X/Y destination
// as the accumulator (RDNA3 ISA guide, "VOPD"; llvm-mc-19 encodes
// v_dual_dot2acc_f32_f16 on both sides for gfx1100 and gfx1151).
static const rl_isa_op_t rl_isa_vopd_packed_ops[] = {
    RL_ISA_OP(12, "v_dual_dot2acc_f32_f16", RL_ISA_F_ACCUM, B32, B32, B32,
              F32, 0, rl_isa_exec_vopd, rl_isa_v_dot2acc_f32_f16),
};

RL_ISA_TABLE(rl_isa_table_vop3p_packed, rl_isa_vop3p_packed_ops);
RL_ISA_TABLE(rl_isa_table_vopd_packed, rl_isa_vopd_packed_ops);
RL_ISA_TABLE(rl_isa_table_vop2_packed, rl_isa_vop2_packed_ops);
