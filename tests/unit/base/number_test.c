// Tests of the one number parser (base/number.h): decimal with
// leading zeros, explicit 0x, no whitespace or sign tricks, overflow at 2^64
// and 2^63, inclusive ranges, and cleared outputs on failure.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/number.h"

// Parses |text| as u64; returns true on success (the status is checked to
// be INVALID_ARGUMENT and the output cleared on failure).
static bool rl_u64(const char* text, uint64_t* out_value) {
  *out_value = 0xCCCCCCCCCCCCCCCCull;
  rl_status_t status = rl_number_parse_u64(text, out_value);
  if (!status) return true;
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_int_equal(*out_value, 0);
  rl_status_free(status);
  return false;
}

static bool rl_i64(const char* text, int64_t* out_value) {
  *out_value = (int64_t)0xCCCCCCCCCCCCCCCCull;
  rl_status_t status = rl_number_parse_i64(text, out_value);
  if (!status) return true;
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_int_equal(*out_value, 0);
  rl_status_free(status);
  return false;
}

static void number_parse_reads_leading_zeros_as_decimal_and_0x_as_hex(void** state) {
  (void)state;
  uint64_t value = 0;
  assert_true(rl_u64("010", &value));
  assert_int_equal(value, 10);  // decimal, never octal
  assert_true(rl_u64("08", &value));
  assert_int_equal(value, 8);
  assert_true(rl_u64("0x10", &value));
  assert_int_equal(value, 16);
  assert_true(rl_u64("0XfF", &value));
  assert_int_equal(value, 255);
  assert_true(rl_u64("0", &value));
  assert_int_equal(value, 0);
  assert_true(rl_u64("18446744073709551615", &value));
  assert_int_equal(value, UINT64_MAX);
  assert_true(rl_u64("0xffffffffffffffff", &value));
  assert_int_equal(value, UINT64_MAX);
}

static void number_parse_refuses_whitespace_signs_and_other_bases(void** state) {
  (void)state;
  uint64_t value = 0;
  static const char* const junk[] = {
      " 1", "-1", "+1", "1 ", "", "\t1", " -1", "0x", "0x-1", "1x", "x1",
      "1e3", "1.0", "0b1", "--1", "0x 1", "1\n", "0o7"};
  for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); ++i) {
    if (rl_u64(junk[i], &value)) fail_msg("accepted '%s'", junk[i]);
  }
  assert_false(rl_u64(NULL, &value));
}

static void number_parse_refuses_values_over_64_bits(void** state) {
  (void)state;
  uint64_t value = 0;
  assert_false(rl_u64("18446744073709551616", &value));  // 2^64
  assert_false(rl_u64("0x10000000000000000", &value));
  assert_false(rl_u64("99999999999999999999999", &value));
  rl_status_t status = rl_number_parse_u64("18446744073709551616", &value);
  assert_non_null(strstr(rl_status_message(status), "does not fit 64 bits"));
  rl_status_free(status);
  // The message quotes the text and what was expected.
  status = rl_number_parse_u64(" -1", &value);
  assert_string_equal(rl_status_message(status),
                      "' -1' is not a non-negative decimal or 0x-hexadecimal "
                      "number");
  rl_status_free(status);
}

static void number_parse_signed_accepts_a_minus_up_to_the_int64_limits(void** state) {
  (void)state;
  int64_t value = 0;
  assert_true(rl_i64("-010", &value));
  assert_int_equal(value, -10);
  assert_true(rl_i64("-0x10", &value));
  assert_int_equal(value, -16);
  assert_true(rl_i64("9223372036854775807", &value));
  assert_int_equal(value, INT64_MAX);
  assert_true(rl_i64("-9223372036854775808", &value));
  assert_true(value == INT64_MIN);
  assert_false(rl_i64("9223372036854775808", &value));    // 2^63
  assert_false(rl_i64("-9223372036854775809", &value));   // -(2^63 + 1)
  assert_false(rl_i64("18446744073709551616", &value));   // 2^64
  assert_false(rl_i64("+1", &value));
  assert_false(rl_i64(" -1", &value));
  assert_false(rl_i64("- 1", &value));
  assert_false(rl_i64("--1", &value));
  assert_false(rl_i64("-", &value));
  assert_false(rl_i64("", &value));
  assert_false(rl_i64("1 ", &value));
}

static void number_parse_in_range_refuses_values_outside_the_option_range(void** state) {
  (void)state;
  uint64_t value = 0;
  // The replay's --timeout-ms range: milliseconds whose nanoseconds fit.
  const uint64_t max_ms = UINT64_MAX / 1000000u;
  assert_null(rl_number_parse_u64_in("18446744073709", 1, max_ms, &value));
  assert_int_equal(value, max_ms);
  rl_status_t status =
      rl_number_parse_u64_in("18446744073709552", 1, max_ms, &value);
  assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
  assert_string_equal(rl_status_message(status),
                      "'18446744073709552' is outside [1, 18446744073709]");
  assert_int_equal(value, 0);
  rl_status_free(status);
  status = rl_number_parse_u64_in("0", 1, 10, &value);
  assert_non_null(status);
  rl_status_free(status);
  assert_null(rl_number_parse_u64_in("10", 1, 10, &value));  // inclusive
  int64_t signed_value = 0;
  assert_null(rl_number_parse_i64_in("-5", -5, 5, &signed_value));
  assert_int_equal(signed_value, -5);
  status = rl_number_parse_i64_in("-6", -5, 5, &signed_value);
  assert_string_equal(rl_status_message(status), "'-6' is outside [-5, 5]");
  rl_status_free(status);
  // A parse error is reported as such, not as a range error.
  status = rl_number_parse_i64_in(" 1", -5, 5, &signed_value);
  assert_non_null(strstr(rl_status_message(status), "is not a decimal"));
  rl_status_free(status);
}

// Sizes: binary suffixes, hex digits, and the refusals (zero, another
// suffix, a product over 64 bits), each with its accepted neighbour.
static void number_parse_size_takes_binary_suffixes(void** state) {
  (void)state;
  uint64_t value = 0;
  assert_null(rl_number_parse_size("16G", &value));
  assert_int_equal(value, 16ull << 30);
  assert_null(rl_number_parse_size("512M", &value));
  assert_int_equal(value, 512ull << 20);
  assert_null(rl_number_parse_size("3K", &value));
  assert_int_equal(value, 3072);
  assert_null(rl_number_parse_size("0x1000", &value));
  assert_int_equal(value, 4096);
  assert_null(rl_number_parse_size("17179869183G", &value));  // 2^64 - 2^30
  assert_int_equal(value, 17179869183ull << 30);
  const char* refused[] = {"0", "0G", "16T", "16g", "G", "", " 1G",
                           "-1G", "17179869184G"};
  for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); ++i) {
    value = 7;
    rl_status_t status = rl_number_parse_size(refused[i], &value);
    assert_int_equal(rl_status_code(status), RL_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(rl_status_message(status), "not a positive size"));
    assert_int_equal(value, 0);
    rl_status_free(status);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(number_parse_reads_leading_zeros_as_decimal_and_0x_as_hex),
      cmocka_unit_test(number_parse_refuses_whitespace_signs_and_other_bases),
      cmocka_unit_test(number_parse_refuses_values_over_64_bits),
      cmocka_unit_test(number_parse_signed_accepts_a_minus_up_to_the_int64_limits),
      cmocka_unit_test(number_parse_in_range_refuses_values_outside_the_option_range),
      cmocka_unit_test(number_parse_size_takes_binary_suffixes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
