// capture/recording/step_infer_internal.h — what the two halves of binding inference
// share (capture/recording/step_infer.h): the plan (which word of which launch follows
// which form of which parameter), built by step_infer_fit.c from the K
// steps, and turned into the merged capture, its admitted ranges and the
// held-out check by step_infer.c.
#ifndef REDLINE_CAPTURE_STEP_INFER_INTERNAL_H_
#define REDLINE_CAPTURE_STEP_INFER_INTERNAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "capture/recording/step_infer.h"

#define RL_INFER_POSITION 0xFFFFFFFEu  // plan parameter: pos
// Plan parameter ids: RL_INFER_POSITION or a free parameter's index.

typedef struct rl_infer_binding_s {
  uint32_t launch;
  rl_binding_target_t target;
  uint32_t offset, size;
  uint32_t param;  // RL_INFER_POSITION or free index
  int64_t scale, add;
  rl_expr_op_t op;
  int64_t operand;
} rl_infer_binding_t;

typedef struct rl_infer_plan_s {
  uint32_t steps;          // steps the plan was inferred from
  const int64_t* positions;
  int64_t position_limit;  // options->position_limit
  uint32_t binding_count, binding_capacity;
  rl_infer_binding_t* bindings;
  uint32_t free_count, free_capacity;
  int64_t* free_values;    // free_count × steps
} rl_infer_plan_t;

void rl_infer_plan_free(rl_infer_plan_t* plan);

// RL_STATUS_CONTRACT naming the first structure difference of step |k|
// (|b|) from step 0 (|a|).
rl_status_t rl_infer_compare(const rl_capture_t* a, const rl_capture_t* b,
                             uint32_t k);

// |values| (n, indexed by step) = scale × positions + add exactly, with a
// nonzero scale?
bool rl_infer_affine(const int64_t* values, const int64_t* positions,
                     uint32_t n, int64_t* out_scale, int64_t* out_add);

// Infers the bindings of steps[0..n) at |positions| into |plan| (freed by
// rl_infer_plan_free, also on failure).
rl_status_t rl_infer_plan(rl_capture_t* const* steps, uint32_t n,
                          const int64_t* positions, int64_t limit,
                          rl_infer_plan_t* plan);

#endif  // REDLINE_CAPTURE_STEP_INFER_INTERNAL_H_
