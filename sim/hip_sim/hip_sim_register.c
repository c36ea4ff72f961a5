// sim/hip_sim/hip_sim_register.c — hipHostRegister and
// hipHostUnregister. Registering makes a range of the program's memory
// pinned for the copy rules (hip_sim_copy.c): an asynchronous copy from it
// reads it when the stream reaches the copy and one into it completes in
// stream order, as a DMA engine on registered memory would, instead of the
// staging and waiting pageable memory gets. The simulated device cannot
// map the program's memory, so each registered range gets a mirror: a
// system-memory allocation of its size. A kernel argument pointing into
// the range is the mirror's address (hipHostGetDevicePointer gives it
// too); the range's bytes go to the mirror when a kernel starts and the
// bytes the kernel changed come back when it ends (docs/hip-runtime.md).
#include "sim/hip_sim/hip_sim_internal.h"

uint64_t rl_hip_registered_device(uint64_t address) {
  for (uint32_t i = 0; i < rl_hip.registered_count; ++i) {
    const rl_hip_registered_t* r = &rl_hip.registered[i];
    if (address >= r->base && address - r->base < r->size) {
      return r->mirror + (address - r->base);
    }
  }
  return 0;
}

struct rl_hip_mirror_s {
  uint32_t count;
  struct {
    rl_hip_registered_t range;
    uint8_t* before;  // the bytes written to the mirror
    uint8_t* after;   // the mirror's bytes after the kernel
  } ranges[];
};

rl_hip_mirror_t* rl_hip_mirror_in(void) {
  uint32_t count = rl_hip.registered_count;
  if (count == 0) return NULL;
  rl_hip_mirror_t* m =
      calloc(1, sizeof(*m) + count * sizeof(m->ranges[0]));
  if (!m) return NULL;
  pthread_mutex_lock(&rl_hip.device_lock);
  for (uint32_t i = 0; i < count; ++i) {
    const rl_hip_registered_t* r = &rl_hip.registered[i];
    uint8_t* before = malloc(r->size);
    uint8_t* after = malloc(r->size);
    if (!before || !after) {
      free(before), free(after);
      continue;  // the kernel sees the mirror's previous bytes
    }
    memcpy(before, (const void*)(uintptr_t)r->base, r->size);
    rl_status_free(
        rl_hip.sim->vtable->write(rl_hip.sim, r->mirror, before, r->size));
    m->ranges[m->count].range = *r;
    m->ranges[m->count].before = before;
    m->ranges[m->count].after = after;
    ++m->count;
  }
  pthread_mutex_unlock(&rl_hip.device_lock);
  return m;
}

void rl_hip_mirror_out(rl_hip_mirror_t* m) {
  if (!m) return;
  for (uint32_t i = 0; i < m->count; ++i) {
    const rl_hip_registered_t* r = &m->ranges[i].range;
    const uint8_t* before = m->ranges[i].before;
    uint8_t* after = m->ranges[i].after;
    uint8_t* host = (uint8_t*)(uintptr_t)r->base;
    rl_status_t status =
        rl_hip.sim->vtable->read(rl_hip.sim, r->mirror, after, r->size);
    for (uint64_t b = 0; !status && b < r->size; ++b) {
      if (after[b] != before[b]) host[b] = after[b];
    }
    rl_status_free(status);
    free(m->ranges[i].before);
    free(after);
  }
  free(m);
}

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
  rl_device_allocation_t mirror = {0};
  if (!status) {
    pthread_mutex_lock(&rl_hip.device_lock);
    status = rl_hip.sim->vtable->allocate(rl_hip.sim, sizeBytes, 256,
                                          RL_MEMORY_KIND_SYSTEM, &mirror);
    pthread_mutex_unlock(&rl_hip.device_lock);
  }
  if (status) {
    rl_status_free(status);
    return rl_hip_leave(hipErrorOutOfMemory);
  }
  rl_hip.registered[rl_hip.registered_count++] =
      (rl_hip_registered_t){base, sizeBytes, mirror.address};
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
          pthread_mutex_lock(&rl_hip.device_lock);
          rl_status_free(rl_hip.sim->vtable->free(rl_hip.sim,
                                                  rl_hip.registered[j].mirror));
          pthread_mutex_unlock(&rl_hip.device_lock);
          rl_hip.registered[j] = rl_hip.registered[--rl_hip.registered_count];
          break;
        }
      }
      return rl_hip_leave(result);
    }
  }
  return rl_hip_leave(hipErrorHostMemoryNotRegistered);
}
