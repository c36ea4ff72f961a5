// tests/isa_conformance/isa_conf_encode.c — the conformance suite's field
// encoder (isa_conf_encode.h). Field positions: RDNA3 ISA guide,
// "Microcode Formats" (SOP2, SOPK, SOP1, SOPC, SOPP, SMEM, VOP2, VOP1, VOPC,
// VOP3, VOP3B, VOP3P, VOPD, DS, FLAT/GLOBAL, MUBUF).
#include "tests/isa_conformance/isa_conf_encode.h"

#include <stdlib.h>

static void rl_conf_emit(rl_conf_program_t* p, uint32_t word) {
  if (p->count >= RL_CONF_MAX_WORDS) abort();  // a test-construction bug
  p->words[p->count++] = word;
}

static void rl_conf_emit_literal(rl_conf_program_t* p, bool has_literal,
                                 uint32_t literal) {
  if (has_literal) rl_conf_emit(p, literal);
}

void rl_conf_sop2(rl_conf_program_t* p, uint32_t op, uint32_t sdst,
                  uint32_t s0, uint32_t s1, bool has_literal,
                  uint32_t literal) {
  rl_conf_emit(p, 0x80000000u | (op & 0x7f) << 23 | (sdst & 0x7f) << 16 |
                      (s1 & 0xff) << 8 | (s0 & 0xff));
  rl_conf_emit_literal(p, has_literal, literal);
}

void rl_conf_sop1(rl_conf_program_t* p, uint32_t op, uint32_t sdst,
                  uint32_t s0, bool has_literal, uint32_t literal) {
  rl_conf_emit(p, 0xbe800000u | (sdst & 0x7f) << 16 | (op & 0xff) << 8 |
                      (s0 & 0xff));
  rl_conf_emit_literal(p, has_literal, literal);
}

void rl_conf_sopk(rl_conf_program_t* p, uint32_t op, uint32_t sdst,
                  uint16_t simm16) {
  rl_conf_emit(p, 0xb0000000u | (op & 0x1f) << 23 | (sdst & 0x7f) << 16 |
                      simm16);
}

void rl_conf_sopc(rl_conf_program_t* p, uint32_t op, uint32_t s0, uint32_t s1,
                  bool has_literal, uint32_t literal) {
  rl_conf_emit(p, 0xbf000000u | (op & 0x7f) << 16 | (s1 & 0xff) << 8 |
                      (s0 & 0xff));
  rl_conf_emit_literal(p, has_literal, literal);
}

void rl_conf_sopp(rl_conf_program_t* p, uint32_t op, uint16_t simm16) {
  rl_conf_emit(p, 0xbf800000u | (op & 0x7f) << 16 | simm16);
}

bool rl_conf_gfx12 = false;

void rl_conf_smem(rl_conf_program_t* p, uint32_t op, uint32_t sdata,
                  uint32_t sbase, int32_t offset, uint32_t soffset) {
  if (rl_conf_gfx12) {  // OP[18:13], 24-bit offset
    rl_conf_emit(p, 0xf4000000u | (op & 0x3f) << 13 | (sdata & 0x7f) << 6 |
                        ((sbase >> 1) & 0x3f));
    rl_conf_emit(p, (soffset & 0x7f) << 25 | ((uint32_t)offset & 0xffffff));
    return;
  }
  rl_conf_emit(p, 0xf4000000u | (op & 0xff) << 18 | (sdata & 0x7f) << 6 |
                      ((sbase >> 1) & 0x3f));
  rl_conf_emit(p, (soffset & 0x7f) << 25 | ((uint32_t)offset & 0x1fffff));
}

void rl_conf_vop1(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                  uint32_t src0, bool has_literal, uint32_t literal) {
  rl_conf_emit(p, 0x7e000000u | (vdst & 0xff) << 17 | (op & 0xff) << 9 |
                      (src0 & 0x1ff));
  rl_conf_emit_literal(p, has_literal, literal);
}

void rl_conf_vop2(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                  uint32_t src0, uint32_t vsrc1, bool has_literal,
                  uint32_t literal) {
  rl_conf_emit(p, (op & 0x3f) << 25 | (vdst & 0xff) << 17 |
                      (vsrc1 & 0xff) << 9 | (src0 & 0x1ff));
  rl_conf_emit_literal(p, has_literal, literal);
}

void rl_conf_vopc(rl_conf_program_t* p, uint32_t op, uint32_t src0,
                  uint32_t vsrc1, bool has_literal, uint32_t literal) {
  rl_conf_emit(p, 0x7c000000u | (op & 0xff) << 17 | (vsrc1 & 0xff) << 9 |
                      (src0 & 0x1ff));
  rl_conf_emit_literal(p, has_literal, literal);
}

static uint32_t rl_conf_srcs(const uint32_t src[3]) {
  return (src[0] & 0x1ff) | (src[1] & 0x1ff) << 9 | (src[2] & 0x1ff) << 18;
}

void rl_conf_vop3(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                  uint32_t sdst, const uint32_t src[3],
                  const rl_conf_mods_t* mods, bool has_literal,
                  uint32_t literal) {
  static const rl_conf_mods_t none = {0};
  if (mods == NULL) mods = &none;
  uint32_t w0 = 0xd4000000u | (op & 0x3ff) << 16 | (vdst & 0xff) |
                (mods->clamp ? 1u << 15 : 0);
  if (sdst) {
    w0 |= (sdst & 0x7f) << 8;
  } else {
    w0 |= (mods->abs & 7u) << 8 | (mods->opsel & 0xfu) << 11;
  }
  rl_conf_emit(p, w0);
  rl_conf_emit(p, rl_conf_srcs(src) | (mods->omod & 3u) << 27 |
                      (mods->neg & 7u) << 29);
  rl_conf_emit_literal(p, has_literal, literal);
}

void rl_conf_vop3p(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                   const uint32_t src[3], const rl_conf_mods_t* mods) {
  rl_conf_emit(p, 0xcc000000u | (op & 0x7f) << 16 | (vdst & 0xff) |
                      (mods->neg_hi & 7u) << 8 | (mods->opsel & 7u) << 11 |
                      ((mods->opsel_hi >> 2) & 1u) << 14 |
                      (mods->clamp ? 1u << 15 : 0));
  rl_conf_emit(p, rl_conf_srcs(src) | (mods->opsel_hi & 3u) << 27 |
                      (mods->neg & 7u) << 29);
}

void rl_conf_vopd(rl_conf_program_t* p, uint32_t opx, uint32_t opy,
                  uint32_t vdstx, uint32_t srcx0, uint32_t vsrcx1,
                  uint32_t vdsty, uint32_t srcy0, uint32_t vsrcy1,
                  bool has_literal, uint32_t literal) {
  rl_conf_emit(p, 0xc8000000u | (opx & 0xf) << 22 | (opy & 0x1f) << 17 |
                      (vsrcx1 & 0xff) << 9 | (srcx0 & 0x1ff));
  rl_conf_emit(p, (vdstx & 0xff) << 24 | ((vdsty >> 1) & 0x7f) << 17 |
                      (vsrcy1 & 0xff) << 9 | (srcy0 & 0x1ff));
  rl_conf_emit_literal(p, has_literal, literal);
}

void rl_conf_ds(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                uint32_t addr, uint32_t data0, uint32_t data1,
                uint32_t offset0, uint32_t offset1) {
  rl_conf_emit(p, 0xd8000000u | (op & 0xff) << 18 | (offset1 & 0xff) << 8 |
                      (offset0 & 0xff));
  rl_conf_emit(p, (vdst & 0xff) << 24 | (data1 & 0xff) << 16 |
                      (data0 & 0xff) << 8 | (addr & 0xff));
}

void rl_conf_ds_gws(rl_conf_program_t* p, uint32_t op, uint32_t data,
                    uint32_t offset0) {
  rl_conf_emit(p, 0xd8000000u | (op & 0xff) << 18 | 1u << 17 |
                      (offset0 & 0xff));
  rl_conf_emit(p, data & 0xff);
}

void rl_conf_flat(rl_conf_program_t* p, uint32_t seg, uint32_t op,
                  uint32_t vdst, uint32_t addr, uint32_t data, uint32_t saddr,
                  int32_t offset) {
  if (rl_conf_gfx12) {  // 96 bits: [31:24] 0xec/0xed/0xee, OP[21:14]
    rl_conf_emit(p, (0xecu + (seg & 3u)) << 24 | (op & 0xff) << 14 |
                        (saddr & 0x7f));
    rl_conf_emit(p, (data & 0xff) << 23 | (vdst & 0xff));
    rl_conf_emit(p, ((uint32_t)offset & 0xffffff) << 8 | (addr & 0xff));
    return;
  }
  rl_conf_emit(p, 0xdc000000u | (op & 0x7f) << 18 | (seg & 3u) << 16 |
                      ((uint32_t)offset & 0x1fff));
  rl_conf_emit(p, (vdst & 0xff) << 24 | (saddr & 0x7f) << 16 |
                      (data & 0xff) << 8 | (addr & 0xff));
}

void rl_conf_wg_barrier(rl_conf_program_t* p) {
  if (rl_conf_gfx12) {
    rl_conf_sop1(p, 0x4e, 0, 128 + 65, false, 0);  // -1: inline 193
    rl_conf_sopp(p, 0x14, 0xffff);
    return;
  }
  rl_conf_sopp(p, 0x3d, 0);
}

void rl_conf_mubuf(rl_conf_program_t* p, uint32_t op) {
  rl_conf_emit(p, 0xe0000000u | (op & 0xff) << 18);
  rl_conf_emit(p, 0);
}

uint32_t rl_conf_dpp_marker(const rl_conf_dpp_t* dpp) {
  if (dpp->kind == 16) return 250u;
  return dpp->fi ? 234u : 233u;
}

uint32_t rl_conf_dpp_word(const rl_conf_dpp_t* dpp, uint32_t vsrc0) {
  uint32_t w = vsrc0 & 0xffu;
  if (dpp->kind == 8) return w | (dpp->sel & 0xffffffu) << 8;
  return w | (dpp->ctrl & 0x1ffu) << 8 | (dpp->fi ? 1u << 18 : 0) |
         (dpp->bound_ctrl ? 1u << 19 : 0) | (dpp->neg & 1u) << 20 |
         (dpp->abs & 1u) << 21 | ((dpp->neg >> 1) & 1u) << 22 |
         ((dpp->abs >> 1) & 1u) << 23 | (dpp->bank_mask & 0xfu) << 24 |
         (uint32_t)(dpp->row_mask & 0xfu) << 28;
}
