// The access log of the simulated device (contract in sim.h).
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "sim/wg/sim_wg.h"

void rl_sim_access_log_free(rl_sim_access_record_t* records, uint32_t count) {
  for (uint32_t i = 0; records && i < count; ++i) {
    free(records[i].reads);
    free(records[i].writes);
  }
  free(records);
}

// How many records of the log are held (the rest were only counted).
static uint32_t rl_sim_access_log_kept(const rl_sim_device_t* sim) {
  uint32_t kept = sim->access_count;
  if (kept > sim->access_capacity) kept = sim->access_capacity;
  if (kept > RL_SIM_DISPATCH_LOG) kept = RL_SIM_DISPATCH_LOG;
  return kept;
}

static void rl_sim_access_log_clear(rl_sim_device_t* sim) {
  uint32_t kept = rl_sim_access_log_kept(sim);
  for (uint32_t i = 0; i < kept; ++i) {
    free(sim->access[i].reads);
    free(sim->access[i].writes);
  }
  sim->access_count = 0;
}

void rl_sim_access_log_enable(rl_device_t* device, bool enable) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  pthread_mutex_lock(&sim->report_lock);
  atomic_store_explicit(&sim->access_enabled, enable, memory_order_relaxed);
  rl_sim_access_log_clear(sim);
  pthread_mutex_unlock(&sim->report_lock);
}

// A copy of |set|'s intervals (NULL when empty or out of memory: *|count|
// is then 0).
static rl_sim_access_range_t* rl_sim_access_copy(const rl_sim_range_set_t* set,
                                                 uint32_t* count) {
  *count = 0;
  if (set->count == 0) return NULL;
  rl_sim_access_range_t* out = malloc(set->count * sizeof(*out));
  if (!out) return NULL;
  for (uint32_t i = 0; i < set->count; ++i) {
    out[i] = (rl_sim_access_range_t){set->items[i].begin, set->items[i].end};
  }
  *count = set->count;
  return out;
}

void rl_sim_access_log_run(rl_sim_device_t* device, const rl_sim_run_t* run) {
  // Enabling happens before the dispatches it should see are published.
  if (!atomic_load_explicit(&device->access_enabled, memory_order_relaxed)) {
    return;
  }
  rl_sim_access_record_t record = {
      .dispatch_index = run->dispatch.dispatch_index,
      .workgroups_run = run->wg_done,
  };
  memcpy(record.workgroup_size, run->dispatch.workgroup_size,
         sizeof(record.workgroup_size));
  memcpy(record.grid_size, run->dispatch.grid_size, sizeof(record.grid_size));
  memcpy(record.workgroup_count, run->dispatch.workgroup_count,
         sizeof(record.workgroup_count));
  record.reads = rl_sim_access_copy(&run->reads, &record.read_count);
  record.writes = rl_sim_access_copy(&run->writes, &record.write_count);
  pthread_mutex_lock(&device->report_lock);
  bool kept = false;
  if (atomic_load_explicit(&device->access_enabled, memory_order_relaxed)) {
    uint32_t index = device->access_count;
    // Kept only while every earlier record is: the held prefix is exactly
    // rl_sim_access_log_kept() records.
    bool room = false;
    if (index < RL_SIM_DISPATCH_LOG &&
        index == rl_sim_access_log_kept(device)) {
      rl_status_t status = RL_ARRAY_RESERVE(&device->access,
                                            &device->access_capacity,
                                            index + 1);
      room = status == RL_OK;
      rl_status_free(status);
    }
    if (room) {
      device->access[index] = record;
      kept = true;
    }
    if (device->access_count < UINT32_MAX) device->access_count++;
  }
  pthread_mutex_unlock(&device->report_lock);
  if (!kept) {
    free(record.reads);
    free(record.writes);
  }
}

uint32_t rl_sim_access_log_take(rl_device_t* device,
                                rl_sim_access_record_t** out_records,
                                uint32_t* out_total) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  *out_records = NULL;
  pthread_mutex_lock(&sim->report_lock);
  uint32_t total = sim->access_count;
  uint32_t kept = rl_sim_access_log_kept(sim);
  rl_sim_access_record_t* copy =
      kept ? malloc(kept * sizeof(*copy)) : NULL;
  if (copy) {
    memcpy(copy, sim->access, kept * sizeof(*copy));
    sim->access_count = 0;  // ownership of the ranges moved to |copy|
  } else {
    rl_sim_access_log_clear(sim);
    kept = 0;
  }
  pthread_mutex_unlock(&sim->report_lock);
  *out_records = copy;
  if (out_total) *out_total = total;
  return kept;
}

void rl_sim_access_log_deinit(rl_sim_device_t* device) {
  rl_sim_access_log_clear(device);
  free(device->access);
  device->access = NULL;
  device->access_capacity = 0;
}
