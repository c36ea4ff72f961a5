// Re-recording each window from the program itself
// (shadow/shadow_rerecord.h).
#include "shadow/shadow_rerecord.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "redline/device/device_funnel.h"
#include "redline/replay.h"
#include "sim/sim.h"
#include "redline/funnel.h"

// Finds the workload and its configuration, or says why not.
static void rl_shadow_rerecord_resolve(rl_shadow_rerecord_t* rerecord) {
  const rl_capture_t* capture = rerecord->capture;
  const rl_workload_t* workload =
      capture->workload ? rl_workload_find(capture->workload) : NULL;
  if (!workload) {
    snprintf(rerecord->unavailable, sizeof(rerecord->unavailable),
             "workload '%s' is not a registered workload (a foreign "
             "program's capture cannot be re-run)",
             capture->workload ? capture->workload : "");
    return;
  }
  if (capture->code_object_count != 1) {
    snprintf(rerecord->unavailable, sizeof(rerecord->unavailable),
             "%u code objects, a workload records one",
             capture->code_object_count);
    return;
  }
  if (workload->config_of) {
    rl_status_t status = workload->config_of(
        capture, rerecord->config, RL_SHADOW_RERECORD_MAX_CONFIG,
        &rerecord->config_count);
    if (status) {
      snprintf(rerecord->unavailable, sizeof(rerecord->unavailable), "%s",
               rl_status_message(status));
      rl_status_free(status);
      return;
    }
  }
  rerecord->workload = workload;
}

rl_status_t rl_shadow_rerecord_init(rl_shadow_rerecord_t* rerecord,
                                    const rl_capture_t* capture,
                                    const rl_shadow_device_options_t* options,
                                    uint64_t wait_timeout_ns) {
  memset(rerecord, 0, sizeof(*rerecord));
  rerecord->capture = capture;
  rerecord->wait_timeout_ns = wait_timeout_ns;
  rl_shadow_rerecord_resolve(rerecord);
  if (!rerecord->workload) return RL_OK;
  rerecord->params =
      calloc(capture->param_count + 1u, sizeof(rl_workload_param_value_t));
  if (!rerecord->params) return rl_status_out_of_memory();
  const char* processor = rl_capture_processor_or(capture, "gfx1100");
  const rl_device_options_t device_options = {
      .kind = "sim",
      .processor = options->processor ? options->processor : processor,
      .executor = options->executor,
      // Nobody reads this device's hazards: the fresh run issues each
      // launch behind a barrier, as the capture did.
      .no_hazard_check = true,
  };
  return rl_device_open(&device_options, &rerecord->device);
}

void rl_shadow_rerecord_deinit(rl_shadow_rerecord_t* rerecord) {
  rl_capture_destroy(rerecord->fresh);
  rl_device_close(rerecord->device);
  free(rerecord->params);
  memset(rerecord, 0, sizeof(*rerecord));
}

// Runs the workload at |values| into *|out_fresh|.
static rl_status_t rl_shadow_rerecord_run(rl_shadow_rerecord_t* rerecord,
                                          const int64_t* values,
                                          rl_capture_t** out_fresh) {
  const rl_capture_t* capture = rerecord->capture;
  for (uint32_t p = 0; p < capture->param_count; ++p) {
    rerecord->params[p] = (rl_workload_param_value_t){capture->params[p].name,
                                                      values[p]};
  }
  const rl_workload_options_t options = {
      .code_object = capture->code_objects[0].bytes,
      .code_object_size = capture->code_objects[0].size,
      .seed = 1,
      .params = rerecord->params,
      .param_count = capture->param_count,
      .config = rerecord->config,
      .config_count = rerecord->config_count,
  };
  rl_funnel_device_t device = {0};
  rl_funnel_t* funnel = NULL;
  rl_status_t status = rl_device_funnel_create_bounded(
      rerecord->device, rerecord->wait_timeout_ns, &device);
  if (!status) {
    status = rl_funnel_create(rerecord->workload->name, &device, &funnel);
  }
  if (!status) status = rerecord->workload->record(funnel, &options);
  if (!status) status = rl_funnel_finish(funnel, out_fresh);
  rl_funnel_destroy(funnel);
  rl_funnel_device_destroy(&device);
  return status;
}

// The same program: launch count, kernels per launch, buffer sizes.
static rl_status_t rl_shadow_rerecord_shape(const rl_capture_t* capture,
                                            const rl_capture_t* fresh) {
  if (fresh->launch_count != capture->launch_count ||
      fresh->buffer_count != capture->buffer_count) {
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "the program issues %u launches over %u buffers, the "
                     "capture has %u over %u",
                     fresh->launch_count, fresh->buffer_count,
                     capture->launch_count, capture->buffer_count);
  }
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    if (fresh->buffers[b].size == capture->buffers[b].size) continue;
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "buffer %u (%s) has %" PRIu64 " bytes, the capture %"
                     PRIu64, b, capture->buffers[b].name,
                     fresh->buffers[b].size, capture->buffers[b].size);
  }
  return RL_OK;
}

// What the capture says of kernarg byte |offset| of launch |l|.
static void rl_shadow_rerecord_site(const rl_capture_t* capture, uint32_t l,
                                    uint32_t offset, char* out, size_t size) {
  const rl_capture_launch_t* launch = &capture->launches[l];
  for (uint32_t b = 0; b < launch->binding_count; ++b) {
    const rl_scalar_binding_t* binding = &launch->bindings[b];
    if (binding->target != RL_BINDING_KERNARG || offset < binding->offset ||
        offset >= binding->offset + binding->size) {
      continue;
    }
    char expr[128];
    rl_expr_format(capture, &binding->expr, expr, sizeof(expr));
    snprintf(out, size, "binding kernarg[%u:%u] = %s", binding->offset,
             binding->offset + binding->size, expr);
    return;
  }
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    const rl_pointer_slot_t* slot = &launch->slots[s];
    if (offset < slot->kernarg_offset || offset >= slot->kernarg_offset + 8) {
      continue;
    }
    snprintf(out, size, "pointer slot kernarg[%u:%u] = %s + %" PRIu64,
             slot->kernarg_offset, slot->kernarg_offset + 8,
             capture->buffers[slot->buffer].name, slot->offset);
    return;
  }
  snprintf(out, size, "recorded bytes, no binding");
}

// Launch |l|: the program's |again| against the capture bound at |values|.
static rl_status_t rl_shadow_rerecord_launch(const rl_capture_t* capture,
                                             const rl_capture_t* fresh,
                                             uint32_t l, const int64_t* values,
                                             const uint64_t* addresses,
                                             uint8_t* bound) {
  const rl_capture_launch_t* launch = &capture->launches[l];
  const rl_capture_launch_t* again = &fresh->launches[l];
  const char* kernel = capture->kernels[launch->kernel].name;
  if (strcmp(fresh->kernels[again->kernel].name, kernel) != 0 ||
      again->kernarg_size != launch->kernarg_size ||
      again->dynamic_lds != launch->dynamic_lds ||
      memcmp(again->block, launch->block, sizeof(launch->block)) != 0) {
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "launch %u: the program launches %s (block %ux%ux%u, "
                     "kernarg %u bytes), the capture %s (block %ux%ux%u, "
                     "kernarg %u bytes)",
                     l, fresh->kernels[again->kernel].name, again->block[0],
                     again->block[1], again->block[2], again->kernarg_size,
                     kernel, launch->block[0], launch->block[1],
                     launch->block[2], launch->kernarg_size);
  }
  uint32_t grid[3];
  RL_RETURN_IF_ERROR(rl_launch_bind(capture, l, values, addresses, bound, grid));
  for (uint32_t axis = 0; axis < 3; ++axis) {
    if (grid[axis] == again->grid[axis]) continue;
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "launch %u (%s): the program launches %u work-groups on "
                     "axis %c, the capture's bindings give %u",
                     l, kernel, again->grid[axis], "xyz"[axis], grid[axis]);
  }
  for (uint32_t i = 0; i < launch->kernarg_size; ++i) {
    if (bound[i] == again->kernarg[i]) continue;
    char site[192];
    rl_shadow_rerecord_site(capture, l, i, site, sizeof(site));
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "launch %u (%s): kernarg byte %u is 0x%02x in the "
                     "program, 0x%02x from the capture (%s)",
                     l, kernel, i, again->kernarg[i], bound[i], site);
  }
  return RL_OK;
}

static rl_status_t rl_shadow_rerecord_compare(rl_shadow_rerecord_t* rerecord,
                                              const rl_capture_t* fresh,
                                              const int64_t* values) {
  const rl_capture_t* capture = rerecord->capture;
  RL_RETURN_IF_ERROR(rl_shadow_rerecord_shape(capture, fresh));
  uint32_t largest = 1;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    if (capture->launches[l].kernarg_size > largest) {
      largest = capture->launches[l].kernarg_size;
    }
  }
  uint64_t* addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  uint8_t* bound = calloc(largest, 1);
  rl_status_t status = RL_OK;
  if (!addresses || !bound) status = rl_status_out_of_memory();
  for (uint32_t b = 0; !status && b < capture->buffer_count; ++b) {
    addresses[b] = fresh->buffers[b].capture_address;
  }
  for (uint32_t l = 0; !status && l < capture->launch_count; ++l) {
    status = rl_shadow_rerecord_launch(capture, fresh, l, values, addresses,
                                       bound);
    if (!status) ++rerecord->launches;
  }
  free(addresses);
  free(bound);
  return status;
}

rl_status_t rl_shadow_rerecord_window(rl_shadow_rerecord_t* rerecord,
                                      const int64_t* values) {
  rl_capture_destroy(rerecord->fresh);
  rerecord->fresh = NULL;
  if (!rl_shadow_rerecord_available(rerecord)) return RL_OK;
  rl_capture_t* fresh = NULL;
  rl_status_t status = rl_shadow_rerecord_run(rerecord, values, &fresh);
  if (status) {
    return rl_status_annotate(status, "re-recording workload %s",
                              rerecord->workload->name);
  }
  status = rl_shadow_rerecord_compare(rerecord, fresh, values);
  if (status) {
    rl_capture_destroy(fresh);
    return rl_status_annotate(status, "re-recorded %s against the capture",
                              rerecord->workload->name);
  }
  rerecord->fresh = fresh;
  ++rerecord->windows;
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// What each arm dispatched
//===----------------------------------------------------------------------===//

bool rl_shadow_rerecord_trace_begin(const rl_shadow_rerecord_t* rerecord,
                                    rl_shadow_arm_t* arm) {
  if (!rerecord->fresh || !arm->device || !rl_sim_device_is(arm->device)) {
    return false;
  }
  rl_sim_launch_trace_enable(arm->device, true);
  return true;
}

// Rewrites every pointer slot of |record| from |arm_addresses| to the
// recording's buffer addresses (a value in no buffer is left as it is).
static void rl_shadow_rerecord_rebase(const rl_capture_t* capture,
                                      const rl_capture_t* fresh, uint32_t l,
                                      const uint64_t* arm_addresses,
                                      rl_sim_launch_record_t* record) {
  const rl_capture_launch_t* launch = &capture->launches[l];
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    uint32_t at = launch->slots[s].kernarg_offset;
    if (at + 8 > record->kernarg_size) continue;
    uint64_t value = rl_launch_load_le(record->kernarg + at, 8);
    for (uint32_t b = 0; b < capture->buffer_count; ++b) {
      uint64_t base = arm_addresses[b];
      if (value < base || value - base > capture->buffers[b].size) continue;
      value = value - base + fresh->buffers[b].capture_address;
      rl_launch_store_le(record->kernarg + at, 8, value);
      break;
    }
  }
}

// Dispatch |l| of the arm against launch |l| of the recording.
static rl_status_t rl_shadow_rerecord_dispatch(
    const rl_capture_t* capture, const rl_capture_t* fresh, uint32_t l,
    const rl_sim_launch_record_t* record) {
  const rl_capture_launch_t* again = &fresh->launches[l];
  const char* kernel = capture->kernels[capture->launches[l].kernel].name;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    uint64_t items = (uint64_t)again->grid[axis] * again->block[axis];
    if (record->workgroup_size[axis] == again->block[axis] &&
        record->grid_size[axis] == items) {
      continue;
    }
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "dispatched launch %u (%s): axis %c has %u work-items in "
                     "groups of %u, the re-recorded program %" PRIu64
                     " in groups of %u",
                     l, kernel, "xyz"[axis], record->grid_size[axis],
                     record->workgroup_size[axis], items, again->block[axis]);
  }
  uint32_t size = again->kernarg_size < record->kernarg_size
                      ? again->kernarg_size
                      : record->kernarg_size;
  for (uint32_t i = 0; i < size; ++i) {
    if (record->kernarg[i] == again->kernarg[i]) continue;
    char site[192];
    rl_shadow_rerecord_site(capture, l, i, site, sizeof(site));
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "dispatched launch %u (%s): kernarg byte %u is 0x%02x, "
                     "the re-recorded program has 0x%02x (%s)",
                     l, kernel, i, record->kernarg[i], again->kernarg[i],
                     site);
  }
  return RL_OK;
}

rl_status_t rl_shadow_rerecord_compare_dispatched(
    const rl_shadow_rerecord_t* rerecord, rl_shadow_arm_t* arm) {
  const rl_capture_t* capture = rerecord->capture;
  const rl_capture_t* fresh = rerecord->fresh;
  uint32_t count = capture->launch_count;
  rl_sim_launch_record_t* records = calloc(count + 1u, sizeof(*records));
  uint64_t* addresses = calloc(capture->buffer_count + 1u, sizeof(uint64_t));
  if (!records || !addresses) {
    free(records);
    free(addresses);
    rl_sim_launch_trace_enable(arm->device, false);
    return rl_status_out_of_memory();
  }
  uint32_t total = rl_sim_launch_trace_take(arm->device, records, count);
  rl_sim_launch_trace_enable(arm->device, false);
  rl_status_t status = RL_OK;
  if (total != count) {
    status = RL_STATUS(RL_STATUS_MISMATCH,
                       "dispatched %u kernels, the re-recorded program "
                       "launches %u", total, count);
  }
  for (uint32_t b = 0; !status && b < capture->buffer_count; ++b) {
    status = arm->vtable->buffer_address(arm, b, &addresses[b]);
  }
  for (uint32_t l = 0; !status && l < count; ++l) {
    rl_shadow_rerecord_rebase(capture, fresh, l, addresses, &records[l]);
    status = rl_shadow_rerecord_dispatch(capture, fresh, l, &records[l]);
  }
  free(records);
  free(addresses);
  return status;
}
