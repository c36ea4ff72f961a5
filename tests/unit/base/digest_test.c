// Tests of XXH3-128 digests (redline/digest.h). Expected texts were produced
// by `xxhsum -H2` (Debian package xxhash 0.8.1) on the same bytes, so the
// printed form is checked against an independent tool.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "redline/digest.h"

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
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
