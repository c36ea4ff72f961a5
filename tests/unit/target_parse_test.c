// rl_target_parse (redline/code_object.h): the one parser of target
// strings, for full targets and bare processors, with the failures it
// names.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redline/code_object.h"

static void test_target_parse_reads_processor_and_features(void** state) {
  (void)state;
  rl_target_t target;
  assert_null(rl_target_parse("amdgcn-amd-amdhsa--gfx1100:xnack-", &target));
  assert_string_equal(target.processor, "gfx1100");
  assert_int_equal(target.gfx_major, 11);
  assert_int_equal(target.xnack, RL_TARGET_FEATURE_OFF);
  assert_int_equal(target.sramecc, RL_TARGET_FEATURE_ANY);
  assert_null(
      rl_target_parse("amdgcn-amd-amdhsa--gfx1201:sramecc+:xnack+", &target));
  assert_string_equal(target.processor, "gfx1201");
  assert_int_equal(target.gfx_major, 12);
  assert_int_equal(target.xnack, RL_TARGET_FEATURE_ON);
  assert_int_equal(target.sramecc, RL_TARGET_FEATURE_ON);
}

static void test_target_parse_accepts_a_bare_processor(void** state) {
  (void)state;
  rl_target_t target;
  assert_null(rl_target_parse("gfx1151", &target));
  assert_string_equal(target.processor, "gfx1151");
  assert_int_equal(target.gfx_major, 11);
  assert_int_equal(target.xnack, RL_TARGET_FEATURE_ANY);
}

static void rl_expect_invalid(const char* text, const char* in_message) {
  rl_target_t target;
  memset(&target, 0xCC, sizeof(target));
  rl_status_t status = rl_target_parse(text, &target);
  assert_non_null(status);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_non_null(strstr(rl_status_message(status), in_message));
  rl_status_free(status);
  assert_string_equal(target.processor, "");  // cleared on entry
}

static void test_target_parse_refuses_unknown_or_missing_parts(void** state) {
  (void)state;
  rl_expect_invalid(NULL, "got nothing");
  rl_expect_invalid("", "got nothing");
  rl_expect_invalid("amdgcn-amd-amdhsa--gfx9999", "unknown processor 'gfx9999'");
  rl_expect_invalid("amdgcn-amd-amdhsa--gfx1100:wavefrontsize64+",
                    "unknown feature 'wavefrontsize64+'");
  rl_expect_invalid("amdgcn-amd-amdhsa--gfx1100:xnack", "unknown feature");
  rl_expect_invalid("gfx11000", "unknown processor");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_target_parse_reads_processor_and_features),
      cmocka_unit_test(test_target_parse_accepts_a_bare_processor),
      cmocka_unit_test(test_target_parse_refuses_unknown_or_missing_parts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
