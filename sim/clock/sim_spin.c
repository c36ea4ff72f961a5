// sim/clock/sim_spin.c — how the simulator's waits poll before they
// sleep (contract at rl_sim_spin_t in sim_clock.h).
//
// Why yield: the host thread and the command-processor thread hand work to
// each other (doorbell, then completion signal). When both are on one
// core — any machine busier than its core count, and the scheduler's
// choice even on an idle one — a waiter spinning on PAUSE holds the core
// the other side needs, for its whole window; then it sleeps, and the
// wake-up costs a system call on each side and a scheduler round trip
// (measured on a 2-core machine at load 10: about 35 µs per step with 20
// µs of pure spinning, more with a longer window). Yielding hands the core
// over at once when the other side is runnable there.
//
// Why only then: on a loaded machine a yield also queues the waiter behind
// every other runnable process on its core, and a waiter that yields while
// the other side runs on another core only slows both (measured: a
// 628-launch step's wait doubled). So a poll yields only while the other
// side was last seen on this waiter's core (|other_cpu|, which each side
// publishes: the CP per dispatch, the producer per doorbell); otherwise it
// spins on PAUSE, which costs the other side nothing.
//
// Why only a few: on a loaded machine one yield can keep the yielder off
// its core for several other processes' time slices (milliseconds), so a
// wait that yields on every poll trades its median for a long tail
// (measured at load 19: the 99th percentile of a short step's handoff grew
// from about 0.3 ms to 15 ms). After RL_SIM_SPIN_MAX_YIELDS the poll ends
// the window and the caller sleeps: a woken sleeper is scheduled promptly,
// a yielder is not.
#define _GNU_SOURCE  // sched_getcpu
#include <sched.h>

#include "sim/clock/sim_clock.h"

// PAUSE polls before the first yield (about a microsecond): a completion
// that is about to land on another core is caught without a system call.
#define RL_SIM_SPIN_PURE_POLLS 16u
// Yields before the window ends early (the handoff needs one each way).
#define RL_SIM_SPIN_MAX_YIELDS 2u

int rl_sim_current_cpu(void) { return sched_getcpu(); }

void rl_sim_spin_start(rl_sim_spin_t* spin, uint64_t window_ns,
                       const atomic_int* other_cpu) {
  spin->start_ns = rl_now_ns();
  spin->window_ns = window_ns;
  spin->other_cpu = other_cpu;
  spin->polls = 0;
  spin->yields = 0;
}

bool rl_sim_spin_again(rl_sim_spin_t* spin) {
  uint32_t polls = spin->polls++;
  if (polls < RL_SIM_SPIN_PURE_POLLS) {
    rl_sim_pause();
    return true;
  }
  int other = atomic_load_explicit(spin->other_cpu, memory_order_relaxed);
  if (other >= 0 && other == sched_getcpu()) {
    if (spin->yields == RL_SIM_SPIN_MAX_YIELDS ||
        rl_now_ns() - spin->start_ns >= spin->window_ns) {
      return false;
    }
    sched_yield();
    spin->yields++;
    return true;
  }
  // The clock every 64 polls (a pause each).
  if ((polls & 63u) == 63u &&
      rl_now_ns() - spin->start_ns >= spin->window_ns) {
    return false;
  }
  rl_sim_pause();
  return true;
}
