// sim/isa/isa_decode.c — the gfx11 decoder's front end: family
// recognition from the top bits of the first dword, source-operand decoding
// (registers, inline constants, literal), the scalar families and the names
// used in messages. Vector and memory families are in isa_decode_vector.c
// and isa_decode_memory.c. Field layouts: see isa_inst.h.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/isa/isa_decode_internal.h"
#include "sim/isa/isa_gfx12.h"
#include "sim/isa/isa_image.h"
#include "sim/isa/isa_names.h"
#include "sim/sim_executor.h"

// Inline float constants 240..248 (RDNA3 ISA guide, "Scalar/Vector source
// operands": 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi)) as
// binary32, binary64 and binary16 bit patterns.
static const uint32_t rl_isa_inline_f32[9] = {
    0x3f000000u, 0xbf000000u, 0x3f800000u, 0xbf800000u, 0x40000000u,
    0xc0000000u, 0x40800000u, 0xc0800000u, 0x3e22f983u};
static const uint64_t rl_isa_inline_f64[9] = {
    0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
    0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull};
static const uint16_t rl_isa_inline_f16[9] = {
    0x3800u, 0xb800u, 0x3c00u, 0xbc00u, 0x4000u,
    0xc000u, 0x4400u, 0xc400u, 0x3118u};

static const char* const rl_isa_encoding_names[RL_ISA_ENC_COUNT] = {
    "UNKNOWN", "SOP1",  "SOP2",   "SOPK",  "SOPC",   "SOPP",
    "SMEM",    "VOP1",  "VOP2",   "VOP3",  "VOP3P",  "VOPC",
    "VOPD",    "DS",    "FLAT",   "GLOBAL", "SCRATCH", "MUBUF",
    "MTBUF",   "MIMG",  "EXP",    "VINTERP", "LDSDIR"};

const char* rl_isa_encoding_name(uint32_t encoding) {
  return encoding < RL_ISA_ENC_COUNT ? rl_isa_encoding_names[encoding]
                                     : "UNKNOWN";
}

static bool rl_isa_type_is_64(uint32_t type) {
  return type == RL_ISA_T_B64 || type == RL_ISA_T_F64;
}

static uint64_t rl_isa_inline_float(uint32_t index, uint32_t type) {
  if (rl_isa_type_is_64(type)) return rl_isa_inline_f64[index];
  if (type == RL_ISA_T_F16 || type == RL_ISA_T_B16) {
    return rl_isa_inline_f16[index];
  }
  return rl_isa_inline_f32[index];
}

static uint64_t rl_isa_literal_value(uint32_t literal, uint32_t type) {
  if (type == RL_ISA_T_F64) return (uint64_t)literal << 32;
  return literal;  // B64: zero-extended (see isa_inst.h)
}

void rl_isa_operand_decode(uint32_t code, uint32_t type,
                           const rl_isa_inst_t* inst,
                           rl_isa_operand_t* out) {
  memset(out, 0, sizeof(*out));
  out->code = (uint16_t)code;
  if (code >= 256) {
    out->kind = RL_ISA_OPK_VGPR;
    out->reg = (uint8_t)(code - 256);
  } else if (code == RL_ISA_SRC_NULL) {
    out->kind = RL_ISA_OPK_CONST;  // reads as zero; writes are discarded
  } else if (code < 128) {
    out->kind = RL_ISA_OPK_SGPR;
    out->reg = (uint8_t)code;
  } else if (code <= 208) {
    int64_t value = code <= 192 ? (int64_t)code - 128 : 192 - (int64_t)code;
    out->kind = RL_ISA_OPK_CONST;
    out->value = rl_isa_type_is_64(type) ? (uint64_t)value
                                         : (uint32_t)(int32_t)value;
  } else if (code >= 240 && code <= 248) {
    out->kind = RL_ISA_OPK_CONST;
    out->value = rl_isa_inline_float(code - 240, type);
  } else if (code == RL_ISA_SRC_LITERAL) {
    out->kind = RL_ISA_OPK_CONST;
    out->value = rl_isa_literal_value(inst->literal, type);
  } else if (code >= 235 && code <= 238 && rl_isa_type_is_64(type)) {
    // src_shared_base/limit, src_private_base/limit: the apertures of the
    // simulated device (sim_executor.h). Only 64-bit reads are decoded:
    // LLVM reads them as 64-bit operands and takes the high half, and
    // notes the 32-bit form does not return the base (SIISelLowering,
    // getSegmentAperture), so a 32-bit use stays unmodelled.
    uint64_t base = code <= 236 ? RL_SIM_APERTURE_SHARED_BASE
                                : RL_SIM_APERTURE_PRIVATE_BASE;
    out->kind = RL_ISA_OPK_CONST;
    out->value = (code & 1) ? base : base + RL_SIM_APERTURE_SIZE - 1;
  } else if (code == 251) {
    out->kind = RL_ISA_OPK_VCCZ;
  } else if (code == 252) {
    out->kind = RL_ISA_OPK_EXECZ;
  } else if (code == 253) {
    out->kind = RL_ISA_OPK_SCC;
  } else {
    out->kind = RL_ISA_OPK_UNSUPPORTED;
  }
}

// Reads the literal dword at |index| when |needed|; false if it is beyond
// |count|.
bool rl_isa_take_literal(rl_isa_inst_t* inst, const uint32_t* words,
                         uint32_t count, uint32_t index, bool needed) {
  inst->size = (uint8_t)(index * 4);
  if (!needed) return true;
  if (index >= count) {
    inst->size = 0;
    return false;
  }
  inst->has_literal = true;
  inst->literal = words[index];
  inst->words[index] = words[index];
  inst->size = (uint8_t)(index * 4 + 4);
  return true;
}

// The source type of operand |n| of |op| (B32 for unknown opcodes).
uint32_t rl_isa_src_type(const rl_isa_op_t* op, uint32_t n) {
  return op ? op->src[n] : RL_ISA_T_B32;
}

// ---------------------------------------------------------------------------
// Scalar families.

static bool rl_isa_decode_sop2(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_SOP2, &rl_isa_table_sop2,
                   (w[0] >> 23) & 0x7f, features);
  uint32_t s0 = w[0] & 0xff, s1 = (w[0] >> 8) & 0xff;
  bool k = inst->op && (inst->op->flags & RL_ISA_F_LITERAL_K);
  if (!rl_isa_take_literal(inst, w, count, 1,
                           k || s0 == RL_ISA_SRC_LITERAL ||
                               s1 == RL_ISA_SRC_LITERAL)) {
    return false;
  }
  inst->dst = (w[0] >> 16) & 0x7f;
  rl_isa_decode_src(inst, 0, s0);
  rl_isa_decode_src(inst, 1, s1);
  if (k) {  // s_fmaak/s_fmamk: K is the literal
    rl_isa_operand_decode(RL_ISA_SRC_LITERAL, RL_ISA_T_F32, inst,
                          &inst->src[2]);
  }
  return inst->op != NULL;
}

static bool rl_isa_decode_sop1(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_SOP1, &rl_isa_table_sop1,
                   (w[0] >> 8) & 0xff, features);
  uint32_t s0 = w[0] & 0xff;
  if (!rl_isa_take_literal(inst, w, count, 1, s0 == RL_ISA_SRC_LITERAL)) {
    return false;
  }
  inst->dst = (w[0] >> 16) & 0x7f;
  rl_isa_decode_src(inst, 0, s0);
  return inst->op != NULL;
}

static bool rl_isa_decode_sopc(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_SOPC, &rl_isa_table_sopc,
                   (w[0] >> 16) & 0x7f, features);
  uint32_t s0 = w[0] & 0xff, s1 = (w[0] >> 8) & 0xff;
  if (!rl_isa_take_literal(inst, w, count, 1,
                           s0 == RL_ISA_SRC_LITERAL ||
                               s1 == RL_ISA_SRC_LITERAL)) {
    return false;
  }
  rl_isa_decode_src(inst, 0, s0);
  rl_isa_decode_src(inst, 1, s1);
  return inst->op != NULL;
}

static bool rl_isa_decode_sopp(const uint32_t* w, uint32_t features,
                               rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_SOPP, &rl_isa_table_sopp,
                   (w[0] >> 16) & 0x7f, features);
  inst->simm16 = (int16_t)(w[0] & 0xffff);
  inst->size = 4;
  return inst->op != NULL;
}

// SOPK: SDST[22:16], SIMM16[15:0]. s_setreg_imm32_b32 (0x13) carries a
// literal; it is not modelled, but its length is known.
static bool rl_isa_decode_sopk(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  rl_isa_decode_op(inst, RL_ISA_ENC_SOPK, &rl_isa_table_sopk,
                   (w[0] >> 23) & 0x1f, features);
  if (!rl_isa_take_literal(inst, w, count, 1, inst->opcode == 0x13)) {
    return false;
  }
  inst->dst = (w[0] >> 16) & 0x7f;
  inst->simm16 = (int16_t)(w[0] & 0xffff);
  rl_isa_operand_decode(inst->dst, RL_ISA_T_B32, inst, &inst->src[0]);
  return inst->op != NULL;
}

// SMEM (64 bits): SBASE[5:0] (SGPR pair / 2), SDATA[12:6], DLC[13], GLC[14],
// OP[25:18]; OFFSET[52:32] (21-bit signed), SOFFSET[63:57] (124 = none).
static bool rl_isa_decode_smem(const uint32_t* w, uint32_t count,
                               uint32_t features, rl_isa_inst_t* inst) {
  if (!rl_isa_decode_smem_common(w, count, (w[0] >> 18) & 0xff, features,
                                 inst)) {
    return false;
  }
  inst->glc_slc_dlc = (uint8_t)(((w[0] >> 14) & 1) | ((w[0] >> 12) & 2));
  inst->offset = ((int32_t)(w[1] << 11)) >> 11;
  return inst->op != NULL;
}

bool rl_isa_decode_smem_common(const uint32_t* w, uint32_t count,
                               uint32_t opcode, uint32_t features,
                               rl_isa_inst_t* inst) {
  inst->encoding = RL_ISA_ENC_SMEM;
  inst->opcode = opcode;
  if (count < 2) return false;
  inst->words[1] = w[1];
  inst->size = 8;
  inst->op = rl_isa_table_find_for(&rl_isa_table_smem, opcode, features);
  inst->addr = (uint8_t)((w[0] & 0x3f) << 1);
  inst->dst = (w[0] >> 6) & 0x7f;
  inst->saddr = (uint8_t)((w[1] >> 25) & 0x7f);
  return true;
}

// Recognised families without a model: lengths per the RDNA3 ISA guide
// ("Microcode Formats"): MTBUF/MUBUF/EXP/VINTERP are 64 bits, LDSDIR 32
// (llvm-mc-19 encodes lds_param_load in one dword); MIMG is decoded by
// isa_image.c (64 bits; NSA forms, with extra address dwords, size 0).
static bool rl_isa_decode_other(const uint32_t* w, uint32_t count,
                                rl_isa_inst_t* inst) {
  uint32_t top6 = w[0] >> 26, top8 = w[0] >> 24;
  if (top8 == 0xcd) inst->encoding = RL_ISA_ENC_VINTERP;
  else if (top8 == 0xce) inst->encoding = RL_ISA_ENC_LDSDIR;
  else if (top6 == 0x3a) inst->encoding = RL_ISA_ENC_MTBUF;
  else if (top6 == 0x3e) inst->encoding = RL_ISA_ENC_EXP;
  else if (top6 == 0x3c) return rl_isa_decode_mimg(w, count, 0, inst);
  else return false;
  // Opcode fields (LLVM MIMGInstructions.td, BUFInstructions.td,
  // VINTERPInstructions.td, LDSDIRInstructions.td, gfx11): MIMG OP[25:18],
  // MTBUF OP[18:15], VINTERP OP[22:16], LDSDIR OP[21:20].
  if (inst->encoding == RL_ISA_ENC_MTBUF) inst->opcode = (w[0] >> 15) & 0xf;
  else if (inst->encoding == RL_ISA_ENC_VINTERP) inst->opcode = (w[0] >> 16) & 0x7f;
  else if (inst->encoding == RL_ISA_ENC_LDSDIR) inst->opcode = (w[0] >> 20) & 3;
  if (inst->encoding == RL_ISA_ENC_LDSDIR) {  // 32 bits (llvm-mc-19)
    inst->size = 4;
  } else if (count >= 2) {
    inst->words[1] = w[1];
    inst->size = 8;
  }
  return false;
}

bool rl_isa_decode(const uint32_t* words, uint32_t count, uint32_t features,
                   rl_isa_inst_t* out_inst) {
  rl_isa_inst_t* inst = out_inst;
  memset(inst, 0, sizeof(*inst));
  inst->target = -1;
  if (count == 0) return false;
  const uint32_t w0 = words[0];
  inst->words[0] = w0;
  inst->gfx12 = (features & RL_ISA_FEATURE_GFX12) != 0;
  bool known = false;
  if (inst->gfx12 && rl_isa_decode_gfx12(words, count, features, inst, &known)) {
    // a family whose gfx12 layout differs (isa_decode_gfx12.c)
  } else if ((w0 >> 23) == 0x17d) known = rl_isa_decode_sop1(words, count, features, inst);
  else if ((w0 >> 23) == 0x17e) known = rl_isa_decode_sopc(words, count, features, inst);
  else if ((w0 >> 23) == 0x17f) known = rl_isa_decode_sopp(words, features, inst);
  else if ((w0 >> 28) == 0xb) known = rl_isa_decode_sopk(words, count, features, inst);
  else if ((w0 >> 30) == 0x2) known = rl_isa_decode_sop2(words, count, features, inst);
  else if ((w0 >> 26) == 0x3d) known = rl_isa_decode_smem(words, count, features, inst);
  else if ((w0 >> 31) == 0 || (w0 >> 26) == 0x35 || (w0 >> 24) == 0xcc ||
           (w0 >> 26) == 0x32) {
    known = rl_isa_decode_vector(words, count, features, inst);
  } else if ((w0 >> 26) == 0x36 || (w0 >> 26) == 0x37 || (w0 >> 26) == 0x38) {
    known = rl_isa_decode_memory(words, count, features, inst);
  } else {
    known = rl_isa_decode_other(words, count, inst);
  }
  if (inst->size == 0) known = false;
  if (!known) inst->op = NULL;
  inst->exec = inst->op ? inst->op->exec : NULL;
  return known;
}

// ---------------------------------------------------------------------------
// Tables and names.

const rl_isa_op_t* rl_isa_table_find(const rl_isa_table_t* table,
                                     uint32_t opcode) {
  for (; table; table = table->next) {
    uint32_t lo = 0, hi = table->count;
    while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (table->ops[mid].opcode == opcode) return &table->ops[mid];
      if (table->ops[mid].opcode < opcode) lo = mid + 1;
      else hi = mid;
    }
  }
  return NULL;
}

const rl_isa_op_t* rl_isa_table_find_for(const rl_isa_table_t* table,
                                         uint32_t opcode, uint32_t features) {
  if (features & RL_ISA_FEATURE_GFX12) table = rl_isa_gfx12_table(table);
  const rl_isa_op_t* op = rl_isa_table_find(table, opcode);
  if (op && (op->flags & RL_ISA_F_SALU_FLOAT) &&
      !(features & RL_ISA_FEATURE_SALU_FLOAT)) {
    return NULL;
  }
  return op;
}

const char* rl_isa_opcode_name(uint32_t encoding, uint32_t opcode) {
  return rl_isa_opcode_name_in(rl_isa_name_tables, encoding, opcode);
}

const char* rl_isa_opcode_name_in(const rl_isa_name_table_t* tables,
                                  uint32_t encoding, uint32_t opcode) {
  if (encoding >= RL_ISA_ENC_COUNT) return NULL;
  const rl_isa_name_table_t* table = &tables[encoding];
  uint32_t lo = 0, hi = table->count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (table->names[mid].opcode == opcode) return table->names[mid].name;
    if (table->names[mid].opcode < opcode) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

// The executor's own table names what it models; the generated name tables
// name everything else (an encoding the decoder recognised, an opcode it
// does not model, a form it refuses).
const char* rl_isa_inst_name(const rl_isa_inst_t* inst) {
  if (inst->op) return inst->op->name;
  if (inst->encoding == RL_ISA_ENC_EXP) return "exp";
  const char* name = rl_isa_opcode_name_in(
      inst->gfx12 ? rl_isa_name_tables_gfx12 : rl_isa_name_tables,
      inst->encoding, inst->opcode);
  return name ? name : "UNKNOWN";
}

void rl_isa_inst_describe(const rl_isa_inst_t* inst, char* buffer,
                          uint32_t capacity) {
  char raw[40] = "";
  uint32_t dwords = inst->size ? inst->size / 4u : 1u;
  int used = 0;
  for (uint32_t i = 0; i < dwords && i < 3; ++i) {
    used += snprintf(raw + used, sizeof(raw) - (size_t)used, "%s%08" PRIx32,
                     i ? " " : "", inst->words[i]);
  }
  if (inst->encoding == RL_ISA_ENC_VOPD) {
    snprintf(buffer, capacity,
             "%s (VOPD opcodes X 0x%x, Y 0x%x) at PC +0x%x [%s]",
             rl_isa_inst_name(inst), inst->opcode, inst->opcode_y, inst->pc,
             raw);
    return;
  }
  snprintf(buffer, capacity, "%s (%s opcode 0x%x) at PC +0x%x [%s]",
           rl_isa_inst_name(inst), rl_isa_encoding_name(inst->encoding),
           inst->opcode, inst->pc, raw);
}
