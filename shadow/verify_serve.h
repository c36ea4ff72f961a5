// shadow/verify_serve.h — running verify steps in a serving loop: the
// retained route inside its envelope, the eager path outside it, on one set
// of buffers, with the reason for every eager step.
//
// A server holds one verify capture (kernels/workloads/verify.h) on one
// device. At create it allocates the capture's buffers once (filled with
// the capture's initial contents, shadow/shadow_direct.h), binds every one
// of them into a replay of the capture (rl_replay_bind_buffer, so the
// retained route and the eager path read and write the same memory) and
// prepares |route|. Per step, rl_verify_serve_step() asks
// rl_verify_decide() (kernels/workloads/verify_route.h: route=off,
// REDLINE_ROUTE=off, target, B, live context against the crossover, KV
// capacity; an undersized workspace is RL_STATUS_CONTRACT before anything
// runs) and then
//   retained  one rl_replay_run() at pos;
//   eager     every launch of the capture bound at pos (rl_launch_bind,
//             which does not check admission) and issued on its own, one
//             packet with the barrier bit and a bounded wait each — what
//             the original program does, and what the shadow's eager arm
//             does.
// The decision (with its one-line reason) is returned, so the loop can log
// it. A step whose B differs from the captured B is refused by the
// decision (eager) but cannot run on these buffers either (they are sized
// for the captured B): rl_verify_serve_step() returns RL_STATUS_CONTRACT
// with the reason after filling the decision; such a step needs a capture
// of its own B.
//
// When the route cannot be prepared (REDLINE_ROUTE names another route, the
// device has none), the server still runs every step eagerly and the
// decision says why ("retained route unavailable: ...").
//
// Thread-safety: none; one server per thread.
#ifndef REDLINE_SHADOW_VERIFY_SERVE_H_
#define REDLINE_SHADOW_VERIFY_SERVE_H_

#include <stdint.h>

#include "kernels/workloads/verify_route.h"
#include "redline/capture.h"
#include "redline/replay.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_verify_server_s rl_verify_server_t;

typedef struct rl_verify_serve_options_s {
  rl_route_t route;                      // RL_ROUTE_AQL or RL_ROUTE_PM4
  rl_verify_route_options_t route_options;
  uint64_t timeout_ns;                   // per wait; 0: the defaults
} rl_verify_serve_options_t;

// |device| and |capture| are borrowed and must outlive the server.
// RL_STATUS_INVALID_ARGUMENT when |capture| is not a verify capture.
rl_status_t rl_verify_serve_create(rl_device_t* device,
                                   const rl_capture_t* capture,
                                   const rl_verify_serve_options_t* options,
                                   rl_verify_server_t** out_server);

// Runs one step of |batch| rows at |pos| (see above) and fills *|out|.
rl_status_t rl_verify_serve_step(rl_verify_server_t* server, uint32_t batch,
                                 int64_t pos, rl_verify_decision_t* out);

// Reads state region |region| (its whole size) from the shared buffers.
rl_status_t rl_verify_serve_read_region(rl_verify_server_t* server,
                                        uint32_t region, void* out_data,
                                        uint64_t size);

// Steps run so far on each path.
void rl_verify_serve_counts(const rl_verify_server_t* server,
                            uint64_t* out_retained, uint64_t* out_eager);

void rl_verify_serve_destroy(rl_verify_server_t* server);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_VERIFY_SERVE_H_
