// Tests of the verify route's envelope and per-step decision
// (kernels/workloads/verify_route.h) on a verify capture recorded with the
// record-only device: the admission edges B = 3, 4, 32, 33 (and B unequal
// to the captured one), live context at the crossover - 1, at it and + 1
// (and a higher crossover from the options), the KV capacity edge, the
// target, both escape hatches, and an undersized workspace
// (RL_STATUS_CONTRACT before any decision). Every refusal is checked with
// its reason, and every edge has its admitted neighbour, so a check that
// refused everything (or nothing) fails here.
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
#include "kernels/workloads/verify_route.h"
#include "tests/unit/kernels/workloads/decode_test_util.h"

#define RL_VRT_TARGET "amdgcn-amd-amdhsa--gfx1100"

typedef struct rl_vrt_s {
  rl_verify_envelope_t envelope;
  rl_verify_dims_t dims;
} rl_vrt_t;

// Records a verify step (1 layer, B 16, max_context 1024, crossover 256)
// without executing it and reads the envelope of the capture.
static int rl_vrt_setup(void** state) {
  rl_vrt_t* t = calloc(1, sizeof(*t));
  assert_non_null(t);
  rl_dt_sim_t sim;
  rl_dt_sim_open_kernels(&sim, "verify", 1, "gfx1100", "verify");
  t->dims = (rl_verify_dims_t)RL_VERIFY_DIMS_DEFAULT;
  t->dims.layers = 1;
  t->dims.max_context = 1024;
  t->dims.crossover = 256;
  const rl_workload_param_value_t pos = {"pos", 400};
  const rl_workload_options_t options = {.code_object = sim.bytes,
                                         .code_object_size = sim.size,
                                         .seed = 1,
                                         .params = &pos,
                                         .param_count = 1};
  rl_dt_ok(rl_verify_record(sim.funnel, &options, &t->dims));
  rl_capture_t* capture = NULL;
  rl_dt_ok(rl_funnel_finish(sim.funnel, &capture));
  assert_int_equal(capture->launch_count, rl_verify_launch_count(&t->dims));
  rl_dt_ok(rl_verify_envelope_of(capture, &t->envelope));
  rl_capture_destroy(capture);
  rl_dt_sim_close(&sim);
  *state = t;
  return 0;
}

static int rl_vrt_teardown(void** state) {
  free(*state);
  return 0;
}

static rl_verify_step_t rl_vrt_step(const rl_vrt_t* t, uint32_t batch,
                                    int64_t pos) {
  return (rl_verify_step_t){RL_VRT_TARGET, batch, pos,
                            t->envelope.workspace_bytes};
}

// Decides |step| and checks the answer (and the reason when eager).
static void rl_vrt_expect(const rl_vrt_t* t,
                          const rl_verify_route_options_t* options,
                          rl_verify_step_t step, bool retained,
                          const char* reason) {
  rl_verify_decision_t decision;
  rl_dt_ok(rl_verify_decide(&t->envelope, options, &step, &decision));
  if (decision.retained != retained ||
      (!retained && !strstr(decision.reason, reason))) {
    fail_msg("B=%u pos=%lld: %s (%s), expected %s (%s)", step.batch,
             (long long)step.pos, decision.retained ? "retained" : "eager",
             decision.reason, retained ? "retained" : "eager",
             reason ? reason : "");
  }
}

static void verify_route_envelope_records_captured_shape(void** state) {
  const rl_vrt_t* t = *state;
  assert_string_equal(t->envelope.target, RL_VRT_TARGET);
  assert_int_equal(t->envelope.batch, 16);
  assert_int_equal(t->envelope.chunks, 8);
  assert_int_equal(t->envelope.crossover, 256);
  assert_int_equal(t->envelope.max_context, 1024);
  assert_int_equal(t->envelope.workspace_bytes,
                   rl_verify_workspace_bytes(&t->dims));
}

static void verify_route_refuses_batch_other_than_captured(void** state) {
  const rl_vrt_t* t = *state;
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 3, 400), false,
                "B=3 outside the admitted 4..32");
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 33, 400), false,
                "B=33 outside the admitted 4..32");
  // 4 and 32 are inside 4..32 but not the captured 16.
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 4, 400), false,
                "B=4, the route was captured at B=16");
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 32, 400), false,
                "B=32, the route was captured at B=16");
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 16, 400), true, NULL);
}

static void test_batch_edges_admitted(void** state) {
  // B = 4 and B = 32 are admitted when captured at that B.
  const rl_vrt_t* t = *state;
  for (uint32_t b = 4; b <= 32; b += 28) {
    rl_vrt_t other = *t;
    other.envelope.batch = b;
    rl_vrt_expect(&other, NULL, rl_vrt_step(&other, b, 400), true, NULL);
  }
  rl_verify_dims_t dims = t->dims;
  dims.batch = 3;
  rl_dt_expect(rl_verify_dims_check(&dims), RL_STATUS_INVALID_ARGUMENT,
               "batch 3 outside the admitted 4..32");
  dims.batch = 33;
  rl_dt_expect(rl_verify_dims_check(&dims), RL_STATUS_INVALID_ARGUMENT,
               "batch 33 outside the admitted 4..32");
  dims.batch = 4;
  rl_dt_ok(rl_verify_dims_check(&dims));
  dims.batch = 32;
  rl_dt_ok(rl_verify_dims_check(&dims));
}

static void test_crossover_edges(void** state) {
  const rl_vrt_t* t = *state;
  // live context pos + 16: 255, 256 refused; 257 admitted.
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 16, 239), false,
                "live context 255 is not above the crossover 256");
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 16, 240), false,
                "live context 256 is not above the crossover 256");
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 16, 241), true, NULL);
  // The captured pos range agrees: its minimum is the first admitted pos.
  int64_t min = 0, max = 0;
  rl_verify_pos_range(&t->dims, &min, &max);
  assert_int_equal(min, 241);
  assert_int_equal(max, 1024 - 16 + 1);
  // A higher crossover from the options moves the edge; a lower one does
  // not widen the capture's.
  const rl_verify_route_options_t higher = {false, 4096};
  rl_vrt_expect(t, &higher, rl_vrt_step(t, 16, 400), false,
                "live context 416 is not above the crossover 4096");
  const rl_verify_route_options_t lower = {false, 100};
  rl_vrt_expect(t, &lower, rl_vrt_step(t, 16, 240), false,
                "not above the crossover 256");
}

static void verify_route_refuses_rows_past_kv_capacity(void** state) {
  const rl_vrt_t* t = *state;
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 16, 1008), true, NULL);
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 16, 1009), false,
                "rows 1009..1024 pass the KV capacity of 1024 rows");
}

static void test_target_and_escape_hatches(void** state) {
  const rl_vrt_t* t = *state;
  rl_verify_step_t step = rl_vrt_step(t, 16, 400);
  step.target = "amdgcn-amd-amdhsa--gfx1151";
  rl_vrt_expect(t, NULL, step, false,
                "target amdgcn-amd-amdhsa--gfx1151, the route was captured "
                "for amdgcn-amd-amdhsa--gfx1100");
  const rl_verify_route_options_t off = {true, 0};
  rl_vrt_expect(t, &off, rl_vrt_step(t, 16, 400), false,
                "route disabled by the workload option route=off");
  setenv("REDLINE_ROUTE", "off", 1);
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 16, 400), false, "REDLINE_ROUTE=off");
  setenv("REDLINE_ROUTE", "pm4", 1);
  rl_vrt_expect(t, NULL, rl_vrt_step(t, 16, 400), true, NULL);
  unsetenv("REDLINE_ROUTE");
}

static void test_undersized_workspace(void** state) {
  const rl_vrt_t* t = *state;
  rl_verify_step_t step = rl_vrt_step(t, 16, 400);
  step.workspace_bytes = t->envelope.workspace_bytes - 4;
  rl_verify_decision_t decision;
  rl_dt_expect(rl_verify_decide(&t->envelope, NULL, &step, &decision),
               RL_STATUS_CONTRACT, "needs 18432 bytes");
  assert_false(decision.retained);
  // Even a step the envelope would refuse anyway fails on the workspace
  // first: nothing runs, eager included.
  step.batch = 3;
  rl_dt_expect(rl_verify_decide(&t->envelope, NULL, &step, &decision),
               RL_STATUS_CONTRACT, "partials workspace of 18428 bytes");
  rl_dt_ok(rl_verify_check_workspace(&t->envelope,
                                     t->envelope.workspace_bytes));
  // Recording refuses a workspace below S = 8 chunks.
  rl_verify_dims_t dims = t->dims;
  dims.workspace_chunks = 7;
  rl_dt_sim_t sim;
  rl_dt_sim_open(&sim, "verify", 1);
  const rl_workload_options_t options = {.code_object = sim.bytes,
                                         .code_object_size = sim.size};
  rl_dt_expect(rl_verify_record(sim.funnel, &options, &dims),
               RL_STATUS_INVALID_ARGUMENT, "S = 8 at B 16 needs 18432 bytes");
  rl_dt_sim_close(&sim);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(verify_route_envelope_records_captured_shape),
      cmocka_unit_test(verify_route_refuses_batch_other_than_captured),
      cmocka_unit_test(test_batch_edges_admitted),
      cmocka_unit_test(test_crossover_edges),
      cmocka_unit_test(verify_route_refuses_rows_past_kv_capacity),
      cmocka_unit_test(test_target_and_escape_hatches),
      cmocka_unit_test(test_undersized_workspace),
  };
  return cmocka_run_group_tests(tests, rl_vrt_setup, rl_vrt_teardown);
}
