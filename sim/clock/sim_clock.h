// sim/clock/sim_clock.h — the simulator's clock and wait primitives
// (module sim/clock: sim_clock.c, sim_spin.c): the device's 100 MHz
// timestamp, the polling phase of every wait (spin, yield) and its sleeping
// phase (a nap, a condition wait of at most one slice). The bottom of the
// simulator: it calls nothing else of it, and every module above waits with
// it (signals, the command processor, the PM4 interpreter, the batches).
// Thread-safety: every function is safe from any thread; a spin state
// belongs to its waiter.
#ifndef REDLINE_SIM_CLOCK_SIM_CLOCK_H_
#define REDLINE_SIM_CLOCK_SIM_CLOCK_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/clock.h"
#include "sim/sim.h"

// How long any sleeping wait sleeps before it re-checks its condition and
// the queue's stop flag (1 ms), so no wait depends on a wakeup alone.
#define RL_SIM_WAIT_SLICE_NS 1000000ull

// A spin-wait hint to the core (x86 PAUSE, AArch64 YIELD).
static inline void rl_sim_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}
// The polling phase of a wait (sim_spin.c): PAUSE polls, except that a
// poll yields the core (sched_yield, at most twice) while |other_cpu| — the
// CPU the side that will end the wait last ran on, -1 unknown — is the
// waiter's own; until |window_ns| after start or a third yield would be
// due, then the caller sleeps (counted as a
// sleeper, so the other side wakes it). Usage:
//   rl_sim_spin_t spin;
//   for (rl_sim_spin_start(&spin, WINDOW, &cpu); !ready();) {
//     if (!rl_sim_spin_again(&spin)) { sleep until ready; break; }
//   }
typedef struct rl_sim_spin_s {
  uint64_t start_ns, window_ns;
  const atomic_int* other_cpu;
  uint32_t polls;
  uint32_t yields;  // polls that yielded the core (tests read it)
} rl_sim_spin_t;
void rl_sim_spin_start(rl_sim_spin_t* spin, uint64_t window_ns,
                       const atomic_int* other_cpu);
// The CPU the calling thread runs on (sched_getcpu), -1 when unknown.
int rl_sim_current_cpu(void);
// One poll's wait: false when the window is over.
bool rl_sim_spin_again(rl_sim_spin_t* spin);
// Sleeps |ns| on CLOCK_MONOTONIC (no lock, nobody wakes it early).
void rl_sim_nap_ns(uint64_t ns);
// pthread_cond_timedwait on |cond| (|lock| held) until |deadline_ns|
// (CLOCK_MONOTONIC) or at most RL_SIM_WAIT_SLICE_NS, whichever is first.
void rl_sim_cond_sleep(pthread_cond_t* cond, pthread_mutex_t* lock,
                       uint64_t deadline_ns);
uint64_t rl_sim_timestamp(rl_device_t* device);

#endif  // REDLINE_SIM_CLOCK_SIM_CLOCK_H_
