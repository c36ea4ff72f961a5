// redline/sim/isa/isa_executor.h — the `isa` executor of the simulated GPU:
// an interpreter of the real gfx11 (RDNA3) wave32 machine code of the
// loaded code object, run one work-group at a time through the executor
// interface of redline/sim/sim_executor.h. Where `ref` runs C references of
// the kernels, `isa` runs what the compiler emitted, so a dispatch that
// redline programs wrongly (entry address, kernarg pointer, user SGPR
// layout, work-group geometry, LDS size) gives a wrong result or a fault,
// as it would on hardware.
//
// begin() checks, before any work-group runs, that the dispatch is one the
// interpreter models, and refuses with RL_STATUS_UNSUPPORTED naming the
// kernel otherwise:
//   - the processor (dispatch->processor) is a gfx11 one: gfx1100-gfx1103
//     or gfx1150-gfx1152 (the latter with the gfx1150 SALU float opcodes);
//     gfx12 (gfx1200/gfx1201) encodings differ and are refused;
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
// and the private segment wave offset (refused: no scratch). VGPR0 holds
// the packed work-item ids X[9:0], Y[19:10], Z[29:20] ("packed work-item
// IDs" targets), Y and Z only as TIDIG_COMP_CNT enables them. EXEC has one
// bit per live lane (the last wave of a partial work-group has fewer); every
// other SGPR and VGPR starts as the poison value 0xbad0bad0, so a kernel
// that reads state the dispatch did not set computes garbage visibly.
//
// Execution model: isa_exec.h (program order, wave32, waves of a work-group
// round-robin between s_barrier), isa_float.h (float model and
// tolerances), isa_mem.c (memory), isa_program.h (predecode and cache). An
// instruction or form that is not modelled faults with
// RL_STATUS_UNSUPPORTED naming its mnemonic, encoding, opcode and PC when
// it executes; it is never skipped. A work-group that executes more than
// RL_ISA_WORKGROUP_BUDGET wave-instructions faults (a kernel that does not
// terminate would otherwise hang the command processor).
//
// Thread-safety: the executor object is immutable; per-dispatch state lives
// in the |state| begin() returns; the program cache is thread-safe.
#ifndef REDLINE_SIM_ISA_ISA_EXECUTOR_H_
#define REDLINE_SIM_ISA_ISA_EXECUTOR_H_

#include <stdint.h>

#include "redline/sim/sim_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

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
