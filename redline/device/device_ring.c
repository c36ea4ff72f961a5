// The AQL ring's queue description over an rl_device_t (device_ring.h).
#include "redline/device/device_ring.h"

static void rl_device_ring_doorbell(void* device, void* queue,
                                    uint64_t packet_id) {
  rl_device_t* d = (rl_device_t*)device;
  d->vtable->queue_doorbell(d, (rl_device_queue_t*)queue, packet_id);
}

static rl_status_t rl_device_ring_fault_status(void* device, void* queue) {
  rl_device_t* d = (rl_device_t*)device;
  const rl_device_queue_t* q = (const rl_device_queue_t*)queue;
  rl_device_fault_t fault = {0};
  d->vtable->queue_fault(d, q, &fault);
  if (!fault.faulted) return RL_OK;
  return RL_STATUS(RL_STATUS_POISONED,
                   "AQL queue %u faulted at packet %llu: %s", q->id,
                   (unsigned long long)fault.packet_id, fault.message);
}

void rl_device_aql_ring_init(rl_aql_ring_t* ring, rl_device_t* device,
                             rl_device_queue_t* queue) {
  const bool faults = device && device->vtable->queue_fault;
  const rl_aql_ring_queue_t described = {
      .id = queue->id,
      .packet_count = queue->packet_count,
      .slots = queue->ring,
      .write_index = queue->write_index,
      .read_index = queue->read_index,
      .device = device,
      .queue = queue,
      .doorbell = rl_device_ring_doorbell,
      .fault_status = faults ? rl_device_ring_fault_status : NULL,
  };
  rl_aql_ring_init(ring, &described);
}
