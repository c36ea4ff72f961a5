// sim/isa/isa_salu.c — scalar ALU semantics and the SOP1, SOP2,
// SOPK and SOPC opcode tables of the ISA executor.
//
// Sources: opcodes from LLVM llvm/lib/Target/AMDGPU/SOPInstructions.td
// (gfx11 encodings), confirmed with llvm-mc-19 -mcpu=gfx1100 (gfx1151 for
// the SALU float opcodes of gfx1150+) by tests/unit/sim/isa/isa_decode_test.c;
// semantics from the RDNA3 ISA guide, "Scalar ALU Operations" (each
// opcode's pseudo-code, including which ones write SCC and how).
#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_float.h"

#define B32 RL_ISA_T_B32
#define B64 RL_ISA_T_B64
#define F32 RL_ISA_T_F32
#define NO RL_ISA_T_NONE
#define SCC RL_ISA_F_SCC
#define SF RL_ISA_F_SALU_FLOAT

static uint32_t rl_isa_width_mask(uint64_t width) {
  return width >= 32 ? 0xffffffffu : (1u << width) - 1u;
}

// Signed overflow of a 32-bit a + b (or a - b when |sub|).
static uint32_t rl_isa_overflow32(uint32_t a, uint32_t b, uint32_t d,
                                  bool sub) {
  uint32_t sb = sub ? ~b : b;
  return ((~(a ^ sb) & (a ^ d)) >> 31) & 1;
}

#define RL_ISA_SALU(name, ...) \
  static void name(rl_isa_salu_t* s) { __VA_ARGS__; }
#define A32 ((uint32_t)s->a)
#define B32V ((uint32_t)s->b)
#define NZ32 (s->scc = (uint32_t)s->d != 0)
#define NZ64 (s->scc = s->d != 0)

// SOP2 integer.
RL_ISA_SALU(rl_isa_s_add_u32, uint64_t r = (uint64_t)A32 + B32V; s->d = (uint32_t)r; s->scc = (uint32_t)(r >> 32))
RL_ISA_SALU(rl_isa_s_sub_u32, s->d = (uint32_t)(A32 - B32V); s->scc = A32 < B32V)
RL_ISA_SALU(rl_isa_s_add_i32, s->d = (uint32_t)(A32 + B32V); s->scc = rl_isa_overflow32(A32, B32V, (uint32_t)s->d, false))
RL_ISA_SALU(rl_isa_s_sub_i32, s->d = (uint32_t)(A32 - B32V); s->scc = rl_isa_overflow32(A32, B32V, (uint32_t)s->d, true))
RL_ISA_SALU(rl_isa_s_addc_u32, uint64_t r = (uint64_t)A32 + B32V + s->scc; s->d = (uint32_t)r; s->scc = (uint32_t)(r >> 32))
RL_ISA_SALU(rl_isa_s_subb_u32, uint64_t r = (uint64_t)A32 - B32V - s->scc; s->d = (uint32_t)r; s->scc = (uint32_t)(r >> 63))
RL_ISA_SALU(rl_isa_s_absdiff_i32, int64_t r = (int64_t)(int32_t)A32 - (int32_t)B32V; s->d = (uint32_t)(r < 0 ? -r : r); NZ32)
RL_ISA_SALU(rl_isa_s_lshl_b32, s->d = (uint32_t)(A32 << (B32V & 31)); NZ32)
RL_ISA_SALU(rl_isa_s_lshl_b64, s->d = s->a << (s->b & 63); NZ64)
RL_ISA_SALU(rl_isa_s_lshr_b32, s->d = A32 >> (B32V & 31); NZ32)
RL_ISA_SALU(rl_isa_s_lshr_b64, s->d = s->a >> (s->b & 63); NZ64)
RL_ISA_SALU(rl_isa_s_ashr_i32, s->d = (uint32_t)((int32_t)A32 >> (B32V & 31)); NZ32)
RL_ISA_SALU(rl_isa_s_ashr_i64, s->d = (uint64_t)((int64_t)s->a >> (s->b & 63)); NZ64)
RL_ISA_SALU(rl_isa_s_lshl_add, uint64_t r = ((uint64_t)A32 << s->arg) + B32V; s->d = (uint32_t)r; s->scc = r > 0xffffffffu)
RL_ISA_SALU(rl_isa_s_min_i32, s->scc = (int32_t)A32 < (int32_t)B32V; s->d = s->scc ? A32 : B32V)
RL_ISA_SALU(rl_isa_s_min_u32, s->scc = A32 < B32V; s->d = s->scc ? A32 : B32V)
RL_ISA_SALU(rl_isa_s_max_i32, s->scc = (int32_t)A32 > (int32_t)B32V; s->d = s->scc ? A32 : B32V)
RL_ISA_SALU(rl_isa_s_max_u32, s->scc = A32 > B32V; s->d = s->scc ? A32 : B32V)
RL_ISA_SALU(rl_isa_s_and, s->d = s->a & s->b; NZ64)
RL_ISA_SALU(rl_isa_s_or, s->d = s->a | s->b; NZ64)
RL_ISA_SALU(rl_isa_s_xor, s->d = s->a ^ s->b; NZ64)
RL_ISA_SALU(rl_isa_s_nand32, s->d = (uint32_t)~(s->a & s->b); NZ32)
RL_ISA_SALU(rl_isa_s_nor32, s->d = (uint32_t)~(s->a | s->b); NZ32)
RL_ISA_SALU(rl_isa_s_xnor32, s->d = (uint32_t)~(s->a ^ s->b); NZ32)
RL_ISA_SALU(rl_isa_s_and_not1, s->d = s->a & ~s->b; NZ64)
RL_ISA_SALU(rl_isa_s_or_not1, s->d = s->a | ~s->b; NZ64)
RL_ISA_SALU(rl_isa_s_or_not1_32, s->d = (uint32_t)(s->a | ~s->b); NZ32)
RL_ISA_SALU(rl_isa_s_bfe_u32, s->d = (A32 >> (B32V & 31)) & rl_isa_width_mask((B32V >> 16) & 0x7f); NZ32)
RL_ISA_SALU(rl_isa_s_bfe_i32,
            uint32_t w = (B32V >> 16) & 0x7f; uint32_t v = (A32 >> (B32V & 31)) & rl_isa_width_mask(w);
            if (w > 0 && w < 32 && (v >> (w - 1)) & 1) v |= ~rl_isa_width_mask(w);
            s->d = w == 0 ? 0 : v; NZ32)
RL_ISA_SALU(rl_isa_s_bfe_u64,
            uint64_t w = (B32V >> 16) & 0x7f; uint64_t v = s->a >> (B32V & 63);
            s->d = w >= 64 ? v : v & ((1ull << w) - 1); NZ64)
RL_ISA_SALU(rl_isa_s_bfm_b32, s->d = (uint32_t)(rl_isa_width_mask(A32 & 31) << (B32V & 31)))
RL_ISA_SALU(rl_isa_s_mul_i32, s->d = (uint32_t)(A32 * B32V))
RL_ISA_SALU(rl_isa_s_mul_hi_u32, s->d = (uint32_t)(((uint64_t)A32 * B32V) >> 32))
RL_ISA_SALU(rl_isa_s_mul_hi_i32, s->d = (uint32_t)((uint64_t)((int64_t)(int32_t)A32 * (int32_t)B32V) >> 32))
RL_ISA_SALU(rl_isa_s_cselect, s->d = s->scc ? s->a : s->b)
RL_ISA_SALU(rl_isa_s_pack_ll, s->d = (A32 & 0xffff) | (B32V << 16))
RL_ISA_SALU(rl_isa_s_pack_lh, s->d = (A32 & 0xffff) | (B32V & 0xffff0000u))
RL_ISA_SALU(rl_isa_s_pack_hh, s->d = (A32 >> 16) | (B32V & 0xffff0000u))

// SOP2 float (gfx1150+): the same model as the VALU (isa_float.h).
static float rl_isa_sf(const rl_isa_salu_t* s, uint64_t bits) {
  uint32_t b = (uint32_t)bits;
  return rl_isa_f32((s->mode & RL_ISA_MODE_FTZ32) ? rl_isa_flush32(b) : b);
}
static uint32_t rl_isa_sf_bits(const rl_isa_salu_t* s, uint32_t b) {
  return (s->mode & RL_ISA_MODE_FTZ32) ? rl_isa_flush32(b) : b;
}
static uint32_t rl_isa_sf_out(const rl_isa_salu_t* s, float value) {
  return rl_isa_sf_bits(s, rl_isa_bits32(value));
}
RL_ISA_SALU(rl_isa_s_add_f32, s->d = rl_isa_sf_out(s, rl_isa_sf(s, s->a) + rl_isa_sf(s, s->b)))
RL_ISA_SALU(rl_isa_s_sub_f32, s->d = rl_isa_sf_out(s, rl_isa_sf(s, s->a) - rl_isa_sf(s, s->b)))
RL_ISA_SALU(rl_isa_s_mul_f32, s->d = rl_isa_sf_out(s, rl_isa_sf(s, s->a) * rl_isa_sf(s, s->b)))
RL_ISA_SALU(rl_isa_s_fmac_f32, s->d = rl_isa_sf_out(s, fmaf(rl_isa_sf(s, s->a), rl_isa_sf(s, s->b), rl_isa_sf(s, s->d))))
RL_ISA_SALU(rl_isa_s_fmaak_f32, s->d = rl_isa_sf_out(s, fmaf(rl_isa_sf(s, s->a), rl_isa_sf(s, s->b), rl_isa_sf(s, s->c))))
RL_ISA_SALU(rl_isa_s_fmamk_f32, s->d = rl_isa_sf_out(s, fmaf(rl_isa_sf(s, s->a), rl_isa_sf(s, s->c), rl_isa_sf(s, s->b))))
// min/max: denormal inputs flushed under FTZ, as v_min/max_f32.
RL_ISA_SALU(rl_isa_s_min_f32,
            s->d = rl_isa_minmax32(rl_isa_sf_bits(s, A32), rl_isa_sf_bits(s, B32V),
                                   false, s->mode & RL_ISA_MODE_IEEE))
RL_ISA_SALU(rl_isa_s_max_f32,
            s->d = rl_isa_minmax32(rl_isa_sf_bits(s, A32), rl_isa_sf_bits(s, B32V),
                                   true, s->mode & RL_ISA_MODE_IEEE))

// SOP1.
RL_ISA_SALU(rl_isa_s_mov, s->d = s->a)
RL_ISA_SALU(rl_isa_s_cmov, if (s->scc) s->d = s->a)
// s_bitset1_b32: D.u32[S0.u32[4:0]] = 1 (RDNA3 ISA guide, SOP1).
RL_ISA_SALU(rl_isa_s_bitset1_b32, s->d = (uint32_t)s->d | (1u << (A32 & 31)))
RL_ISA_SALU(rl_isa_s_not, s->d = ~s->a; NZ64)
RL_ISA_SALU(rl_isa_s_not32, s->d = (uint32_t)~s->a; NZ32)
RL_ISA_SALU(rl_isa_s_brev_b32,
            uint32_t v = A32, r = 0; for (int i = 0; i < 32; ++i) { r = (r << 1) | (v & 1); v >>= 1; } s->d = r)
RL_ISA_SALU(rl_isa_s_abs_i32, int32_t v = (int32_t)A32; s->d = v < 0 ? (uint32_t)0 - A32 : A32; NZ32)
RL_ISA_SALU(rl_isa_s_sext_i8, s->d = (uint32_t)(int32_t)(int8_t)A32)
RL_ISA_SALU(rl_isa_s_sext_i16, s->d = (uint32_t)(int32_t)(int16_t)A32)
RL_ISA_SALU(rl_isa_s_bcnt1_b32, s->d = (uint32_t)__builtin_popcount(A32); NZ32)
RL_ISA_SALU(rl_isa_s_ctz_b32, s->d = A32 ? (uint32_t)__builtin_ctz(A32) : 0xffffffffu)
RL_ISA_SALU(rl_isa_s_clz_u32, s->d = A32 ? (uint32_t)__builtin_clz(A32) : 0xffffffffu)
RL_ISA_SALU(rl_isa_s_ctz_b64, s->d = s->a ? (uint32_t)__builtin_ctzll(s->a) : 0xffffffffu)
RL_ISA_SALU(rl_isa_s_clz_u64, s->d = s->a ? (uint32_t)__builtin_clzll(s->a) : 0xffffffffu)
// s_cls_i32 / s_cls_i32_i64: how many leading bits equal the sign bit (the
// sign bit included), -1 when every bit does (RDNA3 ISA guide, S_CLS_I32:
// the loop from bit 30 down stops at the first bit that differs from bit
// 31 and returns its distance from the MSB).
RL_ISA_SALU(rl_isa_s_cls_i32,
            uint32_t v = A32 ^ (uint32_t)((int32_t)A32 >> 31);
            s->d = v ? (uint32_t)__builtin_clz(v) : 0xffffffffu)
RL_ISA_SALU(rl_isa_s_cls_i64,
            uint64_t v = s->a ^ (uint64_t)((int64_t)s->a >> 63);
            s->d = v ? (uint32_t)__builtin_clzll(v) : 0xffffffffu)
RL_ISA_SALU(rl_isa_s_cvt_f32_i32, s->d = rl_isa_sf_out(s, (float)(int32_t)A32))
RL_ISA_SALU(rl_isa_s_cvt_f32_u32, s->d = rl_isa_sf_out(s, (float)A32))
RL_ISA_SALU(rl_isa_s_cvt_i32_f32, s->d = rl_isa_cvt_i32(rl_isa_sf(s, s->a)))
RL_ISA_SALU(rl_isa_s_cvt_u32_f32, s->d = rl_isa_cvt_u32(rl_isa_sf(s, s->a)))
RL_ISA_SALU(rl_isa_s_ceil_f32, s->d = rl_isa_sf_out(s, ceilf(rl_isa_sf(s, s->a))))
RL_ISA_SALU(rl_isa_s_floor_f32, s->d = rl_isa_sf_out(s, floorf(rl_isa_sf(s, s->a))))
RL_ISA_SALU(rl_isa_s_trunc_f32, s->d = rl_isa_sf_out(s, truncf(rl_isa_sf(s, s->a))))
RL_ISA_SALU(rl_isa_s_rndne_f32, s->d = rl_isa_sf_out(s, nearbyintf(rl_isa_sf(s, s->a))))

// SOPK: |a| is the destination register's value, |b| the sign-extended
// immediate; arg 1 marks an unsigned compare (zero-extended immediate).
RL_ISA_SALU(rl_isa_s_movk, s->d = (uint32_t)s->b)
RL_ISA_SALU(rl_isa_s_cmovk, if (s->scc) s->d = (uint32_t)s->b)
RL_ISA_SALU(rl_isa_s_addk, s->d = (uint32_t)(A32 + B32V); s->scc = rl_isa_overflow32(A32, B32V, (uint32_t)s->d, false))
RL_ISA_SALU(rl_isa_s_mulk, s->d = (uint32_t)(A32 * B32V))

// SOPC and s_cmpk_*: arg = condition (isa_float.h order), bit 4 unsigned,
// bit 5 64-bit, bit 6 float.
static void rl_isa_s_cmp(rl_isa_salu_t* s) {
  uint32_t cond = s->arg & 15;
  if (s->arg & 64) {
    s->scc = rl_isa_cmp_float(rl_isa_sf(s, s->a), rl_isa_sf(s, s->b), cond);
    return;
  }
  bool wide = (s->arg & 32) != 0, is_unsigned = (s->arg & 16) != 0;
  uint64_t ua = wide ? s->a : A32, ub = wide ? s->b : B32V;
  if (!wide && is_unsigned && s->c) ub &= 0xffff;  // s_cmpk_*_u32
  int64_t a = wide ? (int64_t)s->a : (int32_t)A32;
  int64_t b = wide ? (int64_t)s->b : (int32_t)B32V;
  s->scc = rl_isa_cmp_int(a, b, ua, ub, !is_unsigned, cond);
}
RL_ISA_SALU(rl_isa_s_bitcmp, s->scc = ((A32 >> (B32V & 31)) & 1) == s->arg)

// Reads a scalar source of |type| into 64 bits.
static uint64_t rl_isa_salu_read(const rl_isa_wave_t* wave,
                                 const rl_isa_operand_t* operand,
                                 uint32_t type) {
  if (type == B64) return rl_isa_read_s64(wave, operand);
  return rl_isa_read_s32(wave, operand);
}

static void rl_isa_salu_write(rl_isa_wave_t* wave, uint32_t reg,
                              uint32_t type, uint64_t value) {
  if (type == B64) rl_isa_write_s64(wave, reg, value);
  else if (type != NO) wave->sgpr[reg & 127] = (uint32_t)value;
}

static rl_status_t rl_isa_salu_run(rl_isa_wave_t* wave,
                                   const rl_isa_inst_t* inst,
                                   rl_isa_salu_t* s) {
  const rl_isa_op_t* op = inst->op;
  s->scc = wave->scc;
  s->mode = wave->mode;
  s->arg = op->arg;
  ((rl_isa_salu_fn)op->lanes)(s);
  rl_isa_salu_write(wave, inst->dst, op->dst, s->d);
  if (op->flags & SCC) wave->scc = s->scc & 1;
  return RL_OK;
}

rl_status_t rl_isa_exec_salu(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  rl_isa_salu_t s = {0};
  s.a = rl_isa_salu_read(wave, &inst->src[0], op->src[0]);
  s.b = rl_isa_salu_read(wave, &inst->src[1], op->src[1]);
  s.c = inst->src[2].value;
  s.d = wave->sgpr[inst->dst & 127];
  if (op->dst == B64) s.d |= (uint64_t)wave->sgpr[(inst->dst + 1) & 127] << 32;
  return rl_isa_salu_run(wave, inst, &s);
}

rl_status_t rl_isa_exec_sopk(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  rl_isa_salu_t s = {0};
  s.a = wave->sgpr[inst->dst & 127];
  s.b = (uint64_t)(int64_t)inst->simm16;
  s.c = 1;  // marks the SOPK immediate for unsigned compares
  s.d = s.a;
  return rl_isa_salu_run(wave, inst, &s);
}

rl_status_t rl_isa_exec_sopc(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  rl_isa_salu_t s = {0};
  s.a = rl_isa_salu_read(wave, &inst->src[0], inst->op->src[0]);
  s.b = rl_isa_salu_read(wave, &inst->src[1], inst->op->src[1]);
  return rl_isa_salu_run(wave, inst, &s);
}

// ---------------------------------------------------------------------------
// The plain forms: an opcode of RL_ISA_SALU_PLAIN_LIST whose sources are
// SGPRs or constants (no SCC, VCCZ or EXECZ operand), bound instead of the
// generic runner by the program builder (rl_isa_salu_plain). Each gets a
// runner of its own that does what the generic one does, step for step,
// with the opcode's types, flags and argument known at compile time and its
// kernel above inlined: no switch on the operand kind or type, no call
// through op->lanes. A row matches an opcode table entry only when every
// field the generic runner reads (runner, flags, types, arg, kernel) is the
// same, so a row can only ever replace the runner of the opcode it copies.

enum { RL_ISA_PLAIN_SALU, RL_ISA_PLAIN_SOPK, RL_ISA_PLAIN_SOPC };

// A source of a plain form: an SGPR or a constant (rl_isa_salu_read for
// those two kinds).
static inline __attribute__((always_inline)) uint64_t rl_isa_plain_read(
    const rl_isa_wave_t* wave, const rl_isa_operand_t* operand,
    uint32_t type) {
  if (type == NO) return 0;  // the operand's kind is NONE (rl_isa_read_s32)
  if (operand->kind != RL_ISA_OPK_SGPR) {
    return type == B64 ? operand->value : (uint32_t)operand->value;
  }
  uint32_t r = operand->reg;
  uint64_t lo = wave->sgpr[r];
  return type == B64 ? lo | (uint64_t)wave->sgpr[(r + 1) & 127] << 32 : lo;
}

// The inputs rl_isa_exec_salu / _sopk / _sopc give the kernel.
static inline __attribute__((always_inline)) void rl_isa_plain_inputs(
    const rl_isa_wave_t* wave, const rl_isa_inst_t* inst, uint32_t runner,
    uint32_t d, uint32_t a, uint32_t b, rl_isa_salu_t* s) {
  *s = (rl_isa_salu_t){0};
  if (runner == RL_ISA_PLAIN_SOPK) {
    s->a = s->d = wave->sgpr[inst->dst & 127];
    s->b = (uint64_t)(int64_t)inst->simm16;
    s->c = 1;
    return;
  }
  s->a = rl_isa_plain_read(wave, &inst->src[0], a);
  s->b = rl_isa_plain_read(wave, &inst->src[1], b);
  if (runner == RL_ISA_PLAIN_SOPC) return;
  s->c = inst->src[2].value;
  s->d = wave->sgpr[inst->dst & 127];
  if (d == B64) s->d |= (uint64_t)wave->sgpr[(inst->dst + 1) & 127] << 32;
}

// The opcodes with a plain runner: X(name, runner, flags, dst, src0, src1,
// arg, kernel), each as its opcode table entry above has it.
#define RL_ISA_SALU_PLAIN_LIST(X) \
  X(s_add_u32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_add_u32) \
  X(s_sub_u32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_sub_u32) \
  X(s_add_i32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_add_i32) \
  X(s_sub_i32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_sub_i32) \
  X(s_addc_u32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_addc_u32) \
  X(s_subb_u32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_subb_u32) \
  X(s_absdiff_i32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_absdiff_i32) \
  X(s_lshl_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_lshl_b32) \
  X(s_lshl_b64, SALU, SCC, B64, B64, B32, 0, rl_isa_s_lshl_b64) \
  X(s_lshr_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_lshr_b32) \
  X(s_lshr_b64, SALU, SCC, B64, B64, B32, 0, rl_isa_s_lshr_b64) \
  X(s_ashr_i32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_ashr_i32) \
  X(s_ashr_i64, SALU, SCC, B64, B64, B32, 0, rl_isa_s_ashr_i64) \
  X(s_lshl1_add_u32, SALU, SCC, B32, B32, B32, 1, rl_isa_s_lshl_add) \
  X(s_lshl2_add_u32, SALU, SCC, B32, B32, B32, 2, rl_isa_s_lshl_add) \
  X(s_lshl3_add_u32, SALU, SCC, B32, B32, B32, 3, rl_isa_s_lshl_add) \
  X(s_lshl4_add_u32, SALU, SCC, B32, B32, B32, 4, rl_isa_s_lshl_add) \
  X(s_min_i32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_min_i32) \
  X(s_min_u32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_min_u32) \
  X(s_max_i32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_max_i32) \
  X(s_max_u32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_max_u32) \
  X(s_and_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_and) \
  X(s_and_b64, SALU, SCC, B64, B64, B64, 0, rl_isa_s_and) \
  X(s_or_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_or) \
  X(s_or_b64, SALU, SCC, B64, B64, B64, 0, rl_isa_s_or) \
  X(s_xor_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_xor) \
  X(s_xor_b64, SALU, SCC, B64, B64, B64, 0, rl_isa_s_xor) \
  X(s_nand_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_nand32) \
  X(s_nor_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_nor32) \
  X(s_xnor_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_xnor32) \
  X(s_and_not1_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_and_not1) \
  X(s_and_not1_b64, SALU, SCC, B64, B64, B64, 0, rl_isa_s_and_not1) \
  X(s_or_not1_b32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_or_not1_32) \
  X(s_or_not1_b64, SALU, SCC, B64, B64, B64, 0, rl_isa_s_or_not1) \
  X(s_bfe_u32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_bfe_u32) \
  X(s_bfe_i32, SALU, SCC, B32, B32, B32, 0, rl_isa_s_bfe_i32) \
  X(s_bfe_u64, SALU, SCC, B64, B64, B32, 0, rl_isa_s_bfe_u64) \
  X(s_bfm_b32, SALU, 0, B32, B32, B32, 0, rl_isa_s_bfm_b32) \
  X(s_mul_i32, SALU, 0, B32, B32, B32, 0, rl_isa_s_mul_i32) \
  X(s_mul_hi_u32, SALU, 0, B32, B32, B32, 0, rl_isa_s_mul_hi_u32) \
  X(s_mul_hi_i32, SALU, 0, B32, B32, B32, 0, rl_isa_s_mul_hi_i32) \
  X(s_cselect_b32, SALU, 0, B32, B32, B32, 0, rl_isa_s_cselect) \
  X(s_cselect_b64, SALU, 0, B64, B64, B64, 0, rl_isa_s_cselect) \
  X(s_pack_ll_b32_b16, SALU, 0, B32, B32, B32, 0, rl_isa_s_pack_ll) \
  X(s_pack_lh_b32_b16, SALU, 0, B32, B32, B32, 0, rl_isa_s_pack_lh) \
  X(s_pack_hh_b32_b16, SALU, 0, B32, B32, B32, 0, rl_isa_s_pack_hh) \
  X(s_mov_b32, SALU, 0, B32, B32, NO, 0, rl_isa_s_mov) \
  X(s_mov_b64, SALU, 0, B64, B64, NO, 0, rl_isa_s_mov) \
  X(s_cmov_b32, SALU, 0, B32, B32, NO, 0, rl_isa_s_cmov) \
  X(s_cmov_b64, SALU, 0, B64, B64, NO, 0, rl_isa_s_cmov) \
  X(s_brev_b32, SALU, 0, B32, B32, NO, 0, rl_isa_s_brev_b32) \
  X(s_ctz_i32_b32, SALU, 0, B32, B32, NO, 0, rl_isa_s_ctz_b32) \
  X(s_ctz_i32_b64, SALU, 0, B32, B64, NO, 0, rl_isa_s_ctz_b64) \
  X(s_clz_i32_u32, SALU, 0, B32, B32, NO, 0, rl_isa_s_clz_u32) \
  X(s_clz_i32_u64, SALU, 0, B32, B64, NO, 0, rl_isa_s_clz_u64) \
  X(s_cls_i32, SALU, 0, B32, B32, NO, 0, rl_isa_s_cls_i32) \
  X(s_cls_i32_i64, SALU, 0, B32, B64, NO, 0, rl_isa_s_cls_i64) \
  X(s_sext_i32_i8, SALU, 0, B32, B32, NO, 0, rl_isa_s_sext_i8) \
  X(s_sext_i32_i16, SALU, 0, B32, B32, NO, 0, rl_isa_s_sext_i16) \
  X(s_bitset1_b32, SALU, 0, B32, B32, NO, 0, rl_isa_s_bitset1_b32) \
  X(s_abs_i32, SALU, SCC, B32, B32, NO, 0, rl_isa_s_abs_i32) \
  X(s_bcnt1_i32_b32, SALU, SCC, B32, B32, NO, 0, rl_isa_s_bcnt1_b32) \
  X(s_not_b32, SALU, SCC, B32, B32, NO, 0, rl_isa_s_not32) \
  X(s_not_b64, SALU, SCC, B64, B64, NO, 0, rl_isa_s_not) \
  X(s_movk_i32, SOPK, 0, B32, B32, NO, 0, rl_isa_s_movk) \
  X(s_cmovk_i32, SOPK, 0, B32, B32, NO, 0, rl_isa_s_cmovk) \
  X(s_cmpk_eq_i32, SOPK, SCC, NO, B32, NO, 2, rl_isa_s_cmp) \
  X(s_cmpk_lg_i32, SOPK, SCC, NO, B32, NO, 5, rl_isa_s_cmp) \
  X(s_cmpk_gt_i32, SOPK, SCC, NO, B32, NO, 4, rl_isa_s_cmp) \
  X(s_cmpk_ge_i32, SOPK, SCC, NO, B32, NO, 6, rl_isa_s_cmp) \
  X(s_cmpk_lt_i32, SOPK, SCC, NO, B32, NO, 1, rl_isa_s_cmp) \
  X(s_cmpk_le_i32, SOPK, SCC, NO, B32, NO, 3, rl_isa_s_cmp) \
  X(s_cmpk_eq_u32, SOPK, SCC, NO, B32, NO, 16 | 2, rl_isa_s_cmp) \
  X(s_cmpk_lg_u32, SOPK, SCC, NO, B32, NO, 16 | 5, rl_isa_s_cmp) \
  X(s_cmpk_gt_u32, SOPK, SCC, NO, B32, NO, 16 | 4, rl_isa_s_cmp) \
  X(s_cmpk_ge_u32, SOPK, SCC, NO, B32, NO, 16 | 6, rl_isa_s_cmp) \
  X(s_cmpk_lt_u32, SOPK, SCC, NO, B32, NO, 16 | 1, rl_isa_s_cmp) \
  X(s_cmpk_le_u32, SOPK, SCC, NO, B32, NO, 16 | 3, rl_isa_s_cmp) \
  X(s_addk_i32, SOPK, SCC, B32, B32, NO, 0, rl_isa_s_addk) \
  X(s_mulk_i32, SOPK, 0, B32, B32, NO, 0, rl_isa_s_mulk) \
  X(s_cmp_eq_i32, SOPC, SCC, NO, B32, B32, 2, rl_isa_s_cmp) \
  X(s_cmp_lg_i32, SOPC, SCC, NO, B32, B32, 5, rl_isa_s_cmp) \
  X(s_cmp_gt_i32, SOPC, SCC, NO, B32, B32, 4, rl_isa_s_cmp) \
  X(s_cmp_ge_i32, SOPC, SCC, NO, B32, B32, 6, rl_isa_s_cmp) \
  X(s_cmp_lt_i32, SOPC, SCC, NO, B32, B32, 1, rl_isa_s_cmp) \
  X(s_cmp_le_i32, SOPC, SCC, NO, B32, B32, 3, rl_isa_s_cmp) \
  X(s_cmp_eq_u32, SOPC, SCC, NO, B32, B32, 16 | 2, rl_isa_s_cmp) \
  X(s_cmp_lg_u32, SOPC, SCC, NO, B32, B32, 16 | 5, rl_isa_s_cmp) \
  X(s_cmp_gt_u32, SOPC, SCC, NO, B32, B32, 16 | 4, rl_isa_s_cmp) \
  X(s_cmp_ge_u32, SOPC, SCC, NO, B32, B32, 16 | 6, rl_isa_s_cmp) \
  X(s_cmp_lt_u32, SOPC, SCC, NO, B32, B32, 16 | 1, rl_isa_s_cmp) \
  X(s_cmp_le_u32, SOPC, SCC, NO, B32, B32, 16 | 3, rl_isa_s_cmp) \
  X(s_bitcmp0_b32, SOPC, SCC, NO, B32, B32, 0, rl_isa_s_bitcmp) \
  X(s_bitcmp1_b32, SOPC, SCC, NO, B32, B32, 1, rl_isa_s_bitcmp) \
  X(s_cmp_eq_u64, SOPC, SCC, NO, B64, B64, 32 | 16 | 2, rl_isa_s_cmp) \
  X(s_cmp_lg_u64, SOPC, SCC, NO, B64, B64, 32 | 16 | 5, rl_isa_s_cmp) \

#define RL_ISA_PLAIN_RUNNER(NAME, RUNNER, FLAGS, DT, AT, BT, ARG, KERNEL)  \
  static rl_status_t rl_isa_plain_##NAME(rl_isa_wave_t* wave,              \
                                         const rl_isa_inst_t* inst) {      \
    rl_isa_salu_t s;                                                       \
    rl_isa_plain_inputs(wave, inst, RL_ISA_PLAIN_##RUNNER, DT, AT, BT, &s); \
    s.scc = wave->scc;                                                     \
    s.mode = wave->mode;                                                   \
    s.arg = (ARG);                                                         \
    KERNEL(&s);                                                            \
    rl_isa_salu_write(wave, inst->dst, DT, s.d);                           \
    if ((FLAGS) & SCC) wave->scc = s.scc & 1;                              \
    return RL_OK;                                                          \
  }
RL_ISA_SALU_PLAIN_LIST(RL_ISA_PLAIN_RUNNER)

typedef struct rl_isa_plain_row_s {
  uint8_t runner;
  uint16_t flags;
  uint8_t dst, src[2];
  uint16_t arg;
  rl_isa_salu_fn kernel;
  rl_isa_exec_fn exec;
} rl_isa_plain_row_t;

#define RL_ISA_PLAIN_ROW(NAME, RUNNER, FLAGS, DT, AT, BT, ARG, KERNEL) \
  {RL_ISA_PLAIN_##RUNNER, (FLAGS), DT, {AT, BT}, (ARG), KERNEL,        \
   rl_isa_plain_##NAME},
static const rl_isa_plain_row_t rl_isa_plain_rows[] = {
    RL_ISA_SALU_PLAIN_LIST(RL_ISA_PLAIN_ROW)};

// The runner kind of |op| (RL_ISA_PLAIN_*), or -1 when it is none of the
// three.
static int rl_isa_plain_runner(const rl_isa_op_t* op) {
  if (op->exec == rl_isa_exec_salu) return RL_ISA_PLAIN_SALU;
  if (op->exec == rl_isa_exec_sopk) return RL_ISA_PLAIN_SOPK;
  if (op->exec == rl_isa_exec_sopc) return RL_ISA_PLAIN_SOPC;
  return -1;
}

rl_isa_exec_fn rl_isa_salu_plain(const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  int runner = op != NULL ? rl_isa_plain_runner(op) : -1;
  if (runner < 0) return NULL;
  for (uint32_t n = 0; n < 2 && runner != RL_ISA_PLAIN_SOPK; ++n) {
    uint32_t kind = inst->src[n].kind;
    bool ok = op->src[n] == NO ? kind == RL_ISA_OPK_NONE
                               : kind == RL_ISA_OPK_SGPR ||
                                     kind == RL_ISA_OPK_CONST;
    if (!ok) return NULL;
  }
  rl_isa_salu_fn kernel = (rl_isa_salu_fn)op->lanes;
  const size_t rows = sizeof(rl_isa_plain_rows) / sizeof(rl_isa_plain_rows[0]);
  for (size_t i = 0; i < rows; ++i) {
    const rl_isa_plain_row_t* row = &rl_isa_plain_rows[i];
    if (row->runner == runner && row->flags == op->flags &&
        row->dst == op->dst && row->src[0] == op->src[0] &&
        row->src[1] == op->src[1] && row->arg == op->arg &&
        row->kernel == kernel) {
      return row->exec;
    }
  }
  return NULL;
}

// s_*_saveexec_b32 (wave32): D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0.
// arg: 0 and, 1 or, 2 xor, 3 and_not1 (S0 & ~EXEC), 4 or_not1 (S0 | ~EXEC),
// 5 and_not0 (~S0 & EXEC).
rl_status_t rl_isa_exec_saveexec(rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst) {
  uint32_t a = rl_isa_read_s32(wave, &inst->src[0]);
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  uint32_t result = 0;
  switch (inst->op->arg) {
    case 0: result = a & exec; break;
    case 1: result = a | exec; break;
    case 2: result = a ^ exec; break;
    case 3: result = a & ~exec; break;
    case 4: result = a | ~exec; break;
    default: result = ~a & exec; break;
  }
  wave->sgpr[inst->dst & 127] = exec;
  wave->sgpr[RL_ISA_SRC_EXEC] = result;
  wave->scc = result != 0;
  return RL_OK;
}

// s_getpc_b64: the device address of the next instruction (entry_address
// is the address of PC 0, the program's base).
rl_status_t rl_isa_exec_getpc(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  rl_isa_write_s64(wave, inst->dst,
                   wave->group->entry_address + inst->pc + inst->size);
  return RL_OK;
}

#define S2(opc, name, flags, d, a, b, fn) \
  RL_ISA_OP(opc, name, flags, d, a, b, NO, 0, rl_isa_exec_salu, fn)
#define S2A(opc, name, flags, arg, fn) \
  RL_ISA_OP(opc, name, flags, B32, B32, B32, NO, arg, rl_isa_exec_salu, fn)

static const rl_isa_op_t rl_isa_sop2_ops[] = {
    S2(0x00, "s_add_u32", SCC, B32, B32, B32, rl_isa_s_add_u32),
    S2(0x01, "s_sub_u32", SCC, B32, B32, B32, rl_isa_s_sub_u32),
    S2(0x02, "s_add_i32", SCC, B32, B32, B32, rl_isa_s_add_i32),
    S2(0x03, "s_sub_i32", SCC, B32, B32, B32, rl_isa_s_sub_i32),
    S2(0x04, "s_addc_u32", SCC, B32, B32, B32, rl_isa_s_addc_u32),
    S2(0x05, "s_subb_u32", SCC, B32, B32, B32, rl_isa_s_subb_u32),
    S2(0x06, "s_absdiff_i32", SCC, B32, B32, B32, rl_isa_s_absdiff_i32),
    S2(0x08, "s_lshl_b32", SCC, B32, B32, B32, rl_isa_s_lshl_b32),
    S2(0x09, "s_lshl_b64", SCC, B64, B64, B32, rl_isa_s_lshl_b64),
    S2(0x0a, "s_lshr_b32", SCC, B32, B32, B32, rl_isa_s_lshr_b32),
    S2(0x0b, "s_lshr_b64", SCC, B64, B64, B32, rl_isa_s_lshr_b64),
    S2(0x0c, "s_ashr_i32", SCC, B32, B32, B32, rl_isa_s_ashr_i32),
    S2(0x0d, "s_ashr_i64", SCC, B64, B64, B32, rl_isa_s_ashr_i64),
    S2A(0x0e, "s_lshl1_add_u32", SCC, 1, rl_isa_s_lshl_add),
    S2A(0x0f, "s_lshl2_add_u32", SCC, 2, rl_isa_s_lshl_add),
    S2A(0x10, "s_lshl3_add_u32", SCC, 3, rl_isa_s_lshl_add),
    S2A(0x11, "s_lshl4_add_u32", SCC, 4, rl_isa_s_lshl_add),
    S2(0x12, "s_min_i32", SCC, B32, B32, B32, rl_isa_s_min_i32),
    S2(0x13, "s_min_u32", SCC, B32, B32, B32, rl_isa_s_min_u32),
    S2(0x14, "s_max_i32", SCC, B32, B32, B32, rl_isa_s_max_i32),
    S2(0x15, "s_max_u32", SCC, B32, B32, B32, rl_isa_s_max_u32),
    S2(0x16, "s_and_b32", SCC, B32, B32, B32, rl_isa_s_and),
    S2(0x17, "s_and_b64", SCC, B64, B64, B64, rl_isa_s_and),
    S2(0x18, "s_or_b32", SCC, B32, B32, B32, rl_isa_s_or),
    S2(0x19, "s_or_b64", SCC, B64, B64, B64, rl_isa_s_or),
    S2(0x1a, "s_xor_b32", SCC, B32, B32, B32, rl_isa_s_xor),
    S2(0x1b, "s_xor_b64", SCC, B64, B64, B64, rl_isa_s_xor),
    S2(0x1c, "s_nand_b32", SCC, B32, B32, B32, rl_isa_s_nand32),
    S2(0x1e, "s_nor_b32", SCC, B32, B32, B32, rl_isa_s_nor32),
    S2(0x20, "s_xnor_b32", SCC, B32, B32, B32, rl_isa_s_xnor32),
    S2(0x22, "s_and_not1_b32", SCC, B32, B32, B32, rl_isa_s_and_not1),
    S2(0x23, "s_and_not1_b64", SCC, B64, B64, B64, rl_isa_s_and_not1),
    S2(0x24, "s_or_not1_b32", SCC, B32, B32, B32, rl_isa_s_or_not1_32),
    S2(0x25, "s_or_not1_b64", SCC, B64, B64, B64, rl_isa_s_or_not1),
    S2(0x26, "s_bfe_u32", SCC, B32, B32, B32, rl_isa_s_bfe_u32),
    S2(0x27, "s_bfe_i32", SCC, B32, B32, B32, rl_isa_s_bfe_i32),
    S2(0x28, "s_bfe_u64", SCC, B64, B64, B32, rl_isa_s_bfe_u64),
    S2(0x2a, "s_bfm_b32", 0, B32, B32, B32, rl_isa_s_bfm_b32),
    S2(0x2c, "s_mul_i32", 0, B32, B32, B32, rl_isa_s_mul_i32),
    S2(0x2d, "s_mul_hi_u32", 0, B32, B32, B32, rl_isa_s_mul_hi_u32),
    S2(0x2e, "s_mul_hi_i32", 0, B32, B32, B32, rl_isa_s_mul_hi_i32),
    S2(0x30, "s_cselect_b32", 0, B32, B32, B32, rl_isa_s_cselect),
    S2(0x31, "s_cselect_b64", 0, B64, B64, B64, rl_isa_s_cselect),
    S2(0x32, "s_pack_ll_b32_b16", 0, B32, B32, B32, rl_isa_s_pack_ll),
    S2(0x33, "s_pack_lh_b32_b16", 0, B32, B32, B32, rl_isa_s_pack_lh),
    S2(0x34, "s_pack_hh_b32_b16", 0, B32, B32, B32, rl_isa_s_pack_hh),
    S2(0x40, "s_add_f32", SF, F32, F32, F32, rl_isa_s_add_f32),
    S2(0x41, "s_sub_f32", SF, F32, F32, F32, rl_isa_s_sub_f32),
    S2(0x42, "s_min_f32", SF, F32, F32, F32, rl_isa_s_min_f32),
    S2(0x43, "s_max_f32", SF, F32, F32, F32, rl_isa_s_max_f32),
    S2(0x44, "s_mul_f32", SF, F32, F32, F32, rl_isa_s_mul_f32),
    S2(0x45, "s_fmaak_f32", SF | RL_ISA_F_LITERAL_K, F32, F32, F32,
       rl_isa_s_fmaak_f32),
    S2(0x46, "s_fmamk_f32", SF | RL_ISA_F_LITERAL_K, F32, F32, F32,
       rl_isa_s_fmamk_f32),
    S2(0x47, "s_fmac_f32", SF, F32, F32, F32, rl_isa_s_fmac_f32),
};

#define S1(opc, name, flags, d, a, fn) \
  RL_ISA_OP(opc, name, flags, d, a, NO, NO, 0, rl_isa_exec_salu, fn)
#define SX(opc, name, arg) \
  RL_ISA_OP(opc, name, SCC, B32, B32, NO, NO, arg, rl_isa_exec_saveexec, NULL)

static const rl_isa_op_t rl_isa_sop1_ops[] = {
    S1(0x00, "s_mov_b32", 0, B32, B32, rl_isa_s_mov),
    S1(0x01, "s_mov_b64", 0, B64, B64, rl_isa_s_mov),
    S1(0x02, "s_cmov_b32", 0, B32, B32, rl_isa_s_cmov),
    S1(0x03, "s_cmov_b64", 0, B64, B64, rl_isa_s_cmov),
    S1(0x04, "s_brev_b32", 0, B32, B32, rl_isa_s_brev_b32),
    S1(0x08, "s_ctz_i32_b32", 0, B32, B32, rl_isa_s_ctz_b32),
    S1(0x09, "s_ctz_i32_b64", 0, B32, B64, rl_isa_s_ctz_b64),
    S1(0x0a, "s_clz_i32_u32", 0, B32, B32, rl_isa_s_clz_u32),
    S1(0x0b, "s_clz_i32_u64", 0, B32, B64, rl_isa_s_clz_u64),
    S1(0x0c, "s_cls_i32", 0, B32, B32, rl_isa_s_cls_i32),
    S1(0x0d, "s_cls_i32_i64", 0, B32, B64, rl_isa_s_cls_i64),
    S1(0x0e, "s_sext_i32_i8", 0, B32, B32, rl_isa_s_sext_i8),
    S1(0x0f, "s_sext_i32_i16", 0, B32, B32, rl_isa_s_sext_i16),
    S1(0x12, "s_bitset1_b32", 0, B32, B32, rl_isa_s_bitset1_b32),
    S1(0x15, "s_abs_i32", SCC, B32, B32, rl_isa_s_abs_i32),
    S1(0x18, "s_bcnt1_i32_b32", SCC, B32, B32, rl_isa_s_bcnt1_b32),
    S1(0x1e, "s_not_b32", SCC, B32, B32, rl_isa_s_not32),
    S1(0x1f, "s_not_b64", SCC, B64, B64, rl_isa_s_not),
    SX(0x20, "s_and_saveexec_b32", 0),
    SX(0x22, "s_or_saveexec_b32", 1),
    SX(0x24, "s_xor_saveexec_b32", 2),
    SX(0x2c, "s_and_not0_saveexec_b32", 5),
    SX(0x30, "s_and_not1_saveexec_b32", 3),
    SX(0x32, "s_or_not1_saveexec_b32", 4),
    RL_ISA_OP(0x47, "s_getpc_b64", 0, B64, NO, NO, NO, 0, rl_isa_exec_getpc,
              NULL),
    // Calls and returns (isa_call.c).
    RL_ISA_OP(0x48, "s_setpc_b64", RL_ISA_F_ENDS_BLOCK, NO, B64, NO, NO, 0,
              rl_isa_exec_setpc, NULL),
    RL_ISA_OP(0x49, "s_swappc_b64", 0, B64, B64, NO, NO, 0,
              rl_isa_exec_swappc, NULL),
    RL_ISA_OP(0x4c, "s_sendmsg_rtn_b32", 0, B32, NO, NO, NO, 0,
              rl_isa_exec_sendmsg_rtn, NULL),
    S1(0x60, "s_ceil_f32", SF, F32, F32, rl_isa_s_ceil_f32),
    S1(0x61, "s_floor_f32", SF, F32, F32, rl_isa_s_floor_f32),
    S1(0x62, "s_trunc_f32", SF, F32, F32, rl_isa_s_trunc_f32),
    S1(0x63, "s_rndne_f32", SF, F32, F32, rl_isa_s_rndne_f32),
    S1(0x64, "s_cvt_f32_i32", SF, F32, B32, rl_isa_s_cvt_f32_i32),
    S1(0x65, "s_cvt_f32_u32", SF, F32, B32, rl_isa_s_cvt_f32_u32),
    S1(0x66, "s_cvt_i32_f32", SF, B32, F32, rl_isa_s_cvt_i32_f32),
    S1(0x67, "s_cvt_u32_f32", SF, B32, F32, rl_isa_s_cvt_u32_f32),
};

#define SK(opc, name, flags, d, arg, fn) \
  RL_ISA_OP(opc, name, flags, d, B32, NO, NO, arg, rl_isa_exec_sopk, fn)
#define SKN(opc, name) \
  RL_ISA_OP(opc, name, 0, NO, NO, NO, NO, 0, rl_isa_exec_nop, NULL)

static const rl_isa_op_t rl_isa_sopk_ops[] = {
    SK(0x00, "s_movk_i32", 0, B32, 0, rl_isa_s_movk),
    SKN(0x01, "s_version"),
    SK(0x02, "s_cmovk_i32", 0, B32, 0, rl_isa_s_cmovk),
    SK(0x03, "s_cmpk_eq_i32", SCC, NO, 2, rl_isa_s_cmp),
    SK(0x04, "s_cmpk_lg_i32", SCC, NO, 5, rl_isa_s_cmp),
    SK(0x05, "s_cmpk_gt_i32", SCC, NO, 4, rl_isa_s_cmp),
    SK(0x06, "s_cmpk_ge_i32", SCC, NO, 6, rl_isa_s_cmp),
    SK(0x07, "s_cmpk_lt_i32", SCC, NO, 1, rl_isa_s_cmp),
    SK(0x08, "s_cmpk_le_i32", SCC, NO, 3, rl_isa_s_cmp),
    SK(0x09, "s_cmpk_eq_u32", SCC, NO, 16 | 2, rl_isa_s_cmp),
    SK(0x0a, "s_cmpk_lg_u32", SCC, NO, 16 | 5, rl_isa_s_cmp),
    SK(0x0b, "s_cmpk_gt_u32", SCC, NO, 16 | 4, rl_isa_s_cmp),
    SK(0x0c, "s_cmpk_ge_u32", SCC, NO, 16 | 6, rl_isa_s_cmp),
    SK(0x0d, "s_cmpk_lt_u32", SCC, NO, 16 | 1, rl_isa_s_cmp),
    SK(0x0e, "s_cmpk_le_u32", SCC, NO, 16 | 3, rl_isa_s_cmp),
    SK(0x0f, "s_addk_i32", SCC, B32, 0, rl_isa_s_addk),
    SK(0x10, "s_mulk_i32", 0, B32, 0, rl_isa_s_mulk),
    SKN(0x18, "s_waitcnt_vscnt"),
    SKN(0x19, "s_waitcnt_vmcnt"),
    SKN(0x1a, "s_waitcnt_expcnt"),
    SKN(0x1b, "s_waitcnt_lgkmcnt"),
};

#define SC(opc, name, type, arg) \
  RL_ISA_OP(opc, name, SCC, NO, type, type, NO, arg, rl_isa_exec_sopc, rl_isa_s_cmp)
#define SCF(opc, name, cond) \
  RL_ISA_OP(opc, name, SCC | SF, NO, F32, F32, NO, 64 | (cond), \
            rl_isa_exec_sopc, rl_isa_s_cmp)

static const rl_isa_op_t rl_isa_sopc_ops[] = {
    SC(0x00, "s_cmp_eq_i32", B32, 2),
    SC(0x01, "s_cmp_lg_i32", B32, 5),
    SC(0x02, "s_cmp_gt_i32", B32, 4),
    SC(0x03, "s_cmp_ge_i32", B32, 6),
    SC(0x04, "s_cmp_lt_i32", B32, 1),
    SC(0x05, "s_cmp_le_i32", B32, 3),
    SC(0x06, "s_cmp_eq_u32", B32, 16 | 2),
    SC(0x07, "s_cmp_lg_u32", B32, 16 | 5),
    SC(0x08, "s_cmp_gt_u32", B32, 16 | 4),
    SC(0x09, "s_cmp_ge_u32", B32, 16 | 6),
    SC(0x0a, "s_cmp_lt_u32", B32, 16 | 1),
    SC(0x0b, "s_cmp_le_u32", B32, 16 | 3),
    RL_ISA_OP(0x0c, "s_bitcmp0_b32", SCC, NO, B32, B32, NO, 0,
              rl_isa_exec_sopc, rl_isa_s_bitcmp),
    RL_ISA_OP(0x0d, "s_bitcmp1_b32", SCC, NO, B32, B32, NO, 1,
              rl_isa_exec_sopc, rl_isa_s_bitcmp),
    SC(0x10, "s_cmp_eq_u64", B64, 32 | 16 | 2),
    SC(0x11, "s_cmp_lg_u64", B64, 32 | 16 | 5),
    SCF(0x41, "s_cmp_lt_f32", 1),
    SCF(0x42, "s_cmp_eq_f32", 2),
    SCF(0x43, "s_cmp_le_f32", 3),
    SCF(0x44, "s_cmp_gt_f32", 4),
    SCF(0x45, "s_cmp_lg_f32", 5),
    SCF(0x46, "s_cmp_ge_f32", 6),
    SCF(0x47, "s_cmp_o_f32", 7),
    SCF(0x48, "s_cmp_u_f32", 8),
    SCF(0x49, "s_cmp_nge_f32", 9),
    SCF(0x4a, "s_cmp_nlg_f32", 10),
    SCF(0x4b, "s_cmp_ngt_f32", 11),
    SCF(0x4c, "s_cmp_nle_f32", 12),
    SCF(0x4d, "s_cmp_neq_f32", 13),
    SCF(0x4e, "s_cmp_nlt_f32", 14),
};

RL_ISA_TABLE(rl_isa_table_sop2, rl_isa_sop2_ops);
RL_ISA_TABLE(rl_isa_table_sop1, rl_isa_sop1_ops);
RL_ISA_TABLE_CHAIN(rl_isa_table_sopk, rl_isa_sopk_ops, &rl_isa_table_sopk_mode);
RL_ISA_TABLE(rl_isa_table_sopc, rl_isa_sopc_ops);
