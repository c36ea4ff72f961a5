// sim/isa/isa_dpp.c — the data-parallel-primitive (DPP) source
// fetch of the ISA executor: which lane each lane's source 0 comes from
// under DPP16 and DPP8, and which lanes may write their result.
//
// gfx11 has DPP16 and DPP8 and no SDWA (RDNA3 ISA guide, "DPP16", "DPP8";
// LLVM docs/AMDGPUModifierSyntax.rst, "DPP Modifiers"). The decoder
// (isa_decode_vector.c) fills rl_isa_inst_t.dpp*; the VALU runner
// (isa_valu.c) calls rl_isa_dpp_fetch() for source 0 and masks its writes
// with the returned lane set. The compares (VOPC and their VOP3 form, which
// clang emits when it folds a DPP move into a compare) take the lane set as
// their EXEC: a lane DPP disables writes 0 into the VCC/SGPR mask, or into
// EXEC for v_cmpx, as an inactive lane does. (The folds clang-19 made in
// our programs enable every lane: row_mask and bank_mask 0xf,
// bound_ctrl:1.) Wave32: two rows of 16 lanes, each row four banks of 4
// lanes.
//
// DPP16, for lane l (row r = l / 16, index i = l % 16 in the row):
//   - DPP_CTRL picks the source index j in the same row:
//       0x000-0x0ff quad_perm   j = (i & ~3) | CTRL[2*(i%4)+1 : 2*(i%4)]
//       0x101-0x10f row_shl:n   j = i + n      (none when j > 15)
//       0x111-0x11f row_shr:n   j = i - n      (none when j < 0)
//       0x121-0x12f row_ror:n   j = (i - n) mod 16
//       0x140       row_mirror  j = 15 - i
//       0x141       row_half_mirror  j = (i & 8) | (7 - (i & 7))
//       0x150-0x15f row_share:n j = n
//       0x160-0x16f row_xmask:n j = i ^ n
//     anything else is reserved on gfx11 and gfx12 (refused by
//     rl_isa_dpp_reason): among them 0x142/0x143, GFX9's row_bcast:15 and
//     row_bcast:31, which clang-19 refuses for GFX10 and later ("broadcasts
//     are not supported on GFX10+");
//   - the source lane is invalid when j is out of the row or the lane is
//     inactive in EXEC and FI is 0 (FI = 1 fetches inactive lanes);
//   - an invalid source reads 0 when BOUND_CTRL is 1; when it is 0 the
//     lane does not write its result;
//   - a lane whose ROW_MASK bit (row) or BANK_MASK bit ((l / 4) % 4) is 0
//     does not write either.
// DPP8: lane l reads lane (l & ~7) | SEL[l % 8]; an inactive source lane
// reads 0 unless FI is 1 (the DPP8 form has no masks and no BOUND_CTRL, so
// every lane writes).
#include "sim/isa/isa_exec.h"

// The source index in the row for DPP16 control |ctrl| at row index |i|,
// or -1 when there is none (shifted out of the row).
static int rl_isa_dpp16_source(uint32_t ctrl, int i) {
  int n = (int)(ctrl & 0xf);
  if (ctrl <= 0xff) return (i & ~3) | (int)((ctrl >> (2 * (i & 3))) & 3);
  switch (ctrl & 0x1f0) {
    case 0x100: return i + n > 15 ? -1 : i + n;  // row_shl
    case 0x110: return i - n < 0 ? -1 : i - n;   // row_shr
    case 0x120: return (i - n) & 15;             // row_ror
    case 0x150: return n;                        // row_share
    case 0x160: return i ^ n;                    // row_xmask
    default: break;
  }
  if (ctrl == 0x140) return 15 - i;
  if (ctrl == 0x141) return (i & 8) | (7 - (i & 7));
  return -1;
}

static bool rl_isa_dpp16_ctrl_valid(uint32_t ctrl) {
  if (ctrl <= 0xff || ctrl == 0x140 || ctrl == 0x141) return true;
  uint32_t group = ctrl & 0x1f0, n = ctrl & 0xf;
  if (group == 0x100 || group == 0x110 || group == 0x120) return n != 0;
  return group == 0x150 || group == 0x160;
}

uint32_t rl_isa_dpp_fetch(const rl_isa_wave_t* wave, const rl_isa_inst_t* inst,
                          uint32_t* row) {
  const uint32_t* values = wave->vgpr[inst->src[0].reg];
  uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  uint32_t fetchable = inst->dpp_fi ? RL_ISA_ALL_LANES : exec;
  if (inst->dpp == 8) {
    for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
      uint32_t src = (l & ~7u) | ((inst->dpp_sel >> (3 * (l & 7))) & 7);
      row[l] = ((fetchable >> src) & 1) ? values[src] : 0;
    }
    return RL_ISA_ALL_LANES;
  }
  uint32_t enable = 0;
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t base = l & ~15u;
    bool masked_in = ((inst->dpp_row_mask >> (l >> 4)) & 1) &&
                     ((inst->dpp_bank_mask >> ((l >> 2) & 3)) & 1);
    int j = rl_isa_dpp16_source(inst->dpp_ctrl, (int)(l & 15));
    bool valid = j >= 0 && ((fetchable >> (base + (uint32_t)j)) & 1);
    row[l] = valid ? values[base + (uint32_t)j] : 0;
    if (masked_in && (valid || inst->dpp_bc)) enable |= 1u << l;
  }
  return enable;
}

const char* rl_isa_dpp_reason(const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  if (inst->encoding == RL_ISA_ENC_VOP3P) return "VOP3P DPP is not modelled";
  if (op->exec != rl_isa_exec_valu && op->exec != rl_isa_exec_vopc) {
    return "DPP on this opcode (not a plain VALU operation) is not modelled";
  }
  if (op->flags & (RL_ISA_F_SDST | RL_ISA_F_LITERAL_K | RL_ISA_F_ACCUM |
                   RL_ISA_F_READS_VCC)) {
    return "DPP with a carry-out, literal K, accumulator or implicit VCC is "
           "not modelled";
  }
  if (op->src[0] == RL_ISA_T_B64 || op->src[0] == RL_ISA_T_F64 ||
      op->dst == RL_ISA_T_B64 || op->dst == RL_ISA_T_F64) {
    return "DPP on 64-bit operands is not modelled";
  }
  if (inst->dpp == 16 && !rl_isa_dpp16_ctrl_valid(inst->dpp_ctrl)) {
    return "a reserved DPP_CTRL value";
  }
  // LLVM (llvm-mc-19 -mcpu=gfx1100: "e64_dpp variant of this instruction
  // is not supported") has no VOP3 DPP form of v_div_fixup_f32 (0x227),
  // v_mul_lo_u32, v_mul_hi_u32 and v_mul_hi_i32 (0x32c-0x32e);
  // tests/unit/sim/isa/isa_decode_test.c disassembles every VOP3 DPP form accepted
  // here, so a missing entry fails it.
  if (inst->encoding == RL_ISA_ENC_VOP3 &&
      (inst->opcode == 0x227 ||
       (inst->opcode >= 0x32c && inst->opcode <= 0x32e))) {
    return "this opcode has no DPP form";
  }
  if (inst->dpp == 16 && inst->encoding == RL_ISA_ENC_VOP3 &&
      ((inst->words[2] >> 20) & 0xf)) {
    return "DPP16 NEG/ABS bits on a VOP3 form are not modelled";
  }
  return NULL;
}
