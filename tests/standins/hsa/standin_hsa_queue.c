// tests/standins/hsa/standin_hsa_queue.c — AQL queues of the ROCr stand-in
// over sim queues (standin_hsa.h "queues"), the publication checks run
// when the doorbell is rung, and the monitor thread that delivers sim
// queue faults through hsa_queue_create's error callback.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"
#include "tests/standins/hsa/standin_hsa.h"

// amd_queue_t (hsa/amd_hsa_queue.h): the hsa_queue_t at byte 0 and the
// dispatch ids at 56 and 128 of the sim's queue descriptor.
#define RL_STANDIN_WRITE_ID_OFFSET 56u
#define RL_STANDIN_READ_ID_OFFSET 128u
#define RL_STANDIN_HEADER_TYPE_INVALID 1u
// How often the monitor looks at the sim queue's fault state.
#define RL_STANDIN_MONITOR_NS 1000000L

static uint64_t* rl_standin_write_id(const hsa_queue_t* queue) {
  return (uint64_t*)((uint8_t*)queue + RL_STANDIN_WRITE_ID_OFFSET);
}

static uint64_t* rl_standin_read_id(const hsa_queue_t* queue) {
  return (uint64_t*)((uint8_t*)queue + RL_STANDIN_READ_ID_OFFSET);
}

static uint8_t* rl_standin_slot(const rl_standin_queue_t* queue, uint64_t id) {
  return (uint8_t*)queue->hsa->base_address +
         (id & (queue->hsa->size - 1)) * 64u;
}

static void rl_standin_poison_slot(rl_standin_queue_t* queue, uint64_t id) {
  memset(rl_standin_slot(queue, id) + 4, RL_STANDIN_POISON_BYTE, 60);
}

//===----------------------------------------------------------------------===//
// Fault monitor
//===----------------------------------------------------------------------===//

// The HSA status ROCr would report for a sim fault |message|.
static hsa_status_t rl_standin_fault_status(const char* message) {
  if (strstr(message, "VM fault")) {
    return (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
  }
  if (strstr(message, "header") || strstr(message, "packet type")) {
    return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  }
  return HSA_STATUS_ERROR_EXCEPTION;
}

static void* rl_standin_monitor_main(void* data) {
  rl_standin_queue_t* queue = data;
  const struct timespec step = {0, RL_STANDIN_MONITOR_NS};
  while (!atomic_load(&queue->stop)) {
    rl_device_fault_t fault;
    rl_standin.sim->vtable->queue_fault(rl_standin.sim, &queue->sim_queue,
                                        &fault);
    if (fault.faulted && !atomic_load(&queue->reported)) {
      rl_standin_set_fault(fault.message);
      atomic_store(&queue->reported, true);
      if (queue->callback) {
        queue->callback(rl_standin_fault_status(fault.message), queue->hsa,
                        queue->callback_data);
      }
    }
    nanosleep(&step, NULL);
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// Creation and destruction
//===----------------------------------------------------------------------===//

static bool rl_standin_queue_size_ok(uint32_t size) {
  return size >= RL_STANDIN_QUEUE_MIN && size <= RL_STANDIN_QUEUE_MAX &&
         (size & (size - 1)) == 0;
}

// Lays hsa_queue_t over the sim descriptor and poisons every slot body.
static void rl_standin_queue_describe(rl_standin_queue_t* queue,
                                      hsa_queue_type32_t type) {
  rl_device_queue_t* sim_queue = &queue->sim_queue;
  queue->hsa = (hsa_queue_t*)((uint8_t*)sim_queue->write_index -
                              RL_STANDIN_WRITE_ID_OFFSET);
  queue->hsa->type = type;
  queue->hsa->features = HSA_QUEUE_FEATURE_KERNEL_DISPATCH;
  queue->hsa->base_address = sim_queue->ring;
  // The doorbell handle is the stand-in's queue object: a host address,
  // which no sim signal can have.
  queue->hsa->doorbell_signal.handle = (uint64_t)(uintptr_t)queue;
  queue->hsa->size = sim_queue->packet_count;
  queue->hsa->id = sim_queue->id;
  for (uint64_t id = 0; id < sim_queue->packet_count; ++id) {
    rl_standin_poison_slot(queue, id);
  }
}

static hsa_status_t rl_standin_queue_start(rl_standin_queue_t* queue,
                                           uint32_t size,
                                           hsa_queue_type32_t type) {
  rl_device_t* sim = rl_standin.sim;
  rl_status_t status = sim->vtable->queue_create(sim, size, &queue->sim_queue);
  if (status) {
    rl_status_free(status);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  rl_standin_queue_describe(queue, type);
  const char* hang = getenv("REDLINE_STANDIN_HANG_PACKET");
  if (hang && hang[0]) {
    rl_sim_inject_hang(sim, &queue->sim_queue, strtoull(hang, NULL, 0));
  }
  if (pthread_create(&queue->monitor, NULL, rl_standin_monitor_main, queue)) {
    rl_status_free(sim->vtable->queue_destroy(sim, &queue->sim_queue));
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  return HSA_STATUS_SUCCESS;
}

RL_STANDIN_EXPORT hsa_status_t hsa_queue_create(
    hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
    void (*callback)(hsa_status_t status, hsa_queue_t* source, void* data),
    void* data, uint32_t private_segment_size, uint32_t group_segment_size,
    hsa_queue_t** queue_out) {
  (void)private_segment_size;
  (void)group_segment_size;
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (agent.handle != RL_STANDIN_GPU_AGENT) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!queue_out || !rl_standin_queue_size_ok(size) ||
      (type != HSA_QUEUE_TYPE_SINGLE && type != HSA_QUEUE_TYPE_MULTI)) {
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (rl_standin_env_flag("REDLINE_STANDIN_QUEUE_CREATE_FAIL")) {
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  rl_standin_queue_t* queue = calloc(1, sizeof(*queue));
  if (!queue) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  queue->callback = callback;
  queue->callback_data = data;
  pthread_mutex_lock(&rl_standin.lock);
  hsa_status_t status = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (rl_standin.queue_count < RL_STANDIN_MAX_QUEUES) {
    status = rl_standin_queue_start(queue, size, type);
  }
  if (status == HSA_STATUS_SUCCESS) {
    rl_standin.queues[rl_standin.queue_count++] = queue;
    *queue_out = queue->hsa;
  } else {
    free(queue);
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return status;
}

// Stops the monitor and the sim queue; the caller holds the lock and has
// taken |index| out of the table.
static void rl_standin_queue_stop_locked(uint32_t index) {
  rl_standin_queue_t* queue = rl_standin.queues[index];
  rl_standin.queues[index] = rl_standin.queues[--rl_standin.queue_count];
  atomic_store(&queue->stop, true);
  pthread_join(queue->monitor, NULL);
  rl_status_free(rl_standin.sim->vtable->queue_destroy(rl_standin.sim,
                                                       &queue->sim_queue));
  free(queue);
}

RL_STANDIN_EXPORT hsa_status_t hsa_queue_destroy(hsa_queue_t* queue) {
  if (!rl_standin_live()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  pthread_mutex_lock(&rl_standin.lock);
  hsa_status_t result = HSA_STATUS_ERROR_INVALID_QUEUE;
  for (uint32_t i = 0; i < rl_standin.queue_count; ++i) {
    if (rl_standin.queues[i]->hsa != queue) continue;
    rl_standin_queue_stop_locked(i);
    result = HSA_STATUS_SUCCESS;
    break;
  }
  pthread_mutex_unlock(&rl_standin.lock);
  return result;
}

void rl_standin_queue_release_all_locked(void) {
  while (rl_standin.queue_count > 0) rl_standin_queue_stop_locked(0);
}

rl_standin_queue_t* rl_standin_queue_by_doorbell_locked(uint64_t handle) {
  for (uint32_t i = 0; i < rl_standin.queue_count; ++i) {
    if (rl_standin.queues[i]->hsa->doorbell_signal.handle == handle) {
      return rl_standin.queues[i];
    }
  }
  return NULL;
}

bool rl_standin_queue_any_busy_locked(void) {
  rl_device_t* sim = rl_standin.sim;
  for (uint32_t i = 0; i < rl_standin.queue_count; ++i) {
    rl_device_queue_t* sim_queue = &rl_standin.queues[i]->sim_queue;
    rl_device_fault_t fault;
    sim->vtable->queue_fault(sim, sim_queue, &fault);
    if (!fault.faulted && !sim->vtable->queue_idle(sim, sim_queue)) {
      return true;
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Dispatch ids
//===----------------------------------------------------------------------===//

RL_STANDIN_EXPORT uint64_t hsa_queue_load_read_index_scacquire(
    const hsa_queue_t* queue) {
  return __atomic_load_n(rl_standin_read_id(queue), __ATOMIC_ACQUIRE);
}

RL_STANDIN_EXPORT uint64_t hsa_queue_load_write_index_relaxed(
    const hsa_queue_t* queue) {
  return __atomic_load_n(rl_standin_write_id(queue), __ATOMIC_RELAXED);
}

RL_STANDIN_EXPORT uint64_t hsa_queue_add_write_index_screlease(
    const hsa_queue_t* queue, uint64_t value) {
  return __atomic_fetch_add(rl_standin_write_id(queue), value,
                            __ATOMIC_RELEASE);
}

//===----------------------------------------------------------------------===//
// Doorbell: publication checks, re-poisoning, then the sim doorbell
//===----------------------------------------------------------------------===//

// Checks one packet the doorbell covers.
static void rl_standin_check_packet(rl_standin_queue_t* queue, uint64_t id) {
  const uint8_t* slot = rl_standin_slot(queue, id);
  uint16_t header = __atomic_load_n((const uint16_t*)slot, __ATOMIC_ACQUIRE);
  if ((header & 0xFFu) == RL_STANDIN_HEADER_TYPE_INVALID) {
    rl_standin_error("queue %u: the doorbell covers packet %llu, whose header "
                     "is still INVALID", queue->sim_queue.id,
                     (unsigned long long)id);
    return;
  }
  for (uint32_t offset = 4; offset < 64; offset += 4) {
    uint32_t word;
    memcpy(&word, slot + offset, 4);
    if (word == 0xCCCCCCCCu) {
      rl_standin_error("queue %u: packet %llu was published with unwritten "
                       "bytes at offset %u (the stand-in's poison is still "
                       "there: the body was written after the header, or "
                       "not at all)", queue->sim_queue.id, (unsigned long long)id,
                       offset);
      return;
    }
  }
  if ((header & 0xFFu) != HSA_PACKET_TYPE_KERNEL_DISPATCH) return;
  uint64_t kernarg;
  memcpy(&kernarg, slot + 40, 8);
  pthread_mutex_lock(&rl_standin.lock);
  const rl_standin_allocation_t* item =
      rl_standin_find_allocation_locked(kernarg, 1);
  bool denied = item && item->pool == RL_STANDIN_KERNARG_POOL &&
                !item->gpu_allowed;
  pthread_mutex_unlock(&rl_standin.lock);
  if (denied) {
    rl_standin_error("queue %u: packet %llu: kernarg segment 0x%llx is "
                     "kernarg-pool memory the GPU agent was not given access "
                     "to (hsa_amd_agents_allow_access)", queue->sim_queue.id,
                     (unsigned long long)id, (unsigned long long)kernarg);
  }
}

// Refills the bodies of slots consumed since the last doorbell, except
// slots already holding packets reserved after |from| (up to |write|).
static void rl_standin_repoison(rl_standin_queue_t* queue, uint64_t from,
                                uint64_t write) {
  const uint64_t mask = queue->hsa->size - 1;
  uint64_t read = hsa_queue_load_read_index_scacquire(queue->hsa);
  for (uint64_t id = queue->poisoned_to; id < read; ++id) {
    if (((id - from) & mask) < write - from) continue;
    rl_standin_poison_slot(queue, id);
  }
  queue->poisoned_to = read;
}

void rl_standin_queue_doorbell(rl_standin_queue_t* queue, int64_t value) {
  const uint64_t write = __atomic_load_n(rl_standin_write_id(queue->hsa),
                                         __ATOMIC_ACQUIRE);
  const uint64_t from = queue->last_doorbell;
  if (value < 0 || (uint64_t)value + 1 != write) {
    rl_standin_error("queue %u: doorbell rung with %lld, but the last "
                     "reserved packet id is %lld", queue->sim_queue.id,
                     (long long)value, (long long)write - 1);
  }
  if (value >= 0 && (uint64_t)value + 1 < from) {
    rl_standin_error("queue %u: doorbell went backwards: %lld after %llu",
                     queue->sim_queue.id, (long long)value,
                     (unsigned long long)from - 1);
  }
  const uint64_t end = value < 0 ? from : (uint64_t)value + 1;
  for (uint64_t id = from; id < end && id - from < queue->hsa->size; ++id) {
    rl_standin_check_packet(queue, id);
  }
  rl_standin_repoison(queue, from, write > end ? write : end);
  if (end > queue->last_doorbell) queue->last_doorbell = end;
  if (value >= 0) {
    rl_standin.sim->vtable->queue_doorbell(rl_standin.sim, &queue->sim_queue,
                                           (uint64_t)value);
  }
}
