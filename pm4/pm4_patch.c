// Re-binding a lowered PM4 program (rl_pm4_program_apply in
// pm4/pm4_lower.h): evaluate every patch with the evaluator the AQL route
// uses (rl_launch_value_evaluate), then write the changed ones.
#include "aql/launch_bind.h"
#include "pm4/pm4_lower.h"
#include "redline/base/test_fault.h"

static rl_status_t rl_pm4_patch_evaluate(const rl_capture_t* capture,
                                         const rl_pm4_patch_t* patch,
                                         const int64_t* values,
                                         uint32_t param_count,
                                         const uint64_t* buffer_addresses,
                                         uint64_t* out_value) {
  static const rl_launch_value_kind_t kinds[] = {
      [RL_PM4_PATCH_KERNARG] = RL_LAUNCH_VALUE_BINDING,
      [RL_PM4_PATCH_POINTER] = RL_LAUNCH_VALUE_POINTER,
      [RL_PM4_PATCH_GRID_DIM] = RL_LAUNCH_VALUE_BINDING,
      [RL_PM4_PATCH_GRID_SIZE] = RL_LAUNCH_VALUE_GRID_ITEMS};
  if ((uint32_t)patch->kind > RL_PM4_PATCH_GRID_SIZE) {
    return RL_STATUS(RL_STATUS_INTERNAL, "patch kind %u",
                     (unsigned)patch->kind);
  }
  return rl_launch_value_evaluate(
      capture, patch->launch, kinds[patch->kind],
      patch->kind == RL_PM4_PATCH_POINTER ? patch->slot : patch->binding,
      values, param_count, buffer_addresses, out_value);
}

static void rl_pm4_patch_write(rl_pm4_program_t* program,
                               const rl_pm4_patch_t* patch, uint64_t value,
                               uint8_t* kernarg_host, uint32_t* ib_host) {
  bool grid = patch->kind == RL_PM4_PATCH_GRID_DIM ||
              patch->kind == RL_PM4_PATCH_GRID_SIZE;
  // Test-only mistakes (redline/base/test_fault.h).
  if (grid && rl_test_fault("grid-skip", patch->launch)) return;
  if (patch->kind == RL_PM4_PATCH_GRID_DIM) {
    program->dwords[patch->offset] = (uint32_t)value;
    if (ib_host && ib_host != program->dwords) {
      ib_host[patch->offset] = (uint32_t)value;
    }
    return;
  }
  uint32_t offset = patch->offset;
  if (patch->kind == RL_PM4_PATCH_KERNARG) {
    if (rl_test_fault("patch-skip", patch->launch)) return;
    if (rl_test_fault("patch-off", patch->launch) &&
        offset + 4 + patch->size <= program->kernarg_size) {
      offset += 4;
    }
  }
  rl_launch_store_le(program->kernarg + offset, patch->size, value);
  if (kernarg_host && kernarg_host != program->kernarg) {
    rl_launch_store_le(kernarg_host + offset, patch->size, value);
  }
}

rl_status_t rl_pm4_program_apply(rl_pm4_program_t* program,
                                 const rl_capture_t* capture,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint8_t* kernarg_host, uint32_t* ib_host,
                                 uint32_t* out_changed_count) {
  *out_changed_count = 0;
  if (param_count != capture->param_count ||
      program->stats.dispatches != capture->launch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "apply: %u parameter values for %u parameters, program "
                     "of %u dispatches for %u launches",
                     param_count, capture->param_count,
                     program->stats.dispatches, capture->launch_count);
  }
  for (uint32_t i = 0; i < program->patch_count; ++i) {
    RL_RETURN_IF_ERROR(rl_pm4_patch_evaluate(
        capture, &program->patches[i], values, param_count, buffer_addresses,
        &program->pending[i]));
  }
  uint32_t changed = 0;
  for (uint32_t i = 0; i < program->patch_count; ++i) {
    rl_pm4_patch_t* patch = &program->patches[i];
    if (program->pending[i] == patch->current) continue;
    rl_pm4_patch_write(program, patch, program->pending[i], kernarg_host,
                       ib_host);
    patch->current = program->pending[i];
    ++changed;
  }
  *out_changed_count = changed;
  return RL_OK;
}
