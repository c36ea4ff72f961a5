// redline/backends/rocr_signal.c — ROCr signals as device.h signals. A
// signal's device address is its hsa_signal_t.handle: on ROCr the address
// of the signal's amd_signal_t (value at byte 8; rocr_internal.h asserts
// the layout). The device keeps the live handles so operations on an
// address that is not a live signal do what device.h promises (nothing,
// 0, false) instead of handing ROCr a dangling handle.
#include <string.h>
#include <time.h>

#include "base/array.h"
#include "redline/backends/rocr_internal.h"
#include "base/clock.h"

static int64_t rl_rocr_signal_find(const rl_rocr_device_t* device,
                                   uint64_t handle) {
  for (uint32_t i = 0; i < device->signal_count; ++i) {
    if (device->signals[i] == handle) return i;
  }
  return -1;
}

rl_status_t rl_rocr_signal_create(rl_device_t* base, int64_t initial_value,
                                  rl_device_allocation_t* out_signal) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  memset(out_signal, 0, sizeof(*out_signal));
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&device->signals,
                                      &device->signal_capacity,
                                      device->signal_count + 1));
  hsa_signal_t signal = {0};
  RL_RETURN_IF_ERROR(RL_HSA_CALL(&device->api, hsa_signal_create,
                                 (hsa_signal_value_t)initial_value, 0, NULL,
                                 &signal));
  device->signals[device->signal_count++] = signal.handle;
  // No host view: the value is only touched through hsa_signal_*.
  *out_signal = (rl_device_allocation_t){signal.handle, RL_DEVICE_SIGNAL_SIZE,
                                         NULL};
  return RL_OK;
}

rl_status_t rl_rocr_signal_destroy(rl_device_t* base, uint64_t handle) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  int64_t index = rl_rocr_signal_find(device, handle);
  if (index < 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rocr: signal 0x%llx is not live",
                     (unsigned long long)handle);
  }
  device->signals[index] = device->signals[--device->signal_count];
  return RL_HSA_CALL(&device->api, hsa_signal_destroy,
                     (hsa_signal_t){handle});
}

void rl_rocr_signal_store(rl_device_t* base, uint64_t handle, int64_t value) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  if (rl_rocr_signal_find(device, handle) < 0) return;
  device->api.fn.hsa_signal_store_screlease((hsa_signal_t){handle},
                                            (hsa_signal_value_t)value);
}

int64_t rl_rocr_signal_load(rl_device_t* base, uint64_t handle) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  if (rl_rocr_signal_find(device, handle) < 0) return 0;
  return device->api.fn.hsa_signal_load_scacquire((hsa_signal_t){handle});
}

// |ns| in the unit of hsa_signal_wait_*'s timeout_hint: ticks of the system
// timestamp (HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY), at least 1.
static uint64_t rl_rocr_wait_ticks(const rl_rocr_device_t* device,
                                   uint64_t ns) {
  unsigned __int128 ticks =
      (unsigned __int128)ns * device->timestamp_hz / 1000000000ull;
  if (ticks == 0) return 1;
  return ticks > UINT64_MAX ? UINT64_MAX : (uint64_t)ticks;
}

static bool rl_rocr_signal_wait_state(rl_rocr_device_t* device,
                                      hsa_signal_t signal, int64_t value,
                                      uint64_t timeout_ns,
                                      hsa_wait_state_t state,
                                      int64_t* out_value) {
  const uint64_t start = rl_now_ns();
  for (;;) {
    uint64_t elapsed = rl_now_ns() - start;
    uint64_t left = elapsed < timeout_ns ? timeout_ns - elapsed : 0;
    int64_t observed = device->api.fn.hsa_signal_wait_scacquire(
        signal, HSA_SIGNAL_CONDITION_LT, (hsa_signal_value_t)value,
        rl_rocr_wait_ticks(device, left), state);
    *out_value = observed;
    if (observed < value) return true;
    // HSA lets the wait return early; only the clock ends it.
    if (left == 0) return false;
  }
}

bool rl_rocr_signal_wait_raw(rl_rocr_device_t* device, hsa_signal_t signal,
                             int64_t value, uint64_t timeout_ns,
                             int64_t* out_value) {
  return rl_rocr_signal_wait_state(device, signal, value, timeout_ns,
                                   HSA_WAIT_STATE_BLOCKED, out_value);
}

bool rl_rocr_signal_spin_lt(rl_device_t* base, uint64_t handle, int64_t value,
                            uint64_t timeout_ns, int64_t* out_value) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  *out_value = 0;
  if (rl_rocr_signal_find(device, handle) < 0) return false;
  return rl_rocr_signal_wait_state(device, (hsa_signal_t){handle}, value,
                                   timeout_ns, HSA_WAIT_STATE_ACTIVE,
                                   out_value);
}

bool rl_rocr_signal_wait_lt(rl_device_t* base, uint64_t handle, int64_t value,
                            uint64_t timeout_ns, int64_t* out_value) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  *out_value = 0;
  if (rl_rocr_signal_find(device, handle) < 0) return false;
  return rl_rocr_signal_wait_raw(device, (hsa_signal_t){handle}, value,
                                 timeout_ns, out_value);
}

rl_status_t rl_rocr_signal_release_all(rl_rocr_device_t* device) {
  rl_status_t status = RL_OK;
  while (device->signal_count > 0) {
    status = rl_status_join(
        status, rl_rocr_signal_destroy(&device->base, device->signals[0]));
  }
  return status;
}
