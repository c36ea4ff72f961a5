// shadow/shadow_direct.h — the state the direct arms (eager, recorded)
// share: the capture's buffers on the arm's device, filled from the
// capture's initial contents, and the device-funnel adapter
// (redline/device/device_funnel.h) that issues one launch at a time.
//
// Buffers: allocated with the device's allocate (RL_MEMORY_KIND_DEVICE) at
// the capture's alignment, or with allocate_fixed at the capture address
// for keep-address buffers; filled with the initial contents, or zeros
// when the capture has none. Code objects: loaded through the adapter in
// capture order, so code object c has adapter handle handles[c].
//
// A launch (rl_shadow_direct_launch): one kernel-dispatch packet with the
// barrier bit and system-scope fences, its kernarg copied to a fresh slice
// of the adapter's arena, one doorbell, a bounded wait for completion. A
// fault or timeout breaks the adapter; every later launch fails.
//
// Ownership: the device is borrowed (the arm owns it); deinit releases the
// adapter (its queue first) and then the buffers.
#ifndef REDLINE_SHADOW_SHADOW_DIRECT_H_
#define REDLINE_SHADOW_SHADOW_DIRECT_H_

#include <stdint.h>

#include "redline/capture.h"
#include "redline/device/device.h"
#include "redline/funnel.h"
#include "redline/status.h"
#include "shadow/shadow.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_shadow_direct_s {
  rl_device_t* device;
  const rl_capture_t* capture;
  rl_funnel_device_t adapter;
  uint64_t* addresses;       // per capture buffer (a code object variable:
                             // where this arm's load of it holds it)
  uint32_t buffers_allocated;
  uint64_t* handles;         // per capture code object
  uint8_t* kernarg;          // scratch for one bound kernarg
  uint32_t kernarg_capacity;
  uint64_t launches_issued;
  uint64_t timeout_ns;       // bound of each launch's wait
} rl_shadow_direct_t;

// Allocates and fills the buffers, creates the adapter (each launch's wait
// bounded by |timeout_ns|, 0: RL_DEVICE_FUNNEL_TIMEOUT_NS) and loads the
// code objects. On failure everything taken is released.
rl_status_t rl_shadow_direct_init(rl_shadow_direct_t* direct,
                                  rl_device_t* device,
                                  const rl_capture_t* capture,
                                  uint64_t timeout_ns);
void rl_shadow_direct_deinit(rl_shadow_direct_t* direct);

// Issues launch |launch| of the capture with |kernarg| (its kernarg_size
// bytes) and |grid| through the adapter and waits for it.
rl_status_t rl_shadow_direct_launch(rl_shadow_direct_t* direct,
                                    uint32_t launch, const uint8_t* kernarg,
                                    const uint32_t grid[3]);

// One eager step: every launch of the capture, in order, bound at |values|
// (rl_launch_bind, into direct->kernarg) and issued with
// rl_shadow_direct_launch; stops at the first failure.
rl_status_t rl_shadow_direct_step(rl_shadow_direct_t* direct,
                                  const int64_t* values);

// Reads region |region| (|size| must be its size) from device memory.
rl_status_t rl_shadow_direct_read_region(rl_shadow_direct_t* direct,
                                         uint32_t region, void* out_data,
                                         uint64_t size);

// Fills the proof fields every direct arm shares.
void rl_shadow_direct_proof(const rl_shadow_direct_t* direct,
                            rl_shadow_arm_kind_t kind, uint64_t steps,
                            rl_shadow_proof_t* out_proof);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SHADOW_SHADOW_DIRECT_H_
