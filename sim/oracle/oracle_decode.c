// sim/oracle/oracle_decode.c — the oracle's field decoder
// (oracle_internal.h). Field positions from the RDNA3 ISA guide, chapter
// "Microcode Formats"; mnemonics from the llvm-mc-checked tables of
// isa_names.h, the only thing the oracle shares with the `isa` executor.
#include <string.h>

#include "sim/isa/isa_names.h"
#include "sim/oracle/oracle_internal.h"

// The generation's name tables: gfx11, or gfx12 (the same encodings for
// SOP*, VOP*, VOPD and DS, with gfx12's opcode numbers and names).
static _Thread_local const rl_isa_name_table_t* rl_oracle_tables =
    rl_isa_name_tables;

const char* rl_oracle_name(uint32_t encoding, uint32_t opcode) {
  return rl_isa_opcode_name_in(rl_oracle_tables, encoding, opcode);
}

static bool rl_oracle_prefix(const char* name, const char* prefix) {
  return name && strncmp(name, prefix, strlen(prefix)) == 0;
}

// A K-constant opcode carries a literal whatever its sources are.
static bool rl_oracle_has_k(const char* name) {
  return rl_oracle_prefix(name, "v_fmamk_") ||
         rl_oracle_prefix(name, "v_fmaak_") ||
         rl_oracle_prefix(name, "v_dual_fmamk_") ||
         rl_oracle_prefix(name, "v_dual_fmaak_");
}

// Appends the literal (when a source is 255 or |force|) and a DPP word
// (source 0 250, 233 or 234) after |base| bytes.
bool rl_oracle_tail(const uint32_t* words, uint32_t count,
                           uint32_t base, bool literal, bool dpp,
                           rl_oracle_inst_t* out) {
  uint32_t at = base / 4;
  if (dpp) {
    if (at >= count) return false;
    at++;
  }
  if (literal) {
    if (at >= count) return false;
    out->has_literal = true;
    out->literal = words[at];
    at++;
  }
  out->length = at * 4;
  for (uint32_t i = 0; i < at && i < 4; ++i) out->words[i] = words[i];
  return true;
}

static bool rl_oracle_is_dpp(uint32_t src0) {
  return src0 == 250 || src0 == 233 || src0 == 234;
}

static bool rl_oracle_decode_scalar(const uint32_t* w, uint32_t count,
                                    rl_oracle_inst_t* out) {
  uint32_t w0 = w[0];
  uint32_t top9 = w0 >> 23;
  if (top9 == 0x17d) {  // SOP1 101111101
    out->fmt = RL_ORACLE_FMT_SOP1;
    out->opcode = (w0 >> 8) & 0xff;
    out->src[0] = w0 & 0xff;
    out->sdst = (w0 >> 16) & 0x7f;
    out->name = rl_oracle_name(RL_ISA_ENC_SOP1, out->opcode);
    return rl_oracle_tail(w, count, 4, out->src[0] == 255, false, out);
  }
  if (top9 == 0x17e) {  // SOPC
    out->fmt = RL_ORACLE_FMT_SOPC;
    out->opcode = (w0 >> 16) & 0x7f;
    out->src[0] = w0 & 0xff;
    out->src[1] = (w0 >> 8) & 0xff;
    out->name = rl_oracle_name(RL_ISA_ENC_SOPC, out->opcode);
    return rl_oracle_tail(w, count, 4,
                          out->src[0] == 255 || out->src[1] == 255, false,
                          out);
  }
  if (top9 == 0x17f) {  // SOPP
    out->fmt = RL_ORACLE_FMT_SOPP;
    out->opcode = (w0 >> 16) & 0x7f;
    out->simm16 = (int16_t)(w0 & 0xffff);
    out->name = rl_oracle_name(RL_ISA_ENC_SOPP, out->opcode);
    return rl_oracle_tail(w, count, 4, false, false, out);
  }
  if ((w0 >> 28) == 0xb) {  // SOPK 1011
    out->fmt = RL_ORACLE_FMT_SOPK;
    out->opcode = (w0 >> 23) & 0x1f;
    out->sdst = (w0 >> 16) & 0x7f;
    out->simm16 = (int16_t)(w0 & 0xffff);
    out->name = rl_oracle_name(RL_ISA_ENC_SOPK, out->opcode);
    return rl_oracle_tail(
        w, count, 4, out->name && !strcmp(out->name, "s_setreg_imm32_b32"),
        false, out);
  }
  // SOP2 10
  out->fmt = RL_ORACLE_FMT_SOP2;
  out->opcode = (w0 >> 23) & 0x7f;
  out->src[0] = w0 & 0xff;
  out->src[1] = (w0 >> 8) & 0xff;
  out->sdst = (w0 >> 16) & 0x7f;
  out->name = rl_oracle_name(RL_ISA_ENC_SOP2, out->opcode);
  return rl_oracle_tail(w, count, 4, out->src[0] == 255 || out->src[1] == 255,
                        false, out);
}

static bool rl_oracle_decode_vop(const uint32_t* w, uint32_t count,
                                 rl_oracle_inst_t* out) {
  uint32_t w0 = w[0];
  out->src[0] = w0 & 0x1ff;
  bool dpp = rl_oracle_is_dpp(out->src[0]);
  if ((w0 >> 25) == 0x3f) {  // VOP1
    out->fmt = RL_ORACLE_FMT_VOP1;
    out->opcode = (w0 >> 9) & 0xff;
    out->vdst = (w0 >> 17) & 0xff;
    out->name = rl_oracle_name(RL_ISA_ENC_VOP1, out->opcode);
  } else if ((w0 >> 25) == 0x3e) {  // VOPC
    out->fmt = RL_ORACLE_FMT_VOPC;
    out->opcode = (w0 >> 17) & 0xff;
    out->src[1] = 256 + ((w0 >> 9) & 0xff);
    out->name = rl_oracle_name(RL_ISA_ENC_VOPC, out->opcode);
  } else {  // VOP2
    out->fmt = RL_ORACLE_FMT_VOP2;
    out->opcode = (w0 >> 25) & 0x3f;
    out->src[1] = 256 + ((w0 >> 9) & 0xff);
    out->vdst = (w0 >> 17) & 0xff;
    out->name = rl_oracle_name(RL_ISA_ENC_VOP2, out->opcode);
  }
  return rl_oracle_tail(w, count, 4,
                        out->src[0] == 255 || rl_oracle_has_k(out->name), dpp,
                        out);
}

static bool rl_oracle_decode_vop3(const uint32_t* w, uint32_t count,
                                  rl_oracle_inst_t* out, bool packed) {
  if (count < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  out->vdst = w0 & 0xff;
  out->sdst = (w0 >> 8) & 0x7f;
  out->clamp = (w0 >> 15) & 1;
  out->src[0] = w1 & 0x1ff;
  out->src[1] = (w1 >> 9) & 0x1ff;
  out->src[2] = (w1 >> 18) & 0x1ff;
  out->neg = (w1 >> 29) & 7;
  if (packed) {
    out->fmt = RL_ORACLE_FMT_VOP3P;
    out->opcode = (w0 >> 16) & 0x7f;
    out->neg_hi = (w0 >> 8) & 7;
    out->opsel = (w0 >> 11) & 7;
    out->opsel_hi = ((w1 >> 27) & 3) | (((w0 >> 14) & 1) << 2);
    out->name = rl_oracle_name(RL_ISA_ENC_VOP3P, out->opcode);
  } else {
    out->fmt = RL_ORACLE_FMT_VOP3;
    out->opcode = (w0 >> 16) & 0x3ff;
    out->abs = (w0 >> 8) & 7;
    out->opsel = (w0 >> 11) & 0xf;
    out->omod = (w1 >> 27) & 3;
    out->name = rl_oracle_name(RL_ISA_ENC_VOP3, out->opcode);
  }
  bool literal = out->src[0] == 255 || out->src[1] == 255 ||
                 out->src[2] == 255;
  return rl_oracle_tail(w, count, 8, literal, rl_oracle_is_dpp(out->src[0]),
                        out);
}

static bool rl_oracle_decode_vopd(const uint32_t* w, uint32_t count,
                                  rl_oracle_inst_t* out) {
  if (count < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  out->fmt = RL_ORACLE_FMT_VOPD;
  out->src[0] = w0 & 0x1ff;
  out->src[1] = 256 + ((w0 >> 9) & 0xff);
  out->opy = (w0 >> 17) & 0x1f;
  out->opcode = (w0 >> 22) & 0xf;
  out->srcy0 = w1 & 0x1ff;
  out->vsrcy1 = 256 + ((w1 >> 9) & 0xff);
  out->vdst = (w1 >> 24) & 0xff;
  // VDSTY holds bits 7:1; bit 0 is the opposite of VDSTX's (RDNA3 ISA
  // guide, VOPD: the two destinations lie in different banks).
  out->vdsty = (((w1 >> 17) & 0x7f) << 1) | ((out->vdst & 1) ^ 1);
  out->name = rl_oracle_name(RL_ISA_ENC_VOPD, out->opcode);
  out->name_y = rl_oracle_name(RL_ISA_ENC_VOPD, out->opy);
  bool literal = out->src[0] == 255 || out->srcy0 == 255 ||
                 rl_oracle_has_k(out->name) || rl_oracle_has_k(out->name_y);
  return rl_oracle_tail(w, count, 8, literal, false, out);
}

static bool rl_oracle_decode_memory(const uint32_t* w, uint32_t count,
                                    rl_oracle_inst_t* out, uint32_t top6) {
  if (count < 2) return false;
  uint32_t w0 = w[0], w1 = w[1];
  switch (top6) {
    case 0x3d: {  // SMEM 111101
      out->fmt = RL_ORACLE_FMT_SMEM;
      out->opcode = (w0 >> 18) & 0xff;
      out->addr = (w0 & 0x3f) << 1;  // SBASE: an SGPR pair
      out->vdst = (w0 >> 6) & 0x7f;  // SDATA
      out->offset = (int32_t)(w1 << 11) >> 11;  // 21-bit signed
      out->soffset = (w1 >> 25) & 0x7f;
      out->name = rl_oracle_name(RL_ISA_ENC_SMEM, out->opcode);
      break;
    }
    case 0x36: {  // DS 110110
      out->fmt = RL_ORACLE_FMT_DS;
      out->opcode = (w0 >> 18) & 0xff;
      out->offset0 = w0 & 0xff;
      out->offset1 = (w0 >> 8) & 0xff;
      out->offset = (int32_t)(out->offset0 | out->offset1 << 8);
      out->addr = w1 & 0xff;
      out->data0 = (w1 >> 8) & 0xff;
      out->data1 = (w1 >> 16) & 0xff;
      out->vdst = (w1 >> 24) & 0xff;
      out->name = rl_oracle_name(RL_ISA_ENC_DS, out->opcode);
      break;
    }
    case 0x37: {  // FLAT/GLOBAL/SCRATCH 110111
      out->fmt = RL_ORACLE_FMT_FLAT;
      out->opcode = (w0 >> 18) & 0x7f;
      out->seg = (w0 >> 16) & 3;
      // 13-bit signed offset (GLOBAL, SCRATCH); FLAT's is 12-bit unsigned.
      out->offset = out->seg == 0 ? (int32_t)(w0 & 0xfff)
                                  : (int32_t)(w0 << 19) >> 19;
      out->addr = w1 & 0xff;
      out->data0 = (w1 >> 8) & 0xff;
      out->saddr = (w1 >> 16) & 0x7f;
      out->vdst = (w1 >> 24) & 0xff;
      uint32_t encoding = out->seg == 2   ? RL_ISA_ENC_GLOBAL
                          : out->seg == 1 ? RL_ISA_ENC_SCRATCH
                                          : RL_ISA_ENC_FLAT;
      out->name = rl_oracle_name(encoding, out->opcode);
      out->atomic_return = (w0 >> 14) & 1;  // GLC
      break;
    }
    case 0x38: {  // MUBUF 111000
      out->fmt = RL_ORACLE_FMT_MUBUF;
      out->opcode = (w0 >> 18) & 0xff;
      out->name = rl_oracle_name(RL_ISA_ENC_MUBUF, out->opcode);
      break;
    }
    default:
      out->fmt = RL_ORACLE_FMT_OTHER;
      break;
  }
  return rl_oracle_tail(w, count, 8, false, false, out);
}

bool rl_oracle_decode(const uint32_t* words, uint32_t count, bool gfx12,
                      rl_oracle_inst_t* out) {
  memset(out, 0, sizeof(*out));
  if (count == 0) return false;
  rl_oracle_tables = gfx12 ? rl_isa_name_tables_gfx12 : rl_isa_name_tables;
  uint32_t w0 = words[0];
  if (gfx12 && rl_oracle_decode_gfx12(words, count, out)) return out->length;
  if ((w0 >> 31) == 0) return rl_oracle_decode_vop(words, count, out);
  if ((w0 >> 30) == 2) return rl_oracle_decode_scalar(words, count, out);
  uint32_t top6 = w0 >> 26, top8 = w0 >> 24;
  if (top6 == 0x35) return rl_oracle_decode_vop3(words, count, out, false);
  if (top8 == 0xcc) return rl_oracle_decode_vop3(words, count, out, true);
  if (top6 == 0x32) return rl_oracle_decode_vopd(words, count, out);
  if (top8 == 0xcd || top8 == 0xce) {  // VINTERP, LDSDIR
    out->fmt = RL_ORACLE_FMT_OTHER;
    return rl_oracle_tail(words, count, top8 == 0xcd ? 8 : 4, false, false,
                          out);
  }
  return rl_oracle_decode_memory(words, count, out, top6);
}
