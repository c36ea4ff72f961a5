// The shadow's report writer and verdict (shadow_report.c, shadow_run.c's
// rl_shadow_result_code) on hand-made results: a passing result says PASS
// with its counts and exit class 0; a failing one says FAIL with its
// reason in one bounded line, in the text, the summary and the JSON; the
// exit class is the first failed arm's status code, else a mismatch.
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

// An empty capture the results name (workload "report").
static rl_capture_t* rl_capture;

static int rl_setup(void** state) {
  (void)state;
  return rl_capture_create("report", &rl_capture) == RL_OK ? 0 : -1;
}

static int rl_teardown(void** state) {
  (void)state;
  rl_capture_destroy(rl_capture);
  return 0;
}

// Two available arms (aql, pm4), no windows or regions walked.
static void rl_result_init(rl_shadow_result_t* result, bool pass) {
  memset(result, 0, sizeof(*result));
  result->capture = rl_capture;
  result->param = UINT32_MAX;
  result->arm_count = 2;
  const rl_shadow_arm_kind_t kinds[2] = {RL_SHADOW_ARM_AQL, RL_SHADOW_ARM_PM4};
  for (uint32_t a = 0; a < 2; ++a) {
    rl_shadow_arm_result_t* arm = &result->arms[a];
    arm->kind = kinds[a];
    snprintf(arm->name, sizeof(arm->name), "%s",
             rl_shadow_arm_kind_name(kinds[a]));
    arm->executor = "ref";
    arm->available = true;
    arm->proof_ok = true;
    arm->proof.route = rl_shadow_arm_kind_name(kinds[a]);
    snprintf(arm->proof.device, sizeof(arm->proof.device), "sim");
  }
  snprintf(result->independent_reference,
           sizeof(result->independent_reference), "none: test");
  result->pass = pass;
}

static void rl_pass_says_pass(void** state) {
  (void)state;
  rl_shadow_result_t result;
  rl_result_init(&result, true);
  assert_int_equal(rl_shadow_result_code(&result), RL_STATUS_OK);
  char* text = rl_shadow_report_text(&result);
  assert_non_null(strstr(text, "shadow: PASS (2 arms x 0 windows x 0 regions"));
  assert_null(strstr(text, "FAIL"));
  free(text);
  char* summary = rl_shadow_report_summary(&result);
  assert_non_null(strstr(summary, "shadow: PASS"));
  free(summary);
  cJSON* json = rl_shadow_report_json(&result);
  assert_non_null(json);
  char* printed = cJSON_PrintUnformatted(json);
  assert_non_null(strstr(printed, "\"verdict\":\"PASS\""));
  free(printed);
  cJSON_Delete(json);
}

// The verdict line stays one line within its bound, the reason cut with
// "..." (the JSON keeps it whole).
static void rl_fail_says_why_in_one_line(void** state) {
  (void)state;
  rl_shadow_result_t result;
  rl_result_init(&result, false);
  memset(result.reason, 'x', 400);
  result.reason[400] = '\0';
  memcpy(result.reason, "arm pm4: ", 9);
  char* text = rl_shadow_report_text(&result);
  const char* verdict = strstr(text, "shadow: FAIL (arm pm4: xxx");
  assert_non_null(verdict);
  const char* end = strchr(verdict, '\n');
  assert_non_null(end);
  assert_true(end - verdict <= 200);
  assert_memory_equal(end - 4, "...)", 4);
  assert_null(strstr(text, "shadow: PASS"));
  free(text);
  cJSON* json = rl_shadow_report_json(&result);
  char* printed = cJSON_PrintUnformatted(json);
  assert_non_null(strstr(printed, "\"verdict\":\"FAIL\""));
  assert_non_null(strstr(printed, result.reason));
  free(printed);
  cJSON_Delete(json);
}

// Merging the arms into one exit class: the first arm that failed with a
// status code wins; a failure without one (a divergence) is a mismatch.
static void rl_result_code_merges_arms(void** state) {
  (void)state;
  rl_shadow_result_t result;
  rl_result_init(&result, false);
  assert_int_equal(rl_shadow_result_code(&result), RL_STATUS_MISMATCH);
  result.arms[0].failed = true;  // failed, no status: still a mismatch
  assert_int_equal(rl_shadow_result_code(&result), RL_STATUS_MISMATCH);
  result.arms[1].failed = true;
  result.arms[1].failure_code = RL_STATUS_PREPARE;
  assert_int_equal(rl_shadow_result_code(&result), RL_STATUS_PREPARE);
  result.arms[0].failure_code = RL_STATUS_CONTRACT;
  assert_int_equal(rl_shadow_result_code(&result), RL_STATUS_CONTRACT);
  result.pass = true;  // a pass overrides what the arms say
  assert_int_equal(rl_shadow_result_code(&result), RL_STATUS_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_pass_says_pass),
      cmocka_unit_test(rl_fail_says_why_in_one_line),
      cmocka_unit_test(rl_result_code_merges_arms),
  };
  return cmocka_run_group_tests(tests, rl_setup, rl_teardown);
}
