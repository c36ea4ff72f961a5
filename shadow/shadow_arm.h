// shadow/shadow_arm.h — one arm of a shadow or bench run behind a small
// vtable. shadow/shadow.h describes what each kind of arm does; this header
// is how the run drives them. Exported for the arms that live above shadow
// (shadow/hip/), which implement the vtable; nothing else includes it.
//
// Life of an arm: rl_shadow_arm_create() opens the arm's own device,
// creates the kind's object and prepares it from the capture (buffers
// filled from the initial contents, code objects loaded, the route built),
// so a created arm is ready for its first step. Then step() once per
// window, read_region() after each, and rl_shadow_arm_destroy(), which
// also closes the device.
//
// Kinds: shadow_arm_eager.c, shadow_arm_recorded.c (both on the direct
// state of shadow_direct.h), shadow_arm_retained.c (aql, pm4 and drm, the
// last on a "drm" device) and shadow/hip/shadow_arm_hip.c (hip and
// hipgraph, which open no redline device: |device| is NULL; the run gets
// their constructor from rl_shadow_device_options_t.hip_arm).
//
// Thread-safety: an arm is driven by one thread.
#ifndef REDLINE_SHADOW_SHADOW_ARM_H_
#define REDLINE_SHADOW_SHADOW_ARM_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "redline/device/device.h"
#include "redline/replay.h"
#include "redline/status.h"
#include "shadow/shadow.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_shadow_arm_s rl_shadow_arm_t;

typedef struct rl_shadow_arm_vtable_s {
  // Runs one step with |values| (one per capture parameter) and returns
  // once the device finished it.
  rl_status_t (*step)(rl_shadow_arm_t* arm, const int64_t* values);
  // Reads region |region| (exactly its size) into |out_data|.
  rl_status_t (*read_region)(rl_shadow_arm_t* arm, uint32_t region,
                             void* out_data, uint64_t size);
  // The device address of capture buffer |buffer| on this arm.
  rl_status_t (*buffer_address)(const rl_shadow_arm_t* arm, uint32_t buffer,
                                uint64_t* out_address);
  // Corrupts (XOR 0xFF) the byte at device |address| for the negative
  // control; NULL for arms whose memory the device read/write reaches.
  rl_status_t (*flip_byte)(rl_shadow_arm_t* arm, uint64_t address);
  void (*proof)(const rl_shadow_arm_t* arm, rl_shadow_proof_t* out_proof);
  // Host time of the last step from the engine's counters
  // (rl_replay_counters last_host_ns); false for arms without them.
  bool (*last_host_ns)(const rl_shadow_arm_t* arm, uint64_t* out_ns);
  // The engine's counters (rl_replay_counters) of the retained arms; NULL
  // for the others. For traces (shadow/shadow_trace.h).
  void (*replay_counters)(const rl_shadow_arm_t* arm,
                          rl_replay_counters_t* out_counters);
  // Copies packet |index| of the prepared stream (rl_replay_stream_packet);
  // NULL for arms without a retained stream.
  rl_status_t (*stream_packet)(const rl_shadow_arm_t* arm, uint32_t index,
                               uint8_t out_packet[64]);
  // Releases the kind's object (not the device).
  void (*destroy)(rl_shadow_arm_t* arm);
} rl_shadow_arm_vtable_t;

struct rl_shadow_arm_s {
  const rl_shadow_arm_vtable_t* vtable;
  rl_shadow_arm_kind_t kind;
  const rl_capture_t* capture;  // borrowed
  rl_device_t* device;          // owned: closed by rl_shadow_arm_destroy;
                                // NULL for the HIP arms
  uint64_t steps;               // successful steps
  rl_limits_t limits;           // resolved (redline/limits.h)
  rl_shadow_device_options_t device_options;  // what the device was opened
                                              // with (strings borrowed)
};

// What an arm needs besides the capture.
typedef struct rl_shadow_arm_options_s {
  rl_shadow_device_options_t device;
  const rl_shadow_bind_t* binds;  // retained arms only
  uint32_t bind_count;
  // Budgets (zero fields: defaults): the device's work cap, every wait's
  // bound and the retained arms' contract.
  rl_limits_t limits;
} rl_shadow_arm_options_t;

// The replay route a retained arm prepares (RL_ROUTE_NONE for the other
// arms) and, in *|out_device_patch| when not NULL, whether it runs with
// the CP relaying kernarg values (pm4-relay). The one table from arm kinds
// to routes: nothing else in shadow/ branches on a route kind.
rl_route_t rl_shadow_arm_kind_route(rl_shadow_arm_kind_t kind,
                                    bool* out_device_patch);
// True for the arm of plain route pm4: the bench reports its IB census and
// the negative control corrupts it before any other arm.
bool rl_shadow_arm_kind_ib_reference(rl_shadow_arm_kind_t kind);

// Opens a device for |options|, creates and prepares an arm of |kind| on
// it. On failure nothing is left allocated and *|out_arm| is NULL.
rl_status_t rl_shadow_arm_create(rl_shadow_arm_kind_t kind,
                                 const rl_capture_t* capture,
                                 const rl_shadow_arm_options_t* options,
                                 rl_shadow_arm_t** out_arm);

// Runs one step and counts it.
rl_status_t rl_shadow_arm_step(rl_shadow_arm_t* arm, const int64_t* values);

// Corrupts one byte (XOR 0xFF) at |offset| of region |region| in the
// arm's device memory: the negative control.
rl_status_t rl_shadow_arm_corrupt(rl_shadow_arm_t* arm, uint32_t region,
                                  uint64_t offset);

void rl_shadow_arm_destroy(rl_shadow_arm_t* arm);

// Kind constructors: |arm|'s common fields are set; each allocates its
// object with the common part first and prepares it.
rl_status_t rl_shadow_arm_eager_create(rl_shadow_arm_t* common,
                                       rl_shadow_arm_t** out_arm);
rl_status_t rl_shadow_arm_recorded_create(rl_shadow_arm_t* common,
                                          rl_shadow_arm_t** out_arm);
rl_status_t rl_shadow_arm_retained_create(rl_shadow_arm_t* common,
                                          const rl_shadow_arm_options_t* options,
                                          rl_shadow_arm_t** out_arm);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_SHADOW_ARM_H_
