// sim/isa/isa_decode_vector.c — the VALU families of the gfx11
// decoder: VOP1, VOP2, VOPC (32 bits), VOP3/VOP3b and VOP3P (64 bits), VOPD
// (dual issue, 64 bits), each optionally followed by a 32-bit literal.
//
// Field layouts (RDNA3 ISA guide, "Vector ALU Formats"; LLVM
// SIInstrFormats.td / VOPInstructions.td gfx11 encodings):
//   VOP2  OP[30:25] VDST[24:17] VSRC1[16:9] SRC0[8:0]
//   VOP1  VDST[24:17] OP[16:9] SRC0[8:0]
//   VOPC  OP[24:17] VSRC1[16:9] SRC0[8:0]
//   VOP3  VDST[7:0] ABS[10:8] OPSEL[14:11] CLAMP[15] OP[25:16]
//         | SRC0[40:32] SRC1[49:41] SRC2[58:50] OMOD[60:59] NEG[63:61]
//   VOP3b as VOP3 with SDST[14:8] in place of ABS and OPSEL
//   VOP3P VDST[7:0] NEG_HI[10:8] OPSEL[13:11] OPSEL_HI2[14] CLAMP[15]
//         OP[22:16] | SRC0 SRC1 SRC2 as VOP3, OPSEL_HI[60:59] NEG[63:61]
//   VOPD  SRCX0[8:0] VSRCX1[16:9] OPY[21:17] OPX[25:22]
//         | SRCY0[40:32] VSRCY1[48:41] VDSTY[55:49] VDSTX[63:56]
//         where the Y destination is (VDSTY << 1) | !(VDSTX & 1): the two
//         destinations always sit in different VGPR banks.
// A VOP3 opcode below 0x100 is a VOPC opcode, 0x100 + n is VOP2 opcode n and
// 0x180 + n is VOP1 opcode n (the e64 forms); 0x200 and up are VOP3-only.
// DPP (SRC0 = 250 DPP16, 233 DPP8, 234 DPP8 with FI) adds one dword.
#include <string.h>

#include "sim/isa/isa_decode_internal.h"

static bool rl_isa_is_dpp(uint32_t src0) {
  return src0 == RL_ISA_SRC_DPP16 || src0 == RL_ISA_SRC_DPP8 ||
         src0 == RL_ISA_SRC_DPP8_FI;
}

// DPP forms: one more dword after the |index| dwords of the instruction
// (RDNA3 ISA guide, "DPP16" and "DPP8"; LLVM VOPInstructions.td VOP_DPPe /
// VOP_DPP8e, checked against llvm-mc-19 by tests/unit/sim/isa/isa_decode_test.c):
//   DPP16  SRC0[7:0] DPP_CTRL[16:8] FI[18] BC[19] SRC0_NEG[20]
//          SRC0_ABS[21] SRC1_NEG[22] SRC1_ABS[23] BANK_MASK[27:24]
//          ROW_MASK[31:28]
//   DPP8   SRC0[7:0] SEL0..SEL7[31:8] (3 bits each, lane 0 first); FI is
//          the source code (233: 0, 234: 1).
// Source 0 becomes the VGPR the DPP dword names. The VOP1/VOP2/VOPC DPP16
// forms carry their sources' NEG/ABS here; the VOP3 forms keep the VOP3
// fields (isa_valu.c refuses DPP16 NEG/ABS bits on them). False (size 0)
// when the dword lies beyond |count|.
static bool rl_isa_take_dpp(const uint32_t* w, uint32_t count, uint32_t index,
                            uint32_t marker, rl_isa_inst_t* inst) {
  if (index >= count) {
    inst->size = 0;
    return false;
  }
  uint32_t d = w[index];
  inst->words[index] = d;
  inst->size = (uint8_t)(index * 4 + 4);
  if (marker == RL_ISA_SRC_DPP16) {
    inst->dpp = 16;
    inst->dpp_ctrl = (uint16_t)((d >> 8) & 0x1ff);
    inst->dpp_fi = (d >> 18) & 1;
    inst->dpp_bc = (d >> 19) & 1;
    inst->dpp_bank_mask = (uint8_t)((d >> 24) & 0xf);
    inst->dpp_row_mask = (uint8_t)(d >> 28);
    if (index == 1) {  // VOP1/VOP2/VOPC: the source modifiers
      inst->neg = (uint8_t)(((d >> 20) & 1) | (((d >> 22) & 1) << 1));
      inst->abs = (uint8_t)(((d >> 21) & 1) | (((d >> 23) & 1) << 1));
    }
  } else {
    inst->dpp = 8;
    inst->dpp_fi = marker == RL_ISA_SRC_DPP8_FI;
    inst->dpp_sel = d >> 8;
  }
  return true;
}

// The DPP dword's VGPR as source 0.
static void rl_isa_dpp_src0(rl_isa_inst_t* inst, uint32_t index) {
  rl_isa_decode_src(inst, 0, 256u + (inst->words[index] & 0xff));
}

// Source 0 of a VOP1/VOP2/VOPC word whose SRC0 field is |s0|, with the dword
// that may follow it: the DPP dword when |s0| names DPP, else the literal
// when |literal| or |s0| asks for it. False (size 0) when that dword lies
// beyond |count|.
static bool rl_isa_take_src0(const uint32_t* w, uint32_t count, uint32_t s0,
                             bool literal, rl_isa_inst_t* inst) {
  if (rl_isa_is_dpp(s0)) {
    if (!rl_isa_take_dpp(w, count, 1, s0, inst)) return false;
    rl_isa_dpp_src0(inst, 1);
    return true;
  }
  if (!rl_isa_take_literal(inst, w, count, 1,
                           literal || s0 == RL_ISA_SRC_LITERAL)) {
    return false;
  }
  rl_isa_decode_src(inst, 0, s0);
  return true;
}

// Carry-in/mask source and carry-out of the e32 forms of VOP2 carry ops and
// v_cndmask_b32: VCC.
static void rl_isa_vop2_implicit_vcc(rl_isa_inst_t* inst) {
  rl_isa_operand_decode(RL_ISA_SRC_VCC, RL_ISA_T_B32, inst, &inst->src[2]);
  inst->sdst = RL_ISA_SRC_VCC;
}

// v_fmac_f32 accumulates into its destination: read it as source 2.
static void rl_isa_vop2_accumulator(rl_isa_inst_t* inst) {
  if (inst->op && (inst->op->flags & RL_ISA_F_ACCUM)) {
    rl_isa_operand_decode(256u + inst->dst, inst->op->src[2], inst,
                          &inst->src[2]);
  }
}

// VOP2 opcodes that always carry a literal K (LLVM VOP2Instructions.td,
// gfx11): v_fmamk_f32 0x2c, v_fmaak_f32 0x2d, v_fmamk_f16 0x37,
// v_fmaak_f16 0x38.
static bool rl_isa_vop2_has_k(uint32_t opcode) {
  return opcode == 0x2c || opcode == 0x2d || opcode == 0x37 || opcode == 0x38;
}

static bool rl_isa_decode_vop2(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_VOP2, &rl_isa_table_vop2,
                   (w[0] >> 25) & 0x3f, features);
  bool dpp = rl_isa_is_dpp(w[0] & 0x1ff);
  // The K forms carry a literal whether or not they are modelled, so the
  // length is right even for an opcode the tables lack (a K form has no
  // DPP variant: the DPP dword is read and the check refuses the pair).
  bool k = rl_isa_vop2_has_k(inst->opcode);
  if (!rl_isa_take_src0(w, count, w[0] & 0x1ff, k, inst)) return false;
  inst->dst = (w[0] >> 17) & 0xff;
  rl_isa_decode_src(inst, 1, 256u + ((w[0] >> 9) & 0xff));
  if (k && !dpp) {
    rl_isa_operand_decode(RL_ISA_SRC_LITERAL, RL_ISA_T_F32, inst,
                          &inst->src[2]);
  } else if (inst->op && (inst->op->flags & RL_ISA_F_CARRY)) {
    rl_isa_vop2_implicit_vcc(inst);
  }
  rl_isa_vop2_accumulator(inst);
  return inst->op != NULL;
}

static bool rl_isa_decode_vop1(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_VOP1, &rl_isa_table_vop1,
                   (w[0] >> 9) & 0xff, features);
  if (!rl_isa_take_src0(w, count, w[0] & 0x1ff, false, inst)) return false;
  inst->dst = (w[0] >> 17) & 0xff;
  return inst->op != NULL;
}

// The destination mask of a compare: VCC for v_cmp_*_e32, EXEC for v_cmpx.
static uint16_t rl_isa_vopc_sdst(const rl_isa_op_t* op, uint32_t field) {
  if (op && (op->flags & RL_ISA_F_CMPX)) return RL_ISA_SRC_EXEC;
  return (uint16_t)field;
}

static bool rl_isa_decode_vopc(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_VOPC, &rl_isa_table_vopc,
                   (w[0] >> 17) & 0xff, features);
  if (!rl_isa_take_src0(w, count, w[0] & 0x1ff, false, inst)) return false;
  rl_isa_decode_src(inst, 1, 256u + ((w[0] >> 9) & 0xff));
  inst->sdst = rl_isa_vopc_sdst(inst->op, RL_ISA_SRC_VCC);
  return inst->op != NULL;
}

// The table entry a VOP3 opcode names (see the file comment).
static const rl_isa_op_t* rl_isa_vop3_lookup(uint32_t opcode,
                                             uint32_t features) {
  const rl_isa_op_t* op = NULL;
  if (opcode < 0x100) {
    op = rl_isa_table_find_for(&rl_isa_table_vopc, opcode, features);
  } else if (opcode < 0x180) {
    op = rl_isa_table_find_for(&rl_isa_table_vop2, opcode - 0x100, features);
  } else if (opcode < 0x200) {
    op = rl_isa_table_find_for(&rl_isa_table_vop1, opcode - 0x180, features);
  } else {
    op = rl_isa_table_find_for(&rl_isa_table_vop3, opcode, features);
  }
  if (op && (op->flags & RL_ISA_F_NO_VOP3)) return NULL;
  return op;
}

// True when source |n| of |op| is read (unknown opcodes: all three).
static bool rl_isa_src_used(const rl_isa_op_t* op, uint32_t n) {
  return op == NULL || op->src[n] != RL_ISA_T_NONE ||
         (n == 2 && (op->flags & RL_ISA_F_CARRY));
}

static void rl_isa_vop3_fields(const uint32_t* w, rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  inst->dst = w[0] & 0xff;
  inst->clamp = (w[0] >> 15) & 1;
  inst->omod = (w[1] >> 27) & 3;
  inst->neg = (w[1] >> 29) & 7;
  if (op && (op->flags & RL_ISA_F_SDST)) {
    inst->sdst = (w[0] >> 8) & 0x7f;
  } else {
    inst->abs = (w[0] >> 8) & 7;
    inst->opsel = (w[0] >> 11) & 0xf;
  }
  const uint32_t codes[3] = {w[1] & 0x1ff, (w[1] >> 9) & 0x1ff,
                             (w[1] >> 18) & 0x1ff};
  for (uint32_t n = 0; n < 3; ++n) {
    if (!rl_isa_src_used(op, n)) continue;
    uint32_t type = op && op->src[n] ? op->src[n] : RL_ISA_T_B32;
    rl_isa_operand_decode(codes[n], type, inst, &inst->src[n]);
  }
  if (op && inst->opcode < 0x100) {  // a compare: the mask destination
    inst->sdst = rl_isa_vopc_sdst(op, inst->dst);
  }
  rl_isa_vop2_accumulator(inst);
}

static bool rl_isa_vop3_literal(const uint32_t* w, const rl_isa_op_t* op) {
  const uint32_t codes[3] = {w[1] & 0x1ff, (w[1] >> 9) & 0x1ff,
                             (w[1] >> 18) & 0x1ff};
  for (uint32_t n = 0; n < 3; ++n) {
    if (rl_isa_src_used(op, n) && codes[n] == RL_ISA_SRC_LITERAL) return true;
  }
  return false;
}

static bool rl_isa_decode_vop3(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  inst->encoding = RL_ISA_ENC_VOP3;
  inst->opcode = (w[0] >> 16) & 0x3ff;
  if (count < 2) return false;
  inst->words[1] = w[1];
  inst->op = rl_isa_vop3_lookup(inst->opcode, features);
  uint32_t s0 = w[1] & 0x1ff;
  if (rl_isa_is_dpp(s0)) {
    if (!rl_isa_take_dpp(w, count, 2, s0, inst)) return false;
    rl_isa_vop3_fields(w, inst);
    rl_isa_dpp_src0(inst, 2);
    return inst->op != NULL;
  }
  if (!rl_isa_take_literal(inst, w, count, 2, rl_isa_vop3_literal(w, inst->op))) {
    return false;
  }
  rl_isa_vop3_fields(w, inst);
  return inst->op != NULL;
}

static bool rl_isa_decode_vop3p(const uint32_t* w, uint32_t count,
                                uint32_t features, rl_isa_inst_t* inst) {
  inst->encoding = RL_ISA_ENC_VOP3P;
  inst->opcode = (w[0] >> 16) & 0x7f;
  if (count < 2) return false;
  inst->words[1] = w[1];
  inst->op = rl_isa_table_find_for(&rl_isa_table_vop3p, inst->opcode,
                                   features);
  uint32_t s0 = w[1] & 0x1ff;
  bool dpp = rl_isa_is_dpp(s0);
  if (dpp) {  // decoded for its length; isa_valu.c refuses VOP3P DPP
    if (!rl_isa_take_dpp(w, count, 2, s0, inst)) return false;
  } else if (!rl_isa_take_literal(inst, w, count, 2,
                                  rl_isa_vop3_literal(w, inst->op))) {
    return false;
  }
  inst->dst = w[0] & 0xff;
  inst->neg_hi = (w[0] >> 8) & 7;
  inst->opsel = (w[0] >> 11) & 7;
  inst->opsel_hi = (uint8_t)(((w[1] >> 27) & 3) | (((w[0] >> 14) & 1) << 2));
  inst->clamp = (w[0] >> 15) & 1;
  inst->neg = (w[1] >> 29) & 7;
  const uint32_t codes[3] = {w[1] & 0x1ff, (w[1] >> 9) & 0x1ff,
                             (w[1] >> 18) & 0x1ff};
  for (uint32_t n = 0; n < 3; ++n) {
    if (!rl_isa_src_used(inst->op, n)) continue;
    rl_isa_operand_decode(codes[n], rl_isa_src_type(inst->op, n), inst,
                          &inst->src[n]);
  }
  if (dpp) rl_isa_dpp_src0(inst, 2);
  return inst->op != NULL;
}

// One half of a VOPD: sources and implicit operands like VOP2.
static void rl_isa_vopd_half(const rl_isa_op_t* op, uint32_t src0,
                             uint32_t vsrc1, uint32_t dst,
                             rl_isa_inst_t* inst, rl_isa_operand_t* src) {
  rl_isa_operand_decode(src0, rl_isa_src_type(op, 0), inst, &src[0]);
  if (op && op->src[1] != RL_ISA_T_NONE) {
    rl_isa_operand_decode(256u + vsrc1, op->src[1], inst, &src[1]);
  }
  if (op == NULL) return;
  if (op->flags & RL_ISA_F_LITERAL_K) {
    rl_isa_operand_decode(RL_ISA_SRC_LITERAL, RL_ISA_T_F32, inst, &src[2]);
  } else if (op->flags & RL_ISA_F_CARRY) {  // v_dual_cndmask_b32: VCC
    rl_isa_operand_decode(RL_ISA_SRC_VCC, RL_ISA_T_B32, inst, &src[2]);
  } else if (op->flags & RL_ISA_F_ACCUM) {  // v_dual_fmac_f32
    rl_isa_operand_decode(256u + dst, op->src[2], inst, &src[2]);
  }
}

static bool rl_isa_decode_vopd(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  inst->encoding = RL_ISA_ENC_VOPD;
  inst->opcode = (w[0] >> 22) & 0xf;
  inst->opcode_y = (w[0] >> 17) & 0x1f;
  if (count < 2) return false;
  inst->words[1] = w[1];
  // X takes opcodes 0..13 only; Y also 16..18 (add_nc_u32, lshlrev, and).
  inst->op = inst->opcode <= 13 ? rl_isa_table_find_for(&rl_isa_table_vopd,
                                                        inst->opcode, features)
                                : NULL;
  inst->op_y = rl_isa_table_find_for(&rl_isa_table_vopd, inst->opcode_y,
                                     features);
  uint32_t srcx0 = w[0] & 0x1ff, srcy0 = w[1] & 0x1ff;
  bool k = (inst->op && (inst->op->flags & RL_ISA_F_LITERAL_K)) ||
           (inst->op_y && (inst->op_y->flags & RL_ISA_F_LITERAL_K));
  if (!rl_isa_take_literal(inst, w, count, 2,
                           k || srcx0 == RL_ISA_SRC_LITERAL ||
                               srcy0 == RL_ISA_SRC_LITERAL)) {
    return false;
  }
  inst->dst = w[1] >> 24;
  inst->dst_y = (uint16_t)((((w[1] >> 17) & 0x7f) << 1) | ((inst->dst & 1) ^ 1));
  rl_isa_vopd_half(inst->op, srcx0, (w[0] >> 9) & 0xff, inst->dst, inst,
                   inst->src);
  rl_isa_vopd_half(inst->op_y, srcy0, (w[1] >> 9) & 0xff, inst->dst_y, inst,
                   inst->src_y);
  return inst->op != NULL && inst->op_y != NULL;
}

bool rl_isa_decode_vector(const uint32_t* words, uint32_t count,
                          uint32_t features, rl_isa_inst_t* inst) {
  const uint32_t w0 = words[0];
  if ((w0 >> 25) == 0x3f) return rl_isa_decode_vop1(words, count, features, inst);
  if ((w0 >> 25) == 0x3e) return rl_isa_decode_vopc(words, count, features, inst);
  if ((w0 >> 31) == 0) return rl_isa_decode_vop2(words, count, features, inst);
  if ((w0 >> 26) == 0x35) return rl_isa_decode_vop3(words, count, features, inst);
  if ((w0 >> 24) == 0xcc) return rl_isa_decode_vop3p(words, count, features, inst);
  return rl_isa_decode_vopd(words, count, features, inst);
}
