// tests/standins/hip/standin_hip_fatbin.c — the HIP stand-in's fat-binary
// registration (the triple-chevron path): __hipRegisterFatBinary,
// __hipRegisterFunction, __hipUnregisterFatBinary; see standin_hip.c for
// how the stand-in maps onto the simulator.
#include "tests/standins/hip/standin_hip_internal.h"

//===----------------------------------------------------------------------===//
// Fat binaries (the triple-chevron path)
//===----------------------------------------------------------------------===//

// Not in HIP's C headers: clang's host code declares them itself. The
// handle types are opaque here (hip::FatBinaryInfo** in ROCm/clr
// hipamd/src/hip_platform.cpp).
void** __hipRegisterFatBinary(const void* data);
void __hipRegisterFunction(void** modules, const void* hostFunction,
                           char* deviceFunction, const char* deviceName,
                           unsigned int threadLimit, void* tid, void* bid,
                           void* blockDim, void* gridDim, int* wSize);
void __hipUnregisterFatBinary(void** modules);

// The module behind a handle __hipRegisterFatBinary returned, or NULL.
static struct ihipModule_t* rl_hip_fatbin_module(void** modules) {
  struct ihipModule_t* m = (struct ihipModule_t*)modules;
  return m && m->magic == RL_HIP_MAGIC_MODULE ? m : NULL;
}

RL_HIP_EXPORT void** __hipRegisterFatBinary(const void* data) {
  pthread_mutex_lock(&rl_hip.lock);
  hipError_t started = rl_hip_start_locked();
  if (started) {
    rl_hip_leave(started);
    return NULL;
  }
  const void* code = NULL;
  uint64_t size = 0;
  rl_status_t status = rl_hip_fatbin_find(data, rl_hip.processor, &code, &size);
  if (status) {
    rl_hip_error("__hipRegisterFatBinary: %s", rl_status_message(status));
    rl_status_free(status);
    rl_hip_leave(hipErrorInvalidImage);
    return NULL;
  }
  struct ihipModule_t* m = NULL;
  rl_hip_leave(rl_hip_module_load_locked(code, (size_t)size, &m));
  return (void**)m;
}

RL_HIP_EXPORT void __hipRegisterFunction(void** modules,
                                         const void* hostFunction,
                                         char* deviceFunction,
                                         const char* deviceName,
                                         unsigned int threadLimit, void* tid,
                                         void* bid, void* blockDim,
                                         void* gridDim, int* wSize) {
  (void)deviceFunction, (void)threadLimit, (void)tid, (void)bid;
  (void)blockDim, (void)gridDim, (void)wSize;
  pthread_mutex_lock(&rl_hip.lock);
  struct ihipModule_t* m = rl_hip_fatbin_module(modules);
  const rl_code_object_kernel_t* kernel =
      m && deviceName ? rl_code_object_find_kernel(m->parsed, deviceName)
                      : NULL;
  if (!kernel || !hostFunction) {
    rl_hip_error("__hipRegisterFunction(%s): no such kernel in the fat binary",
                 deviceName ? deviceName : "(null)");
    rl_hip_leave(hipErrorInvalidDeviceFunction);
    return;
  }
  rl_status_t status = RL_ARRAY_RESERVE(&rl_hip.stubs, &rl_hip.stub_capacity,
                                        rl_hip.stub_count + 1);
  if (status) {
    rl_status_free(status);
    rl_hip_leave(hipErrorOutOfMemory);
    return;
  }
  struct ihipModuleSymbol_t* f = &m->functions[kernel - m->parsed->kernels];
  *f = (struct ihipModuleSymbol_t){RL_HIP_MAGIC_FUNCTION, m, kernel};
  rl_hip.stubs[rl_hip.stub_count++] = (rl_hip_stub_t){hostFunction, f};
  rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT void __hipUnregisterFatBinary(void** modules) {
  pthread_mutex_lock(&rl_hip.lock);
  struct ihipModule_t* m = rl_hip_fatbin_module(modules);
  if (!m || !m->live) {
    rl_hip_leave(hipErrorInvalidHandle);
    return;
  }
  rl_hip_drain_all();
  m->live = false;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < rl_hip.stub_count; ++i) {
    if (rl_hip.stubs[i].function->module != m) {
      rl_hip.stubs[kept++] = rl_hip.stubs[i];
    }
  }
  rl_hip.stub_count = kept;
  rl_hip_leave(hipSuccess);
}
