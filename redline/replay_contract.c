// The replay contract (redline/replay.h "Contract") and admission. Every
// check here runs before anything is reserved on the device; a failure is
// RL_STATUS_CONTRACT naming what and where, and poisons the replay.
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "base/byte_order.h"
#include "redline/device/device_kernels.h"
#include "redline/replay_internal.h"
#include "sim/sim.h"

//===----------------------------------------------------------------------===//
// Device and code objects
//===----------------------------------------------------------------------===//

static rl_status_t rl_contract_target(const rl_replay_t* replay) {
  const rl_capture_t* capture = replay->capture;
  const char* device_target = replay->device->target;
  if (!capture->target || strcmp(capture->target, device_target) != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "target: the capture needs %s, the %s device is %s",
                     capture->target ? capture->target : "(none)",
                     replay->device->name, device_target);
  }
  for (uint32_t i = 0; i < capture->code_object_count; ++i) {
    const char* target = capture->code_objects[i].parsed->target;
    if (strcmp(target, device_target) != 0) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "code object %u: target %s, the device is %s", i,
                       target, device_target);
    }
  }
  return RL_OK;
}

static rl_status_t rl_contract_digests(const rl_capture_t* capture) {
  for (uint32_t i = 0; i < capture->code_object_count; ++i) {
    const rl_capture_code_object_t* code = &capture->code_objects[i];
    rl_digest128_t actual = rl_digest128_of(code->bytes, code->size);
    if (!rl_digest128_equal(actual, code->digest)) {
      char expected_hex[RL_DIGEST128_HEX_LENGTH + 1];
      char actual_hex[RL_DIGEST128_HEX_LENGTH + 1];
      rl_digest128_format(code->digest, expected_hex);
      rl_digest128_format(actual, actual_hex);
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "code object %u: digest %s expected, bytes hash to %s",
                       i, expected_hex, actual_hex);
    }
  }
  return RL_OK;
}

// Every launched kernel must be one the device can run (the simulator's
// `isa` executor refuses code with instructions it does not model), checked
// here so the refusal comes before anything is loaded or reserved
// (redline/device/device_kernels.h, the check shadow's arms make too).
static rl_status_t rl_contract_device_kernels(const rl_replay_t* replay) {
  return rl_device_check_capture_kernels(replay->device, replay->capture);
}

//===----------------------------------------------------------------------===//
// Launches: kernarg layout, implicit arguments, zero tail, LDS
//===----------------------------------------------------------------------===//

// The grid binding of |axis| in |launch|, or NULL.
static const rl_scalar_binding_t* rl_contract_grid_binding(
    const rl_capture_launch_t* launch, uint32_t axis) {
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    if (binding->target == RL_BINDING_GRID && binding->offset == axis) {
      return binding;
    }
  }
  return NULL;
}

// The kernarg binding at byte |offset| of |launch|, or NULL.
static const rl_scalar_binding_t* rl_contract_kernarg_binding(
    const rl_capture_launch_t* launch, uint32_t offset) {
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    if (binding->target == RL_BINDING_KERNARG && binding->offset == offset) {
      return binding;
    }
  }
  return NULL;
}

// The value HIP's runtime puts into hidden argument |arg| (funnel.h lists
// the rules); *|out_axis| is the grid axis for block counts, else 3.
static uint64_t rl_contract_hidden_value(const rl_capture_launch_t* launch,
                                         const rl_kernel_arg_t* arg,
                                         uint32_t* out_axis) {
  static const char* const axes = "xyz";
  *out_axis = 3;
  const char* kind = arg->value_kind;
  size_t length = strlen(kind);
  const char* tail = length ? strchr(axes, kind[length - 1]) : NULL;
  uint32_t axis = tail ? (uint32_t)(tail - axes) : 0;
  if (tail && strncmp(kind, "hidden_block_count_", 19) == 0 && length == 20) {
    *out_axis = axis;
    return launch->grid[axis];
  }
  if (tail && strncmp(kind, "hidden_group_size_", 18) == 0 && length == 19) {
    return launch->block[axis];
  }
  if (strcmp(kind, "hidden_grid_dims") == 0) return 3;
  if (strcmp(kind, "hidden_dynamic_lds_size") == 0) return launch->dynamic_lds;
  return 0;
}

static bool rl_contract_expr_equal(const rl_expr_t* a, const rl_expr_t* b) {
  return a->param == b->param && a->add == b->add && a->op == b->op &&
         a->operand == b->operand && rl_expr_scale(a) == rl_expr_scale(b);
}

// One implicit argument: the recorded bytes hold what the runtime would
// fill in, and a block count of a bound grid axis is patched with it.
static rl_status_t rl_contract_hidden_arg(const rl_capture_launch_t* launch,
                                          const rl_kernel_arg_t* arg) {
  uint32_t axis = 3;
  uint64_t expected = rl_contract_hidden_value(launch, arg, &axis);
  uint32_t size = arg->size > 8 ? 8 : arg->size;
  uint64_t recorded = rl_load_le(launch->kernarg + arg->offset, size);
  if (size < 8) expected &= (1ull << (8 * size)) - 1;
  if (recorded != expected) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "implicit argument %s at kernarg byte %u holds %" PRIu64
                     ", the runtime would pass %" PRIu64,
                     arg->value_kind, arg->offset, recorded, expected);
  }
  const rl_scalar_binding_t* grid =
      axis < 3 ? rl_contract_grid_binding(launch, axis) : NULL;
  if (grid) {
    const rl_scalar_binding_t* patch =
        rl_contract_kernarg_binding(launch, arg->offset);
    if (!patch || !rl_contract_expr_equal(&patch->expr, &grid->expr)) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "implicit argument %s at kernarg byte %u follows the "
                       "bound grid axis %u but no binding patches it",
                       arg->value_kind, arg->offset, axis);
    }
  }
  return RL_OK;
}

// Bytes of the kernarg outside every metadata argument must be zero (the
// tail past the implicit arguments included): the loader passes zeros.
static rl_status_t rl_contract_zero_gaps(const rl_capture_launch_t* launch,
                                         const rl_code_object_kernel_t* info) {
  uint32_t cursor = 0;
  for (uint32_t a = 0; a <= info->arg_count; ++a) {
    uint32_t end = a < info->arg_count ? info->args[a].offset
                                       : launch->kernarg_size;
    for (uint32_t byte = cursor; byte < end; ++byte) {
      if (launch->kernarg[byte] != 0) {
        return RL_STATUS(RL_STATUS_CONTRACT,
                         "kernarg byte %u lies outside every argument but "
                         "holds 0x%02x, not zero",
                         byte, launch->kernarg[byte]);
      }
    }
    if (a < info->arg_count) {
      uint32_t arg_end = info->args[a].offset + info->args[a].size;
      if (arg_end > cursor) cursor = arg_end;
    }
  }
  return RL_OK;
}

static rl_status_t rl_contract_kernarg(const rl_capture_launch_t* launch,
                                       const rl_code_object_kernel_t* info) {
  if (launch->kernarg_size != info->kernarg_size) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "kernarg size %u, the loader metadata says %u",
                     launch->kernarg_size, info->kernarg_size);
  }
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* arg = &info->args[a];
    if (arg->offset > launch->kernarg_size ||
        arg->size > launch->kernarg_size - arg->offset) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "argument %u (%s) at byte %u size %u leaves the "
                       "%u-byte kernarg",
                       a, arg->value_kind, arg->offset, arg->size,
                       launch->kernarg_size);
    }
    if (arg->kind == RL_ARG_KIND_HIDDEN) {
      RL_RETURN_IF_ERROR(rl_contract_hidden_arg(launch, arg));
    }
  }
  return rl_contract_zero_gaps(launch, info);
}

static rl_status_t rl_contract_geometry(const rl_replay_t* replay,
                                        const rl_capture_launch_t* launch,
                                        const rl_code_object_kernel_t* info) {
  uint64_t lds = (uint64_t)info->group_segment_size + launch->dynamic_lds;
  if (lds > replay->device->lds_limit) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "LDS %u static + %u dynamic = %" PRIu64
                     " bytes exceeds the device's %u",
                     info->group_segment_size, launch->dynamic_lds, lds,
                     replay->device->lds_limit);
  }
  uint64_t items =
      (uint64_t)launch->block[0] * launch->block[1] * launch->block[2];
  if (items == 0 || (info->max_flat_workgroup_size != 0 &&
                     items > info->max_flat_workgroup_size)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "work-group of %" PRIu64 " work-items, the kernel "
                     "admits 1..%u",
                     items, info->max_flat_workgroup_size);
  }
  return RL_OK;
}

static rl_status_t rl_contract_launches(const rl_replay_t* replay) {
  const rl_capture_t* capture = replay->capture;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    const rl_code_object_kernel_t* info = capture->kernels[launch->kernel].info;
    rl_status_t status = rl_contract_kernarg(launch, info);
    if (!status) status = rl_contract_geometry(replay, launch, info);
    if (status) {
      return rl_status_annotate(status, "launch %u (%s)", l, info->name);
    }
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

// The launch and slot whose extent reaches furthest into |buffer|, for
// naming who needs a workspace's capacity.
static uint64_t rl_contract_extent_need(const rl_capture_t* capture,
                                        uint32_t buffer, uint32_t* out_launch) {
  uint64_t need = 0;
  *out_launch = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      const rl_pointer_slot_t* slot = &launch->slots[s];
      uint64_t end = slot->extent_offset + slot->extent_size;
      if (slot->buffer == buffer && end > need) {
        need = end;
        *out_launch = l;
      }
    }
  }
  return need;
}

static rl_status_t rl_contract_bound_size(const rl_replay_t* replay,
                                          uint32_t index) {
  const rl_capture_buffer_t* buffer = &replay->capture->buffers[index];
  const rl_replay_buffer_t* bound = &replay->buffers[index];
  if (bound->size >= buffer->size || bound->unchecked) return RL_OK;
  if (buffer->role == RL_BUFFER_ROLE_WORKSPACE) {
    uint32_t launch = 0;
    uint64_t need = rl_contract_extent_need(replay->capture, index, &launch);
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "workspace capacity %" PRIu64 " bytes, the capture "
                     "needs %" PRIu64 " (launch %u reaches byte %" PRIu64 ")",
                     bound->size, buffer->size, launch, need);
  }
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "bound allocation of %" PRIu64 " bytes, the capture "
                   "needs %" PRIu64,
                   bound->size, buffer->size);
}

static rl_status_t rl_contract_bound_buffer(const rl_replay_t* replay,
                                            uint32_t index) {
  const rl_capture_buffer_t* buffer = &replay->capture->buffers[index];
  const rl_replay_buffer_t* bound = &replay->buffers[index];
  RL_RETURN_IF_ERROR(rl_contract_bound_size(replay, index));
  if (bound->address & (buffer->alignment - 1)) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "bound address 0x%" PRIx64 " is not aligned to %" PRIu64,
                     bound->address, buffer->alignment);
  }
  if (buffer->keep_address && bound->address != buffer->capture_address) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "must keep its capture address 0x%" PRIx64
                     ", bound at 0x%" PRIx64,
                     buffer->capture_address, bound->address);
  }
  return RL_OK;
}

static rl_status_t rl_contract_buffers(const rl_replay_t* replay) {
  const rl_capture_t* capture = replay->capture;
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    if (!replay->buffers[b].bound) continue;
    rl_status_t status = rl_contract_bound_buffer(replay, b);
    if (status) {
      return rl_status_annotate(status, "buffer %u '%s' (%s)", b,
                                capture->buffers[b].name,
                                rl_buffer_role_name(capture->buffers[b].role));
    }
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Parameters: every admitted value gives representable bindings
//===----------------------------------------------------------------------===//

// Every admitted value gives representable bindings: the check of
// capture/bind/launch_bind.h, with the rule the per-run evaluator applies.
static rl_status_t rl_contract_params(const rl_capture_t* capture) {
  for (uint32_t p = 0; p < capture->param_count; ++p) {
    const rl_capture_param_t* param = &capture->params[p];
    if (param->min >= param->max || param->capture_value < param->min ||
        param->capture_value >= param->max) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "parameter %s: capture value %" PRId64
                       " outside its admitted range [%" PRId64 ", %" PRId64 ")",
                       param->name, param->capture_value, param->min,
                       param->max);
    }
  }
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      rl_status_t status = rl_bind_check_admitted(capture, l, b);
      if (status) {
        return rl_status_annotate(status, "launch %u binding %u", l, b);
      }
    }
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

// The budgets of redline/limits.h: launches per run, work-items per
// dispatch at the largest admitted grid, and the device memory the buffers
// (with their checked-mode guards) and code objects take.
static rl_status_t rl_contract_budgets(const rl_replay_t* replay) {
  uint64_t guard = replay->options.checked ? RL_REPLAY_GUARD_SIZE : 0;
  return rl_limits_check_capture(
      replay->capture, &replay->options.limits,
      rl_limits_capture_device_bytes(replay->capture, guard));
}

// Cooperative launches (rl_capture_launch_t.cooperative) need all their
// work-groups resident at once. The simulator keeps them so on every route
// (its command processor reads the device's cooperative mode, sim.h
// rl_sim_set_cooperative, set for the whole replay: every dispatch of the
// capture then runs with its work-groups open together, a schedule the
// hardware may also choose). A hardware device would need a queue with
// the global wave sync resource, which redline's routes do not create:
// refused, naming the launch.
static rl_status_t rl_contract_cooperative(const rl_replay_t* replay) {
  uint32_t l = rl_capture_first_cooperative(replay->capture);
  if (l == UINT32_MAX) return RL_OK;
  if (rl_sim_device_is(replay->device)) {
    rl_sim_set_cooperative(replay->device, true);
    return RL_OK;
  }
  const rl_capture_launch_t* launch = &replay->capture->launches[l];
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "launch %u (kernel %s) is cooperative "
                   "(hipLaunchCooperativeKernel: all work-groups resident at "
                   "once); device %s cannot keep them so (no queue with the "
                   "global wave sync resource): replay it on the simulator",
                   l, replay->capture->kernels[launch->kernel].name,
                   replay->device->name ? replay->device->name : "?");
}

static rl_status_t rl_contract_all(const rl_replay_t* replay) {
  RL_RETURN_IF_ERROR(rl_capture_incomplete_status(replay->capture));
  // Budgets first: a hostile capture is refused for its size before any
  // per-launch check walks it.
  RL_RETURN_IF_ERROR(rl_contract_budgets(replay));
  RL_RETURN_IF_ERROR(rl_contract_target(replay));
  RL_RETURN_IF_ERROR(rl_contract_digests(replay->capture));
  // Kernels with a private segment (scratch) replay on every route: the
  // AQL packets carry the kernel's private_segment_size; route pm4 (and
  // drm, which submits pm4's IB) programs COMPUTE_TMPRING_SIZE and a
  // scratch ring the replay owns (pm4/pm4_scratch.c).
  RL_RETURN_IF_ERROR(rl_contract_device_kernels(replay));
  RL_RETURN_IF_ERROR(rl_contract_launches(replay));
  RL_RETURN_IF_ERROR(rl_contract_cooperative(replay));
  RL_RETURN_IF_ERROR(rl_contract_buffers(replay));
  return rl_contract_params(replay->capture);
}

rl_status_t rl_replay_contract(rl_replay_t* replay) {
  if (!replay) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "contract: no replay");
  }
  if (replay->state == RL_REPLAY_CONTRACTED) return RL_OK;
  RL_RETURN_IF_ERROR(
      rl_replay_require(replay, RL_REPLAY_CAPTURED, "rl_replay_contract"));
  rl_status_t status = rl_contract_all(replay);
  if (status) {
    return rl_replay_poison(replay, rl_status_annotate(status, "contract"));
  }
  replay->state = RL_REPLAY_CONTRACTED;
  return RL_OK;
}

static bool rl_replay_refuse(char* out_reason, size_t reason_size,
                             const char* format, ...)
    __attribute__((format(printf, 3, 4)));

static bool rl_replay_refuse(char* out_reason, size_t reason_size,
                             const char* format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(out_reason, reason_size, format, args);
  va_end(args);
  return false;
}

bool rl_replay_can_run(const rl_replay_t* replay, const int64_t* values,
                       uint32_t value_count, char* out_reason,
                       size_t reason_size) {
  const rl_capture_t* capture = replay->capture;
  if (replay->state != RL_REPLAY_PREPARED &&
      replay->state != RL_REPLAY_REPLAYING) {
    return rl_replay_refuse(out_reason, reason_size, "replay is %s%s%s",
                            rl_replay_state_name(replay->state),
                            replay->reason[0] ? ": " : "", replay->reason);
  }
  if (!replay->route_enabled) {
    return rl_replay_refuse(out_reason, reason_size, "%s", replay->reason);
  }
  if (value_count && !values) {
    return rl_replay_refuse(out_reason, reason_size,
                            "values is NULL but value_count is %u",
                            value_count);
  }
  if (value_count != capture->param_count) {
    return rl_replay_refuse(out_reason, reason_size,
                            "%u parameter values given, the capture has %u",
                            value_count, capture->param_count);
  }
  for (uint32_t p = 0; p < value_count; ++p) {
    const rl_capture_param_t* param = &capture->params[p];
    if (values[p] < param->min || values[p] >= param->max) {
      return rl_replay_refuse(out_reason, reason_size,
                              "%s=%" PRId64 " outside the admitted range "
                              "[%" PRId64 ", %" PRId64 ")",
                              param->name, values[p], param->min, param->max);
    }
  }
  return true;
}

rl_status_t rl_replay_admit(const rl_replay_t* replay, const int64_t* values,
                            uint32_t value_count,
                            rl_admission_t* out_admission) {
  if (!out_admission) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "admit: no output");
  }
  memset(out_admission, 0, sizeof(*out_admission));
  if (!replay) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "admit: no replay");
  }
  out_admission->admitted =
      rl_replay_can_run(replay, values, value_count, out_admission->reason,
                        sizeof(out_admission->reason));
  return RL_OK;
}
