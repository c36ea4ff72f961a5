// sim/isa/isa_executor.h — the `isa` executor of the simulated GPU:
// an interpreter of the real gfx11 (RDNA3) wave32 machine code of the
// loaded code object, run one work-group at a time through the executor
// interface of sim/sim_executor.h. Where `ref` runs C references of
// the kernels, `isa` runs what the compiler emitted, so a dispatch that
// redline programs wrongly (entry address, kernarg pointer, user SGPR
// layout, work-group geometry, LDS size) gives a wrong result or a fault,
// as it would on hardware.
//
// begin() checks, before any work-group runs, that the dispatch is one the
// interpreter models, and refuses with RL_STATUS_UNSUPPORTED naming the
// kernel otherwise:
//   - the processor (dispatch->processor) is a gfx11 one: gfx1100-gfx1103
//     or gfx1150-gfx1152 (the latter with the gfx1150 SALU float opcodes),
//     or gfx12: gfx1200, gfx1201 (its own encodings and tables over the
//     same semantics, isa_gfx12.h);
//   - the kernel is wave32 (KERNEL_CODE_PROPERTIES.ENABLE_WAVEFRONT_SIZE32);
//   - rounding is round-to-nearest-even for all sizes, FLOAT_DENORM_MODE_32
//     is 0 (flush) or 3 (keep), FLOAT_DENORM_MODE_16_64 is 3;
//   - the initial SGPR layout is one the simulator can set up (below).
//
// Initial wave state (LLVM AMDGPUUsage, "Initial Kernel Execution State",
// tables "SGPR Register Set Up Order" and "VGPR Register Set Up Order"; see
// also research/pm4_reference.md section 3): user SGPRs from s0 in the
// order the kernel code properties enable them — private segment buffer
// (refused: not on gfx11), dispatch ptr (dispatch->packet_address, the AQL
// packet; refused when 0), queue ptr (refused: no amd_queue_t is
// simulated), kernarg segment ptr (dispatch->kernarg_address), dispatch id
// (dispatch->packet_id), flat scratch init (refused: gfx11 has
// architected flat scratch), preloaded kernargs (refused), private segment
// size (dispatch->private_segment_size). COMPUTE_PGM_RSRC2.USER_SGPR is
// the number of SGPRs the CP loads from COMPUTE_USER_DATA_*; AMDGPUUsage
// only requires it to be at least the enabled count, and LLVM 19 does use
// more (USER_SGPR 15 with only the kernarg pointer enabled, for HIP kernels
// on gfx11 — the work-group id then arrives in s15), so the user SGPRs past
// the enabled ones hold poison and a count above USER_SGPR is refused.
// When dispatch->user_sgprs is set (a PM4 dispatch: COMPUTE_USER_DATA_*)
// those values are used verbatim instead: at least the enabled count, at
// most USER_SGPR. System SGPRs start at s[USER_SGPR], as RSRC2 enables
// them: work-group id X, Y, Z, work-group info ({first_wave,
// 14'b0, ordered_append_term[10:0] = 0, threadgroup_size_in_waves[5:0]})
// and the private segment wave offset (refused: no scratch); on gfx12
// (architected SGPRs) the work-group id is in TTMP9 (X) and TTMP7 (Y in
// [15:0], Z in [31:16]) instead, and the system SGPRs start with the
// work-group info. VGPR0 holds
// the packed work-item ids X[9:0], Y[19:10], Z[29:20] ("packed work-item
// IDs" targets), Y and Z only as TIDIG_COMP_CNT enables them. EXEC has one
// bit per live lane (the last wave of a partial work-group has fewer); every
// other SGPR and VGPR starts as the poison value 0xbad0bad0, so a kernel
// that reads state the dispatch did not set computes garbage visibly.
//
// Execution model: isa_exec.h (program order, wave32, waves of a work-group
// round-robin between s_barrier), isa_float.h (float model and
// tolerances), isa_mem.c (memory), isa_program.h (predecode and cache). A
// kernel with an instruction or form that is not modelled is refused before
// it runs (static check, below); such an instruction is never skipped. A
// work-group that executes more than RL_ISA_WORKGROUP_BUDGET
// wave-instructions faults (a kernel that does not seem to terminate). Long
// before that, every RL_SIM_WG_STOP_POLL wave-instructions the executor
// polls its queue's stop flag (sim_executor.h rl_sim_wg_stopping), so
// destroying a queue whose work-group spins forever takes milliseconds.
//
// Thread-safety: the executor object is immutable; per-dispatch state lives
// in the |state| begin() returns; the program cache is thread-safe.
#ifndef REDLINE_SIM_ISA_ISA_EXECUTOR_H_
#define REDLINE_SIM_ISA_ISA_EXECUTOR_H_

#include <stdint.h>

#include "sim/sim_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

// Static check (isa_check.c). The executor refuses, before any instruction
// runs, a kernel whose code holds an instruction it does not model: the
// engine asks at contract time (rl_sim_executor_t.check_kernel, through the
// device's check_kernel), and a dispatch that bypasses the contract is
// refused when its program is resolved, before its first work-group runs.
// Either way the status is RL_STATUS_CONTRACT naming the kernel and the
// first such instruction's LLVM mnemonic, encoding, opcode and PC ("kernel
// k: v_mbcnt_lo_u32_b32 (VOP3 opcode 0x31f) at PC +0x1c is not modelled").
// The code checked is what the dispatch would predecode: the linear sweep
// from the entry of isa_program.h.

// One instruction the executor does not model.
typedef struct rl_isa_unmodelled_s {
  uint32_t pc;           // bytes from the kernel's entry
  const char* mnemonic;  // LLVM mnemonic ("v_mbcnt_lo_u32_b32"), or UNKNOWN
  const char* encoding;  // "VOP3"
  uint32_t opcode;       // the encoding's opcode field
  const char* reason;    // "unknown instruction", "VOP3 op_sel is not ..."
} rl_isa_unmodelled_t;
typedef void (*rl_isa_unmodelled_fn)(void* context,
                                     const rl_isa_unmodelled_t* inst);

// Predecodes for |processor| the kernel whose code starts |entry| bytes into
// |image| (a code object image laid out at base 0, |image_size| bytes) and
// calls |visit| (may be NULL) for each instruction not modelled, in PC
// order. *|out_instructions| is the number of instructions decoded,
// *|out_unmodelled| the number reported. RL_STATUS_UNSUPPORTED for a
// processor the executor does not model.
rl_status_t rl_isa_scan_kernel(const char* processor, const void* image,
                               uint64_t image_size, uint64_t entry,
                               rl_isa_unmodelled_fn visit, void* context,
                               uint32_t* out_instructions,
                               uint32_t* out_unmodelled);

// RL_STATUS_CONTRACT (see above) when |kernel|'s code in |image| holds an
// instruction the executor does not model; OK otherwise.
rl_status_t rl_isa_check_kernel(const char* processor, const void* image,
                                uint64_t image_size,
                                const rl_code_object_kernel_t* kernel);

// Wave-instructions one work-group may execute before it faults.
#define RL_ISA_WORKGROUP_BUDGET (1ull << 32)

// The ISA executor (name "isa"). A static object; never destroyed.
const rl_sim_executor_t* rl_isa_executor(void);

// Wave-instructions retired by every isa dispatch of this process (relaxed
// counter, for benchmarks).
uint64_t rl_isa_executor_instructions(void);

// Programs decoded so far (cache misses) and a way to empty the cache.
uint64_t rl_isa_executor_programs_built(void);
void rl_isa_executor_clear_cache(void);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_ISA_ISA_EXECUTOR_H_
