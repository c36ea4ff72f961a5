// kernels/ref/ref_executor.h — the `ref` executor of the simulated GPU: C
// reference implementations of the kernels in kernels/*.hip, run one
// work-group at a time through the executor interface of
// sim/sim_executor.h.
//
// Dispatch. begin() looks the kernel up by its metadata name
// (dispatch->kernel->name) in the table of reference kernels and checks,
// before any work-group runs, that the dispatch is one the reference can
// reproduce bit for bit:
//   - the kernel has a reference implementation (RL_STATUS_UNSUPPORTED
//     "no reference implementation for kernel X" otherwise);
//   - the work-group size is the one the kernel was written for (vecchain:
//     64x1x1, the `amdgpu_flat_work_group_size(64, 64)` of the HIP source);
//   - the explicit arguments in the metadata have the count, kinds and
//     sizes the reference reads (hidden arguments are ignored);
//   - binary32 arithmetic is round-to-nearest-even with denormals kept
//     (COMPUTE_PGM_RSRC1 FLOAT_ROUND_MODE_32 = 0, FLOAT_DENORM_MODE_32 = 3),
//     which is what the host's C float arithmetic does;
//   - kernels that use LDS get at least the LDS they need, and kernels
//     whose LDS tree reads every lane's slot run on whole work-groups.
// Every refusal is RL_STATUS_UNSUPPORTED naming the kernel and what was
// expected and found; the command processor turns it into a queue fault.
//
// Execution. run_workgroup() calls the kernel's reference function once per
// work-group. It reads its arguments from the kernarg segment at the
// offsets the metadata gives (looked up by argument index in begin, never
// hard-coded) and touches device memory only through rl_sim_wg_load() and
// rl_sim_wg_store(), one call per element as the work-items would, so every
// access is translated, bounds-checked and seen by the dynamic hazard
// checker. A failed access (VM fault) is returned unchanged.
//
// Faithfulness. The reference reproduces the compiled kernels' results bit
// for bit: the same 32-bit index arithmetic and bounds checks, the same
// float operations in the same order, and fused multiply-add exactly where
// the compiler emitted one (each such decision is documented at the
// function in vecchain_ref.c, citing the gfx11 instruction). NaN payloads
// are the one exception: a NaN result is a NaN, but its payload may differ
// from the GPU's.
//
// Thread-safety: the executor is immutable. Per-dispatch state lives in the
// |state| begin() returns and is released by end(), so work-groups of
// different dispatches may interleave.
#ifndef REDLINE_KERNELS_REF_REF_EXECUTOR_H_
#define REDLINE_KERNELS_REF_REF_EXECUTOR_H_

#include <stdbool.h>

#include "sim/sim_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

// The reference executor (name "ref"). A static object; never destroyed.
const rl_sim_executor_t* rl_ref_executor(void);

// True when kernel |name| (metadata name, without ".kd") has a reference
// implementation: begin() then looks no further than the checks above.
bool rl_ref_executor_has_kernel(const char* name);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_KERNELS_REF_REF_EXECUTOR_H_
