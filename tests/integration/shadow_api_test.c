// Integration tests of the shadow library (shadow/shadow.h, bench.h)
// through its API, on a decode capture recorded in this process (an eager
// run through the funnel on the simulated device):
//   - all four arms agree byte for byte over the workload's window, every
//     retained arm replayed once per window, eager and recorded never;
//   - the negative control names exactly the corrupted region and offset;
//   - an undersized workspace fails the replay contract, both bound
//     directly through the replay API and through the shadow's binds;
//   - the recorded arm can fail: a capture whose typed model no longer
//     matches its recorded launch is refused when re-issued;
//   - the bench proves its routes and decodes the pm4 IB.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/workloads/workload.h"
#include "redline/device/device.h"
#include "redline/hazard.h"
#include "redline/replay.h"
#include "shadow/bench.h"
#include "shadow/shadow.h"
#include "tests/support/test_support.h"
#include "tests/unit/shadow/shadow_test_capture.h"

static rl_capture_t* rl_record_decode(void) {
  return rl_shadow_test_record(&rl_workload_decode,
                               RL_KERNELS_DIR "/decode-gfx1100.co");
}

static int rl_setup(void** state) {
  *state = rl_record_decode();
  return 0;
}

static int rl_teardown(void** state) {
  rl_capture_destroy(*state);
  return 0;
}

static rl_shadow_options_t rl_options(const char* arms) {
  rl_shadow_options_t options;
  memset(&options, 0, sizeof(options));
  assert_null(rl_shadow_arms_parse(arms, options.arms, &options.arm_count));
  return options;
}

static void rl_test_all_arms_pass(void** state) {
  const rl_capture_t* capture = *state;
  rl_shadow_options_t options = rl_options("eager,recorded,aql,pm4");
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  if (!result->pass) fprintf(stderr, "reason: %s\n", result->reason);
  assert_true(result->pass);
  assert_int_equal(rl_shadow_result_code(result), RL_STATUS_OK);
  assert_int_equal(result->window_count, 12);
  assert_int_equal(result->window.start, 30);  // chunk - 2
  assert_int_equal(result->reference, 0);
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    assert_true(arm->proof_ok);
    assert_int_equal(arm->proof.steps, 12);
    assert_int_equal(arm->proof.replay_count,
                     rl_shadow_arm_kind_retained(arm->kind) ? 12 : 0);
  }
  // Every arm's hazard checker ran and found nothing; the recorded arm
  // re-recorded every window from the workload.
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    assert_true(result->arms[a].hazard_checked);
    assert_int_equal(result->arms[a].hazard_count, 0);
  }
  const rl_shadow_proof_t* recorded = &result->arms[1].proof;
  assert_string_equal(recorded->fallback_reason, "");
  assert_int_equal(recorded->rerecorded_windows, 12);
  assert_int_equal(recorded->rerecorded_launches, 12 * capture->launch_count);
  // The produced token is fed back: it changes from window to window.
  uint32_t token = 0;
  assert_true(rl_capture_find_buffer(capture, "token", &token));
  const rl_shadow_cell_t* first = rl_shadow_result_cell(result, 0, 0, 0);
  const rl_shadow_cell_t* second = rl_shadow_result_cell(result, 1, 0, 0);
  assert_false(rl_digest128_equal(first->digest, second->digest));
  rl_shadow_result_destroy(result);
}

// The second executor: eager again on the ISA executor, named as the
// independent reference, byte-identical to the arms on the C reference
// kernels; a capture with a kernel that has no C reference gets none, and
// the result says which kernel.
static void rl_test_second_executor(void** state) {
  rl_capture_t* capture = *state;
  rl_shadow_options_t options = rl_options("eager");
  options.has_window = true;
  options.window = (rl_shadow_window_t){30, 2, 1};
  options.second_executor = true;
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  if (!result->pass) fprintf(stderr, "reason: %s\n", result->reason);
  assert_true(result->pass);
  assert_int_equal(result->arm_count, 2);
  assert_string_equal(result->arms[0].executor, "ref");
  assert_string_equal(result->arms[1].name, "eager@isa");
  assert_string_equal(result->arms[1].executor, "isa");
  assert_int_equal(result->arms[1].proof.steps, 2);
  assert_non_null(strstr(result->independent_reference, "eager@isa ("));
  rl_shadow_result_destroy(result);
  // The reverse: the arms on the ISA executor, the second on ref.
  options.device.executor = "isa";
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_true(result->pass);
  assert_string_equal(result->arms[1].name, "eager@ref");
  rl_shadow_result_destroy(result);
  // A kernel the reference kernels do not know: no second executor, and
  // with no executor named the arms run the ISA executor (which runs any
  // machine code); a named one is kept.
  char* name = capture->kernels[0].name;
  char foreign[] = "not_a_reference_kernel";
  capture->kernels[0].name = foreign;
  options.device.executor = NULL;
  rl_status_t status = rl_shadow_run(capture, &options, &result);
  capture->kernels[0].name = name;
  assert_null(status);
  assert_true(result->pass);
  assert_int_equal(result->arm_count, 1);
  assert_string_equal(result->arms[0].executor, "isa");
  assert_string_equal(result->independent_reference,
                      "none: kernel not_a_reference_kernel has no C "
                      "reference kernel, so every arm runs the isa executor");
  rl_shadow_result_destroy(result);
  options.device.executor = "ref";
  capture->kernels[0].name = foreign;
  status = rl_shadow_run(capture, &options, &result);
  capture->kernels[0].name = name;
  assert_null(status);
  assert_int_equal(result->arm_count, 1);
  assert_string_equal(result->arms[0].executor, "ref");
  rl_shadow_result_destroy(result);
  options.device.executor = NULL;
  // Off: none, and the result says so.
  options.second_executor = false;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_int_equal(result->arm_count, 1);
  assert_string_equal(result->independent_reference,
                      "none: the second executor is off");
  rl_shadow_result_destroy(result);
}

static void rl_test_negative_control(void** state) {
  const rl_capture_t* capture = *state;
  rl_shadow_options_t options = rl_options("eager,aql,pm4");
  options.has_window = true;
  options.window = (rl_shadow_window_t){30, 2, 1};
  options.flip = true;
  options.flip_region = 1;  // logits
  options.flip_offset = 13;
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_false(result->pass);
  assert_int_equal(rl_shadow_result_code(result), RL_STATUS_MISMATCH);
  assert_true(result->diverged);
  assert_int_equal(result->first_window, 0);
  assert_int_equal(result->first_region, 1);
  assert_int_equal(result->first_arm, 2);  // pm4
  assert_int_equal(result->first_offset, 13);
  const rl_shadow_cell_t* cell = rl_shadow_result_cell(result, 0, 1, 2);
  assert_int_equal(cell->differing_bytes, 1);
  // Only that region differs in window 0, and aql stays equal.
  for (uint32_t r = 0; r < result->region_count; ++r) {
    assert_true(rl_shadow_result_cell(result, 0, r, 1)->equal);
    if (r != 1) assert_true(rl_shadow_result_cell(result, 0, r, 2)->equal);
  }
  rl_shadow_result_destroy(result);
  // An offset outside the region is refused up front.
  options.flip_offset = capture->regions[1].size;
  rl_status_t status = rl_shadow_run(capture, &options, &result);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_null(result);
  rl_status_free(status);
}

static void rl_test_undersized_workspace_api(void** state) {
  const rl_capture_t* capture = *state;
  uint32_t partials = 0;
  assert_true(rl_capture_find_buffer(capture, "partials", &partials));
  rl_device_t* device = NULL;
  assert_null(rl_device_open(NULL, &device));
  rl_device_allocation_t small = {0};
  assert_null(device->vtable->allocate(device, 1024, 256,
                                       RL_MEMORY_KIND_DEVICE, &small));
  rl_replay_t* replay = NULL;
  assert_null(rl_replay_create(device, capture, NULL, &replay));
  assert_null(rl_replay_bind_buffer(replay, partials, small.address, 1024));
  rl_status_t status = rl_replay_contract(replay);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  assert_non_null(strstr(rl_status_message(status), "workspace capacity"));
  rl_status_free(status);
  rl_replay_destroy(replay);
  assert_null(device->vtable->free(device, small.address));
  rl_device_close(device);
}

static void rl_test_undersized_workspace_shadow(void** state) {
  const rl_capture_t* capture = *state;
  rl_shadow_options_t options = rl_options("eager,aql");
  options.has_window = true;
  options.window = (rl_shadow_window_t){30, 1, 1};
  assert_true(rl_capture_find_buffer(capture, "partials", &options.binds[0].buffer));
  options.binds[0].size = 1024;
  options.bind_count = 1;
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_false(result->pass);
  assert_int_equal(rl_shadow_result_code(result), RL_STATUS_CONTRACT);
  assert_false(result->arms[1].available);
  assert_non_null(strstr(result->arms[1].failure, "not available: "));
  rl_shadow_result_destroy(result);
}

// Negative control of the recorded arm: an explicit by-value argument is
// re-declared hidden in the capture's kernel metadata, so the typed model
// (one explicit argument fewer, its bytes left to the runtime) no longer
// matches the recorded launch. The eager arm still runs the recorded bytes;
// the recorded arm must fail at launch 0, naming it. (The funnel re-parses
// the code object, so here the refusal is its argument count; a hidden
// argument or padding byte the funnel fills differently would be caught by
// the arm's byte comparison, but the sample kernels have neither.)
static void rl_test_recorded_detects_reassembly(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record_decode();
  const rl_capture_launch_t* launch = &capture->launches[0];
  rl_kernel_arg_t* args =
      (rl_kernel_arg_t*)capture->kernels[launch->kernel].info->args;
  uint32_t arg_count = capture->kernels[launch->kernel].info->arg_count;
  int32_t victim = -1;
  for (uint32_t a = 0; a < arg_count; ++a) {
    if (args[a].kind == RL_ARG_KIND_BY_VALUE) victim = (int32_t)a;
  }
  assert_true(victim >= 0);
  const char* value_kind = args[victim].value_kind;  // owned by the parse
  args[victim].kind = RL_ARG_KIND_HIDDEN;
  args[victim].value_kind = "hidden_none";
  rl_shadow_options_t options = rl_options("eager,recorded");
  options.has_window = true;
  options.window = (rl_shadow_window_t){30, 1, 1};
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_false(result->pass);
  assert_false(result->arms[0].failed);
  assert_true(result->arms[1].failed);
  assert_int_not_equal(rl_shadow_result_code(result), RL_STATUS_OK);
  assert_non_null(strstr(result->arms[1].failure, "launch 0 (dc_embed)"));
  assert_non_null(strstr(result->reason, "arm recorded"));
  rl_shadow_result_destroy(result);
  args[victim].kind = RL_ARG_KIND_BY_VALUE;
  args[victim].value_kind = value_kind;
  rl_capture_destroy(capture);
}

// The capture loses the effects of launch 1 (dc_rmsnorm reads x, writes
// xn): the plan then puts no wait before it, and the sequential simulator
// still computes the right bytes. The dynamic checker sees the race on the
// retained arms, naming both launches, the buffer and the missing barrier
// bit, and the effects audit sees the undeclared accesses in every arm (it
// names the verdict); with --no-hazard-check the run passes (the control).
static void rl_test_hazard_verdict(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record_decode();
  rl_capture_launch_t* launch = &capture->launches[1];
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    launch->slots[s].effect = RL_EFFECT_NONE;
  }
  rl_shadow_options_t options = rl_options("eager,aql,pm4");
  options.has_window = true;
  options.window = (rl_shadow_window_t){30, 1, 1};
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_false(result->pass);
  assert_int_equal(rl_shadow_result_code(result), RL_STATUS_MISMATCH);
  assert_false(result->diverged);
  assert_int_equal(result->arms[0].hazard_count, 0);
  uint32_t x = 0;
  assert_true(rl_capture_find_buffer(capture, "x", &x));
  for (uint32_t a = 1; a < 3; ++a) {
    const rl_shadow_arm_result_t* arm = &result->arms[a];
    assert_true(arm->hazard_count > 0);
    assert_int_equal(arm->hazards[0].kind, RL_HAZARD_RAW);
    assert_int_equal(arm->hazards[0].earlier_launch, 0);
    assert_int_equal(arm->hazards[0].later_launch, 1);
    assert_int_equal(arm->hazards[0].buffer, x);
    assert_int_equal(arm->hazards[0].offset, 0);
    assert_int_equal(arm->hazards[0].end, capture->buffers[x].size);
    assert_int_equal(arm->hazards[0].pm4, arm->kind == RL_SHADOW_ARM_PM4);
  }
  // The effects audit names the cause (launch 1 reads its weights and x
  // and writes xn with no effect declared) before the hazard it causes, in every arm.
  for (uint32_t a = 0; a < 3; ++a) {
    assert_true(result->arms[a].effects_checked);
    assert_true(result->arms[a].effects.violations > 0);
  }
  assert_non_null(strstr(result->reason, "arm eager: effects audit: window 0"));
  assert_non_null(strstr(result->reason, "launch 1 (dc_rmsnorm) read buffer "));
  assert_non_null(strstr(result->reason, "no pointer slot of the launch "
                                         "declares an effect on this buffer"));
  // The hazard findings the wrong declaration causes stay in the report,
  // with what was missing.
  assert_non_null(strstr(rl_hazard_finding_missing(&result->arms[1].hazards[0]),
                         "no barrier bit"));
  rl_shadow_result_destroy(result);
  options.no_hazard_check = true;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_true(result->pass);
  assert_false(result->arms[1].hazard_checked);
  assert_false(result->arms[1].effects_checked);
  rl_shadow_result_destroy(result);
  rl_capture_destroy(capture);
}

// A binding the capture lost (launch 3's pos): every arm, eager included,
// replays the frozen bytes and agrees; the re-recorded program does not.
static void rl_test_rerecord_detects_lost_binding(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record_decode();
  rl_capture_launch_t* launch = &capture->launches[3];
  assert_int_equal(launch->binding_count, 1);
  launch->binding_count = 0;
  rl_shadow_options_t options = rl_options("eager,recorded,aql");
  options.has_window = true;
  options.window = (rl_shadow_window_t){31, 1, 1};
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_false(result->pass);
  assert_false(result->diverged);
  assert_true(result->arms[1].failed);
  assert_false(result->arms[2].failed);
  assert_non_null(strstr(result->arms[1].failure,
                         "launch 3 (dc_rope): kernarg byte 16 is 0x1f in the "
                         "program, 0x1e from the capture (recorded bytes, no "
                         "binding)"));
  rl_shadow_result_destroy(result);
  launch->binding_count = 1;
  rl_capture_destroy(capture);
}

// A capture of a program redline cannot run again (a foreign workload
// name, as an interposer capture has): the recorded arm says so and keeps
// its typed-model check.
static void rl_test_rerecord_foreign_falls_back(void** state) {
  (void)state;
  rl_capture_t* capture = rl_record_decode();
  free(capture->workload);
  capture->workload = strdup("someone-elses-app");
  rl_shadow_options_t options = rl_options("eager,recorded");
  options.has_window = true;
  options.window = (rl_shadow_window_t){30, 2, 1};
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_true(result->pass);
  const rl_shadow_proof_t* proof = &result->arms[1].proof;
  assert_non_null(strstr(proof->fallback_reason,
                         "not re-recorded: workload 'someone-elses-app' is "
                         "not a registered workload"));
  assert_int_equal(proof->rerecorded_windows, 0);
  char* text = rl_shadow_report_text(result);
  assert_non_null(strstr(text, "typed-model check only"));
  free(text);
  rl_shadow_result_destroy(result);
  rl_capture_destroy(capture);
}

// |status| is RL_STATUS_INVALID_ARGUMENT with |needle| in its message.
static void rl_expect_refused(rl_status_t status, const char* needle) {
  assert_non_null(status);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  if (!strstr(rl_status_message(status), needle)) {
    fail_msg("'%s' lacks '%s'", rl_status_message(status), needle);
  }
  rl_status_free(status);
}

// A real device (rocr, failing closed here: no ROCr library) adds the
// simulated reference arm "sim" and makes it the reference; the rocr arm is
// not available (exit class UNAVAILABLE) and the sim arm still runs.
// Arms the drm device cannot run, and unknown devices, are refused before
// any arm is created.
static void rl_test_device_options(void** state) {
  const rl_capture_t* capture = *state;
  setenv("REDLINE_HSA_LIBRARY", "/nonexistent/libhsa-runtime64.so.1", 1);
  rl_shadow_options_t options = rl_options("eager");
  options.device.kind = "rocr";
  options.has_window = true;
  options.window = (rl_shadow_window_t){30, 2, 1};
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_int_equal(result->arm_count, 2);
  assert_string_equal(result->arms[1].name, "sim");
  assert_int_equal(result->reference, 1);
  assert_true(result->arms[0].failed);
  assert_false(result->arms[1].failed);
  assert_string_equal(result->arms[1].proof.device, "sim");
  assert_int_equal(rl_shadow_result_code(result), RL_STATUS_UNAVAILABLE);
  rl_shadow_result_destroy(result);
  // Without the reference: one arm.
  options.no_sim_reference = true;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_int_equal(result->arm_count, 1);
  rl_shadow_result_destroy(result);
  // The drm device has no AQL queue; "gpu" is no device.
  options = rl_options("aql");
  options.device.kind = "drm";
  rl_expect_refused(rl_shadow_run(capture, &options, &result),
                    "arm aql cannot run on device drm");
  assert_null(result);
  options.device.kind = "gpu";
  rl_expect_refused(rl_shadow_run(capture, &options, &result), "device 'gpu'");
  unsetenv("REDLINE_HSA_LIBRARY");
}

static void rl_test_bench(void** state) {
  const rl_capture_t* capture = *state;
  rl_bench_options_t options;
  memset(&options, 0, sizeof(options));
  assert_null(rl_shadow_arms_parse("eager,recorded,aql,pm4", options.arms,
                                   &options.arm_count));
  options.has_window = true;
  options.window = (rl_shadow_window_t){30, 3, 1};
  options.rounds = 2;
  rl_bench_result_t* result = NULL;
  assert_null(rl_bench_run(capture, &options, &result));
  if (!result->pass) fprintf(stderr, "reason: %s\n", result->reason);
  assert_true(result->pass);
  for (uint32_t a = 0; a < result->arm_count; ++a) {
    const rl_bench_arm_result_t* arm = &result->arms[a];
    assert_int_equal(arm->samples, 6);
    assert_true(arm->wall.present);
    assert_true(arm->device_span.present);
    assert_true(arm->device_span.median > 0);
    assert_true(arm->wall.p95 >= arm->wall.median);
    assert_int_equal(arm->host.present, rl_shadow_arm_kind_retained(arm->kind));
  }
  const rl_bench_pm4_t* pm4 = &result->arms[3].pm4;
  assert_true(pm4->present);
  assert_int_equal(pm4->dispatches, capture->launch_count);
  assert_int_equal(pm4->dwords, result->arms[3].proof.ib_dwords);
  assert_true(pm4->acquires >= 1);
  char* text = rl_bench_report_text(result);
  assert_non_null(strstr(text, "bench: PASS"));
  free(text);
  cJSON_Delete(rl_bench_report_json(result));
  rl_bench_result_destroy(result);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_test_all_arms_pass),
      cmocka_unit_test(rl_test_second_executor),
      cmocka_unit_test(rl_test_negative_control),
      cmocka_unit_test(rl_test_undersized_workspace_api),
      cmocka_unit_test(rl_test_undersized_workspace_shadow),
      cmocka_unit_test(rl_test_recorded_detects_reassembly),
      cmocka_unit_test(rl_test_bench),
      cmocka_unit_test(rl_test_device_options),
      cmocka_unit_test(rl_test_hazard_verdict),
      cmocka_unit_test(rl_test_rerecord_detects_lost_binding),
      cmocka_unit_test(rl_test_rerecord_foreign_falls_back),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
