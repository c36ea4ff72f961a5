// The funnel device over an rl_device_t (redline/device/device_funnel.h).
#include "redline/device/device_funnel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aql/aql_dispatch.h"
#include "aql/aql_packet.h"
#include "base/clock.h"
#include "redline/device/device_ring.h"
#include "base/array.h"
#include "redline/code_object.h"

// One loaded code object: the parse stays alive while the device may refer
// to it.
typedef struct rl_device_funnel_code_object_s {
  rl_code_object_t* parsed;
  rl_device_code_object_t loaded;
} rl_device_funnel_code_object_t;

typedef struct rl_device_funnel_s {
  rl_device_t* device;
  rl_device_queue_t queue;
  rl_aql_ring_t ring;
  rl_device_allocation_t signal;
  bool queue_created;
  bool signal_created;
  // Set when a launch faulted or timed out: the queue runs nothing more.
  rl_status_code_t broken;
  char broken_reason[RL_DEVICE_FAULT_MESSAGE_MAX + 160];
  rl_device_funnel_code_object_t* code_objects;
  uint32_t code_object_count;
  uint32_t code_object_capacity;
  uint64_t* buffers;  // device addresses to free
  uint32_t buffer_count;
  uint32_t buffer_capacity;
  // Kernarg arena: blocks in allocation order; the last one is current.
  rl_device_allocation_t* kernarg_blocks;
  uint32_t kernarg_block_count;
  uint32_t kernarg_block_capacity;
  uint64_t kernarg_used;  // bytes used in the current block
  uint64_t timeout_ns;    // bound of every wait (reserve and completion)
  rl_device_progress_t stalled;  // the progress when a wait stalled
} rl_device_funnel_t;

static const rl_device_vtable_t* rl_device_funnel_vt(
    const rl_device_funnel_t* adapter) {
  return adapter->device->vtable;
}

static rl_status_t rl_device_funnel_allocate(void* self, uint64_t size,
                                             uint64_t alignment,
                                             uint64_t* out_address) {
  rl_device_funnel_t* adapter = self;
  *out_address = 0;
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&adapter->buffers,
                                      &adapter->buffer_capacity,
                                      adapter->buffer_count + 1));
  rl_device_allocation_t allocation = {0};
  RL_RETURN_IF_ERROR(rl_device_funnel_vt(adapter)->allocate(
      adapter->device, size, alignment, RL_MEMORY_KIND_DEVICE, &allocation));
  adapter->buffers[adapter->buffer_count++] = allocation.address;
  *out_address = allocation.address;
  return RL_OK;
}

static rl_status_t rl_device_funnel_write(void* self, uint64_t address,
                                          const void* data, uint64_t size) {
  rl_device_funnel_t* adapter = self;
  return rl_device_funnel_vt(adapter)->write(adapter->device, address, data,
                                             size);
}

static rl_status_t rl_device_funnel_read(void* self, uint64_t address,
                                         void* data, uint64_t size) {
  rl_device_funnel_t* adapter = self;
  return rl_device_funnel_vt(adapter)->read(adapter->device, address, data,
                                            size);
}

static rl_status_t rl_device_funnel_load_code_object(void* self,
                                                     const void* bytes,
                                                     size_t size,
                                                     uint64_t* out_handle) {
  rl_device_funnel_t* adapter = self;
  *out_handle = 0;
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&adapter->code_objects,
                                      &adapter->code_object_capacity,
                                      adapter->code_object_count + 1));
  rl_device_funnel_code_object_t entry = {0};
  RL_RETURN_IF_ERROR(rl_code_object_parse(bytes, size, &entry.parsed));
  rl_status_t status = rl_device_funnel_vt(adapter)->load_code_object(
      adapter->device, bytes, size, entry.parsed, &entry.loaded);
  if (status) {
    rl_code_object_destroy(entry.parsed);
    return status;
  }
  *out_handle = adapter->code_object_count;
  adapter->code_objects[adapter->code_object_count++] = entry;
  return RL_OK;
}

// Copies |size| kernarg bytes into the arena, aligned to |alignment|, and
// returns their device address in *|out_address|.
static rl_status_t rl_device_funnel_kernarg(rl_device_funnel_t* adapter,
                                            const uint8_t* bytes,
                                            uint32_t size, uint32_t alignment,
                                            uint64_t* out_address) {
  *out_address = 0;
  // The kernarg segment is at least 16-byte aligned (AMDGPUUsage: the
  // kernarg segment pointer is 16-byte aligned), more when the kernel asks.
  uint64_t align = alignment > 16 ? alignment : 16;
  uint64_t offset = (adapter->kernarg_used + align - 1) & ~(align - 1);
  // The block keeps the kernarg read slack mapped after these bytes
  // (redline/code_object.h): a widened scalar load may read past them.
  const uint64_t footprint = rl_kernarg_mapped_end(size);
  if (adapter->kernarg_block_count == 0 ||
      offset + footprint >
          adapter->kernarg_blocks[adapter->kernarg_block_count - 1].size) {
    RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&adapter->kernarg_blocks,
                                        &adapter->kernarg_block_capacity,
                                        adapter->kernarg_block_count + 1));
    uint64_t block_size = footprint > RL_DEVICE_FUNNEL_KERNARG_BLOCK
                              ? footprint
                              : RL_DEVICE_FUNNEL_KERNARG_BLOCK;
    rl_device_allocation_t block = {0};
    RL_RETURN_IF_ERROR(rl_device_funnel_vt(adapter)->allocate(
        adapter->device, block_size, align > 256 ? align : 256,
        RL_MEMORY_KIND_KERNARG, &block));
    adapter->kernarg_blocks[adapter->kernarg_block_count++] = block;
    offset = 0;
  }
  const rl_device_allocation_t* block =
      &adapter->kernarg_blocks[adapter->kernarg_block_count - 1];
  if (size) {
    RL_RETURN_IF_ERROR(rl_device_funnel_vt(adapter)->write(
        adapter->device, block->address + offset, bytes, size));
  }
  adapter->kernarg_used = offset + size;
  *out_address = block->address + offset;
  return RL_OK;
}

// Checks that |dispatch| fits one packet on this device.
static rl_status_t rl_device_funnel_check(const rl_device_funnel_t* adapter,
                                          const rl_funnel_dispatch_t* dispatch) {
  if (adapter->broken) {
    return RL_STATUS(adapter->broken, "the adapter's queue is unusable: %s",
                     adapter->broken_reason);
  }
  if (dispatch->code_object_handle >= adapter->code_object_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "code-object handle %llu: %u code objects are loaded",
                     (unsigned long long)dispatch->code_object_handle,
                     adapter->code_object_count);
  }
  for (uint32_t axis = 0; axis < 3; ++axis) {
    uint64_t items = (uint64_t)dispatch->grid[axis] * dispatch->block[axis];
    if (dispatch->block[axis] == 0 || dispatch->block[axis] > UINT16_MAX ||
        dispatch->grid[axis] == 0 || items > UINT32_MAX) {
      // A launch that does not fit AQL is a contract failure, as when the
      // replay's lowering finds it (docs/failure-semantics.md).
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "axis %u: %u work-groups of %u work-items; an AQL "
                       "packet takes 1..65535 work-items per group and "
                       "1..2^32-1 per grid",
                       axis, dispatch->grid[axis], dispatch->block[axis]);
    }
  }
  uint64_t lds = (uint64_t)dispatch->kernel->group_segment_size +
                 dispatch->dynamic_lds;
  if (lds > adapter->device->lds_limit) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "%llu bytes of LDS (%u static + %u dynamic), the "
                     "device has %u per work-group",
                     (unsigned long long)lds,
                     dispatch->kernel->group_segment_size,
                     dispatch->dynamic_lds, adapter->device->lds_limit);
  }
  return RL_OK;
}

static rl_aql_dispatch_packet_t rl_device_funnel_packet(
    const rl_device_funnel_t* adapter, const rl_funnel_dispatch_t* dispatch,
    uint64_t kernarg_address) {
  const rl_device_funnel_code_object_t* code_object =
      &adapter->code_objects[dispatch->code_object_handle];
  const rl_code_object_kernel_t* kernel = dispatch->kernel;
  const rl_aql_dispatch_t launch = {
      .header = rl_aql_header(RL_AQL_PACKET_TYPE_KERNEL_DISPATCH, 1,
                              RL_AQL_FENCE_SCOPE_SYSTEM,
                              RL_AQL_FENCE_SCOPE_SYSTEM),
      .grid = {dispatch->grid[0], dispatch->grid[1], dispatch->grid[2]},
      .block = {dispatch->block[0], dispatch->block[1], dispatch->block[2]},
      .private_segment_size = kernel->private_segment_size,
      .group_segment_size = kernel->group_segment_size + dispatch->dynamic_lds,
      .kernel_object =
          code_object->loaded.load_base + kernel->descriptor_address,
      .kernarg_address = kernarg_address,
      .completion_signal = adapter->signal.address,
  };
  rl_aql_dispatch_packet_t packet;
  rl_aql_dispatch_packet_init(&launch, &packet);
  return packet;
}

// Marks the queue unusable with |code| and returns the status.
static rl_status_t rl_device_funnel_break(rl_device_funnel_t* adapter,
                                          rl_status_code_t code,
                                          const char* reason) {
  adapter->broken = code;
  snprintf(adapter->broken_reason, sizeof(adapter->broken_reason), "%s",
           reason);
  return RL_STATUS(code, "%s", reason);
}

// Slices of the bounded wait: a faulted queue never completes its signal,
// so the wait looks at the queue's fault state between slices instead of
// sleeping through the whole timeout. Slices double from 1 ms to 50 ms.
#define RL_DEVICE_FUNNEL_SLICE_MIN_NS 1000000ull
#define RL_DEVICE_FUNNEL_SLICE_MAX_NS 50000000ull

// Waits for the completion signal of |kernel|'s dispatch; turns a fault or
// a stall into a status and breaks the adapter. On a device that reports
// progress (queue_progress) the bound is a stall: the wait fails once no
// work-group completed and no dispatch started for timeout_ns, however
// long the dispatch has run; elsewhere it is the wall time since the
// launch.
static rl_status_t rl_device_funnel_wait(rl_device_funnel_t* adapter,
                                         uint64_t packet_id,
                                         const char* kernel) {
  const rl_device_vtable_t* vt = rl_device_funnel_vt(adapter);
  uint64_t deadline = rl_now_ns() + adapter->timeout_ns;
  uint64_t slice = RL_DEVICE_FUNNEL_SLICE_MIN_NS;
  int64_t value = 0;
  rl_device_fault_t fault = {0};
  rl_device_progress_t progress = {0}, now = {0};
  if (vt->queue_progress) {
    vt->queue_progress(adapter->device, &adapter->queue, &progress);
  }
  for (;;) {
    if (vt->signal_wait_lt(adapter->device, adapter->signal.address, 1, slice,
                           &value)) {
      return RL_OK;
    }
    vt->queue_fault(adapter->device, &adapter->queue, &fault);
    if (fault.faulted) break;
    if (vt->queue_progress) {
      vt->queue_progress(adapter->device, &adapter->queue, &now);
      if (now.events != progress.events) {
        deadline = rl_now_ns() + adapter->timeout_ns;
      }
      progress = now;
    }
    if (rl_now_ns() >= deadline) break;
    if (slice < RL_DEVICE_FUNNEL_SLICE_MAX_NS) slice *= 2;
  }
  char reason[sizeof(adapter->broken_reason)];
  if (fault.faulted) {
    snprintf(reason, sizeof(reason), "queue %u faulted at packet %llu: %s",
             adapter->queue.id, (unsigned long long)fault.packet_id,
             fault.message);
    return rl_device_funnel_break(adapter, RL_STATUS_POISONED, reason);
  }
  adapter->stalled = progress;
  if (vt->queue_progress) {
    snprintf(reason, sizeof(reason),
             "kernel %s made no progress for %llu ms (%llu of %llu "
             "work-groups done; packet %llu on queue %u, signal value %lld)",
             kernel, (unsigned long long)(adapter->timeout_ns / 1000000ull),
             (unsigned long long)progress.wg_done,
             (unsigned long long)progress.wg_total,
             (unsigned long long)packet_id, adapter->queue.id,
             (long long)value);
  } else {
    snprintf(reason, sizeof(reason),
             "packet %llu on queue %u (kernel %s) did not complete within "
             "%llu ms (signal value %lld)",
             (unsigned long long)packet_id, adapter->queue.id, kernel,
             (unsigned long long)(adapter->timeout_ns / 1000000ull),
             (long long)value);
  }
  return rl_device_funnel_break(adapter, RL_STATUS_QUARANTINED, reason);
}

bool rl_device_funnel_stalled(const rl_funnel_device_t* device,
                              uint64_t* out_wg_done, uint64_t* out_wg_total) {
  const rl_device_funnel_t* adapter = device->self;
  *out_wg_done = adapter->stalled.wg_done;
  *out_wg_total = adapter->stalled.wg_total;
  return adapter->broken == RL_STATUS_QUARANTINED &&
         rl_device_funnel_vt(adapter)->queue_progress != NULL;
}

bool rl_device_funnel_progress(const rl_funnel_device_t* device,
                               rl_device_progress_t* out_progress) {
  *out_progress = (rl_device_progress_t){0};
  const rl_device_funnel_t* adapter = device->self;
  if (!adapter || !adapter->queue_created) return false;
  const rl_device_vtable_t* vt = rl_device_funnel_vt(adapter);
  if (!vt->queue_progress) return false;
  vt->queue_progress(adapter->device, &adapter->queue, out_progress);
  return true;
}

static rl_status_t rl_device_funnel_launch(void* self,
                                           const rl_funnel_dispatch_t* dispatch) {
  rl_device_funnel_t* adapter = self;
  RL_RETURN_IF_ERROR(rl_device_funnel_check(adapter, dispatch));
  uint64_t kernarg_address = 0;
  RL_RETURN_IF_ERROR(rl_device_funnel_kernarg(
      adapter, dispatch->kernarg, dispatch->kernarg_size,
      dispatch->kernel->kernarg_align, &kernarg_address));
  rl_aql_dispatch_packet_t packet =
      rl_device_funnel_packet(adapter, dispatch, kernarg_address);
  rl_device_funnel_vt(adapter)->signal_store(adapter->device,
                                             adapter->signal.address, 1);
  uint64_t id = 0;
  rl_status_t status =
      rl_aql_ring_reserve(&adapter->ring, 1, adapter->timeout_ns, &id);
  if (status) {
    adapter->broken = rl_status_code(status);
    snprintf(adapter->broken_reason, sizeof(adapter->broken_reason), "%s",
             rl_status_message(status));
    return status;
  }
  rl_aql_ring_emit(&adapter->ring, id, &packet);
  rl_aql_ring_commit(&adapter->ring, id, rl_aql_header_word(&packet));
  rl_aql_ring_doorbell(&adapter->ring, id);
  return rl_device_funnel_wait(adapter, id, dispatch->kernel->name);
}

// Frees everything the queue could reference; only called once the queue
// is destroyed (or was never created).
static void rl_device_funnel_release_memory(rl_device_funnel_t* adapter) {
  const rl_device_vtable_t* vt = rl_device_funnel_vt(adapter);
  for (uint32_t b = 0; b < adapter->kernarg_block_count; ++b) {
    rl_status_free(vt->free(adapter->device,
                            adapter->kernarg_blocks[b].address));
  }
  for (uint32_t b = 0; b < adapter->buffer_count; ++b) {
    rl_status_free(vt->free(adapter->device, adapter->buffers[b]));
  }
  for (uint32_t c = 0; c < adapter->code_object_count; ++c) {
    rl_status_free(vt->unload_code_object(adapter->device,
                                          &adapter->code_objects[c].loaded));
  }
  if (adapter->signal_created) {
    rl_status_free(vt->signal_destroy(adapter->device,
                                      adapter->signal.address));
  }
}

static void rl_device_funnel_destroy(void* self) {
  rl_device_funnel_t* adapter = self;
  if (!adapter) return;
  bool queue_gone = true;
  if (adapter->queue_created) {
    rl_status_t status = rl_device_funnel_vt(adapter)->queue_destroy(
        adapter->device, &adapter->queue);
    queue_gone = status == RL_OK;
    rl_status_free(status);
  }
  // A quarantined queue may still run a kernel: leave its memory to the
  // device's own destruction, and keep the parses the device may read.
  if (queue_gone) {
    rl_device_funnel_release_memory(adapter);
    for (uint32_t c = 0; c < adapter->code_object_count; ++c) {
      rl_code_object_destroy(adapter->code_objects[c].parsed);
    }
    free(adapter->code_objects);
  }
  free(adapter->kernarg_blocks);
  free(adapter->buffers);
  free(adapter);
}

rl_status_t rl_device_funnel_create(rl_device_t* device,
                                    rl_funnel_device_t* out_device) {
  return rl_device_funnel_create_bounded(device, 0, out_device);
}

rl_status_t rl_device_funnel_create_bounded(rl_device_t* device,
                                            uint64_t timeout_ns,
                                            rl_funnel_device_t* out_device) {
  memset(out_device, 0, sizeof(*out_device));
  if (!device) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "no device to adapt");
  }
  if (!device->vtable->queue_create) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "device %s has no AQL queue to execute launches on",
                     device->name);
  }
  rl_device_funnel_t* adapter = calloc(1, sizeof(*adapter));
  if (!adapter) return rl_status_out_of_memory();
  adapter->device = device;
  adapter->timeout_ns = timeout_ns ? timeout_ns : RL_DEVICE_FUNNEL_TIMEOUT_NS;
  rl_status_t status = device->vtable->queue_create(
      device, RL_DEVICE_FUNNEL_QUEUE_PACKETS, &adapter->queue);
  adapter->queue_created = status == RL_OK;
  if (!status) {
    status = device->vtable->signal_create(device, 0, &adapter->signal);
    adapter->signal_created = status == RL_OK;
  }
  if (status) {
    rl_device_funnel_destroy(adapter);
    return status;
  }
  rl_device_aql_ring_init(&adapter->ring, device, &adapter->queue);
  *out_device = (rl_funnel_device_t){
      .self = adapter,
      .load_code_object = rl_device_funnel_load_code_object,
      .allocate = rl_device_funnel_allocate,
      .write = rl_device_funnel_write,
      .read = rl_device_funnel_read,
      .launch = rl_device_funnel_launch,
      .destroy = rl_device_funnel_destroy,
  };
  return RL_OK;
}

uint64_t rl_device_funnel_load_base(const rl_funnel_device_t* device,
                                    uint64_t handle) {
  const rl_device_funnel_t* adapter = device ? device->self : NULL;
  if (!adapter || handle >= adapter->code_object_count) return 0;
  return adapter->code_objects[handle].loaded.load_base;
}
