// redline/replay_route_state.h — the routes' own state (private to
// replay_route*.c). The replay object holds it as an opaque pointer
// (rl_replay_t.route_state, replay_internal.h): the engine core cannot
// name a queue, an IB or a program, so it reaches them only through the
// route table (redline/replay_route.h). A route's prepare allocates it
// (rl_replay_route_state_get), its destroy frees it
// (rl_replay_route_state_free); every other operation accepts a replay
// whose route never prepared (NULL state: nothing to release or show).
#ifndef REDLINE_REPLAY_ROUTE_STATE_H_
#define REDLINE_REPLAY_ROUTE_STATE_H_

#include <stdbool.h>
#include <stdint.h>

#include "aql/aql_lower.h"
#include "aql/aql_ring.h"
#include "pm4/pm4_lower.h"
#include "redline/device/device.h"
#include "redline/replay_internal.h"

struct rl_replay_route_state_s {
  // Routes over an AQL queue (aql, pm4; replay_route.c): the queue, created
  // at prepare and destroyed at release, and the ring protocol over it.
  rl_device_queue_t queue;
  bool has_queue;
  rl_aql_ring_t ring;
  // Route aql (replay_route_aql.c): the retained dispatch packets.
  rl_aql_program_t* program;
  // Routes pm4 and drm (replay_route_pm4.c): the IB, its program and the
  // kernels' entry addresses (load base + entry_address).
  rl_device_allocation_t ib;
  bool has_ib;
  // The scratch ring of a capture with scratch kernels (rl_pm4_scratch_t),
  // device memory owned by the replay from prepare to release.
  rl_device_allocation_t scratch;
  bool has_scratch;
  // The relay slots (options.pm4_device_patch; pm4/pm4_lower.h Relay):
  // host-visible kernarg memory the host writes per run and the CP copies
  // from.
  rl_device_allocation_t relay;
  bool has_relay;
  // Route drm: a submission whose fence wait expired; it may still run,
  // so nothing is freed (release refuses).
  bool ib_pending;
  rl_pm4_program_t* pm4;
  uint64_t* kernel_entries;
};

// The replay's route state, allocated zeroed on first use (prepare).
rl_status_t rl_replay_route_state_get(rl_replay_t* replay,
                                      rl_replay_route_state_t** out_state);

// Frees the route state (after the route freed what it points to) and
// clears replay->route_state; a replay without one is left alone.
void rl_replay_route_state_free(rl_replay_t* replay);

//===----------------------------------------------------------------------===//
// replay_route_pm4.c (shared with route drm)
//===----------------------------------------------------------------------===//

// After the shared state: the kernels' entry addresses, the scratch ring
// (when a kernel needs scratch), the IB (measured, allocated host-visible),
// lowering, census, the IB and kernarg image on the device, replay->binds
// and replay->dests. No queue.
rl_status_t rl_replay_pm4_prepare_ib(rl_replay_t* replay);
void rl_replay_pm4_proof(const rl_replay_t* replay,
                         rl_route_proof_t* out_proof);
rl_status_t rl_replay_pm4_stream_packet(const rl_replay_t* replay,
                                        uint32_t index,
                                        uint8_t out_packet[64]);
rl_status_t rl_replay_pm4_stream_ib(const rl_replay_t* replay,
                                    uint32_t* out_dwords, uint32_t capacity,
                                    uint32_t* out_count);
rl_status_t rl_replay_pm4_patch_site(const rl_replay_t* replay,
                                     uint32_t index, rl_patch_site_t* out_site);
// Frees the IB and the scratch ring (the device is idle).
rl_status_t rl_replay_pm4_release_ib(rl_replay_t* replay);
void rl_replay_pm4_destroy(rl_replay_t* replay);

#endif  // REDLINE_REPLAY_ROUTE_STATE_H_
