// base/number.h — the one parser for numbers given as text: command
// line options, NAME=VALUE parameter specs, window specs and environment
// variables. Private to redline and tools/.
//
// Grammar (the whole string, nothing else):
//   unsigned := DIGITS | "0x" HEXDIGITS | "0X" HEXDIGITS
//   signed   := unsigned | "-" unsigned
// DIGITS are decimal even with leading zeros ("010" is ten, "08" is eight):
// a leading zero never switches to octal. Leading or trailing whitespace, a
// "+" sign, a sign on an unsigned value, an empty string and a value that
// does not fit the type are refused. This is stricter than strtoull(), which
// skips whitespace, accepts "-1" as 2^64-1 and reads "010" as octal.
//
// Errors are RL_STATUS_INVALID_ARGUMENT whose message quotes the text and
// says what was expected, e.g. "' -1' is not a decimal or 0x-hexadecimal
// number" or "'18446744073709551616' does not fit 64 bits"; a caller adds
// the option or field it was parsing (rl_status_annotate). On failure the
// output is cleared to 0.
//
// Thread-safety: pure functions.
#ifndef REDLINE_BASE_NUMBER_H_
#define REDLINE_BASE_NUMBER_H_

#include <stdint.h>

#include "redline/status.h"

// Parses |text| as an unsigned number into *|out_value|.
rl_status_t rl_number_parse_u64(const char* text, uint64_t* out_value);

// Parses |text| as a signed number into *|out_value|; "-9223372036854775808"
// is the smallest value accepted.
rl_status_t rl_number_parse_i64(const char* text, int64_t* out_value);

// As rl_number_parse_u64, then requires |min| <= value <= |max| (both
// inclusive); a value outside is refused with the range in the message:
// "'0' is outside [1, 4294967295]".
rl_status_t rl_number_parse_u64_in(const char* text, uint64_t min,
                                   uint64_t max, uint64_t* out_value);

// As rl_number_parse_i64 with the inclusive range [|min|, |max|].
rl_status_t rl_number_parse_i64_in(const char* text, int64_t min, int64_t max,
                                   int64_t* out_value);

// A size in bytes: a positive unsigned number with an optional binary
// suffix K, M or G (1K = 1024), e.g. "16G", "0x1000", "512M"; zero, any
// other suffix and a product over 64 bits are refused ("'0G' is not a
// positive size (a number with an optional K, M or G suffix)").
rl_status_t rl_number_parse_size(const char* text, uint64_t* out_value);

#endif  // REDLINE_BASE_NUMBER_H_
