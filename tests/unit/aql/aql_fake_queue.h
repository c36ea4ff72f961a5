// tests/unit/aql/aql_fake_queue.h — an in-memory AQL queue behind a minimal
// rl_device_t, with a packet-processor thread the test controls. Used by
// aql_ring_test and aql_publish_bench.
//
// The ring lives in host memory: every slot starts as 0xCC poison with an
// INVALID header (the setup half of the first word stays 0xCCCC, so a test
// can see that emit never touches the header word). The consumer thread
// mimics a command processor:
//   - it consumes only ids below the last doorbell + 1 (acquire), so a
//     producer that forgets the doorbell stalls it;
//   - it acquire-loads the header word of slot (read_id & mask) and waits
//     while the type is INVALID;
//   - it copies the packet, hands it to |check| (when set), then resets the
//     header word to INVALID (relaxed) and release-stores read_id + 1.
// Stalling it (rl_fake_queue_stall) models a hung processor; setting
// |faulted| makes queue_fault report a fault.
//
// Thread-safety: the producer-side functions and the doorbell log are for
// the test thread; counters read across threads are atomics.
#ifndef REDLINE_TESTS_UNIT_AQL_FAKE_QUEUE_H_
#define REDLINE_TESTS_UNIT_AQL_FAKE_QUEUE_H_

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "redline/device/device.h"

// Checks one consumed packet (64 bytes) of dispatch id |id|; returns false
// to count it as bad.
typedef bool (*rl_fake_queue_check_fn)(void* user, uint64_t id,
                                       const uint8_t* packet);

typedef struct rl_fake_queue_s {
  rl_device_t device;  // first: the vtable recovers the fake from it
  rl_device_queue_t queue;
  _Alignas(64) uint64_t write_index;
  _Alignas(64) uint64_t read_index;
  _Alignas(64) _Atomic uint64_t doorbell_limit;  // last doorbell id + 1
  _Atomic bool stalled;
  _Atomic bool stop;
  _Atomic bool faulted;
  _Atomic uint64_t bad_packets;
  uint64_t doorbell_count;     // producer thread only
  uint64_t* doorbell_log;      // ids, producer thread only
  uint64_t doorbell_capacity;  // 0: count only
  rl_fake_queue_check_fn check;
  void* check_user;
  pthread_t thread;
  bool running;
} rl_fake_queue_t;

// Creates a fake with a ring of |packet_count| (a power of two) poisoned
// slots, logging up to |doorbell_capacity| doorbell ids. The consumer is
// not started.
rl_fake_queue_t* rl_fake_queue_create(uint32_t packet_count,
                                      uint64_t doorbell_capacity);
// Stops the consumer (if running) and frees everything.
void rl_fake_queue_destroy(rl_fake_queue_t* fake);

// Starts the consumer thread; |check| may be NULL.
void rl_fake_queue_start(rl_fake_queue_t* fake, rl_fake_queue_check_fn check,
                         void* user);
void rl_fake_queue_stall(rl_fake_queue_t* fake, bool stalled);

// Waits up to |timeout_ns| until the read id reaches |id|.
bool rl_fake_queue_wait_read(rl_fake_queue_t* fake, uint64_t id,
                             uint64_t timeout_ns);

uint64_t rl_fake_queue_read_id(rl_fake_queue_t* fake);
uint64_t rl_fake_queue_write_id(rl_fake_queue_t* fake);

// The host address of slot |slot|.
uint8_t* rl_fake_queue_slot(rl_fake_queue_t* fake, uint32_t slot);

uint64_t rl_fake_queue_now_ns(void);

#endif  // REDLINE_TESTS_UNIT_AQL_FAKE_QUEUE_H_
