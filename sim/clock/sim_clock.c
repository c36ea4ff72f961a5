// sim/clock/sim_clock.c — the device's timestamp counter and the sleeping
// phase of the simulator's waits (sim_clock.h).
#include "sim/clock/sim_clock.h"

#include <time.h>

void rl_sim_nap_ns(uint64_t ns) {
  struct timespec nap = {(time_t)(ns / 1000000000ull),
                         (long)(ns % 1000000000ull)};
  clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL);
}

void rl_sim_cond_sleep(pthread_cond_t* cond, pthread_mutex_t* lock,
                       uint64_t deadline_ns) {
  uint64_t now = rl_now_ns();
  if (now >= deadline_ns) return;
  uint64_t sleep = deadline_ns - now;
  if (sleep > RL_SIM_WAIT_SLICE_NS) sleep = RL_SIM_WAIT_SLICE_NS;
  // pthread_cond_timedwait measures against CLOCK_REALTIME by default; the
  // sleep is at most one slice, so a clock step only shortens or lengthens
  // one slice and every caller re-checks its condition afterwards.
  struct timespec real;
  clock_gettime(CLOCK_REALTIME, &real);
  uint64_t target =
      (uint64_t)real.tv_sec * 1000000000ull + (uint64_t)real.tv_nsec + sleep;
  struct timespec until = {(time_t)(target / 1000000000ull),
                           (long)(target % 1000000000ull)};
  pthread_cond_timedwait(cond, lock, &until);
}

// 100 MHz: one tick per 10 ns of CLOCK_MONOTONIC.
uint64_t rl_sim_timestamp(rl_device_t* device) {
  (void)device;
  return rl_now_ns() / (1000000000ull / RL_SIM_TIMESTAMP_HZ);
}
