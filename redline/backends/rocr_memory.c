// redline/backends/rocr_memory.c — allocations of the rocr device
// (rocr_device.h "Address model"). A small unsorted table remembers every
// live allocation: free() must know it is one, and write()/read() pick the
// host view or hsa_memory_copy by the allocation's kind (hsa_memory_copy
// also inside a loaded code object's image, for its variables).
#include <stdint.h>
#include <string.h>

#include "base/array.h"
#include "redline/backends/rocr_internal.h"

// Index of the allocation holding [address, address + size), or -1.
static int64_t rl_rocr_memory_find(const rl_rocr_device_t* device,
                                   uint64_t address, uint64_t size) {
  for (uint32_t i = 0; i < device->allocation_count; ++i) {
    const rl_rocr_allocation_t* item = &device->allocations[i];
    if (address >= item->address && address - item->address < item->size &&
        item->size - (address - item->address) >= size) {
      return i;
    }
  }
  return -1;
}

// The host view of ROCr allocation |pointer| (hsa_amd_pointer_info), or
// NULL when the host may not access it.
static rl_status_t rl_rocr_host_view(rl_rocr_device_t* device, void* pointer,
                                     void** out_host) {
  *out_host = NULL;
  hsa_amd_pointer_info_t info;
  memset(&info, 0, sizeof(info));
  info.size = sizeof(info);
  RL_RETURN_IF_ERROR(RL_HSA_CALL(&device->api, hsa_amd_pointer_info, pointer,
                                 &info, NULL, NULL, NULL));
  if (info.hostBaseAddress && info.agentBaseAddress) {
    uintptr_t offset = (uintptr_t)pointer - (uintptr_t)info.agentBaseAddress;
    *out_host = (char*)info.hostBaseAddress + offset;
  }
  return RL_OK;
}

// Makes a fresh kernarg-pool allocation usable by the GPU and finds its
// host view; the caller frees |pointer| on failure.
static rl_status_t rl_rocr_prepare_host_visible(rl_rocr_device_t* device,
                                                void* pointer,
                                                void** out_host) {
  if (device->kernarg_needs_access) {
    RL_RETURN_IF_ERROR(RL_HSA_CALL(&device->api, hsa_amd_agents_allow_access,
                                   1, &device->gpu, NULL, pointer));
  }
  RL_RETURN_IF_ERROR(rl_rocr_host_view(device, pointer, out_host));
  if (!*out_host) {
    return RL_STATUS(RL_STATUS_UNAVAILABLE,
                     "rocr: fine-grained allocation %p has no host view "
                     "(hsa_amd_pointer_info hostBaseAddress is NULL)",
                     pointer);
  }
  return RL_OK;
}

rl_status_t rl_rocr_allocate(rl_device_t* base, uint64_t size,
                             uint64_t alignment, rl_memory_kind_t kind,
                             rl_device_allocation_t* out_allocation) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  memset(out_allocation, 0, sizeof(*out_allocation));
  if (size == 0 || (alignment & (alignment - 1)) != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rocr: allocation of %llu bytes aligned to %llu: expected "
                     "a nonzero size and a power-of-two alignment",
                     (unsigned long long)size, (unsigned long long)alignment);
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&device->allocations,
                                      &device->allocation_capacity,
                                      device->allocation_count + 1));
  hsa_amd_memory_pool_t pool = kind == RL_MEMORY_KIND_DEVICE
                                   ? device->device_pool
                                   : device->kernarg_pool;
  void* pointer = NULL;
  RL_RETURN_IF_ERROR(RL_HSA_CALL(&device->api, hsa_amd_memory_pool_allocate,
                                 pool, (size_t)size, 0, &pointer));
  void* host = NULL;
  rl_status_t status = RL_OK;
  if (alignment && ((uintptr_t)pointer & (alignment - 1)) != 0) {
    status = RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "rocr: the pool returned %p, not aligned to %llu",
                       pointer, (unsigned long long)alignment);
  } else if (kind != RL_MEMORY_KIND_DEVICE) {
    status = rl_rocr_prepare_host_visible(device, pointer, &host);
  }
  if (status) {
    device->api.fn.hsa_amd_memory_pool_free(pointer);
    return status;
  }
  const uint64_t address = (uint64_t)(uintptr_t)pointer;
  device->allocations[device->allocation_count++] =
      (rl_rocr_allocation_t){address, size, host, kind};
  *out_allocation = (rl_device_allocation_t){address, size, host};
  return RL_OK;
}

rl_status_t rl_rocr_allocate_fixed(rl_device_t* base, uint64_t address,
                                   uint64_t size, rl_memory_kind_t kind,
                                   rl_device_allocation_t* out_allocation) {
  (void)base;
  (void)kind;
  memset(out_allocation, 0, sizeof(*out_allocation));
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "rocr: a keep-address buffer of %llu bytes at 0x%llx "
                   "cannot be placed: ROCr offers no fixed-address allocation "
                   "(hsa_amd_vmem_* needs ROCm 6)",
                   (unsigned long long)size, (unsigned long long)address);
}

rl_status_t rl_rocr_free(rl_device_t* base, uint64_t address) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  int64_t index = rl_rocr_memory_find(device, address, 1);
  if (index < 0 || device->allocations[index].address != address) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rocr: free of 0x%llx: not the start of a live "
                     "allocation", (unsigned long long)address);
  }
  rl_status_t status =
      RL_HSA_CALL(&device->api, hsa_amd_memory_pool_free,
                  (void*)(uintptr_t)address);
  device->allocations[index] =
      device->allocations[--device->allocation_count];
  return status;
}

// True when [address, address + size) lies in one live code object's
// loaded image (its variables: reached with hsa_memory_copy).
static bool rl_rocr_in_code_object(const rl_rocr_device_t* device,
                                   uint64_t address, uint64_t size) {
  for (uint32_t i = 0; i < device->code_object_count; ++i) {
    const rl_rocr_code_object_t* object = &device->code_objects[i];
    if (object->live && address >= object->load_base &&
        address - object->load_base < object->image_size &&
        object->image_size - (address - object->load_base) >= size) {
      return true;
    }
  }
  return false;
}

// Finds the allocation for an access or fails naming it; *|out| is NULL
// for an access inside a loaded code object's image.
static rl_status_t rl_rocr_memory_access(rl_rocr_device_t* device,
                                         uint64_t address, uint64_t size,
                                         const char* what,
                                         const rl_rocr_allocation_t** out) {
  *out = NULL;
  int64_t index = rl_rocr_memory_find(device, address, size);
  if (index < 0 && rl_rocr_in_code_object(device, address, size)) {
    return RL_OK;
  }
  if (index < 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "rocr: %s of %llu bytes at 0x%llx: not inside one live "
                     "allocation", what, (unsigned long long)size,
                     (unsigned long long)address);
  }
  *out = &device->allocations[index];
  return RL_OK;
}

rl_status_t rl_rocr_write(rl_device_t* base, uint64_t address,
                          const void* data, uint64_t size) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  const rl_rocr_allocation_t* item = NULL;
  RL_RETURN_IF_ERROR(
      rl_rocr_memory_access(device, address, size, "write", &item));
  if (item && item->host) {
    memcpy((char*)item->host + (address - item->address), data, (size_t)size);
    return RL_OK;
  }
  return RL_HSA_CALL(&device->api, hsa_memory_copy, (void*)(uintptr_t)address,
                     data, (size_t)size);
}

rl_status_t rl_rocr_read(rl_device_t* base, uint64_t address, void* data,
                         uint64_t size) {
  rl_rocr_device_t* device = rl_rocr_cast(base);
  const rl_rocr_allocation_t* item = NULL;
  RL_RETURN_IF_ERROR(
      rl_rocr_memory_access(device, address, size, "read", &item));
  if (item && item->host) {
    memcpy(data, (const char*)item->host + (address - item->address),
           (size_t)size);
    return RL_OK;
  }
  return RL_HSA_CALL(&device->api, hsa_memory_copy, data,
                     (const void*)(uintptr_t)address, (size_t)size);
}

rl_status_t rl_rocr_memory_release_all(rl_rocr_device_t* device) {
  rl_status_t status = RL_OK;
  while (device->allocation_count > 0) {
    status = rl_status_join(
        status, rl_rocr_free(&device->base, device->allocations[0].address));
  }
  return status;
}
