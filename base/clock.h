// base/clock.h — the one clock redline measures time with.
//
// rl_now_ns() reads CLOCK_MONOTONIC (POSIX.1-2008 clock_gettime), which
// never jumps with wall-clock changes, so deadlines (bounded waits, ring
// backpressure, signal waits) and durations (benchmarks, progress) stay
// correct across NTP or manual time changes. Nanoseconds since an
// unspecified start; only differences mean something.
//
// Thread-safety: safe from any thread.
#ifndef REDLINE_BASE_CLOCK_H_
#define REDLINE_BASE_CLOCK_H_

#include <stdint.h>
#include <time.h>

static inline uint64_t rl_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

#endif  // REDLINE_BASE_CLOCK_H_
