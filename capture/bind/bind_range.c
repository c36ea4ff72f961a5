// The range a binding takes over the admitted parameter range, and the
// replay contract's check that it fits (capture/bind/launch_bind.h).
#include <inttypes.h>

#include "capture/bind/launch_bind.h"

rl_status_t rl_bind_expr_range(const rl_capture_t* capture,
                               const rl_expr_t* expr, int64_t* out_lo,
                               int64_t* out_hi) {
  *out_lo = 0;
  *out_hi = 0;
  if (expr->param >= capture->param_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "parameter %u of %u parameters", expr->param,
                     capture->param_count);
  }
  const rl_capture_param_t* param = &capture->params[expr->param];
  int64_t values[capture->param_count];
  for (uint32_t p = 0; p < capture->param_count; ++p) {
    values[p] = capture->params[p].capture_value;
  }
  const int64_t ends[2] = {param->min, param->max - 1};
  int64_t at[2] = {0, 0};
  for (int e = 0; e < 2; ++e) {
    values[expr->param] = ends[e];
    rl_status_t status =
        rl_expr_evaluate(expr, values, capture->param_count, &at[e]);
    if (status) {
      return rl_status_annotate(status, "%s=%" PRId64, param->name, ends[e]);
    }
  }
  *out_lo = at[0] < at[1] ? at[0] : at[1];
  *out_hi = at[0] < at[1] ? at[1] : at[0];
  if (expr->op == RL_EXPR_MOD) {
    *out_lo = 0;
    *out_hi = expr->operand - 1;
  }
  return RL_OK;
}

rl_status_t rl_bind_check_admitted(const rl_capture_t* capture,
                                   uint32_t launch_index,
                                   uint32_t binding_index) {
  const rl_capture_launch_t* launch = &capture->launches[launch_index];
  const rl_scalar_binding_t* binding = &launch->bindings[binding_index];
  int64_t lo = 0, hi = 0, fit_lo = 0, fit_hi = 0;
  rl_status_t status = rl_bind_expr_range(capture, &binding->expr, &lo, &hi);
  if (status) {
    // The evaluator calls a negative or overflowing value invalid input;
    // here an admitted value drives the binding there, so the range does
    // not hold: a contract failure (exit 4, docs/failure-semantics.md).
    rl_status_t contract =
        RL_STATUS(RL_STATUS_CONTRACT, "%s", rl_status_message(status));
    rl_status_free(status);
    return contract;
  }
  rl_bind_fit_range(capture, launch, binding, &fit_lo, &fit_hi);
  if (binding->target == RL_BINDING_POINTER_OFFSET && lo >= fit_lo &&
      hi <= fit_hi) {
    // The hazard plan reads the slot's extent: it must hold every offset
    // the admitted range reaches (step_infer.h writes the union).
    const rl_pointer_slot_t* slot = &launch->slots[binding->offset];
    if ((uint64_t)lo < slot->extent_offset ||
        (uint64_t)hi > slot->extent_offset + slot->extent_size) {
      const rl_capture_param_t* param = &capture->params[binding->expr.param];
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "pointer slot %u's offset reaches [%" PRId64
                       ", %" PRId64 "] with %s in [%" PRId64 ", %" PRId64
                       "), outside its extent [%" PRIu64 ", +%" PRIu64
                       ") (the hazard plan would miss accesses)",
                       binding->offset, lo, hi, param->name, param->min,
                       param->max, slot->extent_offset, slot->extent_size);
    }
  }
  if (lo >= fit_lo && hi <= fit_hi) return RL_OK;
  const rl_capture_param_t* param = &capture->params[binding->expr.param];
  const int64_t bad = lo < fit_lo ? lo : hi;
  if (binding->target == RL_BINDING_GRID) {
    uint32_t block = launch->block[binding->offset < 3 ? binding->offset : 0];
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "grid axis %u becomes %" PRId64 " work-groups "
                     "(%" PRIu64 " work-items), outside 1..2^32-1 items, "
                     "with %s in [%" PRId64 ", %" PRId64 ")",
                     binding->offset, bad, (uint64_t)bad * block, param->name,
                     param->min, param->max);
  }
  if (binding->target == RL_BINDING_POINTER_OFFSET) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "pointer slot %u's offset becomes %" PRId64
                     ", outside its buffer of %" PRId64 " bytes, with %s in "
                     "[%" PRId64 ", %" PRId64 ")",
                     binding->offset, bad, fit_hi, param->name, param->min,
                     param->max);
  }
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "kernarg byte %u becomes %" PRId64
                   ", which does not fit %u bytes, with %s in [%" PRId64
                   ", %" PRId64 ")",
                   binding->offset, bad, binding->size, param->name,
                   param->min, param->max);
}
