// Route pm4 past one IB (pm4/pm4_lower.h "Chained IBs"): a capture whose
// stream needs more than the 1,048,575 dwords one INDIRECT_BUFFER can name
// (vecchain's launches cycled to RL_TEST_LAUNCHES) replays on route pm4 on
// the simulator, its IBs chained, with every state region's digest equal to
// route aql's, and the hazard checker silent. Negative control: the pm4
// replay at another position differs from aql's, so the comparison can
// fail; before chaining, preparing this capture on route pm4 failed with
// "more than the 1048575 an INDIRECT_BUFFER can jump to".
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "capture_repeat.h"
#include "redline/device/device.h"
#include "redline/replay_internal.h"
#include "redline/replay_route_state.h"
#include "sim/sim.h"
#include "tests/unit/redline/replay_test_helpers.h"

// vecchain cycled: about 17.6 IB dwords a launch with retention, so 2 IBs.
#define RL_TEST_LAUNCHES 60000u
#define RL_TEST_POS 1

typedef struct rl_test_run_s {
  rl_digest128_t digests[RL_TEST_MAX_REGIONS];
  rl_digest128_t other[RL_TEST_MAX_REGIONS];  // at RL_TEST_POS + 1
  rl_route_proof_t proof;
  uint32_t chains;
} rl_test_run_t;

static void rl_test_run(rl_replay_t* replay, int64_t pos) {
  rl_status_t status = rl_replay_run(replay, &pos, 1);
  if (status) fail_msg("run at %lld: %s", (long long)pos,
                       rl_status_message(status));
}

// Replays |capture| on |route| on a fresh simulated gfx1100; with |other|
// first at RL_TEST_POS + 1 (the negative control's digests).
static void rl_test_replay(const rl_capture_t* capture, rl_route_t route,
                           bool other, rl_test_run_t* out) {
  rl_device_t* device = rl_test_open_sim("gfx1100", false, 0x5eed);
  const rl_replay_options_t options = {.wait_timeout_ns = 10000000000ull,
                                       .stall_bound = true};
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(device, capture, &options, &replay));
  rl_status_t status = rl_replay_prepare(replay, route);
  if (status) fail_msg("prepare: %s", rl_status_message(status));
  if (other) {
    rl_test_run(replay, RL_TEST_POS + 1);
    rl_test_replay_digests(replay, capture, out->other);
  }
  rl_test_run(replay, RL_TEST_POS);
  rl_test_replay_digests(replay, capture, out->digests);
  rl_replay_proof(replay, &out->proof);
  const rl_replay_route_state_t* state = replay->route_state;
  out->chains = route == RL_ROUTE_PM4 ? state->pm4->stats.chains : 0;
  assert_int_equal(rl_sim_hazards(device, NULL, 0), 0);
  rl_replay_destroy(replay);
  rl_device_close(device);
}

// One work-group for every launch whose grid is not bound to a parameter:
// the simulator's time goes to the stream, not to the same fills again.
static void rl_test_shrink_grids(rl_capture_t* capture) {
  for (uint32_t i = 0; i < capture->launch_count; ++i) {
    rl_capture_launch_t* launch = &capture->launches[i];
    bool bound = false;
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      bound |= launch->bindings[b].target == RL_BINDING_GRID;
    }
    if (!bound) launch->grid[0] = 1;
  }
}

static void test_chained_pm4_equals_aql(void** state) {
  (void)state;
  rl_capture_t* recorded = NULL;
  rl_test_record(NULL, RL_TEST_POS, &recorded, NULL);
  rl_capture_t* capture = NULL;
  assert_null(rl_capture_repeat(recorded, RL_TEST_LAUNCHES, 0, 1, &capture));
  rl_capture_destroy(recorded);
  rl_test_shrink_grids(capture);
  rl_test_run_t* aql = calloc(1, sizeof(*aql));
  rl_test_run_t* pm4 = calloc(1, sizeof(*pm4));
  rl_test_replay(capture, RL_ROUTE_AQL, false, aql);
  rl_test_replay(capture, RL_ROUTE_PM4, true, pm4);
  // The stream is longer than one IB and was chained.
  assert_true(pm4->proof.ib_dwords > RL_PM4_IB_MAX_DWORDS);
  assert_true(pm4->chains >= 1);
  assert_int_equal(pm4->proof.dispatches, RL_TEST_LAUNCHES);
  assert_int_equal(pm4->proof.packets, 1);
  assert_int_equal(aql->proof.dispatches, RL_TEST_LAUNCHES);
  print_message("pm4: %u launches, %u IB dwords in %u IBs, %u waits\n",
                RL_TEST_LAUNCHES, pm4->proof.ib_dwords, pm4->chains + 1,
                pm4->proof.waits);
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    if (!rl_digest128_equal(pm4->digests[r], aql->digests[r])) {
      fail_msg("region %s: pm4 differs from aql", capture->regions[r].name);
    }
  }
  // Negative control: another position changes some region.
  assert_true(rl_test_count_differences(capture, pm4->other, aql->digests) >
              0);
  free(aql);
  free(pm4);
  rl_capture_destroy(capture);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_chained_pm4_equals_aql),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
