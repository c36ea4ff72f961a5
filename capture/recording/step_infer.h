// capture/recording/step_infer.h — binding inference: K captures of consecutive
// steps of one program become one capture whose bindings reproduce every
// step (docs/binding-inference.md).
//
// Input: |step_count| ≥ 2 captures, one per step, of the same program: the
// same code objects, kernels and buffers in the same order (buffer sizes,
// alignments, roles and addresses equal), the same launch count, and per
// launch the same kernel, kernarg size, block, dynamic LDS, pointer slot
// count and per slot the same kernarg offset and buffer. A structure
// difference is refused (RL_STATUS_CONTRACT) naming the first one
// ("step 2: launch 7: kernel rmsnorm, step 0 has matmul"). Steps must carry
// no bindings of their own (RL_STATUS_UNSUPPORTED otherwise).
//
// What is compared, per launch, across the steps: every 4-byte kernarg
// word outside the pointer slots (an 8-aligned pair whose high word also
// varies is one 8-byte word when its low word varies, is not affine in
// pos, and its 64-bit values are),
// every grid axis,
// every pointer slot's byte offset in its buffer, and the block and
// dynamic LDS (which may not vary). A target that differs is given the
// simplest expression (redline/capture.h rl_expr_t) of the step's
// parameters that reproduces every step exactly, first that fits of:
//   1. affine in pos:   scale × pos + add (scale ≠ 0 integer);
//   2. a division of an affine form: ceil or floor of (s × pos + a) / d:
//      first a division the launch already uses, then d among the launch's
//      block sizes, then the powers of two 2..2^16, each over the affine
//      forms of the launch, pos, pos + 1 and the other launches' forms, in
//      that order (grids, chunk counts);
//   3. a free per-step parameter (kernarg words and pointer offsets only;
//      never grids): value = scale × free, scale 1 for kernarg words and
//      the gcd of the values for pointer offsets (a token × row-bytes
//      source offset gives free = token when tokens are coprime, in general
//      token / gcd(tokens)); a target whose values are an integer multiple
//      of an existing free parameter's reuses it.
// Parameter `pos` (or options->position_name) takes options->positions[k]
// at step k (the step's ordinal in the program's run; default k). Free
// parameters are named free0, free1, ... in order of first use (launch,
// then kernarg offset; pointer offsets after kernarg words).
//
// Variation no expression explains (a block or dynamic LDS that changes,
// a grid that fits no form, a kernarg word or pointer offset whose values
// fit no form and cannot be a free parameter: a negative or zero-crossing
// value sequence) is refused with RL_STATUS_CONTRACT naming the launch,
// kernel, target (kernarg byte offset, grid axis, slot) and the values.
//
// Checks, before success:
//   - every step reproduced: for each step k and launch, rl_launch_bind of
//     the merged capture at step k's parameter values (with the capture
//     addresses) equals step k's kernarg bytes and grid, byte for byte;
//   - with step_count ≥ 4, hold-out: the bindings inferred from steps
//     0..K-2 alone, evaluated at step K-1's values (pos, and the free
//     parameters' recorded values), reproduce step K-1 exactly. A miss is
//     refused (RL_STATUS_CONTRACT naming the launch and target, predicted
//     and recorded value) unless options->allow_holdout_miss.
// result->holdout_line is the printable verdict either way.
//
// The merged capture is step 0's with the new parameters and bindings;
// it is marked incomplete when any step is (the first reason, prefixed
// with its step).
// Admitted ranges: pos is admitted over the widest interval around the
// captured positions on which every binding of pos fits its target
// (launch_bind.h rl_bind_fit_range) and every bound pointer slot's access
// extent stays inside its buffer (and below options->position_limit);
// a free parameter likewise from 0. A
// bound slot's extent becomes the union of its extents over the admitted
// range (what the hazard plan sees). When step 0 has no window, the
// merged capture gets one: pos from the last captured position + 1, up to
// 8 admitted positions, stride 1 (what shadow and bench walk by default).
//
// Thread-safety: none; pure function of its inputs besides allocation.
#ifndef REDLINE_CAPTURE_STEP_INFER_H_
#define REDLINE_CAPTURE_STEP_INFER_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_step_infer_options_s {
  // Step k's position (step_count values), or NULL for 0, 1, ... K-1.
  // Must be strictly increasing.
  const int64_t* positions;
  // Name of the position parameter; NULL for "pos".
  const char* position_name;
  // Return success even when the held-out step is mispredicted (the
  // verdict is still in result->holdout_line).
  bool allow_holdout_miss;
  // When > 0, pos is admitted below it at most (the engine's context
  // length, so a grid bound to pos stays within the work budget).
  int64_t position_limit;
} rl_step_infer_options_t;

typedef struct rl_step_infer_result_s {
  rl_capture_t* capture;  // merged capture, owned (NULL on failure)
  uint32_t step_count;
  uint32_t param_count;   // == capture->param_count
  // step_count × param_count values, row k = step k's value of every
  // capture parameter (those step 0 already had at their capture values).
  int64_t* values;
  uint32_t position_param;    // index of pos in capture->params
  uint32_t free_param_count;  // free parameters added
  uint32_t binding_count;     // bindings added over all launches
  bool holdout_checked;       // step_count ≥ 4
  bool holdout_ok;            // held-out step predicted exactly
  char holdout_line[512];     // "held-out step 3 (pos=3): predicted exactly
                              // by the bindings of steps 0..2 (N bindings)"
  char message[512];          // one-line summary of what was inferred
} rl_step_infer_result_t;

// Infers the bindings (contract above). |options| may be NULL. On failure
// |out| is left empty (capture NULL, values NULL) and the status says why.
rl_status_t rl_step_infer(rl_capture_t* const* steps, uint32_t step_count,
                          const rl_step_infer_options_t* options,
                          rl_step_infer_result_t* out);

// Frees what |result| owns and zeroes it (safe on a zeroed result).
void rl_step_infer_result_free(rl_step_infer_result_t* result);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CAPTURE_STEP_INFER_H_
