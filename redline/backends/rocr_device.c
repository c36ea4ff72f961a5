// redline/backends/rocr_device.c — opening and closing the rocr device and
// its vtable (rocr_device.h). The concerns live in rocr_agents.c,
// rocr_memory.c, rocr_queue.c, rocr_signal.c and rocr_loader.c.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redline/backends/rocr_internal.h"

static uint64_t rl_rocr_timestamp(rl_device_t* base) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  uint64_t ticks = 0;
  device->api.fn.hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ticks);
  return ticks;
}

// Devices closed while a queue was still live, kept reachable on purpose
// (so leak checkers see a deliberate retention, not a lost pointer).
static rl_rocr_device_t* rl_rocr_retained;

// Releases what the device owns. A queue still live here was leaked by a
// quarantined replay (the engine would not destroy it because it may still
// execute): then nothing it may reference is freed, the runtime is not
// shut down and the library stays loaded, deliberately; the device joins
// rl_rocr_retained.
static void rl_rocr_destroy(rl_device_t* base) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  if (device->live_queues > 0) {
    device->retained_next = rl_rocr_retained;
    rl_rocr_retained = device;
    return;
  }
  rl_status_free(rl_rocr_loader_release_all(device));
  rl_status_free(rl_rocr_signal_release_all(device));
  rl_status_free(rl_rocr_memory_release_all(device));
  if (device->initialized) device->api.fn.hsa_shut_down();
  rl_hsa_api_close(&device->api);
  free(device->allocations);
  free(device->signals);
  free(device->code_objects);
  free(device);
}

static const rl_device_vtable_t rl_rocr_vtable = {
    .destroy = rl_rocr_destroy,
    .allocate = rl_rocr_allocate,
    .allocate_fixed = rl_rocr_allocate_fixed,
    .free = rl_rocr_free,
    .write = rl_rocr_write,
    .read = rl_rocr_read,
    .load_code_object = rl_rocr_load_code_object,
    .unload_code_object = rl_rocr_unload_code_object,
    .queue_create = rl_rocr_queue_create,
    .queue_destroy = rl_rocr_queue_destroy,
    .queue_doorbell = rl_rocr_queue_doorbell,
    .queue_idle = rl_rocr_queue_idle,
    .queue_fault = rl_rocr_queue_fault,
    .signal_create = rl_rocr_signal_create,
    .signal_destroy = rl_rocr_signal_destroy,
    .signal_store = rl_rocr_signal_store,
    .signal_load = rl_rocr_signal_load,
    .signal_wait_lt = rl_rocr_signal_wait_lt,
    .signal_spin_lt = rl_rocr_signal_spin_lt,
    .timestamp = rl_rocr_timestamp,
};

// hsa_init, with the usual reason appended when it fails: ROCr opens
// /dev/kfd first (debian_probe.md §3).
static rl_status_t rl_rocr_init_runtime(rl_rocr_device_t* device) {
  rl_status_t status = RL_HSA_CALL(&device->api, hsa_init);
  if (!status) {
    device->initialized = true;
    return RL_OK;
  }
  if (access("/dev/kfd", R_OK | W_OK) != 0) {
    return rl_status_annotate(status, "no usable /dev/kfd (%s)",
                              strerror(errno));
  }
  return status;
}

static rl_status_t rl_rocr_device_init(rl_rocr_device_t* device,
                                       const rl_rocr_options_t* options) {
  RL_RETURN_IF_ERROR(rl_hsa_api_open(&device->api, options->library));
  RL_RETURN_IF_ERROR(rl_rocr_init_runtime(device));
  RL_RETURN_IF_ERROR(rl_rocr_select_agents(device, options->processor));
  RL_RETURN_IF_ERROR(rl_rocr_select_pools(device));
  RL_RETURN_IF_ERROR(RL_HSA_CALL(&device->api, hsa_system_get_info,
                                 HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                                 &device->timestamp_hz));
  if (device->timestamp_hz == 0) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "rocr: the runtime reports a timestamp frequency of 0");
  }
  device->base.timestamp_frequency = device->timestamp_hz;
  return RL_OK;
}

// Open failures are "device unavailable" (exit 8), whatever ROCr called
// them; the message keeps ROCr's name for the status.
static rl_status_t rl_rocr_open_failure(rl_status_t status) {
  if (rl_status_is(status, RL_STATUS_UNAVAILABLE) ||
      rl_status_is(status, RL_STATUS_OUT_OF_MEMORY)) {
    return rl_status_annotate(status, "device rocr");
  }
  rl_status_t recoded = rl_status_make(
      RL_STATUS_UNAVAILABLE, rl_status_file(status), rl_status_line(status),
      "device rocr: %s", rl_status_message(status));
  rl_status_free(status);
  return recoded;
}

rl_status_t rl_rocr_device_create(const rl_rocr_options_t* options,
                                  rl_device_t** out_device) {
  *out_device = NULL;
  static const rl_rocr_options_t defaults = {0};
  if (!options) options = &defaults;
  rl_rocr_device_t* device = calloc(1, sizeof(*device));
  if (!device) return rl_status_out_of_memory();
  device->base = (rl_device_t){
      .vtable = &rl_rocr_vtable,
      .name = "rocr",
      .target = device->target,
  };
  rl_status_t status = rl_rocr_device_init(device, options);
  if (status) {
    rl_rocr_destroy(&device->base);
    return rl_rocr_open_failure(status);
  }
  *out_device = &device->base;
  return RL_OK;
}
