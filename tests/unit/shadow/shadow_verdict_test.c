// How the shadow turns region differences into its verdict (shadow_run.c
// through rl_shadow_run, on an in-process vecchain capture, two windows
// pos = 1, 2): arms that agree pass with no reason; one byte flipped in one
// arm's region (the run's own negative control) is the first divergence,
// named in the cause line by window, parameter value, region, arm, byte
// offset and count, with the element holding it (rounded down to the
// region type's element) in both arms, only that arm marked diverged, and
// the exit class a mismatch; an arm that failed outranks a divergence in
// the cause line and gives the exit class. The passing run is the negative
// of each: the same arms without the flip.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "redline/capture.h"
#include "shadow/shadow.h"
#include "tests/unit/shadow/shadow_test_capture.h"

static int rl_setup(void** state) {
  *state = rl_shadow_test_record_vecchain();
  return *state ? 0 : -1;
}

static int rl_teardown(void** state) {
  rl_capture_destroy(*state);
  return 0;
}

static rl_shadow_result_t* rl_run(const rl_capture_t* capture,
                                  const rl_shadow_options_t* options) {
  rl_shadow_result_t* result = NULL;
  rl_status_t status = rl_shadow_run(capture, options, &result);
  if (status) fail_msg("shadow refused: %s", rl_status_message(status));
  assert_non_null(result);
  return result;
}

static uint32_t rl_region(const rl_capture_t* capture, const char* name) {
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    if (strcmp(capture->regions[r].name, name) == 0) return r;
  }
  fail_msg("no region %s", name);
  return 0;
}

// Arms that agree: PASS, no reason, exit class 0, every region state of
// every arm present and equal, no arm diverged.
static void rl_agreeing_arms_pass(void** state) {
  const rl_capture_t* capture = *state;
  rl_shadow_options_t options = rl_shadow_test_options("eager,aql,pm4");
  rl_shadow_result_t* result = rl_run(capture, &options);
  if (!result->pass) fail_msg("reason: %s", result->reason);
  assert_string_equal(result->reason, "");
  assert_int_equal(rl_shadow_result_code(result), RL_STATUS_OK);
  assert_false(result->diverged);
  assert_int_equal(result->window_count, 2);
  assert_int_equal(result->region_count, 4);
  for (uint32_t w = 0; w < 2; ++w) {
    for (uint32_t r = 0; r < 4; ++r) {
      for (uint32_t a = 0; a < 3; ++a) {
        const rl_shadow_cell_t* cell = rl_shadow_result_cell(result, w, r, a);
        assert_true(cell->present);
        assert_true(cell->equal);
        assert_int_equal(cell->differing_bytes, 0);
      }
    }
  }
  for (uint32_t a = 0; a < 3; ++a) assert_false(result->arms[a].diverged);
  rl_shadow_result_destroy(result);
}

// One byte flipped in region |name| at |offset| of the flip arm (the IB
// reference pm4 when present, else the last retained arm).
static rl_shadow_result_t* rl_run_flipped(const rl_capture_t* capture,
                                          const char* arms, const char* name,
                                          uint64_t offset) {
  rl_shadow_options_t options = rl_shadow_test_options(arms);
  options.flip = true;
  options.flip_region = rl_region(capture, name);
  options.flip_offset = offset;
  return rl_run(capture, &options);
}

// The cause line and the first divergence of a byte flipped in arm aql's
// f32 region y, byte 6: element 4..8.
static void rl_flipped_byte_is_the_cause(void** state) {
  const rl_capture_t* capture = *state;
  rl_shadow_result_t* result = rl_run_flipped(capture, "eager,aql", "y", 6);
  assert_false(result->pass);
  assert_string_equal(result->reason,
                      "window 0 (pos=1): region y differs in arm aql at "
                      "offset 6 (1 byte differs)");
  assert_int_equal(rl_shadow_result_code(result), RL_STATUS_MISMATCH);
  assert_true(result->diverged);
  assert_int_equal(result->first_window, 0);
  assert_int_equal(result->first_region, rl_region(capture, "y"));
  assert_int_equal(result->first_arm, 1);
  assert_int_equal(result->first_offset, 6);
  assert_int_equal(result->first_element_size, 4);
  assert_int_equal(result->first_element_offset, 4);
  // The element differs in byte 2 (offset 6) only.
  for (int b = 0; b < 4; ++b) {
    assert_int_equal(result->first_reference_value[b] !=
                         result->first_arm_value[b],
                     b == 2);
  }
  const rl_shadow_cell_t* cell =
      rl_shadow_result_cell(result, 0, result->first_region, 1);
  assert_false(cell->equal);
  assert_int_equal(cell->first_difference, 6);
  assert_int_equal(cell->differing_bytes, 1);
  assert_true(cell->has_max_abs);
  // Every other region of window 0 equal; only aql diverged.
  for (uint32_t r = 0; r < result->region_count; ++r) {
    if (r == result->first_region) continue;
    assert_true(rl_shadow_result_cell(result, 0, r, 1)->equal);
  }
  assert_false(result->arms[0].diverged);
  assert_true(result->arms[1].diverged);
  // The report says the same: the JSON's first divergence and reason.
  cJSON* json = rl_shadow_report_json(result);
  const cJSON* first = cJSON_GetObjectItem(json, "first_divergence");
  assert_non_null(first);
  assert_int_equal(cJSON_GetObjectItem(first, "element_offset")->valueint, 4);
  assert_string_equal(cJSON_GetObjectItem(json, "reason")->valuestring,
                      result->reason);
  cJSON_Delete(json);
  rl_shadow_result_destroy(result);
}

// A u32 region: the element is the 4 bytes holding the offset; the flip
// goes to the IB reference pm4 when it runs, and the cause names it.
static void rl_cause_names_the_flipped_arm(void** state) {
  const rl_capture_t* capture = *state;
  rl_shadow_result_t* result =
      rl_run_flipped(capture, "eager,pm4,aql", "io", 5);
  assert_string_equal(result->reason,
                      "window 0 (pos=1): region io differs in arm pm4 at "
                      "offset 5 (1 byte differs)");
  assert_int_equal(result->first_arm, 1);
  assert_int_equal(result->first_element_offset, 4);
  assert_int_equal(result->first_element_size, 4);
  assert_false(rl_shadow_result_cell(result, 0, result->first_region, 1)
                   ->has_max_abs);
  assert_true(result->arms[1].diverged);
  assert_false(result->arms[2].diverged);
  rl_shadow_result_destroy(result);
}

// An arm that failed (hip without the HIP runtime's arm factory: not
// available) outranks the divergence of another arm: the cause line is the
// failed arm's, and so is the exit class.
static void rl_failed_arm_outranks_divergence(void** state) {
  const rl_capture_t* capture = *state;
  rl_shadow_result_t* result =
      rl_run_flipped(capture, "eager,hip,aql", "y", 6);
  assert_false(result->pass);
  assert_true(result->diverged);  // aql's flip was still seen
  assert_true(result->arms[2].diverged);
  assert_true(result->arms[1].failed);
  char expected[800];
  snprintf(expected, sizeof(expected), "arm hip: %s", result->arms[1].failure);
  assert_string_equal(result->reason, expected);
  assert_non_null(strstr(result->reason, "arm hip: not available: "));
  assert_int_not_equal(result->arms[1].failure_code, RL_STATUS_OK);
  assert_int_equal(rl_shadow_result_code(result),
                   result->arms[1].failure_code);
  rl_shadow_result_destroy(result);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_agreeing_arms_pass),
      cmocka_unit_test(rl_flipped_byte_is_the_cause),
      cmocka_unit_test(rl_cause_names_the_flipped_arm),
      cmocka_unit_test(rl_failed_arm_outranks_divergence),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
