// sim/wg/sim_report.c — the device's dispatch log and hazard list, written
// by the batches (sim_schedule.c), the hazard checker and, through the
// device's upcalls (sim_mem.h rl_sim_upcalls_t), the cache model; read back
// by the device's sim.h functions (sim/device/sim_device.c).
#include <string.h>

#include "sim/wg/sim_wg.h"

void rl_sim_log_dispatch(rl_sim_device_t* device,
                         const rl_sim_dispatch_record_t* record) {
  pthread_mutex_lock(&device->report_lock);
  device->log[device->log_count % RL_SIM_DISPATCH_LOG] = *record;
  device->log_count++;
  pthread_mutex_unlock(&device->report_lock);
}

void rl_sim_report_hazard(rl_sim_device_t* device,
                          const rl_sim_hazard_t* hazard) {
  if (rl_sim_parallel_capture(hazard)) return;  // merged at the end
  pthread_mutex_lock(&device->report_lock);
  if (device->hazard_count < RL_SIM_HAZARD_CAPACITY) {
    device->hazards[device->hazard_count] = *hazard;
  }
  if (device->hazard_count < UINT32_MAX) device->hazard_count++;
  pthread_mutex_unlock(&device->report_lock);
}

void rl_sim_report_copy(void* out, const void* records, size_t size,
                        uint32_t total, uint32_t kept, uint32_t capacity) {
  uint32_t count = total < kept ? total : kept;
  if (count > capacity) count = capacity;
  if (count > 0) memcpy(out, records, count * size);
}
