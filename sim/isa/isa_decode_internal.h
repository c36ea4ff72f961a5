// sim/isa/isa_decode_internal.h — pieces the decoder's files share
// (isa_decode.c, isa_decode_vector.c, isa_decode_memory.c).
#ifndef REDLINE_SIM_ISA_ISA_DECODE_INTERNAL_H_
#define REDLINE_SIM_ISA_ISA_DECODE_INTERNAL_H_

#include "sim/isa/isa_inst.h"

// Source codes with a fixed meaning (isa_inst.h).
#define RL_ISA_SRC_VCC 106u
#define RL_ISA_SRC_NULL 124u
#define RL_ISA_SRC_M0 125u
#define RL_ISA_SRC_EXEC 126u
#define RL_ISA_SRC_DPP8 233u
#define RL_ISA_SRC_DPP8_FI 234u
#define RL_ISA_SRC_DPP16 250u
#define RL_ISA_SRC_LITERAL 255u

// Fills |out| for source code |code| read as |type|; a literal takes its
// value from inst->literal, which must already be set.
void rl_isa_operand_decode(uint32_t code, uint32_t type,
                           const rl_isa_inst_t* inst, rl_isa_operand_t* out);

// Sets inst->size to |index| dwords, plus the literal at words[|index|] when
// |needed|. False (size 0) when the literal lies beyond |count| dwords.
bool rl_isa_take_literal(rl_isa_inst_t* inst, const uint32_t* words,
                         uint32_t count, uint32_t index, bool needed);

// The type of source |n| of |op|; B32 when |op| is NULL.
uint32_t rl_isa_src_type(const rl_isa_op_t* op, uint32_t n);

// rl_isa_table_find() that hides entries the target's |features| lack.
const rl_isa_op_t* rl_isa_table_find_for(const rl_isa_table_t* table,
                                         uint32_t opcode, uint32_t features);

// Sets inst->encoding to |encoding| and inst->opcode to |opcode|, and
// inst->op to that opcode's entry of |table| (NULL where the table, or the
// target's |features|, lack it).
static inline void rl_isa_decode_op(rl_isa_inst_t* inst, uint8_t encoding,
                                    const rl_isa_table_t* table,
                                    uint32_t opcode, uint32_t features) {
  inst->encoding = encoding;
  inst->opcode = (uint16_t)opcode;
  inst->op = rl_isa_table_find_for(table, inst->opcode, features);
}

// Fills source |n| from source code |code|, read as the type inst->op gives
// that source (rl_isa_src_type); a literal must already be taken.
static inline void rl_isa_decode_src(rl_isa_inst_t* inst, uint32_t n,
                                     uint32_t code) {
  rl_isa_operand_decode(code, rl_isa_src_type(inst->op, n), inst,
                        &inst->src[n]);
}

// The fields SMEM keeps in the same place on gfx11 and gfx12: the 64-bit
// size, the op of |opcode|, SBASE[5:0] (an SGPR pair / 2), SDATA[12:6] and
// SOFFSET[63:57] (isa_decode.c). False when fewer than 2 dwords remain.
bool rl_isa_decode_smem_common(const uint32_t* words, uint32_t count,
                               uint32_t opcode, uint32_t features,
                               rl_isa_inst_t* inst);

// The op of a FLAT (|segment| 0) or GLOBAL (2) |opcode|; other segments
// leave inst->op as it is (isa_decode_memory.c).
void rl_isa_flat_global_op(uint32_t segment, uint32_t opcode,
                           uint32_t features, rl_isa_inst_t* inst);

// VOP1, VOP2, VOPC, VOP3, VOP3P, VOPD (isa_decode_vector.c).
bool rl_isa_decode_vector(const uint32_t* words, uint32_t count,
                          uint32_t features, rl_isa_inst_t* inst);
// DS, FLAT/GLOBAL/SCRATCH, MUBUF (isa_decode_memory.c).
bool rl_isa_decode_memory(const uint32_t* words, uint32_t count,
                          uint32_t features, rl_isa_inst_t* inst);

#endif  // REDLINE_SIM_ISA_ISA_DECODE_INTERNAL_H_
