// tests/hip_corpus/corpus.h — the host-side helpers every corpus program
// shares: HIP error checks, a seeded generator for inputs, and comparisons
// that name the first mismatch. Each program is an ordinary HIP program
// (docs/hip-corpus.md): it computes on the device, recomputes on the host
// and exits 0 only when they agree.
//
// Exit status of every program: 0 results match, 1 a result mismatch,
// 2 a HIP call failed, 3 bad arguments or host-side failure.
#ifndef REDLINE_TESTS_HIP_CORPUS_CORPUS_H_
#define REDLINE_TESTS_HIP_CORPUS_CORPUS_H_

#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define HIP_CHECK(call)                                                   \
  do {                                                                    \
    hipError_t rl_err_ = (call);                                          \
    if (rl_err_ != hipSuccess) {                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,  \
                   #call, hipGetErrorString(rl_err_));                    \
      std::exit(2);                                                       \
    }                                                                     \
  } while (0)

// The launch itself reports through hipGetLastError.
#define HIP_CHECK_LAUNCH() HIP_CHECK(hipGetLastError())

// xorshift32: the same inputs on every run and every machine.
struct CorpusRng {
  uint32_t s;
  explicit CorpusRng(uint32_t seed) : s(seed ? seed : 1u) {}
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
  }
  // Uniform in [lo, hi).
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * (float)(next() >> 8) * (1.0f / 16777216.0f);
  }
};

// Negative control: with REDLINE_CORPUS_CORRUPT=1 in the environment the
// program flips the second-highest bit of the first result element before
// checking, so the run must end in FAIL (exit 1). The tests use it to show
// every check can fail.
template <typename T>
static void corpus_corrupt(T* first) {
  const char* e = std::getenv("REDLINE_CORPUS_CORRUPT");
  if (!e || e[0] != '1') return;
  unsigned char* bytes = (unsigned char*)first;
  bytes[sizeof(T) - 1] ^= 0x40u;
}

static int corpus_failures = 0;

// Counts a mismatch and prints the first few.
static inline void corpus_mismatch(const char* what, size_t i, double got,
                                   double want) {
  if (corpus_failures < 8)
    std::fprintf(stderr, "mismatch: %s[%zu] = %.9g, expected %.9g\n", what, i,
                 got, want);
  ++corpus_failures;
}

// Exact comparison of integer arrays.
template <typename T>
static void corpus_check_exact(const char* what, const T* got, const T* want,
                               size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) corpus_mismatch(what, i, (double)got[i],
                                           (double)want[i]);
}

// |got - want| <= abs_tol + rel_tol * |want| for every element.
template <typename T>
static void corpus_check_close(const char* what, const T* got, const T* want,
                               size_t n, double abs_tol, double rel_tol) {
  for (size_t i = 0; i < n; ++i) {
    double g = (double)got[i], w = (double)want[i];
    if (!(std::fabs(g - w) <= abs_tol + rel_tol * std::fabs(w)))
      corpus_mismatch(what, i, g, w);
  }
}

// The last line of every program: PASS or FAIL with the count.
static inline int corpus_finish(const char* name) {
  if (corpus_failures) {
    std::fprintf(stderr, "%s: FAIL (%d mismatches)\n", name, corpus_failures);
    return 1;
  }
  std::printf("%s: PASS\n", name);
  return 0;
}

#endif  // REDLINE_TESTS_HIP_CORPUS_CORPUS_H_
