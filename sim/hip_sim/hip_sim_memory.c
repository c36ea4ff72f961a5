// sim/hip_sim/hip_sim_memory.c — allocations (device, host-visible),
// copies in every direction (sync and queued on a stream), memset, and
// device variables (symbols); the memory model is hip_sim.h's.
#include "sim/hip_sim/hip_sim_internal.h"

//===----------------------------------------------------------------------===//
// Allocations
//===----------------------------------------------------------------------===//

rl_hip_allocation_t* rl_hip_find(uint64_t address) {
  for (uint32_t i = 0; i < rl_hip.allocation_count; ++i) {
    rl_hip_allocation_t* a = &rl_hip.allocations[i];
    if (address >= a->address && address - a->address < a->size) return a;
    uint64_t host = (uint64_t)(uintptr_t)a->host;
    if (a->host && address >= host && address - host < a->size) return a;
  }
  return NULL;
}

uint64_t rl_hip_device_address(const void* pointer) {
  uint64_t value = (uint64_t)(uintptr_t)pointer;
  rl_hip_allocation_t* a = rl_hip_find(value);
  if (!a) {
    uint64_t mirror = rl_hip_registered_device(value);
    return mirror ? mirror : value;
  }
  if (!a->host) return value;
  uint64_t host = (uint64_t)(uintptr_t)a->host;
  if (value >= host && value - host < a->size) {
    return a->address + (value - host);
  }
  return value;
}

static hipError_t rl_hip_allocate(void** ptr, size_t size, bool host_visible) {
  if (!ptr) return hipErrorInvalidValue;
  *ptr = NULL;
  if (size == 0) return hipSuccess;
  RL_HIP_ENTER();
  rl_status_t status = RL_ARRAY_RESERVE(&rl_hip.allocations,
                                        &rl_hip.allocation_capacity,
                                        rl_hip.allocation_count + 1);
  rl_device_allocation_t allocation = {0};
  if (!status) {
    pthread_mutex_lock(&rl_hip.device_lock);
    status = rl_hip.sim->vtable->allocate(
        rl_hip.sim, size, 256,
        host_visible ? RL_MEMORY_KIND_SYSTEM : RL_MEMORY_KIND_DEVICE,
        &allocation);
    pthread_mutex_unlock(&rl_hip.device_lock);
  }
  if (!status && host_visible && !allocation.host) {
    status = RL_STATUS(RL_STATUS_INTERNAL, "system memory without a host view");
  }
  if (status) {
    rl_status_free(status);
    return rl_hip_leave(hipErrorOutOfMemory);
  }
  rl_hip.allocations[rl_hip.allocation_count++] = (rl_hip_allocation_t){
      allocation.address, size, host_visible ? allocation.host : NULL};
  *ptr = host_visible ? allocation.host : (void*)(uintptr_t)allocation.address;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipMalloc(void** ptr, size_t size) {
  return rl_hip_allocate(ptr, size, false);
}

RL_HIP_EXPORT hipError_t hipExtMallocWithFlags(void** ptr, size_t size,
                                               unsigned int flags) {
  (void)flags;
  return rl_hip_allocate(ptr, size, false);
}

RL_HIP_EXPORT hipError_t hipHostMalloc(void** ptr, size_t size,
                                       unsigned int flags) {
  (void)flags;
  return rl_hip_allocate(ptr, size, true);
}

RL_HIP_EXPORT hipError_t hipMallocHost(void** ptr, size_t size) {
  return rl_hip_allocate(ptr, size, true);
}

RL_HIP_EXPORT hipError_t hipHostAlloc(void** ptr, size_t size,
                                      unsigned int flags) {
  (void)flags;
  return rl_hip_allocate(ptr, size, true);
}

RL_HIP_EXPORT hipError_t hipMallocManaged(void** ptr, size_t size,
                                          unsigned int flags) {
  (void)flags;
  return rl_hip_allocate(ptr, size, true);
}

// True when a queued launch's kernarg holds an address inside |a|.
static bool rl_hip_in_flight(const rl_hip_allocation_t* a) {
  for (uint32_t s = 0; s <= rl_hip.stream_count; ++s) {
    const struct ihipStream_t* stream =
        s == rl_hip.stream_count ? &rl_hip.null_stream : rl_hip.streams[s];
    for (uint32_t l = stream->head; l < stream->pending.count; ++l) {
      const rl_hip_op_t* op = &stream->pending.items[l];
      for (uint32_t o = 0; o + 8 <= op->kernarg_size; o += 8) {
        uint64_t value;
        memcpy(&value, op->kernarg + o, 8);
        if (value >= a->address && value - a->address < a->size) return true;
      }
    }
  }
  return false;
}

static hipError_t rl_hip_free(void* ptr, const char* call) {
  if (!ptr) return hipSuccess;
  RL_HIP_ENTER();
  uint64_t address = (uint64_t)(uintptr_t)ptr;
  rl_hip_allocation_t* a = rl_hip_find(address);
  uint64_t base = a && a->host ? (uint64_t)(uintptr_t)a->host
                  : a          ? a->address
                               : 0;
  if (!a || base != address) {
    rl_hip_error("%s(0x%llx): not the base of a live allocation", call,
                 (unsigned long long)address);
    return rl_hip_leave(hipErrorInvalidValue);
  }
  if (rl_hip_in_flight(a)) {
    rl_hip_error("%s(0x%llx): memory still used by a launch in flight", call,
                 (unsigned long long)address);
  }
  hipError_t result = rl_hip_wait_all();  // hipFree synchronises
  a = rl_hip_find(address);  // the table may have changed meanwhile
  if (!a) return rl_hip_leave(hipErrorInvalidValue);
  pthread_mutex_lock(&rl_hip.device_lock);
  rl_status_free(rl_hip.sim->vtable->free(rl_hip.sim, a->address));
  pthread_mutex_unlock(&rl_hip.device_lock);
  *a = rl_hip.allocations[--rl_hip.allocation_count];
  return rl_hip_leave(result);
}

RL_HIP_EXPORT hipError_t hipFree(void* ptr) { return rl_hip_free(ptr, "hipFree"); }

RL_HIP_EXPORT hipError_t hipHostFree(void* ptr) {
  return rl_hip_free(ptr, "hipHostFree");
}

RL_HIP_EXPORT hipError_t hipFreeHost(void* ptr) {
  return rl_hip_free(ptr, "hipFreeHost");
}

// With unified addressing the device pointer of pinned, managed or
// registered memory is the host pointer itself, as on ROCm (HIP runtime API
// reference, hipHostGetDevicePointer). Pointer arguments holding it are
// translated at the launch like the host pointer they equal (hip_sim.h).
RL_HIP_EXPORT hipError_t hipHostGetDevicePointer(void** device, void* host,
                                                 unsigned int flags) {
  (void)flags;
  if (!device) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  rl_hip_allocation_t* a = rl_hip_find((uint64_t)(uintptr_t)host);
  if ((!a || !a->host) &&
      !rl_hip_registered_device((uint64_t)(uintptr_t)host)) {
    rl_hip_error("hipHostGetDevicePointer(%p): not pinned, managed or "
                 "registered host memory", host);
    return rl_hip_leave(hipErrorInvalidValue);
  }
  *device = host;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase,
                                               size_t* psize,
                                               hipDeviceptr_t dptr) {
  RL_HIP_ENTER();
  rl_hip_allocation_t* a = rl_hip_find((uint64_t)(uintptr_t)dptr);
  if (!a) {
    rl_hip_error("hipMemGetAddressRange(%p): not inside a live allocation",
                 dptr);
    return rl_hip_leave(hipErrorInvalidValue);
  }
  if (pbase) {
    *pbase = a->host ? (hipDeviceptr_t)a->host
                     : (hipDeviceptr_t)(uintptr_t)a->address;
  }
  if (psize) *psize = a->size;
  return rl_hip_leave(hipSuccess);
}

// Memory is coherent on the simulator: advice and prefetches change
// nothing but are valid requests.
RL_HIP_EXPORT hipError_t hipMemPrefetchAsync(const void* ptr, size_t count,
                                             int device, hipStream_t stream) {
  (void)ptr, (void)count, (void)stream;
  return device == 0 || device == hipCpuDeviceId ? hipSuccess
                                                 : hipErrorInvalidDevice;
}

RL_HIP_EXPORT hipError_t hipMemAdvise(const void* ptr, size_t count,
                                      hipMemoryAdvise advice, int device) {
  (void)ptr, (void)count, (void)advice, (void)device;
  return hipSuccess;
}

//===----------------------------------------------------------------------===//
// Copies and memset
//===----------------------------------------------------------------------===//

static bool rl_hip_copy_kind_valid(hipMemcpyKind kind) {
  return kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToHost ||
         kind == hipMemcpyDeviceToDevice || kind == hipMemcpyHostToHost ||
         kind == hipMemcpyDefault;
}

// A copy on |stream| (NULL: the null stream), synchronous when |sync|
// (it returns once the copy completed); the copy rules of hip_sim_copy.c
// say when an asynchronous one reads its source and returns.
static hipError_t rl_hip_copy(void* dst, const void* src, size_t size,
                              hipMemcpyKind kind, hipStream_t stream,
                              bool sync) {
  if (size == 0) return hipSuccess;
  if (!dst || !src) return hipErrorInvalidValue;
  if (!rl_hip_copy_kind_valid(kind)) return hipErrorInvalidMemcpyDirection;
  RL_HIP_ENTER();
  const rl_hip_op_t op = {.kind = RL_HIP_OP_COPY, .dst = dst, .src = src,
                          .size = size, .value = (uint32_t)kind};
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, sync ? "hipMemcpy" : "hipMemcpyAsync")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  hipError_t error = rl_hip_copy_check(&op);
  if (error) return rl_hip_leave(error);
  if (sync && s->capture) {
    return rl_hip_leave(hipErrorStreamCaptureUnsupported);
  }
  return rl_hip_leave(rl_hip_enqueue(s, &op, sync));
}

RL_HIP_EXPORT hipError_t hipMemcpy(void* dst, const void* src, size_t size,
                                   hipMemcpyKind kind) {
  return rl_hip_copy(dst, src, size, kind, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemcpyWithStream(void* dst, const void* src,
                                             size_t size, hipMemcpyKind kind,
                                             hipStream_t stream) {
  return rl_hip_copy(dst, src, size, kind, stream, true);
}

RL_HIP_EXPORT hipError_t hipMemcpyAsync(void* dst, const void* src,
                                        size_t size, hipMemcpyKind kind,
                                        hipStream_t stream) {
  return rl_hip_copy(dst, src, size, kind, stream, false);
}

RL_HIP_EXPORT hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src,
                                       size_t size) {
  return rl_hip_copy(dst, src, size, hipMemcpyHostToDevice, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src,
                                       size_t size) {
  return rl_hip_copy(dst, src, size, hipMemcpyDeviceToHost, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src,
                                       size_t size) {
  return rl_hip_copy(dst, src, size, hipMemcpyDeviceToDevice, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src,
                                            size_t size, hipStream_t stream) {
  return rl_hip_copy(dst, src, size, hipMemcpyHostToDevice, stream, false);
}

RL_HIP_EXPORT hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src,
                                            size_t size, hipStream_t stream) {
  return rl_hip_copy(dst, src, size, hipMemcpyDeviceToHost, stream, false);
}

RL_HIP_EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst,
                                            hipDeviceptr_t src, size_t size,
                                            hipStream_t stream) {
  return rl_hip_copy(dst, src, size, hipMemcpyDeviceToDevice, stream, false);
}

// A fill of |count| elements of |value_size| bytes on |stream|,
// synchronous when |sync|.
static hipError_t rl_hip_set(void* dst, uint32_t value, uint32_t value_size,
                             size_t count, hipStream_t stream, bool sync) {
  if (count == 0) return hipSuccess;
  if (!dst) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  const rl_hip_op_t op = {.kind = RL_HIP_OP_SET, .dst = dst,
                          .size = count * value_size, .value = value,
                          .value_size = value_size};
  struct ihipStream_t* s = rl_hip_stream(stream);
  if (!rl_hip_stream_usable(s, sync ? "hipMemset" : "hipMemsetAsync")) {
    return rl_hip_leave(hipErrorInvalidHandle);
  }
  hipError_t error = rl_hip_copy_check(&op);
  if (error) return rl_hip_leave(error);
  return rl_hip_leave(rl_hip_enqueue(s, &op, sync));
}

RL_HIP_EXPORT hipError_t hipMemset(void* dst, int value, size_t size) {
  return rl_hip_set(dst, (uint8_t)value, 1, size, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemsetAsync(void* dst, int value, size_t size,
                                        hipStream_t stream) {
  return rl_hip_set(dst, (uint8_t)value, 1, size, stream, false);
}

RL_HIP_EXPORT hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value,
                                     size_t count) {
  return rl_hip_set(dst, value, 1, count, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemsetD8Async(hipDeviceptr_t dst,
                                          unsigned char value, size_t count,
                                          hipStream_t stream) {
  return rl_hip_set(dst, value, 1, count, stream, false);
}

RL_HIP_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value,
                                      size_t count) {
  return rl_hip_set(dst, value, 2, count, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dst,
                                           unsigned short value, size_t count,
                                           hipStream_t stream) {
  return rl_hip_set(dst, value, 2, count, stream, false);
}

RL_HIP_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dst, int value,
                                      size_t count) {
  return rl_hip_set(dst, (uint32_t)value, 4, count, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value,
                                           size_t count, hipStream_t stream) {
  return rl_hip_set(dst, (uint32_t)value, 4, count, stream, false);
}

//===----------------------------------------------------------------------===//
// Device variables (symbols)
//===----------------------------------------------------------------------===//

// The variable whose host shadow is |symbol|; lock held.
static rl_hip_var_t* rl_hip_var(const void* symbol) {
  for (uint32_t i = 0; i < rl_hip.var_count; ++i) {
    if (rl_hip.vars[i].host == symbol && rl_hip.vars[i].module->live) {
      return &rl_hip.vars[i];
    }
  }
  return NULL;
}

RL_HIP_EXPORT hipError_t hipGetSymbolAddress(void** device,
                                             const void* symbol) {
  if (!device) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  rl_hip_var_t* v = rl_hip_var(symbol);
  if (!v) return rl_hip_leave(hipErrorInvalidSymbol);
  *device = (void*)(uintptr_t)v->address;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  if (!size) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  rl_hip_var_t* v = rl_hip_var(symbol);
  if (!v) return rl_hip_leave(hipErrorInvalidSymbol);
  *size = v->size;
  return rl_hip_leave(hipSuccess);
}

// A copy to (|to_device|) or from a variable, synchronous or queued.
static hipError_t rl_hip_symbol_copy(const void* symbol, void* host,
                                     size_t size, size_t offset,
                                     hipMemcpyKind kind, bool to_device,
                                     hipStream_t stream, bool sync) {
  pthread_mutex_lock(&rl_hip.lock);
  rl_hip_var_t* v = rl_hip_var(symbol);
  uint64_t address = v ? v->address : 0;
  bool fits = v && offset <= v->size && size <= v->size - offset;
  pthread_mutex_unlock(&rl_hip.lock);
  if (!v) return hipErrorInvalidSymbol;
  if (!fits) return hipErrorInvalidValue;
  void* device = (void*)(uintptr_t)(address + offset);
  (void)kind;  // the variable side is device memory whatever |kind| says
  return to_device
             ? rl_hip_copy(device, host, size, hipMemcpyDefault, stream, sync)
             : rl_hip_copy(host, device, size, hipMemcpyDefault, stream, sync);
}

RL_HIP_EXPORT hipError_t hipMemcpyToSymbol(const void* symbol, const void* src,
                                           size_t size, size_t offset,
                                           hipMemcpyKind kind) {
  return rl_hip_symbol_copy(symbol, (void*)(uintptr_t)src, size, offset, kind,
                            true, NULL, true);
}

RL_HIP_EXPORT hipError_t hipMemcpyToSymbolAsync(const void* symbol,
                                                const void* src, size_t size,
                                                size_t offset,
                                                hipMemcpyKind kind,
                                                hipStream_t stream) {
  return rl_hip_symbol_copy(symbol, (void*)(uintptr_t)src, size, offset, kind,
                            true, stream, false);
}

RL_HIP_EXPORT hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol,
                                             size_t size, size_t offset,
                                             hipMemcpyKind kind) {
  return rl_hip_symbol_copy(symbol, dst, size, offset, kind, false, NULL,
                            true);
}

RL_HIP_EXPORT hipError_t hipMemcpyFromSymbolAsync(void* dst,
                                                  const void* symbol,
                                                  size_t size, size_t offset,
                                                  hipMemcpyKind kind,
                                                  hipStream_t stream) {
  return rl_hip_symbol_copy(symbol, dst, size, offset, kind, false, stream,
                            false);
}
