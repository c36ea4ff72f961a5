// tests/isa_conformance/isa_conf_mode.c — conformance cases of the MODE
// instructions: s_denorm_mode, s_round_mode, s_getreg_b32, s_setreg_b32 and
// s_setreg_imm32_b32 (HW_REG_MODE). Each program changes (or reads) the
// wave's MODE, then runs v_mul_f32 and v_add_f32 on operands near the
// binary32 denormal range and reads MODE back with s_getreg_b32; the float
// results must follow the host model (sim/oracle/oracle_model.c) under the MODE the
// instruction set, under both kernel-descriptor float modes. Values the
// executor does not model (a rounding mode other than nearest-even, a
// denormal mode 1 or 2) must be refused before the program runs.
//
// MODE layout (RDNA3 ISA guide "MODE"; LLVM SIDefines.h): [1:0] FP_ROUND
// 32, [3:2] FP_ROUND 16/64, [5:4] FP_DENORM 32, [7:6] FP_DENORM 16/64, [8]
// DX10_CLAMP, [9] IEEE. hwreg operand: ID[5:0] (MODE = 1), OFFSET[10:6],
// SIZE-1[15:11].
#include <stdio.h>
#include <string.h>

#include "tests/isa_conformance/isa_conf_suite.h"
#include "sim/oracle/oracle_model.h"

#define RL_CONF_MODE_LANES 256u

enum {
  RL_CONF_SOPP_ROUND_MODE = 0x11,
  RL_CONF_SOPP_DENORM_MODE = 0x12,
  RL_CONF_SOPK_GETREG = 0x11,
  RL_CONF_SOPK_SETREG = 0x12,
  RL_CONF_SOPK_SETREG_IMM32 = 0x13,
  RL_CONF_SOPK_MOVK = 0x00,
  RL_CONF_VOP2_ADD_F32 = 0x03,
  RL_CONF_VOP2_MUL_F32 = 0x08,
};

static uint16_t rl_conf_hwreg_mode(uint32_t offset, uint32_t size) {
  return (uint16_t)(1u | offset << 6 | (size - 1) << 11);
}

// Emits the instruction under test setting FP_DENORM to |denorm| (32-bit
// field; 16/64-bit kept at 3) and FP_ROUND to 0.
static void rl_conf_mode_set(rl_conf_program_t* p, const char* name,
                             uint32_t denorm) {
  uint32_t value = denorm | 3u << 2;  // the FP_DENORM nibble
  if (!strcmp(name, "s_denorm_mode")) {
    rl_conf_sopp(p, RL_CONF_SOPP_DENORM_MODE, (uint16_t)value);
  } else if (!strcmp(name, "s_round_mode")) {
    rl_conf_sopp(p, RL_CONF_SOPP_DENORM_MODE, (uint16_t)value);
    rl_conf_sopp(p, RL_CONF_SOPP_ROUND_MODE, 0);
  } else if (!strcmp(name, "s_setreg_b32")) {
    rl_conf_sopk(p, RL_CONF_SOPK_MOVK, 40, (uint16_t)(value | 0x50));
    rl_conf_sopk(p, RL_CONF_SOPK_SETREG, 40, rl_conf_hwreg_mode(4, 4));
  } else if (!strcmp(name, "s_setreg_imm32_b32")) {
    rl_conf_sopk(p, RL_CONF_SOPK_SETREG_IMM32, 0, rl_conf_hwreg_mode(4, 4));
    p->words[p->count++] = value | 0xabc0;  // bits past the field: ignored
  }
  // s_getreg_b32: MODE stays as the descriptor set it.
}

static uint32_t rl_conf_mode_operand(rl_conf_rng_t* rng, bool tiny) {
  uint64_t r = rl_conf_rng_next(rng);
  if (tiny) return (uint32_t)r & 0x80ffffffu;  // denormal or smallest normals
  return 0x3e800000u + ((uint32_t)(r >> 32) % 0x01800000u);  // 0.25 .. 2
}

// One dispatch: descriptor FTZ |desc_ftz| (IEEE and DX10_CLAMP with keep),
// the instruction setting 32-bit denormal mode |denorm|.
static void rl_conf_mode_run(rl_conf_device_t* device, const rl_isa_op_t* op,
                             bool desc_ftz, uint32_t denorm,
                             rl_conf_rng_t* rng, rl_conf_result_t* result) {
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  for (uint32_t lane = 0; lane < RL_CONF_MODE_LANES; ++lane) {
    in[lane * 2] = rl_conf_mode_operand(rng, true);
    in[lane * 2 + 1] = rl_conf_mode_operand(rng, lane % 3 != 0);
  }
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 8, 12, 2, (const uint32_t[]){1, 3});
  rl_conf_mode_set(&p, op->name, denorm);
  rl_conf_vop2(&p, RL_CONF_VOP2_MUL_F32, 10, RL_CONF_V(1), 3, false, 0);
  rl_conf_vop2(&p, RL_CONF_VOP2_ADD_F32, 11, RL_CONF_V(1), 3, false, 0);
  rl_conf_sopk(&p, RL_CONF_SOPK_GETREG, 41, rl_conf_hwreg_mode(0, 10));
  rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 12, 41, false, 0);
  rl_conf_store(&p, 10, 0);
  rl_conf_store(&p, 11, 4);
  rl_conf_store(&p, 12, 8);
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.ftz32 = desc_ftz, .ieee = !desc_ftz,
                          .dx10_clamp = !desc_ftz,
                          .lanes = RL_CONF_MODE_LANES};
  char fault[512];
  if (!rl_conf_run(device, &p, &cfg, fault, sizeof(fault))) {
    rl_conf_fail(result, "%s: dispatch faulted: %s", op->name, fault);
    ++result->cases;
    return;
  }
  bool getreg = !strcmp(op->name, "s_getreg_b32");
  uint32_t denorm_now = getreg ? (desc_ftz ? 0u : 3u) : denorm;
  uint32_t mode_reg = denorm_now << 4 | 3u << 6 |
                      (desc_ftz || rl_conf_gfx12 ? 0u : 3u << 8);  // DX10_CLAMP, IEEE (not on gfx12)
  uint32_t hm_mode = (denorm_now == 0 ? RL_HM_MODE_FTZ32 : 0) |
                     (desc_ftz || rl_conf_gfx12 ? 0 : RL_HM_MODE_IEEE | RL_HM_MODE_DX10);
  const char* names[2] = {"v_mul_f32", "v_add_f32"};
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  for (uint32_t lane = 0; lane < RL_CONF_MODE_LANES; ++lane) {
    for (uint32_t k = 0; k < 2; ++k) {
      rl_hm_op_t hm = *rl_hm_find(names[k]);
      rl_hm_lane_t x = {{in[lane * 2], in[lane * 2 + 1], 0}, 0, 0, 0, 0, false};
      rl_hm_eval(&hm, hm_mode, 0, 0, false, &x);
      ++result->cases;
      if (!rl_hm_match(&hm, hm_mode, x.d, out[lane * 3 + k])) {
        rl_conf_fail(result,
                     "%s (descriptor %s, FP_DENORM 32 %u) lane %u: %s %08x, "
                     "%08x = %08x, want %08x",
                     op->name, desc_ftz ? "flush" : "keep", denorm_now, lane,
                     names[k], in[lane * 2], in[lane * 2 + 1],
                     out[lane * 3 + k], (uint32_t)x.d);
      }
    }
    ++result->cases;
    if (out[lane * 3 + 2] != mode_reg) {
      rl_conf_fail(result, "%s (descriptor %s) lane %u: MODE read back %03x, "
                   "want %03x", op->name, desc_ftz ? "flush" : "keep", lane,
                   out[lane * 3 + 2], mode_reg);
    }
  }
}

// A MODE value the executor does not model must stop the dispatch before
// it runs (the predecode refusal), naming the instruction.
static void rl_conf_mode_refused(rl_conf_device_t* device,
                                 const rl_isa_op_t* op,
                                 rl_conf_result_t* result) {
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 4, 4, 1, NULL);
  if (!strcmp(op->name, "s_round_mode")) {
    rl_conf_sopp(&p, RL_CONF_SOPP_ROUND_MODE, 1);  // round to +inf
  } else if (!strcmp(op->name, "s_denorm_mode")) {
    rl_conf_sopp(&p, RL_CONF_SOPP_DENORM_MODE, 0xd);  // 32-bit: 1
  } else if (!strcmp(op->name, "s_setreg_imm32_b32")) {
    rl_conf_sopk(&p, RL_CONF_SOPK_SETREG_IMM32, 0, rl_conf_hwreg_mode(0, 4));
    p.words[p.count++] = 3;  // round toward zero
  } else if (!strcmp(op->name, "s_getreg_b32")) {
    rl_conf_sopk(&p, RL_CONF_SOPK_GETREG, 41, 4 /* HW_REG_HW_ID */);
  } else {  // s_setreg_b32: a register value, checked when it runs
    rl_conf_sopk(&p, RL_CONF_SOPK_MOVK, 40, 2);
    rl_conf_sopk(&p, RL_CONF_SOPK_SETREG, 40, rl_conf_hwreg_mode(0, 2));
  }
  rl_conf_store(&p, 1, 0);
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.ieee = true, .dx10_clamp = true, .lanes = 64};
  char fault[512];
  ++result->cases;
  if (rl_conf_run(device, &p, &cfg, fault, sizeof(fault))) {
    rl_conf_fail(result, "%s with an unmodelled MODE value ran", op->name);
  } else if (!strstr(fault, op->name)) {
    rl_conf_fail(result, "%s refusal does not name it: %s", op->name, fault);
  }
}

bool rl_conf_mode_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                       rl_conf_result_t* result) {
  static const char* const names[] = {"s_denorm_mode", "s_round_mode",
                                      "s_getreg_b32", "s_setreg_b32",
                                      "s_setreg_imm32_b32"};
  bool known = false;
  for (uint32_t i = 0; i < 5; ++i) known |= !strcmp(op->name, names[i]);
  if (!known) return false;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  for (uint32_t desc = 0; desc < 2; ++desc) {
    for (uint32_t denorm = 0; denorm <= 3; denorm += 3) {
      rl_conf_mode_run(device, op, desc == 1, denorm, &rng, result);
    }
  }
  rl_conf_mode_refused(device, op, result);
  return true;
}
