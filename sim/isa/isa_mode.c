// sim/isa/isa_mode.c — the MODE register of a wave: s_denorm_mode,
// s_round_mode, and s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 on
// HW_REG_MODE, with their opcode table entries (chained after the SOPP and
// SOPK tables).
//
// Sources: opcodes from LLVM SOPInstructions.td (gfx11), confirmed with
// llvm-mc-19 by tests/unit/sim/isa/isa_decode_test.c; the register from the RDNA3
// ISA guide ("MODE", "S_GETREG_B32", "S_SETREG_B32", "S_DENORM_MODE",
// "S_ROUND_MODE") and LLVM SIDefines.h (FP_ROUND_MODE_SP/DP,
// FP_DENORM_MODE_SP/DP, HWREG IDs):
//   MODE[1:0] FP_ROUND 32-bit, [3:2] FP_ROUND 16/64-bit (0 = nearest even),
//   [5:4] FP_DENORM 32-bit, [7:6] FP_DENORM 16/64-bit (0 flush in and out,
//   3 keep), [8] DX10_CLAMP, [9] IEEE; higher bits are kept as written.
//   s_round_mode / s_denorm_mode write bits [3:0] / [7:4] from SIMM16[3:0].
//   The hwreg operand of s_getreg/s_setreg: SIMM16 ID[5:0] (1 = MODE),
//   OFFSET[10:6], SIZE-1[15:11]; s_setreg writes the low SIZE bits of its
//   source into the field, s_getreg returns the field zero-extended.
// Each wave starts with the MODE the kernel descriptor gives
// (COMPUTE_PGM_RSRC1 FLOAT_MODE, DX10_CLAMP, IEEE_MODE) and changes only its
// own copy. gfx12 has neither DX10_CLAMP nor IEEE (LLVM GCNSubtarget.h
// hasDX10ClampMode/hasIEEEMode false from GFX12): a gfx12 wave starts with
// both clear and a write that sets MODE bits 8 or 9 is refused, so the
// gfx12 float min/max (the *_num_* opcodes) always see IEEE clear. The executor models round-to-nearest-even only and, for
// binary32, FLOAT_DENORM 0 or 3, for binary16/64 FLOAT_DENORM 3: a constant
// that sets anything else is refused at load time, a register value at the
// instruction (a fault naming it).
#include "sim/isa/isa_exec.h"

#define RL_ISA_HWREG_MODE 1u

uint32_t rl_isa_mode_register(uint32_t mode) {
  uint32_t denorm32 = (mode & RL_ISA_MODE_FTZ32) ? 0u : 3u;
  return denorm32 << 4 | 3u << 6 |
         ((mode & RL_ISA_MODE_DX10_CLAMP) ? 1u << 8 : 0) |
         ((mode & RL_ISA_MODE_IEEE) ? 1u << 9 : 0);
}

// NULL when the executor models |reg|'s float fields.
static const char* rl_isa_mode_unmodelled(uint32_t reg) {
  if (reg & 0xf) return "a rounding mode other than nearest-even";
  uint32_t denorm32 = (reg >> 4) & 3, denorm64 = (reg >> 6) & 3;
  if (denorm32 == 1 || denorm32 == 2) {
    return "FP_DENORM 32-bit 1 or 2 (flush only inputs or only outputs)";
  }
  if (denorm64 != 3) return "FP_DENORM 16/64-bit other than 3";
  return NULL;
}

// MODE changed: the wave's float mode bits follow it.
static void rl_isa_mode_apply(rl_isa_wave_t* wave, uint32_t reg) {
  wave->mode_reg = reg;
  wave->mode = (((reg >> 4) & 3) == 0 ? RL_ISA_MODE_FTZ32 : 0) |
               ((reg >> 8) & 1 ? RL_ISA_MODE_DX10_CLAMP : 0) |
               ((reg >> 9) & 1 ? RL_ISA_MODE_IEEE : 0);
}

static rl_status_t rl_isa_exec_mode_bits(rl_isa_wave_t* wave,
                                         const rl_isa_inst_t* inst) {
  uint32_t shift = inst->op->arg;  // 0: s_round_mode, 4: s_denorm_mode
  uint32_t reg = (wave->mode_reg & ~(0xfu << shift)) |
                 ((uint32_t)inst->simm16 & 0xf) << shift;
  rl_isa_mode_apply(wave, reg);
  return RL_OK;
}

typedef struct rl_isa_hwreg_s {
  uint32_t id, offset, mask;
} rl_isa_hwreg_t;

static rl_isa_hwreg_t rl_isa_hwreg(const rl_isa_inst_t* inst) {
  uint32_t simm = (uint32_t)inst->simm16 & 0xffff;
  uint32_t size = ((simm >> 11) & 31) + 1;
  rl_isa_hwreg_t h = {simm & 63, (simm >> 6) & 31,
                      size >= 32 ? 0xffffffffu : (1u << size) - 1u};
  return h;
}

static rl_status_t rl_isa_exec_getreg(rl_isa_wave_t* wave,
                                      const rl_isa_inst_t* inst) {
  rl_isa_hwreg_t h = rl_isa_hwreg(inst);
  wave->sgpr[inst->dst & 127] = (wave->mode_reg >> h.offset) & h.mask;
  return RL_OK;
}

static rl_status_t rl_isa_exec_setreg(rl_isa_wave_t* wave,
                                      const rl_isa_inst_t* inst) {
  rl_isa_hwreg_t h = rl_isa_hwreg(inst);
  uint32_t value = inst->op->arg ? inst->literal
                                 : rl_isa_read_s32(wave, &inst->src[0]);
  uint32_t field = h.mask << h.offset;
  uint32_t reg = (wave->mode_reg & ~field) | ((value << h.offset) & field);
  const char* unmodelled = rl_isa_mode_unmodelled(reg);
  if (!unmodelled && inst->gfx12 && (reg & (3u << 8))) {
    unmodelled = "bits 8/9 on gfx12 (gfx11's DX10_CLAMP/IEEE, which gfx12 "
                 "does not have)";
  }
  if (unmodelled) {
    return rl_isa_fault(inst, "MODE 0x%x sets %s, which is not modelled", reg,
                        unmodelled);
  }
  rl_isa_mode_apply(wave, reg);
  return RL_OK;
}

const char* rl_isa_mode_reason(const rl_isa_inst_t* inst) {
  rl_isa_exec_fn exec = inst->op->exec;
  if (exec == rl_isa_exec_mode_bits) {
    // The four bits against a MODE whose other fields are modelled.
    uint32_t bits = (uint32_t)inst->simm16 & 0xf;
    return rl_isa_mode_unmodelled(inst->op->arg ? bits << 4 : bits | 0xf0u);
  }
  if (exec == rl_isa_exec_getreg || exec == rl_isa_exec_setreg) {
    if (rl_isa_hwreg(inst).id != RL_ISA_HWREG_MODE) {
      return "s_getreg/s_setreg of a hardware register other than MODE";
    }
    if (exec == rl_isa_exec_setreg && inst->op->arg) {  // constant: check now
      rl_isa_hwreg_t h = rl_isa_hwreg(inst);
      uint32_t base = rl_isa_mode_register(inst->gfx12 ? 0 : RL_ISA_MODE_IEEE);
      uint32_t field = h.mask << h.offset;
      uint32_t reg = (base & ~field) | ((inst->literal << h.offset) & field);
      if (inst->gfx12 && (reg & (3u << 8))) {
        return "s_setreg of MODE bits 8/9 on gfx12 (gfx11's DX10_CLAMP/IEEE, "
               "which gfx12 does not have)";
      }
      return rl_isa_mode_unmodelled(reg);
    }
  }
  return NULL;
}

#define NO RL_ISA_T_NONE
#define B32 RL_ISA_T_B32

static const rl_isa_op_t rl_isa_sopp_mode_ops[] = {
    RL_ISA_OP(0x11, "s_round_mode", 0, NO, NO, NO, NO, 0,
              rl_isa_exec_mode_bits, NULL),
    RL_ISA_OP(0x12, "s_denorm_mode", 0, NO, NO, NO, NO, 4,
              rl_isa_exec_mode_bits, NULL),
};

// s_setreg_b32 reads the SGPR in its SDST field (decoded as source 0);
// s_setreg_imm32_b32 the literal (arg 1).
static const rl_isa_op_t rl_isa_sopk_mode_ops[] = {
    RL_ISA_OP(0x11, "s_getreg_b32", 0, B32, NO, NO, NO, 0, rl_isa_exec_getreg,
              NULL),
    RL_ISA_OP(0x12, "s_setreg_b32", 0, NO, B32, NO, NO, 0, rl_isa_exec_setreg,
              NULL),
    RL_ISA_OP(0x13, "s_setreg_imm32_b32", 0, NO, NO, NO, NO, 1,
              rl_isa_exec_setreg, NULL),
};

RL_ISA_TABLE(rl_isa_table_sopp_mode, rl_isa_sopp_mode_ops);
RL_ISA_TABLE(rl_isa_table_sopk_mode, rl_isa_sopk_mode_ops);
