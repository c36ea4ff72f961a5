// Implementation of base/digest_long.h: XXH3-128's long-input loop
// for AVX-512 and AVX2, picked at run time (gcc target attributes, so the
// rest of the project keeps its baseline instruction set).
//
// XXH3 long input, default secret S (192 bytes), accumulators acc[8]
// (64-bit lanes), input in 64-byte stripes and 1,024-byte blocks of 16:
//   per stripe i of a block, with x = stripe ^ S[8i .. 8i+64):
//     acc[j]   += lo32(x[j]) * hi32(x[j])      (the product term)
//     acc[j^1] += stripe[j]                    (the swapped input)
//   after each full block: acc = (acc ^ acc >> 47 ^ S[128..192)) * PRIME32_1
//   then the partial last block the same way, then the input's last 64
//   bytes with key S[121..185), then the library's merge of acc into the
//   two halves. See digest_long.h for why the sums are regrouped.
#include "base/digest_long.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

// The library's own constants and merge step (XXH3_kSecret, XXH3_INIT_ACC,
// XXH3_mergeAccs, XXH_PRIME*): compiled into this file from Debian's header.
#define XXH_INLINE_ALL
#include <xxhash.h>

#define RL_STRIPE 64u
#define RL_KEY_STEP 8u  // secret bytes consumed per stripe
#define RL_BLOCK_STRIPES ((XXH_SECRET_DEFAULT_SIZE - RL_STRIPE) / RL_KEY_STEP)
#define RL_BLOCK (RL_STRIPE * RL_BLOCK_STRIPES)
#define RL_SCRAMBLE_KEY (XXH_SECRET_DEFAULT_SIZE - RL_STRIPE)
#define RL_LAST_KEY (XXH_SECRET_DEFAULT_SIZE - RL_STRIPE - 7u)

_Static_assert(RL_BLOCK_STRIPES == 16, "XXH3 default secret: 16 stripes");
_Static_assert(sizeof(XXH3_kSecret) == XXH_SECRET_DEFAULT_SIZE, "secret");

static inline rl_digest128_t rl_digest_long_merge(const uint64_t acc[8], size_t size) {
  const uint8_t* secret = XXH3_kSecret;
  rl_digest128_t digest;
  digest.low = XXH3_mergeAccs(acc, secret + XXH_SECRET_MERGEACCS_START,
                              (uint64_t)size * XXH_PRIME64_1);
  digest.high = XXH3_mergeAccs(
      acc, secret + XXH_SECRET_DEFAULT_SIZE - 64 - XXH_SECRET_MERGEACCS_START,
      ~((uint64_t)size * XXH_PRIME64_2));
  return digest;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define RL_AVX512 __attribute__((target("avx512f")))
#define RL_AVX2 __attribute__((target("avx2")))

// --- AVX-512: one stripe per vector ---------------------------------------

RL_AVX512 static inline __m512i rl_load512(const uint8_t* at) {
  __m512i v = _mm512_loadu_si512(at);
  // Keep the stripe in a register: gcc 12 otherwise folds this load into
  // both of its uses and reads every input byte twice (measured: 64 against
  // 120 GB/s on a cache-resident 64 KiB region).
  __asm__("" : "+v"(v));
  return v;
}

RL_AVX512 static inline __m512i rl_product512(__m512i data, __m512i key) {
  __m512i x = _mm512_xor_si512(data, key);
  return _mm512_mul_epu32(x, _mm512_srli_epi64(x, 32));
}

// A block's 16 keys (secret bytes 8i .. 8i+64), 64-byte aligned so that no
// key load crosses a cache line; filled once by rl_digest_long_detect.
static uint64_t rl_keys512[RL_BLOCK_STRIPES][8] __attribute__((aligned(64)));

// Adds the terms of |count| stripes at |in| (stripe i keyed by key[i]) to
// acc: two stripes per step into two product and two input sums, so no add
// waits on the previous stripe's.
RL_AVX512 static inline __m512i rl_stripes512(__m512i acc, const uint8_t* in,
                                              const uint64_t (*key)[8],
                                              size_t count) {
  // Read the keys where they are: without this gcc 12 hoists the 16 key
  // loads out of the block loop and spills them to the stack, a copy of
  // 1 KiB per call (a fifth of the time on a 4 KiB region).
  __asm__("" : "+r"(key));
  __m512i p0 = _mm512_setzero_si512(), p1 = p0, d0 = p0, d1 = p0;
  size_t i = 0;
  for (; i + 2 <= count; i += 2) {
    __m512i a = rl_load512(in + i * RL_STRIPE);
    __m512i b = rl_load512(in + (i + 1) * RL_STRIPE);
    p0 = _mm512_add_epi64(p0, rl_product512(a, _mm512_load_si512(key[i])));
    p1 = _mm512_add_epi64(p1,
                          rl_product512(b, _mm512_load_si512(key[i + 1])));
    d0 = _mm512_add_epi64(d0, a);
    d1 = _mm512_add_epi64(d1, b);
  }
  if (i < count) {
    __m512i a = rl_load512(in + i * RL_STRIPE);
    p0 = _mm512_add_epi64(p0, rl_product512(a, _mm512_load_si512(key[i])));
    d0 = _mm512_add_epi64(d0, a);
  }
  __m512i swapped = _mm512_shuffle_epi32(_mm512_add_epi64(d0, d1),
                                         _MM_PERM_BADC);
  return _mm512_add_epi64(acc,
                          _mm512_add_epi64(_mm512_add_epi64(p0, p1), swapped));
}

// acc = (acc ^ acc >> 47 ^ key) * PRIME32_1 (mod 2^64, per lane).
RL_AVX512 static inline __m512i rl_scramble512(__m512i acc, __m512i key) {
  const __m512i prime = _mm512_set1_epi32((int)XXH_PRIME32_1);
  __m512i x = _mm512_xor_si512(
      _mm512_xor_si512(acc, _mm512_srli_epi64(acc, 47)), key);
  __m512i low = _mm512_mul_epu32(x, prime);
  __m512i high = _mm512_mul_epu32(_mm512_srli_epi64(x, 32), prime);
  return _mm512_add_epi64(low, _mm512_slli_epi64(high, 32));
}

RL_AVX512 static rl_digest128_t rl_digest_long_avx512(const void* data,
                                                      size_t size) {
  static const uint64_t init[8] = XXH3_INIT_ACC;
  const uint8_t* in = data;
  const __m512i scramble_key =
      _mm512_loadu_si512(XXH3_kSecret + RL_SCRAMBLE_KEY);
  __m512i acc = _mm512_loadu_si512(init);
  size_t blocks = (size - 1) / RL_BLOCK;
  for (size_t b = 0; b < blocks; ++b) {
    acc = rl_stripes512(acc, in + b * RL_BLOCK, rl_keys512, RL_BLOCK_STRIPES);
    acc = rl_scramble512(acc, scramble_key);
  }
  size_t stripes = ((size - 1) - blocks * RL_BLOCK) / RL_STRIPE;
  acc = rl_stripes512(acc, in + blocks * RL_BLOCK, rl_keys512, stripes);
  // The last stripe's key is not one of the block's (secret + 121).
  __m512i last = rl_load512(in + size - RL_STRIPE);
  __m512i product =
      rl_product512(last, _mm512_loadu_si512(XXH3_kSecret + RL_LAST_KEY));
  acc = _mm512_add_epi64(
      acc, _mm512_add_epi64(product,
                            _mm512_shuffle_epi32(last, _MM_PERM_BADC)));
  uint64_t lanes[8];
  _mm512_storeu_si512(lanes, acc);
  return rl_digest_long_merge(lanes, size);
}

// --- AVX2: one stripe per two vectors (lanes 0-3 and 4-7) -----------------

// The accumulator as two halves; XXH3's lane swap (j <-> j^1) stays within
// each half.
typedef struct rl_acc256_s {
  __m256i lo, hi;
} rl_acc256;

RL_AVX2 static inline __m256i rl_load256(const uint8_t* at) {
  __m256i v = _mm256_loadu_si256((const __m256i*)at);
  __asm__("" : "+x"(v));  // one load per input half (see rl_load512)
  return v;
}

RL_AVX2 static inline __m256i rl_product256(__m256i data, const uint8_t* key) {
  __m256i x = _mm256_xor_si256(data, _mm256_loadu_si256((const __m256i*)key));
  return _mm256_mul_epu32(x, _mm256_srli_epi64(x, 32));
}

// Adds the terms of |count| stripes at |in| (keys from |key|) to *acc.
RL_AVX2 static inline void rl_stripes256(rl_acc256* acc, const uint8_t* in,
                                         const uint8_t* key, size_t count) {
  __m256i p_lo = _mm256_setzero_si256(), p_hi = p_lo, d_lo = p_lo,
          d_hi = p_lo;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* stripe = in + i * RL_STRIPE;
    const uint8_t* k = key + i * RL_KEY_STEP;
    __m256i lo = rl_load256(stripe), hi = rl_load256(stripe + 32);
    p_lo = _mm256_add_epi64(p_lo, rl_product256(lo, k));
    p_hi = _mm256_add_epi64(p_hi, rl_product256(hi, k + 32));
    d_lo = _mm256_add_epi64(d_lo, lo);
    d_hi = _mm256_add_epi64(d_hi, hi);
  }
  // The shuffle control must be a constant expression (clang requires it).
#define RL_SWAP_PAIRS _MM_SHUFFLE(1, 0, 3, 2)
  acc->lo = _mm256_add_epi64(
      acc->lo,
      _mm256_add_epi64(p_lo, _mm256_shuffle_epi32(d_lo, RL_SWAP_PAIRS)));
  acc->hi = _mm256_add_epi64(
      acc->hi,
      _mm256_add_epi64(p_hi, _mm256_shuffle_epi32(d_hi, RL_SWAP_PAIRS)));
#undef RL_SWAP_PAIRS
}

RL_AVX2 static inline __m256i rl_scramble256(__m256i acc, const uint8_t* key) {
  const __m256i prime = _mm256_set1_epi32((int)XXH_PRIME32_1);
  __m256i x = _mm256_xor_si256(
      _mm256_xor_si256(acc, _mm256_srli_epi64(acc, 47)),
      _mm256_loadu_si256((const __m256i*)key));
  __m256i low = _mm256_mul_epu32(x, prime);
  __m256i high = _mm256_mul_epu32(_mm256_srli_epi64(x, 32), prime);
  return _mm256_add_epi64(low, _mm256_slli_epi64(high, 32));
}

RL_AVX2 static rl_digest128_t rl_digest_long_avx2(const void* data,
                                                  size_t size) {
  static const uint64_t init[8] = XXH3_INIT_ACC;
  const uint8_t* in = data;
  const uint8_t* secret = XXH3_kSecret;
  rl_acc256 acc = {_mm256_loadu_si256((const __m256i*)init),
                   _mm256_loadu_si256((const __m256i*)(init + 4))};
  size_t blocks = (size - 1) / RL_BLOCK;
  for (size_t b = 0; b < blocks; ++b) {
    rl_stripes256(&acc, in + b * RL_BLOCK, secret, RL_BLOCK_STRIPES);
    acc.lo = rl_scramble256(acc.lo, secret + RL_SCRAMBLE_KEY);
    acc.hi = rl_scramble256(acc.hi, secret + RL_SCRAMBLE_KEY + 32);
  }
  size_t stripes = ((size - 1) - blocks * RL_BLOCK) / RL_STRIPE;
  rl_stripes256(&acc, in + blocks * RL_BLOCK, secret, stripes);
  rl_stripes256(&acc, in + size - RL_STRIPE, secret + RL_LAST_KEY, 1);
  uint64_t lanes[8];
  _mm256_storeu_si256((__m256i*)lanes, acc.lo);
  _mm256_storeu_si256((__m256i*)(lanes + 4), acc.hi);
  return rl_digest_long_merge(lanes, size);
}

static rl_digest_long_variant rl_variants[] = {
    {"avx512", rl_digest_long_avx512, false},
    {"avx2", rl_digest_long_avx2, false},
};
#define RL_VARIANT_COUNT (sizeof(rl_variants) / sizeof(rl_variants[0]))

static void rl_digest_long_detect(void) {
  // __builtin_cpu_supports reads CPUID and, for the vector extensions, the
  // OS's XCR0 state mask (libgcc's cpuinfo), so a kernel that does not save
  // the ZMM state does not get the AVX-512 variant.
  for (unsigned i = 0; i < RL_BLOCK_STRIPES; ++i) {
    memcpy(rl_keys512[i], XXH3_kSecret + i * RL_KEY_STEP, sizeof rl_keys512[i]);
  }
  __builtin_cpu_init();
  rl_variants[0].supported = __builtin_cpu_supports("avx512f");
  rl_variants[1].supported = __builtin_cpu_supports("avx2");
}

#else

static rl_digest_long_variant rl_variants[1];
#define RL_VARIANT_COUNT 0u
static void rl_digest_long_detect(void) {}

#endif

static pthread_once_t rl_digest_long_once = PTHREAD_ONCE_INIT;

const rl_digest_long_variant* rl_digest_long_variants(size_t* out_count) {
  pthread_once(&rl_digest_long_once, rl_digest_long_detect);
  *out_count = RL_VARIANT_COUNT;
  return rl_variants;
}

const rl_digest_long_variant* rl_digest_long_best(void) {
  size_t count = 0;
  const rl_digest_long_variant* variants = rl_digest_long_variants(&count);
  for (size_t i = 0; i < count; ++i) {
    if (variants[i].supported) return &variants[i];
  }
  return NULL;
}
