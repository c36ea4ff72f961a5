// The record-only device of the funnel (redline/funnel.h): fake device
// addresses backed by host shadow copies; launches are counted, never run.
#include <stdlib.h>
#include <string.h>

#include "redline/funnel.h"
#include "base/array.h"

typedef struct rl_null_allocation_s {
  uint64_t address;
  uint64_t size;
  uint8_t* shadow;  // zero-initialised host copy of the contents
} rl_null_allocation_t;

typedef struct rl_null_device_s {
  rl_null_allocation_t* allocations;  // ascending addresses
  uint32_t allocation_count;
  uint32_t allocation_capacity;
  uint64_t next_address;  // the lowest address not yet handed out
  uint32_t code_object_count;
  uint32_t launch_count;
} rl_null_device_t;

// The allocation holding all of [address, address + size), or NULL.
// Allocations are ascending, so a binary search finds the candidate.
static rl_null_allocation_t* rl_null_device_find(rl_null_device_t* device,
                                                 uint64_t address,
                                                 uint64_t size) {
  uint32_t low = 0;
  uint32_t high = device->allocation_count;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (device->allocations[middle].address <= address) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (low == 0) return NULL;
  rl_null_allocation_t* allocation = &device->allocations[low - 1];
  uint64_t offset = address - allocation->address;
  if (offset > allocation->size || size > allocation->size - offset) {
    return NULL;
  }
  return allocation;
}

static rl_status_t rl_null_device_load_code_object(void* self,
                                                   const void* bytes,
                                                   size_t size,
                                                   uint64_t* out_handle) {
  rl_null_device_t* device = self;
  (void)bytes;
  (void)size;
  *out_handle = ++device->code_object_count;  // opaque, never 0
  return RL_OK;
}

static rl_status_t rl_null_device_allocate(void* self, uint64_t size,
                                           uint64_t alignment,
                                           uint64_t* out_address) {
  rl_null_device_t* device = self;
  *out_address = 0;
  if (size == 0 || size > SIZE_MAX || alignment == 0 ||
      (alignment & (alignment - 1)) != 0 || alignment > (1ull << 40)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "null device: cannot allocate %llu bytes aligned to %llu",
                     (unsigned long long)size, (unsigned long long)alignment);
  }
  uint64_t address = (device->next_address + alignment - 1) & ~(alignment - 1);
  if (address < device->next_address || address > UINT64_MAX / 2 - size) {
    return RL_STATUS(RL_STATUS_OUT_OF_MEMORY,
                     "null device: address space exhausted");
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&device->allocations,
                                      &device->allocation_capacity,
                                      device->allocation_count + 1));
  uint8_t* shadow = calloc((size_t)size, 1);
  if (!shadow) return rl_status_out_of_memory();
  device->allocations[device->allocation_count++] =
      (rl_null_allocation_t){address, size, shadow};
  device->next_address = address + size + RL_FUNNEL_NULL_DEVICE_GAP;
  *out_address = address;
  return RL_OK;
}

static rl_status_t rl_null_device_access(rl_null_device_t* device,
                                         uint64_t address, uint64_t size,
                                         uint8_t** out_host) {
  rl_null_allocation_t* allocation = rl_null_device_find(device, address, size);
  if (!allocation) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "null device: [0x%llx, +%llu) is not inside one "
                     "allocation",
                     (unsigned long long)address, (unsigned long long)size);
  }
  *out_host = allocation->shadow + (address - allocation->address);
  return RL_OK;
}

static rl_status_t rl_null_device_write(void* self, uint64_t address,
                                        const void* data, uint64_t size) {
  uint8_t* host = NULL;
  RL_RETURN_IF_ERROR(rl_null_device_access(self, address, size, &host));
  if (size) memcpy(host, data, (size_t)size);
  return RL_OK;
}

static rl_status_t rl_null_device_read(void* self, uint64_t address,
                                       void* data, uint64_t size) {
  uint8_t* host = NULL;
  RL_RETURN_IF_ERROR(rl_null_device_access(self, address, size, &host));
  if (size) memcpy(data, host, (size_t)size);
  return RL_OK;
}

// Accepts the launch without executing it: buffers keep their contents.
static rl_status_t rl_null_device_launch(void* self,
                                         const rl_funnel_dispatch_t* dispatch) {
  rl_null_device_t* device = self;
  (void)dispatch;
  ++device->launch_count;
  return RL_OK;
}

static void rl_null_device_destroy(void* self) {
  rl_null_device_t* device = self;
  if (!device) return;
  for (uint32_t i = 0; i < device->allocation_count; ++i) {
    free(device->allocations[i].shadow);
  }
  free(device->allocations);
  free(device);
}

rl_status_t rl_funnel_null_device_create(rl_funnel_device_t* out_device) {
  if (!out_device) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "null device: no output");
  }
  memset(out_device, 0, sizeof(*out_device));
  rl_null_device_t* device = calloc(1, sizeof(*device));
  if (!device) return rl_status_out_of_memory();
  device->next_address = RL_FUNNEL_NULL_DEVICE_BASE;
  *out_device = (rl_funnel_device_t){
      .self = device,
      .load_code_object = rl_null_device_load_code_object,
      .allocate = rl_null_device_allocate,
      .write = rl_null_device_write,
      .read = rl_null_device_read,
      .launch = rl_null_device_launch,
      .destroy = rl_null_device_destroy,
  };
  return RL_OK;
}

uint32_t rl_funnel_null_device_launch_count(const rl_funnel_device_t* device) {
  if (!device || device->launch != rl_null_device_launch) return 0;
  return ((const rl_null_device_t*)device->self)->launch_count;
}

void rl_funnel_device_destroy(rl_funnel_device_t* device) {
  if (!device) return;
  if (device->destroy) device->destroy(device->self);
  memset(device, 0, sizeof(*device));
}
