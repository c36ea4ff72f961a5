// redline/sim/isa/isa_permute.c — the lane-crossing LDS instructions
// ds_permute_b32 and ds_bpermute_b32 (they use the LDS crossbar but no LDS
// memory), which __shfl and warp reductions compile to. Chained after the
// DS atomic table.
//
// Semantics (RDNA3 ISA guide, "Data Share Operations", DS_PERMUTE_B32 and
// DS_BPERMUTE_B32, wave32): with OFFSET = OFFSET1:OFFSET0,
//   permute (forward):   for each active lane i, in ascending order,
//                        tmp[(ADDR[i] + OFFSET) / 4 % 32] = DATA0[i]
//                        (a later lane wins a collision; lanes no one
//                        writes get 0);
//   bpermute (backward): tmp[i] = DATA0[(ADDR[i] + OFFSET) / 4 % 32] when
//                        that lane is active, else 0;
// then every active lane writes tmp[i] to VDST; inactive lanes keep VDST.
#include <string.h>

#include "redline/sim/isa/isa_mem.h"

static rl_status_t rl_isa_exec_ds_permute(rl_isa_wave_t* wave,
                                          const rl_isa_inst_t* inst) {
  const uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  const uint32_t offset = (uint32_t)(inst->offset | (inst->offset1 << 8));
  const uint32_t* addr = wave->vgpr[inst->addr];
  const uint32_t* data = wave->vgpr[inst->data0];
  uint32_t tmp[RL_ISA_LANES];
  memset(tmp, 0, sizeof(tmp));
  bool backward = RL_ISA_MEM_ATOMIC(inst->op->arg) & 1;
  for (uint32_t i = 0; i < RL_ISA_LANES; ++i) {
    uint32_t lane = ((addr[i] + offset) / 4) % RL_ISA_LANES;
    if (backward) {
      tmp[i] = ((exec >> lane) & 1) ? data[lane] : 0;
    } else if ((exec >> i) & 1) {
      tmp[lane] = data[i];
    }
  }
  uint32_t* dst = wave->vgpr[inst->vdst];
  for (uint32_t i = 0; i < RL_ISA_LANES; ++i) {
    if ((exec >> i) & 1) dst[i] = tmp[i];
  }
  return RL_OK;
}

// arg: element size 4, kind ATOM_RTN (reads ADDR and DATA0, writes VDST:
// isa_mem.c's VGPR bound), bit 0 of the atomic field marks bpermute.
#define PERM(opc, name, backward)                                           \
  RL_ISA_OP(opc, name, 0, RL_ISA_T_NONE, RL_ISA_T_NONE, RL_ISA_T_NONE,      \
            RL_ISA_T_NONE,                                                  \
            RL_ISA_MEM_ARG(4, RL_ISA_MEM_ATOM_RTN, (backward) << 10),      \
            rl_isa_exec_ds_permute, NULL)

static const rl_isa_op_t rl_isa_ds_permute_ops[] = {
    PERM(0xb2, "ds_permute_b32", 0),
    PERM(0xb3, "ds_bpermute_b32", 1),
};

RL_ISA_TABLE(rl_isa_table_ds_permute, rl_isa_ds_permute_ops);
