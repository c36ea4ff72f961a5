// redline/device/device_ring.h — an AQL producer ring (aql/aql_ring.h) on a
// queue of an rl_device_t.
//
// aql/ does not know the device interface: its ring produces into a
// described queue with a doorbell and a fault callback. This adapter is the
// one place that describes an rl_device_queue_t that way, so every producer
// (the replay engine, the recording funnel's device, the drm stand-in)
// binds its ring identically.
#ifndef REDLINE_DEVICE_DEVICE_RING_H_
#define REDLINE_DEVICE_DEVICE_RING_H_

#include "aql/aql_ring.h"
#include "redline/device/device.h"

#ifdef __cplusplus
extern "C" {
#endif

// Binds |ring| to |queue| of |device| (caller storage; nothing allocated).
// The doorbell calls |device|'s queue_doorbell; a fault reported by its
// queue_fault (when the backend has one) fails rl_aql_ring_reserve with
// RL_STATUS_POISONED naming the queue, the packet and the device's message.
// |device| and |queue| must outlive |ring|.
void rl_device_aql_ring_init(rl_aql_ring_t* ring, rl_device_t* device,
                             rl_device_queue_t* queue);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_DEVICE_DEVICE_RING_H_
