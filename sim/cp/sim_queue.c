// sim/cp/sim_queue.c — AQL queues of the simulated device: creation,
// the doorbell, state queries, fault reports, hang injection and
// destruction. The command processor that consumes a queue is sim_cp.c.
//
// Each queue has a ring of packet_count 64-byte slots in device memory
// (every header INVALID to start with) and a 256-byte amd_queue_t-shaped
// descriptor whose write_dispatch_id (byte 56) and read_dispatch_id (byte
// 128) are the queue's ids (Debian hsa/amd_hsa_queue.h offsets,
// pm4_reference.md §4.3).
//
// Destroy semantics: queue_destroy always stops the command processor and
// joins its thread, whatever it is doing: waiting for a doorbell or a
// header, blocked in a barrier-AND/OR that will never be satisfied, hung by
// rl_sim_inject_hang, parked after a fault, or inside a work-group that
// never ends. Every CP wait loop checks the stop flag at least every
// RL_SIM_WAIT_SLICE_NS, and an executor inside a work-group at least every
// RL_SIM_WG_STOP_POLL wave-instructions (sim_executor.h). So on the simulator
// destroy returns OK and nothing touches the queue's memory afterwards; the
// decision to quarantine belongs to the engine, which asks queue_idle() and
// queue_fault() *before* destroying (a queue that is not idle had packets in
// flight, so whatever they referenced is in an unknown state).
//
// The device owns its queues: it keeps a list of the live ones, and its
// destruction stops and joins every queue still on it before any memory
// or loader table is freed, so a queue someone left busy can never run a
// kernel into freed memory.
#define _GNU_SOURCE  // pthread_attr_setaffinity_np, cpu_set_t
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/clock/sim_clock.h"
#include "sim/cp/sim_cp.h"
#include "sim/signal/sim_signal.h"

// amd_queue_t offsets (hsa/amd_hsa_queue.h) and size.
#define RL_SIM_QUEUE_DESCRIPTOR_SIZE 256u
#define RL_SIM_QUEUE_WRITE_ID_OFFSET 56u
#define RL_SIM_QUEUE_READ_ID_OFFSET 128u
// Largest ring accepted (ROCr's default queue is 4096 packets; HSA caps
// queue sizes at what the agent reports, 2^17 on current GPUs).
#define RL_SIM_QUEUE_MAX_PACKETS (1u << 17)

static rl_sim_queue_t* rl_sim_queue_cast(const rl_device_queue_t* queue) {
  return (rl_sim_queue_t*)queue->backend;
}

// Allocates the ring and descriptor of a zeroed |queue|.
static rl_status_t rl_sim_queue_allocate(rl_sim_queue_t* queue) {
  rl_sim_memory_t* memory = &queue->device->memory;
  rl_device_allocation_t ring;
  RL_RETURN_IF_ERROR(rl_sim_memory_allocate(
      memory, (uint64_t)queue->packet_count * RL_AQL_PACKET_SIZE,
      RL_AQL_PACKET_SIZE, RL_MEMORY_KIND_SYSTEM, &ring));
  queue->ring = ring.host;
  queue->ring_address = ring.address;
  for (uint32_t i = 0; i < queue->packet_count; ++i) {
    atomic_init((_Atomic uint32_t*)(queue->ring + i * RL_AQL_PACKET_SIZE),
                RL_AQL_PACKET_TYPE_INVALID);
  }
  rl_device_allocation_t descriptor;
  RL_RETURN_IF_ERROR(
      rl_sim_memory_allocate(memory, RL_SIM_QUEUE_DESCRIPTOR_SIZE, 64,
                             RL_MEMORY_KIND_SYSTEM, &descriptor));
  uint8_t* host = descriptor.host;
  queue->descriptor_address = descriptor.address;
  queue->write_index = (_Atomic uint64_t*)(host + RL_SIM_QUEUE_WRITE_ID_OFFSET);
  queue->read_index = (_Atomic uint64_t*)(host + RL_SIM_QUEUE_READ_ID_OFFSET);
  atomic_init(queue->write_index, 0);
  atomic_init(queue->read_index, 0);
  queue->lds = calloc(1, RL_SIM_LDS_LIMIT);
  return queue->lds ? RL_OK : rl_status_out_of_memory();
}

// Frees everything of |queue| except the thread (already joined).
static void rl_sim_queue_release(rl_sim_queue_t* queue) {
  rl_sim_memory_t* memory = &queue->device->memory;
  if (queue->ring_address) {
    rl_status_free(rl_sim_memory_free(memory, queue->ring_address));
  }
  if (queue->descriptor_address) {
    rl_status_free(rl_sim_memory_free(memory, queue->descriptor_address));
  }
  for (uint32_t i = 0; i < RL_SIM_BATCH_MAX; ++i) {
    rl_sim_range_set_deinit(&queue->runs[i].reads);
    rl_sim_range_set_deinit(&queue->runs[i].writes);
  }
  rl_sim_hazard_open_deinit(&queue->open);
  rl_sim_hazard_open_deinit(&queue->unacquired);
  rl_sim_parallel_pool_free(queue);
  free(queue->lds);
  rl_sim_pm4_state_destroy(queue->pm4);
  pthread_mutex_destroy(&queue->lock);
  pthread_cond_destroy(&queue->cond);
  free(queue);
}

static void rl_sim_queue_link(rl_sim_device_t* device, rl_sim_queue_t* queue) {
  pthread_mutex_lock(&device->queue_lock);
  queue->next = device->queues;
  if (device->queues) device->queues->prev = queue;
  device->queues = queue;
  pthread_mutex_unlock(&device->queue_lock);
}

static void rl_sim_queue_unlink(rl_sim_device_t* device,
                                rl_sim_queue_t* queue) {
  pthread_mutex_lock(&device->queue_lock);
  if (queue->prev) queue->prev->next = queue->next;
  if (queue->next) queue->next->prev = queue->prev;
  if (device->queues == queue) device->queues = queue->next;
  queue->prev = queue->next = NULL;
  pthread_mutex_unlock(&device->queue_lock);
}

// Starts the CP thread, on CPU options.cp_cpu when options.pin_cp.
static rl_status_t rl_sim_queue_start(rl_sim_queue_t* queue) {
  const rl_sim_options_t* options = &queue->device->options;
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return rl_status_out_of_memory();
  rl_status_t status = RL_OK;
  if (options->pin_cp) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (options->cp_cpu < 0 || options->cp_cpu >= CPU_SETSIZE) {
      status = RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                         "command-processor CPU %d is out of range",
                         options->cp_cpu);
    } else {
      CPU_SET(options->cp_cpu, &cpus);
      pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
    }
  }
  if (status == RL_OK &&
      pthread_create(&queue->thread, &attr, rl_sim_cp_main, queue) != 0) {
    status = RL_STATUS(RL_STATUS_UNAVAILABLE,
                       "cannot start the command-processor thread%s",
                       options->pin_cp ? " on its CPU" : "");
  }
  pthread_attr_destroy(&attr);
  return status;
}

rl_status_t rl_sim_queue_create(rl_device_t* device, uint32_t packet_count,
                                rl_device_queue_t* out_queue) {
  memset(out_queue, 0, sizeof(*out_queue));
  if (packet_count < 2 || packet_count > RL_SIM_QUEUE_MAX_PACKETS ||
      (packet_count & (packet_count - 1)) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "queue of %u packets: expected a power of two in 2..%u",
                     packet_count, RL_SIM_QUEUE_MAX_PACKETS);
  }
  // Cache-line aligned (the doorbell's line, rl_sim_queue_t).
  size_t bytes = (sizeof(rl_sim_queue_t) + RL_SIM_HOST_LINE - 1) /
                 RL_SIM_HOST_LINE * RL_SIM_HOST_LINE;
  rl_sim_queue_t* queue = aligned_alloc(_Alignof(rl_sim_queue_t), bytes);
  if (queue == NULL) return rl_status_out_of_memory();
  memset(queue, 0, bytes);
  queue->device = rl_sim_device_cast(device);
  queue->packet_count = packet_count;
  queue->id = atomic_fetch_add(&queue->device->next_queue_id, 1);
  pthread_mutex_init(&queue->lock, NULL);
  pthread_cond_init(&queue->cond, NULL);
  atomic_init(&queue->stop, false);
  atomic_init(&queue->doorbell_end, 0);
  atomic_init(&queue->sleepers, 0);
  atomic_init(&queue->producer_cpu, -1);
  atomic_init(&queue->hang_id, UINT64_MAX);
  atomic_init(&queue->state, RL_SIM_QUEUE_RUNNING);
  rl_status_t status = rl_sim_queue_allocate(queue);
  if (status == RL_OK) status = rl_sim_queue_start(queue);
  if (status != RL_OK) {
    rl_sim_queue_release(queue);
    return status;
  }
  queue->thread_started = true;
  rl_sim_queue_link(queue->device, queue);
  *out_queue = (rl_device_queue_t){
      .id = queue->id,
      .packet_count = packet_count,
      .ring = queue->ring,
      .ring_address = queue->ring_address,
      .write_index = (uint64_t*)queue->write_index,
      .read_index = (uint64_t*)queue->read_index,
      .backend = queue,
  };
  return RL_OK;
}

// Tells the CP of |queue| to stop, wakes every wait it may sleep in, joins
// its thread and frees the queue. |queue| is already off the device's list.
static void rl_sim_queue_stop_and_release(rl_sim_device_t* device,
                                          rl_sim_queue_t* queue) {
  pthread_mutex_lock(&queue->lock);
  atomic_store_explicit(&queue->stop, true, memory_order_release);
  pthread_cond_broadcast(&queue->cond);
  pthread_mutex_unlock(&queue->lock);
  rl_sim_signal_wake_all(device);
  pthread_join(queue->thread, NULL);
  rl_sim_queue_release(queue);
}

rl_status_t rl_sim_queue_destroy(rl_device_t* device,
                                 rl_device_queue_t* queue) {
  rl_sim_queue_t* sim_queue = rl_sim_queue_cast(queue);
  if (sim_queue == NULL) return RL_OK;
  rl_sim_device_t* sim = rl_sim_device_cast(device);
  rl_sim_queue_unlink(sim, sim_queue);
  rl_sim_queue_stop_and_release(sim, sim_queue);
  memset(queue, 0, sizeof(*queue));
  return RL_OK;
}

void rl_sim_queues_stop_all(rl_sim_device_t* device) {
  for (;;) {
    pthread_mutex_lock(&device->queue_lock);
    rl_sim_queue_t* queue = device->queues;
    if (queue) {
      device->queues = queue->next;
      if (queue->next) queue->next->prev = NULL;
      queue->next = NULL;
    }
    pthread_mutex_unlock(&device->queue_lock);
    if (queue == NULL) return;
    rl_sim_queue_stop_and_release(device, queue);
  }
}

// The producer's side of the doorbell handoff (the CP's is
// rl_sim_cp_wait_doorbell in sim_cp.c): raise doorbell_end, then wake the
// CP only when it sleeps. The sequentially consistent raise and the load
// of |sleepers| pair with the CP's increment of |sleepers| and re-check of
// doorbell_end (both under the lock it sleeps with): either the CP sees the
// new value before it sleeps, or this sees it asleep and wakes it. Taking
// the lock before the broadcast makes sure a CP that counted itself asleep
// is inside its wait; the broadcast itself is outside the lock.
void rl_sim_queue_doorbell(rl_device_t* device, rl_device_queue_t* queue,
                           uint64_t packet_id) {
  (void)device;
  rl_sim_queue_t* sim_queue = rl_sim_queue_cast(queue);
  // Stored only when it changed: the CP reads this line, and a store would
  // take it back from the CP's core on every doorbell.
  int cpu = rl_sim_current_cpu();
  if (atomic_load_explicit(&sim_queue->producer_cpu, memory_order_relaxed) !=
      cpu) {
    atomic_store_explicit(&sim_queue->producer_cpu, cpu, memory_order_relaxed);
  }
  // A doorbell never moves backwards (a late, smaller value is ignored, as
  // the CP keeps the highest write pointer it has seen).
  uint64_t end = atomic_load_explicit(&sim_queue->doorbell_end,
                                      memory_order_relaxed);
  while (packet_id + 1 > end &&
         !atomic_compare_exchange_weak_explicit(
             &sim_queue->doorbell_end, &end, packet_id + 1,
             memory_order_seq_cst, memory_order_relaxed)) {
  }
  if (atomic_load_explicit(&sim_queue->sleepers, memory_order_seq_cst) == 0) {
    return;
  }
  pthread_mutex_lock(&sim_queue->lock);
  pthread_mutex_unlock(&sim_queue->lock);
  pthread_cond_broadcast(&sim_queue->cond);
}

bool rl_sim_queue_idle(rl_device_t* device, const rl_device_queue_t* queue) {
  (void)device;
  rl_sim_queue_t* sim_queue = rl_sim_queue_cast(queue);
  uint64_t read =
      atomic_load_explicit(sim_queue->read_index, memory_order_acquire);
  uint64_t write =
      atomic_load_explicit(sim_queue->write_index, memory_order_acquire);
  // The CP advances the read id only after a packet completed, so equal ids
  // mean nothing is executing.
  return read == write &&
         atomic_load_explicit(&sim_queue->state, memory_order_acquire) ==
             RL_SIM_QUEUE_RUNNING;
}

void rl_sim_queue_progress(rl_device_t* device, const rl_device_queue_t* queue,
                           rl_device_progress_t* out_progress) {
  (void)device;
  rl_sim_queue_t* q = rl_sim_queue_cast(queue);
  out_progress->events =
      atomic_load_explicit(&q->progress_events, memory_order_acquire);
  out_progress->wg_done =
      atomic_load_explicit(&q->progress_wg_done, memory_order_relaxed);
  out_progress->wg_total =
      atomic_load_explicit(&q->progress_wg_total, memory_order_relaxed);
}

void rl_sim_queue_fault(rl_device_t* device, const rl_device_queue_t* queue,
                        rl_device_fault_t* out_fault) {
  (void)device;
  rl_sim_queue_t* sim_queue = rl_sim_queue_cast(queue);
  pthread_mutex_lock(&sim_queue->lock);
  *out_fault = sim_queue->fault;
  pthread_mutex_unlock(&sim_queue->lock);
}

void rl_sim_queue_set_fault(rl_sim_queue_t* queue, uint64_t packet_id,
                            uint64_t address, const char* what,
                            rl_status_t status) {
  pthread_mutex_lock(&queue->lock);
  rl_device_fault_t* fault = &queue->fault;
  fault->faulted = true;
  fault->packet_id = packet_id;
  fault->address = address;
  snprintf(fault->message, sizeof(fault->message),
           "queue %u packet %llu: %s%s%s", queue->id,
           (unsigned long long)packet_id, what, status ? ": " : "",
           status ? rl_status_message(status) : "");
  atomic_store_explicit(&queue->state, RL_SIM_QUEUE_FAULTED,
                        memory_order_release);
  pthread_mutex_unlock(&queue->lock);
  rl_status_free(status);
}

void rl_sim_inject_hang(rl_device_t* device, const rl_device_queue_t* queue,
                        uint64_t packet_id) {
  (void)device;
  rl_sim_queue_t* sim_queue = rl_sim_queue_cast(queue);
  atomic_store_explicit(&sim_queue->hang_id, packet_id, memory_order_release);
}
