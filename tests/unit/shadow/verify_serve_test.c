// Tests of the verify serving loop (shadow/verify_serve.h) on a verify
// capture of 1 layer, B 8, a 256-row cache and crossover 64 (admitted pos
// 57..248) on the simulated GPU (reference executor):
//   edges      live context at the crossover - 1 and at it run eager with
//              the crossover named, + 1 runs retained; the last rows of the
//              cache (pos 248) run retained, one row past (pos 249) is
//              refused (RL_STATUS_CONTRACT) and nothing runs; B = 3, 4, 32,
//              33 are refused naming B and run nothing; route=off and
//              REDLINE_ROUTE=off run the admitted step eager saying so (and
//              without them it runs retained).
//   state      a sequence crossing the crossover (152 with tau = 8, 160
//              with tau = 6 retained; 55 eager; 248 retained; 56 eager)
//              leaves every region byte-identical to the same sequence run
//              all eager (route=off) on another server: the two paths share
//              the buffers and compute the same step, exact acceptance
//              included. Negative control: the all-eager sequence without
//              the last (eager) step differs.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/workloads/verify.h"
#include "redline/replay.h"
#include "shadow/verify_serve.h"
#include "tests/unit/kernels/workloads/decode_test_util.h"

enum { B = 8 };

typedef struct rl_vst_s {
  rl_capture_t* capture;
  rl_device_t* device;
} rl_vst_t;

static int rl_vst_setup(void** state) {
  rl_vst_t* t = calloc(1, sizeof(*t));
  assert_non_null(t);
  rl_dt_sim_t sim;
  rl_dt_sim_open_kernels(&sim, "verify", 1, "gfx1100", "verify");
  rl_verify_dims_t dims = RL_VERIFY_DIMS_DEFAULT;
  dims.layers = 1;
  dims.batch = B;
  dims.max_context = 256;
  dims.crossover = 64;
  const rl_workload_param_value_t pos = {"pos", 100};
  const rl_workload_options_t options = {.code_object = sim.bytes,
                                         .code_object_size = sim.size,
                                         .seed = 3,
                                         .params = &pos,
                                         .param_count = 1};
  rl_dt_ok(rl_verify_record(sim.funnel, &options, &dims));
  rl_dt_ok(rl_funnel_finish(sim.funnel, &t->capture));
  rl_dt_sim_close(&sim);
  const rl_device_options_t device = {.kind = "sim", .processor = "gfx1100"};
  rl_dt_ok(rl_device_open(&device, &t->device));
  *state = t;
  return 0;
}

static int rl_vst_teardown(void** state) {
  rl_vst_t* t = *state;
  rl_device_close(t->device);
  rl_capture_destroy(t->capture);
  free(t);
  return 0;
}

static rl_verify_server_t* rl_vst_server(const rl_vst_t* t, bool route_off) {
  const rl_verify_serve_options_t options = {
      .route = RL_ROUTE_PM4, .route_options = {route_off, 0}};
  rl_verify_server_t* server = NULL;
  rl_dt_ok(rl_verify_serve_create(t->device, t->capture, &options, &server));
  return server;
}

// Runs one step and checks the path taken and the reason.
static void rl_vst_step(rl_verify_server_t* server, uint32_t batch,
                        int64_t pos, bool retained, const char* reason) {
  rl_verify_decision_t decision;
  rl_dt_ok(rl_verify_serve_step(server, batch, pos, &decision));
  if (decision.retained != retained ||
      (!retained && !strstr(decision.reason, reason))) {
    fail_msg("B=%u pos=%lld: %s (%s), expected %s (%s)", batch,
             (long long)pos, decision.retained ? "retained" : "eager",
             decision.reason, retained ? "retained" : "eager",
             reason ? reason : "");
  }
}

// A step that no path can run: RL_STATUS_CONTRACT naming |needle|, and the
// step counts do not move.
static void rl_vst_refused(rl_verify_server_t* server, uint32_t batch,
                           int64_t pos, const char* needle) {
  uint64_t retained = 0, eager = 0, retained2 = 0, eager2 = 0;
  rl_verify_serve_counts(server, &retained, &eager);
  rl_verify_decision_t decision;
  rl_dt_expect(rl_verify_serve_step(server, batch, pos, &decision),
               RL_STATUS_CONTRACT, needle);
  assert_false(decision.retained);
  rl_verify_serve_counts(server, &retained2, &eager2);
  assert_int_equal(retained, retained2);
  assert_int_equal(eager, eager2);
}

static void test_edges(void** state) {
  const rl_vst_t* t = *state;
  rl_verify_server_t* server = rl_vst_server(t, false);
  rl_vst_step(server, B, 55, false, "live context 63");  // crossover - 1
  rl_vst_step(server, B, 56, false, "live context 64");  // at it
  rl_vst_step(server, B, 57, true, NULL);                // + 1
  rl_vst_step(server, B, 248, true, NULL);               // the last rows
  rl_vst_refused(server, B, 249, "outside the 256-row cache");
  rl_vst_refused(server, 3, 100, "B=3 outside the admitted 4..32");
  rl_vst_refused(server, 33, 100, "B=33 outside the admitted 4..32");
  rl_vst_refused(server, 4, 100, "B=4, the route was captured at B=8");
  rl_vst_refused(server, 32, 100, "B=32, the route was captured at B=8");
  uint64_t retained = 0, eager = 0;
  rl_verify_serve_counts(server, &retained, &eager);
  assert_int_equal(retained, 2);
  assert_int_equal(eager, 2);
  rl_verify_serve_destroy(server);
  server = rl_vst_server(t, true);
  rl_vst_step(server, B, 100, false, "route=off");
  rl_verify_serve_destroy(server);
  // The engine's escape hatch: the same admitted step runs eager.
  setenv("REDLINE_ROUTE", "off", 1);
  server = rl_vst_server(t, false);
  rl_vst_step(server, B, 100, false, "REDLINE_ROUTE=off");
  rl_verify_serve_destroy(server);
  unsetenv("REDLINE_ROUTE");
  server = rl_vst_server(t, false);
  rl_vst_step(server, B, 100, true, NULL);
  rl_verify_serve_destroy(server);
}

// Every region of |server| into one allocation (caller frees).
static uint8_t* rl_vst_state(const rl_vst_t* t, rl_verify_server_t* server,
                             uint64_t* out_size) {
  uint64_t total = 0;
  for (uint32_t r = 0; r < t->capture->region_count; ++r) {
    total += t->capture->regions[r].size;
  }
  uint8_t* bytes = malloc(total);
  assert_non_null(bytes);
  uint64_t at = 0;
  for (uint32_t r = 0; r < t->capture->region_count; ++r) {
    const uint64_t size = t->capture->regions[r].size;
    rl_dt_ok(rl_verify_serve_read_region(server, r, bytes + at, size));
    at += size;
  }
  *out_size = total;
  return bytes;
}

// Runs |steps| on a fresh server; after each step with want_tau[i] >= 0
// checks tau (accept[0]).
static uint8_t* rl_vst_run(const rl_vst_t* t, bool route_off,
                           const int64_t* steps, const int* want_tau,
                           uint32_t count, uint64_t* out_size) {
  rl_verify_server_t* server = rl_vst_server(t, route_off);
  uint32_t accept_region = UINT32_MAX;
  for (uint32_t r = 0; r < t->capture->region_count; ++r) {
    if (strcmp(t->capture->regions[r].name, "accept") == 0) accept_region = r;
  }
  assert_int_not_equal(accept_region, UINT32_MAX);
  for (uint32_t i = 0; i < count; ++i) {
    rl_verify_decision_t decision;
    rl_dt_ok(rl_verify_serve_step(server, B, steps[i], &decision));
    assert_int_equal(decision.retained, !route_off && steps[i] >= 57);
    uint32_t accept[4];
    rl_dt_ok(rl_verify_serve_read_region(server, accept_region, accept, 16));
    if (want_tau[i] >= 0) assert_int_equal(accept[0], want_tau[i]);
  }
  uint8_t* bytes = rl_vst_state(t, server, out_size);
  rl_verify_serve_destroy(server);
  return bytes;
}

// The window starts at 152 (max_context - 13 B): its first step accepts
// every draft (tau = 8), the second has its wrong draft at row 1 + (37 + 3)
// mod 7 = 6 (the default wrong_drafts 8 of 12 skips window 0).
static void test_mixed_equals_eager(void** state) {
  const rl_vst_t* t = *state;
  const int64_t steps[] = {152, 160, 55, 248, 56};
  const int tau[] = {8, 6, -1, -1, -1};
  const int64_t skipped[] = {152, 160, 55, 248};
  uint64_t size = 0, eager_size = 0, control_size = 0;
  uint8_t* mixed = rl_vst_run(t, false, steps, tau, 5, &size);
  uint8_t* eager = rl_vst_run(t, true, steps, tau, 5, &eager_size);
  uint8_t* control = rl_vst_run(t, true, skipped, tau, 4, &control_size);
  assert_int_equal(size, eager_size);
  assert_memory_equal(mixed, eager, size);
  assert_memory_not_equal(mixed, control, size);
  free(mixed);
  free(eager);
  free(control);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_edges, rl_vst_setup,
                                      rl_vst_teardown),
      cmocka_unit_test_setup_teardown(test_mixed_equals_eager, rl_vst_setup,
                                      rl_vst_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
