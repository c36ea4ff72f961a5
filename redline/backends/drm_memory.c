// redline/backends/drm_memory.c — buffer objects, signals, code objects and
// the buffer list of the drm device (drm_device.h).
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "redline/backends/drm_internal.h"
#include "base/clock.h"

// The GPU's page size: VA ranges and mappings are whole pages.
#define RL_DRM_PAGE 4096ull

static uint64_t rl_drm_round_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

static rl_drm_bo_t* rl_drm_find(rl_drm_device_t* device, uint64_t address,
                                uint64_t size) {
  for (uint32_t i = 0; i < device->bo_count; ++i) {
    rl_drm_bo_t* bo = &device->bos[i];
    if (address >= bo->address && size <= bo->size &&
        address - bo->address <= bo->size - size) {
      return bo;
    }
  }
  return NULL;
}

// Releases one BO's mapping, VA range and memory, in reverse order.
static rl_status_t rl_drm_bo_release(rl_drm_device_t* device,
                                     rl_drm_bo_t* bo) {
  const rl_drm_api_t* api = &device->api;
  rl_status_t status = RL_OK;
  if (bo->host) {
    status = rl_status_join(status, RL_DRM_CALL(api, amdgpu_bo_cpu_unmap,
                                                bo->bo));
  }
  if (bo->va) {
    status = rl_status_join(
        status, RL_DRM_CALL(api, amdgpu_bo_va_op, bo->bo, 0, bo->mapped,
                            bo->address, 0, AMDGPU_VA_OP_UNMAP));
    status = rl_status_join(status,
                            RL_DRM_CALL(api, amdgpu_va_range_free, bo->va));
  }
  if (bo->bo) {
    status = rl_status_join(status, RL_DRM_CALL(api, amdgpu_bo_free, bo->bo));
  }
  return status;
}

static void rl_drm_list_stale(rl_drm_device_t* device) {
  if (!device->list) return;
  rl_status_free(
      RL_DRM_CALL(&device->api, amdgpu_bo_list_destroy, device->list));
  device->list = NULL;
}

// Allocates, maps and CPU-maps one BO of |size| bytes at |required| (0:
// anywhere, aligned to |alignment|).
static rl_status_t rl_drm_bo_create(rl_drm_device_t* device, uint64_t size,
                                    uint64_t alignment, uint64_t required,
                                    rl_memory_kind_t kind, rl_drm_bo_use_t use,
                                    rl_device_allocation_t* out) {
  memset(out, 0, sizeof(*out));
  if (size == 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "drm: allocation of 0 bytes");
  }
  if (alignment < RL_DRM_PAGE) alignment = RL_DRM_PAGE;
  if (device->bo_count == device->bo_capacity) {
    uint32_t capacity = device->bo_capacity ? 2 * device->bo_capacity : 64;
    rl_drm_bo_t* grown = realloc(device->bos, capacity * sizeof(*grown));
    if (!grown) return rl_status_out_of_memory();
    device->bos = grown;
    device->bo_capacity = capacity;
  }
  const rl_drm_api_t* api = &device->api;
  rl_drm_bo_t bo = {.size = size, .use = use,
                    .mapped = rl_drm_round_up(size, RL_DRM_PAGE)};
  struct amdgpu_bo_alloc_request request = {
      .alloc_size = bo.mapped,
      .phys_alignment = alignment,
      .preferred_heap = kind == RL_MEMORY_KIND_DEVICE ? AMDGPU_GEM_DOMAIN_VRAM
                                                      : AMDGPU_GEM_DOMAIN_GTT,
      .flags = AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED,
  };
  rl_status_t status = RL_DRM_CALL(api, amdgpu_bo_alloc, device->dev,
                                   &request, &bo.bo);
  if (!status) {
    status = RL_DRM_CALL(api, amdgpu_va_range_alloc, device->dev,
                         amdgpu_gpu_va_range_general, bo.mapped, alignment,
                         required, &bo.address, &bo.va, 0);
  }
  if (!status && required && bo.address != required) {
    status = RL_STATUS(RL_STATUS_CONTRACT,
                       "drm: VA 0x%" PRIx64 " requested, 0x%" PRIx64 " given",
                       required, bo.address);
  }
  if (!status) {
    status = RL_DRM_CALL(api, amdgpu_bo_va_op, bo.bo, 0, bo.mapped,
                         bo.address, 0, AMDGPU_VA_OP_MAP);
    if (status) {
      rl_status_free(RL_DRM_CALL(api, amdgpu_va_range_free, bo.va));
      bo.va = NULL;
    }
  }
  if (!status) status = RL_DRM_CALL(api, amdgpu_bo_cpu_map, bo.bo, &bo.host);
  if (status) {
    rl_status_free(rl_drm_bo_release(device, &bo));
    if (required && !rl_status_is(status, RL_STATUS_OUT_OF_MEMORY) &&
        !rl_status_is(status, RL_STATUS_CONTRACT)) {
      // device.h: a fixed range that cannot be had is a contract failure.
      rl_status_t recoded = RL_STATUS(
          RL_STATUS_CONTRACT, "drm: VA 0x%" PRIx64 " unavailable: %s",
          required, rl_status_message(status));
      rl_status_free(status);
      status = recoded;
    }
    return rl_status_annotate(status, "drm: allocating %" PRIu64 " bytes",
                              size);
  }
  memset(bo.host, 0, bo.mapped);
  device->bos[device->bo_count++] = bo;
  rl_drm_list_stale(device);
  *out = (rl_device_allocation_t){bo.address, size, bo.host};
  return RL_OK;
}

rl_status_t rl_drm_allocate(rl_device_t* base, uint64_t size,
                            uint64_t alignment, rl_memory_kind_t kind,
                            rl_device_allocation_t* out_allocation) {
  return rl_drm_bo_create(rl_drm_cast(base), size, alignment, 0, kind,
                          RL_DRM_BO_MEMORY, out_allocation);
}

rl_status_t rl_drm_allocate_fixed(rl_device_t* base, uint64_t address,
                                  uint64_t size, rl_memory_kind_t kind,
                                  rl_device_allocation_t* out_allocation) {
  if (address == 0 || address % RL_DRM_PAGE != 0) {
    memset(out_allocation, 0, sizeof(*out_allocation));
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "drm: fixed address 0x%" PRIx64 " is not page aligned",
                     address);
  }
  return rl_drm_bo_create(rl_drm_cast(base), size, RL_DRM_PAGE, address, kind,
                          RL_DRM_BO_MEMORY, out_allocation);
}

static rl_status_t rl_drm_free_use(rl_drm_device_t* device, uint64_t address,
                                   rl_drm_bo_use_t use, const char* what) {
  for (uint32_t i = 0; i < device->bo_count; ++i) {
    rl_drm_bo_t* bo = &device->bos[i];
    if (bo->address != address || bo->use != use) continue;
    rl_drm_list_stale(device);
    rl_status_t status = rl_drm_bo_release(device, bo);
    device->bos[i] = device->bos[--device->bo_count];
    return status;
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "drm: free of 0x%" PRIx64 ": not a live %s", address, what);
}

rl_status_t rl_drm_free(rl_device_t* base, uint64_t address) {
  return rl_drm_free_use(rl_drm_cast(base), address, RL_DRM_BO_MEMORY,
                         "allocation");
}

// The host mapping of [address, address + size) inside one allocation, or
// an error naming |what| (the access) when no allocation holds it.
static rl_status_t rl_drm_host_range(rl_device_t* base, uint64_t address,
                                     uint64_t size, const char* what,
                                     char** out_host) {
  rl_drm_bo_t* bo = rl_drm_find(rl_drm_cast(base), address, size);
  if (!bo) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "drm: %s of %" PRIu64 " bytes at 0x%" PRIx64
                     " outside every allocation", what, size, address);
  }
  *out_host = (char*)bo->host + (address - bo->address);
  return RL_OK;
}

rl_status_t rl_drm_write(rl_device_t* base, uint64_t address, const void* data,
                         uint64_t size) {
  char* host = NULL;
  RL_RETURN_IF_ERROR(rl_drm_host_range(base, address, size, "write", &host));
  memcpy(host, data, size);
  return RL_OK;
}

rl_status_t rl_drm_read(rl_device_t* base, uint64_t address, void* data,
                        uint64_t size) {
  char* host = NULL;
  RL_RETURN_IF_ERROR(rl_drm_host_range(base, address, size, "read", &host));
  memcpy(data, host, size);
  return RL_OK;
}

rl_status_t rl_drm_load_code_object(rl_device_t* base, const void* bytes,
                                    size_t size, const rl_code_object_t* parsed,
                                    rl_device_code_object_t* out_code_object) {
  rl_drm_device_t* device = rl_drm_cast(base);
  memset(out_code_object, 0, sizeof(*out_code_object));
  if (strcmp(parsed->processor, device->processor) != 0) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "code object for %s cannot load on drm device %s",
                     parsed->processor, device->processor);
  }
  // Descriptors must be 64-byte aligned (AMDGPUUsage); BOs are pages.
  rl_device_allocation_t image;
  RL_RETURN_IF_ERROR(rl_drm_bo_create(device, parsed->image_size,
                                      parsed->image_align, 0,
                                      RL_MEMORY_KIND_DEVICE, RL_DRM_BO_CODE,
                                      &image));
  rl_status_t status = rl_code_object_load_image(
      parsed, bytes, size, image.address, image.host, (size_t)image.size);
  if (status) {
    rl_status_free(rl_drm_free_use(device, image.address, RL_DRM_BO_CODE,
                                   "code object"));
    return rl_status_annotate(status, "loading code object for %s",
                              parsed->target);
  }
  *out_code_object =
      (rl_device_code_object_t){image.address, image.size, image.address};
  return RL_OK;
}

rl_status_t rl_drm_unload_code_object(
    rl_device_t* base, const rl_device_code_object_t* code_object) {
  return rl_drm_free_use(rl_drm_cast(base), code_object->handle,
                         RL_DRM_BO_CODE, "code object");
}

//===----------------------------------------------------------------------===//
// Signals
//===----------------------------------------------------------------------===//

static int64_t* rl_drm_signal_value(rl_drm_device_t* device, uint64_t signal) {
  for (uint32_t i = 0; i < device->bo_count; ++i) {
    rl_drm_bo_t* bo = &device->bos[i];
    if (bo->use == RL_DRM_BO_SIGNAL && bo->address == signal) {
      return (int64_t*)((char*)bo->host + RL_DEVICE_SIGNAL_VALUE_OFFSET);
    }
  }
  return NULL;
}

rl_status_t rl_drm_signal_create(rl_device_t* base, int64_t initial_value,
                                 rl_device_allocation_t* out_signal) {
  rl_drm_device_t* device = rl_drm_cast(base);
  RL_RETURN_IF_ERROR(rl_drm_bo_create(device, RL_DEVICE_SIGNAL_SIZE, 64, 0,
                                      RL_MEMORY_KIND_SYSTEM, RL_DRM_BO_SIGNAL,
                                      out_signal));
  __atomic_store_n(rl_drm_signal_value(device, out_signal->address),
                   initial_value, __ATOMIC_RELEASE);
  return RL_OK;
}

rl_status_t rl_drm_signal_destroy(rl_device_t* base, uint64_t signal) {
  return rl_drm_free_use(rl_drm_cast(base), signal, RL_DRM_BO_SIGNAL,
                         "signal");
}

void rl_drm_signal_store(rl_device_t* base, uint64_t signal, int64_t value) {
  int64_t* slot = rl_drm_signal_value(rl_drm_cast(base), signal);
  if (slot) __atomic_store_n(slot, value, __ATOMIC_RELEASE);
}

int64_t rl_drm_signal_load(rl_device_t* base, uint64_t signal) {
  int64_t* slot = rl_drm_signal_value(rl_drm_cast(base), signal);
  return slot ? __atomic_load_n(slot, __ATOMIC_ACQUIRE) : 0;
}

bool rl_drm_signal_wait_lt(rl_device_t* base, uint64_t signal, int64_t value,
                           uint64_t timeout_ns, int64_t* out_value) {
  int64_t* slot = rl_drm_signal_value(rl_drm_cast(base), signal);
  if (!slot) return false;
  const uint64_t start = rl_now_ns();
  for (;;) {
    int64_t seen = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (out_value) *out_value = seen;
    if (seen < value) return true;
    if (rl_now_ns() - start >= timeout_ns) return false;
    const struct timespec pause = {0, 20000};
    nanosleep(&pause, NULL);
  }
}

//===----------------------------------------------------------------------===//
// Buffer list and teardown
//===----------------------------------------------------------------------===//

rl_status_t rl_drm_bo_list(rl_drm_device_t* device,
                           amdgpu_bo_list_handle* out_list) {
  if (!device->list) {
    amdgpu_bo_handle* handles =
        calloc(device->bo_count + 1u, sizeof(*handles));
    if (!handles) return rl_status_out_of_memory();
    for (uint32_t i = 0; i < device->bo_count; ++i) {
      handles[i] = device->bos[i].bo;
    }
    rl_status_t status =
        RL_DRM_CALL(&device->api, amdgpu_bo_list_create, device->dev,
                    device->bo_count, handles, NULL, &device->list);
    free(handles);
    if (status) {
      device->list = NULL;
      return status;
    }
  }
  *out_list = device->list;
  return RL_OK;
}

rl_status_t rl_drm_memory_release_all(rl_drm_device_t* device) {
  rl_drm_list_stale(device);
  rl_status_t status = RL_OK;
  while (device->bo_count > 0) {
    status = rl_status_join(
        status, rl_drm_bo_release(device, &device->bos[--device->bo_count]));
  }
  return status;
}
