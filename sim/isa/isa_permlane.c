// sim/isa/isa_permlane.c — the VALU lane permutes within and
// across the two 16-lane rows of a wave32: v_permlane16_b32 and
// v_permlanex16_b32 (gfx11 and gfx12), v_permlane16_var_b32 and
// v_permlanex16_var_b32 (gfx12 only; rows in isa_exec_gfx12.c). HIP
// reaches them through __builtin_amdgcn_permlane16/x16 (and _var), and
// LLVM's wave reductions use permlanex16 to combine the two rows.
//
// Semantics (RDNA3 ISA guide, V_PERMLANE16_B32 / V_PERMLANEX16_B32; RDNA4
// guide, V_PERMLANE16_VAR_B32 / V_PERMLANEX16_VAR_B32), wave32, for lane l
// in row r = l / 16:
//   - the lane select sel(l) is 4 bits: for the _b32 forms nibble l % 16
//     of the 64-bit value {S2, S1} (S1 holds lanes 0-7, S2 lanes 8-15,
//     both scalar operands); for the _var forms bits [3:0] of lane l of
//     the VGPR source 1;
//   - permlane16 reads lane r * 16 + sel(l) of source 0 (its own row),
//     permlanex16 lane (r ^ 1) * 16 + sel(l) (the other row);
//   - OP_SEL[0] is FI (fetch inactive) and OP_SEL[1] BOUND_CTRL (LLVM
//     syntax op_sel:[fi,bc], docs/AMDGPUModifierSyntax.rst; the
//     intrinsics' <fi> and <bound_control> arguments): a source lane that
//     is inactive in EXEC is invalid unless FI is 1; an invalid source
//     gives 0 when BOUND_CTRL is 1 and otherwise leaves the lane's VDST
//     unchanged (the DPP rule, isa_dpp.c; the intrinsics' <old> operand is
//     the tied VDST);
//   - only lanes active in EXEC write VDST.
// Refused at load time (rl_isa_permlane_reason): ABS/NEG/CLAMP/OMOD and
// OP_SEL[3:2], which the instructions do not define.
#include "sim/isa/isa_exec.h"

// Lane |l|'s values of a VALU source operand (a VGPR row or a broadcast).
static const uint32_t* rl_isa_permlane_row(rl_isa_wave_t* wave,
                                           const rl_isa_operand_t* operand,
                                           uint32_t* scratch) {
  if (operand->kind == RL_ISA_OPK_VGPR) return wave->vgpr[operand->reg];
  uint32_t value = rl_isa_read_s32(wave, operand);
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) scratch[l] = value;
  return scratch;
}

// The wave's scratch rows 0 and 1 hold broadcast scalar sources (nothing
// else uses them during this instruction).
rl_status_t rl_isa_exec_permlane(rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst) {
  const uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  const uint32_t fetchable = (inst->opsel & 1) ? RL_ISA_ALL_LANES : exec;
  const bool bound_ctrl = (inst->opsel >> 1) & 1;
  const uint32_t arg = inst->op->arg;
  const uint32_t* values =
      rl_isa_permlane_row(wave, &inst->src[0], wave->tmp[0]);
  const uint32_t* selects = NULL;
  uint64_t packed = 0;
  if (arg & RL_ISA_PERMLANE_VAR) {
    selects = rl_isa_permlane_row(wave, &inst->src[1],
                                  wave->tmp[1]);
  } else {
    packed = rl_isa_read_s32(wave, &inst->src[1]) |
             (uint64_t)rl_isa_read_s32(wave, &inst->src[2]) << 32;
  }
  uint32_t* dst = wave->vgpr[inst->dst];
  uint32_t out[RL_ISA_LANES];
  for (uint32_t l = 0; l < RL_ISA_LANES; ++l) {
    uint32_t sel = selects ? selects[l] & 15
                           : (uint32_t)(packed >> (4 * (l & 15))) & 15;
    uint32_t row = (l >> 4) ^ (arg & RL_ISA_PERMLANE_X);
    uint32_t src = row * 16 + sel;
    if ((fetchable >> src) & 1) {
      out[l] = values[src];
    } else {
      out[l] = bound_ctrl ? 0 : dst[l];
    }
  }
  rl_isa_write_lanes(dst, out, exec);
  return RL_OK;
}

bool rl_isa_is_permlane(const rl_isa_op_t* op) {
  return op != NULL && op->exec == rl_isa_exec_permlane;
}

const char* rl_isa_permlane_reason(const rl_isa_inst_t* inst) {
  if (inst->abs || inst->neg || inst->clamp || inst->omod) {
    return "abs/neg/clamp/omod on a lane permute are not defined";
  }
  if (inst->opsel & ~3u) {
    return "op_sel bits other than FI and BOUND_CTRL on a lane permute";
  }
  if (inst->dpp) return "DPP on a lane permute is not defined";
  if (inst->src[0].kind != RL_ISA_OPK_VGPR) {
    return "a lane permute whose source 0 is not a VGPR";
  }
  if ((inst->op->arg & RL_ISA_PERMLANE_VAR) &&
      inst->src[1].kind != RL_ISA_OPK_VGPR) {
    return "a per-lane permute whose lane selects are not a VGPR";
  }
  return NULL;
}

#define PERMLANE(opc, name, arg)                                     \
  RL_ISA_OP(opc, name, 0, RL_ISA_T_B32, RL_ISA_T_B32, RL_ISA_T_B32, \
            RL_ISA_T_B32, (arg), rl_isa_exec_permlane, NULL)

// gfx11 VOP3 opcodes (RDNA3 guide, VOP3 opcode table; llvm-mc-19).
static const rl_isa_op_t rl_isa_vop3_permlane_ops[] = {
    PERMLANE(0x25b, "v_permlane16_b32", 0),
    PERMLANE(0x25c, "v_permlanex16_b32", RL_ISA_PERMLANE_X),
};
RL_ISA_TABLE(rl_isa_table_vop3_permlane, rl_isa_vop3_permlane_ops);

// gfx12's per-lane forms (VOP3 0x30f, 0x310) are rows of isa_exec_gfx12.c
// with this file's exec function and RL_ISA_PERMLANE_VAR.
