// sim/isa/isa_decode_memory.c — the memory families of the gfx11
// decoder: DS (LDS), FLAT/GLOBAL/SCRATCH and MUBUF, all 64 bits.
//
// Field layouts (RDNA3 ISA guide, "Data Share Operations" / "Flat, Global
// and Scratch" / "Vector Memory Buffer" formats; LLVM DSInstructions.td,
// FLATInstructions.td and BUFInstructions.td gfx11 encodings):
//   DS     OFFSET0[7:0] OFFSET1[15:8] GDS[17] OP[25:18]
//          | ADDR[39:32] DATA0[47:40] DATA1[55:48] VDST[63:56]
//   FLAT   OFFSET[12:0] DLC[13] GLC[14] SLC[15] SEG[17:16] OP[24:18]
//          | ADDR[39:32] DATA[47:40] SADDR[54:48] VDST[63:56]
//          SEG 0 flat, 1 scratch, 2 global. SCRATCH: SVE[55] says
//          whether ADDR (a 32-bit VGPR) takes part in the address
//          (llvm-mc-19: `scratch_load_b32 v4, v1, off` sets it, `off, s33`
//          does not). OFFSET is 13-bit signed for global and scratch; flat offsets are 12-bit unsigned (llvm-mc-19
//          rejects a negative one), so bit 12 set on FLAT is not decoded.
//   MUBUF  OFFSET[11:0] ... OP[25:18] | VADDR VDATA SRSRC ... SOFFSET[63:56]
//          Only the cache invalidations (buffer_gl0_inv, buffer_gl1_inv),
//          which take no operands, are modelled.
#include <string.h>

#include "sim/isa/isa_decode_internal.h"

static bool rl_isa_decode_ds(const uint32_t* w, uint32_t features,
                             rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_DS, &rl_isa_table_ds,
                   (w[0] >> 18) & 0xff, features);
  inst->offset = (int32_t)(w[0] & 0xff);
  inst->offset1 = (uint8_t)((w[0] >> 8) & 0xff);
  inst->addr = (uint8_t)(w[1] & 0xff);
  inst->data0 = (uint8_t)((w[1] >> 8) & 0xff);
  inst->data1 = (uint8_t)((w[1] >> 16) & 0xff);
  inst->vdst = (uint8_t)(w[1] >> 24);
  if (inst->op == NULL) return false;
  // GDS is not modelled, except that the GWS instructions always carry the
  // bit (llvm-mc writes `ds_gws_barrier v0 gds`; isa_gws.c).
  bool gds = (w[0] >> 17) & 1;
  bool gws = strncmp(inst->op->name, "ds_gws_", 7) == 0;
  return gds == gws;
}

void rl_isa_flat_global_op(uint32_t segment, uint32_t opcode,
                           uint32_t features, rl_isa_inst_t* inst) {
  if (segment == 0) {
    inst->op = rl_isa_table_find_for(&rl_isa_table_flat, opcode, features);
  } else if (segment == 2) {
    inst->op = rl_isa_table_find_for(&rl_isa_table_global, opcode, features);
  }
}

static bool rl_isa_decode_flat(const uint32_t* w, uint32_t features,
                               rl_isa_inst_t* inst) {
  uint32_t seg = (w[0] >> 16) & 3;
  inst->encoding = seg == 0   ? RL_ISA_ENC_FLAT
                   : seg == 1 ? RL_ISA_ENC_SCRATCH
                              : RL_ISA_ENC_GLOBAL;
  inst->opcode = (w[0] >> 18) & 0x7f;
  rl_isa_flat_global_op(seg, inst->opcode, features, inst);
  if (seg == 1) {
    inst->op = rl_isa_table_find_for(&rl_isa_table_scratch, inst->opcode,
                                     features);
    inst->sve = (w[1] >> 23) & 1;
  }
  inst->offset = ((int32_t)(w[0] << 19)) >> 19;
  inst->glc_slc_dlc = (uint8_t)((w[0] >> 13) & 7);
  inst->addr = (uint8_t)(w[1] & 0xff);
  inst->data0 = (uint8_t)((w[1] >> 8) & 0xff);
  inst->saddr = (uint8_t)((w[1] >> 16) & 0x7f);
  inst->vdst = (uint8_t)(w[1] >> 24);
  if (seg == 0 && (inst->offset < 0 || inst->saddr != RL_ISA_SRC_NULL)) {
    return false;  // not a form the assembler produces for FLAT
  }
  return inst->op != NULL;
}

static bool rl_isa_decode_mubuf(const uint32_t* w, uint32_t features,
                                rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_MUBUF, &rl_isa_table_mubuf,
                   (w[0] >> 18) & 0xff, features);
  return inst->op != NULL;
}

bool rl_isa_decode_memory(const uint32_t* words, uint32_t count,
                          uint32_t features, rl_isa_inst_t* inst) {
  const uint32_t top6 = words[0] >> 26;
  if (count < 2) {  // the family is known; the instruction is truncated
    inst->encoding = top6 == 0x36 ? RL_ISA_ENC_DS
                     : top6 == 0x37 ? RL_ISA_ENC_FLAT
                                    : RL_ISA_ENC_MUBUF;
    return false;
  }
  inst->words[1] = words[1];
  inst->size = 8;
  if (top6 == 0x36) return rl_isa_decode_ds(words, features, inst);
  if (top6 == 0x37) return rl_isa_decode_flat(words, features, inst);
  return rl_isa_decode_mubuf(words, features, inst);
}
