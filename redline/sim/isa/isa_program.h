// redline/sim/isa/isa_program.h — a kernel's machine code decoded once into
// an instruction array, and the process-wide cache of such programs
// (private to rl_sim_isa).
//
// Building. The builder sweeps the code linearly from the kernel's entry:
// it decodes instruction after instruction, notes the furthest forward
// branch target, and stops at an instruction that does not fall through
// (s_endpgm, s_branch, s_code_end) once no known branch target lies beyond
// it, or at the first dword it cannot decode or fetch. Every instruction
// gets its exec function at build time: the opcode's runner, or the fault
// handler when the opcode or one of its forms is not modelled; the
// executor refuses a program with any such instruction before it runs (see
// |unmodelled|), the fault handler stays as a second line of defence.
// Branch targets are resolved to instruction indices (-1 when they leave
// the swept code or land inside an instruction). A sentinel that faults ("ran past the predecoded code")
// ends the array. Nothing is allocated while executing.
//
// Caching. Programs are cached by entry address and target features. The
// cache is shared by every dispatch of every simulated device in the
// process, and two devices can load different code at the same address, so
// a hit is only used after the device's current bytes at [entry, entry +
// code_bytes) compare equal to the bytes it was built from (one memory read
// per dispatch); otherwise the program is rebuilt and replaces the entry.
//
// Thread-safety: programs are immutable after building and reference
// counted; the cache is guarded by a mutex. rl_isa_program_get() and
// rl_isa_program_release() may be called from any thread.
#ifndef REDLINE_SIM_ISA_ISA_PROGRAM_H_
#define REDLINE_SIM_ISA_ISA_PROGRAM_H_

#include <stdatomic.h>
#include <stdint.h>

#include "redline/sim/isa/isa_inst.h"

#ifdef __cplusplus
extern "C" {
#endif

// Largest code sweep (bytes) and instruction count a program may have.
#define RL_ISA_PROGRAM_MAX_BYTES (1u << 20)

typedef struct rl_isa_program_s {
  uint64_t entry_address;
  uint32_t features;
  uint32_t code_bytes;   // bytes decoded from the entry
  uint32_t* code;        // a copy of them (cache validation)
  uint32_t count;        // instructions, the sentinel included
  rl_isa_inst_t* insts;
  uint32_t vgpr_end;     // one past the highest VGPR an instruction names
  // Instructions bound to the fault handler (not modelled, the sentinel
  // excluded) and the index of the first; a dispatch of a program with any
  // is refused before it runs (isa_executor.h).
  uint32_t unmodelled;
  uint32_t first_unmodelled;
  atomic_uint refs;
} rl_isa_program_t;

// Reads |size| bytes of device memory at |address|; a failure status is
// released by the caller.
typedef rl_status_t (*rl_isa_fetch_fn)(void* context, uint64_t address,
                                       void* out_data, uint32_t size);

// Builds the program at |entry_address| for |features|, reading code with
// |fetch|. *|out_program| has one reference.
rl_status_t rl_isa_program_build(uint64_t entry_address, uint32_t features,
                                 rl_isa_fetch_fn fetch, void* context,
                                 rl_isa_program_t** out_program);

// A referenced program for |entry_address| whose bytes match the device's
// current code: from the cache when they do, newly built otherwise.
rl_status_t rl_isa_program_get(uint64_t entry_address, uint32_t features,
                               rl_isa_fetch_fn fetch, void* context,
                               rl_isa_program_t** out_program);

void rl_isa_program_release(rl_isa_program_t* program);

// Drops every cached program (those still referenced live on until
// released). For tests and tools that want a cold cache or a leak check.
void rl_isa_program_cache_clear(void);

// Programs built since the process started (a cache miss counter).
uint64_t rl_isa_program_builds(void);

// One past the highest VGPR a DS/FLAT/GLOBAL instruction touches
// (isa_mem.c).
uint32_t rl_isa_mem_vgpr_end(const rl_isa_inst_t* inst);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_ISA_ISA_PROGRAM_H_
