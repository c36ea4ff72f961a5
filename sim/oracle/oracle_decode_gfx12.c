// sim/oracle/oracle_decode_gfx12.c — the oracle's decoder of the
// gfx12 (RDNA4) families whose binary layout differs from gfx11
// (oracle_internal.h). Field positions from AMD's "RDNA4" Instruction Set
// Architecture Reference Guide, chapter "Microcode Formats", and LLVM's
// gfx12 encodings (SMInstructions.td, FLATInstructions.td), checked by
// hand against `llvm-mc-19 --triple=amdgcn -mcpu=gfx1201 --show-encoding`
// (docs/shadow-oracle.md, "gfx12"). The formats gfx12 kept (SOP*, VOP*,
// VOPD, DS) go through the gfx11 decoder with gfx12's name tables.
#include <string.h>

#include "sim/isa/isa_names.h"
#include "sim/oracle/oracle_internal.h"

// SMEM, 64 bits: SBASE[5:0] (an SGPR pair, halved), SDATA[12:6],
// OP[18:13], SCOPE[22:21], TH[25:23]; second dword OFFSET[23:0] (signed)
// and SOFFSET[31:25] (124: none).
static bool rl_oracle_gfx12_smem(const uint32_t* w, uint32_t count,
                                 rl_oracle_inst_t* out) {
  out->fmt = RL_ORACLE_FMT_SMEM;
  out->opcode = (w[0] >> 13) & 0x3f;
  out->name = rl_oracle_name(RL_ISA_ENC_SMEM, out->opcode);
  if (count < 2) return true;  // length 0: not readable
  out->addr = (w[0] & 0x3f) << 1;
  out->vdst = (w[0] >> 6) & 0x7f;
  out->scope = (w[0] >> 21) & 3;
  out->th = (w[0] >> 23) & 7;
  out->offset = (int32_t)(w[1] << 8) >> 8;
  out->soffset = (w[1] >> 25) & 0x7f;
  rl_oracle_tail(w, count, 8, false, false, out);
  return true;
}

// VFLAT / VSCRATCH / VGLOBAL, 96 bits, told apart by bits 31:24 (0xec,
// 0xed, 0xee): SADDR[6:0] (124: off), OP[21:14]; VDST[39:32], SVE[49],
// SCOPE[51:50], TH[54:52], VDATA[62:55]; VADDR[71:64], OFFSET[95:72]
// (24-bit signed, for every segment). An atomic returns the value before
// it when TH bit 0 is set.
static bool rl_oracle_gfx12_flat(const uint32_t* w, uint32_t count,
                                 rl_oracle_inst_t* out) {
  out->fmt = RL_ORACLE_FMT_FLAT;
  uint32_t top8 = w[0] >> 24;
  out->seg = top8 == 0xee ? 2 : top8 == 0xed ? 1 : 0;
  out->opcode = (w[0] >> 14) & 0xff;
  uint32_t encoding = out->seg == 2   ? RL_ISA_ENC_GLOBAL
                      : out->seg == 1 ? RL_ISA_ENC_SCRATCH
                                      : RL_ISA_ENC_FLAT;
  out->name = rl_oracle_name(encoding, out->opcode);
  if (count < 3) return true;
  out->saddr = w[0] & 0x7f;
  out->vdst = w[1] & 0xff;
  out->scope = (w[1] >> 18) & 3;
  out->th = (w[1] >> 20) & 7;
  out->data0 = (w[1] >> 23) & 0xff;
  out->addr = w[2] & 0xff;
  out->offset = (int32_t)w[2] >> 8;
  out->atomic_return = out->th & 1;
  rl_oracle_tail(w, count, 12, false, false, out);
  return true;
}

bool rl_oracle_decode_gfx12(const uint32_t* words, uint32_t count,
                            rl_oracle_inst_t* out) {
  uint32_t w0 = words[0];
  uint32_t top6 = w0 >> 26, top8 = w0 >> 24;
  if ((w0 >> 30) != 3) return false;  // VOP*, SOP*: gfx11's layouts
  if (top6 == 0x3d) return rl_oracle_gfx12_smem(words, count, out);
  if (top8 >= 0xec && top8 <= 0xee) {
    return rl_oracle_gfx12_flat(words, count, out);
  }
  // VBUFFER (110001), VIMAGE (110100), VSAMPLE (111001): 96 bits,
  // recognised for their length only (not modelled: a skip names them).
  if (top6 == 0x31 || top6 == 0x34 || top6 == 0x39) {
    out->fmt = RL_ORACLE_FMT_OTHER;
    out->opcode = (w0 >> 14) & 0xff;
    if (top6 == 0x31) out->name = rl_oracle_name(RL_ISA_ENC_MUBUF, out->opcode);
    if (count >= 3) rl_oracle_tail(words, count, 12, false, false, out);
    return true;
  }
  // gfx11's FLAT (110111), MUBUF (111000), MTBUF (111010) and MIMG
  // (111100) words are not gfx12 encodings: unknown, not decoded.
  if (top6 == 0x37 || top6 == 0x38 || top6 == 0x3a || top6 == 0x3c) {
    out->fmt = RL_ORACLE_FMT_OTHER;
    rl_oracle_tail(words, count, 4, false, false, out);
    return true;
  }
  return false;  // VOP3, VOP3P, VOPD, DS, VINTERP, VDSDIR, EXP
}
