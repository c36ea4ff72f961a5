// tests/isa_conformance/isa_conf_special.c — conformance cases of the
// opcodes outside the lane model: VOPD pairs, lane-crossing moves,
// saveexec, s_getpc, program control (SOPP), scalar memory (SMEM), DS and
// the cache invalidations (GLOBAL and FLAT: isa_conf_vmem.c). Expected
// values come from the host model (sim/oracle/oracle_model.c) or from plain host
// arithmetic on the test's own buffers, never from the executor.
#include <stdio.h>
#include <string.h>

#include "tests/isa_conformance/isa_conf_suite.h"
#include "sim/oracle/oracle_model.h"

#define RL_CONF_LANES 256u

static void rl_conf_readlane(rl_conf_program_t* p, uint32_t sdst,
                             uint32_t src0, uint32_t lane_code) {
  uint32_t src[3] = {src0, lane_code, 0};
  rl_conf_vop3(p, RL_CONF_VOP3_READLANE, sdst, 0, src, NULL, false, 0);
}
static void rl_conf_writelane(rl_conf_program_t* p, uint32_t vdst,
                              uint32_t ssrc, uint32_t lane_code) {
  uint32_t src[3] = {ssrc, lane_code, 0};
  rl_conf_vop3(p, RL_CONF_VOP3_WRITELANE, vdst, 0, src, NULL, false, 0);
}

// ---------------------------------------------------------------------------
// VOPD: the opcode as X (paired with v_dual_mov_b32 as Y) and as Y (with
// v_dual_mov_b32 as X), checked against the host model of its VOP2 twin.
// The mov reads the other half's destination, so it must see the value
// from before the instruction: both halves read their sources before
// either writes (RDNA3 ISA guide, "VOPD").

static bool rl_conf_vopd_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                         rl_conf_result_t* result) {
  char twin[64];
  snprintf(twin, sizeof(twin), "v_%s", op->name + 7);  // past "v_dual_"
  const rl_hm_op_t* found = rl_hm_find(twin);
  if (found == NULL) return false;
  rl_hm_op_t hm = *found;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  const uint32_t mov = 8;  // v_dual_mov_b32
  for (uint32_t side = 0; side < 2; ++side) {
    if (side == 0 && op->opcode > 13) continue;  // Y-only opcodes
    uint32_t* in = (uint32_t*)rl_conf_in(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      uint32_t* r = in + lane * 8;
      rl_conf_fill_random(&rng, r, 8);
      if (hm.fp & 1) {
        r[0] = (uint32_t)rl_conf_rng_next(&rng) % 5 ? 0x3f800000u + (r[0] >> 9)
                                                    : r[0];
        r[1] = 0x40000000u + (r[1] >> 9);
      }
      r[4] &= 1;  // VCC bit (cndmask)
    }
    uint32_t k = 0x3fc00000u + ((uint32_t)rl_conf_rng_next(&rng) >> 12);
    static rl_conf_program_t p;
    p.count = 0;
    // v1 = src0, v2 = vsrc1, v10/v11 = old X/Y destination (also the mov
    // source), v4 = unused,
    // v7 = the other vsrc1, v8 = VCC bit.
    rl_conf_prologue(&p, 32, 8, 6, (const uint32_t[]){1, 2, 10, 11, 8, 4});
    uint32_t cmp[3] = {128, RL_CONF_V(8), 0};
    rl_conf_vop3(&p, RL_CONF_VOP3_CMP_NE_U32, RL_CONF_VCC, 0, cmp, NULL,
                 false, 0);
    bool lit = (hm.flags & RL_HM_K) != 0;
    if (side == 0) {
      // X = the op into v10 from v1 and v2; Y = mov v11 <- v10 (bank 2).
      rl_conf_vopd(&p, op->opcode, mov, 10, RL_CONF_V(1), 2, 11,
                   RL_CONF_V(10), 0, lit, k);
    } else {
      // X = mov v10 <- v11 (bank 3); Y = the op into v11 from v1 and v2.
      rl_conf_vopd(&p, mov, op->opcode, 10, RL_CONF_V(11), 0, 11,
                   RL_CONF_V(1), 2, lit, k);
    }
    rl_conf_store(&p, 10, 0);
    rl_conf_store(&p, 11, 4);
    rl_conf_endpgm(&p);
    rl_conf_config_t cfg = {.ieee = true, .dx10_clamp = true,
                            .lanes = RL_CONF_LANES};
    if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      const uint32_t* r = in + lane * 8;
      uint32_t self_old = side == 0 ? r[2] : r[3];
      rl_hm_lane_t x = {{r[0], r[1], (hm.flags & RL_HM_K) ? k : self_old},
                        r[4], self_old, 0, 0, false};
      rl_hm_eval(&hm, RL_HM_MODE_IEEE | RL_HM_MODE_DX10, 0, 0, false, &x);
      uint32_t got_op = out[lane * 2 + side], got_mov = out[lane * 2 + 1 - side];
      ++result->cases;
      if (!rl_hm_match(&hm, RL_HM_MODE_IEEE, (uint32_t)x.d, got_op) ||
          got_mov != self_old) {
        rl_conf_fail(result, "%s as %s lane %u: src %08x %08x: got %08x "
                     "(mov %08x), want %08x (mov %08x)", op->name,
                     side ? "Y" : "X", lane, r[0], r[1], got_op, got_mov,
                     (uint32_t)x.d, self_old);
      }
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// Lane-crossing moves, saveexec, s_getpc.

static bool rl_conf_lanes(rl_conf_device_t* device, const rl_isa_op_t* op,
                          rl_conf_result_t* result) {
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
    rl_conf_fill_random(&rng, in + lane * 4, 4);
    in[lane * 4 + 1] = (in[lane * 4 + 1] % 3) != 0;  // active
  }
  // Some waves with no active lane at all.
  for (uint32_t lane = 64; lane < 96; ++lane) in[lane * 4 + 1] = 0;
  uint32_t sel[32];
  for (uint32_t k = 0; k < 32; ++k) sel[k] = (uint32_t)rl_conf_rng_next(&rng) % 200;
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 16, 4, 3, NULL);  // v1 value, v2 active, v3 other
  bool first = !strcmp(op->name, "v_readfirstlane_b32");
  bool nop = !strcmp(op->name, "v_nop");
  rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 10, RL_CONF_V(3), false, 0);
  if (first) {
    rl_conf_active(&p, 2);
    rl_conf_vop1(&p, op->opcode, 40, RL_CONF_V(1), false, 0);
    rl_conf_all_lanes(&p);
    rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 10, 40, false, 0);
  } else if (nop) {
    rl_conf_vop1(&p, op->opcode, 0, 0, false, 0);
  } else {
    // Lane k of v10 gets lane sel[k] (mod 32) of v1 through an SGPR, with
    // EXEC zero around the lane moves (they ignore EXEC).
    for (uint32_t k = 0; k < 32; ++k) {
      rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 41, RL_CONF_LITERAL, true, sel[k]);
      rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, RL_CONF_EXEC, 128, false, 0);
      rl_conf_readlane(&p, 40, RL_CONF_V(1), 41);
      rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 42, RL_CONF_LITERAL, true,
                   k + 32 * (sel[k] % 5));
      rl_conf_writelane(&p, 10, 40, 42);
      rl_conf_all_lanes(&p);
    }
  }
  rl_conf_store(&p, 10, 0);
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.lanes = RL_CONF_LANES};
  if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
    uint32_t wave = lane / 32, k = lane % 32, want = in[lane * 4 + 2];
    if (first) {
      uint32_t pick = wave * 32;
      for (uint32_t l = 31; l < 32; --l) {
        if (in[(wave * 32 + l) * 4 + 1]) pick = wave * 32 + l;
      }
      want = in[pick * 4];
    } else if (!nop) {
      want = in[(wave * 32 + sel[k] % 32) * 4];
    }
    rl_conf_check(result, op->name, lane, 0, out[lane], want);
  }
  return true;
}

static bool rl_conf_saveexec(rl_conf_device_t* device, const rl_isa_op_t* op,
                             rl_conf_result_t* result) {
  static const char* const names[] = {
      "s_and_saveexec_b32", "s_or_saveexec_b32", "s_xor_saveexec_b32",
      "s_and_not1_saveexec_b32", "s_or_not1_saveexec_b32",
      "s_and_not0_saveexec_b32"};
  int kind = -1;
  for (int i = 0; i < 6; ++i) {
    if (!strcmp(op->name, names[i])) kind = i;
  }
  if (kind < 0) return false;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
    rl_conf_fill_random(&rng, in + lane * 2, 2);
    if (lane % 7 == 0) in[lane * 2] = 0, in[lane * 2 + 1] = 0;
  }
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 8, 12, 2, NULL);
  for (uint32_t k = 0; k < 32; ++k) {
    rl_conf_readlane(&p, 20, RL_CONF_V(1), 128 + k);
    rl_conf_readlane(&p, 21, RL_CONF_V(2), 128 + k);
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, RL_CONF_EXEC, 21, false, 0);
    rl_conf_sop1(&p, op->opcode, 26, 20, false, 0);
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 29, RL_CONF_EXEC, false, 0);
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 28, RL_CONF_SCC, false, 0);
    rl_conf_all_lanes(&p);
    rl_conf_writelane(&p, 10, 26, 128 + k);
    rl_conf_writelane(&p, 11, 29, 128 + k);
    rl_conf_writelane(&p, 12, 28, 128 + k);
  }
  rl_conf_store(&p, 10, 0);
  rl_conf_store(&p, 11, 4);
  rl_conf_store(&p, 12, 8);
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.lanes = RL_CONF_LANES};
  if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
    uint32_t a = in[lane * 2], exec = in[lane * 2 + 1], e = 0;
    switch (kind) {  // RDNA3 ISA guide, S_*_SAVEEXEC_B32 pseudo-code
      case 0: e = a & exec; break;
      case 1: e = a | exec; break;
      case 2: e = a ^ exec; break;
      case 3: e = a & ~exec; break;
      case 4: e = a | ~exec; break;
      default: e = ~a & exec; break;
    }
    rl_conf_check(result, op->name, lane, 0, out[lane * 3], exec);
    rl_conf_check(result, op->name, lane, 1, out[lane * 3 + 1], e);
    rl_conf_check(result, op->name, lane, 2, out[lane * 3 + 2], e != 0);
  }
  return true;
}

static bool rl_conf_getpc(rl_conf_device_t* device, const rl_isa_op_t* op,
                          rl_conf_result_t* result) {
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 4, 8, 0, NULL);
  rl_conf_sop1(&p, op->opcode, 30, 0, false, 0);
  uint32_t next = rl_conf_pc(&p);
  rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 10, 30, false, 0);
  rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 11, 31, false, 0);
  rl_conf_store(&p, 10, 0);
  rl_conf_store(&p, 11, 4);
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.lanes = 64};
  if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
  uint64_t want = rl_conf_code_address(device) + next;
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  for (uint32_t lane = 0; lane < 64; ++lane) {
    rl_conf_check(result, op->name, lane, 0, out[lane * 2], (uint32_t)want);
    rl_conf_check(result, op->name, lane, 1, out[lane * 2 + 1],
                  (uint32_t)(want >> 32));
  }
  return true;
}

// ---------------------------------------------------------------------------
// Program control.

// A no-op: v10 = v1, the instruction, v10 += 1; nothing may be skipped or
// changed.
static bool rl_conf_noop(rl_conf_device_t* device, const rl_isa_op_t* op,
                         uint32_t encoding, rl_conf_result_t* result) {
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 4, 4, 1, NULL);
  rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 10, RL_CONF_V(1), false, 0);
  rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 40, RL_CONF_LITERAL, true, 0x5eed);
  if (encoding == RL_ISA_ENC_SOPP) {
    uint16_t simm = !strcmp(op->name, "s_sendmsg")        ? 3
                    : !strcmp(op->name, "s_barrier_wait") ? 0xffff  // -1
                                                          : 0;
    rl_conf_sopp(&p, op->opcode, simm);
  } else if (encoding == RL_ISA_ENC_SMEM) {
    rl_conf_smem(&p, op->opcode, 0, 0, 0, RL_CONF_NULL);
  } else if (encoding == RL_ISA_ENC_MUBUF) {
    rl_conf_mubuf(&p, op->opcode);
  } else if (encoding == RL_ISA_ENC_GLOBAL && op->src[0] == RL_ISA_T_NONE &&
             op->dst == RL_ISA_T_NONE && op->arg == 0) {
    rl_conf_flat(&p, 2, op->opcode, 0, 0, 0, RL_CONF_NULL, 0);  // gfx12
  } else {                                                      // global_inv/wb
    return false;
  }
  rl_conf_vop2(&p, RL_CONF_VOP2_ADD_NC_U32, 10, 129, 10, false, 0);
  rl_conf_vop2(&p, RL_CONF_VOP2_ADD_NC_U32, 10, 40, 10, false, 0);
  rl_conf_store(&p, 10, 0);
  rl_conf_endpgm(&p);
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  for (uint32_t lane = 0; lane < 128; ++lane) in[lane] = lane * 0x01010101u;
  rl_conf_config_t cfg = {.lanes = 128};
  if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  for (uint32_t lane = 0; lane < 128; ++lane) {
    rl_conf_check(result, op->name, lane, 0, out[lane], in[lane] + 1 + 0x5eed);
  }
  return true;
}

// Branches: per operand set the condition comes from a lane value; the
// branch skips "s_mov_b32 s40, 1".
static bool rl_conf_branch(rl_conf_device_t* device, const rl_isa_op_t* op,
                           rl_conf_result_t* result) {
  static const char* const names[] = {"s_cbranch_scc0", "s_cbranch_scc1",
                                      "s_cbranch_vccz", "s_cbranch_vccnz",
                                      "s_cbranch_execz", "s_cbranch_execnz",
                                      "s_branch"};
  int kind = -1;
  for (int i = 0; i < 7; ++i) {
    if (!strcmp(op->name, names[i])) kind = i;
  }
  if (kind < 0) return false;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
    uint64_t r = rl_conf_rng_next(&rng);
    in[lane] = (r & 1) ? (uint32_t)(r >> 32) | 1u << (r >> 8 & 31) : 0;
  }
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 4, 4, 1, NULL);
  for (uint32_t k = 0; k < 32; ++k) {
    rl_conf_readlane(&p, 20, RL_CONF_V(1), 128 + k);
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 40, 128, false, 0);
    if (kind <= 1) rl_conf_sopc(&p, RL_CONF_SOPC_CMP_LG_U32, 20, 128, false, 0);
    if (kind == 2 || kind == 3) {
      rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, RL_CONF_VCC, 20, false, 0);
    }
    if (kind == 4 || kind == 5) {
      rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, RL_CONF_EXEC, 20, false, 0);
    }
    rl_conf_sopp(&p, op->opcode, 1);  // over the next (one-dword) instruction
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 40, 129, false, 0);
    rl_conf_all_lanes(&p);
    rl_conf_writelane(&p, 10, 40, 128 + k);
  }
  rl_conf_store(&p, 10, 0);
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.lanes = RL_CONF_LANES};
  if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
    bool nz = in[lane] != 0;
    bool taken = kind == 6 || (kind % 2 == 0 ? !nz : nz);
    rl_conf_check(result, op->name, lane, 0, out[lane], taken ? 0 : 1);
  }
  return true;
}

// s_barrier: each lane stores to LDS, waits, then reads a lane of the
// other wave; without the barrier wave 0 would read zeros.
static bool rl_conf_barrier(rl_conf_device_t* device, const rl_isa_op_t* op,
                            rl_conf_result_t* result) {
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_prologue(&p, 4, 4, 1, NULL);
  // v252 = (g & 63) * 4, v253 = ((g + 32) & 63) * 4.
  rl_conf_vop2(&p, 0x1b, 252, 128 + 63, 0, false, 0);           // v_and_b32
  rl_conf_vop2(&p, 0x0b, 252, 128 + 4, 252, false, 0);          // v_mul_u32_u24
  rl_conf_vop2(&p, 0x25, 253, 128 + 32, 0, false, 0);           // v_add_nc_u32
  rl_conf_vop2(&p, 0x1b, 253, 128 + 63, 253, false, 0);
  rl_conf_vop2(&p, 0x0b, 253, 128 + 4, 253, false, 0);
  rl_conf_ds(&p, 0x0d, 0, 252, 1, 0, 0, 0);                     // ds_store_b32
  rl_conf_sopp(&p, op->opcode, 0);
  rl_conf_ds(&p, 0x36, 10, 253, 0, 0, 0, 0);                    // ds_load_b32
  rl_conf_store(&p, 10, 0);
  rl_conf_endpgm(&p);
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  for (uint32_t lane = 0; lane < 128; ++lane) in[lane] = 0x1000 + lane;
  rl_conf_config_t cfg = {.lanes = 128, .lds_bytes = 256};
  if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  for (uint32_t lane = 0; lane < 128; ++lane) {
    uint32_t other = (lane & ~63u) | ((lane + 32) & 63);
    rl_conf_check(result, op->name, lane, 0, out[lane], 0x1000 + other);
  }
  return true;
}

// Instructions that must fault when executed (s_code_end).
static bool rl_conf_faults(rl_conf_device_t* device, const rl_isa_op_t* op,
                           rl_conf_result_t* result) {
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_sopp(&p, op->opcode, 0);
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.lanes = 64};
  char fault[512] = "";
  ++result->cases;
  if (rl_conf_run(device, &p, &cfg, fault, sizeof(fault)) ||
      !strstr(fault, op->name)) {
    rl_conf_fail(result, "%s: expected a fault naming it, got \"%s\"",
                 op->name, fault);
  }
  return true;
}

// The same for a SOP1 instruction that faults when executed
// (s_sendmsg_rtn_b32): s40 = op(0).
static bool rl_conf_faults_sop1(rl_conf_device_t* device,
                                const rl_isa_op_t* op,
                                rl_conf_result_t* result) {
  static rl_conf_program_t p;
  p.count = 0;
  rl_conf_sop1(&p, op->opcode, 40, 128, false, 0);  // 128: inline 0
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.lanes = 64};
  char fault[512] = "";
  ++result->cases;
  if (rl_conf_run(device, &p, &cfg, fault, sizeof(fault)) ||
      !strstr(fault, op->name)) {
    rl_conf_fail(result, "%s: expected a fault naming it, got \"%s\"",
                 op->name, fault);
  }
  return true;
}

// s_load_b32..b512 at a random dword offset of the aux buffer, with and
// without an SGPR offset.
static bool rl_conf_smem_load(rl_conf_device_t* device, const rl_isa_op_t* op,
                              rl_conf_result_t* result) {
  uint32_t dwords = 0;
  if (sscanf(op->name, "s_load_b%u", &dwords) != 1) return false;
  dwords /= 32;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  uint32_t* aux = (uint32_t*)rl_conf_aux(device);
  rl_conf_fill_random(&rng, aux, 4096);
  for (uint32_t form = 0; form < 2; ++form) {
    uint32_t offset = 4 * (uint32_t)(rl_conf_rng_next(&rng) % 1024);
    uint32_t soff = form ? 4 * (uint32_t)(rl_conf_rng_next(&rng) % 512) : 0;
    static rl_conf_program_t p;
    p.count = 0;
    rl_conf_prologue(&p, 4, 4, 0, NULL);
    rl_conf_sop1(&p, RL_CONF_SOP1_MOV_B32, 12, RL_CONF_LITERAL, true, soff);
    rl_conf_smem(&p, op->opcode, 40, 8, (int32_t)offset,
                 form ? 12 : RL_CONF_NULL);
    rl_conf_vop1(&p, RL_CONF_VOP1_MOV_B32, 10, 128, false, 0);
    for (uint32_t i = 0; i < dwords; ++i) rl_conf_writelane(&p, 10, 40 + i, 128 + i);
    rl_conf_store(&p, 10, 0);
    rl_conf_endpgm(&p);
    rl_conf_config_t cfg = {.lanes = 64};
    if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t lane = 0; lane < 32; ++lane) {
      uint32_t want = lane < dwords ? aux[(offset + soff) / 4 + lane] : 0;
      rl_conf_check(result, op->name, lane, form, out[lane], want);
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// DS: the whole work-group's LDS is modelled. Every lane first stores 32
// dwords of its input into its two 64-byte regions (at 64 * lane and
// 4096 + 64 * lane), the instruction runs (lanes in order, as the executor
// documents), a barrier, and every lane reads its regions back.

typedef struct rl_conf_ds_op_s {
  uint32_t size;
  int kind;  // 0 load, 1 store, 2 load2, 3 store2, 4 atomic, 5 atomic rtn
  bool sign, stride64;
} rl_conf_ds_op_t;

static bool rl_conf_ds_parse(const char* name, rl_conf_ds_op_t* out) {
  memset(out, 0, sizeof(*out));
  char kind = 0;
  uint32_t bits = 0;
  const char* tail = strrchr(name, '_') + 1;
  if (sscanf(tail, "%c%u", &kind, &bits) != 2) return false;
  out->size = bits / 8;
  out->sign = kind == 'i';
  out->stride64 = strstr(name, "stride64") != NULL;
  bool two = strstr(name, "2addr") != NULL;
  if (!strncmp(name, "ds_load", 7)) out->kind = two ? 2 : 0;
  else if (!strncmp(name, "ds_store", 8)) out->kind = two ? 3 : 1;
  else out->kind = strstr(name, "_rtn") ? 5 : 4;
  if (out->kind >= 4) {
    uint64_t dummy;
    if (!rl_hm_ds_atomic(name, 0, 0, 0, &dummy)) return false;
  }
  return true;
}

static bool rl_conf_ds_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                       rl_conf_result_t* result) {
  rl_conf_ds_op_t m;
  if (!rl_conf_ds_parse(op->name, &m)) return false;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  const uint32_t lanes = 128, rec = 48;  // dwords per lane record
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  uint32_t scale = m.size * (m.stride64 ? 64 : 1);
  uint32_t max_off = m.kind == 2 || m.kind == 3 ? (m.stride64 ? 3840 / scale : 255)
                                                : 2048;
  uint32_t off0 = (uint32_t)(rl_conf_rng_next(&rng) % (max_off + 1));
  uint32_t off1 = (uint32_t)(rl_conf_rng_next(&rng) % (max_off + 1));
  uint32_t align = m.kind >= 4 && m.size == 8 ? 7u : 3u;  // 64-bit atomics
  if (m.kind != 2 && m.kind != 3) off0 &= ~align, off1 = off0 >> 8, off0 &= 0xff;
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    uint32_t* r = in + lane * rec;
    rl_conf_fill_random(&rng, r, rec);
    r[0] = (r[0] % 4096) & ~(m.size >= 4 ? align : m.size - 1);  // address
    r[1] = (r[1] % 4) != 0;                                   // active
    // Float atomics: finite normal operands of both signs (min/max; add
    // keeps them positive).
    if (strstr(op->name, "_f32")) {
      bool add = strstr(op->name, "add") != NULL;
      uint32_t sign = add ? 0 : 0x80000000u;
      r[2] = (0x3f800000u + (r[2] >> 12)) | (r[3] & sign);
      for (uint32_t i = 14; i < 48; ++i) {
        r[i] = (0x3f000000u + (r[i] >> 12)) | ((r[i] << 31) & sign);
      }
    }
  }
  // inc/dec: small memory and data values half the time, so the wrap to 0
  // and the reload from DATA (memory 0 or above DATA) both happen.
  if (strstr(op->name, "_inc_") || strstr(op->name, "_dec_")) {
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      uint32_t* r = in + lane * rec;
      if (r[9] & 1) r[2] &= 3, r[3] = 0;
      for (uint32_t i = 14; i < 46; i += 2) {
        if (r[i] & 0x100) r[i] &= 3, r[i + 1] = 0;
      }
    }
  }
  // Compare-and-store: half the lanes compare against the location's
  // initial contents, so both outcomes occur.
  if (strstr(op->name, "cmpstore")) {
    for (uint32_t lane = 0; lane < lanes; ++lane) {
      uint32_t* r = in + lane * rec;
      if (r[8] & 1) continue;
      uint32_t at = r[0] + (off0 | off1 << 8);
      const uint32_t* g = in + (lane & ~63u) * rec;
      for (uint32_t w = 0; w < m.size / 4; ++w) {
        uint32_t byte = at + 4 * w;
        uint32_t owner = (byte % 4096) / 64, index = (byte % 64) / 4;
        r[6 + w] = g[owner * rec + (byte >= 4096 ? 30 : 14) + index];
      }
    }
  }
  static rl_conf_program_t p;
  p.count = 0;
  // v1 address, v2 active, v[20:23] data0, v[24:27] data1, v[30:33] old
  // destination, v[40:71] the lane's initial LDS contents.
  uint32_t regs[46];
  for (uint32_t i = 0; i < 46; ++i) {
    regs[i] = i < 2 ? 1 + i : i < 6 ? 20 + i - 2 : i < 10 ? 24 + i - 6
              : i < 14 ? 30 + i - 10 : 40 + i - 14;
  }
  rl_conf_prologue(&p, rec * 4, 4 * 36, 46, regs);
  rl_conf_vop2(&p, 0x1b, 252, 128 + 63, 0, false, 0);   // v252 = g & 63
  rl_conf_vop2(&p, 0x0b, 252, 128 + 64, 252, false, 0); // * 64
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t at = (i / 16) * 4096 + (i % 16) * 4;
    rl_conf_ds(&p, 0x0d, 0, 252, 40 + i, 0, at & 0xff, at >> 8);
  }
  rl_conf_wg_barrier(&p);
  rl_conf_active(&p, 2);
  bool store = m.kind == 1 || m.kind == 3 || m.kind == 4;
  rl_conf_ds(&p, op->opcode, store ? 0 : 30, 1, 20, 24, off0, off1);
  rl_conf_all_lanes(&p);
  rl_conf_wg_barrier(&p);
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t at = (i / 16) * 4096 + (i % 16) * 4;
    rl_conf_ds(&p, 0x36, 72 + i, 252, 0, 0, at & 0xff, at >> 8);
  }
  for (uint32_t i = 0; i < 4; ++i) rl_conf_store(&p, 30 + i, 4 * i);
  for (uint32_t i = 0; i < 32; ++i) rl_conf_store(&p, 72 + i, 16 + 4 * i);
  rl_conf_endpgm(&p);
  rl_conf_config_t cfg = {.lanes = lanes, .lds_bytes = 8192};
  if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
  const uint32_t* out = (const uint32_t*)rl_conf_out(device);
  static uint8_t lds[8192];
  for (uint32_t group = 0; group < lanes / 64; ++group) {
    for (uint32_t l = 0; l < 64; ++l) {
      const uint32_t* r = in + (group * 64 + l) * rec;
      memcpy(lds + l * 64, r + 14, 64);
      memcpy(lds + 4096 + l * 64, r + 30, 64);
    }
    uint32_t rtn[64][4];
    for (uint32_t l = 0; l < 64; ++l) {
      const uint32_t* r = in + (group * 64 + l) * rec;
      memcpy(rtn[l], r + 10, 16);
      if (!r[1]) continue;
      uint32_t a0 = r[0] + off0 * scale, a1 = r[0] + off1 * scale;
      uint32_t single = r[0] + (off0 | off1 << 8);
      switch (m.kind) {
        case 0: {
          uint32_t v[4] = {0};
          memcpy(v, lds + single, m.size);
          memcpy(rtn[l], v, (m.size + 3) / 4 * 4);
          if (m.size < 4) rtn[l][0] = rl_hm_load_extend(v[0], m.size, m.sign);
          break;
        }
        case 1: memcpy(lds + single, r + 2, m.size); break;
        case 2:
          memcpy(rtn[l], lds + a0, m.size);
          memcpy((uint8_t*)rtn[l] + m.size, lds + a1, m.size);
          break;
        case 3:
          memcpy(lds + a0, r + 2, m.size);
          memcpy(lds + a1, r + 6, m.size);
          break;
        default: {
          uint64_t old64 = 0, next64 = 0;
          uint64_t data = r[2] | (m.size == 8 ? (uint64_t)r[3] << 32 : 0);
          uint64_t cmp = r[6] | (m.size == 8 ? (uint64_t)r[7] << 32 : 0);
          memcpy(&old64, lds + single, m.size);
          rl_hm_ds_atomic(op->name, old64, data, cmp, &next64);
          memcpy(lds + single, &next64, m.size);
          if (m.kind == 5) memcpy(rtn[l], &old64, m.size);
          break;
        }
      }
    }
    for (uint32_t l = 0; l < 64; ++l) {
      uint32_t lane = group * 64 + l;
      const uint32_t* got = out + lane * 36;
      for (uint32_t i = 0; i < 4; ++i) {
        rl_conf_check(result, op->name, lane, i, got[i], rtn[l][i]);
      }
      for (uint32_t i = 0; i < 32; ++i) {
        uint32_t w;
        memcpy(&w, lds + (i / 16) * 4096 + l * 64 + (i % 16) * 4, 4);
        rl_conf_check(result, op->name, lane, 4 + i, got[4 + i], w);
      }
    }
  }
  return true;
}

// ds_permute_b32 / ds_bpermute_b32 (RDNA3 ISA guide pseudo-code, wave32):
// lane index (ADDR + OFFSET) / 4 mod 32; permute scatters DATA0 of each
// active lane (ascending, a later lane wins), bpermute gathers from active
// lanes; lanes nobody writes / inactive sources give 0; only active lanes
// write VDST.
static bool rl_conf_ds_permute(rl_conf_device_t* device, const rl_isa_op_t* op,
                               rl_conf_result_t* result) {
  bool backward = !strcmp(op->name, "ds_bpermute_b32");
  if (!backward && strcmp(op->name, "ds_permute_b32")) return false;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  for (uint32_t form = 0; form < 2; ++form) {
    uint32_t offset = form ? (uint32_t)(rl_conf_rng_next(&rng) % 65536) : 0;
    uint32_t* in = (uint32_t*)rl_conf_in(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      uint32_t* r = in + lane * 4;
      rl_conf_fill_random(&rng, r, 4);
      if (r[1] & 0x100) r[0] = (r[0] % 32) * 4 + (r[0] >> 30);  // in range
      r[1] = (r[1] % 5) != 0;
    }
    for (uint32_t lane = 32; lane < 64; ++lane) in[lane * 4 + 1] = 1;  // full wave
    static rl_conf_program_t p;
    p.count = 0;
    // v1 address, v2 active, v3 data, v10 old destination.
    rl_conf_prologue(&p, 16, 4, 4, (const uint32_t[]){1, 2, 3, 10});
    rl_conf_active(&p, 2);
    rl_conf_ds(&p, op->opcode, 10, 1, 3, 0, offset & 0xff, offset >> 8);
    rl_conf_all_lanes(&p);
    rl_conf_sopp(&p, RL_CONF_SOPP_WAITCNT, 0);
    rl_conf_store(&p, 10, 0);
    rl_conf_endpgm(&p);
    rl_conf_config_t cfg = {.lanes = RL_CONF_LANES};
    if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t wave = 0; wave < RL_CONF_LANES / 32; ++wave) {
      const uint32_t* w = in + wave * 32 * 4;
      uint32_t tmp[32] = {0};
      for (uint32_t i = 0; i < 32; ++i) {
        uint32_t sel = ((w[i * 4] + offset) / 4) % 32;
        if (backward) {
          if (w[sel * 4 + 1]) tmp[i] = w[sel * 4 + 2];
        } else if (w[i * 4 + 1]) {
          tmp[sel] = w[i * 4 + 2];
        }
      }
      for (uint32_t i = 0; i < 32; ++i) {
        uint32_t want = w[i * 4 + 1] ? tmp[i] : w[i * 4 + 3];
        rl_conf_check(result, op->name, wave * 32 + i, form, out[wave * 32 + i],
                      want);
      }
    }
  }
  return true;
}

// ds_swizzle_b32 (RDNA3 ISA guide, DS_SWIZZLE_B32, wave32), modelled here
// as the guide writes it: with offset[15] set, each group of 4 lanes
// takes thread_out[q + k] = thread_in[q + offset[2k+1:2k]]; with it clear,
// lane i takes thread_in[((i & offset[4:0]) | offset[9:5]) ^
// offset[14:10]]; a source that is not a valid (active) lane gives 0, and
// only active lanes write VDST. The patterns: the llvm-mc examples
// (QUAD_PERM, BITMASK_PERM, SWAP, REVERSE, BROADCAST) and random ones of
// both modes (quad mode with bits [13:8], which it ignores, set).
static bool rl_conf_ds_swizzle(rl_conf_device_t* device, const rl_isa_op_t* op,
                               rl_conf_result_t* result) {
  if (strcmp(op->name, "ds_swizzle_b32")) return false;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  uint32_t patterns[] = {0x80e4, 0x0907, 0x401f, 0x1c1f, 0x0018, 0x801b,
                         0, 0, 0, 0, 0, 0};
  const uint32_t fixed = 6, count = sizeof(patterns) / sizeof(patterns[0]);
  for (uint32_t i = fixed; i < count; ++i) {
    uint32_t r = (uint32_t)rl_conf_rng_next(&rng);
    patterns[i] = i % 2 ? (r & 0x7fff) : (0x8000 | (r & 0x3fff));
  }
  for (uint32_t form = 0; form < count; ++form) {
    uint32_t offset = patterns[form];
    uint32_t* in = (uint32_t*)rl_conf_in(device);
    for (uint32_t lane = 0; lane < RL_CONF_LANES; ++lane) {
      uint32_t* r = in + lane * 4;
      rl_conf_fill_random(&rng, r, 4);
      r[1] = (r[1] % 5) != 0;
    }
    for (uint32_t lane = 32; lane < 64; ++lane) in[lane * 4 + 1] = 1;  // full wave
    static rl_conf_program_t p;
    p.count = 0;
    // v1 source, v2 active, v10 old destination.
    rl_conf_prologue(&p, 16, 4, 4, (const uint32_t[]){1, 2, 3, 10});
    rl_conf_active(&p, 2);
    rl_conf_ds(&p, op->opcode, 10, 1, 0, 0, offset & 0xff, offset >> 8);
    rl_conf_all_lanes(&p);
    rl_conf_sopp(&p, RL_CONF_SOPP_WAITCNT, 0);
    rl_conf_store(&p, 10, 0);
    rl_conf_endpgm(&p);
    rl_conf_config_t cfg = {.lanes = RL_CONF_LANES};
    if (!rl_conf_go(device, &p, &cfg, op->name, result)) return true;
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t wave = 0; wave < RL_CONF_LANES / 32; ++wave) {
      const uint32_t* w = in + wave * 32 * 4;
      uint32_t from[32];
      if (offset & 0x8000) {
        for (uint32_t q = 0; q < 32; q += 4) {
          from[q + 0] = q + (offset & 3);
          from[q + 1] = q + ((offset >> 2) & 3);
          from[q + 2] = q + ((offset >> 4) & 3);
          from[q + 3] = q + ((offset >> 6) & 3);
        }
      } else {
        uint32_t and_mask = offset & 0x1f, or_mask = (offset >> 5) & 0x1f;
        uint32_t xor_mask = (offset >> 10) & 0x1f;
        for (uint32_t i = 0; i < 32; ++i) {
          from[i] = ((i & and_mask) | or_mask) ^ xor_mask;
        }
      }
      for (uint32_t i = 0; i < 32; ++i) {
        const uint32_t* src = w + from[i] * 4;
        uint32_t want = !w[i * 4 + 1] ? w[i * 4 + 3] : src[1] ? src[0] : 0;
        rl_conf_check(result, op->name, wave * 32 + i, form, out[wave * 32 + i],
                      want);
      }
    }
  }
  return true;
}

bool rl_conf_special_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                          uint32_t encoding, rl_conf_result_t* result) {
  const char* name = op->name;
  switch (encoding) {
    case RL_ISA_ENC_VOPD: return rl_conf_vopd_case(device, op, result);
    case RL_ISA_ENC_VOP1:
    case RL_ISA_ENC_VOP3:
      if (!strcmp(name, "v_nop") || !strcmp(name, "v_readfirstlane_b32") ||
          !strcmp(name, "v_readlane_b32") || !strcmp(name, "v_writelane_b32")) {
        return rl_conf_lanes(device, op, result);
      }
      return rl_conf_permlane_case(device, op, result);
    case RL_ISA_ENC_SOP1:
      if (!strcmp(name, "s_getpc_b64")) return rl_conf_getpc(device, op, result);
      if (!strcmp(name, "s_sendmsg_rtn_b32")) {
        return rl_conf_faults_sop1(device, op, result);
      }
      return rl_conf_saveexec(device, op, result);
    case RL_ISA_ENC_SOPP:
      if (!strcmp(name, "s_code_end") || !strcmp(name, "s_trap") ||
          !strcmp(name, "s_sethalt")) {
        return rl_conf_faults(device, op, result);
      }
      if (!strcmp(name, "s_barrier")) return rl_conf_barrier(device, op, result);
      if (!strcmp(name, "s_endpgm")) {
        // Every program ends with it; check nothing after it runs.
        static rl_conf_program_t p;
        p.count = 0;
        rl_conf_prologue(&p, 4, 4, 1, NULL);
        rl_conf_sopp(&p, op->opcode, 0);
        rl_conf_store(&p, 1, 0);
        rl_conf_endpgm(&p);
        rl_conf_config_t cfg = {.lanes = 64};
        if (!rl_conf_go(device, &p, &cfg, name, result)) return true;
        const uint32_t* out = (const uint32_t*)rl_conf_out(device);
        for (uint32_t lane = 0; lane < 64; ++lane) {
          rl_conf_check(result, name, lane, 0, out[lane], 0xcdcdcdcdu);
        }
        return true;
      }
      if (rl_conf_branch(device, op, result)) return true;
      return rl_conf_noop(device, op, encoding, result);
    case RL_ISA_ENC_SMEM:
      if (rl_conf_smem_load(device, op, result)) return true;
      return rl_conf_noop(device, op, encoding, result);
    case RL_ISA_ENC_MUBUF: return rl_conf_noop(device, op, encoding, result);
    case RL_ISA_ENC_FLAT:
    case RL_ISA_ENC_GLOBAL:
      if (rl_conf_vmem_atomic(device, op, encoding, result)) return true;
      if (rl_conf_vmem(device, op, encoding, result)) return true;
      return rl_conf_noop(device, op, encoding, result);
    case RL_ISA_ENC_DS:
      if (rl_conf_ds_permute(device, op, result)) return true;
      if (rl_conf_ds_swizzle(device, op, result)) return true;
      return rl_conf_ds_case(device, op, result);
    default: return false;
  }
}
