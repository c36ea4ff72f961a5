// sim/isa/isa_program.h — a kernel's machine code decoded once into
// an instruction array, and the process-wide cache of such programs
// (private to rl_sim_isa).
//
// Building. The builder sweeps the code linearly from the kernel's entry:
// it decodes instruction after instruction, notes the furthest forward
// branch target, and stops at an instruction that does not fall through
// (s_endpgm, s_branch, s_setpc_b64, s_code_end) once no known branch target
// lies beyond it, or at the first dword it cannot decode or fetch. Calls
// (-O0 code calls the HIP headers' work-item helpers): every direct call the
// sweep meets (s_getpc_b64 + s_add_u32/s_addc_u32 of a PC-relative offset
// into the register pair an s_swappc_b64/s_setpc_b64 then jumps through) is
// a further start, swept the same way (callees may lie below the kernel);
// the regions are merged in address order, so |base_address| is the lowest
// address swept and instruction PCs are offsets from it (equal to offsets
// from the entry when no callee lies below the kernel). A call target that
// is not an instruction boundary of the swept code fails the build. A
// sentinel that faults ("ran past the predecoded code") follows every run
// of contiguous code. Every instruction
// gets its exec function at build time: the opcode's runner, or the fault
// handler when the opcode or one of its forms is not modelled; the
// executor refuses a program with any such instruction before it runs (see
// |unmodelled|), the fault handler stays as a second line of defence.
// Branch targets are resolved to instruction indices (-1 when they leave
// the swept code or land inside an instruction); jumps through registers
// (s_swappc_b64, s_setpc_b64) are resolved when they run, by
// rl_isa_program_index(). Nothing is allocated while executing.
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

#include "sim/isa/isa_inst.h"

#ifdef __cplusplus
extern "C" {
#endif

// Largest code span (bytes) a program may have, and most regions (the
// kernel and the functions it calls) it may sweep.
#define RL_ISA_PROGRAM_MAX_BYTES (1u << 20)
#define RL_ISA_PROGRAM_MAX_REGIONS 256u

typedef struct rl_isa_program_s {
  uint64_t entry_address;
  uint32_t features;
  uint64_t base_address; // lowest address swept (PC 0)
  uint32_t code_bytes;   // bytes from base_address to the end of the code
  uint32_t* code;        // a copy of them (cache validation)
  uint32_t count;        // instructions, the sentinels included
  uint32_t instructions; // instructions, without the sentinels
  uint32_t entry_index;  // the instruction at entry_address
  rl_isa_inst_t* insts;
  int32_t* index;        // (address - base) / 4 -> instruction index or -1
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

// The index of the instruction starting at device |address|, or -1 when no
// predecoded instruction starts there (outside the code, inside an
// instruction).
int32_t rl_isa_program_index(const rl_isa_program_t* program,
                             uint64_t address);

// Drops every cached program (those still referenced live on until
// released). For tests and tools that want a cold cache or a leak check.
void rl_isa_program_cache_clear(void);

// Programs built since the process started (a cache miss counter).
uint64_t rl_isa_program_builds(void);

// The static call-target scan of one swept region (isa_callscan.c): feed
// it every instruction in address order from the region's start; it
// returns true with *|out_target| at a s_swappc_b64/s_setpc_b64 whose
// register pair holds a known address. Zero-initialise before use.
#define RL_ISA_CALLSCAN_LANES 64u
typedef struct rl_isa_scan_lane_s {
  uint8_t kind;    // 0 free, 1 a VGPR lane, 2 a stack slot's lane
  uint8_t where;   // the VGPR, or the slot's base SGPR
  uint8_t lane;
  int32_t offset;  // the slot's offset from its base SGPR
  uint32_t value;
} rl_isa_scan_lane_t;
typedef struct rl_isa_callscan_s {
  bool known[128];
  uint32_t value[128];
  bool carry_known;
  uint32_t carry;
  rl_isa_scan_lane_t lane[RL_ISA_CALLSCAN_LANES];
  uint32_t next_lane;
} rl_isa_callscan_t;
bool rl_isa_callscan_step(rl_isa_callscan_t* scan, const rl_isa_inst_t* inst,
                          uint64_t address, uint64_t* out_target);

// One past the highest VGPR a DS/FLAT/GLOBAL instruction touches
// (isa_mem.c).
uint32_t rl_isa_mem_vgpr_end(const rl_isa_inst_t* inst);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_ISA_ISA_PROGRAM_H_
