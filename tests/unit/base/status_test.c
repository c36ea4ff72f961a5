// Tests of the status model (redline/status.h).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redline/status.h"

static rl_status_t rl_test_fail_at_depth(int depth) {
  if (depth == 0) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT, "kernarg size %u, expected %u",
                     24u, 28u);
  }
  RL_RETURN_IF_ERROR(rl_status_annotate(rl_test_fail_at_depth(depth - 1),
                                        "launch %d", depth));
  return RL_OK;
}

static void test_ok_is_null_and_reads_as_ok(void** state) {
  (void)state;
  assert_null(RL_OK);
  assert_int_equal(rl_status_code(RL_OK), RL_STATUS_OK);
  assert_string_equal(rl_status_message(RL_OK), "OK");
  assert_null(rl_status_annotate(RL_OK, "ignored %d", 1));
  rl_status_free(RL_OK);
}

static void test_annotation_prepends_context_outermost_first(void** state) {
  (void)state;
  rl_status_t status = rl_test_fail_at_depth(2);
  status = rl_status_annotate(status, "section LAUNCHES, byte %d", 212);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_INPUT);
  assert_string_equal(rl_status_message(status),
                      "section LAUNCHES, byte 212: launch 2: launch 1: "
                      "kernarg size 24, expected 28");
  assert_non_null(strstr(rl_status_file(status), "status_test.c"));
  assert_true(rl_status_line(status) > 0);
  rl_status_free(status);
}

static void test_join_keeps_primary_and_appends_secondary(void** state) {
  (void)state;
  rl_status_t primary = RL_STATUS(RL_STATUS_POISONED, "guard of kv corrupt");
  rl_status_t secondary = RL_STATUS(RL_STATUS_IO, "cannot unlink tmp");
  rl_status_t joined = rl_status_join(primary, secondary);
  assert_ptr_equal(joined, primary);
  assert_int_equal(rl_status_code(joined), RL_STATUS_POISONED);
  assert_string_equal(rl_status_message(joined),
                      "guard of kv corrupt; also: cannot unlink tmp");
  rl_status_free(joined);
  rl_status_t only = RL_STATUS(RL_STATUS_IO, "x");
  assert_ptr_equal(rl_status_join(RL_OK, only), only);
  rl_status_free(only);
}

static void test_out_of_memory_status_is_static(void** state) {
  (void)state;
  rl_status_t oom = rl_status_out_of_memory();
  assert_int_equal(rl_status_code(oom), RL_STATUS_OUT_OF_MEMORY);
  assert_ptr_equal(rl_status_annotate(oom, "ctx"), oom);
  assert_string_equal(rl_status_message(oom), "out of memory");
  rl_status_free(oom);  // must be a no-op
  assert_int_equal(rl_status_code(rl_status_out_of_memory()),
                   RL_STATUS_OUT_OF_MEMORY);
}

static void test_ok_code_cannot_be_made(void** state) {
  (void)state;
  rl_status_t status = RL_STATUS(RL_STATUS_OK, "not really ok");
  assert_non_null(status);
  assert_int_equal(rl_status_code(status), RL_STATUS_INTERNAL);
  rl_status_free(status);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ok_is_null_and_reads_as_ok),
      cmocka_unit_test(test_annotation_prepends_context_outermost_first),
      cmocka_unit_test(test_join_keeps_primary_and_appends_secondary),
      cmocka_unit_test(test_out_of_memory_status_is_static),
      cmocka_unit_test(test_ok_code_cannot_be_made),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
