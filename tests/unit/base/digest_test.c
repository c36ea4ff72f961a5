// Tests of XXH3-128 digests (redline/digest.h). Expected texts were produced
// by `xxhsum -H2` (Debian package xxhash 0.8.1) on the same bytes, so the
// printed form is checked against an independent tool; the vector variants
// of base/digest_long.h are checked against Debian's libxxhash
// (XXH3_128bits), which shares no code with them but the constants.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <xxhash.h>

#include "base/digest_long.h"
#include "redline/digest.h"

#define RL_TEST_BYTES ((3u << 20) + 64u)

static uint8_t* rl_test_bytes(void) {
  uint8_t* bytes = malloc(RL_TEST_BYTES);
  assert_non_null(bytes);
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < RL_TEST_BYTES; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift64
    bytes[i] = (uint8_t)(x >> 24);
  }
  return bytes;
}

static bool rl_same_as_library(rl_digest128_t digest, const uint8_t* data,
                               size_t size) {
  XXH128_hash_t want = XXH3_128bits(data, size);
  return digest.high == want.high64 && digest.low == want.low64;
}

// The first size (from every size in 241 .. 4 blocks + 300, then sizes around
// block multiples up to 3 MiB, at offsets 0..63 from a 64-byte boundary)
// where |fn| differs from libxxhash, or 0 when it never does.
static size_t rl_first_mismatch(rl_digest_long_fn fn, const uint8_t* bytes) {
  for (size_t size = RL_DIGEST_LONG_MIN; size <= 4 * 1024 + 300; ++size) {
    const uint8_t* data = bytes + (size * 7) % 64;
    if (!rl_same_as_library(fn(data, size), data, size)) return size;
  }
  for (size_t blocks = 5; blocks <= 3 * 1024; blocks = blocks * 3 / 2) {
    for (size_t delta = 0; delta < 5; ++delta) {
      size_t size = blocks * 1024 + delta * 64 - 2 + delta;  // -2 .. +258
      const uint8_t* data = bytes + delta * 13;
      if (!rl_same_as_library(fn(data, size), data, size)) return size;
    }
  }
  return 0;
}

static const rl_digest_long_variant* rl_test_variant;
// A wrong implementation for the negative control: reads one byte late.
static rl_digest128_t rl_one_byte_late(const void* data, size_t size) {
  return rl_test_variant->fn((const uint8_t*)data + 1, size);
}

// Every vector variant this CPU runs gives libxxhash's digest; the checker
// catches a variant that does not.
static void test_vector_variants_match_libxxhash(void** state) {
  (void)state;
  uint8_t* bytes = rl_test_bytes();
  size_t count = 0;
  const rl_digest_long_variant* variants = rl_digest_long_variants(&count);
  size_t checked = 0;
  for (size_t i = 0; i < count; ++i) {
    if (!variants[i].supported) continue;
    size_t mismatch = rl_first_mismatch(variants[i].fn, bytes);
    if (mismatch) fail_msg("%s differs at %zu bytes", variants[i].name, mismatch);
    rl_test_variant = &variants[i];
    assert_int_equal(rl_first_mismatch(rl_one_byte_late, bytes),
                     RL_DIGEST_LONG_MIN);
    ++checked;
  }
#if defined(__x86_64__)
  // Every x86-64 machine this project supports has AVX2 (the machines here
  // have AVX-512 too); a build whose variants never run would pass above.
  assert_true(checked >= 1);
  assert_non_null(rl_digest_long_best());
#endif
  free(bytes);
}

// rl_digest128_of across the short/long boundary and on odd sizes.
static void test_digest_of_matches_libxxhash_every_size(void** state) {
  (void)state;
  uint8_t* bytes = rl_test_bytes();
  for (size_t size = 0; size <= 2100; ++size) {
    if (!rl_same_as_library(rl_digest128_of(bytes + 3, size), bytes + 3, size)) {
      fail_msg("rl_digest128_of differs at %zu bytes", size);
    }
  }
  assert_true(rl_same_as_library(rl_digest128_of(bytes, RL_TEST_BYTES), bytes,
                                 RL_TEST_BYTES));
  free(bytes);
}

static void test_digest_matches_xxhsum(void** state) {
  (void)state;
  char text[RL_DIGEST128_HEX_LENGTH + 1];
  rl_digest128_format(rl_digest128_of("", 0), text);
  assert_string_equal(text, "99aa06d3014798d86001c324468d497f");
  rl_digest128_format(rl_digest128_of("PM4 replay", 10), text);
  assert_string_equal(text, "77ef09b4154875a9e90ac8623f726924");
}

static void test_parse_round_trips_and_rejects_junk(void** state) {
  (void)state;
  rl_digest128_t digest = rl_digest128_of("abc", 3);
  char text[RL_DIGEST128_HEX_LENGTH + 1];
  rl_digest128_format(digest, text);
  rl_digest128_t parsed;
  assert_true(rl_digest128_parse(text, &parsed));
  assert_true(rl_digest128_equal(digest, parsed));
  // Negative controls: one digit short, a non-hex digit, NULL.
  text[31] = '\0';
  assert_false(rl_digest128_parse(text, &parsed));
  assert_false(rl_digest128_parse("g9aa06d3014798d86001c324468d497f", &parsed));
  assert_false(rl_digest128_parse(NULL, &parsed));
  assert_false(rl_digest128_equal(digest, rl_digest128_of("abd", 3)));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_digest_matches_xxhsum),
      cmocka_unit_test(test_parse_round_trips_and_rejects_junk),
      cmocka_unit_test(test_vector_variants_match_libxxhash),
      cmocka_unit_test(test_digest_of_matches_libxxhash_every_size),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
