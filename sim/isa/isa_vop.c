// sim/isa/isa_vop.c — lane kernels and opcode tables of VOP1, VOP2
// and VOPD (the dual-issue pairs, which reuse the VOP2/VOP1 kernels).
//
// Sources: opcodes from LLVM VOP1Instructions.td, VOP2Instructions.td and
// VOPDInstructions.td (gfx11), confirmed with llvm-mc-19 -mcpu=gfx1100 by
// tests/unit/sim/isa/isa_decode_test.c; semantics from the RDNA3 ISA guide
// ("Vector ALU Operations" opcode descriptions). The float model is
// isa_float.h; transcendentals use sim/sim_math.h.
#include "sim/sim_math.h"
#include "sim/isa/isa_lanes.h"

// Sign-extended low 24 bits (v_mul_i32_i24 and friends).
static int64_t rl_isa_i24(uint32_t x) {
  return (int32_t)(x << 8) >> 8;
}

static uint32_t rl_isa_bfrev(uint32_t x) {
  uint32_t r = 0;
  for (int i = 0; i < 32; ++i) {
    r = (r << 1) | (x & 1);
    x >>= 1;
  }
  return r;
}

// VOP2 integer.
RL_ISA_U32(rl_isa_v_cndmask, ((mask >> l) & 1) ? b : a)
RL_ISA_U32(rl_isa_v_mul_i32_i24, (uint64_t)(rl_isa_i24(a) * rl_isa_i24(b)))
RL_ISA_U32(rl_isa_v_mul_hi_i32_i24,
           (uint64_t)(rl_isa_i24(a) * rl_isa_i24(b)) >> 32)
RL_ISA_U32(rl_isa_v_mul_u32_u24, (uint64_t)(a & 0xffffff) * (b & 0xffffff))
RL_ISA_U32(rl_isa_v_mul_hi_u32_u24,
           ((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32)
RL_ISA_U32(rl_isa_v_min_i32, (int32_t)a < (int32_t)b ? a : b)
RL_ISA_U32(rl_isa_v_max_i32, (int32_t)a > (int32_t)b ? a : b)
RL_ISA_U32(rl_isa_v_min_u32, a < b ? a : b)
RL_ISA_U32(rl_isa_v_max_u32, a > b ? a : b)
RL_ISA_U32(rl_isa_v_lshlrev_b32, b << (a & 31))
RL_ISA_U32(rl_isa_v_lshrrev_b32, b >> (a & 31))
RL_ISA_U32(rl_isa_v_ashrrev_i32, (uint32_t)((int32_t)b >> (a & 31)))
RL_ISA_U32(rl_isa_v_and_b32, a & b)
RL_ISA_U32(rl_isa_v_or_b32, a | b)
RL_ISA_U32(rl_isa_v_xor_b32, a ^ b)
RL_ISA_U32(rl_isa_v_xnor_b32, ~(a ^ b))
// The no-carry add/sub saturate (unsigned) when the VOP3 CLAMP bit is set
// (RDNA3 ISA guide, "VOP3": integer clamp), which LLVM uses for
// __builtin_elementwise_add_sat / uadd.sat. The plain loops stay separate
// so the common form is as fast as before.
RL_ISA_U32(rl_isa_v_add_nc_plain, a + b)
RL_ISA_U32(rl_isa_v_sub_nc_plain, a - b)
RL_ISA_U32(rl_isa_v_subrev_nc_plain, b - a)
RL_ISA_U32(rl_isa_v_add_nc_sat, a + b < a ? 0xffffffffu : a + b)
RL_ISA_U32(rl_isa_v_sub_nc_sat, b > a ? 0 : a - b)
RL_ISA_U32(rl_isa_v_subrev_nc_sat, a > b ? 0 : b - a)
static void rl_isa_v_add_nc_u32(rl_isa_valu_t* v) {
  if (v->clamp) rl_isa_v_add_nc_sat(v);
  else rl_isa_v_add_nc_plain(v);
}
static void rl_isa_v_sub_nc_u32(rl_isa_valu_t* v) {
  if (v->clamp) rl_isa_v_sub_nc_sat(v);
  else rl_isa_v_sub_nc_plain(v);
}
static void rl_isa_v_subrev_nc_u32(rl_isa_valu_t* v) {
  if (v->clamp) rl_isa_v_subrev_nc_sat(v);
  else rl_isa_v_subrev_nc_plain(v);
}
RL_ISA_U32_CARRY(rl_isa_v_add_co_ci_u32,
                 uint64_t r = (uint64_t)a + b + cin;
                 result = (uint32_t)r; carry = (uint32_t)(r >> 32))
RL_ISA_U32_CARRY(rl_isa_v_sub_co_ci_u32,
                 uint64_t r = (uint64_t)a - b - cin;
                 result = (uint32_t)r; carry = (uint32_t)(r >> 63))
RL_ISA_U32_CARRY(rl_isa_v_subrev_co_ci_u32,
                 uint64_t r = (uint64_t)b - a - cin;
                 result = (uint32_t)r; carry = (uint32_t)(r >> 63))

// VOP2 float.
RL_ISA_F32(rl_isa_v_add_f32, a + b)
RL_ISA_F32(rl_isa_v_sub_f32, a - b)
RL_ISA_F32(rl_isa_v_subrev_f32, b - a)
RL_ISA_F32(rl_isa_v_mul_f32, a * b)
// v_mul_dx9_zero_f32: 0 times anything (inf and NaN included) is +0.
RL_ISA_F32(rl_isa_v_mul_dx9_zero_f32, (a == 0.0f || b == 0.0f) ? 0.0f : a * b)
// v_fmac_f32 (c is the destination), v_fmaak_f32 (c is K),
// v_fmamk_f32 (D = a * K + b, K in c): one rounding.
RL_ISA_F32_FMA(rl_isa_v_fma_f32, fmaf(a, b, c))
RL_ISA_F32_FMA(rl_isa_v_fmamk_f32, fmaf(a, c, b))

// v_min_f32 / v_max_f32 on the (flushed) bit patterns.
static void rl_isa_v_minmax_f32(rl_isa_valu_t* v, bool max) {
  bool ftz = (v->mode & RL_ISA_MODE_FTZ32) != 0;
  bool ieee = (v->mode & RL_ISA_MODE_IEEE) != 0;
  RL_ISA_LANE_LOOP {
    uint32_t a = v->s[0][l], b = v->s[1][l];
    if (ftz) a = rl_isa_flush32(a), b = rl_isa_flush32(b);
    v->d[l] = rl_isa_minmax32(a, b, max, ieee);
  }
}
static void rl_isa_v_min_f32(rl_isa_valu_t* v) { rl_isa_v_minmax_f32(v, false); }
static void rl_isa_v_max_f32(rl_isa_valu_t* v) { rl_isa_v_minmax_f32(v, true); }

// VOP1.
RL_ISA_U32(rl_isa_v_mov_b32, a)
RL_ISA_U32(rl_isa_v_not_b32, ~a)
RL_ISA_U32(rl_isa_v_bfrev_b32, rl_isa_bfrev(a))
RL_ISA_U32(rl_isa_v_clz_i32_u32, a ? (uint32_t)__builtin_clz(a) : 0xffffffffu)
RL_ISA_U32(rl_isa_v_ctz_i32_b32, a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu)
// Integer to binary32: one rounding; the result is never a denormal.
RL_ISA_U32(rl_isa_v_cvt_f32_i32, rl_isa_bits32((float)(int32_t)a))
RL_ISA_U32(rl_isa_v_cvt_f32_u32, rl_isa_bits32((float)a))
RL_ISA_U32(rl_isa_v_cvt_u32_f32,
           rl_isa_cvt_u32(rl_isa_f32((v->mode & RL_ISA_MODE_FTZ32)
                                         ? rl_isa_flush32(a) : a)))
RL_ISA_U32(rl_isa_v_cvt_i32_f32,
           rl_isa_cvt_i32(rl_isa_f32((v->mode & RL_ISA_MODE_FTZ32)
                                         ? rl_isa_flush32(a) : a)))
RL_ISA_U32(rl_isa_v_cvt_f32_ubyte,
           rl_isa_bits32((float)((a >> (8 * v->arg)) & 0xff)))
RL_ISA_F32(rl_isa_v_trunc_f32, truncf(a))
RL_ISA_F32(rl_isa_v_ceil_f32, ceilf(a))
RL_ISA_F32(rl_isa_v_floor_f32, floorf(a))
RL_ISA_F32(rl_isa_v_rndne_f32, nearbyintf(a))
RL_ISA_F32(rl_isa_v_exp_f32, rl_sim_math_exp2f(a))
RL_ISA_F32(rl_isa_v_log_f32, rl_sim_math_log2f(a))
RL_ISA_F32(rl_isa_v_rcp_f32, rl_sim_math_rcpf(a))
RL_ISA_F32(rl_isa_v_rsq_f32, rl_sim_math_rsqf(a))
RL_ISA_F32(rl_isa_v_sqrt_f32, rl_sim_math_sqrtf(a))
RL_ISA_U64(rl_isa_v_cvt_f64_f32,
           rl_isa_bits64((double)rl_isa_f32(
               (v->mode & RL_ISA_MODE_FTZ32) ? rl_isa_flush32((uint32_t)a)
                                             : (uint32_t)a)))

// v_cvt_f32_f64: one rounding to binary32 (FTZ mode flushes the result).
static void rl_isa_v_cvt_f32_f64(rl_isa_valu_t* v) {
  RL_ISA_LANE_LOOP {
    double x = rl_isa_f64(v->s[0][l] | (uint64_t)v->hi[0][l] << 32);
    uint32_t bits = rl_isa_bits32((float)x);
    v->d[l] = (v->mode & RL_ISA_MODE_FTZ32) ? rl_isa_flush32(bits) : bits;
  }
}

#define CARRY RL_ISA_F_CARRY
#define K (RL_ISA_F_LITERAL_K | RL_ISA_F_NO_VOP3)
#define ACC RL_ISA_F_ACCUM
#define ICLAMP RL_ISA_F_INT_CLAMP

static const rl_isa_op_t rl_isa_vop2_ops[] = {
    RL_ISA_V(0x01, "v_cndmask_b32", CARRY | RL_ISA_F_FP_MODS, B32, B32, B32,
             NO, rl_isa_v_cndmask),
    RL_ISA_V(0x03, "v_add_f32", 0, F32, F32, F32, NO, rl_isa_v_add_f32),
    RL_ISA_V(0x04, "v_sub_f32", 0, F32, F32, F32, NO, rl_isa_v_sub_f32),
    RL_ISA_V(0x05, "v_subrev_f32", 0, F32, F32, F32, NO, rl_isa_v_subrev_f32),
    RL_ISA_V(0x07, "v_mul_dx9_zero_f32", 0, F32, F32, F32, NO,
             rl_isa_v_mul_dx9_zero_f32),
    RL_ISA_V(0x08, "v_mul_f32", 0, F32, F32, F32, NO, rl_isa_v_mul_f32),
    RL_ISA_V(0x09, "v_mul_i32_i24", 0, B32, B32, B32, NO, rl_isa_v_mul_i32_i24),
    RL_ISA_V(0x0a, "v_mul_hi_i32_i24", 0, B32, B32, B32, NO,
             rl_isa_v_mul_hi_i32_i24),
    RL_ISA_V(0x0b, "v_mul_u32_u24", 0, B32, B32, B32, NO, rl_isa_v_mul_u32_u24),
    RL_ISA_V(0x0c, "v_mul_hi_u32_u24", 0, B32, B32, B32, NO,
             rl_isa_v_mul_hi_u32_u24),
    RL_ISA_V(0x0f, "v_min_f32", 0, F32, F32, F32, NO, rl_isa_v_min_f32),
    RL_ISA_V(0x10, "v_max_f32", 0, F32, F32, F32, NO, rl_isa_v_max_f32),
    RL_ISA_V(0x11, "v_min_i32", 0, B32, B32, B32, NO, rl_isa_v_min_i32),
    RL_ISA_V(0x12, "v_max_i32", 0, B32, B32, B32, NO, rl_isa_v_max_i32),
    RL_ISA_V(0x13, "v_min_u32", 0, B32, B32, B32, NO, rl_isa_v_min_u32),
    RL_ISA_V(0x14, "v_max_u32", 0, B32, B32, B32, NO, rl_isa_v_max_u32),
    RL_ISA_V(0x18, "v_lshlrev_b32", 0, B32, B32, B32, NO, rl_isa_v_lshlrev_b32),
    RL_ISA_V(0x19, "v_lshrrev_b32", 0, B32, B32, B32, NO, rl_isa_v_lshrrev_b32),
    RL_ISA_V(0x1a, "v_ashrrev_i32", 0, B32, B32, B32, NO, rl_isa_v_ashrrev_i32),
    RL_ISA_V(0x1b, "v_and_b32", 0, B32, B32, B32, NO, rl_isa_v_and_b32),
    RL_ISA_V(0x1c, "v_or_b32", 0, B32, B32, B32, NO, rl_isa_v_or_b32),
    RL_ISA_V(0x1d, "v_xor_b32", 0, B32, B32, B32, NO, rl_isa_v_xor_b32),
    RL_ISA_V(0x1e, "v_xnor_b32", 0, B32, B32, B32, NO, rl_isa_v_xnor_b32),
    RL_ISA_V(0x20, "v_add_co_ci_u32", CARRY | RL_ISA_F_SDST, B32, B32, B32, NO,
             rl_isa_v_add_co_ci_u32),
    RL_ISA_V(0x21, "v_sub_co_ci_u32", CARRY | RL_ISA_F_SDST, B32, B32, B32, NO,
             rl_isa_v_sub_co_ci_u32),
    RL_ISA_V(0x22, "v_subrev_co_ci_u32", CARRY | RL_ISA_F_SDST, B32, B32, B32,
             NO, rl_isa_v_subrev_co_ci_u32),
    RL_ISA_V(0x25, "v_add_nc_u32", ICLAMP, B32, B32, B32, NO,
             rl_isa_v_add_nc_u32),
    RL_ISA_V(0x26, "v_sub_nc_u32", ICLAMP, B32, B32, B32, NO,
             rl_isa_v_sub_nc_u32),
    RL_ISA_V(0x27, "v_subrev_nc_u32", ICLAMP, B32, B32, B32, NO,
             rl_isa_v_subrev_nc_u32),
    RL_ISA_V(0x2b, "v_fmac_f32", ACC, F32, F32, F32, F32, rl_isa_v_fma_f32),
    // K (the literal) is source 2: typed F32 so the runner reads it.
    RL_ISA_V(0x2c, "v_fmamk_f32", K, F32, F32, F32, F32, rl_isa_v_fmamk_f32),
    RL_ISA_V(0x2d, "v_fmaak_f32", K, F32, F32, F32, F32, rl_isa_v_fma_f32),
};

#define V1(opc, name, d, s, fn) RL_ISA_V(opc, name, 0, d, s, NO, NO, fn)
#define V1A(opc, name, arg, fn) \
  RL_ISA_OP(opc, name, 0, F32, B32, NO, NO, arg, rl_isa_exec_valu, fn)

static const rl_isa_op_t rl_isa_vop1_ops[] = {
    RL_ISA_OP(0x00, "v_nop", 0, NO, NO, NO, NO, 0, rl_isa_exec_nop, NULL),
    V1(0x01, "v_mov_b32", B32, B32, rl_isa_v_mov_b32),
    RL_ISA_OP(0x02, "v_readfirstlane_b32", 0, B32, B32, NO, NO, 0,
              rl_isa_exec_readfirstlane, NULL),
    V1(0x05, "v_cvt_f32_i32", F32, B32, rl_isa_v_cvt_f32_i32),
    V1(0x06, "v_cvt_f32_u32", F32, B32, rl_isa_v_cvt_f32_u32),
    V1(0x07, "v_cvt_u32_f32", B32, F32, rl_isa_v_cvt_u32_f32),
    V1(0x08, "v_cvt_i32_f32", B32, F32, rl_isa_v_cvt_i32_f32),
    V1(0x0f, "v_cvt_f32_f64", F32, F64, rl_isa_v_cvt_f32_f64),
    V1(0x10, "v_cvt_f64_f32", F64, F32, rl_isa_v_cvt_f64_f32),
    V1A(0x11, "v_cvt_f32_ubyte0", 0, rl_isa_v_cvt_f32_ubyte),
    V1A(0x12, "v_cvt_f32_ubyte1", 1, rl_isa_v_cvt_f32_ubyte),
    V1A(0x13, "v_cvt_f32_ubyte2", 2, rl_isa_v_cvt_f32_ubyte),
    V1A(0x14, "v_cvt_f32_ubyte3", 3, rl_isa_v_cvt_f32_ubyte),
    V1(0x21, "v_trunc_f32", F32, F32, rl_isa_v_trunc_f32),
    V1(0x22, "v_ceil_f32", F32, F32, rl_isa_v_ceil_f32),
    V1(0x23, "v_rndne_f32", F32, F32, rl_isa_v_rndne_f32),
    V1(0x24, "v_floor_f32", F32, F32, rl_isa_v_floor_f32),
    V1(0x25, "v_exp_f32", F32, F32, rl_isa_v_exp_f32),
    V1(0x27, "v_log_f32", F32, F32, rl_isa_v_log_f32),
    V1(0x2a, "v_rcp_f32", F32, F32, rl_isa_v_rcp_f32),
    V1(0x2b, "v_rcp_iflag_f32", F32, F32, rl_isa_v_rcp_f32),
    V1(0x2e, "v_rsq_f32", F32, F32, rl_isa_v_rsq_f32),
    V1(0x33, "v_sqrt_f32", F32, F32, rl_isa_v_sqrt_f32),
    V1(0x37, "v_not_b32", B32, B32, rl_isa_v_not_b32),
    V1(0x38, "v_bfrev_b32", B32, B32, rl_isa_v_bfrev_b32),
    V1(0x39, "v_clz_i32_u32", B32, B32, rl_isa_v_clz_i32_u32),
    V1(0x3a, "v_ctz_i32_b32", B32, B32, rl_isa_v_ctz_i32_b32),
};

// VOPD: X takes opcodes 0..13, Y also 16..18 (RDNA3 ISA guide, "VOPD");
// clang-19 emits 0..12 and 16..18 for gfx11 (12, v_dual_dot2acc_f32_f16,
// lives with its kernel in isa_packed.c).
// The exec function of both halves is the VOPD runner.
#define VD(opc, name, flags, s1, s2, fn) \
  RL_ISA_OP(opc, name, flags, B32, B32, s1, s2, 0, rl_isa_exec_vopd, fn)

static const rl_isa_op_t rl_isa_vopd_ops[] = {
    VD(0, "v_dual_fmac_f32", ACC, F32, F32, rl_isa_v_fma_f32),
    VD(1, "v_dual_fmaak_f32", RL_ISA_F_LITERAL_K, F32, NO, rl_isa_v_fma_f32),
    VD(2, "v_dual_fmamk_f32", RL_ISA_F_LITERAL_K, F32, NO, rl_isa_v_fmamk_f32),
    VD(3, "v_dual_mul_f32", 0, F32, NO, rl_isa_v_mul_f32),
    VD(4, "v_dual_add_f32", 0, F32, NO, rl_isa_v_add_f32),
    VD(5, "v_dual_sub_f32", 0, F32, NO, rl_isa_v_sub_f32),
    VD(6, "v_dual_subrev_f32", 0, F32, NO, rl_isa_v_subrev_f32),
    VD(7, "v_dual_mul_dx9_zero_f32", 0, F32, NO, rl_isa_v_mul_dx9_zero_f32),
    VD(8, "v_dual_mov_b32", 0, NO, NO, rl_isa_v_mov_b32),
    VD(9, "v_dual_cndmask_b32", CARRY, B32, NO, rl_isa_v_cndmask),
    VD(10, "v_dual_max_f32", 0, F32, NO, rl_isa_v_max_f32),
    VD(11, "v_dual_min_f32", 0, F32, NO, rl_isa_v_min_f32),
    VD(16, "v_dual_add_nc_u32", 0, B32, NO, rl_isa_v_add_nc_u32),
    VD(17, "v_dual_lshlrev_b32", 0, B32, NO, rl_isa_v_lshlrev_b32),
    VD(18, "v_dual_and_b32", 0, B32, NO, rl_isa_v_and_b32),
};

RL_ISA_TABLE_CHAIN(rl_isa_table_vop2, rl_isa_vop2_ops, &rl_isa_table_vop2_16);
RL_ISA_TABLE_CHAIN(rl_isa_table_vop1, rl_isa_vop1_ops, &rl_isa_table_vop1_16);
RL_ISA_TABLE_CHAIN(rl_isa_table_vopd, rl_isa_vopd_ops, &rl_isa_table_vopd_packed);
