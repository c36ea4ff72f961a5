// Implementation of redline/digest.h over libxxhash.
//
// Inputs longer than 240 bytes (every state region and code object) go to
// the vector variant base/digest_long.h picks for this CPU, which
// computes XXH3-128 at about memcpy bandwidth; shorter inputs, and CPUs
// without AVX2, to libxxhash. On x86-64 the library call is its
// runtime-dispatched entry point (xxh_x86dispatch.h). All give the digest
// Debian's libxxhash gives (tests/unit/base/digest_test.c, and
// tests/bench/digest_bench.c on every size it measures).
#include "redline/digest.h"

#include <stdio.h>
#include <string.h>
#include <xxhash.h>
#if defined(__x86_64__)
#include <xxh_x86dispatch.h>
#endif

#include "base/digest_long.h"

rl_digest128_t rl_digest128_of(const void* data, size_t size) {
  if (!data) size = 0;  // NULL is the empty input
  if (size >= RL_DIGEST_LONG_MIN) {
    const rl_digest_long_variant* best = rl_digest_long_best();
    if (best) return best->fn(data, size);
  }
#if defined(__x86_64__)
  XXH128_hash_t hash = XXH3_128bits_dispatch(data, size);
#else
  XXH128_hash_t hash = XXH3_128bits(data, size);
#endif
  rl_digest128_t digest = {hash.high64, hash.low64};
  return digest;
}

bool rl_digest128_equal(rl_digest128_t a, rl_digest128_t b) {
  return a.high == b.high && a.low == b.low;
}

void rl_digest128_format(rl_digest128_t digest,
                         char out[RL_DIGEST128_HEX_LENGTH + 1]) {
  if (!out) return;
  snprintf(out, RL_DIGEST128_HEX_LENGTH + 1, "%016llx%016llx",
           (unsigned long long)digest.high, (unsigned long long)digest.low);
}

static int rl_digest128_hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool rl_digest128_parse(const char* text, rl_digest128_t* out_digest) {
  if (!out_digest) return false;
  *out_digest = (rl_digest128_t){0, 0};
  if (!text || strlen(text) != RL_DIGEST128_HEX_LENGTH) return false;
  uint64_t halves[2] = {0, 0};
  for (int i = 0; i < RL_DIGEST128_HEX_LENGTH; ++i) {
    int value = rl_digest128_hex_value(text[i]);
    if (value < 0) return false;
    halves[i / 16] = (halves[i / 16] << 4) | (uint64_t)value;
  }
  out_digest->high = halves[0];
  out_digest->low = halves[1];
  return true;
}
