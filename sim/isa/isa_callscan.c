// sim/isa/isa_callscan.c — the static call targets of a swept
// region (isa_program.h, "Calls"): a forward scan that tracks the values
// of SGPRs built from s_getpc_b64, through the moves and spills -O0 code
// puts between the address computation and the call.
//
// LLVM computes a direct call's target as s_getpc_b64 s[a:b] followed by
// s_add_u32 sa, sa, rel32@lo and s_addc_u32 sb, sb, rel32@hi (AMDGPU
// SIInstrInfo / SIISelLowering), then s_swappc_b64 s[30:31], s[a:b]
// (AMDGPUUsage, "Call Convention"). At -O0 the pair may be spilled in
// between: v_writelane_b32 into a VGPR lane, that VGPR stored to a stack
// slot (scratch_store_b32 off, vN, s33 offset:K under s_or_saveexec -1),
// reloaded and read back with v_readlane_b32. The scan follows exactly
// these steps: known SGPR values (constants, s_getpc_b64, s_mov_b32/b64,
// s_add_u32/s_addc_u32 of known values), known VGPR lanes (writelane),
// and stack slots holding such lanes (32-bit scratch stores and loads
// with an SGPR base and no VGPR address). Any other write forgets what it
// overwrites (an SMEM load or an unknown scalar write all SGPRs it may
// touch). The scan is linear and ignores control flow, so it can miss a
// target; the executor checks every jump when it runs (isa_call.c), so a
// miss shows as a clear fault, never as a wrong jump.
#include <string.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_mem.h"
#include "sim/isa/isa_program.h"

enum { RL_ISA_LOC_VGPR = 1, RL_ISA_LOC_SLOT = 2 };

static bool rl_isa_named(const rl_isa_inst_t* inst, const char* a,
                         const char* b) {
  const char* name = inst->op ? inst->op->name : NULL;
  return name && (strcmp(name, a) == 0 || (b && strcmp(name, b) == 0));
}

static void rl_isa_scan_forget_sgpr(rl_isa_callscan_t* s, uint32_t reg) {
  reg &= 127;
  s->known[reg] = false;
  for (uint32_t i = 0; i < RL_ISA_CALLSCAN_LANES; ++i) {
    if (s->lane[i].kind == RL_ISA_LOC_SLOT && s->lane[i].where == reg) {
      s->lane[i].kind = 0;  // the slot's base register changed
    }
  }
}

static void rl_isa_scan_set_sgpr(rl_isa_callscan_t* s, uint32_t reg,
                                 bool known, uint32_t value) {
  rl_isa_scan_forget_sgpr(s, reg);
  s->known[reg & 127] = known;
  s->value[reg & 127] = value;
}

static void rl_isa_scan_forget_vgprs(rl_isa_callscan_t* s, uint32_t first,
                                     uint32_t count) {
  for (uint32_t i = 0; i < RL_ISA_CALLSCAN_LANES; ++i) {
    if (s->lane[i].kind == RL_ISA_LOC_VGPR && s->lane[i].where >= first &&
        s->lane[i].where < first + count) {
      s->lane[i].kind = 0;
    }
  }
}

static void rl_isa_scan_put_lane(rl_isa_callscan_t* s, uint32_t kind,
                                 uint32_t where, int32_t offset,
                                 uint32_t lane, uint32_t value) {
  uint32_t slot = s->next_lane;
  for (uint32_t i = 0; i < RL_ISA_CALLSCAN_LANES; ++i) {
    if (s->lane[i].kind == 0) {
      slot = i;
      break;
    }
  }
  if (slot == s->next_lane) {
    s->next_lane = (s->next_lane + 1) % RL_ISA_CALLSCAN_LANES;
  }
  s->lane[slot] = (rl_isa_scan_lane_t){(uint8_t)kind, (uint8_t)where,
                                       (uint8_t)lane, offset, value};
}

// True with *|out| when operand |o| has a known 32-bit value.
static bool rl_isa_scan_read(const rl_isa_callscan_t* s,
                             const rl_isa_operand_t* o, uint32_t half,
                             uint32_t* out) {
  if (o->kind == RL_ISA_OPK_CONST) {
    *out = (uint32_t)(o->value >> (32 * half));
    return true;
  }
  if (o->kind != RL_ISA_OPK_SGPR) return false;
  uint32_t reg = (o->reg + half) & 127;
  *out = s->value[reg];
  return s->known[reg];
}

// Moves the lanes tracked at one location to another (a spill or reload):
// the destination's old lanes are forgotten first.
static void rl_isa_scan_move(rl_isa_callscan_t* s, uint32_t from_kind,
                             uint32_t from, int32_t from_offset,
                             uint32_t to_kind, uint32_t to,
                             int32_t to_offset) {
  for (uint32_t i = 0; i < RL_ISA_CALLSCAN_LANES; ++i) {
    if (s->lane[i].kind == to_kind && s->lane[i].where == to &&
        s->lane[i].offset == to_offset) {
      s->lane[i].kind = 0;
    }
  }
  rl_isa_scan_lane_t copies[RL_ISA_CALLSCAN_LANES];
  uint32_t count = 0;
  for (uint32_t i = 0; i < RL_ISA_CALLSCAN_LANES; ++i) {
    if (s->lane[i].kind == from_kind && s->lane[i].where == from &&
        s->lane[i].offset == from_offset) {
      copies[count++] = s->lane[i];
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    rl_isa_scan_put_lane(s, to_kind, to, to_offset, copies[i].lane,
                         copies[i].value);
  }
}

static bool rl_isa_scan_scalar(rl_isa_callscan_t* s, const rl_isa_inst_t* inst,
                               uint64_t address) {
  uint32_t a = 0, b = 0, a_hi = 0;
  bool ka = rl_isa_scan_read(s, &inst->src[0], 0, &a);
  bool kb = rl_isa_scan_read(s, &inst->src[1], 0, &b);
  if (inst->op->exec == rl_isa_exec_getpc) {
    uint64_t pc = address + inst->size;
    rl_isa_scan_set_sgpr(s, inst->dst, true, (uint32_t)pc);
    rl_isa_scan_set_sgpr(s, inst->dst + 1, true, (uint32_t)(pc >> 32));
  } else if (rl_isa_named(inst, "s_mov_b32", NULL)) {
    rl_isa_scan_set_sgpr(s, inst->dst, ka, a);
  } else if (rl_isa_named(inst, "s_mov_b64", NULL)) {
    bool khi = rl_isa_scan_read(s, &inst->src[0], 1, &a_hi);
    rl_isa_scan_set_sgpr(s, inst->dst, ka, a);
    rl_isa_scan_set_sgpr(s, inst->dst + 1, ka && khi, a_hi);
  } else if (rl_isa_named(inst, "s_add_u32", "s_add_co_u32")) {
    uint64_t sum = (uint64_t)a + b;
    rl_isa_scan_set_sgpr(s, inst->dst, ka && kb, (uint32_t)sum);
    s->carry_known = ka && kb;
    s->carry = (uint32_t)(sum >> 32);
    return true;
  } else if (rl_isa_named(inst, "s_addc_u32", "s_add_co_ci_u32")) {
    bool known = ka && kb && s->carry_known;
    rl_isa_scan_set_sgpr(s, inst->dst, known, a + b + s->carry);
  } else {
    if (inst->op->dst == RL_ISA_T_NONE) return false;
    rl_isa_scan_forget_sgpr(s, inst->dst);
    if (inst->op->dst == RL_ISA_T_B64 || inst->op->dst == RL_ISA_T_F64) {
      rl_isa_scan_forget_sgpr(s, inst->dst + 1);
    }
  }
  return false;
}

static void rl_isa_scan_vector(rl_isa_callscan_t* s,
                               const rl_isa_inst_t* inst) {
  const rl_isa_op_t* op = inst->op;
  uint32_t lane = 0, value = 0;
  if (op->exec == rl_isa_exec_writelane) {
    bool kl = rl_isa_scan_read(s, &inst->src[1], 0, &lane);
    bool kv = rl_isa_scan_read(s, &inst->src[0], 0, &value);
    lane &= 31;
    for (uint32_t i = 0; i < RL_ISA_CALLSCAN_LANES; ++i) {
      if (s->lane[i].kind == RL_ISA_LOC_VGPR &&
          s->lane[i].where == inst->dst && (!kl || s->lane[i].lane == lane)) {
        s->lane[i].kind = 0;
      }
    }
    if (kl && kv) {
      rl_isa_scan_put_lane(s, RL_ISA_LOC_VGPR, inst->dst, 0, lane, value);
    }
    return;
  }
  if (op->exec == rl_isa_exec_readlane) {
    bool kl = rl_isa_scan_read(s, &inst->src[1], 0, &lane);
    bool known = false;
    for (uint32_t i = 0; kl && i < RL_ISA_CALLSCAN_LANES && !known; ++i) {
      if (s->lane[i].kind == RL_ISA_LOC_VGPR &&
          inst->src[0].kind == RL_ISA_OPK_VGPR &&
          s->lane[i].where == inst->src[0].reg &&
          s->lane[i].lane == (lane & 31)) {
        known = true;
        value = s->lane[i].value;
      }
    }
    rl_isa_scan_set_sgpr(s, inst->dst, known, value);
    return;
  }
  if (op->exec == rl_isa_exec_readfirstlane) {
    rl_isa_scan_forget_sgpr(s, inst->dst);
    return;
  }
  if (inst->encoding == RL_ISA_ENC_VOPC ||
      (op->flags & (RL_ISA_F_SDST | RL_ISA_F_CARRY | RL_ISA_F_CMPX))) {
    rl_isa_scan_forget_sgpr(s, inst->sdst);
    rl_isa_scan_forget_sgpr(s, inst->sdst + 1);
    rl_isa_scan_forget_sgpr(s, RL_ISA_SRC_VCC);
    rl_isa_scan_forget_sgpr(s, RL_ISA_SRC_VCC + 1);
  }
  if (op->dst != RL_ISA_T_NONE && inst->encoding != RL_ISA_ENC_VOPC) {
    rl_isa_scan_forget_vgprs(s, inst->dst, 2);
  }
  if (inst->encoding == RL_ISA_ENC_VOPD) {
    rl_isa_scan_forget_vgprs(s, inst->dst_y, 1);
  }
}

static void rl_isa_scan_memory(rl_isa_callscan_t* s,
                               const rl_isa_inst_t* inst) {
  const uint32_t arg = inst->op->arg, kind = RL_ISA_MEM_KIND(arg);
  const bool slot = inst->encoding == RL_ISA_ENC_SCRATCH && !inst->sve &&
                    inst->saddr != RL_ISA_SRC_NULL &&
                    RL_ISA_MEM_SIZE(arg) == 4 && !(arg & RL_ISA_MEM_D16);
  if (slot && kind == RL_ISA_MEM_STORE) {
    rl_isa_scan_move(s, RL_ISA_LOC_VGPR, inst->data0, 0, RL_ISA_LOC_SLOT,
                     inst->saddr, inst->offset);
    return;
  }
  if (kind == RL_ISA_MEM_STORE || kind == RL_ISA_MEM_STORE2) return;
  if (kind == RL_ISA_MEM_ATOM && inst->encoding != RL_ISA_ENC_DS &&
      !(inst->glc_slc_dlc & RL_ISA_MEM_GLC)) {
    return;  // a FLAT/GLOBAL atomic without return writes no VGPR
  }
  if (slot && kind == RL_ISA_MEM_LOAD) {
    rl_isa_scan_move(s, RL_ISA_LOC_SLOT, inst->saddr, inst->offset,
                     RL_ISA_LOC_VGPR, inst->vdst, 0);
    return;
  }
  rl_isa_scan_forget_vgprs(s, inst->vdst, 8);
}

bool rl_isa_callscan_step(rl_isa_callscan_t* s, const rl_isa_inst_t* inst,
                          uint64_t address, uint64_t* out_target) {
  bool carry_set = false;
  const rl_isa_op_t* op = inst->op;
  if (op == NULL) {
    memset(s, 0, sizeof(*s));  // unknown instruction: forget everything
    return false;
  }
  if ((op->exec == rl_isa_exec_swappc || op->exec == rl_isa_exec_setpc) &&
      inst->src[0].kind == RL_ISA_OPK_SGPR) {
    uint32_t lo = 0, hi = 0;
    bool known = rl_isa_scan_read(s, &inst->src[0], 0, &lo) &&
                 rl_isa_scan_read(s, &inst->src[0], 1, &hi);
    if (op->exec == rl_isa_exec_swappc) {
      uint64_t back = address + inst->size;
      rl_isa_scan_set_sgpr(s, inst->dst, true, (uint32_t)back);
      rl_isa_scan_set_sgpr(s, inst->dst + 1, true, (uint32_t)(back >> 32));
    }
    s->carry_known = false;
    if (known) *out_target = (uint64_t)hi << 32 | lo;
    return known;
  }
  switch (inst->encoding) {
    case RL_ISA_ENC_SOP1: case RL_ISA_ENC_SOP2: case RL_ISA_ENC_SOPK:
      carry_set = rl_isa_scan_scalar(s, inst, address);
      break;
    case RL_ISA_ENC_SOPC: case RL_ISA_ENC_SOPP:
      break;
    case RL_ISA_ENC_SMEM:
      for (uint32_t r = 0; r < RL_ISA_SGPRS; ++r) s->known[r] = false;
      break;
    case RL_ISA_ENC_VOP1: case RL_ISA_ENC_VOP2: case RL_ISA_ENC_VOP3:
    case RL_ISA_ENC_VOP3P: case RL_ISA_ENC_VOPC: case RL_ISA_ENC_VOPD:
      rl_isa_scan_vector(s, inst);
      break;
    case RL_ISA_ENC_DS: case RL_ISA_ENC_FLAT: case RL_ISA_ENC_GLOBAL:
    case RL_ISA_ENC_SCRATCH:
      rl_isa_scan_memory(s, inst);
      break;
    default:
      memset(s, 0, sizeof(*s));
      break;
  }
  if (!carry_set && inst->encoding != RL_ISA_ENC_SOPP) s->carry_known = false;
  return false;
}
