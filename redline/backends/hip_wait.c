// Bounded wait on a HIP stream (redline/backends/hip_wait.h).
#include "redline/backends/hip_wait.h"

#include <inttypes.h>
#include <stdbool.h>
#include <time.h>

#include "base/clock.h"

#define RL_HIP_WAIT_FIRST_SLEEP_NS 1000ull
#define RL_HIP_WAIT_MAX_SLEEP_NS 1000000ull

rl_status_t rl_hip_stream_wait(const rl_hip_api_t* api, hipStream_t stream,
                               uint64_t timeout_ns) {
  uint64_t start = rl_now_ns();
  uint64_t sleep_ns = RL_HIP_WAIT_FIRST_SLEEP_NS;
  const bool stall = api->progress_events != NULL;
  uint64_t progress = stall ? api->progress_events() : 0;
  for (;;) {
    hipError_t error = api->fn.hipStreamQuery(stream);
    if (error == hipSuccess) return RL_OK;
    if (error != hipErrorNotReady) {
      return rl_hip_check(api, error, "hipStreamQuery", __FILE__, __LINE__);
    }
    if (stall) {
      uint64_t now = api->progress_events();
      if (now != progress) start = rl_now_ns();
      progress = now;
    }
    uint64_t elapsed = rl_now_ns() - start;
    if (elapsed >= timeout_ns) {
      return RL_STATUS(RL_STATUS_QUARANTINED,
                       "HIP stream still busy after the bounded wait of "
                       "%" PRIu64 " ns%s; its work may still execute",
                       timeout_ns,
                       stall ? " without progress (no work-group completed "
                               "and no dispatch started)"
                             : "");
    }
    uint64_t left = timeout_ns - elapsed;
    uint64_t nap = sleep_ns < left ? sleep_ns : left;
    struct timespec pause = {(time_t)(nap / 1000000000ull),
                             (long)(nap % 1000000000ull)};
    nanosleep(&pause, NULL);
    if (sleep_ns < RL_HIP_WAIT_MAX_SLEEP_NS) sleep_ns *= 2;
  }
}
