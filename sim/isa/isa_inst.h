// sim/isa/isa_inst.h — one decoded gfx11 (RDNA3) instruction and the
// decoder that produces it (private to rl_sim_isa).
//
// The decoder reads the dwords of one instruction and returns its encoding
// family, its length in bytes (literal constant and DPP dwords included), the
// opcode table entry it names and every field the executor needs, already
// extracted: operands as 9-bit source codes with inline constants resolved
// to their value for the operand's type, the literal, modifiers, offsets.
// It never reads past the |count| dwords it is given and never fails on any
// input: an instruction it cannot name still gets its family, raw opcode and
// (when the family fixes it) its length, so messages can say
// "UNKNOWN(VOP2 0x3a)" and a linear sweep can step over it.
//
// Families decoded (RDNA3 ISA guide, chapter "Microcode Formats"; LLVM
// llvm/lib/Target/AMDGPU/SIInstrFormats.td, SOPInstructions.td,
// VOP*Instructions.td, SMInstructions.td, DSInstructions.td,
// FLATInstructions.td, BUFInstructions.td for the gfx11 field layouts;
// every layout and opcode is checked against llvm-mc-19 -mcpu=gfx1100 by
// tests/unit/sim/isa/isa_decode_test.c):
//   SOP2 [31:30]=10         SOPK [31:28]=1011     SOP1 [31:23]=101111101
//   SOPC [31:23]=101111110  SOPP [31:23]=101111111 SMEM [31:26]=111101
//   VOP2 [31]=0             VOP1 [31:25]=0111111  VOPC [31:25]=0111110
//   VOP3 [31:26]=110101     VOP3P [31:24]=11001100 VOPD [31:26]=110010
//   DS   [31:26]=110110     FLAT/GLOBAL/SCRATCH [31:26]=110111 (SEG 17:16)
//   MUBUF [31:26]=111000
// and recognised (length known, not modelled): MTBUF 111010, MIMG 111100,
// EXP 111110, VINTERP 11001101, LDSDIR 11001110.
//
// Source operand codes (RDNA3 ISA guide, "Scalar/Vector source operands";
// LLVM SIDefines.h / AMDGPU::EncValues): 0-105 SGPRs, 106/107 VCC_LO/HI,
// 108-123 TTMP0-15, 124 NULL, 125 M0, 126/127 EXEC_LO/HI, 128 integer 0,
// 129-192 integers 1..64, 193-208 integers -1..-16, 235-238 aperture
// registers (src_shared_base ...), 240-248 float constants 0.5, -0.5, 1.0,
// -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi), 250 DPP16, 233 DPP8, 251 VCCZ,
// 252 EXECZ, 253 SCC, 255 literal, 256-511 VGPRs 0-255.
// Inline float constants take the operand's type (binary32 bits for 32-bit
// operands, binary64 for 64-bit ones, binary16 for 16-bit ones); integer
// constants are sign-extended to the operand width. A literal is 32 bits:
// a 64-bit float operand takes it as its high half (low half zero) and a
// 64-bit integer operand zero-extends it (llvm-mc-19 encodes
// `s_mov_b64 s[0:1], 0xffffffff` with a literal, distinct from the inline
// -1, so the hardware cannot be sign-extending it).
#ifndef REDLINE_SIM_ISA_ISA_INST_H_
#define REDLINE_SIM_ISA_ISA_INST_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/isa/isa_names.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// rl_isa_encoding_t (the encoding families) is defined in isa_names.h,
// with the mnemonic tables it indexes.

// Operand value types of an opcode table entry: they size register operands,
// give inline constants their meaning and say which modifiers apply.
typedef enum rl_isa_type_e {
  RL_ISA_T_NONE = 0,
  RL_ISA_T_B32,
  RL_ISA_T_B64,
  RL_ISA_T_F32,
  RL_ISA_T_F64,
  RL_ISA_T_B16,  // 16-bit integer (low half; VOP3P: packed 2 x 16-bit)
  RL_ISA_T_F16,  // binary16 (low half)
} rl_isa_type_t;

// Opcode flags.
enum {
  RL_ISA_F_SCC = 1u << 0,          // SALU: writes SCC
  RL_ISA_F_SALU_FLOAT = 1u << 1,   // needs RL_ISA_FEATURE_SALU_FLOAT
  RL_ISA_F_CARRY = 1u << 2,        // VOP2/VOP3b: carry/mask in src2, sdst
  RL_ISA_F_LITERAL_K = 1u << 3,    // fmamk/fmaak: a literal K always follows
  RL_ISA_F_BRANCH = 1u << 4,       // SOPP: simm16 is a branch offset
  RL_ISA_F_ENDS_BLOCK = 1u << 5,   // no fall-through (s_endpgm, s_branch...)
  RL_ISA_F_CMPX = 1u << 6,         // VOPC: writes EXEC
  RL_ISA_F_NO_VOP3 = 1u << 7,      // has no VOP3 (e64) form
  RL_ISA_F_SDST = 1u << 8,         // VOP3 form has an SGPR destination
  RL_ISA_F_ACCUM = 1u << 9,        // v_fmac: the destination is source 2
  RL_ISA_F_INT_CLAMP = 1u << 10,   // the lane kernel saturates on clamp
  RL_ISA_F_READS_VCC = 1u << 11,   // v_div_fmas: VCC is the lane mask
  RL_ISA_F_PK_MODS = 1u << 12,     // VOP3P: neg/neg_hi and constants are
                                   // handled by the opcode's own runner
  RL_ISA_F_KEEP_HI = 1u << 13,     // 16-bit result: the kernel reads the
                                   // old destination (rl_isa_valu_t.old)
  RL_ISA_F_FP_MODS = 1u << 14,     // VOP3/DPP abs/neg act on bit 31 of an
                                   // integer operand (v_cndmask_b32)
};

// Target capabilities, derived once from the processor (isa_target.c).
enum {
  RL_ISA_FEATURE_SALU_FLOAT = 1u << 0,  // gfx1150+: s_add_f32, s_cvt_*...
  RL_ISA_FEATURE_GFX12 = 1u << 1,       // gfx12 encodings and opcode tables
                                        // (isa_gfx12.h)
};

typedef struct rl_isa_wave_s rl_isa_wave_t;
typedef struct rl_isa_inst_s rl_isa_inst_t;
typedef struct rl_isa_op_s rl_isa_op_t;

// Executes |inst| for |wave|; the wave's PC already points past it. The
// handlers are declared with this type (isa_exec.h: rl_isa_exec_t name;).
typedef rl_status_t rl_isa_exec_t(rl_isa_wave_t* wave,
                                  const rl_isa_inst_t* inst);
typedef rl_isa_exec_t* rl_isa_exec_fn;

// One opcode table entry (isa_table_*.c): the data that names an opcode and
// binds it to its semantics. |exec| runs the instruction; |lanes| is the
// per-opcode kernel a shared runner calls (VALU lane arithmetic, SALU
// arithmetic), |arg| a small per-opcode parameter (a compare condition, an
// access size in bytes).
struct rl_isa_op_s {
  uint16_t opcode;
  uint16_t flags;
  uint8_t dst;     // rl_isa_type_t of the result
  uint8_t src[3];  // rl_isa_type_t of each source, NONE when absent
  uint16_t arg;
  const char* name;  // LLVM mnemonic without _e32/_e64
  rl_isa_exec_fn exec;
  void (*lanes)(void);  // cast to the runner's kernel type
};

// A table entry: RL_ISA_OP(opcode, "name", flags, dst, src0, src1, src2, arg,
// exec, lanes).
#define RL_ISA_OP(opc, name, flags, d, s0, s1, s2, arg, exec, lanes)      \
  {(opc), (flags), (d), {(s0), (s1), (s2)}, (arg), (name), (exec),         \
   (void (*)(void))(lanes)}

// Where an operand's value comes from.
typedef enum rl_isa_operand_kind_e {
  RL_ISA_OPK_NONE = 0,
  RL_ISA_OPK_SGPR,      // s0..s105, VCC, TTMP, M0, EXEC: the wave's SGPR file
  RL_ISA_OPK_VGPR,      // v0..v255
  RL_ISA_OPK_CONST,     // inline constant or literal: |value|
  RL_ISA_OPK_VCCZ,
  RL_ISA_OPK_EXECZ,
  RL_ISA_OPK_SCC,
  RL_ISA_OPK_UNSUPPORTED,  // apertures, DPP markers, reserved codes
} rl_isa_operand_kind_t;

// 12 bytes: |value| at offset 4 (packed to 4-byte alignment; x86-64 and
// AArch64 load it unaligned at no cost), so three sources fit in 36 bytes
// of the instruction record.
typedef struct __attribute__((packed, aligned(4))) rl_isa_operand_s {
  uint16_t code;  // 9-bit source code; VGPRs are 256 + n
  uint8_t kind;   // rl_isa_operand_kind_t
  uint8_t reg;    // SGPR index (0..127) or VGPR index (0..255)
  uint64_t value; // RL_ISA_OPK_CONST: sized for the operand type
} rl_isa_operand_t;

// Most bytes one instruction takes: VOP3 + literal, VOPD + literal (12).
#define RL_ISA_MAX_INST_BYTES 12

// The record is ordered by use: what the executor's loop and the scalar,
// vector and memory runners read for every instruction (the exec function,
// the opcode entry, destinations, modifiers, immediates, memory operands,
// then the three sources) fills the first two 64-byte cache lines; the
// VOPD Y half, DPP controls, the raw dwords and the PC come after
// (RL_ISA_INST_HOT_BYTES, checked below).
struct rl_isa_inst_s {
  rl_isa_exec_fn exec;      // op->exec, or the fault handler
  const rl_isa_op_t* op;    // NULL: unknown opcode (or unknown encoding)
  // Resolved by the program builder: how many instructions from this one
  // on run rl_isa_exec_nop (s_nop, s_waitcnt, s_delay_alu, s_clause, ...;
  // 0 for any other). The executor retires such a run without
  // dispatching it, counting every instruction of it (isa_executor.c).
  uint32_t nops;
  // Resolved by the program builder: the instruction index a branch lands
  // on (-1 when it is outside the program or not an instruction boundary).
  int32_t target;
  // Resolved by the program builder: RL_ISA_STALE_* bits, what the cache
  // model's stale-read rule does at this instruction (isa_stale.c).
  uint8_t stale;
  uint8_t encoding;         // rl_isa_encoding_t
  uint8_t size;             // bytes, 4..12; 0 when unknown
  bool has_literal;
  uint16_t opcode;          // raw opcode field (VOPD: X)
  // Operands. Scalar and vector destinations are register indices (SGPR
  // 0..127, VGPR 0..255); |sdst| is the SGPR destination of VOP3b/VOPC and
  // the carry-out of VOP2 carry ops (VCC = 106 in the e32 forms).
  uint16_t dst;
  uint16_t sdst;
  uint16_t dst_y;
  // VOP3/VOP3P modifiers as encoded.
  uint8_t abs;      // VOP3: bit n for src n
  uint8_t neg;      // bit n for src n (VOP3P: low halves)
  uint8_t neg_hi;   // VOP3P: high halves
  uint8_t opsel;    // VOP3: 4 bits; VOP3P: 3 bits (low halves)
  uint8_t opsel_hi; // VOP3P: 3 bits (high halves)
  uint8_t omod;
  bool clamp;
  // DPP (RDNA3 ISA guide, "DPP16" / "DPP8"; decoded by isa_decode_vector.c,
  // run by isa_dpp.c): |dpp| is 16 or 8 (0: none); src[0] is then the VGPR
  // the DPP dword names. DPP16: |dpp_ctrl| DPP_CTRL[8:0], |dpp_row_mask|
  // and |dpp_bank_mask| (4 bits each), |dpp_bc| BOUND_CTRL, |dpp_fi| FI.
  // DPP8: |dpp_sel| the eight 3-bit lane selects, |dpp_fi| FI (source code
  // 234 instead of 233). The controls other than |dpp| are further down.
  uint8_t dpp;
  // SOPP/SOPK immediate, memory offsets.
  int32_t simm16;
  int32_t offset;   // SMEM (21-bit signed), FLAT (13-bit), DS offset0, MUBUF
  uint32_t literal;
  // Memory operands (register indices): SMEM sbase/sdata/soffset (SGPR code,
  // 124 = none), DS/FLAT addr/data0/data1/vdst (VGPR), FLAT saddr (SGPR code,
  // 124 = off).
  uint8_t addr;
  uint8_t data0;
  uint8_t data1;
  uint8_t vdst;
  uint8_t saddr;
  uint8_t glc_slc_dlc;
  uint8_t offset1;  // DS offset1
  // SCRATCH: SVE (bit 55), the VGPR |addr| is part of the address.
  bool sve;
  rl_isa_operand_t src[3];
  // gfx12 (RDNA4): the instruction was decoded with the gfx12 tables; the
  // cache-policy fields of SMEM and VMEM as encoded (TH[2:0], SCOPE[4:3]).
  bool gfx12;
  uint8_t th_scope;
  uint16_t opcode_y;          // VOPD: Y
  // Colder: VOPD's Y half, the DPP controls, where the instruction is.
  const rl_isa_op_t* op_y;    // VOPD: the Y half
  rl_isa_operand_t src_y[3];  // VOPD Y: src0, vsrc1, K
  uint8_t dpp_row_mask;
  uint8_t dpp_bank_mask;
  bool dpp_bc;
  bool dpp_fi;
  uint16_t dpp_ctrl;
  uint32_t dpp_sel;
  uint32_t words[3];        // the raw dwords (size / 4 of them valid)
  uint32_t pc;              // byte offset from the kernel entry
};

// The bytes from the start of the record through the sources: the part
// every runner reads (two cache lines).
#define RL_ISA_INST_HOT_BYTES \
  (offsetof(rl_isa_inst_t, src) + sizeof(((rl_isa_inst_t*)0)->src))
_Static_assert(RL_ISA_INST_HOT_BYTES <= 128,
               "the hot part of rl_isa_inst_t outgrew two cache lines");

// Decodes the instruction in |words| (|count| >= 1 dwords readable) for a
// target with |features|. Always fills |out_inst| (encoding, opcode, size);
// returns true when the opcode is one the tables know, in which case op is
// non-NULL and the size is exact. A false return with size != 0 means the
// length is known but the opcode is not; size == 0 means the encoding is
// unknown, truncated or uses a form whose length the decoder cannot tell.
bool rl_isa_decode(const uint32_t* words, uint32_t count, uint32_t features,
                   rl_isa_inst_t* out_inst);

// "SOP2", "VOP3"... ("UNKNOWN" for RL_ISA_ENC_UNKNOWN).
const char* rl_isa_encoding_name(uint32_t encoding);

// The mnemonic of |inst| ("v_add_f32"), or "UNKNOWN".
const char* rl_isa_inst_name(const rl_isa_inst_t* inst);

// Writes "v_add_f32 (VOP2 opcode 0x3) at PC 0x1c [06040702]" into |buffer|.
void rl_isa_inst_describe(const rl_isa_inst_t* inst, char* buffer,
                          uint32_t capacity);

// The opcode tables, by family. Each is sorted by opcode and may chain to
// more entries of the same encoding defined in another file (|next|: the
// 16-bit, packed, division and atomic opcodes live with their semantics);
// an opcode appears once in a chain.
typedef struct rl_isa_table_s {
  const rl_isa_op_t* ops;
  uint32_t count;
  const struct rl_isa_table_s* next;
} rl_isa_table_t;

extern const rl_isa_table_t rl_isa_table_sop1, rl_isa_table_sop2,
    rl_isa_table_sopk, rl_isa_table_sopc, rl_isa_table_sopp,
    rl_isa_table_smem, rl_isa_table_vop1, rl_isa_table_vop2,
    rl_isa_table_vop3, rl_isa_table_vopc, rl_isa_table_vop3p,
    rl_isa_table_vopd, rl_isa_table_ds, rl_isa_table_flat,
    rl_isa_table_global, rl_isa_table_scratch, rl_isa_table_mubuf;

// The entry for |opcode| in |table| or the tables it chains to, or NULL
// (binary search in each).
const rl_isa_op_t* rl_isa_table_find(const rl_isa_table_t* table,
                                     uint32_t opcode);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_ISA_ISA_INST_H_
