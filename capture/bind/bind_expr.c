// Binding expressions (redline/capture.h): their evaluation, spelling and
// the lookup of a pointer slot's binding, the bottom of the binding hot path
// every route and the model's validation use (capture/bind/launch_bind.h).
#include <stdio.h>

#include "redline/capture.h"

// Binding expressions sit below the model (capture/model calls into this
// folder), so the operator names are spelled here.
static const char* const rl_expr_op_names[RL_EXPR_OP_COUNT_] = {
    "add", "div", "mod", "ceil_div"};

const char* rl_expr_op_name(rl_expr_op_t op) {
  return (unsigned)op < RL_EXPR_OP_COUNT_ ? rl_expr_op_names[op] : "invalid";
}

rl_status_t rl_expr_evaluate(const rl_expr_t* expr, const int64_t* param_values,
                             uint32_t param_count, int64_t* out_value) {
  if (!expr || !out_value || (param_count && !param_values)) {
    return RL_STATUS(
        RL_STATUS_INVALID_ARGUMENT,
        "expression: an expression, values and an output are required");
  }
  *out_value = 0;
  if (expr->param >= param_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "expression uses parameter %u, but there are %u",
                     expr->param, param_count);
  }
  if ((unsigned)expr->op >= RL_EXPR_OP_COUNT_) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "expression operator %u",
                     (unsigned)expr->op);
  }
  int64_t sum = 0, scaled = 0;
  if (__builtin_mul_overflow(param_values[expr->param], rl_expr_scale(expr),
                             &scaled) ||
      __builtin_add_overflow(scaled, expr->add, &sum)) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "expression overflows");
  }
  if (expr->op == RL_EXPR_ADD) {
    if (expr->operand != 0) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "add expression has operand %lld, expected 0",
                       (long long)expr->operand);
    }
    *out_value = sum;
  } else {
    if (expr->operand <= 0) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "%s expression has operand %lld, expected > 0",
                       rl_expr_op_name(expr->op), (long long)expr->operand);
    }
    if (sum < 0) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "%s of negative value %lld", rl_expr_op_name(expr->op),
                       (long long)sum);
    }
    if (expr->op == RL_EXPR_DIV) *out_value = sum / expr->operand;
    if (expr->op == RL_EXPR_MOD) *out_value = sum % expr->operand;
    if (expr->op == RL_EXPR_CEIL_DIV) {
      *out_value = sum / expr->operand + (sum % expr->operand != 0);
    }
  }
  if (*out_value < 0) {
    long long negative = (long long)*out_value;
    *out_value = 0;  // a failed evaluation leaves its output cleared
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "expression value %lld is negative", negative);
  }
  return RL_OK;
}


void rl_expr_format(const rl_capture_t* capture, const rl_expr_t* expr,
                    char* out, size_t out_size) {
  if (!out || out_size == 0) return;
  if (!expr) {
    snprintf(out, out_size, "?");
    return;
  }
  const char* param = capture && expr->param < capture->param_count
                          ? capture->params[expr->param].name
                          : "?";
  char term[RL_CAPTURE_NAME_MAX + 32];
  if (rl_expr_scale(expr) == 1) {
    snprintf(term, sizeof(term), "%s", param);
  } else {
    snprintf(term, sizeof(term), "%lld*%s", (long long)rl_expr_scale(expr),
             param);
  }
  char sum[RL_CAPTURE_NAME_MAX + 64];
  if (expr->add == 0) {
    snprintf(sum, sizeof(sum), "%s", term);
  } else {
    snprintf(sum, sizeof(sum), "%s%+lld", term, (long long)expr->add);
  }
  long long operand = (long long)expr->operand;
  switch (expr->op) {
    case RL_EXPR_ADD: snprintf(out, out_size, "%s", sum); break;
    case RL_EXPR_DIV: snprintf(out, out_size, "(%s)/%lld", sum, operand); break;
    case RL_EXPR_MOD: snprintf(out, out_size, "(%s)%%%lld", sum, operand); break;
    case RL_EXPR_CEIL_DIV:
      snprintf(out, out_size, "ceil((%s)/%lld)", sum, operand);
      break;
    default: snprintf(out, out_size, "invalid-op-%u", (unsigned)expr->op); break;
  }
}

const rl_scalar_binding_t* rl_capture_slot_binding(
    const rl_capture_launch_t* launch, uint32_t slot) {
  if (!launch) return NULL;
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    if (launch->bindings[b].target == RL_BINDING_POINTER_OFFSET &&
        launch->bindings[b].offset == slot) {
      return &launch->bindings[b];
    }
  }
  return NULL;
}
