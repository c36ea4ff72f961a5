// redline/sim/sim_signal.c — HSA-style signals on the simulated device.
//
// A signal is a 64-byte amd_signal_t-shaped object in device memory: kind at
// byte 0 (AMD_SIGNAL_KIND_USER), the 64-bit value at
// RL_DEVICE_SIGNAL_VALUE_OFFSET, read and written with C11 atomics (the
// command processor decrements with a release read-modify-write, waiters
// load with acquire, like hsa_signal_wait_scacquire).
//
// Waking: every change made through this file (store, CP decrement) takes
// signal_lock and broadcasts signal_cond. A waiter spins briefly (a
// completion usually lands within microseconds), then re-checks the value
// under signal_lock and sleeps on signal_cond for at most one wait slice, so
// a change made behind the device's back (a plain host write) is still seen
// within RL_SIM_WAIT_SLICE_NS, and no wakeup can be lost: a changer's
// broadcast needs the lock the waiter only releases inside the wait.
#include <string.h>

#include "redline/sim/sim_internal.h"

// Spin iterations before a wait sleeps (about 10-50 us on a current core).
#define RL_SIM_SIGNAL_SPIN 2000

_Atomic int64_t* rl_sim_signal_value(rl_sim_device_t* device, uint64_t signal) {
  if (signal == 0 || (signal & 7u) != 0) return NULL;
  uint8_t* host =
      rl_sim_memory_translate(&device->memory, signal, RL_DEVICE_SIGNAL_SIZE);
  if (host == NULL) return NULL;
  return (_Atomic int64_t*)(host + RL_DEVICE_SIGNAL_VALUE_OFFSET);
}

void rl_sim_signal_wake_all(rl_sim_device_t* device) {
  pthread_mutex_lock(&device->signal_lock);
  pthread_cond_broadcast(&device->signal_cond);
  pthread_mutex_unlock(&device->signal_lock);
}

void rl_sim_signal_decrement(rl_sim_device_t* device, uint64_t signal) {
  _Atomic int64_t* value = rl_sim_signal_value(device, signal);
  if (value == NULL) return;
  atomic_fetch_sub_explicit(value, 1, memory_order_release);
  rl_sim_signal_wake_all(device);
}

void rl_sim_signal_sleep(rl_sim_device_t* device, uint64_t deadline_ns) {
  rl_sim_cond_sleep(&device->signal_cond, &device->signal_lock, deadline_ns);
}

rl_status_t rl_sim_signal_create(rl_device_t* device, int64_t initial_value,
                                 rl_device_allocation_t* out_signal) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  RL_RETURN_IF_ERROR(rl_sim_memory_allocate(&sim->memory, RL_DEVICE_SIGNAL_SIZE,
                                            RL_DEVICE_SIGNAL_SIZE,
                                            RL_MEMORY_KIND_SYSTEM, out_signal));
  int64_t kind = RL_SIM_SIGNAL_KIND_USER;
  memcpy(out_signal->host, &kind, sizeof(kind));
  atomic_store_explicit(rl_sim_signal_value(sim, out_signal->address),
                        initial_value, memory_order_release);
  return RL_OK;
}

rl_status_t rl_sim_signal_destroy(rl_device_t* device, uint64_t signal) {
  return rl_sim_memory_free(&rl_sim_device_cast(device)->memory, signal);
}

void rl_sim_signal_store(rl_device_t* device, uint64_t signal, int64_t value) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  _Atomic int64_t* slot = rl_sim_signal_value(sim, signal);
  if (slot == NULL) return;
  atomic_store_explicit(slot, value, memory_order_release);
  rl_sim_signal_wake_all(sim);
}

int64_t rl_sim_signal_load(rl_device_t* device, uint64_t signal) {
  _Atomic int64_t* slot =
      rl_sim_signal_value(rl_sim_device_cast(device), signal);
  return slot ? atomic_load_explicit(slot, memory_order_acquire) : 0;
}

bool rl_sim_signal_wait_lt(rl_device_t* device, uint64_t signal, int64_t value,
                           uint64_t timeout_ns, int64_t* out_value) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  _Atomic int64_t* slot = rl_sim_signal_value(sim, signal);
  *out_value = 0;
  if (slot == NULL) return false;
  for (int spin = 0; spin < RL_SIM_SIGNAL_SPIN; ++spin) {
    *out_value = atomic_load_explicit(slot, memory_order_acquire);
    if (*out_value < value) return true;
  }
  uint64_t deadline = rl_sim_now_ns() + timeout_ns;
  if (deadline < timeout_ns) deadline = UINT64_MAX;
  pthread_mutex_lock(&sim->signal_lock);
  for (;;) {
    *out_value = atomic_load_explicit(slot, memory_order_acquire);
    if (*out_value < value || rl_sim_now_ns() >= deadline) break;
    rl_sim_signal_sleep(sim, deadline);
  }
  pthread_mutex_unlock(&sim->signal_lock);
  return *out_value < value;
}
