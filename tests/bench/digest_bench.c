// digest_bench [--quick] — state-region hashing against memcpy, side by
// side in one run: for each region size from 4 KiB to 64 MiB, the
// bandwidth of memcpy, of Debian's libxxhash (XXH3_128bits_dispatch on
// x86-64: the library's own run-time choice of SSE2/AVX2/AVX-512) and of
// rl_digest128_of (redline/digest.h: the vector variant of
// base/digest_long.h chosen for this CPU, named in the header), as
// medians of samples of the thread's CPU time over warm buffers, the three
// kinds sampled in turn, and the ratios to memcpy. Also checks that
// rl_digest128_of gives libxxhash's digest (XXH3_128bits) on every size.
//
// Each sample repeats the operation until at least 64 MiB went through it,
// so small sizes are not timer-bound; 9 samples per cell, median reported
// (p95/p99 are not reported: 9 samples do not support them).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>
#if defined(__x86_64__)
#include <xxh_x86dispatch.h>
#define RL_LIBRARY_HASH XXH3_128bits_dispatch
#define RL_LIBRARY_NAME "dispatch"
#else
#define RL_LIBRARY_HASH XXH3_128bits
#define RL_LIBRARY_NAME "generic"
#endif

#include "base/digest_long.h"
#include "redline/digest.h"

#define RL_SAMPLES 9

static double rl_now(void) {
  struct timespec now;
  // CPU time, not wall time: on a shared machine a sample the thread
  // spends switched out would count as slow hashing (or slow copying).
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int rl_compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static volatile uint64_t rl_sink;

// GB/s of one sample of |kind| (0 memcpy, 1 libxxhash, 2
// rl_digest128_of), in this thread's CPU time.
static double rl_sample(int kind, uint8_t* src, uint8_t* dst, size_t size,
                        size_t total) {
  size_t reps = total / size ? total / size : 1;
  double start = rl_now();
  for (size_t r = 0; r < reps; ++r) {
    if (kind == 0) {
      memcpy(dst, src, size);
      rl_sink += dst[r % size];
    } else if (kind == 1) {
      rl_sink += RL_LIBRARY_HASH(src, size).low64;
    } else {
      rl_sink += rl_digest128_of(src, size).low;
    }
  }
  double seconds = rl_now() - start;
  return (double)size * (double)reps / seconds / 1e9;
}

// Medians of the three kinds, sampled in turn (memcpy, library, ours,
// memcpy, ...) so that other load on the machine falls on all three alike.
static void rl_measure(uint8_t* src, uint8_t* dst, size_t size, size_t total,
                       double out_gbps[3]) {
  double gbps[3][RL_SAMPLES];
  for (int s = 0; s < RL_SAMPLES; ++s) {
    for (int kind = 0; kind < 3; ++kind) {
      gbps[kind][s] = rl_sample(kind, src, dst, size, total);
    }
  }
  for (int kind = 0; kind < 3; ++kind) {
    qsort(gbps[kind], RL_SAMPLES, sizeof(double), rl_compare);
    out_gbps[kind] = gbps[kind][RL_SAMPLES / 2];
  }
}

int main(int argc, char** argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  size_t max = quick ? (1u << 20) : (64u << 20);
  size_t total = quick ? (8u << 20) : (256u << 20);
  uint8_t* src = malloc(max);
  uint8_t* dst = malloc(max);
  if (!src || !dst) return 1;
  for (size_t i = 0; i < max; ++i) src[i] = (uint8_t)(i * 2654435761u >> 13);
  memcpy(dst, src, max);
  const rl_digest_long_variant* best = rl_digest_long_best();
  printf("digest_bench: medians of %d samples (the three kinds in turn), "
         "GB/s of this thread's CPU time; libxxhash = XXH3_128bits_%s, "
         "rl_digest = %s\n",
         RL_SAMPLES, RL_LIBRARY_NAME, best ? best->name : "libxxhash");
  printf("%10s %10s %12s %12s %8s %8s\n", "size", "memcpy", "libxxhash",
         "rl_digest", "lib/", "rl/");
  printf("%10s %10s %12s %12s %8s %8s\n", "", "", "", "", "memcpy", "memcpy");
  int mismatches = 0;
  for (size_t size = 4096; size <= max; size *= 4) {
    XXH128_hash_t generic = XXH3_128bits(src, size);
    rl_digest128_t ours = rl_digest128_of(src, size);
    if (generic.high64 != ours.high || generic.low64 != ours.low) ++mismatches;
    double gbps[3];
    rl_measure(src, dst, size, total, gbps);
    double copy = gbps[0], plain = gbps[1], digest = gbps[2];
    printf("%9zuK %10.2f %12.2f %12.2f %8.2f %8.2f\n", size >> 10, copy, plain,
           digest, plain / copy, digest / copy);
  }
  free(src);
  free(dst);
  if (mismatches) {
    printf("digest_bench: %d sizes where the digests differ\n", mismatches);
    return 1;
  }
  printf("digest_bench: digests identical on every size\n");
  return 0;
}
