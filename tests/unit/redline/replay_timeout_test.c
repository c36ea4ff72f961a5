// Timed-out replays never touch freed memory (redline/replay.c destroy,
// sim/cp/sim_queue.c): hundreds of decode replays on the simulated GPU,
// each with a bounded wait drawn at random so that it expires at a random
// point of the step (before the first dispatch, in the middle of one, between
// two, or not at all), on routes aql and pm4, sequential and adversarial
// hazards. After each one the replay, the capture and the device are torn
// down in a random order allowed by the ownership rules (replay first; the
// capture before or after the device). A run must end OK or QUARANTINED and
// nothing else; under ASan and TSan (label threaded) any access of the
// command processor to freed memory or any race with the teardown is a
// report. `replay_timeout_test N` runs N iterations (default 300).
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tests/unit/kernels/workloads/decode_test_util.h"
#include "kernels/ref/ref_executor.h"
#include "kernels/workloads/workload.h"
#include "redline/replay.h"
#include "sim/sim.h"
#include "base/clock.h"

static uint32_t rl_iterations = 300;

// splitmix64: a fixed seed makes every iteration reproducible.
static uint64_t rl_next(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A decode capture of one layer (17 launches: short enough for hundreds of
// steps under TSan) recorded on the record-only device.
static rl_capture_t* rl_test_capture(void) {
  rl_dt_sim_t sim;
  rl_dt_sim_open(&sim, "decode", 1);
  const rl_workload_param_value_t value = {"pos", 30};
  const rl_workload_param_value_t layers = {"layers", 1};
  const rl_workload_options_t options = {.code_object = sim.bytes,
                                         .code_object_size = sim.size,
                                         .seed = 7,
                                         .params = &value,
                                         .param_count = 1,
                                         .config = &layers,
                                         .config_count = 1};
  rl_dt_ok(rl_workload_decode.record(sim.funnel, &options));
  rl_capture_t* capture = NULL;
  rl_dt_ok(rl_funnel_finish(sim.funnel, &capture));
  rl_dt_sim_close(&sim);
  return capture;
}

typedef struct rl_tally_s {
  uint32_t completed;    // runs that finished in time
  uint32_t quarantined;  // runs whose wait expired
} rl_tally_t;

// How long one first run takes on this build and machine (the sanitizers
// slow it down tenfold), measured with the default bound: the random bounds
// are drawn up to twice this, so they land anywhere in the step or after
// it whatever the build.
static uint64_t rl_test_calibrate(void) {
  rl_capture_t* capture = rl_test_capture();
  rl_sim_options_t sim_options = {.executor = rl_ref_executor()};
  rl_device_t* device = NULL;
  rl_dt_ok(rl_sim_device_create(&sim_options, &device));
  uint64_t slowest = 0;
  for (int i = 0; i < 3; ++i) {
    rl_replay_t* replay = NULL;
    rl_dt_ok(rl_replay_create(device, capture, NULL, &replay));
    rl_dt_ok(rl_replay_contract(replay));
    rl_dt_ok(rl_replay_prepare(replay, i == 1 ? RL_ROUTE_PM4 : RL_ROUTE_AQL));
    int64_t pos = 30;
    uint64_t start = rl_now_ns();
    rl_dt_ok(rl_replay_run(replay, &pos, 1));
    uint64_t took = rl_now_ns() - start;
    if (took > slowest) slowest = took;
    rl_replay_destroy(replay);
  }
  rl_device_close(device);
  rl_capture_destroy(capture);
  return slowest;
}

// A bound between 1 µs and |bound_ns|, spread evenly over the powers of
// two in between (log-uniform), so that expiries before the first
// dispatch, inside the step and after it are all common.
static uint64_t rl_test_bound(uint64_t* rng, uint64_t bound_ns) {
  uint32_t octaves = 0;
  while ((1000ull << (octaves + 1)) < bound_ns) ++octaves;
  uint64_t low = 1000ull << (rl_next(rng) % (octaves + 1));
  return low + rl_next(rng) % low;
}

// One iteration: device, replay with a random bound in 1 µs ..
// |bound_ns|, 1-3 runs, teardown.
static void rl_test_iteration(uint64_t* rng, uint64_t bound_ns,
                              rl_tally_t* tally) {
  rl_capture_t* capture = rl_test_capture();
  rl_sim_options_t sim_options = {
      .hazards = (rl_next(rng) & 1) ? RL_SIM_HAZARDS_ADVERSARIAL
                                    : RL_SIM_HAZARDS_SEQUENTIAL,
      .seed = rl_next(rng),
      .executor = rl_ref_executor()};
  rl_device_t* device = NULL;
  rl_dt_ok(rl_sim_device_create(&sim_options, &device));
  const rl_replay_options_t options = {
      .wait_timeout_ns = rl_test_bound(rng, bound_ns),
      .spin_wait = rl_next(rng) & 1};
  rl_route_t route = (rl_next(rng) & 1) ? RL_ROUTE_PM4 : RL_ROUTE_AQL;
  rl_replay_t* replay = NULL;
  rl_dt_ok(rl_replay_create(device, capture, &options, &replay));
  rl_dt_ok(rl_replay_contract(replay));
  rl_dt_ok(rl_replay_prepare(replay, route));
  uint32_t runs = 1 + (uint32_t)(rl_next(rng) % 3);
  for (uint32_t r = 0; r < runs; ++r) {
    int64_t pos = 30 + r;
    rl_status_t status = rl_replay_run(replay, &pos, 1);
    if (status == RL_OK) {
      ++tally->completed;
      continue;
    }
    if (!rl_status_is(status, RL_STATUS_QUARANTINED)) {
      fail_msg("run %u on route %s: %s", r, rl_route_name(route),
               rl_status_message(status));
    }
    rl_status_free(status);
    assert_int_equal(rl_replay_state(replay), RL_REPLAY_QUARANTINED);
    ++tally->quarantined;
    break;
  }
  rl_replay_destroy(replay);
  if (rl_next(rng) & 1) {
    rl_capture_destroy(capture);  // as the CLI does: capture, then device
    rl_device_close(device);
  } else {
    rl_device_close(device);
    rl_capture_destroy(capture);
  }
}

static void test_timeouts_at_random_points(void** state) {
  (void)state;
  uint64_t rng = 0x7e57ull;
  rl_tally_t tally = {0};
  uint64_t bound_ns = 2 * rl_test_calibrate();
  for (uint32_t i = 0; i < rl_iterations; ++i) {
    rl_test_iteration(&rng, bound_ns, &tally);
  }
  printf("replay_timeout_test: %u iterations, bounds up to %" PRIu64
         " us, %u runs completed, %u quarantined\n",
         rl_iterations, bound_ns / 1000, tally.completed, tally.quarantined);
  // The draw must exercise both outcomes, or the test proves nothing.
  assert_true(tally.quarantined > rl_iterations / 10);
  assert_true(tally.completed > 0);
}

int main(int argc, char** argv) {
  if (argc > 1) rl_iterations = (uint32_t)strtoul(argv[1], NULL, 10);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_timeouts_at_random_points),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
