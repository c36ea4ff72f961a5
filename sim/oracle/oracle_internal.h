// sim/oracle/oracle_internal.h — the pieces of the oracle executor
// (oracle.h): the memory view with its private overlay
// (oracle_memory.c), the field decoder (oracle_decode.c) and the
// work-group interpreter (oracle_wave.c, oracle_vmem.c). Private to
// rl_sim_oracle.
#ifndef REDLINE_SIM_ORACLE_ORACLE_INTERNAL_H_
#define REDLINE_SIM_ORACLE_ORACLE_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "sim/oracle/oracle_model.h"
#include "sim/sim_executor.h"

//===----------------------------------------------------------------------===//
// Memory view: device memory as rl_sim_wg_peek() reads it, under the bytes
// the oracle wrote (never written back).
//===----------------------------------------------------------------------===//

#define RL_ORACLE_PAGE 4096u

typedef struct rl_oracle_page_s {
  uint64_t base;  // page-aligned address
  uint8_t data[RL_ORACLE_PAGE];
  uint8_t written[RL_ORACLE_PAGE / 8];
} rl_oracle_page_t;

typedef struct rl_oracle_mem_s {
  rl_sim_wg_t* wg;  // whose device memory is read
  rl_oracle_page_t** slots;  // open addressing by page base
  uint32_t capacity;  // power of two
  uint32_t count;
} rl_oracle_mem_t;

void rl_oracle_mem_init(rl_oracle_mem_t* mem, rl_sim_wg_t* wg);
void rl_oracle_mem_free(rl_oracle_mem_t* mem);
// False when a byte lies outside every live allocation.
bool rl_oracle_mem_read(rl_oracle_mem_t* mem, uint64_t address, void* out,
                        uint32_t size);
// False (nothing written) when a byte lies outside every live allocation or
// the overlay cannot grow.
bool rl_oracle_mem_write(rl_oracle_mem_t* mem, uint64_t address,
                         const void* data, uint32_t size);
// Whether the oracle wrote the byte at |address|.
bool rl_oracle_mem_written(const rl_oracle_mem_t* mem, uint64_t address);

//===----------------------------------------------------------------------===//
// Decoding: the fields of one gfx11 instruction, extracted here from the
// RDNA3 ISA guide's "Microcode Formats", named through isa_names.h.
//===----------------------------------------------------------------------===//

typedef enum rl_oracle_fmt_e {
  RL_ORACLE_FMT_UNKNOWN = 0,
  RL_ORACLE_FMT_SOP1,
  RL_ORACLE_FMT_SOP2,
  RL_ORACLE_FMT_SOPK,
  RL_ORACLE_FMT_SOPC,
  RL_ORACLE_FMT_SOPP,
  RL_ORACLE_FMT_SMEM,
  RL_ORACLE_FMT_VOP1,
  RL_ORACLE_FMT_VOP2,
  RL_ORACLE_FMT_VOPC,
  RL_ORACLE_FMT_VOP3,
  RL_ORACLE_FMT_VOP3P,
  RL_ORACLE_FMT_VOPD,
  RL_ORACLE_FMT_DS,
  RL_ORACLE_FMT_FLAT,  // FLAT, GLOBAL, SCRATCH (seg)
  RL_ORACLE_FMT_MUBUF,
  RL_ORACLE_FMT_OTHER,  // MTBUF, MIMG, EXP, VINTERP, LDSDIR
} rl_oracle_fmt_t;

typedef struct rl_oracle_inst_s {
  rl_oracle_fmt_t fmt;
  uint32_t length;    // bytes, literal included
  uint32_t opcode;
  const char* name;   // from isa_names.h; NULL when unnamed
  uint32_t words[4];  // the raw words (literal last when present)
  // Operands as the format places them (what a field does not exist for is
  // zero): 9-bit source codes, destinations, modifiers, offsets.
  uint32_t src[3];
  uint32_t vdst;      // VGPR number, or SGPR for scalar formats
  uint32_t sdst;      // VOP3B / VOPC-as-VOP3 / SOP destination
  uint32_t abs, neg, neg_hi, opsel, opsel_hi, omod;
  bool clamp;
  bool has_literal;
  uint32_t literal;
  int32_t simm16;     // SOPP/SOPK immediate (sign-extended)
  // Memory.
  uint32_t seg;       // FLAT: 0 flat, 1 scratch, 2 global
  int32_t offset;     // FLAT/SMEM signed offset; DS offset0 | offset1 << 8
  uint32_t offset0, offset1;
  uint32_t addr, data0, data1, saddr, soffset;
  bool atomic_return;  // gfx11 GLC, gfx12 TH bit 0 on an atomic
  uint32_t th, scope;  // gfx12 cache policy (SMEM, VFLAT)
  // VOPD.
  const char* name_y;
  uint32_t opy, vdsty, srcy0, vsrcy1;
} rl_oracle_inst_t;

// Decodes the instruction at |words| (|count| dwords readable) as gfx11,
// or as gfx12 when |gfx12|: false when the format needs more words than
// |count|.
bool rl_oracle_decode(const uint32_t* words, uint32_t count, bool gfx12,
                      rl_oracle_inst_t* out);

// The pieces the gfx12 decoder (oracle_decode_gfx12.c) shares with the
// gfx11 one: the mnemonic of |opcode| in the generation being decoded, and
// the literal/length bookkeeping after |base| bytes.
const char* rl_oracle_name(uint32_t encoding, uint32_t opcode);
bool rl_oracle_tail(const uint32_t* words, uint32_t count, uint32_t base,
                    bool literal, bool dpp, rl_oracle_inst_t* out);
// The families whose layout gfx12 changed (SMEM, VFLAT/VGLOBAL/VSCRATCH,
// VBUFFER/VIMAGE/VSAMPLE, VINTERP): true when |words| is one of them (|out|
// filled, |out->length| 0 when fewer than its words are readable).
bool rl_oracle_decode_gfx12(const uint32_t* words, uint32_t count,
                            rl_oracle_inst_t* out);

//===----------------------------------------------------------------------===//
// The work-group interpreter.
//===----------------------------------------------------------------------===//

typedef enum rl_oracle_outcome_e {
  RL_ORACLE_DONE = 0,   // ran to s_endpgm in every wave
  RL_ORACLE_SKIP = 1,   // cannot check honestly: |why|
  RL_ORACLE_FAULT = 2,  // an access outside memory: |why|
} rl_oracle_outcome_t;

typedef struct rl_oracle_run_s {
  rl_oracle_outcome_t outcome;
  char why[160];
  uint64_t steps;  // wave-instructions retired
} rl_oracle_run_t;

// One wave's registers, one lane at a time: v[r * 32 + lane].
#define RL_ORACLE_SGPRS 128u
#define RL_ORACLE_VGPRS 256u
#define RL_ORACLE_VCC 106u
#define RL_ORACLE_NULL 124u
#define RL_ORACLE_M0 125u
#define RL_ORACLE_EXEC 126u

typedef struct rl_oracle_wave_s {
  uint32_t s[RL_ORACLE_SGPRS];
  uint32_t* v;
  bool scc;
  uint64_t pc;  // device address of the next instruction
  bool ended;
  bool at_barrier;
} rl_oracle_wave_t;

// A work-group in the oracle.
typedef struct rl_oracle_ctx_s {
  rl_sim_wg_t* wg;
  const rl_sim_dispatch_t* dispatch;
  rl_oracle_mem_t* mem;
  uint8_t* lds;
  uint32_t lds_size;
  uint32_t mode;  // RL_HM_MODE_*
  uint32_t wave_count;
  bool gfx12;  // gfx1200/gfx1201: gfx12 layouts, names, initial state
  rl_oracle_run_t* run;
  bool stop;  // a skip or fault was recorded in |run|
} rl_oracle_ctx_t;

// Records why the work-group cannot be checked (the first reason wins).
void rl_oracle_skip(rl_oracle_ctx_t* ctx, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void rl_oracle_fault(rl_oracle_ctx_t* ctx, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// Operand reads and register writes (oracle_wave.c).
uint64_t rl_oracle_read_scalar(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                               const rl_oracle_inst_t* inst, uint32_t code,
                               bool wide, uint32_t fkind);
uint64_t rl_oracle_sgpr64(const rl_oracle_wave_t* w, uint32_t r);

// The memory formats (oracle_vmem.c): SMEM, DS, FLAT/GLOBAL.
void rl_oracle_exec_smem(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                         const rl_oracle_inst_t* inst);
void rl_oracle_exec_ds(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                       const rl_oracle_inst_t* inst);
void rl_oracle_exec_flat(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w,
                         const rl_oracle_inst_t* inst);

// Executes the instruction at |w|'s pc (oracle_wave.c); a skip or fault
// sets ctx->stop.
void rl_oracle_step(rl_oracle_ctx_t* ctx, rl_oracle_wave_t* w);

// The work-group (oracle_workgroup.c).
// Whether the oracle can set up |dispatch| at all: false with the reason.
bool rl_oracle_dispatch_supported(const rl_sim_dispatch_t* dispatch,
                                  char* why, uint32_t why_size);

// Runs work-group |wg| of its dispatch in the oracle, reading and writing
// through |mem|.
void rl_oracle_run_workgroup(rl_sim_wg_t* wg, rl_oracle_mem_t* mem,
                             rl_oracle_run_t* out_run);

#endif  // REDLINE_SIM_ORACLE_ORACLE_INTERNAL_H_
