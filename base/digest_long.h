// base/digest_long.h — XXH3-128 (seed 0, default secret) of inputs
// longer than 240 bytes, in vector code chosen at run time. Private to
// redline; redline/digest.h's rl_digest128_of is the public entry.
//
// Why this exists: Debian's libxxhash 0.8.1 hashes a cache-resident state
// region at about 0.45x memcpy bandwidth on this project's machines, even
// through its run-time dispatch (XXH3_128bits_dispatch, AVX-512 path): its
// compiled loop loads every input stripe twice and adds each stripe into
// the accumulators in sequence. The variants here compute the same
// function with the same constants (the library's own header supplies the
// secret, the initial accumulators and the final merge), but
//   - sum the 16 stripes of a block before adding them to the accumulators
//     (addition modulo 2^64 is associative, and XXH3 only scrambles the
//     accumulators between blocks), so no add waits on the previous stripe;
//   - add the "swapped input" term once per block: swapping the 64-bit
//     lanes of each pair is a permutation, so the sum of the swapped
//     stripes is the swapped sum;
//   - read a block's 16 keys (overlapping 64-byte windows of the secret)
//     from a copy aligned so that no key load crosses a cache line.
// docs/BENCHMARKS.md ("State hashing") has the speeds; tests/unit/
// digest_test.c compares every variant with libxxhash on every size from
// 241 bytes to beyond 3 blocks and on large sizes.
//
// Algorithm reference (public): the XXH3 specification and xxhash.h's
// XXH3_hashLong_128b_internal (github.com/Cyan4973/xxHash, doc/
// xxhash_spec.md); the header installed by Debian's libxxhash-dev is the
// one compiled in.
#ifndef REDLINE_BASE_DIGEST_LONG_H_
#define REDLINE_BASE_DIGEST_LONG_H_

#include <stdbool.h>
#include <stddef.h>

#include "redline/digest.h"

// Inputs of at most this many bytes take XXH3's short paths (libxxhash).
#define RL_DIGEST_LONG_MIN 241u

typedef rl_digest128_t (*rl_digest_long_fn)(const void* data, size_t size);

typedef struct rl_digest_long_variant_s {
  const char* name;     // "avx512", "avx2"
  rl_digest_long_fn fn; // requires size >= RL_DIGEST_LONG_MIN
  bool supported;       // this CPU (and OS) can run it
} rl_digest_long_variant;

// The vector variants built into this binary, widest first; *out_count 0
// on targets without them (then libxxhash hashes everything).
const rl_digest_long_variant* rl_digest_long_variants(size_t* out_count);

// The widest supported variant, or NULL (use libxxhash); chosen once.
const rl_digest_long_variant* rl_digest_long_best(void);

#endif  // REDLINE_BASE_DIGEST_LONG_H_
