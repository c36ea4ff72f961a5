// sim/isa/isa_valu.c — the vector ALU runners of the ISA executor:
// operand fetch (VGPR rows, scalar and constant broadcast, 64-bit pairs),
// VOP3 input modifiers and clamp, EXEC-masked write-back, the compare,
// dual-issue (VOPD) and packed (VOP3P) runners, lane-crossing moves, and
// the predecode check of the forms the runners model.
//
// Semantics (RDNA3 ISA guide, "Vector ALU Operations"): every lane computes;
// only lanes whose EXEC bit is set write their result. A compare or
// carry-out mask has 0 in the bits of inactive lanes. VOP3 ABS and NEG act
// on float sources as sign-bit operations before the operation (and on
// the two 32-bit data sources of v_cndmask_b32, which LLVM gives float
// input modifiers: VOP2Instructions.td, the VOP2e_SGPR profile's
// FP32InputMods, so a select of negated or absolute values is one
// instruction — bit 31 is cleared, then flipped); OP_SEL
// picks the high half of a binary16 source (bits 0-2) or writes a binary16
// result to the high half (bit 3, the low half kept); OMOD multiplies a
// binary32 result by 2, 4 or 0.5 (1, 2, 3) and is ignored when IEEE_MODE is
// set (LLVM SIFoldOperands.cpp: "omod is ignored by hardware if IEEE bit is
// enabled"), flushed like the result under FLOAT_DENORM_MODE_32 = 0; CLAMP
// then clamps a binary32 result to [0, 1] (NaN to 0 when DX10_CLAMP is
// set). DPP source 0 comes from isa_dpp.c. OP_SEL on other operand types,
// OMOD on other results and the DPP forms rl_isa_dpp_reason() names fail
// closed.
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_gfx12.h"
#include "sim/isa/isa_float.h"
#include "sim/isa/isa_image.h"
#include "sim/isa/isa_mem.h"

static const uint32_t rl_isa_zero_row[RL_ISA_LANES];

enum {
  RL_ISA_ROW_SRC = 0,    // 0..2: source n (low dwords)
  RL_ISA_ROW_SRC_HI = 3, // 3..5: source n (high dwords)
  RL_ISA_ROW_D = 6,
  RL_ISA_ROW_D_HI = 7,
  RL_ISA_ROW_Y = 8,      // 8..10: VOPD Y sources
  RL_ISA_ROW_DY = 11,
};

static bool rl_isa_is_wide(uint32_t type) {
  return type == RL_ISA_T_B64 || type == RL_ISA_T_F64;
}

// The 32 lane values of |operand| (its high dwords when |hi|). A VGPR is
// read in place; anything scalar is broadcast into |row|.
static const uint32_t* rl_isa_valu_src(rl_isa_wave_t* wave,
                                       const rl_isa_operand_t* operand,
                                       bool hi, uint32_t* row) {
  if (operand->kind == RL_ISA_OPK_VGPR) return wave->vgpr[operand->reg + hi];
  uint64_t value = rl_isa_read_s64(wave, operand);
  uint32_t word = (uint32_t)(hi ? value >> 32 : value);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) row[l] = word;
  return row;
}

// Applies VOP3 ABS/NEG of source |n| (a float) to its sign-carrying dword;
// |sign| is the sign bit (bit 15 for binary16 operands).
static const uint32_t* rl_isa_valu_modify(const uint32_t* values,
                                          uint32_t* row, bool abs, bool neg,
                                          uint32_t sign) {
  uint32_t clear = abs ? sign : 0, flip = neg ? sign : 0;
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    row[l] = (values[l] & ~clear) ^ flip;
  }
  return row;
}

// Source |n| (of |type|) with its VOP3 OP_SEL high half (binary16 only:
// the predecode check refuses the rest), then ABS/NEG applied; out of line
// so the common path (no modifiers) stays short.
__attribute__((noinline)) static void rl_isa_valu_modifiers(
    rl_isa_wave_t* wave, rl_isa_valu_t* v, uint32_t n, uint32_t type, bool abs,
    bool neg, bool hi) {
  if (hi) {
    uint32_t* row = wave->tmp[RL_ISA_ROW_SRC + n];
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) row[l] = v->s[n][l] >> 16;
    v->s[n] = row;
  }
  if (rl_isa_is_wide(type)) {
    v->hi[n] = rl_isa_valu_modify(v->hi[n], wave->tmp[RL_ISA_ROW_SRC_HI + n],
                                  abs, neg, 0x80000000u);
  } else {
    uint32_t sign = type == RL_ISA_T_F16 ? 0x8000u : 0x80000000u;
    v->s[n] = rl_isa_valu_modify(v->s[n], wave->tmp[RL_ISA_ROW_SRC + n], abs,
                                 neg, sign);
  }
}

// The sources of |inst|; |src0| (the DPP fetch) replaces source 0's
// register read when non-NULL.
static inline __attribute__((always_inline)) void rl_isa_valu_sources(
    rl_isa_wave_t* wave, const rl_isa_inst_t* inst, rl_isa_valu_t* v,
    const uint32_t* src0) {
  const rl_isa_op_t* op = inst->op;
  for (uint32_t n = 0; n < 3; ++n) {
    uint32_t type = op->src[n];
    v->s[n] = v->hi[n] = rl_isa_zero_row;
    if (type == RL_ISA_T_NONE) continue;
    bool wide = rl_isa_is_wide(type);
    v->s[n] = src0 && n == 0 ? src0
                             : rl_isa_valu_src(wave, &inst->src[n], false,
                                               wave->tmp[RL_ISA_ROW_SRC + n]);
    if (wide) {
      v->hi[n] = rl_isa_valu_src(wave, &inst->src[n], true,
                                 wave->tmp[RL_ISA_ROW_SRC_HI + n]);
    }
    bool abs = (inst->abs >> n) & 1, neg = (inst->neg >> n) & 1;
    bool hi = (inst->opsel >> n) & 1;
    if (!abs && !neg && !hi) continue;
    rl_isa_valu_modifiers(wave, v, n, type, abs, neg, hi);
  }
}

#if defined(__SSE2__)
// The 16 lane masks of four lanes, 0 / -1 per lane (bit n of the index is
// lane n).
#define RL_ISA_Q(n) \
  {-((n) & 1), -(((n) >> 1) & 1), -(((n) >> 2) & 1), -(((n) >> 3) & 1)}
static const int32_t rl_isa_quad_mask[16][4] __attribute__((aligned(16))) = {
    RL_ISA_Q(0),  RL_ISA_Q(1),  RL_ISA_Q(2),  RL_ISA_Q(3),
    RL_ISA_Q(4),  RL_ISA_Q(5),  RL_ISA_Q(6),  RL_ISA_Q(7),
    RL_ISA_Q(8),  RL_ISA_Q(9),  RL_ISA_Q(10), RL_ISA_Q(11),
    RL_ISA_Q(12), RL_ISA_Q(13), RL_ISA_Q(14), RL_ISA_Q(15)};
#undef RL_ISA_Q
#endif

void rl_isa_write_lanes(uint32_t* dst, const uint32_t* values,
                        uint32_t exec) {
  if (exec == RL_ISA_ALL_LANES) {
    memcpy(dst, values, sizeof(uint32_t) * RL_ISA_LANES);
    return;
  }
#if defined(__SSE2__)
  // Four lanes at a time: a blend of the old and the new words under the
  // quad's mask (the same words as the lane loop below writes).
  for (uint32_t q = 0; q < RL_ISA_LANES / 4; ++q) {
    uint32_t bits = (exec >> (4 * q)) & 15u;
    if (bits == 0) continue;
    __m128i* to = (__m128i*)(dst + 4 * q);
    __m128i from = _mm_loadu_si128((const __m128i*)(values + 4 * q));
    if (bits != 15) {
      __m128i mask = _mm_load_si128((const __m128i*)rl_isa_quad_mask[bits]);
      from = _mm_or_si128(_mm_and_si128(mask, from),
                          _mm_andnot_si128(mask, _mm_loadu_si128(to)));
    }
    _mm_storeu_si128(to, from);
  }
#else
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    if ((exec >> l) & 1) dst[l] = values[l];
  }
#endif
}

static void rl_isa_clamp_f32(uint32_t* values, uint32_t mode) {
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t bits = values[l];
    if (rl_isa_is_nan32(bits)) {
      if (mode & RL_ISA_MODE_DX10_CLAMP) values[l] = 0;
    } else if (bits >> 31) {
      values[l] = 0;  // negative (and -0) clamps to +0
    } else if (bits > 0x3f800000u) {
      values[l] = 0x3f800000u;
    }
  }
}

// The state only some opcodes read (rl_isa_valu_t.old and .clamp, VCC as
// the mask of v_div_fmas), kept out of the common path.
#define RL_ISA_VALU_EXTRA \
  (RL_ISA_F_READS_VCC | RL_ISA_F_INT_CLAMP | RL_ISA_F_KEEP_HI)

__attribute__((noinline)) static void rl_isa_valu_extra(
    rl_isa_wave_t* wave, const rl_isa_inst_t* inst, rl_isa_valu_t* v) {
  if (inst->op->flags & RL_ISA_F_READS_VCC) {
    v->mask = wave->sgpr[RL_ISA_SRC_VCC];
  }
  v->old = wave->vgpr[inst->dst & 0xff];
  v->clamp = inst->clamp;
}

static inline __attribute__((always_inline)) void rl_isa_valu_prepare(
    rl_isa_wave_t* wave, const rl_isa_inst_t* inst, rl_isa_valu_t* v,
    const uint32_t* src0) {
  rl_isa_valu_sources(wave, inst, v, src0);
  v->d = wave->tmp[RL_ISA_ROW_D];
  v->d_hi = wave->tmp[RL_ISA_ROW_D_HI];
  v->exec = wave->sgpr[RL_ISA_SRC_EXEC];
  v->mask = (inst->op->flags & RL_ISA_F_CARRY)
                ? rl_isa_read_s32(wave, &inst->src[2])
                : 0;
  v->mask_out = 0;
  v->mode = wave->mode;
  v->arg = inst->op->arg;
}

// VOP3 OMOD of a binary32 result (see the file comment).
static void rl_isa_omod_f32(uint32_t* values, uint32_t omod, uint32_t mode) {
  if (mode & RL_ISA_MODE_IEEE) return;
  float scale = omod == 1 ? 2.0f : omod == 2 ? 4.0f : 0.5f;
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t bits = rl_isa_bits32(rl_isa_f32(values[l]) * scale);
    values[l] = (mode & RL_ISA_MODE_FTZ32) ? rl_isa_flush32(bits) : bits;
  }
}

// VOP3 OP_SEL bit 3 on a binary16 result: the result (low half of |values|,
// computed as if for the low half) goes to the high half of the
// destination, whose low half is kept.
static void rl_isa_opsel_dst_hi(uint32_t* values, const uint32_t* old) {
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    values[l] = (old[l] & 0xffffu) | (values[l] << 16);
  }
}

// The result modifiers after the lane kernel, out of line: OMOD, CLAMP,
// OP_SEL of the destination.
__attribute__((noinline)) static void rl_isa_valu_result_mods(
    rl_isa_wave_t* wave, const rl_isa_inst_t* inst, rl_isa_valu_t* v) {
  const rl_isa_op_t* op = inst->op;
  if (inst->omod && op->dst == RL_ISA_T_F32) {
    rl_isa_omod_f32(v->d, inst->omod, v->mode);
  }
  if (inst->clamp && op->dst == RL_ISA_T_F32) rl_isa_clamp_f32(v->d, v->mode);
  if ((inst->opsel & 8) && op->dst == RL_ISA_T_F16) {
    rl_isa_opsel_dst_hi(v->d, wave->vgpr[inst->dst & 0xff]);
  }
}

static inline __attribute__((always_inline)) rl_status_t rl_isa_valu_run(
    rl_isa_wave_t* wave, const rl_isa_inst_t* inst, const uint32_t* src0,
    uint32_t enable) {
  const rl_isa_op_t* op = inst->op;
  rl_isa_valu_t v;
  rl_isa_valu_prepare(wave, inst, &v, src0);
  v.exec &= enable;
  if (op->flags & RL_ISA_VALU_EXTRA) rl_isa_valu_extra(wave, inst, &v);
  ((rl_isa_lanes_fn)op->lanes)(&v);
  if (inst->clamp | inst->omod | (inst->opsel & 8)) {
    rl_isa_valu_result_mods(wave, inst, &v);
  }
  if (op->dst != RL_ISA_T_NONE) {
    rl_isa_write_lanes(wave->vgpr[inst->dst], v.d, v.exec);
    if (rl_isa_is_wide(op->dst)) {
      rl_isa_write_lanes(wave->vgpr[inst->dst + 1], v.d_hi, v.exec);
    }
  }
  if (op->flags & RL_ISA_F_SDST) {
    wave->sgpr[inst->sdst & 127] = v.mask_out & v.exec;
  }
  return RL_OK;
}

rl_status_t rl_isa_exec_valu(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  return rl_isa_valu_run(wave, inst, NULL, RL_ISA_ALL_LANES);
}

// ---------------------------------------------------------------------------
// The plain forms (rl_isa_valu_is_plain): no input or output modifier
// (clamp included), no DPP, no opcode that reads its old destination. Their runners skip the modifier steps, and with every lane
// active the lane kernel writes the destination row itself instead of a
// scratch row copied after, unless that row is also a source row (a kernel
// writes its result through a restrict pointer). Same words as the generic
// runner: a kernel writes all 32 lanes of its result row (isa_lanes.h), and
// with EXEC all ones the generic runner copies all 32.

bool rl_isa_valu_is_plain(const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  if (op == NULL || inst->dpp) return false;
  if (op->exec != rl_isa_exec_valu && op->exec != rl_isa_exec_vopc) {
    return false;
  }
  if (inst->abs | inst->neg | inst->opsel | inst->omod | inst->clamp) {
    return false;
  }
  return (op->flags & RL_ISA_F_KEEP_HI) == 0;
}

// The sources of a plain instruction (rl_isa_valu_sources without the
// modifiers).
static inline __attribute__((always_inline)) void rl_isa_plain_sources(
    rl_isa_wave_t* wave, const rl_isa_inst_t* inst, rl_isa_valu_t* v) {
  const rl_isa_op_t* op = inst->op;
  for (uint32_t n = 0; n < 3; ++n) {
    uint32_t type = op->src[n];
    v->s[n] = v->hi[n] = rl_isa_zero_row;
    if (type == RL_ISA_T_NONE) continue;
    v->s[n] = rl_isa_valu_src(wave, &inst->src[n], false,
                              wave->tmp[RL_ISA_ROW_SRC + n]);
    if (rl_isa_is_wide(type)) {
      v->hi[n] = rl_isa_valu_src(wave, &inst->src[n], true,
                                 wave->tmp[RL_ISA_ROW_SRC_HI + n]);
    }
  }
  v->exec = wave->sgpr[RL_ISA_SRC_EXEC];
  v->mask = (op->flags & RL_ISA_F_CARRY) ? rl_isa_read_s32(wave, &inst->src[2])
                                         : 0;
  if (op->flags & RL_ISA_F_READS_VCC) v->mask = wave->sgpr[RL_ISA_SRC_VCC];
  v->mask_out = 0;
  v->mode = wave->mode;
  v->arg = op->arg;
  v->old = NULL;     // RL_ISA_F_KEEP_HI opcodes are not plain
  v->clamp = false;  // nor is a clamp
}

// True when |row| is one of |v|'s source rows.
static inline bool rl_isa_is_source_row(const rl_isa_valu_t* v,
                                        const uint32_t* row) {
  return row == v->s[0] || row == v->s[1] || row == v->s[2] ||
         row == v->hi[0] || row == v->hi[1] || row == v->hi[2];
}

rl_status_t rl_isa_exec_valu_plain(rl_isa_wave_t* wave,
                                   const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  rl_isa_valu_t v;
  rl_isa_plain_sources(wave, inst, &v);
  v.d = wave->tmp[RL_ISA_ROW_D];
  v.d_hi = wave->tmp[RL_ISA_ROW_D_HI];
  uint32_t* dst = wave->vgpr[inst->dst];
  const bool wide = rl_isa_is_wide(op->dst);
  bool direct = op->dst != RL_ISA_T_NONE && v.exec == RL_ISA_ALL_LANES &&
                !rl_isa_is_source_row(&v, dst) &&
                !(wide && rl_isa_is_source_row(&v, dst + RL_ISA_LANES));
  if (direct) {
    v.d = dst;
    if (wide) v.d_hi = dst + RL_ISA_LANES;
  }
  ((rl_isa_lanes_fn)op->lanes)(&v);
  if (op->dst != RL_ISA_T_NONE && !direct) {
    rl_isa_write_lanes(dst, v.d, v.exec);
    if (wide) rl_isa_write_lanes(dst + RL_ISA_LANES, v.d_hi, v.exec);
  }
  if (op->flags & RL_ISA_F_SDST) {
    wave->sgpr[inst->sdst & 127] = v.mask_out & v.exec;
  }
  return RL_OK;
}

// Writes a compare's lane mask |result| (inactive lanes 0): v_cmpx to
// EXEC, v_cmp to VCC or its VOP3 SGPR destination.
static inline rl_status_t rl_isa_vopc_write(rl_isa_wave_t* wave,
                                            const rl_isa_inst_t* inst,
                                            uint32_t result) {
  if (inst->op->flags & RL_ISA_F_CMPX) {
    wave->sgpr[RL_ISA_SRC_EXEC] = result;
  } else {
    wave->sgpr[inst->sdst & 127] = result;
  }
  return RL_OK;
}

rl_status_t rl_isa_exec_vopc_plain(rl_isa_wave_t* wave,
                                   const rl_isa_inst_t* inst) {
  rl_isa_valu_t v;
  rl_isa_plain_sources(wave, inst, &v);
  v.d = wave->tmp[RL_ISA_ROW_D];
  v.d_hi = wave->tmp[RL_ISA_ROW_D_HI];
  ((rl_isa_lanes_fn)inst->op->lanes)(&v);
  return rl_isa_vopc_write(wave, inst, v.mask_out & v.exec);
}

// The DPP forms (bound instead of rl_isa_exec_valu by isa_program.c):
// source 0 from the DPP fetch, writes limited to the lanes it enables.
rl_status_t rl_isa_exec_valu_dpp(rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst) {
  uint32_t* row = wave->tmp[RL_ISA_ROW_Y];
  uint32_t enable = rl_isa_dpp_fetch(wave, inst, row);
  return rl_isa_valu_run(wave, inst, row, enable);
}

// VOPC: the lane kernel sets |mask_out|; v_cmp writes it (inactive lanes 0)
// to VCC or the VOP3 SGPR destination, v_cmpx to EXEC.
// Under DPP, |src0| is the fetched source 0 and |enable| the lanes it lets
// write (isa_dpp.c).
static inline __attribute__((always_inline)) rl_status_t rl_isa_vopc_run(
    rl_isa_wave_t* wave, const rl_isa_inst_t* inst, const uint32_t* src0,
    uint32_t enable) {
  rl_isa_valu_t v;
  rl_isa_valu_prepare(wave, inst, &v, src0);
  v.exec &= enable;
  ((rl_isa_lanes_fn)inst->op->lanes)(&v);
  return rl_isa_vopc_write(wave, inst, v.mask_out & v.exec);
}

rl_status_t rl_isa_exec_vopc(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  return rl_isa_vopc_run(wave, inst, NULL, RL_ISA_ALL_LANES);
}

rl_status_t rl_isa_exec_vopc_dpp(rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst) {
  uint32_t* row = wave->tmp[RL_ISA_ROW_Y];
  uint32_t enable = rl_isa_dpp_fetch(wave, inst, row);
  return rl_isa_vopc_run(wave, inst, row, enable);
}

// One VOPD half: its sources (broadcast ones into |rows|), before either
// half writes.
static void rl_isa_vopd_half(rl_isa_wave_t* wave, const rl_isa_op_t* op,
                             const rl_isa_operand_t* src, uint32_t* rows,
                             rl_isa_valu_t* v) {
  *v = (rl_isa_valu_t){0};
  for (uint32_t n = 0; n < 3; ++n) {
    v->s[n] = v->hi[n] = rl_isa_zero_row;
    if (src[n].kind == RL_ISA_OPK_NONE) continue;
    v->s[n] = rl_isa_valu_src(wave, &src[n], false, rows + n * RL_ISA_LANES);
  }
  v->exec = wave->sgpr[RL_ISA_SRC_EXEC];
  v->mask = (op->flags & RL_ISA_F_CARRY) ? wave->sgpr[RL_ISA_SRC_VCC] : 0;
  v->mode = wave->mode;
  v->arg = op->arg;
}

// VOPD: both halves read their sources before either writes (the two
// destinations are in different banks and may not overlap the other half's
// sources in a way that matters: RDNA3 ISA guide, "VOPD"). With every lane
// active and neither destination row a source row of either half, the
// kernels write the destination rows themselves (as the plain runner
// does); otherwise scratch rows, copied under EXEC after both ran.
rl_status_t rl_isa_exec_vopd(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  rl_isa_valu_t x, y;
  rl_isa_vopd_half(wave, inst->op, inst->src, wave->tmp[RL_ISA_ROW_SRC], &x);
  rl_isa_vopd_half(wave, inst->op_y, inst->src_y, wave->tmp[RL_ISA_ROW_Y],
                   &y);
  uint32_t exec = x.exec;
  uint32_t* tx = wave->vgpr[inst->dst];
  uint32_t* ty = wave->vgpr[inst->dst_y];
  bool direct = exec == RL_ISA_ALL_LANES && tx != ty &&
                !rl_isa_is_source_row(&x, tx) && !rl_isa_is_source_row(&y, tx) &&
                !rl_isa_is_source_row(&x, ty) && !rl_isa_is_source_row(&y, ty);
  x.d = direct ? tx : wave->tmp[RL_ISA_ROW_D];
  y.d = direct ? ty : wave->tmp[RL_ISA_ROW_DY];
  ((rl_isa_lanes_fn)inst->op->lanes)(&x);
  ((rl_isa_lanes_fn)inst->op_y->lanes)(&y);
  if (!direct) {
    rl_isa_write_lanes(tx, x.d, exec);
    rl_isa_write_lanes(ty, y.d, exec);
  }
  return RL_OK;
}

// VOP3P packed 16-bit integer operations: each source's low result half
// takes its high half when OPSEL bit n is set, the high result half takes
// the high half when OPSEL_HI bit n is set.
typedef uint32_t (*rl_isa_pk_fn)(uint32_t a, uint32_t b, uint32_t c);

rl_status_t rl_isa_exec_vop3p(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  const uint32_t* s[3];
  for (uint32_t n = 0; n < 3; ++n) {
    s[n] = op->src[n] == RL_ISA_T_NONE
               ? rl_isa_zero_row
               : rl_isa_valu_src(wave, &inst->src[n], false,
                                 wave->tmp[RL_ISA_ROW_SRC + n]);
  }
  rl_isa_pk_fn fn = (rl_isa_pk_fn)op->lanes;
  uint32_t* d = wave->tmp[RL_ISA_ROW_D];
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t lo[3], hi[3];
    for (uint32_t n = 0; n < 3; ++n) {
      lo[n] = ((inst->opsel >> n) & 1 ? s[n][l] >> 16 : s[n][l]) & 0xffff;
      hi[n] = ((inst->opsel_hi >> n) & 1 ? s[n][l] >> 16 : s[n][l]) & 0xffff;
    }
    d[l] = (fn(lo[0], lo[1], lo[2]) & 0xffff) |
           (fn(hi[0], hi[1], hi[2]) << 16);
  }
  rl_isa_write_lanes(wave->vgpr[inst->dst], d, wave->sgpr[RL_ISA_SRC_EXEC]);
  return RL_OK;
}

// Lane |lane| of VALU source 0 written to SGPR inst->dst (v_readfirstlane,
// v_readlane).
static rl_status_t rl_isa_lane_to_sgpr(rl_isa_wave_t* wave,
                                       const rl_isa_inst_t* inst,
                                       uint32_t lane) {
  const uint32_t* values = rl_isa_valu_src(wave, &inst->src[0], false,
                                           wave->tmp[RL_ISA_ROW_SRC]);
  wave->sgpr[inst->dst & 127] = values[lane];
  return RL_OK;
}

// v_readfirstlane_b32: the source value of the lowest active lane (lane 0
// when EXEC is zero) to an SGPR.
rl_status_t rl_isa_exec_readfirstlane(rl_isa_wave_t* wave,
                                      const rl_isa_inst_t* inst) {
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  return rl_isa_lane_to_sgpr(wave, inst,
                             exec ? (uint32_t)__builtin_ctz(exec) : 0);
}

// v_readlane_b32 sdst, vsrc, lane: lane (src1 mod 32) of vsrc, ignoring EXEC.
rl_status_t rl_isa_exec_readlane(rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst) {
  return rl_isa_lane_to_sgpr(wave, inst,
                             rl_isa_read_s32(wave, &inst->src[1]) & 31);
}

// v_writelane_b32 vdst, ssrc, lane: writes one lane, ignoring EXEC.
rl_status_t rl_isa_exec_writelane(rl_isa_wave_t* wave,
                                  const rl_isa_inst_t* inst) {
  uint32_t lane = rl_isa_read_s32(wave, &inst->src[1]) & 31;
  wave->vgpr[inst->dst][lane] = rl_isa_read_s32(wave, &inst->src[0]);
  return RL_OK;
}

// ---------------------------------------------------------------------------
// Predecode check.

static bool rl_isa_is_vector_encoding(uint32_t encoding) {
  return encoding >= RL_ISA_ENC_VOP1 && encoding <= RL_ISA_ENC_VOPD;
}

static const char* rl_isa_operand_reason(const rl_isa_inst_t* inst) {
  for (uint32_t n = 0; n < 3; ++n) {
    if (inst->src[n].kind == RL_ISA_OPK_UNSUPPORTED ||
        inst->src_y[n].kind == RL_ISA_OPK_UNSUPPORTED) {
      return "a source operand code (aperture register, DPP or reserved) "
             "that is not modelled";
    }
  }
  return NULL;
}

// The VOP3 OP_SEL bits the runner models: bit n for a binary16 source
// read from a register, bit 3 for a binary16 result of a plain VALU
// operation (not an accumulator).
static const char* rl_isa_opsel_reason(const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  bool runner = op->exec == rl_isa_exec_valu || op->exec == rl_isa_exec_vopc;
  for (uint32_t n = 0; n < 3; ++n) {
    if (!((inst->opsel >> n) & 1)) continue;
    if (!runner || op->src[n] != RL_ISA_T_F16 ||
        (n == 2 && (op->flags & RL_ISA_F_ACCUM))) {
      return "VOP3 op_sel is modelled on binary16 operands only (not on an "
             "accumulator)";
    }
    if (inst->src[n].kind != RL_ISA_OPK_VGPR &&
        inst->src[n].kind != RL_ISA_OPK_SGPR) {
      return "VOP3 op_sel on a constant operand is not modelled";
    }
  }
  if ((inst->opsel & 8) &&
      (op->exec != rl_isa_exec_valu || op->dst != RL_ISA_T_F16 ||
       (op->flags & (RL_ISA_F_ACCUM | RL_ISA_F_SDST)))) {
    return "VOP3 op_sel of the destination is modelled on binary16 results "
           "only";
  }
  return NULL;
}

static const char* rl_isa_vop3_reason(const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  if (inst->omod && (op->dst != RL_ISA_T_F32 || op->exec != rl_isa_exec_valu)) {
    return "the VOP3 output modifier (omod) is modelled on binary32 results "
           "only";
  }
  const char* reason = rl_isa_opsel_reason(inst);
  if (reason) return reason;
  for (uint32_t n = 0; n < 3; ++n) {
    if (!(((inst->abs | inst->neg) >> n) & 1)) continue;
    if ((op->flags & RL_ISA_F_FP_MODS) && n < 2) continue;
    if (op->src[n] != RL_ISA_T_F32 && op->src[n] != RL_ISA_T_F64 &&
        op->src[n] != RL_ISA_T_F16) {
      return "abs/neg modifiers on a non-float operand are not modelled";
    }
  }
  if (inst->clamp && op->dst != RL_ISA_T_F32 &&
      !(op->flags & RL_ISA_F_INT_CLAMP)) {
    return "clamp is modelled for binary32 results and 32-bit integer "
           "add/sub only";
  }
  return NULL;
}

static bool rl_isa_type_is_16(uint32_t type) {
  return type == RL_ISA_T_F16 || type == RL_ISA_T_B16;
}

// VOP1/VOP2/VOPC 16-bit operands: a VGPR field of 128 and up names the high
// half of v[n - 128] (RDNA3 ISA guide, "16-bit VGPR addressing"), which is
// not modelled; LLVM 19 (fake16) keeps these operands in v0..v127.
static const char* rl_isa_vop16_reason(const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  for (uint32_t n = 0; n < 3; ++n) {
    if (!rl_isa_type_is_16(op->src[n])) continue;
    if (inst->src[n].kind == RL_ISA_OPK_VGPR && inst->src[n].reg >= 128) {
      return "a 16-bit operand in a VGPR high half (v.h) is not modelled";
    }
  }
  if (rl_isa_type_is_16(op->dst) && inst->dst >= 128) {
    return "a 16-bit result in a VGPR high half (v.h) is not modelled";
  }
  return NULL;
}

static const char* rl_isa_vop3p_reason(const rl_isa_inst_t* inst) {
  if (inst->op->flags & RL_ISA_F_PK_MODS) {  // the op's runner applies them
    if (inst->clamp) return "VOP3P clamp is not modelled";
    return rl_isa_packed_reason(inst);
  }
  if (inst->neg || inst->neg_hi || inst->clamp) {
    return "VOP3P neg/neg_hi/clamp are not modelled";
  }
  for (uint32_t n = 0; n < 3; ++n) {
    if (inst->src[n].kind == RL_ISA_OPK_CONST) {
      return "VOP3P constant operands are not modelled";
    }
  }
  return NULL;
}

const char* rl_isa_inst_unsupported_reason(const rl_isa_inst_t* inst) {
  if (inst->op == NULL || inst->size == 0) return "unknown instruction";
  if (inst->gfx12 && rl_isa_gfx12_reason(inst)) return rl_isa_gfx12_reason(inst);
  if (inst->encoding == RL_ISA_ENC_SOPP || inst->encoding == RL_ISA_ENC_SOPK) {
    return rl_isa_mode_reason(inst);
  }
  if (inst->encoding == RL_ISA_ENC_MIMG) return rl_isa_image_reason(inst);
  if (inst->encoding == RL_ISA_ENC_DS && rl_isa_ds_permute_reason(inst)) {
    return rl_isa_ds_permute_reason(inst);
  }
  if (inst->encoding == RL_ISA_ENC_VOPD && inst->op_y == NULL) {
    return "unknown VOPD Y opcode";
  }
  const char* reason = rl_isa_operand_reason(inst);
  if (reason) return reason;
  if (rl_isa_is_permlane(inst->op)) return rl_isa_permlane_reason(inst);
  if (inst->dpp) {
    reason = rl_isa_dpp_reason(inst);
    if (reason) return reason;
    if (inst->encoding != RL_ISA_ENC_VOP3) {  // DPP16 NEG/ABS of VOP1/VOP2
      for (uint32_t n = 0; n < 2; ++n) {
        if ((((inst->abs | inst->neg) >> n) & 1) &&
            !(inst->op->flags & RL_ISA_F_FP_MODS) &&
            inst->op->src[n] != RL_ISA_T_F32 &&
            inst->op->src[n] != RL_ISA_T_F16) {
          return "abs/neg modifiers on a non-float operand are not modelled";
        }
      }
    }
  }
  if (inst->encoding == RL_ISA_ENC_VOP3) return rl_isa_vop3_reason(inst);
  if (inst->encoding == RL_ISA_ENC_VOP3P) return rl_isa_vop3p_reason(inst);
  if (inst->encoding == RL_ISA_ENC_VOP1 || inst->encoding == RL_ISA_ENC_VOP2 ||
      inst->encoding == RL_ISA_ENC_VOPC) {
    reason = rl_isa_vop16_reason(inst);
    if (reason) return reason;
  }
  if (rl_isa_is_vector_encoding(inst->encoding) && inst->op->exec == NULL) {
    return "no semantics";
  }
  return NULL;
}
