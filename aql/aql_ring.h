// aql/aql_ring.h — the AQL producer protocol on a device queue.
//
// Submission order (HSA System Architecture 1.2 §2.8; ROCR
// AqlQueue::ExecutePM4; CLR dispatchGenericAqlPacket — see
// shared/research/pm4_reference.md §4.3):
//   1. reserve: claim dispatch ids [id, id + n) by advancing the write id
//      (the only producer of this queue, so a relaxed load + release store
//      suffices; redline owns its queues exclusively);
//   2. backpressure: wait (bounded) until id + n - read_id <= ring size, so
//      a producer never overwrites a slot the packet processor has not
//      consumed;
//   3. emit: for each packet copy bytes 4..63 into slot (id & mask);
//   4. commit: publish each packet's first 32 bits (header | setup << 16)
//      with one release store, in id order — the header goes last;
//   5. doorbell: ring once with the id of the last packet.
// Emitters never write the header word; rl_aql_ring_commit does.
//
// Thread-safety: one producer thread per ring.
#ifndef REDLINE_AQL_AQL_RING_H_
#define REDLINE_AQL_AQL_RING_H_

#include <stdbool.h>
#include <stdint.h>

#include "aql/aql_packet.h"
#include "redline/device/device.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_aql_ring_s {
  rl_device_t* device;
  rl_device_queue_t* queue;
  uint8_t* slots;     // host view of the ring
  uint64_t mask;      // packet_count - 1
} rl_aql_ring_t;

void rl_aql_ring_init(rl_aql_ring_t* ring, rl_device_t* device,
                      rl_device_queue_t* queue);

// Reserves |count| consecutive slots; *|out_first_id| is the first dispatch
// id. Waits at most |timeout_ns| for the packet processor to free room;
// RL_STATUS_POISONED-class timeout when it does not (the queue is stuck).
// |count| must not exceed the ring size (RL_STATUS_INVALID_ARGUMENT).
rl_status_t rl_aql_ring_reserve(rl_aql_ring_t* ring, uint32_t count,
                                uint64_t timeout_ns, uint64_t* out_first_id);

// Copies bytes 4..63 of |packet| into the slot of dispatch id |id|.
void rl_aql_ring_emit(rl_aql_ring_t* ring, uint64_t id, const void* packet);

// Release-stores |header_word| (header | setup << 16, or header |
// vendor_format << 16) into the first 4 bytes of slot |id|.
void rl_aql_ring_commit(rl_aql_ring_t* ring, uint64_t id, uint32_t header_word);

// Rings the doorbell with |last_id|.
void rl_aql_ring_doorbell(rl_aql_ring_t* ring, uint64_t last_id);

// The first 32 bits of a 64-byte packet (header and setup / vendor format).
static inline uint32_t rl_aql_header_word(const void* packet) {
  const uint8_t* bytes = (const uint8_t*)packet;
  return (uint32_t)bytes[0] | ((uint32_t)bytes[1] << 8) |
         ((uint32_t)bytes[2] << 16) | ((uint32_t)bytes[3] << 24);
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_AQL_AQL_RING_H_
