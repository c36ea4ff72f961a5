// Tests of the simulator's polling policy (sim/sim_spin.c): a
// wait's polls end at its window, and yield the core only while the other
// side of the handoff last ran on the waiter's own CPU. The negative
// control is the same spin with the other side on a different CPU: no
// yield at all.
#define _GNU_SOURCE  // sched_setaffinity, sched_getcpu
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sim/clock/sim_clock.h"

enum { RL_TEST_WINDOW_NS = 200000 };

// Polls until the window of |window_ns| ends; returns the time it took.
static uint64_t rl_test_spin(const atomic_int* other, uint64_t window_ns,
                             rl_sim_spin_t* spin) {
  uint64_t start = rl_now_ns();
  rl_sim_spin_start(spin, window_ns, other);
  while (rl_sim_spin_again(spin)) {
  }
  return rl_now_ns() - start;
}

// Keeps this thread on the CPU it runs on (so sched_getcpu stays put);
// returns that CPU.
static int rl_test_pin(void) {
  int cpu = sched_getcpu();
  assert_true(cpu >= 0);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
  assert_int_equal(sched_getcpu(), cpu);
  return cpu;
}

static void test_window_ends_without_yield_when_unknown(void** state) {
  (void)state;
  atomic_int other;
  atomic_init(&other, -1);
  rl_sim_spin_t spin;
  uint64_t took = rl_test_spin(&other, RL_TEST_WINDOW_NS, &spin);
  assert_true(took >= RL_TEST_WINDOW_NS);
  assert_int_equal(spin.yields, 0);
  assert_true(spin.polls > 64);
}

// Same CPU: two yields after the PAUSE phase, then the window ends early
// (the caller sleeps instead of yielding again). A long window, so that a
// yield that keeps this thread off the core for a while on a loaded
// machine does not end it first.
static void test_yields_to_the_same_cpu(void** state) {
  (void)state;
  atomic_int other;
  atomic_init(&other, rl_test_pin());
  rl_sim_spin_t spin;
  uint64_t took = rl_test_spin(&other, 10000000000ull, &spin);
  assert_true(took < 10000000000ull);
  assert_int_equal(spin.yields, 2);
  assert_int_equal(spin.polls, 16 + 2 + 1);
}

// Negative control: the other side on another CPU — PAUSE only.
static void test_no_yield_to_another_cpu(void** state) {
  (void)state;
  atomic_int other;
  atomic_init(&other, rl_test_pin() + 1);
  rl_sim_spin_t spin;
  uint64_t took = rl_test_spin(&other, RL_TEST_WINDOW_NS, &spin);
  assert_true(took >= RL_TEST_WINDOW_NS);
  assert_int_equal(spin.yields, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_window_ends_without_yield_when_unknown),
      cmocka_unit_test(test_yields_to_the_same_cpu),
      cmocka_unit_test(test_no_yield_to_another_cpu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
