// tests/hip_conformance/conformance.h — what every program of the HIP
// runtime conformance suite shares (docs/hip-runtime.md, "Conformance"):
// each program checks one documented rule of the HIP runtime on whatever
// libamdhip64 it runs on, and names the rule's public source at its top.
//
// Exit status: 0 the rule holds, 1 it does not (a wrong result, a wrong
// error code, or a wait that ran out of time), 2 a HIP call failed.
// With REDLINE_CONFORMANCE_BREAK=1 in the environment every program
// expects the opposite of the rule at its first check, so it must exit 1:
// the negative control showing the check can fail.
#ifndef REDLINE_TESTS_HIP_CONFORMANCE_CONFORMANCE_H_
#define REDLINE_TESTS_HIP_CONFORMANCE_CONFORMANCE_H_

#include <hip/hip_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define HIP_CHECK(call)                                                   \
  do {                                                                    \
    hipError_t rl_err_ = (call);                                          \
    if (rl_err_ != hipSuccess) {                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,  \
                   #call, hipGetErrorName(rl_err_));                      \
      std::exit(2);                                                       \
    }                                                                     \
  } while (0)

[[maybe_unused]] static bool conformance_broken() {
  const char* e = std::getenv("REDLINE_CONFORMANCE_BREAK");
  return e && e[0] == '1';
}

// Fails the program unless |holds| (inverted once under the negative
// control, so the first expectation is the one that breaks).
#define EXPECT(holds, ...)                                                \
  do {                                                                    \
    static bool rl_first_ = true;                                         \
    bool rl_ok_ = (holds);                                                \
    if (conformance_broken() && rl_first_) rl_ok_ = !rl_ok_;              \
    rl_first_ = false;                                                    \
    if (!rl_ok_) {                                                        \
      std::fprintf(stderr, "%s:%d: rule broken: ", __FILE__, __LINE__);   \
      std::fprintf(stderr, __VA_ARGS__);                                  \
      std::fprintf(stderr, "\n");                                         \
      std::exit(1);                                                       \
    }                                                                     \
  } while (0)

#define EXPECT_ERROR(call, want)                                          \
  do {                                                                    \
    hipError_t rl_got_ = (call);                                          \
    EXPECT(rl_got_ == (want), "%s returned %s, expected %s", #call,       \
           hipGetErrorName(rl_got_), hipGetErrorName(want));              \
  } while (0)

// A kernel that keeps the device busy for a while (a few thousand
// dependent steps per thread), so work queued after it is still pending
// when the host's next call runs: what a late read would expose.
__global__ void conformance_busy(unsigned* sink, unsigned steps) {
  unsigned x = threadIdx.x + 1;
  for (unsigned i = 0; i < steps; ++i) x = x * 1664525u + 1013904223u;
  if (x == 0x12345678u) sink[0] = x;  // keeps the loop
}

// Seconds since |start|.
[[maybe_unused]] static double conformance_seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start).count();
}

// How long a program waits for the device before calling it a hang.
#define CONFORMANCE_TIMEOUT_S 60.0

[[maybe_unused]] static void conformance_ok(const char* name) { std::printf("%s: ok\n", name); }

#endif  // REDLINE_TESTS_HIP_CONFORMANCE_CONFORMANCE_H_
