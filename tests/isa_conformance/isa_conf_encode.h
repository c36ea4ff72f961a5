// tests/isa_conformance/isa_conf_encode.h — a field encoder of gfx11
// (RDNA3) instruction words for the conformance suite, written from the
// RDNA3 ISA guide's "Microcode Formats" chapter and independent of the
// executor's decoder (sim/isa/): the suite builds its programs with
// it, and isa_conf_encode_test.c checks every format against llvm-mc-19
// -mcpu=gfx1100, so neither the decoder nor this encoder can drift alone.
//
// Each function appends the instruction's dwords to |p| (literal included
// when |has_literal|). Operand codes are the 9-bit source codes: SGPR n is
// n, VGPR n is RL_CONF_V(n), inline integers 128 + n, literal 255.
#ifndef REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_ENCODE_H_
#define REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_ENCODE_H_

#include <stdbool.h>
#include <stdint.h>

#define RL_CONF_V(n) (256u + (n))
#define RL_CONF_LITERAL 255u
#define RL_CONF_VCC 106u
#define RL_CONF_NULL 124u
#define RL_CONF_EXEC 126u
#define RL_CONF_SCC 253u
#define RL_CONF_MAX_WORDS 16384u

typedef struct rl_conf_program_s {
  uint32_t words[RL_CONF_MAX_WORDS];
  uint32_t count;
} rl_conf_program_t;

// VOP3/VOP3P modifiers (bit n for source n).
typedef struct rl_conf_mods_s {
  uint8_t abs, neg, neg_hi, opsel, opsel_hi, omod;
  bool clamp;
} rl_conf_mods_t;

// Byte offset of the next instruction.
static inline uint32_t rl_conf_pc(const rl_conf_program_t* p) {
  return p->count * 4u;
}

void rl_conf_sop2(rl_conf_program_t* p, uint32_t op, uint32_t sdst,
                  uint32_t s0, uint32_t s1, bool has_literal,
                  uint32_t literal);
void rl_conf_sop1(rl_conf_program_t* p, uint32_t op, uint32_t sdst,
                  uint32_t s0, bool has_literal, uint32_t literal);
void rl_conf_sopk(rl_conf_program_t* p, uint32_t op, uint32_t sdst,
                  uint16_t simm16);
void rl_conf_sopc(rl_conf_program_t* p, uint32_t op, uint32_t s0, uint32_t s1,
                  bool has_literal, uint32_t literal);
void rl_conf_sopp(rl_conf_program_t* p, uint32_t op, uint16_t simm16);
// SMEM: |sbase| is the even SGPR of the base pair; |soffset| 124 = none.
// gfx12 mode (isa_conf_gfx12 suite): rl_conf_smem and rl_conf_flat emit
// the gfx12 (RDNA4) SMEM and 96-bit VFLAT/VGLOBAL layouts instead, from the
// RDNA4 guide's "Microcode Formats" (checked against llvm-mc-19
// -mcpu=gfx1201 by isa_conf_encode_test.c); the other formats are the same.
extern bool rl_conf_gfx12;
void rl_conf_smem(rl_conf_program_t* p, uint32_t op, uint32_t sdata,
                  uint32_t sbase, int32_t offset, uint32_t soffset);
void rl_conf_vop1(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                  uint32_t src0, bool has_literal, uint32_t literal);
void rl_conf_vop2(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                  uint32_t src0, uint32_t vsrc1, bool has_literal,
                  uint32_t literal);
void rl_conf_vopc(rl_conf_program_t* p, uint32_t op, uint32_t src0,
                  uint32_t vsrc1, bool has_literal, uint32_t literal);
// VOP3 (VOP3b when |sdst| != 0: SDST takes the ABS/OPSEL bits).
void rl_conf_vop3(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                  uint32_t sdst, const uint32_t src[3],
                  const rl_conf_mods_t* mods, bool has_literal,
                  uint32_t literal);
void rl_conf_vop3p(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                   const uint32_t src[3], const rl_conf_mods_t* mods);
// VOPD: |vdsty| is the full Y register number (its low bit is implied).
void rl_conf_vopd(rl_conf_program_t* p, uint32_t opx, uint32_t opy,
                  uint32_t vdstx, uint32_t srcx0, uint32_t vsrcx1,
                  uint32_t vdsty, uint32_t srcy0, uint32_t vsrcy1,
                  bool has_literal, uint32_t literal);
void rl_conf_ds(rl_conf_program_t* p, uint32_t op, uint32_t vdst,
                uint32_t addr, uint32_t data0, uint32_t data1,
                uint32_t offset0, uint32_t offset1);
// DS global wave sync (ds_gws_barrier): the GDS bit set, the data VGPR in
// the ADDR field (LLVM DSInstructions.td has_gws_data0), gfx11 only.
void rl_conf_ds_gws(rl_conf_program_t* p, uint32_t op, uint32_t data,
                    uint32_t offset0);
// FLAT (seg 0) / GLOBAL (seg 2); |saddr| 124 = off.
void rl_conf_flat(rl_conf_program_t* p, uint32_t seg, uint32_t op,
                  uint32_t vdst, uint32_t addr, uint32_t data, uint32_t saddr,
                  int32_t offset);
void rl_conf_mubuf(rl_conf_program_t* p, uint32_t op);
// The work-group barrier: s_barrier (SOPP 0x3d); on gfx12 s_barrier_signal
// -1 (SOP1 0x4e) then s_barrier_wait -1 (SOPP 0x14).
void rl_conf_wg_barrier(rl_conf_program_t* p);

// DPP (RDNA3 ISA guide, "DPP16" / "DPP8"): the VOP1/VOP2/VOP3 forms put
// the marker in place of source 0 and this dword after the instruction
// (where a literal would go). |kind| 0 is no DPP.
typedef struct rl_conf_dpp_s {
  uint8_t kind;  // 16 or 8
  uint16_t ctrl;
  uint8_t row_mask, bank_mask;
  bool bound_ctrl, fi;
  uint8_t neg, abs;  // DPP16 of VOP1/VOP2: bit n for source n (n < 2)
  uint32_t sel;      // DPP8: eight 3-bit lane selects
} rl_conf_dpp_t;
// The source-0 code: 250 (DPP16), 233 (DPP8) or 234 (DPP8 with FI).
uint32_t rl_conf_dpp_marker(const rl_conf_dpp_t* dpp);
// The DPP dword reading VGPR |vsrc0|.
uint32_t rl_conf_dpp_word(const rl_conf_dpp_t* dpp, uint32_t vsrc0);

#endif  // REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_ENCODE_H_
