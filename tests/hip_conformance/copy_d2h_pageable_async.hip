// copy_d2h_pageable_async.hip — an asynchronous copy from device memory to
// pageable host memory has completed when the call returns.
// Rule: CUDA Runtime API, "API synchronization behavior", Asynchronous:
// "For transfers from device memory to pageable host memory, the function
// will return only once the copy has completed."
// https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html
#include "conformance.h"

__global__ void fill(int* v, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = base + i;
}

int main() {
  const int n = 4096;
  int* host = (int*)std::malloc(n * sizeof(int));  // pageable
  int *device, *sink;
  HIP_CHECK(hipMalloc(&device, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  conformance_busy<<<64, 64, 0, stream>>>((unsigned*)sink, 20000);
  fill<<<n / 256, 256, 0, stream>>>(device, 1000, n);
  std::memset(host, 0, n * sizeof(int));
  HIP_CHECK(hipMemcpyAsync(host, device, n * sizeof(int),
                           hipMemcpyDeviceToHost, stream));
  // No synchronisation: the copy has happened.
  int bad = -1;
  for (int i = 0; i < n && bad < 0; ++i) {
    if (host[i] != 1000 + i) bad = i;
  }
  EXPECT(bad < 0, "host[%d] = %d at return, expected %d", bad,
         host[bad < 0 ? 0 : bad], 1000 + bad);
  // hipMemcpyDtoHAsync is the same rule.
  fill<<<n / 256, 256, 0, stream>>>(device, 5000, n);
  HIP_CHECK(hipMemcpyDtoHAsync(host, (hipDeviceptr_t)device, n * sizeof(int),
                               stream));
  EXPECT(host[n - 1] == 5000 + n - 1, "hipMemcpyDtoHAsync: host[%d] = %d",
         n - 1, host[n - 1]);
  conformance_ok("copy_d2h_pageable_async");
  return 0;
}
