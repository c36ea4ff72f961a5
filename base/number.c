// Strict number parsing (base/number.h).
#include "base/number.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

// The value of hex or decimal digit |c| in |base|, or -1.
static int rl_number_digit(char c, unsigned base) {
  int value = -1;
  if (c >= '0' && c <= '9') value = c - '0';
  if (base == 16 && c >= 'a' && c <= 'f') value = c - 'a' + 10;
  if (base == 16 && c >= 'A' && c <= 'F') value = c - 'A' + 10;
  return value;
}

// Parses the unsigned grammar; on failure says why in *|out_overflow|
// (true: the digits were valid but the value exceeds 64 bits).
static bool rl_number_magnitude(const char* text, uint64_t* out_value,
                                bool* out_overflow) {
  *out_value = 0;
  *out_overflow = false;
  unsigned base = 10;
  if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text += 2;
  }
  if (!text[0]) return false;
  uint64_t value = 0;
  for (; *text; ++text) {
    int digit = rl_number_digit(*text, base);
    if (digit < 0) return false;
    if (__builtin_mul_overflow(value, (uint64_t)base, &value) ||
        __builtin_add_overflow(value, (uint64_t)digit, &value)) {
      *out_overflow = true;
    }
  }
  if (*out_overflow) return false;
  *out_value = value;
  return true;
}

static rl_status_t rl_number_error(const char* text, bool overflow,
                                   const char* width) {
  if (overflow) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "'%s' does not fit %s", text,
                     width);
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "'%s' is not a %sdecimal or 0x-hexadecimal number",
                   text ? text : "", width[0] == 's' ? "" : "non-negative ");
}

rl_status_t rl_number_parse_u64(const char* text, uint64_t* out_value) {
  bool overflow = false;
  if (!text || !rl_number_magnitude(text, out_value, &overflow)) {
    *out_value = 0;
    return rl_number_error(text, overflow, "64 bits");
  }
  return RL_OK;
}

rl_status_t rl_number_parse_i64(const char* text, int64_t* out_value) {
  *out_value = 0;
  bool negative = text && text[0] == '-';
  uint64_t magnitude = 0;
  bool overflow = false;
  uint64_t limit = negative ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
  if (!text || !rl_number_magnitude(text + negative, &magnitude, &overflow) ||
      magnitude > limit) {
    return rl_number_error(text, overflow || magnitude > limit,
                           "signed 64 bits");
  }
  // Two's complement negation in unsigned arithmetic, so INT64_MIN is exact.
  *out_value = negative ? (int64_t)(0u - magnitude) : (int64_t)magnitude;
  return RL_OK;
}

// rl_number_parse_u64_in and _i64_in: one body over the two integer types.
#define RL_NUMBER_DEFINE_PARSE_IN(name, type, parse, format)                \
  rl_status_t name(const char* text, type min, type max, type* out_value) { \
    RL_RETURN_IF_ERROR(parse(text, out_value));                             \
    if (*out_value < min || *out_value > max) {                             \
      *out_value = 0;                                                       \
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,                          \
                       "'%s' is outside [%" format ", %" format "]", text,  \
                       min, max);                                           \
    }                                                                       \
    return RL_OK;                                                           \
  }

RL_NUMBER_DEFINE_PARSE_IN(rl_number_parse_u64_in, uint64_t,
                          rl_number_parse_u64, PRIu64)
RL_NUMBER_DEFINE_PARSE_IN(rl_number_parse_i64_in, int64_t,
                          rl_number_parse_i64, PRId64)

rl_status_t rl_number_parse_size(const char* text, uint64_t* out_value) {
  *out_value = 0;
  char digits[32];
  size_t length = text ? strlen(text) : 0;
  unsigned shift = 0;
  if (length > 0 && length < sizeof(digits)) {
    memcpy(digits, text, length + 1);
    const char last = digits[length - 1];
    if (last == 'K' || last == 'M' || last == 'G') {
      shift = last == 'K' ? 10 : last == 'M' ? 20 : 30;
      digits[length - 1] = '\0';
    }
    uint64_t value = 0;
    bool overflow = false;
    if (rl_number_magnitude(digits, &value, &overflow) && value != 0 &&
        value <= (UINT64_MAX >> shift)) {
      *out_value = value << shift;
      return RL_OK;
    }
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "'%s' is not a positive size (a number with an optional "
                   "K, M or G suffix)",
                   text ? text : "");
}
