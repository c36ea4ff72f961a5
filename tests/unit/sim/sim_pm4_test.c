// tests/unit/sim/sim_pm4_test.c — the simulated device executes vendor PM4-IB
// AQL packets (sim/cp/sim_cp.h): real vecchain kernels dispatched from
// registers on gfx1100 and gfx1201 with the reference executor, the
// register file's persistence, nested and chained IBs, RELEASE_MEM fences
// and timestamps, WAIT_REG_MEM, and the strict faults.
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

// cmocka.h needs the headers above.
#include <cmocka.h>

#include "tests/unit/sim/sim_pm4_test_util.h"

#define RL_TEST_N 1000u  // not a multiple of 64: a partial last group
#define RL_TEST_GROUPS ((RL_TEST_N + 63) / 64)

// fill(a, 2.5) → flush + acquire → scale(a → b, 3) in one IB; b = 7.5.
static void rl_test_chain(const char* processor, bool priv) {
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, processor, RL_SIM_HAZARDS_SEQUENTIAL);
  rl_device_allocation_t a = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_pm4_test_ib_t ib;
  rl_pm4_test_ib_init(&f, &ib, 512);
  rl_pm4_test_kernel_t options = {.no_priv = !priv};
  rl_pm4_test_emit_kernel(&f, &ib.builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, a.address, 2.5f, RL_TEST_N),
                          &options);
  rl_pm4_test_emit_dispatch(&f, &ib.builder, "vc_fill", RL_TEST_GROUPS, false);
  rl_pm4_test_emit_wait(&f, &ib.builder, true, true);
  rl_pm4_test_emit_kernel(
      &f, &ib.builder, "vc_scale",
      rl_pm4_test_scale_args(&f, a.address, b.address, 3.0f, RL_TEST_N),
      &options);
  rl_pm4_test_emit_dispatch(&f, &ib.builder, "vc_scale", RL_TEST_GROUPS, false);
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &ib, signal, true);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  const float* out = b.host;
  for (uint32_t i = 0; i < RL_TEST_N; ++i) {
    if (out[i] != 2.5f * 3.0f) fail_msg("b[%u] = %g", i, (double)out[i]);
  }
  rl_sim_dispatch_record_t log[4];
  assert_int_equal(rl_sim_dispatch_log(f.sim.device, log, 4), 2);
  assert_true(log[0].start_timestamp <= log[0].end_timestamp);
  assert_true(log[0].end_timestamp <= log[1].start_timestamp);
  assert_int_equal(rl_sim_hazards(f.sim.device, NULL, 0), 0);
  assert_true(f.sim.device->vtable->queue_idle(f.sim.device, &f.sim.queue));
  rl_pm4_fixture_teardown(&f);
}

static void rl_test_chain_gfx1100(void** state) {
  (void)state;
  rl_test_chain("gfx1100", true);
}

// gfx12 has no PRIV requirement: the same stream without it runs.
static void rl_test_chain_gfx1201_without_priv(void** state) {
  (void)state;
  rl_test_chain("gfx1201", false);
}

// Packet 1 programs everything; packet 2 changes only the kernarg pointer.
static void rl_test_registers_persist(void** state) {
  (void)state;
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, "gfx1100", RL_SIM_HAZARDS_SEQUENTIAL);
  rl_device_allocation_t a = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_pm4_test_ib_t first, second;
  rl_pm4_test_ib_init(&f, &first, 256);
  rl_pm4_test_ib_init(&f, &second, 64);
  rl_pm4_test_emit_kernel(&f, &first.builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, a.address, 1.0f, RL_TEST_N),
                          NULL);
  rl_pm4_test_emit_dispatch(&f, &first.builder, "vc_fill", RL_TEST_GROUPS,
                            false);
  rl_pm4_test_emit_kernarg(
      &f, &second.builder,
      rl_pm4_test_fill_args(&f, b.address, 4.0f, RL_TEST_N));
  rl_pm4_test_emit_dispatch(&f, &second.builder, "vc_fill", RL_TEST_GROUPS,
                            false);
  uint64_t s1 = rl_sim_fixture_signal(&f.sim, 1);
  uint64_t s2 = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &first, s1, true);
  rl_pm4_test_submit(&f, &second, s2, true);
  assert_true(rl_test_wait(&f.sim, s2, RL_TEST_WAIT_NS));
  assert_true(rl_test_wait(&f.sim, s1, 0));
  assert_true(((const float*)a.host)[RL_TEST_N - 1] == 1.0f);
  assert_true(((const float*)b.host)[RL_TEST_N - 1] == 4.0f);
  rl_pm4_fixture_teardown(&f);
}

// A: regs, IB(B: fill + marker 1), marker 2, flush+acquire, CHAIN(C: scale
// + marker 3), marker 4 (never: a chain does not return).
static void rl_test_nested_and_chained(void** state) {
  (void)state;
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, "gfx1201", RL_SIM_HAZARDS_SEQUENTIAL);
  rl_device_allocation_t a = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t marks = rl_sim_fixture_alloc(&f.sim, 16);
  rl_pm4_test_ib_t A, B, C;
  rl_pm4_test_ib_init(&f, &A, 256);
  rl_pm4_test_ib_init(&f, &B, 64);
  rl_pm4_test_ib_init(&f, &C, 256);
  uint32_t one = 1;
  rl_pm4_test_emit_kernel(&f, &A.builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, a.address, 0.5f, RL_TEST_N),
                          NULL);
  rl_pm4_test_emit_dispatch(&f, &B.builder, "vc_fill", RL_TEST_GROUPS, false);
  assert_true(rl_pm4_emit_write_data(&B.builder, marks.address, &one, 1, NULL));
  assert_true(rl_pm4_emit_indirect_buffer(&A.builder, B.memory.address,
                                          B.builder.count, false, NULL));
  assert_true(
      rl_pm4_emit_write_data(&A.builder, marks.address + 4, &one, 1, NULL));
  rl_pm4_test_emit_wait(&f, &A.builder, true, true);
  rl_pm4_test_emit_kernel(
      &f, &C.builder, "vc_scale",
      rl_pm4_test_scale_args(&f, a.address, b.address, 4.0f, RL_TEST_N), NULL);
  rl_pm4_test_emit_dispatch(&f, &C.builder, "vc_scale", RL_TEST_GROUPS, false);
  assert_true(
      rl_pm4_emit_write_data(&C.builder, marks.address + 8, &one, 1, NULL));
  assert_true(rl_pm4_emit_indirect_buffer(&A.builder, C.memory.address,
                                          C.builder.count, true, NULL));
  assert_true(
      rl_pm4_emit_write_data(&A.builder, marks.address + 12, &one, 1, NULL));
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &A, signal, true);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  const uint32_t* m = marks.host;
  assert_int_equal(m[0], 1);
  assert_int_equal(m[1], 1);
  assert_int_equal(m[2], 1);
  assert_int_equal(m[3], 0);
  assert_true(((const float*)b.host)[0] == 2.0f);
  rl_pm4_fixture_teardown(&f);
}

// A stream cut into three IBs as route pm4 cuts one past 1,048,575 dwords
// (pm4/pm4_lower.h Chained IBs): A sets vc_fill's registers and chains to
// B, which dispatches it, waits, sets vc_scale's registers and chains to C,
// which dispatches it. Registers persist across the chain; adversarial
// mode, so the wait in B is what orders the two dispatches.
static void rl_test_three_chained_ibs(void** state) {
  (void)state;
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, "gfx1100", RL_SIM_HAZARDS_ADVERSARIAL);
  rl_device_allocation_t a = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t b = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t marks = rl_sim_fixture_alloc(&f.sim, 16);
  rl_pm4_test_ib_t A, B, C;
  rl_pm4_test_ib_init(&f, &A, 256);
  rl_pm4_test_ib_init(&f, &B, 256);
  rl_pm4_test_ib_init(&f, &C, 64);
  const uint32_t one = 1;
  rl_pm4_test_emit_kernel(&f, &A.builder, "vc_fill",
                          rl_pm4_test_fill_args(&f, a.address, 1.5f, RL_TEST_N),
                          NULL);
  rl_pm4_test_emit_dispatch(&f, &B.builder, "vc_fill", RL_TEST_GROUPS, false);
  rl_pm4_test_emit_wait(&f, &B.builder, true, true);
  rl_pm4_test_emit_kernel(
      &f, &B.builder, "vc_scale",
      rl_pm4_test_scale_args(&f, a.address, b.address, 2.0f, RL_TEST_N),
      NULL);
  rl_pm4_test_emit_dispatch(&f, &C.builder, "vc_scale", RL_TEST_GROUPS, false);
  assert_true(
      rl_pm4_emit_write_data(&C.builder, marks.address + 8, &one, 1, NULL));
  // The chain packets last, each naming the next IB with its final size.
  assert_true(rl_pm4_emit_indirect_buffer(&B.builder, C.memory.address,
                                          C.builder.count, true, NULL));
  assert_true(rl_pm4_emit_indirect_buffer(&A.builder, B.memory.address,
                                          B.builder.count, true, NULL));
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &A, signal, true);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  const float* out = b.host;
  for (uint32_t i = 0; i < RL_TEST_N; ++i) {
    if (out[i] != 1.5f * 2.0f) fail_msg("b[%u] = %g", i, (double)out[i]);
  }
  assert_int_equal(((const uint32_t*)marks.host)[2], 1);
  rl_sim_dispatch_record_t log[4];
  assert_int_equal(rl_sim_dispatch_log(f.sim.device, log, 4), 2);
  assert_int_equal(rl_sim_hazards(f.sim.device, NULL, 0), 0);
  rl_pm4_fixture_teardown(&f);
}

// RELEASE_MEM after a dispatch writes its 64-bit value and an end-of-pipe
// GPU clock no earlier than the dispatch's end; COPY_DATA copies the clock
// before it.
static void rl_test_release_mem(void** state) {
  (void)state;
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, "gfx1100", RL_SIM_HAZARDS_SEQUENTIAL);
  rl_device_allocation_t a = rl_sim_fixture_alloc(&f.sim, 4 * RL_TEST_N);
  rl_device_allocation_t words = rl_sim_fixture_alloc(&f.sim, 32);
  rl_pm4_test_ib_t ib;
  rl_pm4_test_ib_init(&f, &ib, 256);
  rl_pm4_builder_t* b = &ib.builder;
  uint64_t before = f.sim.device->vtable->timestamp(f.sim.device);
  assert_true(rl_pm4_emit_copy_data(b, RL_PM4_SEL_GPU_CLOCK, 0,
                                    RL_PM4_SEL_MEMORY, words.address + 16, true,
                                    NULL));
  rl_pm4_test_emit_kernel(&f, b, "vc_fill",
                          rl_pm4_test_fill_args(&f, a.address, 1.0f, RL_TEST_N),
                          NULL);
  rl_pm4_test_emit_dispatch(&f, b, "vc_fill", RL_TEST_GROUPS, false);
  rl_pm4_release_mem_t release = {
      .event_type = RL_PM4_EVENT_CACHE_FLUSH_AND_INV_TS,
      .event_index = RL_PM4_EVENT_INDEX_END_OF_PIPE,
      .data_sel = RL_PM4_DATA_SEL_64,
      .address = words.address,
      .data = 0x1122334455667788ull,
  };
  assert_true(rl_pm4_emit_release_mem(b, &release, NULL));
  release.data_sel = RL_PM4_DATA_SEL_GPU_CLOCK;
  release.address = words.address + 8;
  assert_true(rl_pm4_emit_release_mem(b, &release, NULL));
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &ib, signal, true);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  uint64_t after = f.sim.device->vtable->timestamp(f.sim.device);
  const uint64_t* w = words.host;
  assert_true(w[0] == 0x1122334455667788ull);
  rl_sim_dispatch_record_t log[1];
  assert_int_equal(rl_sim_dispatch_log(f.sim.device, log, 1), 1);
  assert_true(w[2] >= before && w[2] <= log[0].start_timestamp);
  assert_true(w[1] >= log[0].end_timestamp && w[1] <= after);
  rl_pm4_fixture_teardown(&f);
}

// WAIT_REG_MEM(flag == 1) stops the CP until the test writes the flag; a
// wait that is never satisfied hangs until queue_destroy, which returns.
static void rl_test_wait_reg_mem(void** state) {
  (void)state;
  rl_pm4_fixture_t f;
  rl_pm4_fixture_setup(&f, "gfx1100", RL_SIM_HAZARDS_SEQUENTIAL);
  rl_device_allocation_t words = rl_sim_fixture_alloc(&f.sim, 16);
  rl_pm4_test_ib_t ib, hang;
  rl_pm4_test_ib_init(&f, &ib, 64);
  rl_pm4_test_ib_init(&f, &hang, 64);
  uint32_t seven = 7;
  assert_true(rl_pm4_emit_wait_reg_mem(
      &ib.builder, RL_PM4_WAIT_EQ, words.address, 1, 0xFFFFFFFFu, 10, NULL));
  assert_true(
      rl_pm4_emit_write_data(&ib.builder, words.address + 4, &seven, 1, NULL));
  assert_true(rl_pm4_emit_wait_reg_mem(
      &hang.builder, RL_PM4_WAIT_EQ, words.address, 99, 0xFFFFFFFFu, 10, NULL));
  uint64_t signal = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &ib, signal, true);
  assert_false(rl_test_wait(&f.sim, signal, RL_TEST_NEGATIVE_WAIT_NS));
  atomic_store((_Atomic uint32_t*)words.host, 1u);
  assert_true(rl_test_wait(&f.sim, signal, RL_TEST_WAIT_NS));
  assert_int_equal(atomic_load((_Atomic uint32_t*)((uint8_t*)words.host + 4)),
                   7);
  uint64_t never = rl_sim_fixture_signal(&f.sim, 1);
  rl_pm4_test_submit(&f, &hang, never, true);
  assert_false(rl_test_wait(&f.sim, never, RL_TEST_NEGATIVE_WAIT_NS));
  assert_false(f.sim.device->vtable->queue_idle(f.sim.device, &f.sim.queue));
  rl_pm4_fixture_teardown(&f);  // destroys the hung queue: must return OK
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_test_chain_gfx1100),
      cmocka_unit_test(rl_test_chain_gfx1201_without_priv),
      cmocka_unit_test(rl_test_registers_persist),
      cmocka_unit_test(rl_test_nested_and_chained),
      cmocka_unit_test(rl_test_three_chained_ibs),
      cmocka_unit_test(rl_test_release_mem),
      cmocka_unit_test(rl_test_wait_reg_mem),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
