// tests/isa_conformance/isa_conf_suite.h — pieces the conformance test's
// files share: the seeded generator, the program prologue/epilogue, the
// per-opcode result record and the case families (isa_conf_alu.c for the
// lane-model ALU opcodes, isa_conf_special.c for lane-crossing, program
// control, memory and VOPD).
#ifndef REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_SUITE_H_
#define REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_SUITE_H_

#include <stdbool.h>
#include <stdint.h>

#include "sim/isa/isa_inst.h"
#include "tests/isa_conformance/isa_conf_encode.h"
#include "tests/isa_conformance/isa_conf_harness.h"

// The suite's seed (docs/isa-conformance.md); each opcode's generator is
// this mixed with a hash of its mnemonic, so cases do not shift when an
// opcode is added.
#define RL_CONF_SEED 0x15ac0f2026ull

typedef struct rl_conf_rng_s {
  uint64_t state;
} rl_conf_rng_t;

void rl_conf_rng_init(rl_conf_rng_t* rng, const char* name);
uint64_t rl_conf_rng_next(rl_conf_rng_t* rng);

// The outcome of one opcode: cases (operand sets x forms x modes) checked,
// mismatches, and the first mismatch described.
typedef struct rl_conf_result_s {
  uint64_t cases;
  uint64_t failures;
  uint32_t mod_forms;  // RL_CONF_MOD_* forms the case ran
  char first[512];
} rl_conf_result_t;

// Modifier forms beyond ABS/NEG/CLAMP: the coverage check asks the executor
// which of them it accepts for an opcode and fails when the case did not
// run one (isa_conformance_test.c).
enum {
  RL_CONF_MOD_OMOD = 1u << 0,
  RL_CONF_MOD_OPSEL_SRC0 = 1u << 1,  // << n for source n
  RL_CONF_MOD_OPSEL_DST = 1u << 4,
  RL_CONF_MOD_DPP16 = 1u << 5,
  RL_CONF_MOD_DPP8 = 1u << 6,
  RL_CONF_MOD_DPP16_VOP3 = 1u << 7,
};

void rl_conf_fail(rl_conf_result_t* result, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// Emits the common prologue: v0 = global lane index, v250 = v0 * |in_bytes|,
// v251 = v0 * |out_bytes|, s[4:5] = in, s[6:7] = out, s[8:9] = aux, then
// loads |in_dwords| dwords of the lane's input record into v1, v2, ... (or
// into the registers of |regs| when non-NULL).
void rl_conf_prologue(rl_conf_program_t* p, uint32_t in_bytes,
                      uint32_t out_bytes, uint32_t in_dwords,
                      const uint32_t* regs);
// Stores VGPR |vgpr| to the lane's output record at |byte_offset|.
void rl_conf_store(rl_conf_program_t* p, uint32_t vgpr, uint32_t byte_offset);
// Counts one case of |name|; fails it when |got| (value |what| of |lane|)
// is not |want|.
void rl_conf_check(rl_conf_result_t* result, const char* name, uint32_t lane,
                   uint32_t what, uint32_t got, uint32_t want);
// EXEC from a lane flag (v_cmpx_ne_u32 0, vflag), and back to all lanes.
void rl_conf_active(rl_conf_program_t* p, uint32_t vflag);
void rl_conf_all_lanes(rl_conf_program_t* p);
void rl_conf_endpgm(rl_conf_program_t* p);

// Runs |p| (rl_conf_run); on a fault counts one failed case of |name|
// naming the fault and returns false.
bool rl_conf_go(rl_conf_device_t* device, const rl_conf_program_t* p,
                const rl_conf_config_t* cfg, const char* name,
                rl_conf_result_t* result);
// |count| words from |rng|.
void rl_conf_fill_random(rl_conf_rng_t* rng, uint32_t* words, uint32_t count);

// Case families: each returns false when |op| is not one it handles.
bool rl_conf_alu_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                      uint32_t encoding, rl_conf_result_t* result);
bool rl_conf_special_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                          uint32_t encoding, rl_conf_result_t* result);
// GLOBAL/FLAT loads and stores, and their atomics (isa_conf_vmem.c).
bool rl_conf_vmem(rl_conf_device_t* device, const rl_isa_op_t* op,
                  uint32_t encoding, rl_conf_result_t* result);
bool rl_conf_vmem_atomic(rl_conf_device_t* device, const rl_isa_op_t* op,
                         uint32_t encoding, rl_conf_result_t* result);
// SCRATCH loads/stores and s_setpc_b64/s_swappc_b64 (isa_conf_private.c).
bool rl_conf_private_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                          uint32_t encoding, rl_conf_result_t* result);
// v_permlane16/x16 and gfx12's _var forms (isa_conf_lanes.c).
bool rl_conf_permlane_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                           rl_conf_result_t* result);
// s_denorm_mode, s_round_mode, s_getreg/s_setreg (isa_conf_mode.c).
bool rl_conf_mode_case(rl_conf_device_t* device, const rl_isa_op_t* op,
                       rl_conf_result_t* result);

// Opcode numbers the harness code itself uses (RDNA3 ISA guide opcode
// tables; checked with llvm-mc-19 by isa_conf_encode_test.c).
enum {
  RL_CONF_SOP1_MOV_B32 = 0x00,
  RL_CONF_SOP2_LSHL_B32 = 0x08,
  RL_CONF_SOPC_CMP_LG_U32 = 0x07,
  RL_CONF_SOPP_WAITCNT = 0x09,
  RL_CONF_SOPP_ENDPGM = 0x30,
  RL_CONF_SMEM_LOAD_B64 = 0x01,
  RL_CONF_SMEM_LOAD_B128 = 0x02,
  RL_CONF_VOP1_MOV_B32 = 0x01,
  RL_CONF_VOP2_ADD_NC_U32 = 0x25,
  RL_CONF_VOP2_MUL_U32_U24 = 0x0b,
  RL_CONF_VOP3_CNDMASK_B32 = 0x101,
  RL_CONF_VOP3_CMP_NE_U32 = 0x4d,
  RL_CONF_VOPC_CMPX_NE_U32 = 0xcd,
  RL_CONF_VOP3_READLANE = 0x360,
  RL_CONF_VOP3_WRITELANE = 0x361,
  RL_CONF_GLOBAL_LOAD_B32 = 0x14,
  RL_CONF_GLOBAL_STORE_B32 = 0x1a,
};

#endif  // REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_SUITE_H_
