// rl_target_parse (redline/code_object.h): the one parser of target
// strings, for full targets and bare processors, with the failures it
// names; and the typed target a capture takes once from its first code
// object (rl_capture_t.typed_target), which every consumer reads instead
// of parsing the string again.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "redline/capture.h"
#include "redline/code_object.h"
#include "tests/support/test_support.h"

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

// For each processor's vecchain code object: the capture's typed target is
// what parsing its target string gives, field by field.
static void capture_typed_target_equals_the_parse_of_its_target(void** state) {
  (void)state;
  static const char* const processors[] = {"gfx1100", "gfx1151", "gfx1201"};
  for (size_t i = 0; i < sizeof(processors) / sizeof(processors[0]); ++i) {
    char path[512];
    snprintf(path, sizeof(path), "%s/vecchain-%s.co", RL_KERNELS_DIR,
             processors[i]);
    size_t size = 0;
    void* bytes = rl_test_read_file(path, &size);
    assert_non_null(bytes);
    rl_capture_t* capture = NULL;
    assert_null(rl_capture_create("typed", &capture));
    uint32_t index = 0;
    assert_null(rl_capture_add_code_object(capture, bytes, size, &index));
    rl_target_t parsed;
    assert_null(rl_target_parse(capture->target, &parsed));
    assert_string_equal(capture->typed_target.processor, processors[i]);
    assert_string_equal(capture->typed_target.processor, parsed.processor);
    assert_int_equal(capture->typed_target.gfx_major, parsed.gfx_major);
    // Where the string names a feature the typed target has it; where it
    // does not, e_flags says "any" or "unsupported" (more than the string).
    rl_target_feature_t typed[2] = {capture->typed_target.xnack,
                                    capture->typed_target.sramecc};
    rl_target_feature_t spelled[2] = {parsed.xnack, parsed.sramecc};
    for (int f = 0; f < 2; ++f) {
      if (spelled[f] != RL_TARGET_FEATURE_ANY) {
        assert_int_equal(typed[f], spelled[f]);
      } else {
        assert_true(typed[f] == RL_TARGET_FEATURE_ANY ||
                    typed[f] == RL_TARGET_FEATURE_UNSUPPORTED);
      }
    }
    assert_string_equal(rl_capture_processor_or(capture, "none"),
                        processors[i]);
    rl_capture_destroy(capture);
    free(bytes);
  }
}

// Negative control: a capture without a code object has no typed target,
// and the helper answers the caller's fallback, not a guess.
static void capture_without_code_object_has_no_typed_target(void** state) {
  (void)state;
  rl_capture_t* capture = NULL;
  assert_null(rl_capture_create("empty", &capture));
  assert_string_equal(capture->typed_target.processor, "");
  assert_int_equal(capture->typed_target.gfx_major, 0);
  assert_string_equal(rl_capture_processor_or(capture, "none"), "none");
  rl_capture_destroy(capture);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_target_parse_reads_processor_and_features),
      cmocka_unit_test(test_target_parse_accepts_a_bare_processor),
      cmocka_unit_test(test_target_parse_refuses_unknown_or_missing_parts),
      cmocka_unit_test(capture_typed_target_equals_the_parse_of_its_target),
      cmocka_unit_test(capture_without_code_object_has_no_typed_target),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
