// sim/isa/isa_decode_gfx12.c — the gfx12 (RDNA4) families whose
// layout differs from gfx11 (isa_gfx12.h). Layouts (AMD "RDNA4 Instruction
// Set Architecture" reference guide, chapter "Microcode Formats"; LLVM
// SMInstructions.td, FLATInstructions.td, BUFInstructions.td gfx12
// encodings), each confirmed with llvm-mc-19 -mcpu=gfx1201 -show-encoding
// and checked by tests/unit/isa_gfx12_test.c:
//   SMEM     [31:26]=111101  SBASE[5:0] (pair/2) SDATA[12:6] OP[18:13]
//            SCOPE[22:21] TH[25:23] | OFFSET[55:32] (24-bit signed)
//            SOFFSET[63:57] (124: none)
//   VFLAT / VSCRATCH / VGLOBAL  [31:24]=0xec / 0xed / 0xee, 96 bits:
//            SADDR[6:0] (124: off) OP[21:14] | VDST[39:32] SVE[49]
//            SCOPE[51:50] TH[54:52] VDATA[62:55] | VADDR[71:64]
//            OFFSET[95:72] (24-bit signed)
//   VBUFFER  [31:26]=110001, 96 bits, OP[21:14] (buffer_* and, from 0x80,
//            tbuffer_*): recognised, not modelled
//   VIMAGE [31:26]=110100, VSAMPLE [31:26]=111001: 96 bits (isa_image.c)
//   VINTERP  [31:24]=0xcd, 64 bits, OP[20:16]: recognised
// gfx11's FLAT (110111), MUBUF (111000), MTBUF (111010) and MIMG (111100)
// are not gfx12 encodings: unknown, length unknown.
#include "sim/isa/isa_decode_internal.h"
#include "sim/isa/isa_gfx12.h"
#include "sim/isa/isa_image.h"
#include "sim/isa/isa_mem.h"

// The TH/SCOPE of a gfx12 memory instruction as the gfx11 cache-policy bits
// the memory model reads (inst->glc_slc_dlc: bit 0 DLC, bit 1 GLC, bit 2
// SLC). Loads and stores: a scope wider than the CU (SE, DEV, SYS) is
// coherent beyond the L0, as GLC was; DEV/SYS also beyond the GL1 (DLC);
// TH_NT (non-temporal, th 1) streams (SLC). Atomics: TH bit 0 is
// TH_ATOMIC_RETURN, the gfx11 GLC of an atomic (return the old value).
static uint8_t rl_isa_gfx12_policy(uint32_t th, uint32_t scope, bool atomic) {
  if (atomic) return (th & 1) ? 2u : 0u;
  uint8_t bits = 0;
  if (scope >= 1) bits |= 2u;
  if (scope >= 2) bits |= 1u;
  if (th == 1) bits |= 4u;
  return bits;
}

static bool rl_isa_decode_smem12(const uint32_t* w, uint32_t count,
                                 uint32_t features, rl_isa_inst_t* inst) {
  if (!rl_isa_decode_smem_common(w, count, (w[0] >> 13) & 0x3f, features,
                                 inst)) {
    return false;
  }
  uint32_t scope = (w[0] >> 21) & 3, th = (w[0] >> 23) & 7;
  inst->th_scope = (uint8_t)(th | scope << 3);
  // The scalar load's GLC (isa_sopp.c, bit 0): a miss in the scalar cache.
  inst->glc_slc_dlc = scope >= 1 ? 1u : 0u;
  inst->offset = ((int32_t)(w[1] << 8)) >> 8;
  return inst->op != NULL;
}

static bool rl_isa_decode_vmem12(const uint32_t* w, uint32_t count,
                                 uint32_t features, rl_isa_inst_t* inst) {
  uint32_t seg = (w[0] >> 24) & 3;
  inst->encoding = seg == 0   ? RL_ISA_ENC_FLAT
                   : seg == 1 ? RL_ISA_ENC_SCRATCH
                              : RL_ISA_ENC_GLOBAL;
  inst->opcode = (w[0] >> 14) & 0xff;
  if (count < 3 || seg == 3) return false;
  inst->words[1] = w[1];
  inst->words[2] = w[2];
  inst->size = 12;
  rl_isa_flat_global_op(seg, inst->opcode, features, inst);
  inst->saddr = (uint8_t)(w[0] & 0x7f);
  inst->vdst = (uint8_t)(w[1] & 0xff);
  uint32_t scope = (w[1] >> 18) & 3, th = (w[1] >> 20) & 7;
  inst->th_scope = (uint8_t)(th | scope << 3);
  inst->data0 = (uint8_t)((w[1] >> 23) & 0xff);
  inst->addr = (uint8_t)(w[2] & 0xff);
  inst->offset = ((int32_t)w[2]) >> 8;
  bool atomic = inst->op != NULL &&
                RL_ISA_MEM_KIND(inst->op->arg) == RL_ISA_MEM_ATOM;
  inst->glc_slc_dlc = rl_isa_gfx12_policy(th, scope, atomic);
  if (seg == 0 && inst->saddr != RL_ISA_SRC_NULL) {
    return false;  // VFLAT with an SGPR base: not a form modelled
  }
  return inst->op != NULL;
}

// Families only recognised: their length, their opcode for the names.
static void rl_isa_decode_other12(const uint32_t* w, uint32_t count,
                                  uint32_t encoding, uint32_t opcode,
                                  uint32_t dwords, rl_isa_inst_t* inst) {
  inst->encoding = (uint8_t)encoding;
  inst->opcode = (uint16_t)opcode;
  if (count < dwords) return;
  for (uint32_t i = 1; i < dwords; ++i) inst->words[i] = w[i];
  inst->size = (uint8_t)(dwords * 4);
  (void)w;
}

bool rl_isa_decode_gfx12(const uint32_t* words, uint32_t count,
                         uint32_t features, rl_isa_inst_t* inst,
                         bool* out_known) {
  const uint32_t w0 = words[0], top6 = w0 >> 26, top8 = w0 >> 24;
  *out_known = false;
  if (top6 == 0x3d) {
    *out_known = rl_isa_decode_smem12(words, count, features, inst);
  } else if (top6 == 0x3b) {
    *out_known = rl_isa_decode_vmem12(words, count, features, inst);
  } else if (top6 == 0x31) {  // VBUFFER
    rl_isa_decode_other12(words, count, RL_ISA_ENC_MUBUF, (w0 >> 14) & 0xff,
                          3, inst);
  } else if (top6 == 0x34 || top6 == 0x39) {  // VIMAGE, VSAMPLE
    *out_known = rl_isa_decode_mimg(words, count, features, inst);
  } else if (top8 == 0xcd) {
    rl_isa_decode_other12(words, count, RL_ISA_ENC_VINTERP,
                          (w0 >> 16) & 0x1f, 2, inst);
  } else if (top6 == 0x37 || top6 == 0x38 || top6 == 0x3a || top6 == 0x3c) {
    inst->encoding = RL_ISA_ENC_UNKNOWN;  // gfx11-only families
  } else {
    return false;
  }
  if (inst->size == 0) *out_known = false;
  return true;
}
