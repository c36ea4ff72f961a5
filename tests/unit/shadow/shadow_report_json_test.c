// The shadow's report (shadow_report.c) on a hand-made result of two arms,
// one window and two regions, one equal and one differing: the JSON
// document's fields (header, window, every region state with its XXH3-128
// as 32 hex digits high half first, the first divergence with the element's
// bytes, verdict and reason) and the text table's rows. The digests are the
// known XXH3-128 values of two inputs (tests/unit/base/digest_test.c has
// them from xxhsum -H2), so a digest written from the wrong bytes or with
// its halves swapped fails. Each check has its negative: a result whose
// regions all agree has no first divergence and says so.
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
#include "redline/digest.h"
#include "shadow/shadow.h"

// XXH3-128 of "" and of "PM4 replay" (xxhsum -H2).
#define RL_EMPTY_XXH3 "99aa06d3014798d86001c324468d497f"
#define RL_PM4_REPLAY_XXH3 "77ef09b4154875a9e90ac8623f726924"

// A capture with one buffer, parameter pos and two regions of it: x (u32,
// 8 bytes) and y (f32, 8 bytes).
static rl_capture_t* rl_capture;

static int rl_setup(void** state) {
  (void)state;
  if (rl_capture_create("report", &rl_capture) != RL_OK) return -1;
  uint32_t index = 0;
  rl_capture_buffer_t buffer = {.name = "state", .size = 16, .alignment = 16};
  rl_capture_param_t param = {.name = "pos", .min = 0, .max = 100};
  rl_capture_region_t x = {.name = "x", .size = 8, .type = RL_REGION_U32};
  rl_capture_region_t y = {.name = "y", .offset = 8, .size = 8,
                           .type = RL_REGION_F32};
  return rl_capture_add_buffer(rl_capture, &buffer, &index) ||
                 rl_capture_add_param(rl_capture, &param, &index) ||
                 rl_capture_add_region(rl_capture, &x, &index) ||
                 rl_capture_add_region(rl_capture, &y, &index)
             ? -1
             : 0;
}

static int rl_teardown(void** state) {
  (void)state;
  rl_capture_destroy(rl_capture);
  return 0;
}

// Arms eager (the reference) and aql, window pos = 7 (one step), both
// regions equal in both arms: x's digest that of "", y's that of
// "PM4 replay". |cells| holds the 2 x 2 cells.
static void rl_result_init(rl_shadow_result_t* result, rl_shadow_cell_t* cells) {
  memset(result, 0, sizeof(*result));
  result->capture = rl_capture;
  result->param = 0;
  result->window = (rl_shadow_window_t){.start = 7, .count = 1, .stride = 1};
  result->window_count = 1;
  result->region_count = 2;
  result->arm_count = 2;
  const rl_shadow_arm_kind_t kinds[2] = {RL_SHADOW_ARM_EAGER,
                                         RL_SHADOW_ARM_AQL};
  for (uint32_t a = 0; a < 2; ++a) {
    rl_shadow_arm_result_t* arm = &result->arms[a];
    arm->kind = kinds[a];
    snprintf(arm->name, sizeof(arm->name), "%s",
             rl_shadow_arm_kind_name(kinds[a]));
    arm->available = true;
    arm->proof_ok = true;
  }
  memset(cells, 0, 4 * sizeof(*cells));
  for (uint32_t a = 0; a < 2; ++a) {
    cells[a] = (rl_shadow_cell_t){
        .present = true, .equal = true, .digest = rl_digest128_of("", 0)};
    cells[2 + a] = (rl_shadow_cell_t){
        .present = true, .equal = true,
        .digest = rl_digest128_of("PM4 replay", 10)};
  }
  result->cells = cells;
  result->pass = true;
}

// Makes arm aql's y differ at byte 6 (element 4..8: 2.0f against the
// reference's 1.0f) and the verdict a FAIL with |reason|.
static void rl_result_diverge(rl_shadow_result_t* result, const char* reason) {
  rl_shadow_cell_t* y = &result->cells[2 + 1];
  y->equal = false;
  y->first_difference = 6;
  y->differing_bytes = 2;
  y->has_max_abs = true;
  y->max_abs_difference = 1.0;
  y->digest = rl_digest128_of("", 0);
  result->arms[1].diverged = true;
  result->diverged = true;
  result->first_window = 0;
  result->first_region = 1;
  result->first_arm = 1;
  result->first_offset = 6;
  result->first_element_size = 4;
  result->first_element_offset = 4;
  const float one = 1.0f, two = 2.0f;
  memcpy(result->first_reference_value, &one, 4);
  memcpy(result->first_arm_value, &two, 4);
  result->pass = false;
  snprintf(result->reason, sizeof(result->reason), "%s", reason);
}

static const cJSON* rl_item(const cJSON* object, const char* name) {
  const cJSON* item = cJSON_GetObjectItemCaseSensitive(object, name);
  if (!item) fail_msg("JSON: no \"%s\"", name);
  return item;
}

static const char* rl_string(const cJSON* object, const char* name) {
  const cJSON* item = rl_item(object, name);
  assert_true(cJSON_IsString(item));
  return item->valuestring;
}

static double rl_number(const cJSON* object, const char* name) {
  const cJSON* item = rl_item(object, name);
  assert_true(cJSON_IsNumber(item));
  return item->valuedouble;
}

static bool rl_bool(const cJSON* object, const char* name) {
  const cJSON* item = rl_item(object, name);
  assert_true(cJSON_IsBool(item));
  return cJSON_IsTrue(item);
}

// Region |r| of window 0 in |root|.
static const cJSON* rl_region(const cJSON* root, int r) {
  const cJSON* windows = rl_item(root, "windows");
  assert_int_equal(cJSON_GetArraySize(windows), 1);
  const cJSON* window = cJSON_GetArrayItem(windows, 0);
  assert_int_equal(rl_number(window, "window"), 0);
  assert_int_equal(rl_number(window, "value"), 7);
  return cJSON_GetArrayItem(rl_item(window, "regions"), r);
}

// The header and every region state of a passing result, digests as
// written.
static void rl_json_fields_and_digests(void** state) {
  (void)state;
  rl_shadow_result_t result;
  rl_shadow_cell_t cells[4];
  rl_result_init(&result, cells);
  cJSON* root = rl_shadow_report_json(&result);
  assert_non_null(root);
  assert_string_equal(rl_string(root, "workload"), "report");
  assert_string_equal(rl_string(root, "param"), "pos");
  const cJSON* window = rl_item(root, "window");
  assert_int_equal(rl_number(window, "start"), 7);
  assert_int_equal(rl_number(window, "count"), 1);
  assert_int_equal(rl_number(window, "stride"), 1);
  const cJSON* arms = rl_item(root, "arms");
  assert_int_equal(cJSON_GetArraySize(arms), 2);
  assert_string_equal(rl_string(cJSON_GetArrayItem(arms, 1), "arm"), "aql");
  assert_string_equal(rl_string(cJSON_GetArrayItem(arms, 1), "kind"), "aql");
  const char* names[2] = {"x", "y"};
  const char* types[2] = {"u32", "f32"};
  const char* digests[2] = {RL_EMPTY_XXH3, RL_PM4_REPLAY_XXH3};
  for (int r = 0; r < 2; ++r) {
    const cJSON* region = rl_region(root, r);
    assert_string_equal(rl_string(region, "region"), names[r]);
    assert_string_equal(rl_string(region, "type"), types[r]);
    assert_int_equal(rl_number(region, "size"), 8);
    assert_true(rl_bool(region, "equal"));
    const cJSON* states = rl_item(region, "arms");
    assert_int_equal(cJSON_GetArraySize(states), 2);
    for (int a = 0; a < 2; ++a) {
      const cJSON* cell = cJSON_GetArrayItem(states, a);
      assert_string_equal(rl_string(cell, "arm"), a ? "aql" : "eager");
      assert_string_equal(rl_string(cell, "xxh3_128"), digests[r]);
      assert_true(rl_bool(cell, "equal"));
      assert_null(cJSON_GetObjectItem(cell, "first_difference"));
    }
  }
  // Negative: a passing result has no divergence to report.
  assert_null(cJSON_GetObjectItem(root, "first_divergence"));
  assert_null(cJSON_GetObjectItem(root, "negative_control"));
  assert_string_equal(rl_string(root, "verdict"), "PASS");
  assert_string_equal(rl_string(root, "reason"), "");
  cJSON_Delete(root);
}

// A differing region: its state says where and how much, the region is not
// equal (the other one still is), the first divergence carries the
// element's bytes in memory order, the verdict FAIL and the reason whole.
static void rl_json_divergence(void** state) {
  (void)state;
  rl_shadow_result_t result;
  rl_shadow_cell_t cells[4];
  rl_result_init(&result, cells);
  rl_result_diverge(&result, "window 0 (pos=7): region y differs in arm aql");
  result.cells[1].present = false;  // x not read in aql: left out
  cJSON* root = rl_shadow_report_json(&result);
  assert_non_null(root);
  const cJSON* x = rl_region(root, 0);
  assert_true(rl_bool(x, "equal"));
  assert_int_equal(cJSON_GetArraySize(rl_item(x, "arms")), 1);
  const cJSON* y = rl_region(root, 1);
  assert_false(rl_bool(y, "equal"));
  const cJSON* reference = cJSON_GetArrayItem(rl_item(y, "arms"), 0);
  assert_true(rl_bool(reference, "equal"));
  assert_string_equal(rl_string(reference, "xxh3_128"), RL_PM4_REPLAY_XXH3);
  const cJSON* cell = cJSON_GetArrayItem(rl_item(y, "arms"), 1);
  assert_false(rl_bool(cell, "equal"));
  assert_string_equal(rl_string(cell, "xxh3_128"), RL_EMPTY_XXH3);
  assert_int_equal(rl_number(cell, "first_difference"), 6);
  assert_int_equal(rl_number(cell, "differing_bytes"), 2);
  assert_true(rl_number(cell, "max_abs_difference") == 1.0);
  const cJSON* first = rl_item(root, "first_divergence");
  assert_int_equal(rl_number(first, "window"), 0);
  assert_string_equal(rl_string(first, "region"), "y");
  assert_string_equal(rl_string(first, "arm"), "aql");
  assert_int_equal(rl_number(first, "offset"), 6);
  assert_int_equal(rl_number(first, "element_offset"), 4);
  assert_string_equal(rl_string(first, "reference_bytes"), "0000803f");
  assert_string_equal(rl_string(first, "arm_bytes"), "00000040");
  assert_string_equal(rl_string(root, "verdict"), "FAIL");
  assert_string_equal(rl_string(root, "reason"), result.reason);
  cJSON_Delete(root);
  // A non-finite difference has no JSON number: the string "inf".
  result.cells[3].max_abs_difference = 1.0 / 0.0;
  root = rl_shadow_report_json(&result);
  cell = cJSON_GetArrayItem(rl_item(rl_region(root, 1), "arms"), 1);
  assert_string_equal(rl_string(cell, "max_abs_difference"), "inf");
  cJSON_Delete(root);
}

// The negative control is reported where it was applied.
static void rl_json_negative_control(void** state) {
  (void)state;
  rl_shadow_result_t result;
  rl_shadow_cell_t cells[4];
  rl_result_init(&result, cells);
  rl_result_diverge(&result, "window 0 (pos=7): region y differs in arm aql");
  result.flip = true;
  result.flip_arm = 1;
  result.flip_region = 1;
  result.flip_offset = 6;
  cJSON* root = rl_shadow_report_json(&result);
  const cJSON* flip = rl_item(root, "negative_control");
  assert_string_equal(rl_string(flip, "arm"), "aql");
  assert_string_equal(rl_string(flip, "region"), "y");
  assert_int_equal(rl_number(flip, "offset"), 6);
  cJSON_Delete(root);
  char* text = rl_shadow_report_text(&result);
  assert_non_null(strstr(text, "negative control: flipped byte 6 of region y "
                               "in arm aql after window 0\n"));
  free(text);
}

// The text table: one row per equal region with its digest, a DIFFERS row
// with a line per arm, the first divergence with both elements' values.
static void rl_text_table(void** state) {
  (void)state;
  rl_shadow_result_t result;
  rl_shadow_cell_t cells[4];
  rl_result_init(&result, cells);
  char* text = rl_shadow_report_text(&result);
  assert_non_null(strstr(text, "equal (2 arms)     " RL_EMPTY_XXH3));
  assert_non_null(strstr(text, "equal (2 arms)     " RL_PM4_REPLAY_XXH3));
  assert_null(strstr(text, "DIFFERS"));
  assert_null(strstr(text, "first divergence"));
  assert_non_null(strstr(text, "shadow: PASS (2 arms x 1 windows x 2 regions "
                               "byte-identical)\n"));
  free(text);
  rl_result_diverge(&result, "window 0 (pos=7): region y differs in arm aql");
  text = rl_shadow_report_text(&result);
  assert_non_null(strstr(text, "DIFFERS\n"));
  assert_non_null(strstr(text, "equal               " RL_PM4_REPLAY_XXH3));
  assert_non_null(strstr(text, "first byte 6, 2 bytes differ, max abs 1  "
                               RL_EMPTY_XXH3));
  assert_non_null(strstr(text, "first divergence: window 0 (pos=7), region y "
                               "(f32), byte 6\n"));
  assert_non_null(strstr(text, "@4"));
  assert_non_null(strstr(text, "shadow: FAIL (window 0 (pos=7): region y "
                               "differs in arm aql)\n"));
  assert_null(strstr(text, "shadow: PASS"));
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_json_fields_and_digests),
      cmocka_unit_test(rl_json_divergence),
      cmocka_unit_test(rl_json_negative_control),
      cmocka_unit_test(rl_text_table),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
