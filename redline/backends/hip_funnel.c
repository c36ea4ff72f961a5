// The funnel device over HIP (redline/backends/hip_funnel.h).
#include "redline/backends/hip_funnel.h"

#include <stdlib.h>
#include <string.h>

#include "redline/backends/hip_loader.h"
#include "redline/backends/hip_wait.h"
#include "redline/limits.h"
#include "base/array.h"
#include "redline/code_object.h"

typedef struct rl_hip_funnel_allocation_s {
  void* base;        // what hipMalloc returned
  uint64_t address;  // aligned address handed to the funnel
  uint64_t size;
} rl_hip_funnel_allocation_t;

typedef struct rl_hip_funnel_function_s {
  uint64_t module;
  const char* name;  // borrowed from the funnel's kernel (stable)
  hipFunction_t function;
} rl_hip_funnel_function_t;

typedef struct rl_hip_funnel_s {
  rl_hip_api_t api;
  hipStream_t stream;
  hipModule_t* modules;
  uint32_t module_count, module_capacity;
  rl_hip_funnel_allocation_t* allocations;
  uint32_t allocation_count, allocation_capacity;
  rl_hip_funnel_function_t* functions;
  uint32_t function_count, function_capacity;
} rl_hip_funnel_t;

static rl_status_t rl_hip_funnel_load(void* self, const void* bytes,
                                      size_t size, uint64_t* out_handle) {
  rl_hip_funnel_t* hip = self;
  (void)size;
  *out_handle = 0;
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&hip->modules, &hip->module_capacity,
                                      hip->module_count + 1));
  hipModule_t module = NULL;
  RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipModuleLoadData, &module, bytes));
  *out_handle = hip->module_count;
  hip->modules[hip->module_count++] = module;
  return RL_OK;
}

static rl_status_t rl_hip_funnel_allocate(void* self, uint64_t size,
                                          uint64_t alignment,
                                          uint64_t* out_address) {
  rl_hip_funnel_t* hip = self;
  *out_address = 0;
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&hip->allocations,
                                      &hip->allocation_capacity,
                                      hip->allocation_count + 1));
  uint64_t extra = alignment > 256 ? alignment : 0;
  void* base = NULL;
  RL_RETURN_IF_ERROR(
      RL_HIP_CALL(&hip->api, hipMalloc, &base, (size_t)(size + extra)));
  uint64_t address = (uint64_t)(uintptr_t)base;
  if (alignment > 1) address = (address + alignment - 1) & ~(alignment - 1);
  hip->allocations[hip->allocation_count++] =
      (rl_hip_funnel_allocation_t){base, address, size};
  *out_address = address;
  return RL_OK;
}

// Checks that [address, +size) is inside one tracked allocation, asking
// HIP for the allocation's range (hipMemGetAddressRange) as well.
static rl_status_t rl_hip_funnel_resolve(rl_hip_funnel_t* hip,
                                         uint64_t address, uint64_t size) {
  for (uint32_t i = 0; i < hip->allocation_count; ++i) {
    const rl_hip_funnel_allocation_t* a = &hip->allocations[i];
    if (address < a->address || address - a->address > a->size ||
        size > a->size - (address - a->address)) {
      continue;
    }
    hipDeviceptr_t base = NULL;
    size_t range = 0;
    RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipMemGetAddressRange, &base,
                                   &range, (hipDeviceptr_t)(uintptr_t)address));
    if (base != a->base) {
      return RL_STATUS(RL_STATUS_INTERNAL,
                       "hipMemGetAddressRange(0x%llx) gives base %p, the "
                       "allocation is at %p",
                       (unsigned long long)address, base, a->base);
    }
    return RL_OK;
  }
  return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                   "[0x%llx, +%llu) is not inside one HIP allocation of this "
                   "device", (unsigned long long)address,
                   (unsigned long long)size);
}

static rl_status_t rl_hip_funnel_write(void* self, uint64_t address,
                                       const void* data, uint64_t size) {
  rl_hip_funnel_t* hip = self;
  if (size == 0) return RL_OK;
  RL_RETURN_IF_ERROR(rl_hip_funnel_resolve(hip, address, size));
  RL_RETURN_IF_ERROR(rl_hip_stream_wait(&hip->api, hip->stream,
                                        RL_LIMIT_DEFAULT_WAIT_TIMEOUT_NS));
  return RL_HIP_CALL(&hip->api, hipMemcpy, (void*)(uintptr_t)address, data,
                     (size_t)size, hipMemcpyHostToDevice);
}

static rl_status_t rl_hip_funnel_read(void* self, uint64_t address,
                                      void* data, uint64_t size) {
  rl_hip_funnel_t* hip = self;
  if (size == 0) return RL_OK;
  RL_RETURN_IF_ERROR(rl_hip_funnel_resolve(hip, address, size));
  RL_RETURN_IF_ERROR(rl_hip_stream_wait(&hip->api, hip->stream,
                                        RL_LIMIT_DEFAULT_WAIT_TIMEOUT_NS));
  return RL_HIP_CALL(&hip->api, hipMemcpy, data,
                     (const void*)(uintptr_t)address, (size_t)size,
                     hipMemcpyDeviceToHost);
}

static rl_status_t rl_hip_funnel_function(rl_hip_funnel_t* hip,
                                          uint64_t module, const char* name,
                                          hipFunction_t* out_function) {
  for (uint32_t i = 0; i < hip->function_count; ++i) {
    if (hip->functions[i].module == module &&
        strcmp(hip->functions[i].name, name) == 0) {
      *out_function = hip->functions[i].function;
      return RL_OK;
    }
  }
  if (module >= hip->module_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "code-object handle %llu: %u modules are loaded",
                     (unsigned long long)module, hip->module_count);
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&hip->functions, &hip->function_capacity,
                                      hip->function_count + 1));
  hipFunction_t function = NULL;
  RL_RETURN_IF_ERROR(RL_HIP_CALL(&hip->api, hipModuleGetFunction, &function,
                                 hip->modules[module], name));
  hip->functions[hip->function_count++] =
      (rl_hip_funnel_function_t){module, name, function};
  *out_function = function;
  return RL_OK;
}

static rl_status_t rl_hip_funnel_launch(void* self,
                                        const rl_funnel_dispatch_t* dispatch) {
  rl_hip_funnel_t* hip = self;
  hipFunction_t function = NULL;
  RL_RETURN_IF_ERROR(rl_hip_funnel_function(
      hip, dispatch->code_object_handle, dispatch->kernel->name, &function));
  size_t size = dispatch->kernarg_size;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, (void*)dispatch->kernarg,
                   HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  return RL_HIP_CALL(&hip->api, hipModuleLaunchKernel, function,
                     dispatch->grid[0], dispatch->grid[1], dispatch->grid[2],
                     dispatch->block[0], dispatch->block[1], dispatch->block[2],
                     dispatch->dynamic_lds, hip->stream, NULL, extra);
}

static void rl_hip_funnel_destroy(void* self) {
  rl_hip_funnel_t* hip = self;
  if (!hip) return;
  if (hip->api.fn.hipStreamSynchronize && hip->stream) {
    (void)hip->api.fn.hipStreamSynchronize(hip->stream);
  }
  for (uint32_t i = 0; i < hip->allocation_count; ++i) {
    (void)hip->api.fn.hipFree(hip->allocations[i].base);
  }
  for (uint32_t i = 0; i < hip->module_count; ++i) {
    (void)hip->api.fn.hipModuleUnload(hip->modules[i]);
  }
  if (hip->stream) (void)hip->api.fn.hipStreamDestroy(hip->stream);
  // The runtime stays loaded: unloading HIP mid-process is not supported
  // by the real library (its exit handlers would run after dlclose).
  free(hip->allocations);
  free(hip->modules);
  free(hip->functions);
  free(hip);
}

rl_status_t rl_hip_funnel_create(const char* library_path,
                                 rl_funnel_device_t* out_device) {
  memset(out_device, 0, sizeof(*out_device));
  rl_hip_funnel_t* hip = calloc(1, sizeof(*hip));
  if (!hip) return rl_status_out_of_memory();
  rl_status_t status = rl_hip_api_open(&hip->api, library_path);
  if (!status) status = RL_HIP_CALL(&hip->api, hipInit, 0);
  if (!status) status = RL_HIP_CALL(&hip->api, hipStreamCreate, &hip->stream);
  if (status) {
    if (hip->api.library.handle) rl_hip_funnel_destroy(hip);
    else free(hip);
    return rl_status_annotate(status, "HIP funnel device");
  }
  *out_device = (rl_funnel_device_t){
      .self = hip,
      .load_code_object = rl_hip_funnel_load,
      .allocate = rl_hip_funnel_allocate,
      .write = rl_hip_funnel_write,
      .read = rl_hip_funnel_read,
      .launch = rl_hip_funnel_launch,
      .destroy = rl_hip_funnel_destroy,
  };
  return RL_OK;
}
