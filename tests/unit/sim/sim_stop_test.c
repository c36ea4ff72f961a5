// Stop means stop (sim/sim_executor.h rl_sim_wg_stopping): a queue
// whose `isa` work-group spins forever is destroyed, or its device closed,
// within a bound, in every scheduling mode (sequential; adversarial with
// whole work-groups, the run_workgroup path; adversarial instruction
// quanta, the wg_step path), and nothing runs afterwards. Fixture:
// stop_spin.hip's spin_until, which spins until its flag is nonzero,
// built by clang-19 for gfx1100.
//
// Controls: the same dispatch with its flag set ends (so the work-group
// spins on the flag, not on a fault or an endless refusal), and before
// every stop the test waits until the interpreter has retired
// several stop polls' worth of instructions with the signal still
// pending (so the stop lands inside a running work-group, which is what
// the old between-work-groups check could not end).
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "sim/isa/isa_executor.h"
#include "tests/support/test_support.h"
#include "tests/unit/sim/sim_test_util.h"
#include "base/clock.h"

// What a stop may take, on a loaded machine and under sanitizers: the
// poll comes every RL_SIM_WG_STOP_POLL wave-instructions (tens of
// microseconds of interpretation), and joining the thread is immediate.
#define RL_STOP_BOUND_NS 500000000ull  // 0.5 s

typedef struct rl_stop_case_s {
  rl_sim_fixture_t f;
  rl_device_allocation_t flag;
  uint64_t signal;
} rl_stop_case_t;

// Loads the fixture on a device in |mode| and submits spin_until over 4
// work-groups of 64 with the flag holding |flag| (0: it spins forever).
static void rl_stop_start(rl_stop_case_t* c, rl_sim_hazard_mode_t mode,
                          bool whole_workgroups, uint32_t flag) {
  rl_sim_options_t options = {.hazards = mode,
                              .seed = 3,
                              .executor = rl_isa_executor(),
                              .whole_workgroups = whole_workgroups};
  rl_sim_fixture_setup_code(&c->f, &options, 16, RL_STOP_FIXTURE);
  c->flag = rl_sim_fixture_alloc(&c->f, 8);
  memset(c->flag.host, 0, 8);
  memcpy(c->flag.host, &flag, 4);
  rl_device_allocation_t args = rl_sim_fixture_alloc(&c->f, 16);
  memcpy(args.host, &c->flag.address, 8);
  c->signal = rl_sim_fixture_signal(&c->f, 1);
  rl_aql_dispatch_packet_t p =
      rl_test_dispatch(rl_sim_fixture_kernel(&c->f, "spin_until"),
                       args.address, 256, c->signal, true);
  rl_test_submit(&c->f, &p);
}

// Waits until the interpreter has retired |polls| stop polls' worth of
// wave-instructions more while the dispatch is still pending: it spins
// inside a work-group.
static void rl_stop_expect_spinning(rl_stop_case_t* c, uint32_t polls) {
  uint64_t before = rl_isa_executor_instructions();
  uint64_t want = before + (uint64_t)polls * RL_SIM_WG_STOP_POLL;
  uint64_t deadline = rl_now_ns() + RL_TEST_WAIT_NS;
  while (rl_isa_executor_instructions() < want &&
         rl_now_ns() < deadline) {
    sched_yield();
  }
  assert_true(rl_isa_executor_instructions() >= want);
  assert_false(rl_test_wait(&c->f, c->signal, RL_TEST_NEGATIVE_WAIT_NS));
  rl_device_fault_t fault;
  c->f.device->vtable->queue_fault(c->f.device, &c->f.queue, &fault);
  assert_false(fault.faulted);
}

// After a stop: no instruction retires any more.
static void rl_stop_expect_quiet(void) {
  uint64_t after = rl_isa_executor_instructions();
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  assert_int_equal(rl_isa_executor_instructions(), after);
}

// The fixture's teardown after its queue was destroyed.
static void rl_stop_close(rl_stop_case_t* c) {
  const rl_device_vtable_t* vt = c->f.device->vtable;
  assert_int_equal(vt->unload_code_object(c->f.device, &c->f.loaded), RL_OK);
  vt->destroy(c->f.device);
  rl_code_object_destroy(c->f.code);
  free(c->f.code_bytes);
}

// Destroys the queue of a spinning dispatch and checks the time it took.
static void rl_stop_destroy_queue(rl_sim_hazard_mode_t mode,
                                  bool whole_workgroups) {
  int threads_before = rl_test_thread_count();
  rl_stop_case_t c;
  rl_stop_start(&c, mode, whole_workgroups, 0);
  rl_stop_expect_spinning(&c, 4);
  uint64_t start = rl_now_ns();
  rl_status_t status =
      c.f.device->vtable->queue_destroy(c.f.device, &c.f.queue);
  uint64_t took = rl_now_ns() - start;
  assert_int_equal(status, RL_OK);
  print_message("queue_destroy of a spinning work-group: %.3f ms\n",
                (double)took / 1e6);
  assert_true(took < RL_STOP_BOUND_NS);
  rl_stop_expect_quiet();
  // Abandoned, not completed: the signal was never decremented.
  int64_t value = 0;
  assert_false(c.f.device->vtable->signal_wait_lt(c.f.device, c.signal, 1, 0,
                                                  &value));
  assert_int_equal(value, 1);
  uint32_t copied = 0;
  memcpy(&copied, (uint8_t*)c.flag.host + 4, 4);
  assert_int_equal(copied, 0);
  rl_stop_close(&c);
  assert_int_equal(rl_test_thread_count(), threads_before);
}

static void sim_stop_sequential_queue_destroy_ends_spinning_workgroup(
    void** state) {
  (void)state;
  rl_stop_destroy_queue(RL_SIM_HAZARDS_SEQUENTIAL, false);
}

static void sim_stop_adversarial_whole_workgroups_destroy_ends_spinning(
    void** state) {
  (void)state;
  rl_stop_destroy_queue(RL_SIM_HAZARDS_ADVERSARIAL, true);
}

static void sim_stop_adversarial_quanta_destroy_ends_spinning(void** state) {
  (void)state;
  rl_stop_destroy_queue(RL_SIM_HAZARDS_ADVERSARIAL, false);
}

// The device's destruction (no queue_destroy first) stops it as well.
static void sim_stop_device_close_ends_spinning_workgroup(void** state) {
  (void)state;
  int threads_before = rl_test_thread_count();
  rl_stop_case_t c;
  rl_stop_start(&c, RL_SIM_HAZARDS_SEQUENTIAL, false, 0);
  rl_stop_expect_spinning(&c, 4);
  uint64_t start = rl_now_ns();
  c.f.device->vtable->destroy(c.f.device);
  uint64_t took = rl_now_ns() - start;
  print_message("device close with a spinning work-group: %.3f ms\n",
                (double)took / 1e6);
  assert_true(took < RL_STOP_BOUND_NS);
  rl_stop_expect_quiet();
  assert_int_equal(rl_test_thread_count(), threads_before);
  rl_code_object_destroy(c.f.code);
  free(c.f.code_bytes);
}

// Control: the same dispatch with the flag set before it starts ends, and
// every work-item saw the flag. (Setting it while the kernel spins would
// race with the simulator's unsynchronised copy of device memory.)
static void sim_stop_workgroup_with_flag_set_ends(void** state) {
  (void)state;
  rl_stop_case_t c;
  rl_stop_start(&c, RL_SIM_HAZARDS_SEQUENTIAL, false, 7u);
  assert_true(rl_test_wait(&c.f, c.signal, RL_TEST_WAIT_NS));
  uint32_t copied = 0;
  memcpy(&copied, (uint8_t*)c.flag.host + 4, 4);
  assert_int_equal(copied, 7);
  rl_sim_fixture_teardown(&c.f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sim_stop_workgroup_with_flag_set_ends),
      cmocka_unit_test(
          sim_stop_sequential_queue_destroy_ends_spinning_workgroup),
      cmocka_unit_test(
          sim_stop_adversarial_whole_workgroups_destroy_ends_spinning),
      cmocka_unit_test(sim_stop_adversarial_quanta_destroy_ends_spinning),
      cmocka_unit_test(sim_stop_device_close_ends_spinning_workgroup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
