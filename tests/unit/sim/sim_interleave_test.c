// The adversarial scheduler's interleaving at instruction granularity
// (sim/sim_schedule.c, the `isa` executor's wg_open/wg_step/
// wg_close), against an oracle that needs no simulator: the set of values
// each interleaving can produce. race_store_twice stores 1 then 2 to every
// element; race_copy, submitted with it and (unless the test sets it) no
// barrier bit, copies the elements. Whole work-groups in any order can only
// show 0 (the copy ran first) or 2 (after); a 1 proves that a copy
// instruction ran between the two stores of one work-item. Fixture:
// tests/unit/sim/interleave_race.hip, built by clang-19 for gfx1100.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/isa/isa_executor.h"
#include "sim_test_util.h"

enum { RL_TEST_ITEMS = 2048 };  // 32 work-groups of 64
enum { RL_TEST_SEEDS = 6 };

typedef struct rl_test_counts_s {
  uint32_t value[3];  // elements that read 0, 1, 2
  uint32_t other;     // anything else: a bug
} rl_test_counts_t;

// Runs race_store_twice then race_copy in one submission and counts what
// the copy saw.
static void rl_test_race(bool whole_workgroups, uint64_t seed, bool barrier,
                         rl_test_counts_t* counts, uint32_t* out) {
  rl_sim_options_t options = {
      .hazards = RL_SIM_HAZARDS_ADVERSARIAL,
      .seed = seed,
      .executor = rl_isa_executor(),
      .whole_workgroups = whole_workgroups,
  };
  rl_sim_fixture_t f;
  rl_sim_fixture_setup_code(&f, &options, 16, RL_RACE_FIXTURE);
  rl_device_allocation_t x = rl_sim_fixture_alloc(&f, 4 * RL_TEST_ITEMS);
  rl_device_allocation_t y = rl_sim_fixture_alloc(&f, 4 * RL_TEST_ITEMS);
  memset(x.host, 0, 4 * RL_TEST_ITEMS);
  memset(y.host, 0xee, 4 * RL_TEST_ITEMS);
  uint32_t n = RL_TEST_ITEMS;
  rl_device_allocation_t store_args = rl_sim_fixture_alloc(&f, 16);
  memcpy(store_args.host, &x.address, 8);
  memcpy((uint8_t*)store_args.host + 8, &n, 4);
  rl_device_allocation_t copy_args = rl_sim_fixture_alloc(&f, 24);
  memcpy(copy_args.host, &x.address, 8);
  memcpy((uint8_t*)copy_args.host + 8, &y.address, 8);
  memcpy((uint8_t*)copy_args.host + 16, &n, 4);
  uint64_t signal = rl_sim_fixture_signal(&f, 2);
  rl_aql_dispatch_packet_t a =
      rl_test_dispatch(rl_sim_fixture_kernel(&f, "race_store_twice"),
                       store_args.address, RL_TEST_ITEMS, signal, true);
  rl_aql_dispatch_packet_t b =
      rl_test_dispatch(rl_sim_fixture_kernel(&f, "race_copy"),
                       copy_args.address, RL_TEST_ITEMS, signal, barrier);
  // One doorbell for both, so the CP sees them as one candidate batch.
  rl_test_publish(&f, &a);
  rl_test_submit(&f, &b);
  assert_true(rl_test_wait(&f, signal, RL_TEST_WAIT_NS));
  assert_null(f.device->vtable->read(f.device, y.address, out,
                                     4 * RL_TEST_ITEMS));
  uint32_t stored[RL_TEST_ITEMS];
  assert_null(f.device->vtable->read(f.device, x.address, stored,
                                     sizeof(stored)));
  memset(counts, 0, sizeof(*counts));
  for (uint32_t i = 0; i < RL_TEST_ITEMS; ++i) {
    assert_int_equal(stored[i], 2);  // the producer always finishes
    if (out[i] <= 2) {
      counts->value[out[i]]++;
    } else {
      counts->other++;
    }
  }
  rl_sim_fixture_teardown(&f);
}

static void adversarial_quanta_show_a_read_between_two_stores(void** state) {
  (void)state;
  static uint32_t out[RL_TEST_ITEMS];
  uint32_t between = 0, before = 0, after = 0;
  for (uint64_t seed = 1; seed <= RL_TEST_SEEDS; ++seed) {
    rl_test_counts_t c;
    rl_test_race(false, seed, false, &c, out);
    assert_int_equal(c.other, 0);
    between += c.value[1];
    before += c.value[0];
    after += c.value[2];
  }
  print_message("quanta: %u before, %u between, %u after\n", before, between,
                after);
  assert_true(between > 0);
  assert_true(before > 0 && after > 0);
}

// Negative control: the same seeds interleaving whole work-groups reorder
// the copy around the stores (0s and 2s) but can never show the 1.
static void whole_workgroups_never_show_the_middle_store(void** state) {
  (void)state;
  static uint32_t out[RL_TEST_ITEMS];
  uint32_t before = 0, after = 0;
  for (uint64_t seed = 1; seed <= RL_TEST_SEEDS; ++seed) {
    rl_test_counts_t c;
    rl_test_race(true, seed, false, &c, out);
    assert_int_equal(c.other, 0);
    assert_int_equal(c.value[1], 0);
    before += c.value[0];
    after += c.value[2];
  }
  assert_true(before > 0 && after > 0);
}

// With the barrier bit on the copy, no quantum of it runs before the
// stores have all completed: every element reads 2.
static void barrier_bit_orders_the_quanta(void** state) {
  (void)state;
  static uint32_t out[RL_TEST_ITEMS];
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    rl_test_counts_t c;
    rl_test_race(false, seed, true, &c, out);
    assert_int_equal(c.value[2], RL_TEST_ITEMS);
  }
}

static void same_seed_gives_the_same_interleaving(void** state) {
  (void)state;
  static uint32_t first[RL_TEST_ITEMS], second[RL_TEST_ITEMS];
  rl_test_counts_t c;
  rl_test_race(false, 5, false, &c, first);
  rl_test_race(false, 5, false, &c, second);
  assert_memory_equal(first, second, sizeof(first));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(adversarial_quanta_show_a_read_between_two_stores),
      cmocka_unit_test(whole_workgroups_never_show_the_middle_store),
      cmocka_unit_test(barrier_bit_orders_the_quanta),
      cmocka_unit_test(same_seed_gives_the_same_interleaving),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
