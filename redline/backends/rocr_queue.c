// redline/backends/rocr_queue.c — ROCr AQL queues for the engine's ring
// protocol (rocr_device.h "Queues"), the queue error callback and the idle
// probe.
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aql/aql_packet.h"
#include "redline/backends/rocr_internal.h"

static rl_rocr_queue_t* rl_rocr_queue_cast(const rl_device_queue_t* queue) {
  return (rl_rocr_queue_t*)queue->backend;
}

// hsa_queue_create's callback, on ROCr's event thread: records the first
// error. Only atomics are touched here.
static void rl_rocr_queue_error(hsa_status_t status, hsa_queue_t* source,
                                void* data) {
  rl_rocr_queue_t* queue = data;
  if (atomic_load_explicit(&queue->faulted, memory_order_acquire)) return;
  const amd_queue_t* amd = (const amd_queue_t*)source;
  atomic_store_explicit(&queue->error_status, (int)status,
                        memory_order_relaxed);
  atomic_store_explicit(
      &queue->error_read_id,
      __atomic_load_n(&amd->read_dispatch_id, __ATOMIC_ACQUIRE),
      memory_order_relaxed);
  atomic_store_explicit(&queue->faulted, true, memory_order_release);
}

static rl_status_t rl_rocr_queue_check_size(const rl_rocr_device_t* device,
                                            uint32_t packet_count) {
  if (packet_count >= 2 && (packet_count & (packet_count - 1)) == 0 &&
      packet_count >= device->queue_min_size &&
      packet_count <= device->queue_max_size) {
    return RL_OK;
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "rocr: queue of %u packets: expected a power of two in "
                   "%u..%u (HSA_AGENT_INFO_QUEUE_MIN/MAX_SIZE)",
                   packet_count, device->queue_min_size,
                   device->queue_max_size);
}

rl_status_t rl_rocr_queue_create(rl_device_t* base, uint32_t packet_count,
                                 rl_device_queue_t* out_queue) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  memset(out_queue, 0, sizeof(*out_queue));
  RL_RETURN_IF_ERROR(rl_rocr_queue_check_size(device, packet_count));
  rl_rocr_queue_t* queue = calloc(1, sizeof(*queue));
  if (!queue) return rl_status_out_of_memory();
  queue->device = device;
  rl_status_t status = RL_HSA_CALL(&device->api, hsa_signal_create, 1, 0,
                                   NULL, &queue->marker);
  if (!status) {
    // No scratch (the contract refuses it), so both segment hints are the
    // spec's "unknown" value.
    status = RL_HSA_CALL(&device->api, hsa_queue_create, device->gpu,
                         packet_count, HSA_QUEUE_TYPE_SINGLE,
                         rl_rocr_queue_error, queue, UINT32_MAX, UINT32_MAX,
                         &queue->queue);
    if (status) device->api.fn.hsa_signal_destroy(queue->marker);
  }
  if (status) {
    free(queue);
    return status;
  }
  queue->id = device->next_queue_id++;
  ++device->live_queues;
  amd_queue_t* amd = (amd_queue_t*)queue->queue;
  *out_queue = (rl_device_queue_t){
      .id = queue->id,
      .packet_count = queue->queue->size,
      .ring = queue->queue->base_address,
      .ring_address = (uint64_t)(uintptr_t)queue->queue->base_address,
      .write_index = (uint64_t*)&amd->write_dispatch_id,
      .read_index = (uint64_t*)&amd->read_dispatch_id,
      .backend = queue,
  };
  return RL_OK;
}

rl_status_t rl_rocr_queue_destroy(rl_device_t* base,
                                  rl_device_queue_t* handle) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  rl_rocr_queue_t* queue = rl_rocr_queue_cast(handle);
  if (!queue) return RL_OK;
  rl_status_t status =
      RL_HSA_CALL(&device->api, hsa_queue_destroy, queue->queue);
  if (status) {
    // ROCr could not prove the packet processor stopped: keep everything
    // the queue may still reference.
    return rl_status_annotate(
        rl_status_make(RL_STATUS_QUARANTINED, rl_status_file(status),
                       rl_status_line(status), "%s",
                       rl_status_message(status)),
        "rocr: queue %u", queue->id);
  }
  device->api.fn.hsa_signal_destroy(queue->marker);
  --device->live_queues;
  free(queue);
  memset(handle, 0, sizeof(*handle));
  return RL_OK;
}

// The doorbell covers every packet up to |packet_id|. ROCr may place the
// ring in write-combined device memory (its dev_mem_queue case), where x86
// release stores do not order WC writes; an sfence first makes every packet
// byte globally visible before the packet processor is told about it.
void rl_rocr_queue_doorbell(rl_device_t* base, rl_device_queue_t* handle,
                            uint64_t packet_id) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  rl_rocr_queue_t* queue = rl_rocr_queue_cast(handle);
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_sfence();
#endif
  device->api.fn.hsa_signal_store_screlease(queue->queue->doorbell_signal,
                                            (hsa_signal_value_t)packet_id);
}

void rl_rocr_queue_fault(rl_device_t* base, const rl_device_queue_t* handle,
                         rl_device_fault_t* out_fault) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  rl_rocr_queue_t* queue = rl_rocr_queue_cast(handle);
  memset(out_fault, 0, sizeof(*out_fault));
  if (!queue || !atomic_load_explicit(&queue->faulted, memory_order_acquire)) {
    return;
  }
  hsa_status_t status = (hsa_status_t)atomic_load_explicit(
      &queue->error_status, memory_order_relaxed);
  const rl_hsa_error_info_t* info = rl_hsa_error_info(status);
  const char* text = NULL;
  if (device->api.fn.hsa_status_string(status, &text) != HSA_STATUS_SUCCESS) {
    text = NULL;
  }
  out_fault->faulted = true;
  out_fault->packet_id =
      atomic_load_explicit(&queue->error_read_id, memory_order_relaxed);
  snprintf(out_fault->message, sizeof(out_fault->message),
           "ROCr queue error callback: %s (0x%x): %s%s%s", info->name,
           (unsigned)status, info->description, text ? "; runtime: " : "",
           text ? text : "");
}

// Publishes one barrier-AND packet (barrier bit, system scopes, no
// dependencies) completing |queue|'s marker, with ROCr's own protocol.
// False when the ring has no free slot.
static bool rl_rocr_queue_publish_marker(rl_rocr_device_t* device,
                                         rl_rocr_queue_t* queue) {
  const rl_hsa_functions_t* fn = &device->api.fn;
  hsa_queue_t* hsa = queue->queue;
  uint64_t write = fn->hsa_queue_load_write_index_relaxed(hsa);
  if (write - fn->hsa_queue_load_read_index_scacquire(hsa) >= hsa->size) {
    return false;
  }
  uint64_t id = fn->hsa_queue_add_write_index_screlease(hsa, 1);
  uint8_t* slot = (uint8_t*)hsa->base_address +
                  (id & (hsa->size - 1)) * RL_AQL_PACKET_SIZE;
  hsa_barrier_and_packet_t packet;
  memset(&packet, 0, sizeof(packet));
  packet.completion_signal = queue->marker;
  memcpy(slot + 4, (const uint8_t*)&packet + 4, sizeof(packet) - 4);
  // The header (setup 0) from the one AQL layout (aql/aql_packet.h).
  uint32_t header = rl_aql_header(RL_AQL_PACKET_TYPE_BARRIER_AND, 1,
                                  RL_AQL_FENCE_SCOPE_SYSTEM,
                                  RL_AQL_FENCE_SCOPE_SYSTEM);
  __atomic_store_n((uint32_t*)slot, header, __ATOMIC_RELEASE);
  fn->hsa_signal_store_screlease(hsa->doorbell_signal,
                                 (hsa_signal_value_t)id);
  return true;
}

bool rl_rocr_queue_idle(rl_device_t* base, const rl_device_queue_t* handle) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  rl_rocr_queue_t* queue = rl_rocr_queue_cast(handle);
  if (!queue || atomic_load_explicit(&queue->faulted, memory_order_acquire)) {
    return false;
  }
  const rl_hsa_functions_t* fn = &device->api.fn;
  if (fn->hsa_queue_load_read_index_scacquire(queue->queue) !=
      fn->hsa_queue_load_write_index_relaxed(queue->queue)) {
    return false;
  }
  fn->hsa_signal_store_screlease(queue->marker, 1);
  if (!rl_rocr_queue_publish_marker(device, queue)) return false;
  int64_t value = 1;
  return rl_rocr_signal_wait_raw(device, queue->marker, 1,
                                 RL_ROCR_IDLE_PROBE_NS, &value) &&
         !atomic_load_explicit(&queue->faulted, memory_order_acquire);
}
