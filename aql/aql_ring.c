// The AQL producer protocol (aql/aql_ring.h). Sources: HSA System
// Architecture 1.2 §2.8; ROCR amd_aql_queue.cpp AqlQueue::ExecutePM4 and CLR
// rocvirtual.cpp dispatchGenericAqlPacket.
//
// The ring lives in host-visible system memory on every backend redline
// drives today, so a release store orders the packet body before the
// header. ROCR adds an sfence before the header store only for rings in
// device memory (its dev_mem_queue flag); a backend that places the ring
// there must add one here.
#include "aql/aql_ring.h"

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"

// Polls of the read id before looking at the clock: about a microsecond.
#define RL_AQL_RING_SPIN_COUNT 256u
// sched_yield() rounds before sleeping.
#define RL_AQL_RING_YIELD_COUNT 16u
// Sleep steps double from 1 µs up to 50 µs, so a stuck queue costs little
// CPU while a slow one is still noticed within 50 µs.
#define RL_AQL_RING_SLEEP_MIN_NS 1000u
#define RL_AQL_RING_SLEEP_MAX_NS 50000u

static inline void rl_aql_ring_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static void rl_aql_ring_sleep_ns(uint64_t ns) {
  struct timespec request = {.tv_sec = 0, .tv_nsec = (long)ns};
  while (nanosleep(&request, &request) != 0 && errno == EINTR) {
  }
}

void rl_aql_ring_init(rl_aql_ring_t* ring, const rl_aql_ring_queue_t* queue) {
  ring->queue = *queue;
  ring->slots = (uint8_t*)queue->slots;
  ring->packet_count = queue->packet_count;
  ring->mask = (uint64_t)queue->packet_count - 1;
  ring->read_id_seen = atomic_load_explicit(
      (_Atomic uint64_t*)queue->read_index, memory_order_acquire);
}

// True when ids [write_id, write_id + count) are free: first against the
// read id seen last (slots below it were freed then), else against a fresh
// load. The acquire pairs with the processor's release of the read id,
// which it issues after resetting the consumed slots' headers: slots below
// the read id are ours.
static bool rl_aql_ring_has_room(rl_aql_ring_t* ring, uint64_t write_id,
                                 uint32_t count) {
  if (write_id + count - ring->read_id_seen <= ring->packet_count) return true;
  ring->read_id_seen = atomic_load_explicit(
      (_Atomic uint64_t*)ring->queue.read_index, memory_order_acquire);
  return write_id + count - ring->read_id_seen <= ring->packet_count;
}

// RL_OK when the device does not report a fault on the queue.
static rl_status_t rl_aql_ring_fault_status(const rl_aql_ring_t* ring) {
  if (!ring->queue.fault_status) return RL_OK;
  return ring->queue.fault_status(ring->queue.device, ring->queue.queue);
}

// Bounded wait for room: spin, then yield, then sleep in growing steps.
static rl_status_t rl_aql_ring_wait_room(rl_aql_ring_t* ring,
                                         uint64_t write_id, uint32_t count,
                                         uint64_t timeout_ns) {
  for (uint32_t spin = 0; spin < RL_AQL_RING_SPIN_COUNT; ++spin) {
    if (rl_aql_ring_has_room(ring, write_id, count)) return RL_OK;
    rl_aql_ring_cpu_relax();
  }
  const uint64_t start = rl_now_ns();
  uint64_t sleep_ns = RL_AQL_RING_SLEEP_MIN_NS;
  for (uint32_t round = 0;; ++round) {
    if (rl_aql_ring_has_room(ring, write_id, count)) return RL_OK;
    RL_RETURN_IF_ERROR(rl_aql_ring_fault_status(ring));
    uint64_t elapsed = rl_now_ns() - start;
    if (elapsed >= timeout_ns) break;
    if (round < RL_AQL_RING_YIELD_COUNT) {
      sched_yield();
      continue;
    }
    uint64_t left = timeout_ns - elapsed;
    rl_aql_ring_sleep_ns(sleep_ns < left ? sleep_ns : left);
    if (sleep_ns < RL_AQL_RING_SLEEP_MAX_NS) sleep_ns *= 2;
  }
  return RL_STATUS(RL_STATUS_POISONED,
                   "AQL queue %u: no room for %u packets after %llu ns "
                   "(write id %llu, read id %llu, ring of %u)",
                   ring->queue.id, count, (unsigned long long)timeout_ns,
                   (unsigned long long)write_id,
                   (unsigned long long)atomic_load_explicit(
                       (_Atomic uint64_t*)ring->queue.read_index,
                       memory_order_acquire),
                   ring->packet_count);
}

rl_status_t rl_aql_ring_reserve(rl_aql_ring_t* ring, uint32_t count,
                                uint64_t timeout_ns, uint64_t* out_first_id) {
  *out_first_id = 0;
  if (count == 0 || count > ring->packet_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "AQL reserve of %u packets: expected 1..%u (ring size)",
                     count, ring->packet_count);
  }
  _Atomic uint64_t* write_index = (_Atomic uint64_t*)ring->queue.write_index;
  // Only this thread stores the write id, so relaxed reads our own value.
  uint64_t write_id = atomic_load_explicit(write_index, memory_order_relaxed);
  if (!rl_aql_ring_has_room(ring, write_id, count)) {
    RL_RETURN_IF_ERROR(
        rl_aql_ring_wait_room(ring, write_id, count, timeout_ns));
  }
  atomic_store_explicit(write_index, write_id + count, memory_order_release);
  *out_first_id = write_id;
  return RL_OK;
}

void rl_aql_ring_emit(rl_aql_ring_t* ring, uint64_t id, const void* packet) {
  memcpy(rl_aql_ring_slot(ring, id) + 4, (const uint8_t*)packet + 4,
         RL_AQL_PACKET_SIZE - 4);
}

void rl_aql_ring_commit(rl_aql_ring_t* ring, uint64_t id,
                        uint32_t header_word) {
  atomic_store_explicit((_Atomic uint32_t*)rl_aql_ring_slot(ring, id),
                        header_word, memory_order_release);
}

void rl_aql_ring_doorbell(rl_aql_ring_t* ring, uint64_t last_id) {
  ring->queue.doorbell(ring->queue.device, ring->queue.queue, last_id);
}

rl_status_t rl_aql_ring_submit(rl_aql_ring_t* ring, const void* packets,
                               uint32_t count, uint64_t timeout_ns,
                               uint64_t* out_last_id) {
  *out_last_id = 0;
  uint64_t first = 0;
  RL_RETURN_IF_ERROR(rl_aql_ring_reserve(ring, count, timeout_ns, &first));
  const uint8_t* bytes = (const uint8_t*)packets;
  for (uint32_t i = 0; i < count; ++i) {
    rl_aql_ring_emit(ring, first + i, bytes + (size_t)i * RL_AQL_PACKET_SIZE);
  }
  for (uint32_t i = 0; i < count; ++i) {
    rl_aql_ring_commit(
        ring, first + i,
        rl_aql_header_word(bytes + (size_t)i * RL_AQL_PACKET_SIZE));
  }
  *out_last_id = first + count - 1;
  rl_aql_ring_doorbell(ring, *out_last_id);
  return RL_OK;
}
