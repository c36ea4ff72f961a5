// sim/isa/isa_valu16.c — the 16-bit VALU operations of gfx11:
// binary16 arithmetic and conversions (VOP1, VOP2, VOP3), 16-bit integer
// arithmetic and shifts (VOP3) and the 16-bit compares (VOPC), with their
// lane kernels. Chained after the main VOP1/VOP2/VOP3/VOPC tables.
//
// Sources: opcodes from LLVM VOP1Instructions.td, VOP2Instructions.td,
// VOP3Instructions.td and VOPCInstructions.td (gfx11), confirmed with
// llvm-mc-19 by tests/unit/sim/isa/isa_decode_test.c; semantics from the RDNA3 ISA
// guide, "Vector ALU Operations" (16-bit opcodes) and "16-bit Math":
//   - a 16-bit operand is the low half of its register (VOP1/VOP2/VOPC
//     VGPR fields of 128 and up name high halves and are refused, as is
//     VOP3 op_sel: isa_valu.c);
//   - a 16-bit result is written to the low half and the high half of the
//     destination is preserved (gfx10+; LLVM GCNSubtarget::
//     zeroesHigh16BitsOfDest() returns false for every opcode from gfx10 on,
//     so compiled code never depends on zeroing);
//   - binary16 arithmetic follows isa_f16.h (denormals kept: the only
//     FLOAT_DENORM_MODE_16_64 begin() accepts).
#include "sim/isa/isa_f16.h"
#include "sim/isa/isa_lanes.h"

#define F16 RL_ISA_T_F16

// The low half of a source and a result merged into the old high half.
#define RL_ISA_LO(x) ((x) & 0xffffu)
#define RL_ISA_KEEP_HI(r) ((v->old[l] & 0xffff0000u) | ((r) & 0xffffu))

// binary16 result from binary16 sources (a, b, c: exact doubles).
#define RL_ISA_F16_OP(name, expr)                                  \
  static void name(rl_isa_valu_t* v) {                             \
    RL_ISA_LANE_LOOP {                                             \
      double a = rl_isa_f16_to_f64(RL_ISA_LO(v->s[0][l]));         \
      double b = rl_isa_f16_to_f64(RL_ISA_LO(v->s[1][l]));         \
      double c = rl_isa_f16_to_f64(RL_ISA_LO(v->s[2][l]));         \
      (void)a, (void)b, (void)c;                                   \
      v->d[l] = RL_ISA_KEEP_HI(rl_isa_f64_to_f16(expr));           \
    }                                                              \
  }

// 16-bit integer result from 16-bit sources (a, b, c zero-extended).
#define RL_ISA_U16_OP(name, expr)                                  \
  static void name(rl_isa_valu_t* v) {                             \
    RL_ISA_LANE_LOOP {                                             \
      uint32_t a = RL_ISA_LO(v->s[0][l]), b = RL_ISA_LO(v->s[1][l]); \
      uint32_t c = RL_ISA_LO(v->s[2][l]);                          \
      (void)a, (void)b, (void)c;                                   \
      v->d[l] = RL_ISA_KEEP_HI((uint32_t)(expr));                  \
    }                                                              \
  }

static int32_t rl_isa_s16(uint32_t x) { return (int16_t)(uint16_t)x; }

// Truncating binary16 -> 16-bit integer conversions saturate; NaN -> 0.
static uint32_t rl_isa_cvt_u16(double x) {
  if (!(x > 0.0)) return 0;
  return x >= 65535.0 ? 0xffffu : (uint32_t)x;
}
static uint32_t rl_isa_cvt_i16(double x) {
  if (isnan(x)) return 0;
  if (x <= -32768.0) return 0x8000u;
  if (x >= 32767.0) return 0x7fffu;
  return (uint32_t)(int32_t)x & 0xffffu;
}

// v_min_f16 / v_max_f16: the binary32 rule of isa_float.h on the exact
// binary32 images (the result is one of the inputs or a quiet NaN, so the
// conversion back is exact).
static void rl_isa_v_minmax_f16(rl_isa_valu_t* v, bool max) {
  bool ieee = (v->mode & RL_ISA_MODE_IEEE) != 0;
  RL_ISA_LANE_LOOP {
    uint32_t a = rl_isa_f16_image32(RL_ISA_LO(v->s[0][l]));
    uint32_t b = rl_isa_f16_image32(RL_ISA_LO(v->s[1][l]));
    uint32_t r = rl_isa_minmax32(a, b, max, ieee);
    v->d[l] = RL_ISA_KEEP_HI(rl_isa_f32_to_f16(rl_isa_f32(r)));
  }
}
static void rl_isa_v_min_f16(rl_isa_valu_t* v) { rl_isa_v_minmax_f16(v, false); }
static void rl_isa_v_max_f16(rl_isa_valu_t* v) { rl_isa_v_minmax_f16(v, true); }

// binary16 arithmetic (VOP2; v_fma_f16 VOP3). fmac: c is the destination;
// fmamk: D = a * K + b with K in c; fmaak: D = a * b + K.
RL_ISA_F16_OP(rl_isa_v_add_f16, a + b)
RL_ISA_F16_OP(rl_isa_v_sub_f16, a - b)
RL_ISA_F16_OP(rl_isa_v_subrev_f16, b - a)
RL_ISA_F16_OP(rl_isa_v_mul_f16, a * b)
RL_ISA_F16_OP(rl_isa_v_fma_f16, fma(a, b, c))
RL_ISA_F16_OP(rl_isa_v_fmamk_f16, fma(a, c, b))

// Conversions (VOP1).
static void rl_isa_v_cvt_f32_f16(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    v->d[l] = rl_isa_bits32(rl_isa_f16_to_f32(RL_ISA_LO(v->s[0][l])));
  }
}
static void rl_isa_v_cvt_f16_f32(rl_isa_valu_t* v) {
  bool ftz = (v->mode & RL_ISA_MODE_FTZ32) != 0;
  RL_ISA_LANE_LOOP {
    uint32_t a = ftz ? rl_isa_flush32(v->s[0][l]) : v->s[0][l];
    v->d[l] = RL_ISA_KEEP_HI(rl_isa_f32_to_f16(rl_isa_f32(a)));
  }
}
RL_ISA_F16_OP(rl_isa_v_cvt_f16_u16, (double)RL_ISA_LO(v->s[0][l]))
RL_ISA_F16_OP(rl_isa_v_cvt_f16_i16, (double)rl_isa_s16(v->s[0][l]))
RL_ISA_U16_OP(rl_isa_v_cvt_u16_f16, rl_isa_cvt_u16(rl_isa_f16_to_f64(a)))
RL_ISA_U16_OP(rl_isa_v_cvt_i16_f16, rl_isa_cvt_i16(rl_isa_f16_to_f64(a)))
RL_ISA_U16_OP(rl_isa_v_not_b16, ~a)
RL_ISA_U32(rl_isa_v_cvt_i32_i16, (uint32_t)rl_isa_s16(a))
RL_ISA_U32(rl_isa_v_cvt_u32_u16, a & 0xffffu)

// 16-bit integer (VOP3). Shifts: a is the count (low 4 bits), b the value.
RL_ISA_U16_OP(rl_isa_v_add_nc_u16, a + b)
RL_ISA_U16_OP(rl_isa_v_sub_nc_u16, a - b)
RL_ISA_U16_OP(rl_isa_v_mul_lo_u16, a * b)
RL_ISA_U16_OP(rl_isa_v_mad_u16, a * b + c)
RL_ISA_U16_OP(rl_isa_v_max_u16, a > b ? a : b)
RL_ISA_U16_OP(rl_isa_v_min_u16, a < b ? a : b)
RL_ISA_U16_OP(rl_isa_v_max_i16, rl_isa_s16(a) > rl_isa_s16(b) ? a : b)
RL_ISA_U16_OP(rl_isa_v_min_i16, rl_isa_s16(a) < rl_isa_s16(b) ? a : b)
RL_ISA_U16_OP(rl_isa_v_lshlrev_b16, b << (a & 15))
RL_ISA_U16_OP(rl_isa_v_lshrrev_b16, b >> (a & 15))
RL_ISA_U16_OP(rl_isa_v_ashrrev_i16, (uint32_t)(rl_isa_s16(b) >> (a & 15)))
RL_ISA_U16_OP(rl_isa_v_and_b16, a & b)
RL_ISA_U16_OP(rl_isa_v_or_b16, a | b)
RL_ISA_U16_OP(rl_isa_v_xor_b16, a ^ b)
// 32-bit results from 16-bit sources.
RL_ISA_U32(rl_isa_v_mad_u32_u16, (a & 0xffffu) * (b & 0xffffu) + c)
RL_ISA_U32(rl_isa_v_mad_i32_i16,
           (uint32_t)(rl_isa_s16(a) * rl_isa_s16(b)) + c)
RL_ISA_U32(rl_isa_v_pack_b32_f16, (a & 0xffffu) | (b << 16))

// Compares (the condition is the opcode's, isa_float.h order).
// Lane |l| of source |n|: its low half as an f16 (widened), unsigned and
// signed.
#define RL_ISA_LANE_F16(v, n, l) rl_isa_f16_to_f64(RL_ISA_LO((v)->s[n][l]))
#define RL_ISA_LANE_U16(v, n, l) (uint64_t)RL_ISA_LO((v)->s[n][l])
#define RL_ISA_LANE_I16(v, n, l) (int64_t)rl_isa_s16((v)->s[n][l])
RL_ISA_VCMP_FLOAT(rl_isa_vcmp_f16, RL_ISA_LANE_F16)
RL_ISA_VCMP_INT(rl_isa_vcmp_i16, RL_ISA_LANE_U16, RL_ISA_LANE_I16)

// A row whose 16-bit result keeps the destination's high half.
#define RL_ISA_V16(opc, name, flags, d, s0, s1, s2, fn)                     \
  RL_ISA_V(opc, name,                                                       \
           (flags) | (((d) == F16 || (d) == B16) ? RL_ISA_F_KEEP_HI : 0),   \
           d, s0, s1, s2, fn)

#define CMPX RL_ISA_F_CMPX
#define ACC RL_ISA_F_ACCUM
#define K (RL_ISA_F_LITERAL_K | RL_ISA_F_NO_VOP3)

static const rl_isa_op_t rl_isa_vop1_16_ops[] = {
    RL_ISA_V16(0x0a, "v_cvt_f16_f32", 0, F16, F32, NO, NO, rl_isa_v_cvt_f16_f32),
    RL_ISA_V16(0x0b, "v_cvt_f32_f16", 0, F32, F16, NO, NO, rl_isa_v_cvt_f32_f16),
    RL_ISA_V16(0x50, "v_cvt_f16_u16", 0, F16, B16, NO, NO, rl_isa_v_cvt_f16_u16),
    RL_ISA_V16(0x51, "v_cvt_f16_i16", 0, F16, B16, NO, NO, rl_isa_v_cvt_f16_i16),
    RL_ISA_V16(0x52, "v_cvt_u16_f16", 0, B16, F16, NO, NO, rl_isa_v_cvt_u16_f16),
    RL_ISA_V16(0x53, "v_cvt_i16_f16", 0, B16, F16, NO, NO, rl_isa_v_cvt_i16_f16),
    RL_ISA_V16(0x69, "v_not_b16", 0, B16, B16, NO, NO, rl_isa_v_not_b16),
    RL_ISA_V16(0x6a, "v_cvt_i32_i16", 0, B32, B16, NO, NO, rl_isa_v_cvt_i32_i16),
    RL_ISA_V16(0x6b, "v_cvt_u32_u16", 0, B32, B16, NO, NO, rl_isa_v_cvt_u32_u16),
};

static const rl_isa_op_t rl_isa_vop2_16_ops[] = {
    RL_ISA_V16(0x32, "v_add_f16", 0, F16, F16, F16, NO, rl_isa_v_add_f16),
    RL_ISA_V16(0x33, "v_sub_f16", 0, F16, F16, F16, NO, rl_isa_v_sub_f16),
    RL_ISA_V16(0x34, "v_subrev_f16", 0, F16, F16, F16, NO, rl_isa_v_subrev_f16),
    RL_ISA_V16(0x35, "v_mul_f16", 0, F16, F16, F16, NO, rl_isa_v_mul_f16),
    RL_ISA_V16(0x36, "v_fmac_f16", ACC, F16, F16, F16, F16, rl_isa_v_fma_f16),
    RL_ISA_V16(0x37, "v_fmamk_f16", K, F16, F16, F16, F16, rl_isa_v_fmamk_f16),
    RL_ISA_V16(0x38, "v_fmaak_f16", K, F16, F16, F16, F16, rl_isa_v_fma_f16),
    RL_ISA_V16(0x39, "v_max_f16", 0, F16, F16, F16, NO, rl_isa_v_max_f16),
    RL_ISA_V16(0x3a, "v_min_f16", 0, F16, F16, F16, NO, rl_isa_v_min_f16),
};

#define V3(opc, name, d, s0, s1, s2, fn) RL_ISA_V16(opc, name, 0, d, s0, s1, s2, fn)

static const rl_isa_op_t rl_isa_vop3_16_ops[] = {
    V3(0x241, "v_mad_u16", B16, B16, B16, B16, rl_isa_v_mad_u16),
    V3(0x248, "v_fma_f16", F16, F16, F16, F16, rl_isa_v_fma_f16),
    V3(0x253, "v_mad_i16", B16, B16, B16, B16, rl_isa_v_mad_u16),
    V3(0x259, "v_mad_u32_u16", B32, B16, B16, B32, rl_isa_v_mad_u32_u16),
    V3(0x25a, "v_mad_i32_i16", B32, B16, B16, B32, rl_isa_v_mad_i32_i16),
    V3(0x303, "v_add_nc_u16", B16, B16, B16, NO, rl_isa_v_add_nc_u16),
    V3(0x304, "v_sub_nc_u16", B16, B16, B16, NO, rl_isa_v_sub_nc_u16),
    V3(0x305, "v_mul_lo_u16", B16, B16, B16, NO, rl_isa_v_mul_lo_u16),
    V3(0x309, "v_max_u16", B16, B16, B16, NO, rl_isa_v_max_u16),
    V3(0x30a, "v_max_i16", B16, B16, B16, NO, rl_isa_v_max_i16),
    V3(0x30b, "v_min_u16", B16, B16, B16, NO, rl_isa_v_min_u16),
    V3(0x30c, "v_min_i16", B16, B16, B16, NO, rl_isa_v_min_i16),
    V3(0x30d, "v_add_nc_i16", B16, B16, B16, NO, rl_isa_v_add_nc_u16),
    V3(0x30e, "v_sub_nc_i16", B16, B16, B16, NO, rl_isa_v_sub_nc_u16),
    V3(0x311, "v_pack_b32_f16", B32, F16, F16, NO, rl_isa_v_pack_b32_f16),
    V3(0x338, "v_lshlrev_b16", B16, B16, B16, NO, rl_isa_v_lshlrev_b16),
    V3(0x339, "v_lshrrev_b16", B16, B16, B16, NO, rl_isa_v_lshrrev_b16),
    V3(0x33a, "v_ashrrev_i16", B16, B16, B16, NO, rl_isa_v_ashrrev_i16),
    V3(0x362, "v_and_b16", B16, B16, B16, NO, rl_isa_v_and_b16),
    V3(0x363, "v_or_b16", B16, B16, B16, NO, rl_isa_v_or_b16),
    V3(0x364, "v_xor_b16", B16, B16, B16, NO, rl_isa_v_xor_b16),
};

#define VC(opc, name, flags, t, arg, fn) \
  RL_ISA_OP(opc, name, flags, NO, t, t, NO, arg, rl_isa_exec_vopc, fn)
// The 16 float conditions on binary16 (F LT EQ LE GT LG GE O U NGE NLG NGT
// NLE NEQ NLT T) at |base|.
#define VC_F16(base, p, flags)                                               \
  VC(base + 0, p "f_f16", flags, F16, 0, rl_isa_vcmp_f16),                   \
      VC(base + 1, p "lt_f16", flags, F16, 1, rl_isa_vcmp_f16),              \
      VC(base + 2, p "eq_f16", flags, F16, 2, rl_isa_vcmp_f16),              \
      VC(base + 3, p "le_f16", flags, F16, 3, rl_isa_vcmp_f16),              \
      VC(base + 4, p "gt_f16", flags, F16, 4, rl_isa_vcmp_f16),              \
      VC(base + 5, p "lg_f16", flags, F16, 5, rl_isa_vcmp_f16),              \
      VC(base + 6, p "ge_f16", flags, F16, 6, rl_isa_vcmp_f16),              \
      VC(base + 7, p "o_f16", flags, F16, 7, rl_isa_vcmp_f16),               \
      VC(base + 8, p "u_f16", flags, F16, 8, rl_isa_vcmp_f16),               \
      VC(base + 9, p "nge_f16", flags, F16, 9, rl_isa_vcmp_f16),             \
      VC(base + 10, p "nlg_f16", flags, F16, 10, rl_isa_vcmp_f16),           \
      VC(base + 11, p "ngt_f16", flags, F16, 11, rl_isa_vcmp_f16),           \
      VC(base + 12, p "nle_f16", flags, F16, 12, rl_isa_vcmp_f16),           \
      VC(base + 13, p "neq_f16", flags, F16, 13, rl_isa_vcmp_f16),           \
      VC(base + 14, p "nlt_f16", flags, F16, 14, rl_isa_vcmp_f16),           \
      VC(base + 15, p "t_f16", flags, F16, 15, rl_isa_vcmp_f16)
// The 16-bit integer conditions LT EQ LE GT NE GE (gfx11 has no F/T forms
// for them) at |base| + 1..6; |u| is 16 for unsigned.
#define VC_I16(base, p, sfx, flags, u)                                       \
  VC(base + 1, p "lt_" sfx, flags, B16, (u) | 1, rl_isa_vcmp_i16),           \
      VC(base + 2, p "eq_" sfx, flags, B16, (u) | 2, rl_isa_vcmp_i16),       \
      VC(base + 3, p "le_" sfx, flags, B16, (u) | 3, rl_isa_vcmp_i16),       \
      VC(base + 4, p "gt_" sfx, flags, B16, (u) | 4, rl_isa_vcmp_i16),       \
      VC(base + 5, p "ne_" sfx, flags, B16, (u) | 5, rl_isa_vcmp_i16),       \
      VC(base + 6, p "ge_" sfx, flags, B16, (u) | 6, rl_isa_vcmp_i16)

static const rl_isa_op_t rl_isa_vopc_16_ops[] = {
    VC_F16(0x00, "v_cmp_", 0),
    VC_I16(0x30, "v_cmp_", "i16", 0, 0),
    VC_I16(0x38, "v_cmp_", "u16", 0, 16),
    VC_F16(0x80, "v_cmpx_", CMPX),
    VC_I16(0xb0, "v_cmpx_", "i16", CMPX, 0),
    VC_I16(0xb8, "v_cmpx_", "u16", CMPX, 16),
};

RL_ISA_TABLE_CHAIN(rl_isa_table_vop1_16, rl_isa_vop1_16_ops,
                   &rl_isa_table_vop1_f64);
RL_ISA_TABLE_CHAIN(rl_isa_table_vop2_16, rl_isa_vop2_16_ops,
                   &rl_isa_table_vop2_packed);
RL_ISA_TABLE_CHAIN(rl_isa_table_vop3_16, rl_isa_vop3_16_ops,
                   &rl_isa_table_vop3_divide);
RL_ISA_TABLE_CHAIN(rl_isa_table_vopc_16, rl_isa_vopc_16_ops,
                   &rl_isa_table_vopc_class);
