// copy_pinned_memset.hip — copies between device memory and pinned or
// managed memory, and memsets, run in stream order: an asynchronous copy
// into pinned memory queued behind a kernel delivers that kernel's output
// once the stream is synchronised; hipMemsetAsync is ordered between the
// kernels around it; the synchronous hipMemset has completed at return.
// Rule: CUDA Runtime API, "API synchronization behavior": "For transfers
// between device memory and pinned host memory, the function is fully
// asynchronous"; memsets: "The synchronous memset functions are
// asynchronous with respect to the host except when the target is pinned
// host memory or a Unified Memory region", "The asynchronous memset
// functions are fully asynchronous"
// (https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html).
#include "conformance.h"

__global__ void add(int* v, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += k;
}

int main() {
  const int n = 2048;
  int *device, *pinned, *managed, *sink;
  HIP_CHECK(hipMalloc(&device, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  HIP_CHECK(hipHostMalloc((void**)&pinned, n * sizeof(int), 0));
  HIP_CHECK(hipMallocManaged((void**)&managed, n * sizeof(int)));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  HIP_CHECK(hipMemset(device, 0, n * sizeof(int)));
  conformance_busy<<<32, 64, 0, stream>>>((unsigned*)sink, 8000);
  add<<<n / 256, 256, 0, stream>>>(device, 3, n);
  HIP_CHECK(hipMemsetAsync(device, 0, n * sizeof(int) / 2, stream));
  add<<<n / 256, 256, 0, stream>>>(device, 4, n);
  HIP_CHECK(hipMemcpyAsync(pinned, device, n * sizeof(int),
                           hipMemcpyDeviceToHost, stream));
  HIP_CHECK(hipMemcpyAsync(managed, pinned, n * sizeof(int), hipMemcpyDefault,
                           stream));  // pinned to managed: host to host
  HIP_CHECK(hipStreamSynchronize(stream));
  EXPECT(pinned[0] == 4 && pinned[n - 1] == 7,
         "pinned: %d %d, expected 4 7 (memset between the kernels)",
         pinned[0], pinned[n - 1]);
  EXPECT(managed[0] == 4 && managed[n - 1] == 7, "managed: %d %d",
         managed[0], managed[n - 1]);
  HIP_CHECK(hipMemset(pinned, 0x11, n * sizeof(int)));
  EXPECT(pinned[5] == 0x11111111, "hipMemset on pinned memory: %x at return",
         pinned[5]);
  HIP_CHECK(hipMemsetD32Async(device, 9, n, stream));
  HIP_CHECK(hipMemcpyAsync(managed, device, n * sizeof(int),
                           hipMemcpyDeviceToHost, stream));
  HIP_CHECK(hipStreamSynchronize(stream));
  EXPECT(managed[n / 2] == 9, "hipMemsetD32Async then a copy: %d",
         managed[n / 2]);
  conformance_ok("copy_pinned_memset");
  return 0;
}
