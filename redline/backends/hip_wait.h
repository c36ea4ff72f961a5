// redline/backends/hip_wait.h — a bounded wait on a HIP stream.
//
// hipStreamSynchronize has no timeout: a kernel that never finishes (a
// hang, an enormous grid) blocks the caller forever. Every place redline
// waits on HIP work (the HIP capture device, the hip and hipgraph shadow
// arms) waits through rl_hip_stream_wait instead: it polls hipStreamQuery,
// sleeping between polls (1 µs, doubling up to 1 ms), until the stream is
// idle, reports an error, or |timeout_ns| passes. On redline's runtime
// over the simulator (api->progress_events, hip_loader.h) the bound is a
// stall: it restarts whenever a work-group completes or a dispatch starts,
// so a long dispatch that keeps progressing runs to its end and a hung one
// fails |timeout_ns| after its last progress (as the funnel's and the
// replay's waits, device_funnel.h, replay.h); on any other runtime it is
// the wall time since the call.
//
// Returns RL_OK when all work on |stream| completed; the translated HIP
// error (RL_HIP_CALL's status) when the stream reports one; and
// RL_STATUS_QUARANTINED when the bound expired: the stream's work may still
// run, so nothing it references may be freed or reused (the caller leaks
// it deliberately and never synchronises it again).
//
// Thread-safety: as the HIP runtime's for |stream|.
#ifndef REDLINE_BACKENDS_HIP_WAIT_H_
#define REDLINE_BACKENDS_HIP_WAIT_H_

#include <stdint.h>

#include "redline/backends/hip_loader.h"

#ifdef __cplusplus
extern "C" {
#endif

rl_status_t rl_hip_stream_wait(const rl_hip_api_t* api, hipStream_t stream,
                               uint64_t timeout_ns);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BACKENDS_HIP_WAIT_H_
