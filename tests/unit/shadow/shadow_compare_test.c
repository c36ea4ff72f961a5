// Unit tests of the shadow comparator (shadow/shadow_compare.c) with
// hand-made region bytes: the equal case, the first differing offset, the
// differing byte count, the max abs difference of f32/f16/bf16 regions,
// non-finite values, and a negative control that proves the checks can
// fail (a comparison that must report a difference does).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "shadow/shadow_compare.h"

static void rl_put_f32(uint8_t* bytes, uint32_t index, float value) {
  memcpy(bytes + 4 * index, &value, 4);
}

static void rl_test_equal(void** state) {
  (void)state;
  uint8_t a[64], b[64];
  for (int i = 0; i < 64; ++i) a[i] = b[i] = (uint8_t)(i * 7);
  rl_shadow_diff_t diff;
  memset(&diff, 0xCC, sizeof(diff));  // poison: the call must clear it
  rl_shadow_compare(RL_REGION_F32, a, b, sizeof(a), &diff);
  assert_true(diff.equal);
  assert_int_equal(diff.first_difference, 0);
  assert_int_equal(diff.differing_bytes, 0);
  assert_true(diff.has_max_abs);
  assert_true(diff.max_abs_difference == 0.0);
  rl_shadow_compare(RL_REGION_BYTES, a, b, 0, &diff);  // empty region
  assert_true(diff.equal);
}

static void rl_test_first_offset_and_count(void** state) {
  (void)state;
  uint8_t a[32] = {0}, b[32] = {0};
  b[5] = 1;
  b[6] = 2;
  b[31] = 9;
  rl_shadow_diff_t diff;
  rl_shadow_compare(RL_REGION_U32, a, b, sizeof(a), &diff);
  assert_false(diff.equal);
  assert_int_equal(diff.first_difference, 5);
  assert_int_equal(diff.differing_bytes, 3);
  assert_false(diff.has_max_abs);  // integers: no numeric difference
  // The first byte itself.
  memset(b, 0, sizeof(b));
  b[0] = 0x80;
  rl_shadow_compare(RL_REGION_BYTES, a, b, sizeof(a), &diff);
  assert_int_equal(diff.first_difference, 0);
  assert_int_equal(diff.differing_bytes, 1);
}

static void rl_test_f32_max_abs(void** state) {
  (void)state;
  uint8_t a[16], b[16];
  const float ref[4] = {1.0f, -2.0f, 3.5f, 100.0f};
  const float got[4] = {1.0f, -2.25f, 3.5f, 99.0f};
  for (uint32_t i = 0; i < 4; ++i) {
    rl_put_f32(a, i, ref[i]);
    rl_put_f32(b, i, got[i]);
  }
  rl_shadow_diff_t diff;
  rl_shadow_compare(RL_REGION_F32, a, b, sizeof(a), &diff);
  assert_false(diff.equal);
  assert_int_equal(diff.first_difference, 4 + 2);  // -2 vs -2.25: byte 2
  assert_true(diff.has_max_abs);
  assert_true(fabs(diff.max_abs_difference - 1.0) < 1e-12);
  // +0 and -0 differ in bits (byte 3) but by 0 numerically.
  rl_put_f32(a, 0, 0.0f);
  rl_put_f32(b, 0, -0.0f);
  rl_shadow_compare(RL_REGION_F32, a, b, 4, &diff);
  assert_false(diff.equal);
  assert_int_equal(diff.first_difference, 3);
  assert_true(diff.max_abs_difference == 0.0);
  // NaN against a number is an infinite difference, never 0.
  rl_put_f32(b, 0, NAN);
  rl_shadow_compare(RL_REGION_F32, a, b, 4, &diff);
  assert_true(isinf(diff.max_abs_difference));
}

static void rl_test_half_types(void** state) {
  (void)state;
  // f16: 1.0 = 0x3C00, 1.5 = 0x3E00; bf16: 1.0 = 0x3F80, 3.0 = 0x4040.
  uint8_t a[4] = {0x00, 0x3C, 0x00, 0x3C};
  uint8_t b[4] = {0x00, 0x3C, 0x00, 0x3E};
  rl_shadow_diff_t diff;
  rl_shadow_compare(RL_REGION_F16, a, b, 4, &diff);
  assert_int_equal(diff.first_difference, 3);
  assert_true(fabs(diff.max_abs_difference - 0.5) < 1e-12);
  uint8_t c[2] = {0x80, 0x3F}, d[2] = {0x40, 0x40};
  rl_shadow_compare(RL_REGION_BF16, c, d, 2, &diff);
  assert_int_equal(diff.first_difference, 0);
  assert_int_equal(diff.differing_bytes, 2);
  assert_true(fabs(diff.max_abs_difference - 2.0) < 1e-12);
  assert_true(rl_shadow_f16_to_double(0x0001) == ldexp(1.0, -24));
  assert_true(isinf(rl_shadow_f16_to_double(0x7C00)));
}

// Negative control: a single flipped bit deep in a large region must be
// found, at the right offset, and the equal case must not hide it.
static void rl_test_negative_control(void** state) {
  (void)state;
  enum { kSize = 1 << 16 };
  static uint8_t a[kSize], b[kSize];
  memset(a, 0x5A, sizeof(a));
  memcpy(b, a, sizeof(b));
  rl_shadow_diff_t diff;
  rl_shadow_compare(RL_REGION_F32, a, b, kSize, &diff);
  assert_true(diff.equal);
  b[kSize - 3] ^= 0x01;
  rl_shadow_compare(RL_REGION_F32, a, b, kSize, &diff);
  assert_false(diff.equal);
  assert_int_equal(diff.first_difference, kSize - 3);
  assert_int_equal(diff.differing_bytes, 1);
  assert_true(diff.max_abs_difference > 0.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_test_equal),
      cmocka_unit_test(rl_test_first_offset_and_count),
      cmocka_unit_test(rl_test_f32_max_abs),
      cmocka_unit_test(rl_test_half_types),
      cmocka_unit_test(rl_test_negative_control),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
