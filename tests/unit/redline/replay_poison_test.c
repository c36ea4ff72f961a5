// Tests of the failure classes of a run (redline/replay_run.c,
// replay_poison.c) and negative controls of the checkers: a removed barrier
// is caught by the adversarial sim and its dynamic hazard checker; in
// checked mode a kernel reading or writing one element past a buffer hits
// the no-access guard (both executors), and on a device without no-access
// guards a corrupted pattern guard poisons; a queue fault and a VM fault
// poison; a hung queue quarantines. Every sticky state refuses the next
// run.
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "redline/device/device.h"
#include "redline/replay_internal.h"
#include "sim/sim.h"
#include "tests/unit/redline/replay_test_helpers.h"

#define RL_TEST_POS 300

typedef struct rl_fixture_s {
  rl_device_t* device;
  rl_capture_t* capture;
  rl_replay_t* replay;
  rl_digest128_t eager[RL_TEST_MAX_REGIONS];
  int threads_before;  // process threads before the replay was prepared
  // The device's own vtable while a test runs it without reserve_guard.
  const rl_device_vtable_t* saved_vtable;
  rl_device_vtable_t no_guard_vtable;
} rl_fixture_t;

static rl_device_t* rl_open_executor(const char* executor) {
  rl_device_options_t options = {.processor = "gfx1100",
                                 .executor = executor};
  rl_device_t* device = NULL;
  assert_null(rl_device_open(&options, &device));
  return device;
}

static int rl_setup_executor(void** state, const char* executor) {
  rl_fixture_t* fixture = calloc(1, sizeof(*fixture));
  fixture->device = rl_open_executor(executor);
  rl_test_record(fixture->device, RL_TEST_POS, &fixture->capture,
                 fixture->eager);
  *state = fixture;
  return 0;
}

static int rl_setup_ref(void** state) { return rl_setup_executor(state, "ref"); }
static int rl_setup_isa(void** state) { return rl_setup_executor(state, "isa"); }

static int rl_setup_device(void** state, bool adversarial) {
  rl_fixture_t* fixture = calloc(1, sizeof(*fixture));
  fixture->device = rl_test_open_sim("gfx1100", adversarial, 12345);
  rl_test_record(fixture->device, RL_TEST_POS, &fixture->capture,
                 fixture->eager);
  *state = fixture;
  return 0;
}

static int rl_setup(void** state) { return rl_setup_device(state, false); }
static int rl_setup_adversarial(void** state) {
  return rl_setup_device(state, true);
}

static int rl_teardown(void** state) {
  rl_fixture_t* fixture = *state;
  rl_replay_destroy(fixture->replay);
  if (fixture->saved_vtable) fixture->device->vtable = fixture->saved_vtable;
  rl_capture_destroy(fixture->capture);
  rl_device_close(fixture->device);
  free(fixture);
  return 0;
}

static void rl_prepare(rl_fixture_t* fixture,
                       const rl_replay_options_t* options) {
  assert_null(rl_replay_create(fixture->device, fixture->capture, options,
                               &fixture->replay));
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
}

static rl_status_t rl_run(rl_fixture_t* fixture) {
  int64_t pos = RL_TEST_POS;
  return rl_replay_run(fixture->replay, &pos, 1);
}

// Differences between the replay's regions and the eager run's.
static uint32_t rl_differences(rl_fixture_t* fixture) {
  rl_digest128_t replayed[RL_TEST_MAX_REGIONS];
  rl_test_replay_digests(fixture->replay, fixture->capture, replayed);
  return rl_test_count_differences(fixture->capture, replayed, fixture->eager);
}

//===----------------------------------------------------------------------===//
// Negative control of the hazard plan
//===----------------------------------------------------------------------===//

// The control: with every planned barrier, adversarial interleaving changes
// nothing and the dynamic checker sees no hazard.
static void rl_adversarial_with_plan_is_clean(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, NULL);
  rl_sim_hazards_clear(fixture->device);
  for (int i = 0; i < 4; ++i) {
    assert_null(rl_run(fixture));
    assert_int_equal(rl_differences(fixture), 0);
  }
  assert_int_equal(rl_sim_hazards(fixture->device, NULL, 0), 0);
}

// vc_add (launch 2) reads h and a, written by launches 0 and 1 without a
// wait in between: its barrier is needed. Without it both checkers fire.
static void rl_adversarial_catches_missing_barrier(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, NULL);
  uint8_t packet[64];
  assert_null(rl_replay_stream_packet(fixture->replay, 2, packet));
  assert_true(packet[1] & 1);  // the barrier bit the plan placed
  assert_null(rl_replay_test_clear_barrier(fixture->replay, 2));
  rl_sim_hazards_clear(fixture->device);
  assert_null(rl_run(fixture));
  assert_true(rl_differences(fixture) > 0);
  rl_sim_hazard_t hazards[16];
  uint32_t found = rl_sim_hazards(fixture->device, hazards, 16);
  assert_true(found > 0);
  assert_int_equal(hazards[0].kind, RL_HAZARD_RAW);
}

//===----------------------------------------------------------------------===//
// Poison
//===----------------------------------------------------------------------===//

static void rl_expect_sticky(rl_fixture_t* fixture, rl_replay_state_t state,
                             rl_status_code_t code) {
  assert_int_equal(rl_replay_state(fixture->replay), state);
  rl_test_expect(rl_run(fixture), code, NULL);
  int64_t pos = RL_TEST_POS;
  rl_admission_t admission;
  assert_null(rl_replay_admit(fixture->replay, &pos, 1, &admission));
  assert_false(admission.admitted);
  assert_non_null(strstr(admission.reason, rl_replay_state_name(state)));
  rl_route_proof_t proof;
  rl_replay_proof(fixture->replay, &proof);
  assert_int_equal(proof.state, state);
  assert_true(proof.fallback_reason[0] != '\0');
}

//===----------------------------------------------------------------------===//
// Checked mode: no-access guards
//===----------------------------------------------------------------------===//

// Launch 6 is vc_copy_u32(ids, io, 64): 64 work-items copy ids[i] to
// io[i], both buffers exactly 64 u32. Moving one slot's pointer 4 bytes
// into its buffer makes the last work-item touch the 4 bytes right past
// the buffer's end: slot 0 a read of ids, slot 1 a write of io.
#define RL_TEST_COPY_LAUNCH 6u

static void rl_shift_copy_slot(rl_fixture_t* fixture, uint32_t slot) {
  rl_capture_launch_t* launch =
      &fixture->capture->launches[RL_TEST_COPY_LAUNCH];
  assert_true(slot < launch->slot_count);
  launch->slots[slot].offset += 4;
}

// The negative control: in bounds, a checked replay runs clean with the
// no-access guards in place and matches the eager run.
static void rl_checked_in_bounds_passes(void** state) {
  rl_fixture_t* fixture = *state;
  rl_replay_options_t options = {.checked = true};
  rl_prepare(fixture, &options);
  for (int i = 0; i < 3; ++i) {
    assert_null(rl_run(fixture));
    assert_int_equal(rl_differences(fixture), 0);
  }
  // The guard after y is no-access: the host cannot write it either.
  uint32_t y = 0;
  assert_true(rl_capture_find_buffer(fixture->capture, "y", &y));
  uint64_t address = 0;
  assert_null(rl_replay_buffer_address(fixture->replay, y, &address));
  const uint32_t stray = 0xdeadbeef;
  rl_test_expect(fixture->device->vtable->write(
                     fixture->device,
                     address + fixture->capture->buffers[y].size, &stray, 4),
                 RL_STATUS_INVALID_ARGUMENT, NULL);
}

static void rl_expect_guard_hit(rl_fixture_t* fixture, uint32_t slot,
                                const char* needle) {
  rl_shift_copy_slot(fixture, slot);
  rl_replay_options_t options = {.checked = true};
  rl_prepare(fixture, &options);
  rl_test_expect(rl_run(fixture), RL_STATUS_POISONED, needle);
  rl_expect_sticky(fixture, RL_REPLAY_POISONED, RL_STATUS_POISONED);
}

// One u32 read past ids (256 bytes): before no-access guards the checked
// replay read the readable red zone and exited 0.
static void rl_checked_catches_read_past_end(void** state) {
  rl_expect_guard_hit(*state, 0,
                      "checked mode: a kernel read at offset 256 of buffer 1 "
                      "'ids' (256 bytes) runs past its end");
}

static void rl_checked_catches_write_past_end(void** state) {
  rl_expect_guard_hit(*state, 1,
                      "checked mode: a kernel write at offset 256 of buffer 7 "
                      "'io' (256 bytes) runs past its end");
}

// Unchecked, the same read still faults (the simulator bounds-checks to
// the byte and leaves an unmapped gap after every allocation), named by
// buffer and offset, with the device's message.
static void rl_unchecked_read_past_end_faults(void** state) {
  rl_fixture_t* fixture = *state;
  rl_shift_copy_slot(fixture, 0);
  rl_prepare(fixture, NULL);
  rl_test_expect(rl_run(fixture), RL_STATUS_POISONED,
                 "faulted at packet 6: a read at offset 256 of buffer 1 "
                 "'ids' (256 bytes): ");
}

//===----------------------------------------------------------------------===//
// Checked mode: pattern guards (devices without reserve_guard)
//===----------------------------------------------------------------------===//

// Runs the fixture's device as one that cannot reserve no-access ranges.
static void rl_without_reserve_guard(rl_fixture_t* fixture) {
  fixture->saved_vtable = fixture->device->vtable;
  fixture->no_guard_vtable = *fixture->device->vtable;
  fixture->no_guard_vtable.reserve_guard = NULL;
  fixture->device->vtable = &fixture->no_guard_vtable;
}

static void rl_corrupted_guard_poisons(void** state) {
  rl_fixture_t* fixture = *state;
  rl_without_reserve_guard(fixture);
  rl_replay_options_t options = {.checked = true};
  rl_prepare(fixture, &options);
  assert_null(rl_run(fixture));
  assert_int_equal(rl_differences(fixture), 0);
  uint32_t y = 0;
  assert_true(rl_capture_find_buffer(fixture->capture, "y", &y));
  uint64_t address = 0;
  assert_null(rl_replay_buffer_address(fixture->replay, y, &address));
  const uint32_t stray = 0xdeadbeef;  // as a kernel writing past y's end
  assert_null(fixture->device->vtable->write(
      fixture->device, address + fixture->capture->buffers[y].size + 8,
      &stray, 4));
  rl_test_expect(rl_run(fixture), RL_STATUS_POISONED,
                 "guard after buffer 4 'y' corrupted: byte 8");
  rl_expect_sticky(fixture, RL_REPLAY_POISONED, RL_STATUS_POISONED);
}

static void rl_queue_fault_poisons(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, NULL);
  assert_null(rl_run(fixture));
  // A kernel object that is no loaded descriptor: the CP faults.
  assert_null(rl_replay_test_set_kernel_object(fixture->replay, 3,
                                               RL_SIM_VA_BASE + 0x40));
  rl_test_expect(rl_run(fixture), RL_STATUS_POISONED, "faulted at packet");
  rl_expect_sticky(fixture, RL_REPLAY_POISONED, RL_STATUS_POISONED);
}

// The completion signal counts down one per step (no store per step); a
// step that finds it moved by more than one, or by one while the step's
// packets are still unread (a decrement the step did not make, as a stray
// packet naming the signal would), poisons instead of passing.
static void rl_signal_counts_down_and_stray_decrements_poison(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, NULL);
  rl_replay_t* replay = fixture->replay;
  const rl_device_vtable_t* vt = fixture->device->vtable;
  for (int i = 1; i <= 3; ++i) {
    assert_null(rl_run(fixture));
    assert_int_equal(vt->signal_load(fixture->device, replay->signal.address),
                     RL_REPLAY_SIGNAL_START - i);
  }
  vt->signal_store(fixture->device, replay->signal.address,
                   RL_REPLAY_SIGNAL_START - 10);
  rl_test_expect(rl_run(fixture), RL_STATUS_POISONED,
                 "expected 4611686018427387900 (one decrement per step)");
  rl_expect_sticky(fixture, RL_REPLAY_POISONED, RL_STATUS_POISONED);
}

static void rl_early_signal_with_unread_packets_poisons(void** state) {
  rl_fixture_t* fixture = *state;
  rl_prepare(fixture, NULL);
  assert_null(rl_run(fixture));
  rl_replay_t* replay = fixture->replay;
  // The step's first packet hangs, so nothing of the step is read; one
  // stray decrement brings the signal to the value the step waits for.
  rl_device_queue_t* queue = rl_replay_test_queue(replay);
  uint64_t next = atomic_load((_Atomic uint64_t*)queue->write_index);
  rl_sim_inject_hang(fixture->device, queue, next);
  fixture->device->vtable->signal_store(fixture->device,
                                        replay->signal.address,
                                        RL_REPLAY_SIGNAL_START - 2);
  rl_test_expect(rl_run(fixture), RL_STATUS_POISONED,
                 "a decrement this step did not make");
  rl_expect_sticky(fixture, RL_REPLAY_POISONED, RL_STATUS_POISONED);
}

static void rl_vm_fault_poisons(void** state) {
  rl_fixture_t* fixture = *state;
  uint32_t y = 0;
  assert_true(rl_capture_find_buffer(fixture->capture, "y", &y));
  rl_device_allocation_t small;
  assert_null(fixture->device->vtable->allocate(
      fixture->device, 64, 256, RL_MEMORY_KIND_DEVICE, &small));
  assert_null(rl_replay_create(fixture->device, fixture->capture, NULL,
                               &fixture->replay));
  assert_null(rl_replay_test_bind_unchecked(fixture->replay, y, small.address,
                                            small.size));
  assert_null(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL));
  rl_test_expect(rl_run(fixture), RL_STATUS_POISONED, "faulted");
  rl_expect_sticky(fixture, RL_REPLAY_POISONED, RL_STATUS_POISONED);
  rl_replay_destroy(fixture->replay);
  fixture->replay = NULL;
  assert_null(fixture->device->vtable->free(fixture->device, small.address));
}

//===----------------------------------------------------------------------===//
// Quarantine
//===----------------------------------------------------------------------===//

// A hung packet quarantines the replay under either bound: wall time, or
// (|stall_bound|) a stall on the simulator, which reports progress and
// names it.
static void rl_hung_queue_quarantines_with(void** state, bool stall_bound,
                                           const char* message) {
  rl_fixture_t* fixture = *state;
  fixture->threads_before = rl_test_thread_count();
  // 1 s: the first (healthy) run must fit in it too, which 50 ms did not
  // always under TSan on a loaded 2-core machine.
  rl_replay_options_t options = {.wait_timeout_ns = 1000000000ull,
                                 .stall_bound = stall_bound};
  rl_prepare(fixture, &options);
  assert_null(rl_run(fixture));
  rl_device_queue_t* queue = rl_replay_test_queue(fixture->replay);
  assert_non_null(queue);
  uint64_t next = atomic_load((_Atomic uint64_t*)queue->write_index);
  rl_sim_inject_hang(fixture->device, queue, next + 3);
  rl_test_expect(rl_run(fixture), RL_STATUS_QUARANTINED, message);
  rl_expect_sticky(fixture, RL_REPLAY_QUARANTINED, RL_STATUS_QUARANTINED);
  rl_test_expect(rl_replay_read_region(fixture->replay, 0, NULL, 0, NULL),
                 RL_STATUS_QUARANTINED, NULL);
  rl_test_expect(rl_replay_prepare(fixture->replay, RL_ROUTE_AQL),
                 RL_STATUS_QUARANTINED, NULL);
  // Destroying the replay stops the hung queue's command processor (the
  // simulator proves the stop by joining its thread) before anything the
  // hung packet could touch is freed; no thread is left behind.
  rl_replay_destroy(fixture->replay);
  fixture->replay = NULL;
  assert_int_equal(rl_test_thread_count(), fixture->threads_before);
}

static void rl_hung_queue_quarantines(void** state) {
  rl_hung_queue_quarantines_with(state, false,
                                 "bounded wait of 1000000000 ns expired");
}

static void rl_hung_queue_quarantines_stalled(void** state) {
  rl_hung_queue_quarantines_with(state, true, "no progress for 1000000000 ns");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(rl_adversarial_with_plan_is_clean,
                                      rl_setup_adversarial, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_adversarial_catches_missing_barrier,
                                      rl_setup_adversarial, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_checked_in_bounds_passes,
                                      rl_setup_ref, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_checked_catches_read_past_end,
                                      rl_setup_ref, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_checked_catches_write_past_end,
                                      rl_setup_ref, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_checked_in_bounds_passes,
                                      rl_setup_isa, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_checked_catches_read_past_end,
                                      rl_setup_isa, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_checked_catches_write_past_end,
                                      rl_setup_isa, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_unchecked_read_past_end_faults,
                                      rl_setup_ref, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_corrupted_guard_poisons, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(
          rl_signal_counts_down_and_stray_decrements_poison, rl_setup,
          rl_teardown),
      cmocka_unit_test_setup_teardown(
          rl_early_signal_with_unread_packets_poisons, rl_setup, rl_teardown),
      cmocka_unit_test_setup_teardown(rl_queue_fault_poisons, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(rl_vm_fault_poisons, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(rl_hung_queue_quarantines, rl_setup,
                                      rl_teardown),
      cmocka_unit_test_setup_teardown(rl_hung_queue_quarantines_stalled,
                                      rl_setup, rl_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
