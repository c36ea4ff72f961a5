// Tests of the step period (capture/recording/step_split.h rl_step_period): the
// step of a decode-like sequence, found past a prefix and a tail and not
// confused with the layers repeating inside it. rl_step_split and
// rl_step_compare run on real captures in tests/hip_corpus/decode.sh.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "capture/recording/step_split.h"

// Letters as signatures: "ab" -> {'a', 'b'}.
static uint32_t rl_test_items(const char* text, uint64_t* items) {
  uint32_t n = 0;
  for (; text[n]; ++n) items[n] = (uint64_t)(unsigned char)text[n];
  return n;
}

static void rl_test_expect(const char* text, uint32_t offset, uint32_t period,
                           uint32_t repeats) {
  uint64_t items[256];
  uint32_t n = rl_test_items(text, items);
  uint32_t o = 99, p = 99, r = 99;
  rl_status_t status = rl_step_period(items, n, &o, &p, &r);
  assert_null(status);
  assert_int_equal(o, offset);
  assert_int_equal(p, period);
  assert_int_equal(r, repeats);
}

static void test_decode_step_past_prefix_and_layers(void** state) {
  (void)state;
  // Uploads "uuuf", then 5 steps: copy "c", two layers "mmrcsa", logits "l".
  // The layers repeat twice inside each step; the step repeats 5 times.
  rl_test_expect("uuuf" "cmmrcsammrcsal" "cmmrcsammrcsal" "cmmrcsammrcsal"
                 "cmmrcsammrcsal" "cmmrcsammrcsal" "zz",
                 4, 14, 5);
}

static void test_smallest_period_among_equal_stretches(void** state) {
  (void)state;
  rl_test_expect("abababab", 0, 2, 4);  // not 4 (2 repeats of "abab")
  rl_test_expect("xabcabc", 1, 3, 2);
}

static void test_nothing_repeats_is_refused(void** state) {
  (void)state;
  uint64_t items[16];
  uint32_t n = rl_test_items("abcdefg", items);
  uint32_t o = 1, p = 1, r = 1;
  rl_status_t status = rl_step_period(items, n, &o, &p, &r);
  assert_non_null(status);
  assert_int_equal(rl_status_code(status), RL_STATUS_CONTRACT);
  assert_non_null(strstr(rl_status_message(status), "--step-start"));
  rl_status_free(status);
  assert_int_equal(o + p + r, 0);
  // Negative control of the control: one more "abcdefg" repeats.
  n = rl_test_items("abcdefgabcdefg", items);
  status = rl_step_period(items, n, &o, &p, &r);
  assert_null(status);
  assert_int_equal(p, 7);
}

static void test_signature_separates_geometry(void** state) {
  (void)state;
  const uint32_t a[3] = {64, 1, 1}, b[3] = {32, 1, 1};
  assert_true(rl_step_signature("rope", a, 0) == rl_step_signature("rope", a, 0));
  assert_true(rl_step_signature("rope", a, 0) != rl_step_signature("rope", b, 0));
  assert_true(rl_step_signature("rope", a, 0) != rl_step_signature("rope", a, 16));
  assert_true(rl_step_signature("rope", a, 0) != rl_step_signature("ropf", a, 0));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decode_step_past_prefix_and_layers),
      cmocka_unit_test(test_smallest_period_among_equal_stretches),
      cmocka_unit_test(test_nothing_repeats_is_refused),
      cmocka_unit_test(test_signature_separates_geometry),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
