// redline/replay_route.h — the route interface of the replay engine
// (private to rl_engine). The engine core (replay.c, replay_prepare.c,
// replay_run.c) drives a route only through this table and never asks
// which route it is:
//
//   prepare   after the shared state (hazard plan, buffers, code objects,
//             kernarg segment, completion signal): the route's own device
//             state (queue, IB), lowering, census, the initial image on
//             the device, and replay->binds / replay->dests (the compiled
//             patch table of capture/bind/bind_table.h and its destinations);
//   apply     writes only the values that changed, all or nothing (every
//             route: rl_replay_route_apply, the one shared apply);
//   publish   hands the stream to the device; *out_last names what the
//             wait waits for;
//   wait      the bounded wait for completion and its check (a fault or a
//             wrong completion value: RL_STATUS_POISONED; an expired wait
//             with the device not provably stopped: RL_STATUS_QUARANTINED);
//   proof     the route's fields of rl_route_proof_t (queue id included),
//             and the prepared stream (packets, the IB where the route
//             has one, patch sites);
//   release   the route's device resources once the device is idle
//             (RL_STATUS_QUARANTINED: still in use, the rest is leaked);
//   destroy   the route's host state.
//
// The route's own state (queue, ring, packets, IB...) lives behind
// replay->route_state (replay_route_state.h), which only replay_route*.c
// include: nothing else branches on the route or reads its state.
//
// Adding a route: one file defining its rl_replay_route_t (its name
// included: rl_route_name and rl_route_parse read the registry), and one
// line in the registry (replay_route.c).
//
// Thread-safety: one thread at a time per replay (replay.h).
#ifndef REDLINE_REPLAY_ROUTE_H_
#define REDLINE_REPLAY_ROUTE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/replay.h"

typedef struct rl_replay_route_s {
  rl_route_t route;
  const char* name;  // rl_route_name: "aql", "pm4", "drm"
  // Whether |device| can run the route at all (before anything is built).
  bool (*device_runs)(const rl_device_t* device);
  // Kernarg segment bytes the route lays out for |capture| (0: none).
  uint32_t (*kernarg_size)(const rl_capture_t* capture);
  rl_status_t (*prepare)(rl_replay_t* replay);
  rl_status_t (*apply)(rl_replay_t* replay, const int64_t* values,
                       uint32_t value_count, uint32_t* out_changed);
  rl_status_t (*publish)(rl_replay_t* replay, uint64_t* out_last);
  rl_status_t (*wait)(rl_replay_t* replay, uint64_t last);
  void (*proof)(const rl_replay_t* replay, rl_route_proof_t* out_proof);
  rl_status_t (*stream_packet)(const rl_replay_t* replay, uint32_t index,
                               uint8_t out_packet[64]);
  // The IB the route runs (rl_replay_stream_ib); NULL: the route has none.
  rl_status_t (*stream_ib)(const rl_replay_t* replay, uint32_t* out_dwords,
                           uint32_t capacity, uint32_t* out_count);
  rl_status_t (*patch_site)(const rl_replay_t* replay, uint32_t index,
                            rl_patch_site_t* out_site);
  rl_status_t (*release)(rl_replay_t* replay);
  void (*destroy)(rl_replay_t* replay);
} rl_replay_route_t;

// The registered route |route|, or NULL (replay_route.c).
const rl_replay_route_t* rl_replay_route_find(rl_route_t route);

// "aql, pm4 and drm": the registered routes |device| runs.
void rl_replay_route_list_runnable(const rl_device_t* device, char* out,
                                   size_t out_size);

// The routes (one file each).
extern const rl_replay_route_t rl_replay_route_aql;  // replay_route_aql.c
extern const rl_replay_route_t rl_replay_route_pm4;  // replay_route_pm4.c
extern const rl_replay_route_t rl_replay_route_drm;  // replay_route_drm.c

//===----------------------------------------------------------------------===//
// Shared by the routes (replay_route.c)
//===----------------------------------------------------------------------===//

// The apply every route uses: replay->binds over replay->dests.
rl_status_t rl_replay_route_apply(rl_replay_t* replay, const int64_t* values,
                                  uint32_t value_count, uint32_t* out_changed);

// The |what| of a patch site of launch |launch_index|: "buffer y +0x10"
// for pointer slot |slot| when |pointer|, else binding |binding|'s
// expression ("ceil((pos+1)/64)"). Returns RL_OK.
rl_status_t rl_replay_route_site_what(const rl_capture_t* capture,
                                      uint32_t launch_index, bool pointer,
                                      uint32_t slot, uint32_t binding,
                                      rl_patch_site_t* out_site);

// Routes over an AQL queue (aql, pm4): the queue, created at prepare and
// destroyed at release; publication of |count| complete 64-byte |packets|
// (completion signal armed at 1, ring protocol, one doorbell timed apart);
// the bounded wait in slices on the signal with the queue's fault watched;
// and the fault as a POISONED status (RL_OK when none).
bool rl_replay_queue_device_runs(const rl_device_t* device);
rl_status_t rl_replay_queue_create(rl_replay_t* replay);
rl_status_t rl_replay_queue_release(rl_replay_t* replay);
rl_status_t rl_replay_queue_publish(rl_replay_t* replay, const void* packets,
                                    uint32_t count, uint64_t* out_last);
rl_status_t rl_replay_queue_wait(rl_replay_t* replay, uint64_t last);
rl_status_t rl_replay_queue_fault(rl_replay_t* replay);
// The queue id (0 without a queue), for the proof.
uint32_t rl_replay_queue_id(const rl_replay_t* replay);

#endif  // REDLINE_REPLAY_ROUTE_H_
