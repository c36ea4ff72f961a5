// tests/standins/hsa/standin_hsa_signal.c — signals of the ROCr stand-in:
// sim signals named by their sim address (standin_hsa.h "signals"); the
// doorbell handles of queues are routed to standin_hsa_queue.c.
#include <string.h>
#include <time.h>

#include "tests/standins/hsa/standin_hsa.h"

bool rl_standin_signal_live_locked(uint64_t handle) {
  for (uint32_t i = 0; i < rl_standin.signal_count; ++i) {
    if (rl_standin.signals[i] == handle) return true;
  }
  return false;
}

static bool rl_standin_signal_live(uint64_t handle) {
  pthread_mutex_lock(&rl_standin.lock);
  bool live = rl_standin_signal_live_locked(handle);
  pthread_mutex_unlock(&rl_standin.lock);
  return live;
}

RL_STANDIN_EXPORT hsa_status_t hsa_signal_create(
    hsa_signal_value_t initial_value, uint32_t num_consumers,
    const hsa_agent_t* consumers, hsa_signal_t* signal) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!signal || (num_consumers && !consumers)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  pthread_mutex_lock(&rl_standin.lock);
  hsa_status_t result = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  rl_device_allocation_t allocation = {0};
  if (rl_standin.signal_count < RL_STANDIN_MAX_SIGNALS) {
    rl_status_t status = rl_standin.sim->vtable->signal_create(
        rl_standin.sim, initial_value, &allocation);
    if (!status) {
      rl_standin.signals[rl_standin.signal_count++] = allocation.address;
      signal->handle = allocation.address;
      result = HSA_STATUS_SUCCESS;
    }
    rl_status_free(status);
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return result;
}

static void rl_standin_signal_remove_locked(uint32_t index) {
  rl_status_free(rl_standin.sim->vtable->signal_destroy(
      rl_standin.sim, rl_standin.signals[index]));
  rl_standin.signals[index] = rl_standin.signals[--rl_standin.signal_count];
}

RL_STANDIN_EXPORT hsa_status_t hsa_signal_destroy(hsa_signal_t signal) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  pthread_mutex_lock(&rl_standin.lock);
  hsa_status_t result = HSA_STATUS_ERROR_INVALID_SIGNAL;
  for (uint32_t i = 0; i < rl_standin.signal_count; ++i) {
    if (rl_standin.signals[i] != signal.handle) continue;
    rl_standin_signal_remove_locked(i);
    result = HSA_STATUS_SUCCESS;
    break;
  }
  pthread_mutex_unlock(&rl_standin.lock);
  if (result != HSA_STATUS_SUCCESS) {
    rl_standin_error("hsa_signal_destroy of signal 0x%llx, which is not live",
                     (unsigned long long)signal.handle);
  }
  return result;
}

void rl_standin_signal_release_all_locked(void) {
  while (rl_standin.signal_count > 0) rl_standin_signal_remove_locked(0);
}

RL_STANDIN_EXPORT void hsa_signal_store_screlease(hsa_signal_t signal,
                                                  hsa_signal_value_t value) {
  pthread_mutex_lock(&rl_standin.lock);
  rl_standin_queue_t* queue =
      rl_standin_queue_by_doorbell_locked(signal.handle);
  bool live = queue || rl_standin_signal_live_locked(signal.handle);
  pthread_mutex_unlock(&rl_standin.lock);
  if (queue) {
    rl_standin_queue_doorbell(queue, value);
  } else if (live) {
    rl_standin.sim->vtable->signal_store(rl_standin.sim, signal.handle, value);
  } else {
    rl_standin_error("hsa_signal_store_screlease on signal 0x%llx, which is "
                     "not live", (unsigned long long)signal.handle);
  }
}

RL_STANDIN_EXPORT hsa_signal_value_t hsa_signal_load_scacquire(
    hsa_signal_t signal) {
  if (!rl_standin_signal_live(signal.handle)) {
    rl_standin_error("hsa_signal_load_scacquire on signal 0x%llx, which is "
                     "not live", (unsigned long long)signal.handle);
    return 0;
  }
  hsa_signal_value_t value =
      rl_standin.sim->vtable->signal_load(rl_standin.sim, signal.handle);
  rl_standin_corrupt_poll();
  return value;
}

static bool rl_standin_condition_holds(hsa_signal_condition_t condition,
                                       int64_t value, int64_t compare) {
  switch (condition) {
    case HSA_SIGNAL_CONDITION_EQ: return value == compare;
    case HSA_SIGNAL_CONDITION_NE: return value != compare;
    case HSA_SIGNAL_CONDITION_LT: return value < compare;
    case HSA_SIGNAL_CONDITION_GTE: return value >= compare;
  }
  return false;
}

// |ticks| of the 100 MHz system timestamp in nanoseconds, saturating.
static uint64_t rl_standin_ticks_to_ns(uint64_t ticks) {
  const uint64_t per_tick = 1000000000ull / RL_STANDIN_TIMESTAMP_HZ;
  return ticks > UINT64_MAX / per_tick ? UINT64_MAX : ticks * per_tick;
}

RL_STANDIN_EXPORT hsa_signal_value_t hsa_signal_wait_scacquire(
    hsa_signal_t signal, hsa_signal_condition_t condition,
    hsa_signal_value_t compare_value, uint64_t timeout_hint,
    hsa_wait_state_t wait_state_hint) {
  if (wait_state_hint != HSA_WAIT_STATE_BLOCKED &&
      wait_state_hint != HSA_WAIT_STATE_ACTIVE) {
    rl_standin_error("hsa_signal_wait_scacquire with wait state %d, which is "
                     "neither HSA_WAIT_STATE_BLOCKED nor _ACTIVE",
                     (int)wait_state_hint);
    return 0;
  }
  if (!rl_standin_signal_live(signal.handle)) {
    rl_standin_error("hsa_signal_wait_scacquire on signal 0x%llx, which is "
                     "not live (destroyed or never created)",
                     (unsigned long long)signal.handle);
    return 0;
  }
  rl_device_t* sim = rl_standin.sim;
  const uint64_t timeout_ns = rl_standin_ticks_to_ns(timeout_hint);
  if (condition == HSA_SIGNAL_CONDITION_LT) {
    int64_t value = 0;
    // ACTIVE polls for the whole wait (ROCr spins on the value), BLOCKED
    // may sleep.
    if (wait_state_hint == HSA_WAIT_STATE_ACTIVE) {
      sim->vtable->signal_spin_lt(sim, signal.handle, compare_value,
                                  timeout_ns, &value);
    } else {
      sim->vtable->signal_wait_lt(sim, signal.handle, compare_value,
                                  timeout_ns, &value);
    }
    rl_standin_corrupt_poll();
    return value;
  }
  // Other conditions: poll in 50 µs steps until the hint runs out.
  const struct timespec step = {0, 50000};
  for (uint64_t waited = 0;; waited += 50000) {
    int64_t value = sim->vtable->signal_load(sim, signal.handle);
    if (rl_standin_condition_holds(condition, value, compare_value) ||
        waited >= timeout_ns) {
      rl_standin_corrupt_poll();
      return value;
    }
    nanosleep(&step, NULL);
  }
}
