// redline/backends/drm_internal.h — private state of the drm device, shared
// by its files: drm_device.c (open, target, destroy, vtable, probe),
// drm_memory.c (buffer objects, signals, code objects, the buffer list),
// drm_submit.c (submit_ib and the fence). drm_device.h has the contract.
#ifndef REDLINE_BACKENDS_DRM_INTERNAL_H_
#define REDLINE_BACKENDS_DRM_INTERNAL_H_

#include "redline/backends/drm_device.h"
#include "redline/backends/drm_loader.h"

typedef enum rl_drm_bo_use_e {
  RL_DRM_BO_MEMORY = 0,
  RL_DRM_BO_SIGNAL = 1,
  RL_DRM_BO_CODE = 2,
} rl_drm_bo_use_t;

typedef struct rl_drm_bo_s {
  amdgpu_bo_handle bo;
  amdgpu_va_handle va;
  uint64_t address;  // GPU VA
  uint64_t size;     // requested size
  uint64_t mapped;   // page-aligned size of the VA mapping
  void* host;        // CPU map
  rl_drm_bo_use_t use;
} rl_drm_bo_t;

typedef struct rl_drm_device_s rl_drm_device_t;

struct rl_drm_device_s {
  rl_device_t base;  // first: rl_device_t* casts to rl_drm_device_t*
  rl_drm_api_t api;
  bool api_open;
  int fd;
  amdgpu_device_handle dev;
  amdgpu_context_handle ctx;
  amdgpu_bo_list_handle list;  // over every live BO; NULL when stale
  char processor[32];
  char target[96];
  char node[256];
  rl_drm_bo_t* bos;  // unsorted; small
  uint32_t bo_count;
  uint32_t bo_capacity;
  // A submission whose fence wait expired (drm_device.h).
  bool pending;
  uint64_t pending_seq;
  rl_drm_device_t* retained_next;
};

static inline rl_drm_device_t* rl_drm_cast(rl_device_t* device) {
  return (rl_drm_device_t*)device;
}

// drm_memory.c
rl_status_t rl_drm_allocate(rl_device_t* device, uint64_t size,
                            uint64_t alignment, rl_memory_kind_t kind,
                            rl_device_allocation_t* out_allocation);
rl_status_t rl_drm_allocate_fixed(rl_device_t* device, uint64_t address,
                                  uint64_t size, rl_memory_kind_t kind,
                                  rl_device_allocation_t* out_allocation);
rl_status_t rl_drm_free(rl_device_t* device, uint64_t address);
rl_status_t rl_drm_write(rl_device_t* device, uint64_t address,
                         const void* data, uint64_t size);
rl_status_t rl_drm_read(rl_device_t* device, uint64_t address, void* data,
                        uint64_t size);
rl_status_t rl_drm_load_code_object(rl_device_t* device, const void* bytes,
                                    size_t size, const rl_code_object_t* parsed,
                                    rl_device_code_object_t* out_code_object);
rl_status_t rl_drm_unload_code_object(
    rl_device_t* device, const rl_device_code_object_t* code_object);
rl_status_t rl_drm_signal_create(rl_device_t* device, int64_t initial_value,
                                 rl_device_allocation_t* out_signal);
rl_status_t rl_drm_signal_destroy(rl_device_t* device, uint64_t signal);
void rl_drm_signal_store(rl_device_t* device, uint64_t signal, int64_t value);
int64_t rl_drm_signal_load(rl_device_t* device, uint64_t signal);
bool rl_drm_signal_wait_lt(rl_device_t* device, uint64_t signal,
                           int64_t value, uint64_t timeout_ns,
                           int64_t* out_value);
// The buffer list over every live BO, rebuilt when stale.
rl_status_t rl_drm_bo_list(rl_drm_device_t* device,
                           amdgpu_bo_list_handle* out_list);
// Frees every BO and the list (device destroy).
rl_status_t rl_drm_memory_release_all(rl_drm_device_t* device);

// drm_submit.c
rl_status_t rl_drm_submit_ib(rl_device_t* device, uint64_t ib_address,
                             uint32_t dwords, uint64_t timeout_ns,
                             bool* out_fence_ok);
// Whether the pending submission's fence has signalled (polls once);
// clears |pending| when it has.
bool rl_drm_pending_done(rl_drm_device_t* device);

#endif  // REDLINE_BACKENDS_DRM_INTERNAL_H_
