// The as-issued argument check (shadow/issued_check.h).
#include "shadow/issued_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/capture_issued.h"
#include "sim/sim.h"
#include "shadow/shadow_arm.h"

static uint64_t rl_issued_load(const uint8_t* bytes, uint32_t size) {
  uint64_t value = 0;
  for (uint32_t i = size < 8 ? size : 8; i-- > 0;) {
    value = value << 8 | bytes[i];
  }
  return value;
}

static bool rl_issued_at_capture_values(const rl_capture_t* capture,
                                        const int64_t* values) {
  for (uint32_t p = 0; p < capture->param_count; ++p) {
    if (!values || values[p] != capture->params[p].capture_value) return false;
  }
  return true;
}

static bool rl_issued_bound(const rl_capture_launch_t* launch,
                            const rl_kernel_arg_t* meta) {
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    if (binding->target == RL_BINDING_KERNARG &&
        binding->offset < meta->offset + meta->size &&
        meta->offset < binding->offset + binding->size) {
      return true;
    }
  }
  return false;
}

// True when pointer |received| is issued pointer |issued| moved with the
// buffer it points into (or unchanged when it points into none).
static bool rl_issued_pointer_matches(const rl_capture_t* capture,
                                      const uint64_t* addresses,
                                      uint64_t issued, uint64_t received) {
  bool inside = false;
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    const rl_capture_buffer_t* buffer = &capture->buffers[b];
    uint64_t base = buffer->capture_address;
    if (issued < base || issued - base > buffer->size) continue;
    inside = true;
    if (received == addresses[b] + (issued - base)) return true;
  }
  return !inside && received == issued;
}

// "0x..." of up to 8 bytes, else the first differing byte.
static void rl_issued_describe(const uint8_t* bytes, uint32_t size,
                               char* out, size_t out_size) {
  if (size <= 8) {
    snprintf(out, out_size, "0x%" PRIx64, rl_issued_load(bytes, size));
  } else {
    snprintf(out, out_size, "%u bytes", size);
  }
}

rl_status_t rl_issued_check(const rl_capture_t* capture, uint32_t launch,
                            const uint64_t* addresses, const int64_t* values,
                            const uint8_t* kernarg, uint32_t kernarg_size,
                            bool* out_checked) {
  *out_checked = false;
  const rl_capture_issued_t* record = rl_capture_issued_find(capture, launch);
  if (!record) return RL_OK;
  *out_checked = true;
  const rl_capture_launch_t* l = &capture->launches[launch];
  const rl_code_object_kernel_t* info = capture->kernels[l->kernel].info;
  const char* kernel = capture->kernels[l->kernel].name;
  bool at_capture = rl_issued_at_capture_values(capture, values);
  uint32_t explicit_index = 0;
  for (uint32_t a = 0; a < info->arg_count; ++a) {
    const rl_kernel_arg_t* meta = &info->args[a];
    if (meta->kind == RL_ARG_KIND_HIDDEN) continue;
    uint32_t index = explicit_index++;
    uint32_t end = meta->offset + meta->size;
    if (end > kernarg_size) continue;  // not kept (see the header)
    if (end > record->size) {
      return RL_STATUS(RL_STATUS_MISMATCH,
                       "launch %u (%s): argument %u at kernarg offset %u: "
                       "%u bytes issued, %u received, the argument ends at %u",
                       launch, kernel, index, meta->offset, record->size,
                       kernarg_size, end);
    }
    if (!at_capture && rl_issued_bound(l, meta)) continue;
    const uint8_t* issued = record->bytes + meta->offset;
    const uint8_t* received = kernarg + meta->offset;
    bool same;
    if (meta->kind == RL_ARG_KIND_GLOBAL_BUFFER && meta->size == 8) {
      same = rl_issued_pointer_matches(capture, addresses,
                                       rl_issued_load(issued, 8),
                                       rl_issued_load(received, 8));
    } else {
      same = memcmp(issued, received, meta->size) == 0;
    }
    if (same) continue;
    char want[32], got[32];
    rl_issued_describe(issued, meta->size, want, sizeof(want));
    rl_issued_describe(received, meta->size, got, sizeof(got));
    char name[80] = "";
    if (meta->name && meta->name[0]) {
      snprintf(name, sizeof(name), " (%s)", meta->name);
    }
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "as-issued arguments: launch %u (%s) argument %u%s at "
                     "kernarg offset %u: the dispatch received %s, the "
                     "program issued %s",
                     launch, kernel, index, name, meta->offset, got, want);
  }
  return RL_OK;
}

bool rl_issued_trace_begin(const rl_capture_t* capture, rl_shadow_arm_t* arm) {
  if (capture->issued_count == 0 || !arm->device ||
      !rl_sim_device_is(arm->device)) {
    return false;
  }
  rl_sim_launch_trace_enable(arm->device, true);
  return true;
}

rl_status_t rl_issued_trace_check(const rl_capture_t* capture,
                                  rl_shadow_arm_t* arm, const int64_t* values,
                                  uint64_t* out_checked) {
  uint32_t count = capture->launch_count;
  rl_sim_launch_record_t* records = calloc(count + 1u, sizeof(*records));
  uint64_t* addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  uint32_t total = 0;
  if (records && addresses) {
    total = rl_sim_launch_trace_take(arm->device, records, count);
  }
  rl_sim_launch_trace_enable(arm->device, false);
  rl_status_t status =
      records && addresses ? RL_OK : rl_status_out_of_memory();
  for (uint32_t b = 0; !status && b < capture->buffer_count; ++b) {
    status = arm->vtable->buffer_address(arm, b, &addresses[b]);
  }
  // A step that dispatched a different number of kernels is the dispatch
  // audit's finding; only dispatches that pair with a launch are checked.
  for (uint32_t l = 0; !status && l < total && l < count; ++l) {
    bool checked = false;
    status = rl_issued_check(capture, l, addresses, values,
                             records[l].kernarg, records[l].kernarg_size,
                             &checked);
    if (status) {
      status = rl_status_annotate(status, "dispatch %u on the device", l);
    }
    if (checked) ++*out_checked;
  }
  free(records);
  free(addresses);
  return status;
}
