// Re-binding a lowered AQL program (aql/aql_patch.h): evaluate every patch,
// then write the changed ones.
#include "aql/aql_patch.h"

#include "aql/launch_bind.h"
#include "redline/base/test_fault.h"

// The new value of |patch| (step 1 of aql_patch.h).
static rl_status_t rl_aql_patch_evaluate(const rl_capture_t* capture,
                                         const rl_aql_patch_t* patch,
                                         const int64_t* values,
                                         uint32_t param_count,
                                         const uint64_t* buffer_addresses,
                                         uint64_t* out_value) {
  // The grid is work-groups × the packet's workgroup size, which the
  // census keeps equal to the launch's block (the evaluator's factor).
  static const rl_launch_value_kind_t kinds[] = {
      [RL_AQL_PATCH_KERNARG] = RL_LAUNCH_VALUE_BINDING,
      [RL_AQL_PATCH_POINTER] = RL_LAUNCH_VALUE_POINTER,
      [RL_AQL_PATCH_GRID] = RL_LAUNCH_VALUE_GRID_ITEMS};
  if ((uint32_t)patch->kind > RL_AQL_PATCH_GRID) {
    return RL_STATUS(RL_STATUS_INTERNAL, "patch kind %u", (unsigned)patch->kind);
  }
  return rl_launch_value_evaluate(
      capture, patch->launch, kinds[patch->kind],
      patch->kind == RL_AQL_PATCH_POINTER ? patch->slot : patch->binding,
      values, param_count, buffer_addresses, out_value);
}

// Writes |value| at the site of |patch| (step 2 of aql_patch.h).
static void rl_aql_patch_write(rl_aql_program_t* program,
                               const rl_aql_patch_t* patch, uint64_t value,
                               uint8_t* kernarg_host) {
  if (patch->kind == RL_AQL_PATCH_GRID) {
    if (rl_test_fault("grid-skip", patch->launch)) return;
    uint8_t* packet = (uint8_t*)&program->packets[patch->packet];
    rl_launch_store_le(packet + patch->offset, 4, value);
    return;
  }
  uint32_t offset = patch->offset;
  if (patch->kind == RL_AQL_PATCH_KERNARG) {
    // Test-only mistakes (redline/base/test_fault.h), kept in the segment.
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

rl_status_t rl_aql_program_apply(rl_aql_program_t* program,
                                 const rl_capture_t* capture,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint8_t* kernarg_host,
                                 uint32_t* out_changed_count) {
  *out_changed_count = 0;
  if (param_count != capture->param_count ||
      program->packet_count != capture->launch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "apply: %u parameter values for %u parameters, program "
                     "of %u packets for %u launches",
                     param_count, capture->param_count, program->packet_count,
                     capture->launch_count);
  }
  for (uint32_t i = 0; i < program->patch_count; ++i) {
    RL_RETURN_IF_ERROR(rl_aql_patch_evaluate(
        capture, &program->patches[i], values, param_count,
        buffer_addresses, &program->pending[i]));
  }
  uint32_t changed = 0;
  for (uint32_t i = 0; i < program->patch_count; ++i) {
    rl_aql_patch_t* patch = &program->patches[i];
    if (program->pending[i] == patch->current) continue;
    rl_aql_patch_write(program, patch, program->pending[i], kernarg_host);
    patch->current = program->pending[i];
    ++changed;
  }
  *out_changed_count = changed;
  return RL_OK;
}
