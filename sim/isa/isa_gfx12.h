// sim/isa/isa_gfx12.h — gfx12 (RDNA4: gfx1200, gfx1201) in the ISA
// executor (private to rl_sim_isa). gfx12 is not a second executor: the
// decoder, the runners and the semantics are gfx11's, and only what the
// generation changes lives here (docs/isa-gfx12.md):
//   - decode (isa_decode_gfx12.c): the families whose layout changed —
//     SMEM (OP[18:13], 24-bit signed offset, TH/SCOPE instead of GLC/DLC),
//     VFLAT/VGLOBAL/VSCRATCH and VBUFFER (96 bits), VIMAGE/VSAMPLE (96 bits,
//     recognised only), VINTERP (OP[20:16]); the gfx11-only families
//     (FLAT 110111, MUBUF 111000, MTBUF, MIMG) are unknown on gfx12;
//   - tables (isa_table_gfx12.c): one opcode table per family, built once
//     from the gfx12 name tables (isa_names_gfx12.c): a gfx12 opcode whose
//     LLVM mnemonic is a gfx11 one the executor models (or a documented
//     rename of one, e.g. s_add_co_i32 = s_add_i32) takes that entry's
//     semantics under its gfx12 number and name; the gfx12-only opcodes
//     (s_wait_*cnt, s_barrier_signal/_wait, s_add_nc_u64, s_load_b96,
//     global_wb/global_inv, v_s_rcp_f32...) have their own rows;
//   - semantics of the gfx12-only opcodes (isa_exec_gfx12.c), and the gfx12
//     forms that are refused statically (rl_isa_gfx12_reason).
#ifndef REDLINE_SIM_ISA_ISA_GFX12_H_
#define REDLINE_SIM_ISA_ISA_GFX12_H_

#include "sim/isa/isa_inst.h"

// Decodes |words| when its first dword starts a family whose gfx12 layout
// differs from gfx11 (or which gfx12 does not have): fills |inst| like
// rl_isa_decode, sets *|out_known| and returns true. Returns false, without
// touching |inst|, for the families gfx12 encodes as gfx11 does.
bool rl_isa_decode_gfx12(const uint32_t* words, uint32_t count,
                         uint32_t features, rl_isa_inst_t* inst,
                         bool* out_known);

// The gfx12 table that stands for the gfx11 table |gfx11| (&rl_isa_table_sop2
// gives the gfx12 SOP2 table), built on first use (thread-safe). An empty
// table for a family gfx12 does not model.
const rl_isa_table_t* rl_isa_gfx12_table(const rl_isa_table_t* gfx11);

// The gfx12 opcode table of |encoding| (for tests), or NULL.
const rl_isa_table_t* rl_isa_gfx12_table_of(uint32_t encoding);

// Renames: gfx12 mnemonics whose semantics are those of a gfx11 mnemonic.
typedef struct rl_isa_rename_s {
  const char* gfx12;
  const char* gfx11;
} rl_isa_rename_t;
extern const rl_isa_rename_t rl_isa_gfx12_renames[];
extern const uint32_t rl_isa_gfx12_rename_count;

// Why the executor does not model this form of a known gfx12 instruction
// (named barriers, VALU float CLAMP/OMOD whose gfx12 NaN/IEEE rules are not
// modelled...), or NULL.
const char* rl_isa_gfx12_reason(const rl_isa_inst_t* inst);

// Rows of the gfx12-only opcodes by family (isa_exec_gfx12.c).
typedef struct rl_isa_gfx12_extra_s {
  uint32_t encoding;  // rl_isa_encoding_t
  rl_isa_op_t op;
  const char* borrow;  // v_s_*: the VOP1 opcode whose lane kernel it uses
} rl_isa_gfx12_extra_t;
extern const rl_isa_gfx12_extra_t rl_isa_gfx12_extras[];
extern const uint32_t rl_isa_gfx12_extra_count;

#endif  // REDLINE_SIM_ISA_ISA_GFX12_H_
