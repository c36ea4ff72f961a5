// sim/isa/isa_call.c — jumps through registers: s_setpc_b64 and
// s_swappc_b64, the call and return of the AMDGPU calling convention
// (LLVM AMDGPUUsage, "Call Convention": the caller puts the callee's
// address in an SGPR pair (s_getpc_b64 plus a PC-relative offset) and
// s_swappc_b64 s[30:31] saves the return address there; the callee
// returns with s_setpc_b64 s[30:31]; s32 is the stack pointer, s33 the
// frame pointer, both byte offsets in the private segment).
//
// RDNA3 ISA guide, SOP1: S_SETPC_B64 "PC = S0.u64", S_SWAPPC_B64
// "jump_addr = S0.i64; D0.i64 = PC + 4; PC = jump_addr" — the saved PC is
// the address of the next instruction (SOP1 is 4 bytes). The target must
// be an instruction the program builder predecoded (isa_program.h: direct
// calls are followed when the program is built; returns land after a
// predecoded s_swappc_b64); any other address faults, naming it.
#include <inttypes.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_program.h"

static rl_status_t rl_isa_jump(rl_isa_wave_t* wave, const rl_isa_inst_t* inst,
                               uint64_t target) {
  const rl_isa_program_t* program = wave->group->program;
  int32_t index = rl_isa_program_index(program, target);
  if (index < 0) {
    return rl_isa_fault(inst,
                        "jump to 0x%" PRIx64 ", which is not the start of "
                        "an instruction of the predecoded code [0x%" PRIx64
                        ", 0x%" PRIx64 ") (an indirect call, or a call the "
                        "predecoder did not follow)",
                        target, program->base_address,
                        program->base_address + program->code_bytes);
  }
  wave->pc = (uint32_t)index;
  return RL_OK;
}

rl_status_t rl_isa_exec_setpc(rl_isa_wave_t* wave, const rl_isa_inst_t* inst) {
  return rl_isa_jump(wave, inst, rl_isa_read_s64(wave, &inst->src[0]));
}

rl_status_t rl_isa_exec_swappc(rl_isa_wave_t* wave,
                               const rl_isa_inst_t* inst) {
  uint64_t target = rl_isa_read_s64(wave, &inst->src[0]);
  rl_isa_write_s64(wave, inst->dst,
                   wave->group->entry_address + inst->pc + inst->size);
  return rl_isa_jump(wave, inst, target);
}
