// redline/sim/sim_spin.c — how the simulator's waits poll before they
// sleep (contract at rl_sim_spin_t in sim_internal.h).
//
// Why yield instead of spinning on PAUSE alone: the host thread and the
// command-processor thread hand work to each other (doorbell, then
// completion signal). When both are on one core — any machine busier than
// its core count, and the scheduler's choice even on an idle one — a
// waiter spinning on PAUSE holds the core the other side needs, for its
// whole window; then it sleeps, and the wake-up costs a system call on
// each side and a scheduler round trip (measured on a 2-core machine at
// load 10: about 35 µs per step with 20 µs of pure spinning, more with a
// longer window). Yielding after a short spin hands the core over at once
// when the other side is runnable there, and costs one system call per
// round when nobody else is (the waiter stays runnable, so a completion on
// another core is still seen within one round, no wake-up needed).
#include <sched.h>

#include "redline/sim/sim_internal.h"

// PAUSE polls before the first yield (about a microsecond): a completion
// that is about to land on another core is caught without a system call.
#define RL_SIM_SPIN_PURE_POLLS 16u

void rl_sim_spin_start(rl_sim_spin_t* spin, uint64_t window_ns) {
  spin->start_ns = rl_sim_now_ns();
  spin->window_ns = window_ns;
  spin->polls = 0;
}

bool rl_sim_spin_again(rl_sim_spin_t* spin) {
  if (spin->polls < RL_SIM_SPIN_PURE_POLLS) {
    spin->polls++;
    rl_sim_pause();
    return true;
  }
  if (rl_sim_now_ns() - spin->start_ns >= spin->window_ns) return false;
  sched_yield();
  return true;
}
