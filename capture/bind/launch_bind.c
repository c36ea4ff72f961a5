// Binding evaluation for one recorded launch (capture/bind/launch_bind.h).
#include "capture/bind/launch_bind.h"

#include <stdio.h>
#include <string.h>

#include "base/test_fault.h"

// "launch 4 (vc_partial_sum) binding 2 (grid x = ceil((pos+1)/64))".
static void rl_launch_binding_describe(const rl_capture_t* capture,
                                       uint32_t launch_index,
                                       uint32_t binding_index, char* out,
                                       size_t out_size) {
  const rl_capture_launch_t* launch = &capture->launches[launch_index];
  const rl_scalar_binding_t* binding = &launch->bindings[binding_index];
  char expr[128];
  rl_expr_format(capture, &binding->expr, expr, sizeof(expr));
  const char* kernel = capture->kernels[launch->kernel].name;
  if (binding->target == RL_BINDING_GRID) {
    snprintf(out, out_size, "launch %u (%s) binding %u (grid %c = %s)",
             launch_index, kernel, binding_index,
             "xyz"[binding->offset < 3 ? binding->offset : 0], expr);
  } else if (binding->target == RL_BINDING_POINTER_OFFSET) {
    snprintf(out, out_size,
             "launch %u (%s) binding %u (offset of pointer slot %u = %s)",
             launch_index, kernel, binding_index, binding->offset, expr);
  } else {
    snprintf(out, out_size, "launch %u (%s) binding %u (kernarg byte %u = %s)",
             launch_index, kernel, binding_index, binding->offset, expr);
  }
}

// A RL_STATUS_CONTRACT naming the binding, with |detail| (consumed when it
// is a status from the evaluator) or |text|.
static rl_status_t rl_launch_binding_error(const rl_capture_t* capture,
                                           uint32_t launch_index,
                                           uint32_t binding_index,
                                           rl_status_t detail,
                                           const char* text) {
  char where[256];
  rl_launch_binding_describe(capture, launch_index, binding_index, where,
                             sizeof(where));
  rl_status_t status =
      RL_STATUS(RL_STATUS_CONTRACT, "%s: %s", where,
                detail ? rl_status_message(detail) : text);
  rl_status_free(detail);
  return status;
}

// Checks that |value| fits the target of |binding| in |launch|
// (rl_bind_fit_range, the one rule).
static rl_status_t rl_launch_binding_fits(const rl_capture_t* capture,
                                          uint32_t launch_index,
                                          uint32_t binding_index,
                                          int64_t value) {
  const rl_capture_launch_t* launch = &capture->launches[launch_index];
  const rl_scalar_binding_t* binding = &launch->bindings[binding_index];
  int64_t lo = 0, hi = 0;
  rl_bind_fit_range(capture, launch, binding, &lo, &hi);
  if (value >= lo && value <= hi) return RL_OK;
  char text[160];
  if (binding->target == RL_BINDING_GRID) {
    uint32_t block = launch->block[binding->offset < 3 ? binding->offset : 0];
    snprintf(text, sizeof(text),
             "%lld work-groups of %u work-items: expected 1 or more, with "
             "a grid size (work-items) that fits 32 bits",
             (long long)value, block);
  } else if (binding->target == RL_BINDING_POINTER_OFFSET) {
    snprintf(text, sizeof(text),
             "offset %lld lies outside its buffer of %lld bytes",
             (long long)value, (long long)hi);
  } else {
    snprintf(text, sizeof(text), "value %lld does not fit its %u bytes",
             (long long)value, binding->size);
  }
  return rl_launch_binding_error(capture, launch_index, binding_index, RL_OK,
                                 text);
}

rl_status_t rl_launch_binding_evaluate(const rl_capture_t* capture,
                                       uint32_t launch_index,
                                       uint32_t binding_index,
                                       const int64_t* values,
                                       uint32_t param_count,
                                       uint64_t* out_value) {
  *out_value = 0;
  if (launch_index >= capture->launch_count ||
      binding_index >= capture->launches[launch_index].binding_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "launch %u binding %u: no such binding", launch_index,
                     binding_index);
  }
  const rl_scalar_binding_t* binding =
      &capture->launches[launch_index].bindings[binding_index];
  int64_t value = 0;
  // Test-only (base/test_fault.h): a kernarg binding of launch
  // |launch_index| evaluated at the capture's values, as if it were lost.
  int64_t frozen[param_count + 1];
  if (binding->target == RL_BINDING_KERNARG &&
      rl_test_fault("bind-stale", launch_index) &&
      param_count == capture->param_count) {
    for (uint32_t p = 0; p < param_count; ++p) {
      frozen[p] = capture->params[p].capture_value;
    }
    values = frozen;
  }
  rl_status_t status =
      rl_expr_evaluate(&binding->expr, values, param_count, &value);
  if (status) {
    return rl_launch_binding_error(capture, launch_index, binding_index,
                                   status, NULL);
  }
  RL_RETURN_IF_ERROR(
      rl_launch_binding_fits(capture, launch_index, binding_index, value));
  *out_value = (uint64_t)value;
  return RL_OK;
}

rl_status_t rl_launch_pointer_value(const rl_capture_t* capture,
                                    uint32_t launch_index, uint32_t slot_index,
                                    const uint64_t* buffer_addresses,
                                    uint64_t* out_value) {
  *out_value = 0;
  if (launch_index >= capture->launch_count ||
      slot_index >= capture->launches[launch_index].slot_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "launch %u slot %u: no such pointer slot", launch_index,
                     slot_index);
  }
  const rl_pointer_slot_t* slot =
      &capture->launches[launch_index].slots[slot_index];
  uint64_t base = buffer_addresses[slot->buffer];
  if (base + slot->offset < base) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "launch %u slot %u: buffer %u at 0x%llx + offset 0x%llx "
                     "wraps the address space",
                     launch_index, slot_index, slot->buffer,
                     (unsigned long long)base,
                     (unsigned long long)slot->offset);
  }
  *out_value = base + slot->offset;
  return RL_OK;
}

rl_status_t rl_launch_pointer_at(const rl_capture_t* capture,
                                 uint32_t launch_index, uint32_t slot_index,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint64_t* out_value) {
  RL_RETURN_IF_ERROR(rl_launch_pointer_value(capture, launch_index, slot_index,
                                             buffer_addresses, out_value));
  const rl_capture_launch_t* launch = &capture->launches[launch_index];
  const rl_scalar_binding_t* bound = rl_capture_slot_binding(launch, slot_index);
  if (!bound) return RL_OK;
  uint64_t offset = 0;
  rl_status_t status = rl_launch_binding_evaluate(
      capture, launch_index, (uint32_t)(bound - launch->bindings), values,
      param_count, &offset);
  if (status) {
    *out_value = 0;
    return status;
  }
  // The recorded offset fits (rl_launch_pointer_value checked it), and so
  // does the bound one (inside the buffer): base + offset cannot wrap more
  // than base + size, which the recorded value's check bounds for the
  // buffer's own range.
  *out_value = *out_value - launch->slots[slot_index].offset + offset;
  return RL_OK;
}

bool rl_launch_grid_bound(const rl_capture_launch_t* launch, uint32_t axis) {
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    if (launch->bindings[b].target == RL_BINDING_GRID &&
        launch->bindings[b].offset == axis) {
      return true;
    }
  }
  return false;
}

rl_status_t rl_launch_site_value(const rl_capture_t* capture,
                                 uint32_t launch_index, uint32_t binding_index,
                                 const int64_t* values, bool grid_items,
                                 uint64_t* out_value) {
  uint64_t value = 0;
  *out_value = 0;
  RL_RETURN_IF_ERROR(rl_launch_binding_evaluate(capture, launch_index,
                                                binding_index, values,
                                                capture->param_count, &value));
  if (grid_items) {
    const rl_capture_launch_t* launch = &capture->launches[launch_index];
    uint32_t axis = launch->bindings[binding_index].offset;
    value *= launch->block[axis < 3 ? axis : 0];
  }
  *out_value = value;
  return RL_OK;
}

// Writes the rebased pointers and evaluated bindings over the recorded
// bytes already in |kernarg| and the grid already in |grid|.
static rl_status_t rl_launch_bind_values(const rl_capture_t* capture,
                                         uint32_t launch_index,
                                         const int64_t* values,
                                         const uint64_t* buffer_addresses,
                                         uint8_t* kernarg, uint32_t grid[3]) {
  const rl_capture_launch_t* launch = &capture->launches[launch_index];
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    uint64_t pointer = 0;
    RL_RETURN_IF_ERROR(rl_launch_pointer_at(capture, launch_index, s, values,
                                            capture->param_count,
                                            buffer_addresses, &pointer));
    rl_store_le(kernarg + launch->slots[s].kernarg_offset, 8, pointer);
  }
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    uint64_t value = 0;
    RL_RETURN_IF_ERROR(rl_launch_binding_evaluate(
        capture, launch_index, b, values, capture->param_count, &value));
    if (binding->target == RL_BINDING_POINTER_OFFSET) {
      continue;  // applied with its slot above
    }
    if (binding->target == RL_BINDING_GRID) {
      grid[binding->offset] = (uint32_t)value;
    } else {
      rl_store_le(kernarg + binding->offset, binding->size, value);
    }
  }
  return RL_OK;
}

rl_status_t rl_launch_bind(const rl_capture_t* capture, uint32_t launch_index,
                           const int64_t* values,
                           const uint64_t* buffer_addresses,
                           uint8_t* out_kernarg, uint32_t out_grid[3]) {
  memset(out_grid, 0, 3 * sizeof(uint32_t));
  if (launch_index >= capture->launch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "launch %u: the capture has %u launches", launch_index,
                     capture->launch_count);
  }
  const rl_capture_launch_t* launch = &capture->launches[launch_index];
  memcpy(out_kernarg, launch->kernarg, launch->kernarg_size);
  memcpy(out_grid, launch->grid, sizeof(launch->grid));
  rl_status_t status = rl_launch_bind_values(
      capture, launch_index, values, buffer_addresses, out_kernarg, out_grid);
  if (status) {
    memset(out_kernarg, 0, launch->kernarg_size);
    memset(out_grid, 0, 3 * sizeof(uint32_t));
  }
  return status;
}
