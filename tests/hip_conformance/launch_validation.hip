// launch_validation.hip — a launch the device cannot run is refused at the
// launch with the documented error, and the device stays usable: more
// dynamic shared memory than a work-group may have (hipErrorInvalidValue),
// a block of more than 1024 work-items or a grid beyond the device's
// limits (hipErrorInvalidConfiguration).
// Rule: HIP API reference, hipLaunchKernel / hipModuleLaunchKernel
// ("Returns: hipSuccess, hipErrorInvalidValue, hipErrorInvalidConfiguration
// ..."), hipDeviceProp_t.maxThreadsPerBlock, maxGridSize and
// sharedMemPerBlock; ROCm CLR checks these before queueing
// (hipamd/src/hip_module.cpp, ihipLaunchKernel_validate).
#include "conformance.h"

__global__ void dyn(int* out) {
  extern __shared__ int lds[];
  lds[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = lds[blockDim.x - 1 - threadIdx.x];
}

int main() {
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDeviceProperties(&props, 0));
  int* out;
  HIP_CHECK(hipMalloc(&out, 256 * sizeof(int)));
  dyn<<<1, 64, props.sharedMemPerBlock + 4096, 0>>>(out);
  EXPECT_ERROR(hipGetLastError(), hipErrorInvalidValue);
  dyn<<<1, 2048, 0, 0>>>(out);
  EXPECT_ERROR(hipGetLastError(), hipErrorInvalidConfiguration);
  dyn<<<dim3(1, props.maxGridSize[1] + 1, 1), 64, 0, 0>>>(out);
  EXPECT_ERROR(hipGetLastError(), hipErrorInvalidConfiguration);
  // The device is still usable: a valid launch runs and synchronises.
  dyn<<<1, 256, 256 * sizeof(int), 0>>>(out);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  int host[256];
  HIP_CHECK(hipMemcpy(host, out, sizeof(host), hipMemcpyDeviceToHost));
  EXPECT(host[0] == 255 && host[255] == 0, "the valid launch: out[0] = %d",
         host[0]);
  conformance_ok("launch_validation");
  return 0;
}
