// copy_h2d_pageable_async.hip — an asynchronous copy from pageable host
// memory to device memory reads its source before the call returns: the
// program may refill the buffer right after hipMemcpyAsync.
// Rule: CUDA Runtime API, "API synchronization behavior", Asynchronous:
// "For transfers from pageable host memory to device memory, host memory
// is copied to a staging buffer immediately (no device synchronization is
// performed)." https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html
// HIP follows it (HIP docs, "Asynchronous concurrent execution").
#include "conformance.h"

int main() {
  const int n = 4096;
  int* host = (int*)std::malloc(n * sizeof(int));  // pageable
  int* back = (int*)std::malloc(n * sizeof(int));
  int *device, *sink;
  HIP_CHECK(hipMalloc(&device, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  // The copy queues behind busy work, so a late read would see the refill.
  conformance_busy<<<64, 64, 0, stream>>>((unsigned*)sink, 20000);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < n; ++i) host[i] = i * 7 + round;
    HIP_CHECK(hipMemcpyAsync(device, host, n * sizeof(int),
                             hipMemcpyHostToDevice, stream));
    for (int i = 0; i < n; ++i) host[i] = -1;  // refilled at once
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipMemcpy(back, device, n * sizeof(int), hipMemcpyDeviceToHost));
    int bad = -1;
    for (int i = 0; i < n && bad < 0; ++i) {
      if (back[i] != i * 7 + round) bad = i;
    }
    EXPECT(bad < 0, "round %d: device[%d] = %d, expected %d (the source was "
           "read after the call returned)", round, bad, back[bad < 0 ? 0 : bad],
           bad * 7 + round);
  }
  conformance_ok("copy_h2d_pageable_async");
  return 0;
}
