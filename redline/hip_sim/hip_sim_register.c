// redline/hip_sim/hip_sim_register.c — hipHostRegister and
// hipHostUnregister. Registering makes a range of the program's memory
// pinned for the copy rules (hip_sim_copy.c): an asynchronous copy from it
// reads it when the stream reaches the copy and one into it completes in
// stream order, as a DMA engine on registered memory would, instead of the
// staging and waiting pageable memory gets. The simulated device cannot
// map the program's memory: a kernel cannot dereference a registered
// pointer, and hipHostGetDevicePointer refuses it (docs/hip-runtime.md).
#include "redline/hip_sim/hip_sim_internal.h"

bool rl_hip_registered(uint64_t address, uint64_t size) {
  for (uint32_t i = 0; i < rl_hip.registered_count; ++i) {
    const rl_hip_registered_t* r = &rl_hip.registered[i];
    if (address >= r->base && address - r->base <= r->size &&
        size <= r->size - (address - r->base)) {
      return true;
    }
  }
  return false;
}

static bool rl_hip_registered_overlaps(uint64_t base, uint64_t size) {
  for (uint32_t i = 0; i < rl_hip.registered_count; ++i) {
    const rl_hip_registered_t* r = &rl_hip.registered[i];
    if (base < r->base + r->size && r->base < base + size) return true;
  }
  return false;
}

// HIP: a NULL pointer or zero size is hipErrorInvalidValue; a range that
// overlaps a registered one hipErrorHostMemoryAlreadyRegistered.
RL_HIP_EXPORT hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes,
                                         unsigned int flags) {
  (void)flags;
  if (!hostPtr || sizeBytes == 0) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  uint64_t base = (uint64_t)(uintptr_t)hostPtr;
  if (sizeBytes > UINT64_MAX - base) return rl_hip_leave(hipErrorInvalidValue);
  if (rl_hip_find(base)) return rl_hip_leave(hipErrorInvalidValue);
  if (rl_hip_registered_overlaps(base, sizeBytes)) {
    return rl_hip_leave(hipErrorHostMemoryAlreadyRegistered);
  }
  rl_status_t status = RL_ARRAY_RESERVE(&rl_hip.registered,
                                        &rl_hip.registered_capacity,
                                        rl_hip.registered_count + 1);
  if (status) {
    rl_status_free(status);
    return rl_hip_leave(hipErrorOutOfMemory);
  }
  rl_hip.registered[rl_hip.registered_count++] =
      (rl_hip_registered_t){base, sizeBytes};
  return rl_hip_leave(hipSuccess);
}

// Waits for the device first: a queued copy may still use the range.
RL_HIP_EXPORT hipError_t hipHostUnregister(void* hostPtr) {
  if (!hostPtr) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  uint64_t base = (uint64_t)(uintptr_t)hostPtr;
  for (uint32_t i = 0; i < rl_hip.registered_count; ++i) {
    if (rl_hip.registered[i].base == base) {
      hipError_t result = rl_hip_wait_all();
      for (uint32_t j = 0; j < rl_hip.registered_count; ++j) {
        if (rl_hip.registered[j].base == base) {
          rl_hip.registered[j] = rl_hip.registered[--rl_hip.registered_count];
          break;
        }
      }
      return rl_hip_leave(result);
    }
  }
  return rl_hip_leave(hipErrorHostMemoryNotRegistered);
}
