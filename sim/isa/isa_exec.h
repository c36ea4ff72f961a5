// sim/isa/isa_exec.h — the state of one wave32 wave and of its
// work-group while the ISA executor runs it, and the semantic functions the
// opcode tables bind (private to rl_sim_isa).
//
// Register file (RDNA3 ISA guide, "State"): the SGPR array is indexed by the
// source-operand code, so s0..s105 are 0..105, VCC_LO/HI 106/107, TTMP
// 108..123, NULL 124 (reads are decoded as the constant 0; writes land in
// a slot nothing reads), M0 125 and EXEC_LO/HI 126/127. Wave32 uses EXEC_LO
// and VCC_LO only; the high halves exist but no instruction of a wave32
// program depends on them. SCC is separate. VGPRs are stored register-major
// (vgpr[r][lane]) so a lane loop walks contiguous memory.
//
// Execution is in program order, one instruction at a time for the whole
// wave: every memory access completes before the next instruction, so
// s_waitcnt, s_delay_alu, s_clause and s_nop have nothing to wait for. Waves
// of a work-group run round-robin between barriers (isa_executor.c).
#ifndef REDLINE_SIM_ISA_ISA_EXEC_H_
#define REDLINE_SIM_ISA_ISA_EXEC_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/isa/isa_decode_internal.h"
#include "sim/isa/isa_inst.h"
#include "sim/sim_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_ISA_LANES 32
#define RL_ISA_SGPRS 128
#define RL_ISA_ALL_LANES 0xffffffffu

// Float mode bits of a dispatch (from COMPUTE_PGM_RSRC1).
enum {
  RL_ISA_MODE_FTZ32 = 1u << 0,  // FLOAT_DENORM_MODE_32 = 0: flush in and out
  RL_ISA_MODE_IEEE = 1u << 1,   // IEEE_MODE: sNaN-aware min/max
  RL_ISA_MODE_DX10_CLAMP = 1u << 2,  // clamp turns NaN into 0
};

typedef enum rl_isa_wave_state_e {
  RL_ISA_WAVE_RUNNING = 0,
  RL_ISA_WAVE_BARRIER = 1,  // waiting in s_barrier
  RL_ISA_WAVE_ENDED = 2,    // s_endpgm
  RL_ISA_WAVE_GWS = 3,      // waiting in ds_gws_barrier (isa_gws.c)
} rl_isa_wave_state_t;

// One global wave sync barrier of a dispatch (gfx11 GWS, isa_gws.c): the
// waves that arrived in the current round, the count every one of them
// gave (waves - 1), and the rounds completed (a waiting wave is released
// once this moves past the round it arrived in).
#define RL_ISA_GWS_RESOURCES 64u
typedef struct rl_isa_gws_s {
  uint32_t arrived;
  uint32_t count;
  uint32_t generation;
} rl_isa_gws_t;

// The work-group a wave belongs to: memory, LDS and the dispatch's modes.
typedef struct rl_isa_group_s {
  rl_sim_wg_t* wg;
  uint8_t* lds;
  uint32_t lds_size;
  uint32_t mode;              // RL_ISA_MODE_*
  uint64_t entry_address;     // device address of PC 0 (the program base)
  const rl_isa_inst_t* insts; // the program
  const struct rl_isa_program_s* program;  // its jump map (isa_call.c)
  // Stale reads held back until their value's use is known (isa_stale.c);
  // only when the device runs the cache model.
  bool caches;
  rl_sim_deferred_t stale;
  // The dispatch's GWS barriers ([RL_ISA_GWS_RESOURCES]); only a
  // cooperative dispatch's waves touch them (one CP thread steps all its
  // work-groups).
  rl_isa_gws_t* gws;
} rl_isa_group_t;

struct rl_isa_wave_s {
  uint32_t sgpr[RL_ISA_SGPRS];
  uint32_t scc;
  uint32_t pc;     // index of the next instruction
  uint32_t state;  // rl_isa_wave_state_t
  uint32_t id;     // wave index in the work-group
  uint32_t mode;      // RL_ISA_MODE_* now (s_denorm_mode, s_setreg change it)
  uint32_t mode_reg;  // the MODE hardware register (isa_mode.c)
  uint32_t (*vgpr)[RL_ISA_LANES];
  uint32_t vgpr_count;
  rl_isa_group_t* group;
  // RL_ISA_WAVE_GWS: the barrier waited at, the round it arrived in and
  // the instruction (index) of the ds_gws_barrier.
  uint32_t gws_resource;
  uint32_t gws_generation;
  uint32_t gws_pc;
  // The private segments of the wave's 32 work-items: lane l's is
  // |private_size| bytes at private_mem + l * private_size (isa_scratch.c).
  uint8_t* private_mem;
  uint32_t private_size;
  // Scratch rows for broadcast scalar operands, modified sources and
  // results (VALU runners).
  uint32_t tmp[12][RL_ISA_LANES];
};

// The lane-parallel state a VALU runner hands to an opcode's lane kernel.
// Sources are 32 lane values each (|hi| rows for 64-bit operands); results
// go to |d| (|d_hi|). |mask| is the carry-in / select mask (source 2 of
// carry ops and v_cndmask), |mask_out| the carry-out or compare result.
typedef struct rl_isa_valu_s {
  const uint32_t* s[3];
  const uint32_t* hi[3];
  uint32_t* d;
  uint32_t* d_hi;
  uint32_t exec;
  uint32_t mask;
  uint32_t mask_out;
  uint32_t mode;
  uint32_t arg;
  // Set only for the opcodes that read them, so the common VALU path
  // stays as short as before: the destination row before the instruction
  // (RL_ISA_F_KEEP_HI: 16-bit results keep its high half) and the VOP3
  // clamp bit (RL_ISA_F_INT_CLAMP kernels).
  const uint32_t* old;
  bool clamp;
} rl_isa_valu_t;
typedef void (*rl_isa_lanes_fn)(rl_isa_valu_t* v);

// The scalar state an SALU opcode kernel sees: sources widened to 64 bits,
// the result, SCC in and out.
typedef struct rl_isa_salu_s {
  uint64_t a, b, c;
  uint64_t d;
  uint32_t scc;
  uint32_t mode;
  uint32_t arg;
} rl_isa_salu_t;
typedef void (*rl_isa_salu_fn)(rl_isa_salu_t* s);

// Defines the exported table |name| over the array |ops|.
#define RL_ISA_TABLE(name, ops) \
  const rl_isa_table_t name = {ops, sizeof(ops) / sizeof(ops[0]), NULL}
// The same, chained to |next| (rl_isa_table_t).
#define RL_ISA_TABLE_CHAIN(name, ops, next) \
  const rl_isa_table_t name = {ops, sizeof(ops) / sizeof(ops[0]), (next)}

// Tables other files chain in (isa_valu16.c, isa_packed.c, isa_divide.c,
// isa_float64.c, isa_frexp.c, isa_atomic.c, isa_permute.c, isa_gws.c).
extern const rl_isa_table_t rl_isa_table_vop1_16, rl_isa_table_vop2_16,
    rl_isa_table_vop3_16, rl_isa_table_vopc_16, rl_isa_table_vop2_packed,
    rl_isa_table_vop3p_packed, rl_isa_table_vop3_divide,
    rl_isa_table_vopc_class, rl_isa_table_ds_atomic,
    rl_isa_table_flat_atomic, rl_isa_table_global_atomic,
    rl_isa_table_ds_permute, rl_isa_table_vop1_f64, rl_isa_table_vop3_f64,
    rl_isa_table_sopp_mode, rl_isa_table_sopk_mode, rl_isa_table_vop1_frexp,
    rl_isa_table_vop3_frexp, rl_isa_table_vopd_packed,
    rl_isa_table_vop3_permlane, rl_isa_table_ds_gws;

// Reads a 32-bit (or the low/high halves of a 64-bit) scalar operand.
static inline uint32_t rl_isa_read_s32(const rl_isa_wave_t* wave,
                                       const rl_isa_operand_t* operand) {
  switch (operand->kind) {
    case RL_ISA_OPK_SGPR: return wave->sgpr[operand->reg];
    case RL_ISA_OPK_CONST: return (uint32_t)operand->value;
    case RL_ISA_OPK_SCC: return wave->scc;
    case RL_ISA_OPK_VCCZ: return wave->sgpr[RL_ISA_SRC_VCC] == 0;
    case RL_ISA_OPK_EXECZ: return wave->sgpr[RL_ISA_SRC_EXEC] == 0;
    default: return 0;
  }
}

static inline uint64_t rl_isa_read_s64(const rl_isa_wave_t* wave,
                                       const rl_isa_operand_t* operand) {
  if (operand->kind == RL_ISA_OPK_SGPR) {
    uint32_t r = operand->reg;
    return wave->sgpr[r] | (uint64_t)wave->sgpr[(r + 1) & 127] << 32;
  }
  if (operand->kind == RL_ISA_OPK_CONST) return operand->value;
  return rl_isa_read_s32(wave, operand);
}

static inline void rl_isa_write_s64(rl_isa_wave_t* wave, uint32_t reg,
                                    uint64_t value) {
  wave->sgpr[reg & 127] = (uint32_t)value;
  wave->sgpr[(reg + 1) & 127] = (uint32_t)(value >> 32);
}

// Faults: an unsupported instruction or operand form, with |inst| named.
// isa_gws.c: whether a wave waiting at a GWS barrier may go on (its round
// completed), and what it waits for ("ds_gws_barrier at PC +0x1c0,
// resource 0: 3 of 4 waves arrived").
bool rl_isa_gws_released(const rl_isa_wave_t* wave);
void rl_isa_gws_describe(const rl_isa_wave_t* wave, char* out, size_t size);

rl_status_t rl_isa_fault(const rl_isa_inst_t* inst, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
// The exec function of instructions without semantics.
rl_isa_exec_t rl_isa_exec_unsupported;

// Checks, once per instruction at predecode, the forms the runners do not
// model (modifiers, operand kinds); NULL when |inst| can run.
const char* rl_isa_inst_unsupported_reason(const rl_isa_inst_t* inst);

// The capability flags of |processor|; false when it is not modelled
// (isa_executor.c).
bool rl_isa_processor_features(const char* processor, uint32_t* out_features);

// RL_STATUS_CONTRACT naming |kernel_name| and |program|'s first
// unmodelled instruction, or OK when it has none (isa_check.c).
struct rl_isa_program_s;
rl_status_t rl_isa_program_refusal(const struct rl_isa_program_s* program,
                                   const char* kernel_name);

// MODE (isa_mode.c): the register value of the RL_ISA_MODE_* bits |mode|
// (rounding nearest-even, 16/64-bit denormals kept), and the forms of the
// MODE instructions the executor does not model, or NULL.
uint32_t rl_isa_mode_register(uint32_t mode);
const char* rl_isa_mode_reason(const rl_isa_inst_t* inst);

// DPP (isa_dpp.c): fills |row| with the 32 lanes' source 0 under
// |inst|'s DPP16/DPP8 control and returns the lanes allowed to write;
// the DPP forms the executor does not model, or NULL.
uint32_t rl_isa_dpp_fetch(const rl_isa_wave_t* wave, const rl_isa_inst_t* inst,
                          uint32_t* row);
const char* rl_isa_dpp_reason(const rl_isa_inst_t* inst);

// The forms of the packed/mixed VOP3P opcodes their runners do not model,
// or NULL (isa_packed.c).
const char* rl_isa_packed_reason(const rl_isa_inst_t* inst);

// Writes the lanes of |exec| of |values| to the VGPR row |dst| (the other
// lanes keep their value); |values| is not |dst| (isa_valu.c).
void rl_isa_write_lanes(uint32_t* dst, const uint32_t* values, uint32_t exec);

// Runners (exec functions) of the tables.
rl_isa_exec_t rl_isa_exec_salu;
rl_isa_exec_t rl_isa_exec_sopk;
rl_isa_exec_t rl_isa_exec_sopc;
rl_isa_exec_t rl_isa_exec_saveexec;
// The plain SALU forms (isa_salu.c): the runner of its own that the program
// builder binds instead of rl_isa_exec_salu / _sopk / _sopc when |inst|'s
// opcode has one and its sources are SGPRs or constants; NULL otherwise.
// The same registers and SCC as the generic runner.
rl_isa_exec_fn rl_isa_salu_plain(const rl_isa_inst_t* inst);
rl_isa_exec_t rl_isa_exec_getpc;
rl_isa_exec_t rl_isa_exec_setpc;
rl_isa_exec_t rl_isa_exec_swappc;
rl_isa_exec_t rl_isa_exec_nop;
rl_isa_exec_t rl_isa_exec_endpgm;

// Executes |inst| on |wave| (inst->exec), judging the cache model's stale
// reads when the device runs it (isa_stale.c): every runner loop steps
// through this. Instructions whose |stale| bits are 0 (neither a plain
// load nor one that lets a value out of the wave) only run.
enum {
  RL_ISA_STALE_LOAD = 1u << 0,     // a plain FLAT/GLOBAL/SMEM load
  RL_ISA_STALE_ESCAPES = 1u << 1,  // can let a register value out
};
uint8_t rl_isa_stale_kind(const rl_isa_inst_t* inst);
rl_isa_exec_t rl_isa_stale_step;
static inline rl_status_t rl_isa_step(rl_isa_wave_t* wave,
                                      const rl_isa_inst_t* inst) {
  if (!wave->group->caches || inst->stale == 0) return inst->exec(wave, inst);
  return rl_isa_stale_step(wave, inst);
}
rl_isa_exec_t rl_isa_exec_code_end;
rl_isa_exec_t rl_isa_exec_branch;
rl_isa_exec_t rl_isa_exec_barrier;
rl_isa_exec_t rl_isa_exec_sendmsg_rtn;
rl_isa_exec_t rl_isa_exec_trap;
rl_isa_exec_t rl_isa_exec_sethalt;
rl_isa_exec_t rl_isa_exec_sendmsg;
rl_isa_exec_t rl_isa_exec_smem_load;
rl_isa_exec_t rl_isa_exec_valu;
rl_isa_exec_t rl_isa_exec_valu_dpp;
rl_isa_exec_t rl_isa_exec_vopc;
rl_isa_exec_t rl_isa_exec_vopc_dpp;
rl_isa_exec_t rl_isa_exec_vopd;
// The plain VALU and VOPC forms (no input or output modifier, no DPP, no
// opcode that reads its old destination: RL_ISA_F_KEEP_HI),
// bound instead of rl_isa_exec_valu / rl_isa_exec_vopc by the program
// builder: the same results without the modifier steps, and the result
// written in place when every lane is active (isa_valu.c).
bool rl_isa_valu_is_plain(const rl_isa_inst_t* inst);
rl_isa_exec_t rl_isa_exec_valu_plain;
rl_isa_exec_t rl_isa_exec_vopc_plain;
rl_isa_exec_t rl_isa_exec_vop3p;
rl_isa_exec_t rl_isa_exec_readfirstlane;
rl_isa_exec_t rl_isa_exec_readlane;
rl_isa_exec_t rl_isa_exec_writelane;
rl_isa_exec_t rl_isa_exec_ds;
// v_permlane16/x16 and gfx12's _var forms (isa_permlane.c); |arg| of the
// row: RL_ISA_PERMLANE_X reads the other row, RL_ISA_PERMLANE_VAR takes
// per-lane selects from VGPR source 1.
enum { RL_ISA_PERMLANE_X = 1u << 0, RL_ISA_PERMLANE_VAR = 1u << 1 };
rl_isa_exec_t rl_isa_exec_permlane;
bool rl_isa_is_permlane(const rl_isa_op_t* op);
// The forms of a lane permute that are refused, or NULL.
const char* rl_isa_permlane_reason(const rl_isa_inst_t* inst);
rl_isa_exec_t rl_isa_exec_flat;
rl_isa_exec_t rl_isa_exec_scratch;

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_ISA_ISA_EXEC_H_
