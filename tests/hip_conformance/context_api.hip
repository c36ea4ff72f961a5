// context_api.hip — HIP's context API: hipCtxCreate makes the new context
// current on the calling thread, push/pop/set/get work on that thread's
// stack of current contexts, the primary context counts its retains and
// refuses new flags while retained, and a context's device runs kernels.
// Rule: HIP API reference, "Context Management" (hipCtxCreate "Create a
// context and set it as current/default context", hipCtxPopCurrent "Pop
// the current/default context and return the popped context",
// hipDevicePrimaryCtxSetFlags) and the CUDA driver API's context stack
// these calls mirror (cuCtxCreate, cuCtxPushCurrent, cuCtxPopCurrent,
// cuDevicePrimaryCtxSetFlags: "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE" is HIP's
// hipErrorContextAlreadyInUse; the context stack is per thread, "the
// current context for the calling CPU thread").
#include <thread>

#include "conformance.h"

#pragma clang diagnostic ignored "-Wdeprecated-declarations"

__global__ void fill(int* out, int value) { out[threadIdx.x] = value + threadIdx.x; }

int main() {
  hipCtx_t created = nullptr, current = nullptr, popped = nullptr;
  HIP_CHECK(hipCtxCreate(&created, 0, 0));
  HIP_CHECK(hipCtxGetCurrent(&current));
  EXPECT(current == created, "hipCtxCreate did not make the context current");
  hipDevice_t device = -1;
  HIP_CHECK(hipCtxGetDevice(&device));
  EXPECT(device == 0, "hipCtxGetDevice = %d, expected 0", device);

  // The created context runs kernels on its device.
  int* out = nullptr;
  HIP_CHECK(hipMalloc(&out, 64 * sizeof(int)));
  fill<<<1, 64>>>(out, 100);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipCtxSynchronize());
  int host[64];
  HIP_CHECK(hipMemcpy(host, out, sizeof(host), hipMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) EXPECT(host[i] == 100 + i, "out[%d] = %d", i, host[i]);

  // Push the primary context over it, pop back.
  hipCtx_t primary = nullptr;
  HIP_CHECK(hipDevicePrimaryCtxRetain(&primary, 0));
  EXPECT(primary != nullptr && primary != created, "primary context %p", (void*)primary);
  HIP_CHECK(hipCtxPushCurrent(primary));
  HIP_CHECK(hipCtxGetCurrent(&current));
  EXPECT(current == primary, "hipCtxPushCurrent did not make the primary current");
  HIP_CHECK(hipCtxPopCurrent(&popped));
  EXPECT(popped == primary, "hipCtxPopCurrent returned %p", (void*)popped);
  HIP_CHECK(hipCtxGetCurrent(&current));
  EXPECT(current == created, "the pop did not restore the created context");

  // The stack is the calling thread's: another thread starts on the
  // primary context.
  hipCtx_t other = nullptr;
  std::thread([&other] { HIP_CHECK(hipCtxGetCurrent(&other)); }).join();
  EXPECT(other == primary, "a new thread's current context %p is not the primary %p",
         (void*)other, (void*)primary);

  // Set replaces the top of the stack.
  HIP_CHECK(hipCtxSetCurrent(primary));
  HIP_CHECK(hipCtxGetCurrent(&current));
  EXPECT(current == primary, "hipCtxSetCurrent did not replace the current context");
  HIP_CHECK(hipCtxSetCurrent(created));

  // The primary context's state: retained once, flags refused while active.
  unsigned flags = 99;
  int active = -1;
  HIP_CHECK(hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT(active == 1 && flags == 0, "primary state flags %u active %d", flags, active);
  EXPECT_ERROR(hipDevicePrimaryCtxSetFlags(0, hipDeviceScheduleBlockingSync),
               hipErrorContextAlreadyInUse);
  HIP_CHECK(hipDevicePrimaryCtxRelease(0));
  HIP_CHECK(hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT(active == 0, "primary still active after its release");
  HIP_CHECK(hipDevicePrimaryCtxSetFlags(0, hipDeviceScheduleBlockingSync));
  HIP_CHECK(hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT(flags == hipDeviceScheduleBlockingSync, "primary flags %u", flags);
  HIP_CHECK(hipDevicePrimaryCtxReset(0));
  HIP_CHECK(hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT(flags == 0, "primary flags %u after reset", flags);

  // Destroy pops the created context; a destroyed handle is invalid.
  HIP_CHECK(hipFree(out));
  HIP_CHECK(hipCtxDestroy(created));
  EXPECT_ERROR(hipCtxPushCurrent(created), hipErrorInvalidContext);
  EXPECT_ERROR(hipCtxDestroy(created), hipErrorInvalidContext);
  conformance_ok("context_api");
  return 0;
}
