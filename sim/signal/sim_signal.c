// sim/signal/sim_signal.c — HSA-style signals on the simulated device.
//
// A signal is a 64-byte amd_signal_t-shaped object in device memory: kind at
// byte 0 (AMD_SIGNAL_KIND_USER), the 64-bit value at
// RL_DEVICE_SIGNAL_VALUE_OFFSET, read and written with C11 atomics (the
// command processor decrements with a release read-modify-write, waiters
// load with acquire, like hsa_signal_wait_scacquire).
//
// Waking: a waiter polls first (RL_SIM_SIGNAL_SPIN_NS, yielding the core
// between polls: sim_spin.c), then takes signal_lock, counts itself
// in signal_sleepers and only then re-checks the value and sleeps on
// signal_cond for at most one wait slice, so a change made behind the
// device's back (a plain host write) is still seen within
// RL_SIM_WAIT_SLICE_NS. Every change made through this file (store, CP
// decrement) is a sequentially consistent write followed by a sequentially
// consistent load of signal_sleepers; only when that is nonzero does it
// take and release signal_lock, then broadcast. No wakeup is lost: either
// the changer sees the waiter counted, and it cannot take the lock until
// the waiter is inside its wait (the waiter holds it from its count to its
// wait), so the broadcast that follows reaches it, or the waiter's check
// (after it counted itself) sees the new value. The broadcast is outside
// the lock so the woken waiter does not block again on a lock the changer
// still holds (one more sleep and wake-up per handoff). A change nobody
// waits for costs no lock and no system call (the engine stores the
// completion signal on every publish).
#include <string.h>

#include "sim/clock/sim_clock.h"
#include "sim/signal/sim_signal.h"

// How long a wait polls before it sleeps: ROCr's interrupt signal polls
// for 200 µs ("a few times bigger than null kernel latency",
// InterruptSignal::WaitRelaxed's kMaxElapsed) before it waits on the
// kernel event. A short stream (tens of dispatches) completes inside that
// window, so its waiter returns without a sleep and a wake-up; a long
// stream's waiter sleeps. Polls yield the core (sim_spin.c), so the
// longer window costs other work on the machine little. When the previous
// wait on the device outlasted the window (a long stream: the next one will
// too, a decode loop repeats its step), a wait polls only
// RL_SIM_SIGNAL_SHORT_SPIN_NS: polling would not catch the completion and
// only takes the core from the CP or other work (measured: the host work
// of a 628-launch step grew by a third with 200 µs of polling per wait).
#define RL_SIM_SIGNAL_SPIN_NS 200000ull
#define RL_SIM_SIGNAL_SHORT_SPIN_NS 20000ull

_Atomic int64_t* rl_sim_signal_value(rl_sim_device_t* device, uint64_t signal) {
  if (signal == 0 || (signal & 7u) != 0) return NULL;
  uint8_t* host =
      rl_sim_memory_translate(&device->memory, signal, RL_DEVICE_SIGNAL_SIZE);
  if (host == NULL) return NULL;
  return (_Atomic int64_t*)(host + RL_DEVICE_SIGNAL_VALUE_OFFSET);
}

void rl_sim_signal_wake_all(rl_sim_device_t* device) {
  pthread_mutex_lock(&device->signal_lock);
  pthread_mutex_unlock(&device->signal_lock);
  pthread_cond_broadcast(&device->signal_cond);
}

// After a change (a sequentially consistent write of the value): wakes
// the counted sleepers, if any. The write and this load are both in the
// single order of sequentially consistent operations, as are the waiter's
// increment and its load of the value, so no fence is needed (and
// ThreadSanitizer does not model fences).
static void rl_sim_signal_changed(rl_sim_device_t* device) {
  if (atomic_load_explicit(&device->signal_sleepers, memory_order_seq_cst)) {
    rl_sim_signal_wake_all(device);
  }
}

void rl_sim_signal_lock(rl_sim_device_t* device) {
  pthread_mutex_lock(&device->signal_lock);
  atomic_fetch_add_explicit(&device->signal_sleepers, 1, memory_order_seq_cst);
}

void rl_sim_signal_unlock(rl_sim_device_t* device) {
  atomic_fetch_sub_explicit(&device->signal_sleepers, 1, memory_order_relaxed);
  pthread_mutex_unlock(&device->signal_lock);
}

void rl_sim_signal_decrement(rl_sim_device_t* device, uint64_t signal) {
  _Atomic int64_t* value = rl_sim_signal_value(device, signal);
  if (value == NULL) return;
  atomic_fetch_sub_explicit(value, 1, memory_order_seq_cst);
  rl_sim_signal_changed(device);
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
  atomic_store_explicit(slot, value, memory_order_seq_cst);
  rl_sim_signal_changed(sim);
}

int64_t rl_sim_signal_load(rl_device_t* device, uint64_t signal) {
  _Atomic int64_t* slot =
      rl_sim_signal_value(rl_sim_device_cast(device), signal);
  return slot ? atomic_load_explicit(slot, memory_order_acquire) : 0;
}

// Records whether a wait outlasted the polling window (stored only when
// that changes: the CP reads this cache line on every signal change).
static void rl_sim_signal_note_wait(rl_sim_device_t* sim, uint64_t waited_ns) {
  bool long_wait = waited_ns > RL_SIM_SIGNAL_SPIN_NS;
  if (atomic_load_explicit(&sim->last_wait_long, memory_order_relaxed) !=
      long_wait) {
    atomic_store_explicit(&sim->last_wait_long, long_wait,
                          memory_order_relaxed);
  }
}

// Polls the value where it lives (translated once: a signal_load per poll
// would take the memory lock the command processor translates under), the
// clock every 64 polls.
bool rl_sim_signal_spin_lt(rl_device_t* device, uint64_t signal, int64_t value,
                           uint64_t timeout_ns, int64_t* out_value) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  _Atomic int64_t* slot = rl_sim_signal_value(sim, signal);
  *out_value = 0;
  if (slot == NULL) return false;
  const uint64_t start = rl_now_ns();
  for (uint32_t polls = 0;; ++polls) {
    *out_value = atomic_load_explicit(slot, memory_order_acquire);
    if (*out_value < value) return true;
    if ((polls & 63u) == 63u && rl_now_ns() - start >= timeout_ns) {
      return false;
    }
    rl_sim_pause();
  }
}

bool rl_sim_signal_wait_lt(rl_device_t* device, uint64_t signal, int64_t value,
                           uint64_t timeout_ns, int64_t* out_value) {
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  _Atomic int64_t* slot = rl_sim_signal_value(sim, signal);
  *out_value = 0;
  if (slot == NULL) return false;
  uint64_t window =
      atomic_load_explicit(&sim->last_wait_long, memory_order_relaxed)
          ? RL_SIM_SIGNAL_SHORT_SPIN_NS
          : RL_SIM_SIGNAL_SPIN_NS;
  rl_sim_spin_t spin;
  rl_sim_spin_start(&spin, timeout_ns < window ? timeout_ns : window,
                    &sim->cp_cpu);
  const uint64_t start = spin.start_ns;
  for (;;) {
    *out_value = atomic_load_explicit(slot, memory_order_acquire);
    if (*out_value < value) {
      rl_sim_signal_note_wait(sim, rl_now_ns() - start);
      return true;
    }
    if (!rl_sim_spin_again(&spin)) break;
  }
  uint64_t deadline = start + timeout_ns;
  if (deadline < timeout_ns) deadline = UINT64_MAX;
  rl_sim_signal_lock(sim);
  for (;;) {
    *out_value = atomic_load_explicit(slot, memory_order_seq_cst);
    if (*out_value < value || rl_now_ns() >= deadline) break;
    rl_sim_signal_sleep(sim, deadline);
  }
  rl_sim_signal_unlock(sim);
  if (*out_value < value) {
    rl_sim_signal_note_wait(sim, rl_now_ns() - start);
  }
  return *out_value < value;
}
