// tests/isa_conformance/isa_conf_alu.c — the table-driven ALU cases: every
// VOP1/VOP2/VOP3/VOPC/VOP3P and SOP1/SOP2/SOPK/SOPC opcode the host model
// describes, run on thousands of lanes per form and mode and compared
// lane by lane with sim/oracle/oracle_model.c.
//
// VALU layout. Input record per lane (10 dwords): src0 lo/hi, src1 lo/hi,
// src2 lo/hi, active flag, carry-in bit, old destination lo/hi, loaded into
// v1..v8, v13, v14. Each form is one block: v[10:11] = old, s30 = the
// carry-in mask (also copied to VCC), EXEC = the active lanes (v_cmpx),
// the instruction, the mask it wrote (SGPR s32, VCC, or EXEC) turned into a
// 0/1 lane value in v12; the block stores v10, v11, v12. Inactive lanes
// must keep the old destination and read 0 in every mask.
//
// SALU layout. Input record per lane (8 dwords): src0 lo/hi, src1 lo/hi,
// SCC in, old destination lo/hi. Every wave runs the instruction 32 times,
// once per lane's operands: v_readlane into s20.., SCC set from the lane
// (s_cmp_lg_u32), the instruction into s[26:27], SCC read with src_scc,
// v_writelane back into v10..v12. SOPK immediates and SALU literals vary
// per unrolled copy.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tests/isa_conformance/isa_conf_suite.h"
#include "sim/oracle/oracle_model.h"
#include "sim/oracle/oracle_mods.h"

#define RL_CONF_VALU_LANES 2048u
#define RL_CONF_SALU_LANES 2048u
#define RL_CONF_MAX_FORMS 10u

// Known failures: cases that fail on the executor today, with the reason.
// They run and are reported, but do not fail the test; remove an entry when
// its fix lands (an unexpected pass is reported loudly).
static const struct {
  const char* name;
  const char* reason;
} rl_conf_xfail[] = {
    {NULL, NULL},  // none today (v_ldexp_f32, s_min_f32, s_max_f32 fixed)
};

const char* rl_conf_xfail_reason(const char* name);
const char* rl_conf_xfail_reason(const char* name) {
  for (size_t i = 0; i < sizeof(rl_conf_xfail) / sizeof(rl_conf_xfail[0]);
       ++i) {
    if (rl_conf_xfail[i].name && !strcmp(rl_conf_xfail[i].name, name)) {
      return rl_conf_xfail[i].reason;
    }
  }
  return NULL;
}

// ---------------------------------------------------------------------------
// Operand generation.

static const uint32_t rl_conf_f32_special[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu,
    0x807fffffu, 0x00800000u, 0x80800000u, 0x3f800000u, 0xbf800000u,
    0x3f000000u, 0x3fc00000u, 0xc0200000u, 0x7f7fffffu, 0xff7fffffu,
    0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u,
    0x7fa00000u, 0x40490fdbu, 0x4f000000u, 0xcf000000u, 0x4f800000u,
    0x3f7fffffu, 0x00000200u, 0x4b000001u};
static const uint64_t rl_conf_f64_special[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
    0x800fffffffffffffull, 0x0010000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x3fe0000000000000ull, 0x7fefffffffffffffull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
    0x7ff0000000000001ull, 0xfff8000000000123ull, 0x400921fb54442d18ull,
    0x36a0000000000000ull, 0x47efffffe0000000ull, 0x3ff0000000000001ull};
static const uint64_t rl_conf_int_special[] = {
    0, 1, 2, 0x7fffffff, 0x80000000u, 0xffffffffu, 0xfffffffeu, 0xffff,
    0x10000, 0x7fff, 0x8000, 31, 32, 33, 63, 64, 0xff, 0x100, 0xffffff,
    0x1000000, 0x55555555u, 0xaaaaaaaau, 0xffffffffffffffffull,
    0x8000000000000000ull, 0x7fffffffffffffffull, 0x100000000ull};
static const uint64_t rl_conf_f16_special[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x8400, 0x3c00, 0xbc00,
    0x3800, 0x3e00, 0x4000, 0xc100, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
    0xfe01, 0x7c01, 0x7d00, 0x4248, 0x3bff, 0x0200, 0x5bff, 0xdc00};
#define RL_CONF_COUNT(a) (uint32_t)(sizeof(a) / sizeof(a[0]))

static uint64_t rl_conf_special(uint32_t kind, uint32_t i) {
  if (kind == 3) return rl_conf_f16_special[i % RL_CONF_COUNT(rl_conf_f16_special)];
  if (kind == 0) return rl_conf_f32_special[i % RL_CONF_COUNT(rl_conf_f32_special)];
  if (kind == 1) return rl_conf_f64_special[i % RL_CONF_COUNT(rl_conf_f64_special)];
  return rl_conf_int_special[i % RL_CONF_COUNT(rl_conf_int_special)];
}
static uint32_t rl_conf_special_count(uint32_t kind) {
  return kind == 3   ? RL_CONF_COUNT(rl_conf_f16_special)
         : kind == 0 ? RL_CONF_COUNT(rl_conf_f32_special)
         : kind == 1 ? RL_CONF_COUNT(rl_conf_f64_special)
                     : RL_CONF_COUNT(rl_conf_int_special);
}

// Operand kind of source |n|: 0 binary32, 1 binary64, 2 integer, 3
// binary16.
static uint32_t rl_conf_kind(const rl_hm_op_t* hm, uint32_t n) {
  if (hm->wide & RL_HM_H16_SRC(n)) return 3;
  if ((hm->fp >> n) & 1) return (hm->wide >> n) & 1 ? 1 : 0;
  return 2;
}

static uint64_t rl_conf_random_operand(rl_conf_rng_t* rng, uint32_t kind) {
  uint64_t r = rl_conf_rng_next(rng);
  switch (r % 4) {
    case 0: return rl_conf_special(kind, (uint32_t)(r >> 8));
    case 1: {  // a "nice" value: a modest float or a small integer
      uint64_t sign = (r >> 7) & 1, mant = r >> 20;
      if (kind == 0) {
        return sign << 31 | (uint64_t)(100 + (r >> 9) % 56) << 23 |
               (mant & 0x7fffff);
      }
      if (kind == 3) {  // the high half random: it must be ignored
        return (r & 0xffff0000u) | sign << 15 |
               (uint64_t)(8 + (r >> 9) % 16) << 10 | (mant & 0x3ff);
      }
      if (kind == 1) {
        return sign << 63 | (uint64_t)(1000 + (r >> 9) % 48) << 52 |
               (mant & 0xfffffffffffffull);
      }
      return (r >> 9) % 70;
    }
    default: return rl_conf_rng_next(rng);
  }
}

// Lane |lane|'s source |n|: the first lanes walk the cross product of the
// special values, the rest are random.
static uint64_t rl_conf_operand(rl_conf_rng_t* rng, const rl_hm_op_t* hm,
                                uint32_t n, uint32_t lane) {
  uint32_t kind = rl_conf_kind(hm, n), count = rl_conf_special_count(kind);
  uint32_t span = count * count;
  uint64_t v;
  if (lane < span && n < 2) {
    v = rl_conf_special(kind, n == 0 ? lane % count : lane / count);
  } else {
    v = rl_conf_random_operand(rng, kind);
  }
  if (!((hm->wide >> n) & 1)) v = (uint32_t)v;
  // Bit-field extracts: keep the width field in the defined range.
  if (n == 1 && !strncmp(hm->name, "s_bfe_", 6)) {
    uint32_t max = strstr(hm->name, "64") ? 64 : 32;
    v = (v & 0xffff003fu) & ~0x7f0000ull;
    v |= (uint64_t)(rl_conf_rng_next(rng) % (max + 1)) << 16;
  }
  return v;
}

// ---------------------------------------------------------------------------
// VALU.

typedef struct rl_conf_form_s {
  uint32_t encoding;     // RL_ISA_ENC_* of the form
  uint32_t abs, neg;
  bool clamp;
  bool literal_src0;     // src0 is a literal (K per program)
  bool inline_src1;      // src1 is an inline constant
  rl_conf_mods_t mods;   // VOP3P op_sel
  uint32_t omod;         // VOP3 OMOD
  uint32_t opsel;        // VOP3 OP_SEL (bit 3: the destination)
  rl_conf_dpp_t dpp;     // VOP1/VOP2 DPP16/DPP8 (kind 0: none)
} rl_conf_form_t;

// The inline constant of source 1 in the inline form: -1 for integers,
// 2.0 for floats, as the operand's type reads it.
static uint32_t rl_conf_inline_code(const rl_hm_op_t* hm) {
  return (hm->fp >> 1) & 1 ? 244u : 193u;
}
static uint64_t rl_conf_inline_value(const rl_hm_op_t* hm) {
  bool wide = (hm->wide >> 1) & 1;
  if ((hm->fp >> 1) & 1 && (hm->wide & RL_HM_H16_SRC(1))) return 0x4000u;
  if ((hm->fp >> 1) & 1) return wide ? 0x4000000000000000ull : 0x40000000u;
  return wide ? ~0ull : 0xffffffffu;
}
static uint64_t rl_conf_literal_value(const rl_hm_op_t* hm, uint32_t k) {
  if (hm->wide & 1) return (hm->fp & 1) ? (uint64_t)k << 32 : k;
  return k;
}

static void rl_conf_emit_valu(rl_conf_program_t* p, const rl_isa_op_t* op,
                              uint32_t encoding, const rl_hm_op_t* hm,
                              const rl_conf_form_t* f, uint32_t k) {
  uint32_t src0 = f->literal_src0 ? RL_CONF_LITERAL : RL_CONF_V(1);
  bool lit = f->literal_src0 || (hm->flags & RL_HM_K);
  uint32_t literal = f->literal_src0 ? k : k;
  if (f->dpp.kind && f->encoding != RL_ISA_ENC_VOP3) {  // the DPP dword
                                                          // in the literal slot
    uint32_t marker = rl_conf_dpp_marker(&f->dpp);
    uint32_t word = rl_conf_dpp_word(&f->dpp, 1);
    if (f->encoding == RL_ISA_ENC_VOP2) {
      rl_conf_vop2(p, op->opcode, 10, marker, 3, true, word);
    } else if (f->encoding == RL_ISA_ENC_VOPC) {
      rl_conf_vopc(p, op->opcode, marker, 3, true, word);
    } else {
      rl_conf_vop1(p, op->opcode, 10, marker, true, word);
    }
  } else if (f->encoding == RL_ISA_ENC_VOP2) {
    rl_conf_vop2(p, op->opcode, 10, src0, 3, lit, literal);
  } else if (f->encoding == RL_ISA_ENC_VOP1) {
    rl_conf_vop1(p, op->opcode, 10, src0, lit, literal);
  } else if (f->encoding == RL_ISA_ENC_VOPC) {
    rl_conf_vopc(p, op->opcode, src0, 3, lit, literal);
  } else if (f->encoding == RL_ISA_ENC_VOP3P) {
    uint32_t src[3] = {RL_CONF_V(1), RL_CONF_V(3), 0};
    rl_conf_vop3p(p, op->opcode, 10, src, &f->mods);
  } else {
    uint32_t opc = op->opcode;
    if (encoding == RL_ISA_ENC_VOP2) opc += 0x100;
    if (encoding == RL_ISA_ENC_VOP1) opc += 0x180;
    uint32_t src[3] = {src0, RL_CONF_V(3), RL_CONF_V(5)};
    if (hm->nsrc < 2) src[1] = 0;
    if (hm->nsrc < 3 || (hm->flags & RL_HM_ACC)) src[2] = 0;
    if (hm->flags & RL_HM_CIN) src[2] = 30;  // the carry-in mask
    if (f->inline_src1) src[1] = rl_conf_inline_code(hm);
    uint32_t vdst = 10, sdst = 0;
    bool vop3b = (hm->flags & RL_HM_COUT) && !(hm->flags & RL_HM_CMP);
    if (hm->flags & RL_HM_CMP) vdst = (hm->flags & RL_HM_CMPX) ? 126 : 32;
    if (vop3b) sdst = 32;
    rl_conf_mods_t mods = {.abs = (uint8_t)f->abs, .neg = (uint8_t)f->neg,
                           .clamp = f->clamp, .omod = (uint8_t)f->omod,
                           .opsel = (uint8_t)f->opsel};
    if (f->dpp.kind) {
      src[0] = rl_conf_dpp_marker(&f->dpp);
      rl_conf_vop3(p, opc, vdst, sdst, src, &mods, true,
                   rl_conf_dpp_word(&f->dpp, 1));
    } else {
      rl_conf_vop3(p, opc, vdst, sdst, src, &mods, f->literal_src0, literal);
    }
  }
}

// The SGPR holding the mask the form writes (0: none, read as s32 = 0).
static uint32_t rl_conf_mask_sgpr(const rl_hm_op_t* hm,
                                  const rl_conf_form_t* f) {
  if (hm->flags & RL_HM_CMPX) return 33;  // EXEC copied into s33
  bool e32 = f->encoding == RL_ISA_ENC_VOP2 || f->encoding == RL_ISA_ENC_VOPC;
  if ((hm->flags & (RL_HM_COUT | RL_HM_CMP)) && e32) return RL_CONF_VCC;
  return 32;
}

static void rl_conf_valu_block(rl_conf_program_t* p, const rl_isa_op_t* op,
                               uint32_t encoding, const rl_hm_op_t* hm,
                               const rl_conf_form_t* f, uint32_t k,
                               uint32_t index) {
  rl_conf_vop1(p, RL_CONF_VOP1_MOV_B32, 10, RL_CONF_V(13), false, 0);
  rl_conf_vop1(p, RL_CONF_VOP1_MOV_B32, 11, RL_CONF_V(14), false, 0);
  uint32_t cmp[3] = {128, RL_CONF_V(8), 0};
  rl_conf_vop3(p, RL_CONF_VOP3_CMP_NE_U32, 30, 0, cmp, NULL, false, 0);
  rl_conf_sop1(p, RL_CONF_SOP1_MOV_B32, RL_CONF_VCC, 30, false, 0);
  rl_conf_sop1(p, RL_CONF_SOP1_MOV_B32, 32, 128, false, 0);
  rl_conf_vopc(p, RL_CONF_VOPC_CMPX_NE_U32, 128, 7, false, 0);
  rl_conf_emit_valu(p, op, encoding, hm, f, k);
  rl_conf_sop1(p, RL_CONF_SOP1_MOV_B32, 33, RL_CONF_EXEC, false, 0);
  rl_conf_sop1(p, RL_CONF_SOP1_MOV_B32, RL_CONF_EXEC, 193, false, 0);
  uint32_t sel[3] = {128, 129, rl_conf_mask_sgpr(hm, f)};
  rl_conf_vop3(p, RL_CONF_VOP3_CNDMASK_B32, 12, 0, sel, NULL, false, 0);
  rl_conf_store(p, 10, index * 12 + 0);
  rl_conf_store(p, 11, index * 12 + 4);
  rl_conf_store(p, 12, index * 12 + 8);
}

// The forms with OMOD, OP_SEL and DPP (sim/oracle/oracle_mods.h), chosen from the
// model's operand shape: OMOD on binary32 results; OP_SEL on binary16
// register sources and results; DPP16 (random control, masks, BOUND_CTRL,
// FI, NEG/ABS on float sources) and DPP8 (random selects, FI) on the
// VOP1/VOP2 opcodes with a plain 32-bit source 0 and vector result, and on
// the compares with a 32-bit source 0.
static uint32_t rl_conf_modifier_forms(const rl_isa_op_t* op,
                                       uint32_t encoding,
                                       const rl_hm_op_t* hm,
                                       rl_conf_rng_t* rng,
                                       rl_conf_form_t* forms) {
  uint32_t n = 0;
  bool has_e64 = !(op->flags & RL_ISA_F_NO_VOP3);
  bool cmp = (hm->flags & RL_HM_CMP) != 0;
  bool dst32 = !((hm->wide >> RL_HM_DST_BIT) & 1);
  uint32_t fpmask = hm->fp & 7u;
  if (hm->flags & RL_HM_ACC) fpmask &= 3u;
  if (has_e64 && !cmp && dst32 && ((hm->fp >> RL_HM_DST_BIT) & 1)) {
    uint64_t r = rl_conf_rng_next(rng);
    forms[n++] = (rl_conf_form_t){.encoding = RL_ISA_ENC_VOP3,
                                  .omod = 1 + (uint32_t)(r % 3),
                                  .neg = (uint32_t)(r >> 4) & fpmask,
                                  .clamp = (r >> 8) & 1};
  }
  uint32_t opsel_ok = 0;
  for (uint32_t s = 0; s < hm->nsrc && s < 3; ++s) {
    if (s == 2 && (hm->flags & (RL_HM_ACC | RL_HM_CIN | RL_HM_K))) break;
    if (hm->wide & RL_HM_H16_SRC(s)) opsel_ok |= 1u << s;
  }
  if (!cmp && (hm->wide & RL_HM_H16_DST) && !(hm->flags & RL_HM_ACC) &&
      op->dst == RL_ISA_T_F16) {
    opsel_ok |= 8;
  }
  if (has_e64 && opsel_ok) {
    // Every eligible half at once (so each is covered), random NEG.
    uint64_t r = rl_conf_rng_next(rng);
    forms[n++] = (rl_conf_form_t){.encoding = RL_ISA_ENC_VOP3,
                                  .opsel = opsel_ok,
                                  .neg = (uint32_t)(r >> 8) & fpmask};
  }
  // Compares take DPP too (VOPC and VOP3): their mask bit is the lane's
  // result where DPP lets the lane write, 0 elsewhere (rl_conf_valu_expect).
  uint32_t no_dpp = cmp ? (RL_HM_K | RL_HM_ACC)
                        : (RL_HM_CMP | RL_HM_COUT | RL_HM_K | RL_HM_ACC);
  bool dpp_ok = (encoding == RL_ISA_ENC_VOP1 || encoding == RL_ISA_ENC_VOP2 ||
                 encoding == RL_ISA_ENC_VOPC) &&
                !(hm->flags & no_dpp) &&
                !(hm->wide & 1) && dst32 && hm->nsrc >= 1;
  if (dpp_ok) {
    uint64_t r = rl_conf_rng_next(rng);
    rl_conf_dpp_t d16 = {.kind = 16, .ctrl = (uint16_t)rl_hm_dpp16_ctrl_pick(r),
                         .row_mask = (uint8_t)((r >> 32) & 0xf),
                         .bank_mask = (uint8_t)((r >> 36) & 0xf),
                         .bound_ctrl = (r >> 40) & 1, .fi = (r >> 41) & 1,
                         .neg = (uint8_t)((r >> 42) & fpmask & 3u),
                         .abs = (uint8_t)((r >> 45) & fpmask & 3u)};
    // Most lanes enabled: every row and bank set half the time.
    if ((r >> 48) & 1) d16.row_mask = 0xf, d16.bank_mask = 0xf;
    forms[n++] = (rl_conf_form_t){.encoding = encoding, .dpp = d16};
    uint64_t q = rl_conf_rng_next(rng);
    rl_conf_dpp_t d8 = {.kind = 8, .sel = (uint32_t)q & 0xffffff,
                        .fi = (q >> 30) & 1};
    forms[n++] = (rl_conf_form_t){.encoding = encoding, .dpp = d8};
  }
  // LLVM has no e64_dpp form of the 32-bit multiplies (llvm-mc-19:
  // "e64_dpp variant of this instruction is not supported").
  static const char* const no_vop3_dpp[] = {"v_mul_lo_u32", "v_mul_hi_u32",
                                            "v_mul_hi_i32"};
  bool listed = false;
  for (uint32_t i = 0; i < 3; ++i) listed |= !strcmp(hm->name, no_vop3_dpp[i]);
  bool dpp3_ok = has_e64 && !listed &&
                 !(hm->flags & no_dpp) &&
                 !(hm->wide & 1) && dst32 && hm->nsrc >= 1;
  if (dpp3_ok) {  // VOP3 DPP16: the VOP3 fields carry ABS/NEG
    uint64_t r = rl_conf_rng_next(rng);
    rl_conf_dpp_t d16 = {.kind = 16, .ctrl = (uint16_t)rl_hm_dpp16_ctrl_pick(r),
                         .row_mask = 0xf, .bank_mask = (uint8_t)((r >> 36) & 0xf),
                         .bound_ctrl = (r >> 40) & 1, .fi = (r >> 41) & 1};
    forms[n++] = (rl_conf_form_t){.encoding = RL_ISA_ENC_VOP3, .dpp = d16,
                                  .abs = (uint32_t)(r >> 42) & fpmask,
                                  .neg = (uint32_t)(r >> 45) & fpmask};
  }
  return n;
}

// The forms of |op|: its own encoding, the VOP3 (e64) form with modifier
// sets, a literal and an inline-constant form.
static uint32_t rl_conf_valu_forms(const rl_isa_op_t* op, uint32_t encoding,
                                   const rl_hm_op_t* hm, rl_conf_rng_t* rng,
                                   rl_conf_form_t* forms) {
  uint32_t n = 0;
  forms[n++] = (rl_conf_form_t){.encoding = encoding};
  if (encoding == RL_ISA_ENC_VOP3P) {
    for (uint32_t i = 0; i < 3; ++i) {
      uint64_t r = rl_conf_rng_next(rng);
      forms[n++] = (rl_conf_form_t){.encoding = encoding,
                                    .mods = {.opsel = (uint8_t)(r & 3),
                                             .opsel_hi = (uint8_t)(4 | ((r >> 2) & 3))}};
    }
    forms[0].mods.opsel_hi = 7;  // the assembler's default op_sel_hi
    return n;
  }
  bool has_e64 = !(op->flags & RL_ISA_F_NO_VOP3);
  uint32_t fpmask = hm->fp & 7u;
  if (hm->flags & RL_HM_ACC) fpmask &= 3u;
  bool clamp = (hm->fp >> RL_HM_DST_BIT) & 1;
  if (encoding != RL_ISA_ENC_VOP3 && has_e64) {
    forms[n++] = (rl_conf_form_t){.encoding = RL_ISA_ENC_VOP3};
  }
  if (has_e64 && (fpmask || clamp)) {
    for (uint32_t i = 0; i < 2; ++i) {
      uint64_t r = rl_conf_rng_next(rng);
      forms[n++] = (rl_conf_form_t){.encoding = RL_ISA_ENC_VOP3,
                                    .abs = (uint32_t)r & fpmask,
                                    .neg = (uint32_t)(r >> 3) & fpmask,
                                    .clamp = clamp && i == 0};
    }
  }
  if (has_e64 && (hm->flags & RL_HM_ICLAMP)) {  // integer saturation
    forms[n++] = (rl_conf_form_t){.encoding = RL_ISA_ENC_VOP3, .clamp = true};
  }
  if (!(hm->flags & (RL_HM_K | RL_HM_NO_INLINE)) && hm->nsrc >= 1) {
    forms[n++] = (rl_conf_form_t){.encoding = encoding, .literal_src0 = true};
  }
  if (has_e64 && hm->nsrc >= 2 &&
      !(hm->flags & (RL_HM_CIN | RL_HM_NO_INLINE))) {
    forms[n++] = (rl_conf_form_t){.encoding = RL_ISA_ENC_VOP3,
                                  .inline_src1 = true};
  }
  n += rl_conf_modifier_forms(op, encoding, hm, rng, forms + n);
  return n;
}

// The model's value for one lane and form.
static uint32_t rl_conf_swap16(uint64_t v) {
  return (uint32_t)v >> 16 | (uint32_t)v << 16;
}

// DPP: source 0 of |lane| read across its wave (|all| is every lane's input
// record); false when the lane must not write.
static bool rl_conf_dpp_source(const rl_conf_form_t* f, const uint32_t* all,
                               uint32_t lane, uint64_t* out_src0) {
  uint32_t wave = lane & ~31u, exec = 0;
  for (uint32_t l = 0; l < 32; ++l) exec |= (uint32_t)(all[(wave + l) * 10 + 6] != 0) << l;
  rl_hm_dpp_t d = {.kind = f->dpp.kind, .ctrl = f->dpp.ctrl,
                   .row_mask = f->dpp.row_mask, .bank_mask = f->dpp.bank_mask,
                   .bound_ctrl = f->dpp.bound_ctrl, .fi = f->dpp.fi,
                   .sel = f->dpp.sel};
  bool writes = false, read = false;
  uint32_t from = 0;
  rl_hm_dpp_lane(&d, exec, lane % 32, &writes, &read, &from);
  *out_src0 = read ? all[(wave + from) * 10] : 0;
  return writes;
}

static void rl_conf_valu_expect(const rl_hm_op_t* hm, uint32_t mode,
                                const rl_conf_form_t* f, const uint32_t* all,
                                uint32_t lane, uint32_t k, uint64_t* out_d,
                                uint32_t* out_mask, uint64_t* out_alt) {
  const uint32_t* in = all + lane * 10;
  rl_hm_lane_t x = {0};
  for (uint32_t n = 0; n < 3; ++n) {
    x.s[n] = in[2 * n] | (uint64_t)in[2 * n + 1] << 32;
  }
  bool dpp_writes = true;
  uint32_t abs = f->abs, neg = f->neg;
  if (f->dpp.kind) {
    dpp_writes = rl_conf_dpp_source(f, all, lane, &x.s[0]);
    if (f->encoding != RL_ISA_ENC_VOP3) abs = f->dpp.abs, neg = f->dpp.neg;
  }
  for (uint32_t n = 0; n < 3; ++n) {  // OP_SEL: the high half
    if ((f->opsel >> n) & 1) x.s[n] = (x.s[n] >> 16) & 0xffff;
  }
  if (f->literal_src0) x.s[0] = rl_conf_literal_value(hm, k);
  if (f->inline_src1) x.s[1] = rl_conf_inline_value(hm);
  if (hm->flags & RL_HM_K) x.s[2] = k;
  x.cin = in[7] & 1;
  x.lane = lane % 32;
  uint64_t old = in[8] | (uint64_t)in[9] << 32;
  x.d = old;
  bool active = in[6] != 0 && dpp_writes;
  if (hm->flags & RL_HM_PACKED) {
    uint32_t a = (uint32_t)x.s[0], b = (uint32_t)x.s[1];
    uint32_t lo = rl_hm_packed(hm, mode, f->mods.opsel & 1 ? a >> 16 : a,
                               f->mods.opsel & 2 ? b >> 16 : b);
    uint32_t hi = rl_hm_packed(hm, mode, f->mods.opsel_hi & 1 ? a >> 16 : a,
                               f->mods.opsel_hi & 2 ? b >> 16 : b);
    x.d = (old & ~0xffffffffull) | lo | hi << 16;
  } else {
    rl_hm_lane_t y = x;
    rl_hm_eval_omod(hm, mode, abs, neg, f->clamp, f->omod, false, &x);
    // Transcendentals of a denormal input in keep mode: the input may be
    // flushed (the hardware is specified to about 1 ulp only).
    *out_alt = x.d;
    if ((hm->flags & RL_HM_TRANS) && f->omod && !(mode & RL_HM_MODE_IEEE)) {
      // OMOD scales a result the 1-ulp rule may have flushed.
      rl_hm_eval_omod(hm, mode, abs, neg, f->clamp, f->omod, true, &y);
      *out_alt = y.d;
    } else if (hm->flags & RL_HM_TRANS) {
      rl_hm_eval_omod(hm, mode | RL_HM_MODE_FTZ32, abs, neg, f->clamp,
                      f->omod, false, &y);
      *out_alt = y.d;
    }
    if (f->opsel & 8) {  // the 16-bit result to the high half
      x.d = (old & 0xffffull) | ((x.d & 0xffffull) << 16);
      *out_alt = (old & 0xffffull) | ((*out_alt & 0xffffull) << 16);
    }
  }
  if (!(hm->wide >> RL_HM_DST_BIT & 1) && !(hm->flags & RL_HM_PACKED)) {
    x.d = (x.d & 0xffffffffull) | (old & ~0xffffffffull);
  }
  if (hm->flags & RL_HM_CMP) x.d = old;
  *out_d = active ? x.d : old;
  *out_mask = active && (hm->flags & (RL_HM_COUT | RL_HM_CMP)) ? x.cout & 1 : 0;
  if (hm->flags & RL_HM_PACKED) *out_alt = *out_d;
  if (!active) *out_alt = old;
}

static void rl_conf_valu_fill(rl_conf_device_t* device, const rl_hm_op_t* hm,
                              rl_conf_rng_t* rng) {
  uint32_t* in = (uint32_t*)rl_conf_in(device);
  for (uint32_t lane = 0; lane < RL_CONF_VALU_LANES; ++lane) {
    uint32_t* r = in + lane * 10;
    for (uint32_t n = 0; n < 3; ++n) {
      uint64_t v = rl_conf_operand(rng, hm, n, lane);
      r[2 * n] = (uint32_t)v;
      r[2 * n + 1] = (uint32_t)(v >> 32);
    }
    uint64_t bits = rl_conf_rng_next(rng);
    r[6] = (bits & 7) != 0;  // seven lanes in eight active
    r[7] = (bits >> 3) & 1;
    r[8] = (uint32_t)(bits >> 16);
    r[9] = (uint32_t)rl_conf_rng_next(rng);
    if (hm->flags & RL_HM_ACC) r[8] = r[4], r[9] = r[5];
  }
}

static bool rl_conf_valu(rl_conf_device_t* device, const rl_isa_op_t* op,
                         uint32_t encoding, const rl_hm_op_t* hm,
                         rl_conf_result_t* result) {
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  rl_conf_form_t forms[RL_CONF_MAX_FORMS + 2];
  uint32_t nforms = rl_conf_valu_forms(op, encoding, hm, &rng, forms);
  if (rl_conf_gfx12) {  // gfx12 refuses float CLAMP and OMOD (isa_gfx12.h)
    uint32_t kept = 0;
    for (uint32_t i = 0; i < nforms; ++i) {
      bool float_clamp = forms[i].clamp && !(hm->flags & RL_HM_ICLAMP);
      if (float_clamp || forms[i].omod) continue;
      forms[kept++] = forms[i];
    }
    nforms = kept;
  }
  for (uint32_t i = 0; i < nforms; ++i) {
    if (forms[i].omod) result->mod_forms |= RL_CONF_MOD_OMOD;
    result->mod_forms |= (forms[i].opsel & 7u) * RL_CONF_MOD_OPSEL_SRC0;
    if (forms[i].opsel & 8) result->mod_forms |= RL_CONF_MOD_OPSEL_DST;
    if (forms[i].dpp.kind == 16) {
      result->mod_forms |= forms[i].encoding == RL_ISA_ENC_VOP3
                               ? RL_CONF_MOD_DPP16_VOP3
                               : RL_CONF_MOD_DPP16;
    }
    if (forms[i].dpp.kind == 8) result->mod_forms |= RL_CONF_MOD_DPP8;
  }
  bool is_float = hm->fp != 0;
  for (uint32_t config = 0; config < (is_float ? 2u : 1u); ++config) {
    uint32_t mode = config == 0 ? (RL_HM_MODE_IEEE | RL_HM_MODE_DX10)
                                : RL_HM_MODE_FTZ32;
    rl_conf_valu_fill(device, hm, &rng);
    uint32_t k = (uint32_t)rl_conf_operand(&rng, hm, 2, 1u << 30);
    if (!(hm->fp & 1)) k = (uint32_t)rl_conf_rng_next(&rng);
    static rl_conf_program_t program;
    program.count = 0;
    rl_conf_prologue(&program, 40, 12 * nforms, 10,
                     (const uint32_t[]){1, 2, 3, 4, 5, 6, 7, 8, 13, 14});
    for (uint32_t i = 0; i < nforms; ++i) {
      rl_conf_valu_block(&program, op, encoding, hm, &forms[i], k, i);
    }
    rl_conf_endpgm(&program);
    rl_conf_config_t cfg = {.ftz32 = config == 1, .ieee = config == 0,
                            .dx10_clamp = config == 0,
                            .lanes = RL_CONF_VALU_LANES};
    char fault[512];
    if (!rl_conf_run(device, &program, &cfg, fault, sizeof(fault))) {
      rl_conf_fail(result, "%s: dispatch faulted: %s", op->name, fault);
      return true;
    }
    const uint32_t* in = (const uint32_t*)rl_conf_in(device);
    const uint32_t* out = (const uint32_t*)rl_conf_out(device);
    for (uint32_t lane = 0; lane < RL_CONF_VALU_LANES; ++lane) {
      for (uint32_t i = 0; i < nforms; ++i) {
        const uint32_t* got = out + lane * 3 * nforms + 3 * i;
        uint64_t want = 0, alt = 0;
        uint32_t mask = 0;
        rl_conf_valu_expect(hm, mode, &forms[i], in, lane, k, &want,
                            &mask, &alt);
        uint64_t g = got[0] | (uint64_t)got[1] << 32;
        bool wide = (hm->wide >> RL_HM_DST_BIT) & 1;
        bool active = in[lane * 10 + 6] != 0;
        uint64_t gm = g, wm = want, am = alt;
        if (forms[i].opsel & 8) {  // compare the result half as the low one
          gm = (g & ~0xffffffffull) | rl_conf_swap16(g);
          wm = (want & ~0xffffffffull) | rl_conf_swap16(want);
          am = (alt & ~0xffffffffull) | rl_conf_swap16(alt);
        }
        bool ok = active && !(hm->flags & RL_HM_CMP)
                      ? (rl_hm_match(hm, mode, wm, gm) ||
                         rl_hm_match(hm, mode, am, gm)) &&
                            (wide || got[1] == (uint32_t)(want >> 32))
                      : g == want;
        ok = ok && got[2] == mask;
        ++result->cases;
        if (!ok) {
          const uint32_t* r = in + lane * 10;
          rl_conf_fail(result,
                       "%s form %u (enc %u abs %u neg %u clamp %d lit %d "
                       "inline %d opsel %u/%u omod %u vop3 opsel %u dpp %u "
                       "ctrl 0x%x rm %x bm %x bc %d fi %d sel %06x) mode %s "
                       "lane %u: src "
                       "%08x:%08x %08x:%08x %08x:%08x active %u cin %u K "
                       "%08x: got %08x:%08x mask %u, want %08x:%08x mask %u",
                       op->name, i, forms[i].encoding, forms[i].abs,
                       forms[i].neg, forms[i].clamp, forms[i].literal_src0,
                       forms[i].inline_src1, forms[i].mods.opsel,
                       forms[i].mods.opsel_hi, forms[i].omod, forms[i].opsel,
                       forms[i].dpp.kind, forms[i].dpp.ctrl,
                       forms[i].dpp.row_mask, forms[i].dpp.bank_mask,
                       forms[i].dpp.bound_ctrl, forms[i].dpp.fi,
                       forms[i].dpp.sel, config ? "ftz" : "ieee",
                       lane, r[1], r[0], r[3], r[2], r[5], r[4], r[6], r[7],
                       k, got[1], got[0], got[2], (uint32_t)(want >> 32),
                       (uint32_t)want, mask);
        }
      }
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// SALU.

static void rl_conf_readlane(rl_conf_program_t* p, uint32_t sdst,
                             uint32_t vsrc, uint32_t lane) {
  uint32_t src[3] = {RL_CONF_V(vsrc), 128 + lane, 0};
  rl_conf_vop3(p, RL_CONF_VOP3_READLANE, sdst, 0, src, NULL, false, 0);
}
static void rl_conf_writelane(rl_conf_program_t* p, uint32_t vdst,
                              uint32_t ssrc, uint32_t lane) {
  uint32_t src[3] = {ssrc, 128 + lane, 0};
  rl_conf_vop3(p, RL_CONF_VOP3_WRITELANE, vdst, 0, src, NULL, false, 0);
}

static void rl_conf_emit_salu(rl_conf_program_t* p, const rl_isa_op_t* op,
                              uint32_t encoding, const rl_hm_op_t* hm,
                              bool literal, uint32_t k) {
  uint32_t s1 = literal ? RL_CONF_LITERAL : 22;
  bool lit = literal || (hm->flags & RL_HM_K);
  if (encoding == RL_ISA_ENC_SOP2) {
    rl_conf_sop2(p, op->opcode, 26, 20, s1, lit, k);
  } else if (encoding == RL_ISA_ENC_SOP1) {
    rl_conf_sop1(p, op->opcode, 26, 20, false, 0);
  } else if (encoding == RL_ISA_ENC_SOPC) {
    rl_conf_sopc(p, op->opcode, 20, s1, literal, k);
  } else {
    rl_conf_sopk(p, op->opcode, (hm->flags & RL_HM_NO_DST) && hm->nsrc == 0
                                    ? RL_CONF_NULL : 26,
                 (uint16_t)k);
  }
}

static bool rl_conf_salu(rl_conf_device_t* device, const rl_isa_op_t* op,
                         uint32_t encoding, const rl_hm_op_t* hm_in,
                         rl_conf_result_t* result) {
  rl_hm_op_t hm_copy = *hm_in;
  const rl_hm_op_t* hm = &hm_copy;
  rl_conf_rng_t rng;
  rl_conf_rng_init(&rng, op->name);
  bool is_float = (hm->flags & RL_HM_SALU_FLOAT) != 0;
  bool sopk = encoding == RL_ISA_ENC_SOPK;
  // Forms: registers; a literal source 1 (SOP2/SOPC with 32-bit source 1).
  bool literal_form = (encoding == RL_ISA_ENC_SOP2 ||
                       encoding == RL_ISA_ENC_SOPC) &&
                      !(hm->flags & RL_HM_K) && !((hm->wide >> 1) & 1);
  for (uint32_t config = 0; config < (is_float ? 2u : 1u); ++config) {
    for (uint32_t form = 0; form < (literal_form ? 2u : 1u); ++form) {
      uint32_t mode = config == 0 ? RL_HM_MODE_IEEE : RL_HM_MODE_FTZ32;
      uint32_t* in = (uint32_t*)rl_conf_in(device);
      for (uint32_t lane = 0; lane < RL_CONF_SALU_LANES; ++lane) {
        uint32_t* r = in + lane * 8;
        for (uint32_t n = 0; n < 2; ++n) {
          uint64_t v = rl_conf_operand(&rng, hm, n, lane);
          r[2 * n] = (uint32_t)v;
          r[2 * n + 1] = (uint32_t)(v >> 32);
        }
        uint64_t bits = rl_conf_rng_next(&rng);
        r[4] = bits & 1;
        r[5] = (uint32_t)(bits >> 8);
        r[6] = (uint32_t)(bits >> 40);
        if (sopk) r[5] = r[0], r[6] = r[1];  // the destination is source 0
        if (hm->flags & RL_HM_ACC) r[5] = (uint32_t)rl_conf_operand(&rng, hm, 0, ~0u);
      }
      uint32_t ks[32];
      for (uint32_t k = 0; k < 32; ++k) {
        ks[k] = (uint32_t)rl_conf_operand(&rng, hm, 1, ~0u);
        if (hm->flags & RL_HM_K) ks[k] = (uint32_t)rl_conf_operand(&rng, hm, 0, ~0u);
      }
      static rl_conf_program_t program;
      program.count = 0;
      rl_conf_prologue(&program, 32, 12, 7, NULL);
      for (uint32_t k = 0; k < 32; ++k) {
        for (uint32_t v = 0; v < 5; ++v) rl_conf_readlane(&program, 20 + v, 1 + v, k);
        rl_conf_readlane(&program, 26, 6, k);
        rl_conf_readlane(&program, 27, 7, k);
        rl_conf_sopc(&program, RL_CONF_SOPC_CMP_LG_U32, 24, 128, false, 0);
        rl_conf_emit_salu(&program, op, encoding, hm, form == 1, ks[k]);
        rl_conf_sop1(&program, RL_CONF_SOP1_MOV_B32, 28, RL_CONF_SCC, false, 0);
        rl_conf_writelane(&program, 10, 26, k);
        rl_conf_writelane(&program, 11, 27, k);
        rl_conf_writelane(&program, 12, 28, k);
      }
      rl_conf_store(&program, 10, 0);
      rl_conf_store(&program, 11, 4);
      rl_conf_store(&program, 12, 8);
      rl_conf_endpgm(&program);
      rl_conf_config_t cfg = {.ftz32 = config == 1, .ieee = config == 0,
                              .processor = is_float ? "gfx1151" : NULL,
                              .lanes = RL_CONF_SALU_LANES};
      char fault[512];
      if (!rl_conf_run(device, &program, &cfg, fault, sizeof(fault))) {
        rl_conf_fail(result, "%s: dispatch faulted: %s", op->name, fault);
        return true;
      }
      const uint32_t* out = (const uint32_t*)rl_conf_out(device);
      for (uint32_t lane = 0; lane < RL_CONF_SALU_LANES; ++lane) {
        const uint32_t* r = in + lane * 8;
        uint32_t k = ks[lane % 32];
        rl_hm_lane_t x = {{0}, 0, 0, 0, 0, false};
        x.s[0] = r[0] | (uint64_t)r[1] << 32;
        x.s[1] = r[2] | (uint64_t)r[3] << 32;
        if (!((hm->wide >> 0) & 1)) x.s[0] = (uint32_t)x.s[0];
        if (!((hm->wide >> 1) & 1)) x.s[1] = (uint32_t)x.s[1];
        if (form == 1 || sopk) x.s[1] = sopk ? (k & 0xffff) : k;
        if (hm->flags & RL_HM_K) x.s[2] = k;
        x.cin = r[4];
        uint64_t old = r[5] | (uint64_t)r[6] << 32;
        x.d = old;
        rl_hm_eval(hm, mode, 0, 0, false, &x);
        if (hm->flags & RL_HM_NO_DST) x.d = old;
        if (!((hm->wide >> RL_HM_DST_BIT) & 1)) {
          x.d = (uint32_t)x.d | (old & ~0xffffffffull);
        }
        uint32_t scc = (hm->flags & RL_HM_SCC_OUT) ? x.cout & 1 : r[4];
        const uint32_t* got = out + lane * 3;
        uint64_t g = got[0] | (uint64_t)got[1] << 32;
        bool ok = rl_hm_match(hm, mode, x.d, g) &&
                  got[1] == (uint32_t)(x.d >> 32) && got[2] == scc;
        ++result->cases;
        if (!ok) {
          rl_conf_fail(result,
                       "%s form %u mode %s set %u: src %08x:%08x %08x:%08x "
                       "scc %u old %08x:%08x K/imm %08x: got %08x:%08x scc "
                       "%u, want %08x:%08x scc %u",
                       op->name, form, config ? "ftz" : "ieee", lane, r[1],
                       r[0], r[3], r[2], r[4], r[6], r[5], k, got[1], got[0],
                       got[2], (uint32_t)(x.d >> 32), (uint32_t)x.d, scc);
        }
      }
    }
  }
  return true;
}

bool rl_conf_alu_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                      uint32_t encoding, rl_conf_result_t* result) {
  const rl_hm_op_t* found = rl_hm_find(op->name);
  if (found == NULL) return false;
  rl_hm_op_t hm = *found;  // parsed compares live in a shared slot
  if (hm.flags & RL_HM_SALU) {
    if (encoding < RL_ISA_ENC_SOP1 || encoding > RL_ISA_ENC_SOPC) return false;
    return rl_conf_salu(device, op, encoding, &hm, result);
  }
  if (encoding < RL_ISA_ENC_VOP1 || encoding > RL_ISA_ENC_VOPC) return false;
  return rl_conf_valu(device, op, encoding, &hm, result);
}
