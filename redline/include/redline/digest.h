// redline/digest.h — XXH3-128 digests as redline names states, code objects
// and captures. A digest prints as 32 lower-case hex digits, high half first
// (the canonical big-endian form of XXH128_canonicalFromHash), so the text
// matches `xxhsum -H2` output for the same bytes.
#ifndef REDLINE_DIGEST_H_
#define REDLINE_DIGEST_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_digest128_s {
  uint64_t high;
  uint64_t low;
} rl_digest128_t;

#define RL_DIGEST128_HEX_LENGTH 32

// XXH3-128 (seed 0) of |size| bytes at |data|.
rl_digest128_t rl_digest128_of(const void* data, size_t size);

bool rl_digest128_equal(rl_digest128_t a, rl_digest128_t b);

// Writes 32 hex digits and a NUL into |out| (at least 33 bytes).
void rl_digest128_format(rl_digest128_t digest,
                         char out[RL_DIGEST128_HEX_LENGTH + 1]);

// Parses 32 hex digits; returns false on any other input.
bool rl_digest128_parse(const char* text, rl_digest128_t* out_digest);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_DIGEST_H_
