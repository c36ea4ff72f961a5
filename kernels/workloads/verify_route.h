// kernels/workloads/verify_route.h — the envelope of the retained verify
// route and the per-step decision between it and the eager path.
//
// A verify capture (kernels/workloads/verify.h) is replayable only inside
// the envelope it was recorded for. rl_verify_envelope_of() reads it from
// the capture: the exact target, the captured batch B (4..32), the
// split S, the admitted pos range of parameter "pos" (live context pos + B
// above the crossover, rows inside the KV capacity) and the partials bytes
// S = chunks needs at B.
//
// Per step, rl_verify_decide() answers retained or eager, and why, in this
// order (the first failing check is the reason):
//   1. the workload option route = off ("route disabled by the workload
//      option route=off");
//   2. REDLINE_ROUTE=off in the environment (the engine's escape hatch,
//      redline/replay.h; other values restrict the engine's routes and are
//      left to it);
//   3. the step's target is not exactly the capture's;
//   4. B outside 4..32, then B different from the captured B;
//   5. live context pos + B not above the crossover (the capture's, or a
//      higher one set in the options; a lower one cannot widen what the
//      capture admits);
//   6. pos + B past the KV capacity (max_context).
// Not a decision but a failure: a workspace smaller than the envelope's
// partials bytes is RL_STATUS_CONTRACT from rl_verify_check_workspace()
// and from rl_verify_decide() alike, before anything runs (the replay
// contract refuses the same binding; see verify.h "Workspace contract").
//
// Thread-safety: pure functions (rl_verify_decide reads the environment).
#ifndef REDLINE_KERNELS_WORKLOADS_VERIFY_ROUTE_H_
#define REDLINE_KERNELS_WORKLOADS_VERIFY_ROUTE_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_verify_envelope_s {
  char target[96];           // exact target triple of the capture
  uint32_t batch;            // captured B
  uint32_t chunks;           // S
  uint32_t crossover;        // live context must exceed it
  uint32_t max_context;      // KV capacity in rows
  uint64_t workspace_bytes;  // partials bytes S needs at B
} rl_verify_envelope_t;

// The envelope of verify capture |capture|. RL_STATUS_INVALID_ARGUMENT
// when it is not a verify capture (workload, buffers or parameter missing).
rl_status_t rl_verify_envelope_of(const rl_capture_t* capture,
                                  rl_verify_envelope_t* out_envelope);

typedef struct rl_verify_route_options_s {
  bool route_off;      // the workload option route=off
  uint32_t crossover;  // 0: the capture's; else max(this, the capture's)
} rl_verify_route_options_t;

// One step as the caller is about to run it.
typedef struct rl_verify_step_s {
  const char* target;        // the device's target triple
  uint32_t batch;            // B of this step
  int64_t pos;               // first draft position
  uint64_t workspace_bytes;  // the caller's partials workspace
} rl_verify_step_t;

typedef struct rl_verify_decision_s {
  bool retained;     // run the retained route; else the eager path
  char reason[256];  // why eager ("" when retained)
} rl_verify_decision_t;

// RL_STATUS_CONTRACT naming both sizes when |workspace_bytes| is below the
// envelope's.
rl_status_t rl_verify_check_workspace(const rl_verify_envelope_t* envelope,
                                      uint64_t workspace_bytes);

// Fills *|out| for |step| (see the order above). Fails only on NULL
// arguments and on an undersized workspace (RL_STATUS_CONTRACT).
rl_status_t rl_verify_decide(const rl_verify_envelope_t* envelope,
                             const rl_verify_route_options_t* options,
                             const rl_verify_step_t* step,
                             rl_verify_decision_t* out);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_KERNELS_WORKLOADS_VERIFY_ROUTE_H_
