// capture/interposer/interposer_host.c — host memory kernels may use:
// pinned (hipHostMalloc, hipMallocHost, hipHostAlloc), managed
// (hipMallocManaged) and registered (hipHostRegister) allocations are
// recorded as buffers of role io, and what the host writes into them
// between recorded launches is recorded as uploads
// (capture/interposer/interposer_internal.h; docs/capture-interposer.md
// "Host memory").
//
// The host writes such memory with plain stores the interposer cannot see.
// So while one is live, the interposer waits for the device after each
// launch it records and keeps a copy of each host buffer's bytes as the
// device left them (its shadow); before the next launch, copy or fill it
// records, the bytes that differ from the shadow are what the host wrote,
// and they are recorded as one upload (a copy-kernel launch from a staging
// buffer) per buffer, covering the first to the last changed byte.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/interposer/interposer_internal.h"
#include "base/test_fault.h"

// hipMallocHost, hipHostAlloc and hipFreeHost are deprecated in HIP's
// header; programs still call them, so they are interposed.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const char* const rl_ip_host_names[] = {
    [RL_IP_MEMORY_PINNED] = "pinned",
    [RL_IP_MEMORY_MANAGED] = "managed",
    [RL_IP_MEMORY_REGISTERED] = "registered",
};

bool rl_ip_host_live(const rl_interposer_t* ip) {
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    const rl_ip_buffer_t* b = &ip->buffers[i];
    if (rl_ip_memory_host(b->memory) && !b->freed) return true;
  }
  return false;
}

// Records host allocation |ptr| of |size| bytes as buffer "KINDN".
static void rl_ip_host_record(rl_interposer_t* ip, void* ptr, size_t size,
                              rl_ip_memory_t memory, const char* call) {
  if (!ptr || size == 0 || ip->buffer_count == RL_IP_MAX) return;
  rl_ip_buffer_t* b = &ip->buffers[ip->buffer_count];
  char name[32];
  snprintf(name, sizeof(name), "%s%u", rl_ip_host_names[memory],
           ip->buffer_count);
  ip->pending_address = (uint64_t)(uintptr_t)ptr;
  uint64_t address = 0;
  uint32_t index = 0;
  // The address's own alignment (registered memory may start anywhere), up
  // to 256 bytes, so a replay keeps the pointers' alignment.
  uint64_t alignment = 1;
  while (alignment < 256 && ip->pending_address % (alignment * 2) == 0) {
    alignment *= 2;
  }
  ip->adopting = true;
  rl_status_t status = rl_funnel_buffer(ip->funnel, name, size, alignment,
                                        RL_BUFFER_ROLE_IO, false, &index,
                                        &address);
  ip->adopting = false;
  if (status) {
    rl_ip_fail(status, call);
    if (ip->window_open) rl_ip_note(ip, 0, "an allocation was not recorded");
    return;
  }
  *b = (rl_ip_buffer_t){.base = ptr, .size = size, .index = index,
                        .memory = memory};
  ++ip->buffer_count;
}

bool rl_ip_host_read(rl_interposer_t* ip, uint64_t address, void* data,
                     uint64_t size) {
  const rl_ip_buffer_t* b = NULL;
  for (uint32_t i = 0; i < ip->buffer_count && !b; ++i) {
    const rl_ip_buffer_t* c = &ip->buffers[i];
    const uint64_t base = (uint64_t)(uintptr_t)c->base;
    if (rl_ip_memory_host(c->memory) && address >= base &&
        address - base < c->size && size <= c->size - (address - base)) {
      b = c;  // freed ones too: a buffer's first read may come after that
    }
  }
  if (!b) return false;
  if (b->unregistered) {  // the program may have freed it: never read
    memset(data, 0, size);
    return true;
  }
  RL_IP_REAL(hipDeviceSynchronize);
  if (real_hipDeviceSynchronize) (void)real_hipDeviceSynchronize();
  memcpy(data, (const void*)(uintptr_t)address, size);
  return true;
}

void rl_ip_host_settle(rl_interposer_t* ip) {
  if (!rl_ip_host_live(ip)) return;
  RL_IP_REAL(hipDeviceSynchronize);
  if (real_hipDeviceSynchronize) (void)real_hipDeviceSynchronize();
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    rl_ip_buffer_t* b = &ip->buffers[i];
    if (!rl_ip_memory_host(b->memory) || b->freed) continue;
    if (!b->shadow) b->shadow = malloc(b->size);
    if (b->shadow) {
      memcpy(b->shadow, b->base, b->size);
    } else {  // the host's stores into it could not be told
      rl_ip_note(ip, 1, "no memory to watch host buffer %u for host stores",
                 b->index);
    }
  }
}

void rl_ip_host_uploads(rl_interposer_t* ip) {
  if (ip->uploading || rl_test_fault("host-writes-off", 0)) return;
  ip->uploading = true;
  for (uint32_t i = 0; i < ip->buffer_count; ++i) {
    rl_ip_buffer_t* b = &ip->buffers[i];
    if (!rl_ip_memory_host(b->memory) || b->freed || !b->shadow) continue;
    const uint8_t* now = b->base;
    uint64_t lo = 0, hi = b->size;
    while (lo < hi && now[lo] == b->shadow[lo]) ++lo;
    while (hi > lo && now[hi - 1] == b->shadow[hi - 1]) --hi;
    if (lo == hi) continue;
    rl_ip_record_copy(ip, "a host write", (uint64_t)(uintptr_t)(now + lo), 0,
                      now + lo, hi - lo);
    memcpy(b->shadow + lo, now + lo, hi - lo);
  }
  ip->uploading = false;
}

// Marks the buffer at |ptr| freed (pinned and managed memory stays
// allocated until the capture is written); false when |ptr| is no recorded
// buffer's base.
static bool rl_ip_host_release(rl_interposer_t* ip, void* ptr) {
  rl_ip_buffer_t* b = rl_ip_buffer_at(ip, (uint64_t)(uintptr_t)ptr);
  if (!b || b->base != ptr) return false;
  b->freed = true;
  free(b->shadow);
  b->shadow = NULL;
  return true;
}

#define RL_IP_HOST_ALLOC(name, memory, params, args)                        \
  RL_IP_EXPORT hipError_t name params {                                     \
    RL_IP_ENTER();                                                          \
    RL_IP_REAL(name);                                                       \
    if (!real_##name) return rl_ip_leave(hipErrorNotSupported);             \
    hipError_t error = real_##name args;                                    \
    if (!error && rl_ip_on && ptr) {                                        \
      rl_ip_host_record(ip, *ptr, size, memory, #name);                     \
    }                                                                       \
    return rl_ip_leave(error);                                              \
  }

RL_IP_HOST_ALLOC(hipHostMalloc, RL_IP_MEMORY_PINNED,
                 (void** ptr, size_t size, unsigned int flags),
                 (ptr, size, flags))
RL_IP_HOST_ALLOC(hipHostAlloc, RL_IP_MEMORY_PINNED,
                 (void** ptr, size_t size, unsigned int flags),
                 (ptr, size, flags))
RL_IP_HOST_ALLOC(hipMallocHost, RL_IP_MEMORY_PINNED,
                 (void** ptr, size_t size), (ptr, size))
RL_IP_HOST_ALLOC(hipMallocManaged, RL_IP_MEMORY_MANAGED,
                 (void** ptr, size_t size, unsigned int flags),
                 (ptr, size, flags))

// Pinned memory stays allocated until the capture is written (no address
// reuse), like hipFree's.
#define RL_IP_HOST_FREE(name)                                    \
  RL_IP_EXPORT hipError_t name(void* ptr) {                      \
    RL_IP_ENTER();                                               \
    RL_IP_REAL(name);                                            \
    if (!real_##name) return rl_ip_leave(hipErrorNotSupported);  \
    if (rl_ip_on && rl_ip_host_release(ip, ptr)) {               \
      return rl_ip_leave(hipSuccess);                            \
    }                                                            \
    return rl_ip_leave(real_##name(ptr));                        \
  }

RL_IP_HOST_FREE(hipHostFree)
RL_IP_HOST_FREE(hipFreeHost)

RL_IP_EXPORT hipError_t hipHostRegister(void* ptr, size_t size,
                                        unsigned int flags) {
  RL_IP_ENTER();
  RL_IP_REAL(hipHostRegister);
  if (!real_hipHostRegister) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipHostRegister(ptr, size, flags);
  if (!error && rl_ip_on) {
    rl_ip_host_record(ip, ptr, size, RL_IP_MEMORY_REGISTERED,
                      "hipHostRegister");
  }
  return rl_ip_leave(error);
}

// The program owns registered memory and may free it right after: the
// range is unregistered at once (its buffer, if a recorded launch used it,
// must not be used by a later one).
RL_IP_EXPORT hipError_t hipHostUnregister(void* ptr) {
  RL_IP_ENTER();
  RL_IP_REAL(hipHostUnregister);
  if (!real_hipHostUnregister) return rl_ip_leave(hipErrorNotSupported);
  hipError_t error = real_hipHostUnregister(ptr);
  if (!error && rl_ip_on) {
    rl_ip_buffer_t* b = rl_ip_buffer_at(ip, (uint64_t)(uintptr_t)ptr);
    if (b && b->base == ptr && b->memory == RL_IP_MEMORY_REGISTERED) {
      (void)rl_ip_host_release(ip, ptr);
      b->unregistered = true;
    }
  }
  return rl_ip_leave(error);
}
