// sim/isa/isa_gws.c — gfx11's global wave sync barrier,
// ds_gws_barrier, which cooperative groups' grid sync compiles to
// (__ockl_grid_sync in the ROCm device libraries: a work-group barrier,
// then one work-item per work-group executes ds_gws_barrier with the
// work-group count minus one, then a second work-group barrier).
// Chained after the DS permute table; gfx12 has no GWS (its opcode table
// has no ds_gws_* and clang-19 refuses llvm.amdgcn.ds.gws.barrier there).
//
// Semantics (AMD "RDNA3" Instruction Set Architecture reference guide,
// "Global Wave Sync" and DS_GWS_BARRIER; LLVM AMDGPUUsage and the
// llvm.amdgcn.ds.gws.barrier intrinsic): the barrier resource is
// M0[21:16] + OFFSET0 (64 resources); the first active lane of the data
// VGPR holds the number of waves that must arrive, minus one. LLVM encodes
// that VGPR in the ADDR field (DSInstructions.td, has_gws_data0; llvm-mc-19
// `ds_gws_barrier v8 offset:3 gds` is 03 00 76 d8 08 00 00 00) with the GDS
// bit set. A wave that
// arrives waits until that many waves have arrived, then all of them go
// on and the barrier is ready for its next round. ds_gws_init (which sets
// a resource's count from outside the barrier) and the GWS semaphores are
// not modelled: __ockl_grid_sync does not use them.
//
// Model: every dispatch has its own 64 barriers (rl_isa_gws_t, the
// dispatch state's). A waiting wave is RL_ISA_WAVE_GWS until the round it
// arrived in completes; its work-group is then blocked (executor
// wg_blocked) and the cooperative schedule (sim_coop.c) steps the others.
// Only a cooperative dispatch can complete a barrier of more than one
// wave: in any other dispatch the work-groups are not all resident, so a
// wave that would wait faults here instead of hanging.
#include <stdio.h>

#include "sim/isa/isa_mem.h"

static rl_status_t rl_isa_exec_ds_gws_barrier(rl_isa_wave_t* wave,
                                              const rl_isa_inst_t* inst) {
  const uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  if (exec == 0) return RL_OK;  // no lane takes part
  const uint32_t count =
      wave->vgpr[inst->addr][(uint32_t)__builtin_ctz(exec)];
  const uint32_t resource =
      (((wave->sgpr[RL_ISA_SRC_M0] >> 16) & 63u) + (uint32_t)inst->offset) &
      (RL_ISA_GWS_RESOURCES - 1);
  if (count == 0) return RL_OK;  // a barrier of one wave: released at once
  if (!wave->group->wg->dispatch->cooperative || wave->group->gws == NULL) {
    return rl_isa_fault(
        inst,
        "ds_gws_barrier (resource %u) waits for %u more waves, but the "
        "dispatch was not launched cooperatively "
        "(hipLaunchCooperativeKernel): its work-groups are not all resident "
        "at once, so this grid barrier could never complete",
        resource, count);
  }
  rl_isa_gws_t* gws = &wave->group->gws[resource];
  if (gws->arrived == 0) {
    gws->count = count;
  } else if (gws->count != count) {
    return rl_isa_fault(inst,
                        "ds_gws_barrier (resource %u): this wave counts %u "
                        "waves, the %u already waiting counted %u",
                        resource, count + 1, gws->arrived, gws->count + 1);
  }
  if (++gws->arrived == count + 1) {
    gws->arrived = 0;
    gws->generation++;
    return RL_OK;
  }
  wave->gws_resource = resource;
  wave->gws_generation = gws->generation;
  wave->gws_pc = wave->pc - 1;  // the PC already points past it
  wave->state = RL_ISA_WAVE_GWS;
  return RL_OK;
}

bool rl_isa_gws_released(const rl_isa_wave_t* wave) {
  return wave->group->gws[wave->gws_resource].generation !=
         wave->gws_generation;
}

void rl_isa_gws_describe(const rl_isa_wave_t* wave, char* out, size_t size) {
  const rl_isa_gws_t* gws = &wave->group->gws[wave->gws_resource];
  snprintf(out, size,
           "wave %u at ds_gws_barrier, PC +0x%x, resource %u: %u of %u waves "
           "arrived",
           wave->id, wave->group->insts[wave->gws_pc].pc, wave->gws_resource,
           gws->arrived, gws->count + 1);
}

// arg: kind ATOM, 4 bytes (reads ADDR, where the count is, and DATA0,
// which is v0 in LLVM's encoding: isa_mem.c's VGPR bound; writes nothing).
static const rl_isa_op_t rl_isa_ds_gws_ops[] = {
    RL_ISA_OP(0x1d, "ds_gws_barrier", 0, RL_ISA_T_NONE, RL_ISA_T_NONE,
              RL_ISA_T_NONE, RL_ISA_T_NONE,
              RL_ISA_MEM_ARG(4, RL_ISA_MEM_ATOM, 0),
              rl_isa_exec_ds_gws_barrier, NULL),
};

RL_ISA_TABLE(rl_isa_table_ds_gws, rl_isa_ds_gws_ops);
