// Resource budgets for untrusted captures (redline/limits.h): the defaults
// and the static checks of a capture's shape against them.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture/bind/launch_bind.h"
#include "redline/limits.h"

// The simulator and ROCr place allocations at 4 KiB granularity.
#define RL_LIMITS_PAGE 4096ull

rl_limits_t rl_limits_resolve(const rl_limits_t* limits) {
  rl_limits_t out = limits ? *limits : (rl_limits_t){0};
  if (!out.max_decompressed_bytes) {
    out.max_decompressed_bytes = RL_LIMIT_DEFAULT_DECOMPRESSED_BYTES;
  }
  if (!out.max_device_bytes) out.max_device_bytes = RL_LIMIT_DEFAULT_DEVICE_BYTES;
  if (!out.max_work_items) out.max_work_items = RL_LIMIT_DEFAULT_WORK_ITEMS;
  if (!out.max_dispatches) out.max_dispatches = RL_LIMIT_DEFAULT_DISPATCHES;
  if (!out.wait_timeout_ns) {
    out.wait_timeout_ns = RL_LIMIT_DEFAULT_WAIT_TIMEOUT_NS;
  }
  if (!out.max_windows) out.max_windows = RL_LIMIT_DEFAULT_WINDOWS;
  if (!out.max_regions) out.max_regions = RL_LIMIT_DEFAULT_REGIONS;
  if (!out.max_bindings) out.max_bindings = RL_LIMIT_DEFAULT_BINDINGS;
  return out;
}

// Work-items of |launch| at its recorded grid (work-groups times block on
// every axis), saturating.
static uint64_t rl_limits_recorded_items(const rl_capture_launch_t* launch) {
  uint64_t items = 1;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    uint64_t extent = (uint64_t)launch->grid[axis] * launch->block[axis];
    if (extent != 0 && items > UINT64_MAX / extent) return UINT64_MAX;
    items *= extent;
  }
  return items;
}

rl_limits_t rl_limits_for_capture(const rl_limits_t* limits,
                                  const rl_capture_t* capture) {
  rl_limits_t out = rl_limits_resolve(limits);
  bool chosen = limits && limits->max_dispatches;
  if (!chosen && capture && capture->launch_count > out.max_dispatches) {
    out.max_dispatches = capture->launch_count;
  }
  if (!(limits && limits->max_work_items) && capture && capture->launches) {
    for (uint32_t l = 0; l < capture->launch_count; ++l) {
      uint64_t items = rl_limits_recorded_items(&capture->launches[l]);
      if (items > out.max_work_items) out.max_work_items = items;
    }
  }
  return out;
}

static uint64_t rl_limits_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t rl_limits_capture_device_bytes(const rl_capture_t* capture,
                                        uint64_t guard_bytes) {
  uint64_t total = 0;
  if (!capture) return 0;
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    uint64_t size = capture->buffers[b].size;
    uint64_t pages = size / RL_LIMITS_PAGE + (size % RL_LIMITS_PAGE != 0);
    total = rl_limits_add(total, pages * RL_LIMITS_PAGE);
    total = rl_limits_add(total, guard_bytes);
  }
  for (uint32_t c = 0; c < capture->code_object_count; ++c) {
    total = rl_limits_add(total, capture->code_objects[c].size);
  }
  return total;
}

// The largest value of grid axis |axis| of |launch| (work-groups) over the
// admitted range of its binding's parameter (rl_bind_expr_range, the
// evaluator the contract uses); the recorded value when the axis is not
// bound.
static uint64_t rl_limits_grid_axis(const rl_capture_t* capture,
                                    const rl_capture_launch_t* launch,
                                    uint32_t axis) {
  uint64_t largest = launch->grid[axis];
  for (uint32_t i = 0; i < launch->binding_count; ++i) {
    const rl_scalar_binding_t* binding = &launch->bindings[i];
    if (binding->target != RL_BINDING_GRID || binding->offset != axis) {
      continue;
    }
    int64_t lo = 0, hi = 0;
    rl_status_t status = rl_bind_expr_range(capture, &binding->expr, &lo, &hi);
    if (status) {
      rl_status_free(status);  // the contract reports bad bindings
      continue;
    }
    // A value past 32 bits is not representable in the packet; the
    // contract's parameter check names it more precisely than a count.
    if (hi > 0 && hi <= (int64_t)UINT32_MAX && (uint64_t)hi > largest) {
      largest = (uint64_t)hi;
    }
  }
  return largest;
}

// Work-items of |launch| at its largest admitted grid, saturating.
static uint64_t rl_limits_launch_items(const rl_capture_t* capture,
                                       const rl_capture_launch_t* launch) {
  uint64_t items = 1;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    uint64_t extent = rl_limits_grid_axis(capture, launch, axis) *
                      (uint64_t)launch->block[axis];
    if (extent != 0 && items > UINT64_MAX / extent) return UINT64_MAX;
    items *= extent;
  }
  return items;
}

// The counts a file declares (the reader refuses them the same way).
static rl_status_t rl_limits_check_counts(const rl_capture_t* capture,
                                          const rl_limits_t* limits) {
  if (capture->region_count > limits->max_regions) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "%u regions exceed the limit of %u (max_regions, "
                     "--max-regions)",
                     capture->region_count, limits->max_regions);
  }
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    if (capture->launches[l].binding_count > limits->max_bindings) {
      return RL_STATUS(RL_STATUS_INVALID_INPUT,
                       "launch %u: %u bindings exceed the limit of %u "
                       "(max_bindings, --max-bindings)",
                       l, capture->launches[l].binding_count,
                       limits->max_bindings);
    }
  }
  return RL_OK;
}

static rl_status_t rl_limits_check_launches(const rl_capture_t* capture,
                                            const rl_limits_t* limits) {
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    uint64_t items = rl_limits_launch_items(capture, launch);
    if (items > limits->max_work_items) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "launch %u (kernel %s): %" PRIu64 " work-items exceed "
                       "the limit of %" PRIu64 " per dispatch "
                       "(max_work_items, --max-work-items)",
                       l, capture->kernels[launch->kernel].name, items,
                       limits->max_work_items);
    }
  }
  return RL_OK;
}

rl_status_t rl_limits_check_capture(const rl_capture_t* capture,
                                    const rl_limits_t* limits,
                                    uint64_t device_bytes) {
  if (!capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "limits: no capture");
  }
  const rl_limits_t resolved = rl_limits_for_capture(limits, capture);
  limits = &resolved;  // NULL: the defaults
  RL_RETURN_IF_ERROR(rl_limits_check_counts(capture, limits));
  if (capture->launch_count > limits->max_dispatches) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "%u launches per step exceed the limit of %u "
                     "(max_dispatches, --max-dispatches)",
                     capture->launch_count, limits->max_dispatches);
  }
  if (device_bytes > limits->max_device_bytes) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "the capture needs %" PRIu64 " bytes of device memory, "
                     "over the limit of %" PRIu64
                     " (max_device_bytes, --max-device-memory)",
                     device_bytes, limits->max_device_bytes);
  }
  return rl_limits_check_launches(capture, limits);
}
