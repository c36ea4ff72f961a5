// sim/signal/sim_signal.h — HSA signals in simulated memory (module
// sim/signal: sim_signal.c): amd_signal_t-shaped objects the host and the
// command processor store, decrement and wait on. A wait polls, then sleeps
// on the device's signal channel (signal_lock, signal_cond in
// rl_sim_device_t) in slices (sim/clock). Calls down only: sim/mem (the
// signal's memory) and sim/clock.
#ifndef REDLINE_SIM_SIGNAL_SIM_SIGNAL_H_
#define REDLINE_SIM_SIGNAL_SIM_SIGNAL_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/mem/sim_mem.h"

// amd_signal_t.kind for a user signal (Debian hsa/amd_hsa_signal.h
// AMD_SIGNAL_KIND_USER).
#define RL_SIM_SIGNAL_KIND_USER 1

rl_status_t rl_sim_signal_create(rl_device_t* device, int64_t initial_value,
                                 rl_device_allocation_t* out_signal);
rl_status_t rl_sim_signal_destroy(rl_device_t* device, uint64_t signal);
void rl_sim_signal_store(rl_device_t* device, uint64_t signal, int64_t value);
int64_t rl_sim_signal_load(rl_device_t* device, uint64_t signal);
bool rl_sim_signal_spin_lt(rl_device_t* device, uint64_t signal, int64_t value,
                           uint64_t timeout_ns, int64_t* out_value);
bool rl_sim_signal_wait_lt(rl_device_t* device, uint64_t signal, int64_t value,
                           uint64_t timeout_ns, int64_t* out_value);
// The atomic value of the signal at |signal|, or NULL when it is not a
// 64-byte, 8-aligned object inside live memory.
_Atomic int64_t* rl_sim_signal_value(rl_sim_device_t* device, uint64_t signal);
// Decrements |signal| by one (release) and wakes every waiter.
void rl_sim_signal_decrement(rl_sim_device_t* device, uint64_t signal);
// Wakes every thread sleeping on any signal (after a change or a stop).
void rl_sim_signal_wake_all(rl_sim_device_t* device);
// Takes signal_lock and counts the caller in signal_sleepers (before it
// checks any value), and the reverse: every wait that may sleep on
// signal_cond is bracketed by these two.
void rl_sim_signal_lock(rl_sim_device_t* device);
void rl_sim_signal_unlock(rl_sim_device_t* device);
// Sleeps on the signal channel until |deadline_ns| (CLOCK_MONOTONIC) or at
// most one wait slice, whichever is first. The caller holds signal_lock.
void rl_sim_signal_sleep(rl_sim_device_t* device, uint64_t deadline_ns);

#endif  // REDLINE_SIM_SIGNAL_SIM_SIGNAL_H_
