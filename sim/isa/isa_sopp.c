// sim/isa/isa_sopp.c — program control (SOPP), scalar memory (SMEM)
// and the fault path of the ISA executor, with the SOPP and SMEM tables.
//
// Sources: opcodes from LLVM SOPInstructions.td and SMInstructions.td
// (gfx11), confirmed with llvm-mc-19 -mcpu=gfx1100 by
// tests/unit/sim/isa/isa_decode_test.c; semantics from the RDNA3 ISA guide
// ("Program Flow Control", "Scalar Memory Operations", "Dependency Checking"
// for s_waitcnt/s_delay_alu/s_clause, "Send Message" for s_sendmsg).
//
// Ordering instructions are no-ops here: the executor completes every
// memory access before the next instruction, so s_waitcnt and friends never
// have anything outstanding, and s_delay_alu / s_clause / s_nop /
// s_set_inst_prefetch_distance / s_icache_inv / cache invalidations only
// steer the hardware's pipeline and caches, which are not modelled.
#include <stdarg.h>
#include <stdio.h>

#include "sim/isa/isa_exec.h"

#define NO RL_ISA_T_NONE

rl_status_t rl_isa_fault(const rl_isa_inst_t* inst, const char* format, ...) {
  char reason[256];
  va_list args;
  va_start(args, format);
  vsnprintf(reason, sizeof(reason), format, args);
  va_end(args);
  char where[160];
  rl_isa_inst_describe(inst, where, sizeof(where));
  return RL_STATUS(RL_STATUS_UNSUPPORTED, "isa executor: %s: %s", where,
                   reason);
}

rl_status_t rl_isa_exec_unsupported(rl_isa_wave_t* wave,
                                    const rl_isa_inst_t* inst) {
  (void)wave;
  if (inst->size == 0) {
    return rl_isa_fault(inst, "undecodable %s instruction",
                        rl_isa_encoding_name(inst->encoding));
  }
  if (inst->op == NULL) {
    return rl_isa_fault(inst, "unknown or unsupported %s opcode",
                        rl_isa_encoding_name(inst->encoding));
  }
  const char* reason = rl_isa_inst_unsupported_reason(inst);
  return rl_isa_fault(inst, "%s", reason ? reason : "not modelled");
}

rl_status_t rl_isa_exec_nop(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  (void)wave;
  (void)inst;
  return RL_OK;
}

rl_status_t rl_isa_exec_endpgm(rl_isa_wave_t* wave,
                               const rl_isa_inst_t* inst) {
  (void)inst;
  wave->state = RL_ISA_WAVE_ENDED;
  return RL_OK;
}

rl_status_t rl_isa_exec_code_end(rl_isa_wave_t* wave,
                                 const rl_isa_inst_t* inst) {
  (void)wave;
  return rl_isa_fault(inst, "executed s_code_end (padding after the last "
                            "kernel): control ran off the end of the code");
}

rl_status_t rl_isa_exec_barrier(rl_isa_wave_t* wave,
                                const rl_isa_inst_t* inst) {
  (void)inst;
  wave->state = RL_ISA_WAVE_BARRIER;
  return RL_OK;
}

// s_sendmsg: only MSG_DEALLOC_VGPRS (3), which releases the wave's VGPRs
// just before s_endpgm, is accepted; as a model it does nothing.
rl_status_t rl_isa_exec_sendmsg(rl_isa_wave_t* wave,
                                const rl_isa_inst_t* inst) {
  (void)wave;
  uint32_t message = (uint32_t)inst->simm16 & 0xff;
  if (message == 3) return RL_OK;
  return rl_isa_fault(inst, "s_sendmsg message %u is not modelled (only "
                            "MSG_DEALLOC_VGPRS)", message);
}

// s_sendmsg_rtn_b32 (a message whose answer the wave waits for: the
// doorbell of LLVM's trap fallback sequence, which only runs after s_trap
// returned) is known and faults when executed, like s_sendmsg's other
// messages.
rl_status_t rl_isa_exec_sendmsg_rtn(rl_isa_wave_t* wave,
                                    const rl_isa_inst_t* inst) {
  (void)wave;
  return rl_isa_fault(inst, "s_sendmsg_rtn_b32 is not modelled (it follows "
                            "s_trap in LLVM's trap sequence)");
}

// s_trap: what llvm.trap lowers to (__builtin_trap, abort, a failed device
// assert). No trap handler is simulated: the dispatch faults, naming the
// kernel and the trap id; LLVM's fallback after it (s_sendmsg_rtn_b32,
// s_sethalt) never runs.
rl_status_t rl_isa_exec_trap(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  (void)wave;
  return rl_isa_fault(inst, "s_trap %u: the kernel trapped (__builtin_trap, "
                            "abort or a failed assert)",
                      (uint32_t)inst->simm16 & 0xff);
}

rl_status_t rl_isa_exec_sethalt(rl_isa_wave_t* wave,
                                const rl_isa_inst_t* inst) {
  (void)wave;
  return rl_isa_fault(inst, "s_sethalt %u: the wave halted itself",
                      (uint32_t)inst->simm16 & 0xff);
}

// Branches: arg 0 scc0, 1 scc1, 2 vccz, 3 vccnz, 4 execz, 5 execnz,
// 6 always. The target is PC + 4 + 4 * simm16, resolved to an instruction
// index when the program was built.
rl_status_t rl_isa_exec_branch(rl_isa_wave_t* wave,
                               const rl_isa_inst_t* inst) {
  bool taken = false;
  switch (inst->op->arg) {
    case 0: taken = wave->scc == 0; break;
    case 1: taken = wave->scc != 0; break;
    case 2: taken = wave->sgpr[RL_ISA_SRC_VCC] == 0; break;
    case 3: taken = wave->sgpr[RL_ISA_SRC_VCC] != 0; break;
    case 4: taken = wave->sgpr[RL_ISA_SRC_EXEC] == 0; break;
    case 5: taken = wave->sgpr[RL_ISA_SRC_EXEC] != 0; break;
    default: taken = true; break;
  }
  if (!taken) return RL_OK;
  if (inst->target < 0) {
    return rl_isa_fault(inst,
                        "branch to PC %+d is outside the predecoded code or "
                        "not at an instruction boundary",
                        (int32_t)inst->pc + 4 + inst->simm16 * 4);
  }
  wave->pc = (uint32_t)inst->target;
  return RL_OK;
}

// s_load_b32..b512: |arg| dwords from SBASE + OFFSET + SOFFSET (124: none),
// dword aligned (the low two address bits are ignored), through the
// simulated MMU like any other access.
rl_status_t rl_isa_exec_smem_load(rl_isa_wave_t* wave,
                                  const rl_isa_inst_t* inst) {
  uint32_t dwords = inst->op->arg;
  if (inst->dst + dwords > RL_ISA_SRC_VCC) {
    return rl_isa_fault(inst, "destination s%u..s%u is beyond s105",
                        inst->dst, inst->dst + dwords - 1);
  }
  uint64_t base = wave->sgpr[inst->addr] |
                  (uint64_t)wave->sgpr[inst->addr + 1] << 32;
  uint64_t address = base + (uint64_t)(int64_t)inst->offset;
  if (inst->saddr != RL_ISA_SRC_NULL) address += wave->sgpr[inst->saddr];
  address &= ~(uint64_t)3;
  uint32_t data[16];
  // Through the scalar cache; SMEM GLC (bit 14, decoded as bit 0) forces a
  // miss like a vector GLC (RDNA3 ISA guide, SMEM encoding).
  uint32_t access = RL_SIM_ACCESS_SCALAR;
  if (inst->glc_slc_dlc & 1u) access |= RL_SIM_ACCESS_GLC;
  RL_RETURN_IF_ERROR(rl_sim_wg_load_with(wave->group->wg, address, data,
                                         dwords * 4, access));
  for (uint32_t i = 0; i < dwords; ++i) wave->sgpr[inst->dst + i] = data[i];
  return RL_OK;
}

#define P(opc, name, exec) \
  RL_ISA_OP(opc, name, 0, NO, NO, NO, NO, 0, exec, NULL)
#define PB(opc, name, flags, cond)                                     \
  RL_ISA_OP(opc, name, RL_ISA_F_BRANCH | (flags), NO, NO, NO, NO, cond, \
            rl_isa_exec_branch, NULL)
#define END RL_ISA_F_ENDS_BLOCK

static const rl_isa_op_t rl_isa_sopp_ops[] = {
    P(0x00, "s_nop", rl_isa_exec_nop),
    P(0x02, "s_sethalt", rl_isa_exec_sethalt),
    P(0x03, "s_sleep", rl_isa_exec_nop),
    P(0x04, "s_set_inst_prefetch_distance", rl_isa_exec_nop),
    P(0x05, "s_clause", rl_isa_exec_nop),
    P(0x07, "s_delay_alu", rl_isa_exec_nop),
    P(0x08, "s_waitcnt_depctr", rl_isa_exec_nop),
    P(0x09, "s_waitcnt", rl_isa_exec_nop),
    P(0x0a, "s_wait_idle", rl_isa_exec_nop),
    P(0x10, "s_trap", rl_isa_exec_trap),
    RL_ISA_OP(0x1f, "s_code_end", END, NO, NO, NO, NO, 0,
              rl_isa_exec_code_end, NULL),
    PB(0x20, "s_branch", END, 6),
    PB(0x21, "s_cbranch_scc0", 0, 0),
    PB(0x22, "s_cbranch_scc1", 0, 1),
    PB(0x23, "s_cbranch_vccz", 0, 2),
    PB(0x24, "s_cbranch_vccnz", 0, 3),
    PB(0x25, "s_cbranch_execz", 0, 4),
    PB(0x26, "s_cbranch_execnz", 0, 5),
    RL_ISA_OP(0x30, "s_endpgm", END, NO, NO, NO, NO, 0, rl_isa_exec_endpgm,
              NULL),
    P(0x35, "s_setprio", rl_isa_exec_nop),
    P(0x36, "s_sendmsg", rl_isa_exec_sendmsg),
    P(0x3c, "s_icache_inv", rl_isa_exec_nop),
    P(0x3d, "s_barrier", rl_isa_exec_barrier),
};

#define SL(opc, name, dwords)                                              \
  RL_ISA_OP(opc, name, 0, RL_ISA_T_B32, NO, NO, NO, dwords,                \
            rl_isa_exec_smem_load, NULL)

static const rl_isa_op_t rl_isa_smem_ops[] = {
    SL(0x00, "s_load_b32", 1),
    SL(0x01, "s_load_b64", 2),
    SL(0x02, "s_load_b128", 4),
    SL(0x03, "s_load_b256", 8),
    SL(0x04, "s_load_b512", 16),
    P(0x20, "s_gl1_inv", rl_isa_exec_nop),
    P(0x21, "s_dcache_inv", rl_isa_exec_nop),
};

RL_ISA_TABLE_CHAIN(rl_isa_table_sopp, rl_isa_sopp_ops, &rl_isa_table_sopp_mode);
RL_ISA_TABLE(rl_isa_table_smem, rl_isa_smem_ops);
