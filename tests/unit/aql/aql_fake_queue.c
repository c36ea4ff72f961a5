// An in-memory AQL queue with a controllable packet processor
// (tests/unit/aql/aql_fake_queue.h).
#include "tests/unit/aql/aql_fake_queue.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aql/aql_packet.h"

#define RL_FAKE_INVALID_HEADER ((uint16_t)RL_AQL_PACKET_TYPE_INVALID)

uint64_t rl_fake_queue_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

static void rl_fake_queue_doorbell(rl_device_t* device,
                                   rl_device_queue_t* queue,
                                   uint64_t packet_id) {
  (void)queue;
  rl_fake_queue_t* fake = (rl_fake_queue_t*)device;
  if (fake->doorbell_count < fake->doorbell_capacity) {
    fake->doorbell_log[fake->doorbell_count] = packet_id;
  }
  ++fake->doorbell_count;
  atomic_store_explicit(&fake->doorbell_limit, packet_id + 1,
                        memory_order_release);
}

static void rl_fake_queue_fault(rl_device_t* device,
                                const rl_device_queue_t* queue,
                                rl_device_fault_t* out_fault) {
  (void)queue;
  rl_fake_queue_t* fake = (rl_fake_queue_t*)device;
  memset(out_fault, 0, sizeof(*out_fault));
  if (atomic_load(&fake->faulted)) {
    out_fault->faulted = true;
    out_fault->packet_id = rl_fake_queue_read_id(fake);
    strcpy(out_fault->message, "fake fault injected by the test");
  }
}

static const rl_device_vtable_t rl_fake_queue_vtable = {
    .queue_doorbell = rl_fake_queue_doorbell,
    .queue_fault = rl_fake_queue_fault,
};

rl_fake_queue_t* rl_fake_queue_create(uint32_t packet_count,
                                      uint64_t doorbell_capacity) {
  rl_fake_queue_t* fake = aligned_alloc(64, sizeof(rl_fake_queue_t));
  if (!fake) return NULL;
  memset(fake, 0, sizeof(*fake));
  uint8_t* ring = aligned_alloc(64, (size_t)packet_count * RL_AQL_PACKET_SIZE);
  fake->doorbell_log = calloc(doorbell_capacity + 1, sizeof(uint64_t));
  if (!ring || !fake->doorbell_log) abort();
  memset(ring, 0xCC, (size_t)packet_count * RL_AQL_PACKET_SIZE);
  for (uint32_t i = 0; i < packet_count; ++i) {
    memcpy(ring + (size_t)i * RL_AQL_PACKET_SIZE, &(uint16_t){
        RL_FAKE_INVALID_HEADER}, 2);
  }
  fake->device = (rl_device_t){.vtable = &rl_fake_queue_vtable,
                               .name = "fake", .target = "fake"};
  fake->queue = (rl_device_queue_t){.id = 1, .packet_count = packet_count,
                                    .ring = ring,
                                    .write_index = &fake->write_index,
                                    .read_index = &fake->read_index};
  fake->doorbell_capacity = doorbell_capacity;
  return fake;
}

// Waits for the next packet; false when stopping.
static bool rl_fake_queue_next(rl_fake_queue_t* fake, uint64_t id,
                               const _Atomic uint32_t* word) {
  for (uint32_t spin = 0;; ++spin) {
    if (atomic_load_explicit(&fake->stop, memory_order_relaxed)) return false;
    if (atomic_load_explicit(&fake->stalled, memory_order_relaxed)) {
      // A stalled processor sleeps, so it leaves the producer its core.
      nanosleep(&(struct timespec){.tv_nsec = 20000}, NULL);
      continue;
    }
    bool ready =
        id < atomic_load_explicit(&fake->doorbell_limit,
                                  memory_order_acquire) &&
        (atomic_load_explicit(word, memory_order_acquire) & 0xffu) !=
            RL_AQL_PACKET_TYPE_INVALID;
    if (ready) return true;
    if (spin > 64) sched_yield();
  }
}

static void* rl_fake_queue_consume(void* arg) {
  rl_fake_queue_t* fake = arg;
  _Atomic uint64_t* read_index = (_Atomic uint64_t*)&fake->read_index;
  uint64_t mask = fake->queue.packet_count - 1;
  uint8_t* ring = fake->queue.ring;
  for (uint64_t id = atomic_load(read_index);; ++id) {
    uint8_t* slot = ring + (id & mask) * RL_AQL_PACKET_SIZE;
    _Atomic uint32_t* word = (_Atomic uint32_t*)slot;
    if (!rl_fake_queue_next(fake, id, word)) break;
    if (fake->check) {
      uint8_t packet[RL_AQL_PACKET_SIZE];
      memcpy(packet, slot, sizeof(packet));
      if (!fake->check(fake->check_user, id, packet)) {
        atomic_fetch_add(&fake->bad_packets, 1);
      }
    }
    atomic_store_explicit(word, RL_FAKE_INVALID_HEADER, memory_order_relaxed);
    atomic_store_explicit(read_index, id + 1, memory_order_release);
  }
  return NULL;
}

void rl_fake_queue_start(rl_fake_queue_t* fake, rl_fake_queue_check_fn check,
                         void* user) {
  fake->check = check;
  fake->check_user = user;
  if (pthread_create(&fake->thread, NULL, rl_fake_queue_consume, fake) != 0) {
    abort();
  }
  fake->running = true;
}

void rl_fake_queue_stall(rl_fake_queue_t* fake, bool stalled) {
  atomic_store(&fake->stalled, stalled);
}

uint64_t rl_fake_queue_read_id(rl_fake_queue_t* fake) {
  return atomic_load_explicit((_Atomic uint64_t*)&fake->read_index,
                              memory_order_acquire);
}

uint64_t rl_fake_queue_write_id(rl_fake_queue_t* fake) {
  return atomic_load_explicit((_Atomic uint64_t*)&fake->write_index,
                              memory_order_acquire);
}

bool rl_fake_queue_wait_read(rl_fake_queue_t* fake, uint64_t id,
                             uint64_t timeout_ns) {
  uint64_t start = rl_fake_queue_now_ns();
  while (rl_fake_queue_read_id(fake) < id) {
    if (rl_fake_queue_now_ns() - start > timeout_ns) return false;
    sched_yield();
  }
  return true;
}

uint8_t* rl_fake_queue_slot(rl_fake_queue_t* fake, uint32_t slot) {
  return (uint8_t*)fake->queue.ring + (size_t)slot * RL_AQL_PACKET_SIZE;
}

void rl_fake_queue_destroy(rl_fake_queue_t* fake) {
  if (!fake) return;
  if (fake->running) {
    atomic_store(&fake->stop, true);
    pthread_join(fake->thread, NULL);
  }
  free(fake->queue.ring);
  free(fake->doorbell_log);
  free(fake);
}
