// The shadow's arm lists and windows as given (shadow_options.c through
// shadow/shadow.h) and the options a run refuses before any arm is created
// (rl_shadow_run on an in-process vecchain capture): every list the CLI's
// --arms accepts parses in order, every malformed one is refused with
// RL_STATUS_INVALID_ARGUMENT naming what is wrong, and each refusal of the
// run leaves no result. Negatives: the same run with the defect removed
// passes (the refusals are the defects', not the run's).
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/capture.h"
#include "shadow/shadow.h"
#include "tests/unit/shadow/shadow_test_capture.h"

// Asserts that |status| has |code| and a message containing |needle|, and
// frees it.
static void rl_expect(rl_status_t status, rl_status_code_t code,
                      const char* needle) {
  assert_non_null(status);
  if (rl_status_code(status) != code ||
      !strstr(rl_status_message(status), needle)) {
    fail_msg("expected %s with '%s', got %s: %s", rl_status_code_name(code),
             needle, rl_status_code_name(rl_status_code(status)),
             rl_status_message(status));
  }
  rl_status_free(status);
}

static void rl_arm_lists_parse_in_order(void** state) {
  (void)state;
  rl_shadow_arm_kind_t kinds[RL_SHADOW_MAX_ARMS];
  uint32_t count = 0;
  assert_null(rl_shadow_arms_parse(RL_SHADOW_DEFAULT_ARMS, kinds, &count));
  const rl_shadow_arm_kind_t defaults[] = {
      RL_SHADOW_ARM_EAGER, RL_SHADOW_ARM_RECORDED, RL_SHADOW_ARM_AQL,
      RL_SHADOW_ARM_PM4, RL_SHADOW_ARM_PM4_RELAY};
  assert_int_equal(count, 5);
  assert_memory_equal(kinds, defaults, sizeof(defaults));
  assert_null(rl_shadow_arms_parse("drm,hipgraph,hip", kinds, &count));
  assert_int_equal(count, 3);
  assert_int_equal(kinds[0], RL_SHADOW_ARM_DRM);
  assert_int_equal(kinds[1], RL_SHADOW_ARM_HIPGRAPH);
  assert_int_equal(kinds[2], RL_SHADOW_ARM_HIP);
  assert_null(rl_shadow_arms_parse("pm4,", kinds, &count));  // trailing comma
  assert_int_equal(count, 1);
  assert_int_equal(kinds[0], RL_SHADOW_ARM_PM4);
}

static void rl_arm_lists_refused(void** state) {
  (void)state;
  rl_shadow_arm_kind_t kinds[RL_SHADOW_MAX_ARMS];
  uint32_t count = 0;
  rl_expect(rl_shadow_arms_parse("", kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "arms: empty list");
  rl_expect(rl_shadow_arms_parse(NULL, kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "arms: empty list");
  rl_expect(rl_shadow_arms_parse("aql,,pm4", kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "empty or overlong name in 'aql,,pm4'");
  rl_expect(rl_shadow_arms_parse(",aql", kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "empty or overlong name");
  rl_expect(rl_shadow_arms_parse("eager,an-arm-name-of-forty-characters-xxxx",
                                 kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "empty or overlong name");
  rl_expect(rl_shadow_arms_parse("eager,pm5", kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "unknown arm 'pm5'");
  rl_expect(rl_shadow_arms_parse("eager,AQL", kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "unknown arm 'AQL'");
  rl_expect(rl_shadow_arms_parse("aql,pm4,aql", kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "arms: 'aql' twice");
  rl_expect(rl_shadow_arms_parse("pm4-relay,pm4,pm4-relay", kinds, &count),
            RL_STATUS_INVALID_ARGUMENT, "arms: 'pm4-relay' twice");
}

static void rl_windows_parse_and_refuse(void** state) {
  (void)state;
  rl_shadow_window_t window;
  assert_null(rl_shadow_window_parse("30:12", &window));
  assert_int_equal(window.start, 30);
  assert_int_equal(window.count, 12);
  assert_int_equal(window.stride, 1);
  assert_null(rl_shadow_window_parse("-4:3:-2", &window));
  assert_int_equal(window.start, -4);
  assert_int_equal(window.stride, -2);
  assert_int_equal(rl_shadow_window_value(&window, 2), -8);
  rl_expect(rl_shadow_window_parse("30", &window), RL_STATUS_INVALID_ARGUMENT,
            "expected START:COUNT[:STRIDE]");
  rl_expect(rl_shadow_window_parse("1:2:3:4", &window),
            RL_STATUS_INVALID_ARGUMENT, "expected START:COUNT[:STRIDE]");
  rl_expect(rl_shadow_window_parse("x:2", &window), RL_STATUS_INVALID_ARGUMENT,
            "'x:2': START");
  rl_expect(rl_shadow_window_parse("1:0", &window), RL_STATUS_INVALID_ARGUMENT,
            "': COUNT");
  rl_expect(rl_shadow_window_parse("9223372036854775807:2", &window),
            RL_STATUS_INVALID_ARGUMENT, "does not fit 64 bits");
}

static int rl_setup(void** state) {
  *state = rl_shadow_test_record_vecchain();
  return *state ? 0 : -1;
}

static int rl_teardown(void** state) {
  rl_capture_destroy(*state);
  return 0;
}

// Runs the shadow of |capture| with |options| and expects a refusal.
static void rl_expect_refused(const rl_capture_t* capture,
                              const rl_shadow_options_t* options,
                              rl_status_code_t code, const char* needle) {
  rl_shadow_result_t* result = (rl_shadow_result_t*)1;
  rl_expect(rl_shadow_run(capture, options, &result), code, needle);
  assert_null(result);
}

// Every refusal of the run's options, each against the same options that
// run (the last case).
static void rl_run_refuses_bad_options(void** state) {
  const rl_capture_t* capture = *state;
  rl_shadow_options_t options = rl_shadow_test_options("eager,aql");
  options.arm_count = 0;
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT,
                    "0 arms (1..16)");
  options = rl_shadow_test_options("eager,aql");
  options.device.kind = "gpu";
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT,
                    "device 'gpu': expected sim, rocr or drm");
  options.device.kind = "drm";
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT,
                    "arm eager cannot run on device drm");
  options = rl_shadow_test_options("eager,aql");
  options.oracle = "most";
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT,
                    "oracle 'most': expected sample, full or off");
  options = rl_shadow_test_options("eager,aql");
  options.bind_count = 1;
  options.binds[0] = (rl_shadow_bind_t){.buffer = capture->buffer_count,
                                        .size = 64};
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT, "bind 0");
  options.binds[0] = (rl_shadow_bind_t){.buffer = 0, .size = 0};
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT,
                    "size 0");
  options = rl_shadow_test_options("eager,aql");
  options.flip = true;
  options.flip_region = capture->region_count;
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT,
                    "flip: region 4 of 4");
  options.flip_region = 1;
  options.flip_offset = capture->regions[1].size;
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT,
                    "is outside region out");
  options = rl_shadow_test_options("eager,recorded");
  options.flip = true;
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_ARGUMENT,
                    "flip: needs a retained or HIP arm");
  // A window the parameter does not admit: a contract failure.
  options = rl_shadow_test_options("eager,aql");
  options.window.start = capture->params[capture->windows[0].param].max - 1;
  rl_expect_refused(capture, &options, RL_STATUS_CONTRACT,
                    "is outside the admitted range");
  options = rl_shadow_test_options("eager,aql");
  options.limits.max_windows = 1;
  rl_expect_refused(capture, &options, RL_STATUS_INVALID_INPUT,
                    "2 windows exceed the limit of 1");
  // The control: the same options without a defect run and pass.
  options = rl_shadow_test_options("eager,aql");
  rl_shadow_result_t* result = NULL;
  assert_null(rl_shadow_run(capture, &options, &result));
  assert_true(result->pass);
  rl_shadow_result_destroy(result);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_arm_lists_parse_in_order),
      cmocka_unit_test(rl_arm_lists_refused),
      cmocka_unit_test(rl_windows_parse_and_refuse),
      cmocka_unit_test(rl_run_refuses_bad_options),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
