// Binding inference over step captures (capture/recording/step_infer.h): the merged
// capture, its admitted ranges and the held-out check; the plan comes from
// step_infer_fit.c.
#include "capture/recording/step_infer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "capture/recording/step_infer_internal.h"

//===----------------------------------------------------------------------===//
// Admitted ranges
//===----------------------------------------------------------------------===//

// The access of slot |s| relative to its pointer, when it is the same in
// every step: [rel_lo, rel_hi). False when the extent is the whole buffer
// or moves differently (then only the pointer itself is kept inside).
static bool rl_infer_slot_access(rl_capture_t* const* steps, uint32_t n,
                                 uint32_t l, uint32_t s, int64_t* rel_lo,
                                 int64_t* rel_hi) {
  for (uint32_t k = 0; k < n; ++k) {
    const rl_pointer_slot_t* slot = &steps[k]->launches[l].slots[s];
    const rl_capture_buffer_t* buffer = &steps[k]->buffers[slot->buffer];
    int64_t lo = (int64_t)slot->extent_offset - (int64_t)slot->offset;
    int64_t hi = lo + (int64_t)slot->extent_size;
    if (slot->extent_offset == 0 && slot->extent_size == buffer->size) {
      return false;
    }
    if (k > 0 && (lo != *rel_lo || hi != *rel_hi)) return false;
    *rel_lo = lo;
    *rel_hi = hi;
  }
  return true;
}

// One end of an unbound slot's extent over the steps (|ends|, by step) at
// the admitted positions [pos->min, pos->max): the extreme of the steps'
// values and of the affine form through them at both ends when there is
// one (the end moves with the position: an attention kernel reading the KV
// cache up to pos); false when the end varies but not affinely.
static bool rl_infer_extent_end(const int64_t* ends, const int64_t* positions,
                                uint32_t n, const rl_capture_param_t* pos,
                                bool upper, int64_t* out_end) {
  int64_t end = ends[0];
  bool constant = true;
  for (uint32_t k = 0; k < n; ++k) {
    constant &= ends[k] == ends[0];
    end = upper ? (ends[k] > end ? ends[k] : end)
                : (ends[k] < end ? ends[k] : end);
  }
  if (!constant) {
    int64_t scale = 0, add = 0, a = 0, z = 0;
    if (!rl_infer_affine(ends, positions, n, &scale, &add) ||
        __builtin_mul_overflow(scale, pos->min, &a) ||
        __builtin_add_overflow(a, add, &a) ||
        __builtin_mul_overflow(scale, pos->max - 1, &z) ||
        __builtin_add_overflow(z, add, &z)) {
      return false;
    }
    int64_t lo = a < z ? a : z, hi = a < z ? z : a;
    end = upper ? (hi > end ? hi : end) : (lo < end ? lo : end);
  }
  *out_end = end;
  return true;
}

// An unbound slot (its pointer fixed) whose extent the steps recorded
// differently, as observed effects do (capture/recording/observed_effects.h: each
// step's accesses): the effect is the union of the steps' effects and the
// extent covers every step's and, where an end moves affinely with the
// position, the admitted positions' (rl_infer_extent_end), clipped to the
// buffer; an end that varies otherwise gives the whole buffer. A hazard
// plan or effects audit at a later position then sees what the kernel may
// touch there, not only what it touched at the captured positions.
static void rl_infer_fixed_extent(rl_capture_t* const* steps,
                                  const rl_infer_plan_t* plan,
                                  const rl_capture_param_t* pos, uint32_t l,
                                  uint32_t s, rl_pointer_slot_t* slot) {
  const uint32_t n = plan->steps;
  int64_t lo[n], hi[n];
  uint32_t effect = 0;
  for (uint32_t k = 0; k < n; ++k) {
    const rl_pointer_slot_t* x = &steps[k]->launches[l].slots[s];
    lo[k] = (int64_t)x->extent_offset;
    hi[k] = (int64_t)(x->extent_offset + x->extent_size);
    effect |= (uint32_t)x->effect;
  }
  slot->effect = (rl_effect_t)effect;
  const int64_t size = (int64_t)steps[0]->buffers[slot->buffer].size;
  int64_t a = 0, z = size;
  if (!rl_infer_extent_end(lo, plan->positions, n, pos, false, &a) ||
      !rl_infer_extent_end(hi, plan->positions, n, pos, true, &z)) {
    a = 0;
    z = size;
  }
  a = a < 0 ? 0 : a;
  z = z > size ? size : z;
  if (z < a) z = a;
  slot->extent_offset = (uint64_t)a;
  slot->extent_size = (uint64_t)(z - a);
}

// Narrows [*p_lo, *p_hi] to the p with lo ≤ scale × p + add ≤ hi.
static void rl_infer_narrow_affine(int64_t scale, int64_t add, int64_t lo,
                                   int64_t hi, int64_t* p_lo, int64_t* p_hi) {
  // Bounds computed in long double would round; stay in 128-bit ints.
  __int128 a = (__int128)lo - add, b = (__int128)hi - add;
  __int128 from, to;
  if (scale > 0) {
    from = a / scale + ((a % scale != 0) && a > 0);
    to = b / scale - ((b % scale != 0) && b < 0);
  } else {
    __int128 s = -(__int128)scale;  // lo ≤ -s p + add ≤ hi
    from = -b / s + (((-b) % s != 0) && -b > 0);
    to = -a / s - (((-a) % s != 0) && -a < 0);
  }
  if (from > *p_lo) *p_lo = from > INT64_MAX ? INT64_MAX : (int64_t)from;
  if (to < *p_hi) *p_hi = to < INT64_MIN ? INT64_MIN : (int64_t)to;
}

// Narrows the range of |binding|'s parameter so its value fits
// [lo, hi] (value = op(scale × p + add, operand)).
static void rl_infer_narrow(const rl_infer_binding_t* binding, int64_t lo,
                            int64_t hi, int64_t* p_lo, int64_t* p_hi) {
  if (binding->op == RL_EXPR_ADD) {
    rl_infer_narrow_affine(binding->scale, binding->add, lo, hi, p_lo, p_hi);
    return;
  }
  // Inner x = scale × p + add must be ≥ 0 and op(x, d) in [lo, hi].
  int64_t d = binding->operand;
  __int128 x_lo = lo <= 0 ? 0
                  : binding->op == RL_EXPR_CEIL_DIV
                      ? (__int128)(lo - 1) * d + 1
                      : (__int128)lo * d;
  __int128 x_hi = binding->op == RL_EXPR_CEIL_DIV
                      ? (__int128)hi * d
                      : (__int128)hi * d + d - 1;
  if (x_hi > INT64_MAX) x_hi = INT64_MAX;
  rl_infer_narrow_affine(binding->scale, binding->add, (int64_t)x_lo,
                         (int64_t)x_hi, p_lo, p_hi);
}

//===----------------------------------------------------------------------===//
// The merged capture
//===----------------------------------------------------------------------===//

typedef struct rl_infer_merged_s {
  rl_capture_t* capture;
  uint32_t base_params;  // step 0's parameters come first
  uint32_t position;     // index of pos
  int64_t* values;       // steps × param_count
} rl_infer_merged_t;

static void rl_infer_merged_free(rl_infer_merged_t* merged) {
  rl_capture_destroy(merged->capture);
  free(merged->values);
  memset(merged, 0, sizeof(*merged));
}

static uint32_t rl_infer_param_index(const rl_infer_merged_t* merged,
                                     uint32_t plan_param) {
  return plan_param == RL_INFER_POSITION
             ? merged->position
             : merged->position + 1 + plan_param;
}

static rl_expr_t rl_infer_expr(const rl_infer_merged_t* merged,
                               const rl_infer_binding_t* binding) {
  return (rl_expr_t){.param = rl_infer_param_index(merged, binding->param),
                     .add = binding->add, .op = binding->op,
                     .operand = binding->op == RL_EXPR_ADD ? 0
                                                           : binding->operand,
                     .scale = binding->scale == 1 ? 0 : binding->scale};
}

// The admitted range [*out_min, *out_max) of plan parameter |param|: the
// widest around the recorded values on which every binding of it fits.
static rl_status_t rl_infer_param_range(rl_capture_t* const* steps,
                                        const rl_infer_plan_t* plan,
                                        uint32_t param, const char* name,
                                        int64_t* out_min, int64_t* out_max) {
  const rl_capture_t* step0 = steps[0];
  int64_t p_lo = 0, p_hi = INT64_MAX - 1;
  if (param == RL_INFER_POSITION && plan->position_limit > 0) {
    p_hi = plan->position_limit - 1;
  }
  for (uint32_t b = 0; b < plan->binding_count; ++b) {
    const rl_infer_binding_t* x = &plan->bindings[b];
    if (x->param != param) continue;
    const rl_capture_launch_t* launch = &step0->launches[x->launch];
    int64_t lo = 0, hi = 0;
    if (x->target == RL_BINDING_POINTER_OFFSET) {
      const rl_pointer_slot_t* slot = &launch->slots[x->offset];
      int64_t size = (int64_t)step0->buffers[slot->buffer].size;
      int64_t rel_lo = 0, rel_hi = 0;
      hi = size;
      if (rl_infer_slot_access(steps, plan->steps, x->launch, x->offset,
                               &rel_lo, &rel_hi)) {
        lo = rel_lo < 0 ? -rel_lo : 0;
        hi = size - (rel_hi > 0 ? rel_hi : 0);
      }
    } else {
      rl_scalar_binding_t probe = {.target = x->target, .offset = x->offset,
                                   .size = x->size};
      rl_bind_fit_range(step0, launch, &probe, &lo, &hi);
    }
    rl_infer_narrow(x, lo, hi, &p_lo, &p_hi);
  }
  for (uint32_t k = 0; k < plan->steps; ++k) {
    int64_t v = param == RL_INFER_POSITION
                    ? plan->positions[k]
                    : plan->free_values[(size_t)param * plan->steps + k];
    if (v < p_lo || v > p_hi) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "%s=%" PRId64 " at step %u lies outside the range "
                       "[%" PRId64 ", %" PRId64 "] its bindings admit",
                       name, v, k, p_lo, p_hi);
    }
  }
  *out_min = p_lo;
  *out_max = p_hi + 1;
  return RL_OK;
}

// Step 0 with the plan's parameters and bindings.
static rl_status_t rl_infer_build(rl_capture_t* const* steps,
                                  const rl_infer_plan_t* plan,
                                  const char* position_name,
                                  rl_infer_merged_t* out) {
  memset(out, 0, sizeof(*out));
  const rl_capture_t* s0 = steps[0];
  rl_capture_t* c = NULL;
  RL_RETURN_IF_ERROR(rl_capture_create(s0->workload, &c));
  out->capture = c;
  uint32_t index = 0;
  for (uint32_t i = 0; i < s0->code_object_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_code_object(
        c, s0->code_objects[i].bytes, s0->code_objects[i].size, &index));
  }
  for (uint32_t i = 0; i < s0->kernel_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_kernel(c, s0->kernels[i].code_object,
                                             s0->kernels[i].name, &index));
  }
  for (uint32_t i = 0; i < s0->buffer_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_buffer(c, &s0->buffers[i], &index));
  }
  for (uint32_t i = 0; i < s0->param_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_param(c, &s0->params[i], &index));
  }
  out->base_params = s0->param_count;
  out->position = s0->param_count;
  const uint32_t total = s0->param_count + 1 + plan->free_count;
  for (uint32_t p = 0; p < 1 + plan->free_count; ++p) {
    char name[RL_CAPTURE_NAME_MAX];
    uint32_t plan_param = p == 0 ? RL_INFER_POSITION : p - 1;
    snprintf(name, sizeof(name), "%s", p == 0 ? position_name : "");
    if (p > 0) snprintf(name, sizeof(name), "free%u", p - 1);
    rl_capture_param_t param = {.name = name};
    RL_RETURN_IF_ERROR(rl_infer_param_range(steps, plan, plan_param, name,
                                            &param.min, &param.max));
    param.capture_value = p == 0 ? plan->positions[0] : plan->free_values[
        (size_t)(p - 1) * plan->steps];
    RL_RETURN_IF_ERROR(rl_capture_add_param(c, &param, &index));
  }
  out->values = calloc((size_t)plan->steps * total + 1u, sizeof(int64_t));
  if (!out->values) return rl_status_out_of_memory();
  for (uint32_t k = 0; k < plan->steps; ++k) {
    int64_t* row = out->values + (size_t)k * total;
    for (uint32_t i = 0; i < s0->param_count; ++i) {
      row[i] = s0->params[i].capture_value;
    }
    row[out->position] = plan->positions[k];
    for (uint32_t f = 0; f < plan->free_count; ++f) {
      row[out->position + 1 + f] =
          plan->free_values[(size_t)f * plan->steps + k];
    }
  }
  for (uint32_t l = 0; l < s0->launch_count; ++l) {
    rl_capture_launch_t launch = s0->launches[l];
    uint32_t count = 0;
    for (uint32_t b = 0; b < plan->binding_count; ++b) {
      count += plan->bindings[b].launch == l;
    }
    rl_scalar_binding_t bindings[count + 1];
    rl_pointer_slot_t slots[launch.slot_count + 1];
    memcpy(slots, launch.slots, launch.slot_count * sizeof(*slots));
    for (uint32_t x = 0; x < launch.slot_count; ++x) {
      if (!rl_capture_slot_binding(&launch, x)) {
        rl_infer_fixed_extent(steps, plan, &c->params[out->position], l, x,
                              &slots[x]);
      }
    }
    count = 0;
    for (uint32_t b = 0; b < plan->binding_count; ++b) {
      const rl_infer_binding_t* x = &plan->bindings[b];
      if (x->launch != l) continue;
      bindings[count++] = (rl_scalar_binding_t){
          .target = x->target, .offset = x->offset, .size = x->size,
          .expr = rl_infer_expr(out, x)};
      if (x->target != RL_BINDING_POINTER_OFFSET) continue;
      // The slot's extent: the union of its access over the admitted
      // range (the expression is monotone), else the whole buffer.
      rl_pointer_slot_t* slot = &slots[x->offset];
      const rl_capture_param_t* param =
          &c->params[rl_infer_param_index(out, x->param)];
      int64_t rel_lo = 0, rel_hi = 0;
      uint64_t size = s0->buffers[slot->buffer].size;
      slot->extent_offset = 0;
      slot->extent_size = size;
      if (rl_infer_slot_access(steps, plan->steps, l, x->offset, &rel_lo,
                               &rel_hi)) {
        int64_t a = x->scale * param->min + x->add;
        int64_t z = x->scale * (param->max - 1) + x->add;
        int64_t lo = (a < z ? a : z) + rel_lo, hi = (a < z ? z : a) + rel_hi;
        if (lo >= 0 && hi >= lo && (uint64_t)hi <= size) {
          slot->extent_offset = (uint64_t)lo;
          slot->extent_size = (uint64_t)(hi - lo);
        }
      }
    }
    launch.slots = slots;
    launch.bindings = bindings;
    launch.binding_count = count;
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_add_launch(c, &launch, &index), "launch %u", l));
  }
  for (uint32_t i = 0; i < s0->region_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_region(c, &s0->regions[i], &index));
  }
  for (uint32_t i = 0; i < s0->window_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_window(c, &s0->windows[i], &index));
  }
  // Without a window of its own, the capture walks pos over the (up to 8)
  // admitted positions after the last captured step: what shadow and bench
  // run by default.
  const rl_capture_param_t* pos = &c->params[out->position];
  int64_t start = plan->positions[plan->steps - 1] + 1;
  if (s0->window_count == 0 && start < pos->max) {
    rl_capture_window_t window = {
        .param = out->position, .start = start, .stride = 1,
        .count = (uint32_t)(pos->max - start < 8 ? pos->max - start : 8)};
    RL_RETURN_IF_ERROR(rl_capture_add_window(c, &window, &index));
  }
  // Work a step missed is work the merged capture misses too.
  for (uint32_t k = 0; k < plan->steps; ++k) {
    if (!rl_capture_incomplete(steps[k])) continue;
    char reason[512];
    snprintf(reason, sizeof(reason), "step %u: %s", k,
             steps[k]->incomplete_reason ? steps[k]->incomplete_reason
                                         : "unrecorded work");
    RL_RETURN_IF_ERROR(rl_capture_mark_incomplete(
        c, steps[k]->bypassed_launches, reason));
  }
  return rl_capture_validate(c);
}

// Evaluates every launch of |merged| at |values| (rl_launch_bind, the
// evaluator every route uses) and compares with |step|: RL_STATUS_CONTRACT
// naming the first difference, prefixed with |what|.
static rl_status_t rl_infer_reproduce(const rl_capture_t* merged,
                                      const int64_t* values,
                                      const rl_capture_t* step,
                                      const char* what) {
  uint64_t addresses[merged->buffer_count + 1];
  for (uint32_t i = 0; i < merged->buffer_count; ++i) {
    addresses[i] = merged->buffers[i].capture_address;
  }
  for (uint32_t l = 0; l < merged->launch_count; ++l) {
    const rl_capture_launch_t* recorded = &step->launches[l];
    uint8_t* kernarg = malloc(recorded->kernarg_size + 1u);
    if (!kernarg) return rl_status_out_of_memory();
    uint32_t grid[3];
    rl_status_t status =
        rl_launch_bind(merged, l, values, addresses, kernarg, grid);
    if (status) {
      free(kernarg);
      return rl_status_annotate(status, "%s", what);
    }
    const char* kernel = merged->kernels[recorded->kernel].name;
    for (uint32_t a = 0; a < 3; ++a) {
      if (grid[a] != recorded->grid[a]) {
        free(kernarg);
        return RL_STATUS(RL_STATUS_CONTRACT,
                         "%s: launch %u (%s) grid %c: predicted %u, recorded "
                         "%u",
                         what, l, kernel, "xyz"[a], grid[a],
                         recorded->grid[a]);
      }
    }
    for (uint32_t o = 0; o < recorded->kernarg_size; ++o) {
      if (kernarg[o] == recorded->kernarg[o]) continue;
      uint32_t word = o & ~3u;
      uint32_t width = word + 4 <= recorded->kernarg_size ? 4 : 1;
      uint64_t predicted = rl_load_le(kernarg + word, width);
      uint64_t actual = rl_load_le(recorded->kernarg + word, width);
      free(kernarg);
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "%s: launch %u (%s) kernarg byte %u: predicted "
                       "%" PRIu64 ", recorded %" PRIu64,
                       what, l, kernel, word, predicted, actual);
    }
    free(kernarg);
  }
  return RL_OK;
}

// The held-out check: bindings of steps 0..K-2 predict step K-1.
static rl_status_t rl_infer_holdout(rl_capture_t* const* steps, uint32_t k,
                                    const int64_t* positions, int64_t limit,
                                    const char* position_name,
                                    rl_step_infer_result_t* out) {
  rl_infer_plan_t plan;
  rl_infer_merged_t merged = {0};
  const uint32_t held = k - 1;
  rl_status_t status = rl_infer_plan(steps, held, positions, limit, &plan);
  if (!status) status = rl_infer_build(steps, &plan, position_name, &merged);
  int64_t* values = NULL;
  if (!status) {
    // pos from the caller; each free parameter from the held-out step's
    // value at its first site (value / scale, which must divide).
    const rl_capture_t* c = merged.capture;
    values = calloc(c->param_count + 1u, sizeof(int64_t));
    if (!values) status = rl_status_out_of_memory();
    for (uint32_t p = 0; !status && p < c->param_count; ++p) {
      values[p] = c->params[p].capture_value;
    }
    if (!status) values[merged.position] = positions[held];
    for (uint32_t f = 0; !status && f < plan.free_count; ++f) {
      for (uint32_t b = 0; b < plan.binding_count; ++b) {
        const rl_infer_binding_t* x = &plan.bindings[b];
        if (x->param != f) continue;
        const rl_capture_launch_t* l = &steps[held]->launches[x->launch];
        int64_t v = x->target == RL_BINDING_POINTER_OFFSET
                        ? (int64_t)l->slots[x->offset].offset
                        : (int64_t)rl_load_le(l->kernarg + x->offset, x->size);
        values[merged.position + 1 + f] = v / x->scale;
        break;
      }
    }
  }
  char what[96];
  snprintf(what, sizeof(what), "held-out step %u (%s=%" PRId64 ")", held,
           position_name, positions[held]);
  if (!status) {
    status = rl_infer_reproduce(merged.capture, values, steps[held], what);
  }
  out->holdout_checked = true;
  out->holdout_ok = status == RL_OK;
  if (!status) {
    snprintf(out->holdout_line, sizeof(out->holdout_line),
             "%s: predicted exactly by the bindings of steps 0..%u (%u "
             "bindings, %u free parameters)",
             what, held - 1, plan.binding_count, plan.free_count);
  } else {
    snprintf(out->holdout_line, sizeof(out->holdout_line),
             "held-out step %u NOT predicted by the bindings of steps "
             "0..%u: %s",
             held, held - 1, rl_status_message(status));
  }
  free(values);
  rl_infer_merged_free(&merged);
  rl_infer_plan_free(&plan);
  return status;
}

void rl_step_infer_result_free(rl_step_infer_result_t* result) {
  if (!result) return;
  rl_capture_destroy(result->capture);
  free(result->values);
  memset(result, 0, sizeof(*result));
}

rl_status_t rl_step_infer(rl_capture_t* const* steps, uint32_t step_count,
                          const rl_step_infer_options_t* options,
                          rl_step_infer_result_t* out) {
  if (!out) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "step infer: no result");
  }
  memset(out, 0, sizeof(*out));
  if (!steps || step_count < 2) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "step infer: %u steps (at least 2 are needed)",
                     step_count);
  }
  const rl_step_infer_options_t defaults = {0};
  if (!options) options = &defaults;
  const char* name = options->position_name ? options->position_name : "pos";
  int64_t positions[step_count];
  for (uint32_t k = 0; k < step_count; ++k) {
    if (!steps[k]) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "step infer: step %u is "
                       "NULL", k);
    }
    positions[k] = options->positions ? options->positions[k] : (int64_t)k;
    if (k > 0 && positions[k] <= positions[k - 1]) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "step infer: positions must increase (step %u has "
                       "%" PRId64 " after %" PRId64 ")",
                       k, positions[k], positions[k - 1]);
    }
    for (uint32_t l = 0; l < steps[k]->launch_count; ++l) {
      if (steps[k]->launches[l].binding_count) {
        return RL_STATUS(RL_STATUS_UNSUPPORTED,
                         "step infer: step %u launch %u already has "
                         "bindings (inference over declared bindings is not "
                         "supported)", k, l);
      }
    }
    if (k > 0) RL_RETURN_IF_ERROR(rl_infer_compare(steps[0], steps[k], k));
  }
  if (rl_capture_find_param(steps[0], name, &(uint32_t){0})) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "step infer: the steps already have a parameter %s",
                     name);
  }
  rl_infer_plan_t plan;
  rl_infer_merged_t merged = {0};
  rl_status_t status = rl_infer_plan(steps, step_count, positions,
                                     options->position_limit, &plan);
  if (!status) status = rl_infer_build(steps, &plan, name, &merged);
  for (uint32_t k = 0; !status && k < step_count; ++k) {
    char what[64];
    snprintf(what, sizeof(what), "step %u (%s=%" PRId64 ") not reproduced", k,
             name, positions[k]);
    status = rl_infer_reproduce(
        merged.capture, merged.values + (size_t)k * merged.capture->param_count,
        steps[k], what);
  }
  if (!status && step_count >= 4) {
    rl_status_t holdout =
        rl_infer_holdout(steps, step_count, positions,
                         options->position_limit, name, out);
    if (holdout && !options->allow_holdout_miss) {
      status = holdout;
    } else {
      rl_status_free(holdout);
    }
  } else if (!status) {
    snprintf(out->holdout_line, sizeof(out->holdout_line),
             "held-out step: not checked (%u steps; 4 or more are needed)",
             step_count);
  }
  if (status) {
    char line[sizeof(out->holdout_line)];
    memcpy(line, out->holdout_line, sizeof(line));
    bool checked = out->holdout_checked, ok = out->holdout_ok;
    rl_infer_merged_free(&merged);
    rl_infer_plan_free(&plan);
    memset(out, 0, sizeof(*out));
    memcpy(out->holdout_line, line, sizeof(line));
    out->holdout_checked = checked;
    out->holdout_ok = ok;
    return status;
  }
  out->capture = merged.capture;
  out->values = merged.values;
  out->step_count = step_count;
  out->param_count = merged.capture->param_count;
  out->position_param = merged.position;
  out->free_param_count = plan.free_count;
  out->binding_count = plan.binding_count;
  const rl_capture_param_t* pos = &out->capture->params[merged.position];
  snprintf(out->message, sizeof(out->message),
           "%u steps (%s %" PRId64 "..%" PRId64 "): %u bindings, %u free "
           "parameters; %s admitted [%" PRId64 ", %" PRId64 ")",
           step_count, name, positions[0], positions[step_count - 1],
           plan.binding_count, plan.free_count, name, pos->min, pos->max);
  rl_infer_plan_free(&plan);
  return RL_OK;
}
