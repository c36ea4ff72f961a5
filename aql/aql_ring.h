// aql/aql_ring.h — the AQL producer protocol on a device queue.
//
// Submission order (HSA System Architecture 1.2 §2.8; ROCR
// AqlQueue::ExecutePM4; CLR rocvirtual.cpp dispatchGenericAqlPacket):
//   1. backpressure: with the write id w (a relaxed load: redline owns its
//      queues exclusively, so this thread is the only producer), wait
//      (bounded) until w + n - read_id <= ring size, reading the read id
//      with an acquire load, so a producer never overwrites a slot the
//      packet processor has not consumed (the acquire pairs with the
//      processor's release of the read id after it reset the slot);
//   2. reserve: claim dispatch ids [w, w + n) by storing w + n to the write
//      id (release). Nothing is claimed when step 1 times out;
//   3. emit: for each packet copy bytes 4..63 into slot (id & mask); the
//      slot's header word is still INVALID, so the processor ignores it;
//   4. commit: publish each packet's first 32 bits (header | setup << 16)
//      with one release store, in id order — the header goes last, and the
//      release orders the body bytes before it;
//   5. doorbell: ring once per batch with the id of the last packet.
// Emitters never write the header word; rl_aql_ring_commit does.
//
// A reserved slot must be committed: the processor consumes ids in order
// and waits on the first uncommitted header, so a producer that reserves
// and then stops stalls the queue. Therefore every error is raised by
// rl_aql_ring_reserve (before anything is claimed); emit, commit and
// doorbell cannot fail.
//
// Thread-safety: one producer thread per ring. The packet processor runs
// concurrently and synchronises only through the header words (acquire by
// the processor, release here) and the read id (release by the processor,
// acquire here).
#ifndef REDLINE_AQL_AQL_RING_H_
#define REDLINE_AQL_AQL_RING_H_

#include <stdbool.h>
#include <stdint.h>

#include "aql/aql_packet.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// The queue a ring produces into. aql/ sits below the device interface
// (redline/device/device.h), so the ring sees only the queue's memory and
// two callbacks on opaque |device| and |queue| pointers;
// rl_device_aql_ring_init (redline/device/device_ring.h) fills this from
// an rl_device_queue_t.
typedef struct rl_aql_ring_queue_s {
  uint32_t id;            // for messages
  uint32_t packet_count;  // power of two
  void* slots;            // host view of packet_count * 64 bytes
  uint64_t* write_index;  // owned by the producer (atomic)
  uint64_t* read_index;   // owned by the packet processor (atomic)
  void* device;
  void* queue;
  // Rings the doorbell with the id of the last packet written.
  void (*doorbell)(void* device, void* queue, uint64_t packet_id);
  // RL_OK, or RL_STATUS_POISONED naming the fault when the queue faulted.
  // NULL when the queue cannot report faults.
  rl_status_t (*fault_status)(void* device, void* queue);
} rl_aql_ring_queue_t;

typedef struct rl_aql_ring_s {
  rl_aql_ring_queue_t queue;
  uint8_t* slots;          // host view of the ring
  uint64_t mask;           // packet_count - 1
  uint32_t packet_count;   // ring size in packets (a power of two)
  // The packet processor's read id as last loaded: a lower bound of the
  // true one (it only grows), so a reserve that fits below it needs no load
  // of the read index, a cache line the processor writes (on the simulator
  // a transfer from the other core, about 0.1 µs per step).
  uint64_t read_id_seen;
} rl_aql_ring_t;

// Binds |ring| to |queue| (copied; caller storage; nothing allocated).
// |queue|->packet_count must be a power of two.
void rl_aql_ring_init(rl_aql_ring_t* ring, const rl_aql_ring_queue_t* queue);

// Reserves |count| consecutive slots; *|out_first_id| is the first dispatch
// id (cleared to 0 on entry). Waits at most |timeout_ns| for the packet
// processor to free room: it spins briefly, then yields, then sleeps in
// growing steps (at most 50 µs), measuring the deadline on CLOCK_MONOTONIC.
// Fails, claiming nothing, with:
//   RL_STATUS_INVALID_ARGUMENT  |count| is 0 or exceeds the ring size;
//   RL_STATUS_POISONED          the deadline passed (the queue is stuck), or
//                               the device reports a fault on the queue
//                               (its message is included).
rl_status_t rl_aql_ring_reserve(rl_aql_ring_t* ring, uint32_t count,
                                uint64_t timeout_ns, uint64_t* out_first_id);

// Copies bytes 4..63 of |packet| into the slot of dispatch id |id|, which
// must have been reserved and not yet committed. The header word is left
// as it is (INVALID).
void rl_aql_ring_emit(rl_aql_ring_t* ring, uint64_t id, const void* packet);

// Release-stores |header_word| (header | setup << 16, or header |
// vendor_format << 16) into the first 4 bytes of slot |id|.
void rl_aql_ring_commit(rl_aql_ring_t* ring, uint64_t id, uint32_t header_word);

// Rings the doorbell with |last_id|.
void rl_aql_ring_doorbell(rl_aql_ring_t* ring, uint64_t last_id);

// The whole protocol for |count| complete 64-byte |packets| (headers
// included, as built by rl_aql_lower): reserve, emit all, commit all in
// order, one doorbell. *|out_last_id| is the id of the last packet (cleared
// on entry). Fails only where rl_aql_ring_reserve fails, before anything is
// written.
rl_status_t rl_aql_ring_submit(rl_aql_ring_t* ring, const void* packets,
                               uint32_t count, uint64_t timeout_ns,
                               uint64_t* out_last_id);

// The first 32 bits of a 64-byte packet (header and setup / vendor format).
static inline uint32_t rl_aql_header_word(const void* packet) {
  const uint8_t* bytes = (const uint8_t*)packet;
  return (uint32_t)bytes[0] | ((uint32_t)bytes[1] << 8) |
         ((uint32_t)bytes[2] << 16) | ((uint32_t)bytes[3] << 24);
}

// The host address of the slot of dispatch id |id|.
static inline uint8_t* rl_aql_ring_slot(const rl_aql_ring_t* ring,
                                        uint64_t id) {
  return ring->slots + (id & ring->mask) * RL_AQL_PACKET_SIZE;
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_AQL_AQL_RING_H_
