// sim/isa/isa_permute.c — the lane-crossing LDS instructions
// ds_permute_b32, ds_bpermute_b32 and ds_swizzle_b32 (they use the LDS
// crossbar but no LDS memory), which __shfl, warp reductions and rocPRIM's
// warp primitives compile to. Chained after the DS atomic table.
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
//
// DS_SWIZZLE_B32 (RDNA3 and RDNA4 guides, "thread_out[i] = thread_valid[j]
// ? thread_in[j] : 0": reading an inactive lane gives 0; the source is the
// ADDR VGPR, the pattern the 16-bit OFFSET), wave32:
//   OFFSET[15] = 1, below 0xc000 (quad-permute mode): lane i reads lane
//                   (i & ~3) + OFFSET[2k+1:2k], k = i % 4;
//   OFFSET[15] = 0 (bit-mask mode): lane i reads lane
//                   ((i & and) | or) ^ xor, with and = OFFSET[4:0],
//                   or = OFFSET[9:5], xor = OFFSET[14:10] (the group of 32
//                   lanes is the whole wave32);
//   OFFSET >= 0xc000 (the rotate and FFT modes, which the RDNA3/RDNA4
//                   guides also define): not modelled, refused at load
//                   time (rl_isa_ds_permute_reason). Their pseudo-code
//                   leaves widths open (is ~mask 5 bits? does
//                   reverse_bits reverse 5?), llvm-mc-19 has no syntax
//                   for them and clang does not emit them for gfx11/12.
#include <string.h>

#include "sim/isa/isa_mem.h"

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

// The lane ds_swizzle_b32 with pattern |offset| reads for |lane|.
static uint32_t rl_isa_swizzle_source(uint32_t offset, uint32_t lane) {
  if (offset & 0x8000) {
    return (lane & ~3u) | ((offset >> (2 * (lane & 3))) & 3);
  }
  uint32_t and_mask = offset & 31, or_mask = (offset >> 5) & 31;
  uint32_t xor_mask = (offset >> 10) & 31;
  return ((lane & and_mask) | or_mask) ^ xor_mask;
}

static rl_status_t rl_isa_exec_ds_swizzle(rl_isa_wave_t* wave,
                                          const rl_isa_inst_t* inst) {
  const uint32_t exec = wave->sgpr[RL_ISA_SRC_EXEC];
  const uint32_t offset = (uint32_t)(inst->offset | (inst->offset1 << 8));
  const uint32_t* data = wave->vgpr[inst->addr];
  uint32_t tmp[RL_ISA_LANES];
  for (uint32_t i = 0; i < RL_ISA_LANES; ++i) {
    uint32_t source = rl_isa_swizzle_source(offset, i) % RL_ISA_LANES;
    tmp[i] = (exec & (1u << source)) ? data[source] : 0;
  }
  uint32_t* dst = wave->vgpr[inst->vdst];
  for (uint32_t i = 0; i < RL_ISA_LANES; ++i) {
    if ((exec >> i) & 1) dst[i] = tmp[i];
  }
  return RL_OK;
}

const char* rl_isa_ds_permute_reason(const rl_isa_inst_t* inst) {
  if (inst->op->exec != rl_isa_exec_ds_swizzle) return NULL;
  if ((inst->offset | (inst->offset1 << 8)) < 0xc000) return NULL;
  return "ds_swizzle_b32 rotate/FFT modes (offset >= 0xc000) are not "
         "modelled";
}

// arg: element size 4, kind ATOM_RTN (reads ADDR and DATA0, writes VDST:
// isa_mem.c's VGPR bound), bit 0 of the atomic field marks bpermute.
#define PERM(opc, name, backward)                                           \
  RL_ISA_OP(opc, name, 0, RL_ISA_T_NONE, RL_ISA_T_NONE, RL_ISA_T_NONE,      \
            RL_ISA_T_NONE,                                                  \
            RL_ISA_MEM_ARG(4, RL_ISA_MEM_ATOM_RTN, (backward) << 10),      \
            rl_isa_exec_ds_permute, NULL)

// Sorted by opcode.
static const rl_isa_op_t rl_isa_ds_permute_ops[] = {
    // Reads ADDR (the source), writes VDST: the same VGPR bound.
    RL_ISA_OP(0x35, "ds_swizzle_b32", 0, RL_ISA_T_NONE, RL_ISA_T_NONE,
              RL_ISA_T_NONE, RL_ISA_T_NONE,
              RL_ISA_MEM_ARG(4, RL_ISA_MEM_ATOM_RTN, 0),
              rl_isa_exec_ds_swizzle, NULL),
    PERM(0xb2, "ds_permute_b32", 0),
    PERM(0xb3, "ds_bpermute_b32", 1),
};

RL_ISA_TABLE_CHAIN(rl_isa_table_ds_permute, rl_isa_ds_permute_ops,
                   &rl_isa_table_ds_gws);
