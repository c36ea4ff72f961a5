// The launch trace of the simulated device (contract in sim.h).
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "sim/wg/sim_wg.h"

void rl_sim_launch_trace_enable(rl_device_t* device, bool enable) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  pthread_mutex_lock(&sim->report_lock);
  atomic_store_explicit(&sim->trace_enabled, enable, memory_order_relaxed);
  sim->trace_count = 0;
  pthread_mutex_unlock(&sim->report_lock);
}

// Copies the geometry and kernarg bytes of |launch| into |record|.
static void rl_sim_trace_fill(rl_sim_device_t* device,
                              const rl_sim_launch_t* launch,
                              uint64_t dispatch_index,
                              rl_sim_launch_record_t* record) {
  uint32_t size = launch->kernel.kernel->kernarg_size;
  if (size > RL_SIM_TRACE_KERNARG_MAX) size = RL_SIM_TRACE_KERNARG_MAX;
  record->dispatch_index = dispatch_index;
  record->kernel_object = launch->kernel.kernel_object;
  memcpy(record->workgroup_size, launch->workgroup_size,
         sizeof(record->workgroup_size));
  memcpy(record->grid_size, launch->grid_size, sizeof(record->grid_size));
  const uint8_t* host =
      size ? rl_sim_memory_translate(&device->memory, launch->kernarg_address,
                                     size)
           : NULL;
  record->kernarg_size = host ? size : 0;
  if (host) memcpy(record->kernarg, host, size);
}

void rl_sim_trace_launch(rl_sim_device_t* device, const rl_sim_launch_t* launch,
                         uint64_t dispatch_index) {
  // Enabling happens before the launches it should see are published (the
  // doorbell orders it), so a relaxed look is enough to skip the lock.
  if (!atomic_load_explicit(&device->trace_enabled, memory_order_relaxed)) {
    return;
  }
  pthread_mutex_lock(&device->report_lock);
  if (atomic_load_explicit(&device->trace_enabled, memory_order_relaxed)) {
    uint32_t index = device->trace_count;
    if (index < RL_SIM_DISPATCH_LOG &&
        RL_ARRAY_RESERVE(&device->trace, &device->trace_capacity,
                         index + 1) == RL_OK) {
      rl_sim_trace_fill(device, launch, dispatch_index, &device->trace[index]);
      device->trace_count++;
    } else if (device->trace_count < UINT32_MAX) {
      device->trace_count++;
    }
  }
  pthread_mutex_unlock(&device->report_lock);
}

uint32_t rl_sim_launch_trace_take(rl_device_t* device,
                                  rl_sim_launch_record_t* out_records,
                                  uint32_t capacity) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  pthread_mutex_lock(&sim->report_lock);
  uint32_t total = sim->trace_count;
  uint32_t kept = sim->trace_capacity < RL_SIM_DISPATCH_LOG
                      ? sim->trace_capacity
                      : RL_SIM_DISPATCH_LOG;
  rl_sim_report_copy(out_records, sim->trace, sizeof(*out_records), total,
                     kept, capacity);
  sim->trace_count = 0;
  pthread_mutex_unlock(&sim->report_lock);
  return total;
}

void rl_sim_trace_deinit(rl_sim_device_t* device) {
  free(device->trace);
  device->trace = NULL;
  device->trace_capacity = 0;
}
