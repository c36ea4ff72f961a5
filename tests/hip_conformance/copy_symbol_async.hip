// copy_symbol_async.hip — hipMemcpyToSymbolAsync from pageable memory
// reads its source at the call; hipMemcpyFromSymbolAsync into pageable
// memory has completed at return: the symbol forms follow the copy rules.
// Rule: CUDA Runtime API, "API synchronization behavior", Asynchronous
// (pageable to device: staged at once; device to pageable: returns once
// complete). https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html
#include "conformance.h"

__device__ int table[256];

__global__ void twice(int* out) {
  int i = threadIdx.x;
  out[i] = 2 * table[i];
  table[i] += 1;
}

int main() {
  int host[256], back[256];
  int *out, *sink;
  HIP_CHECK(hipMalloc(&out, sizeof(back)));
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  conformance_busy<<<64, 64, 0, stream>>>((unsigned*)sink, 20000);
  for (int i = 0; i < 256; ++i) host[i] = i + 10;
  HIP_CHECK(hipMemcpyToSymbolAsync(HIP_SYMBOL(table), host, sizeof(host), 0,
                                   hipMemcpyHostToDevice, stream));
  for (int i = 0; i < 256; ++i) host[i] = -1;  // refilled at once
  twice<<<1, 256, 0, stream>>>(out);
  HIP_CHECK(hipStreamSynchronize(stream));
  HIP_CHECK(hipMemcpy(back, out, sizeof(back), hipMemcpyDeviceToHost));
  EXPECT(back[5] == 30 && back[255] == 530,
         "hipMemcpyToSymbolAsync read its source late: out[5] = %d", back[5]);
  conformance_busy<<<64, 64, 0, stream>>>((unsigned*)sink, 20000);
  twice<<<1, 256, 0, stream>>>(out);
  std::memset(back, 0, sizeof(back));
  HIP_CHECK(hipMemcpyFromSymbolAsync(back, HIP_SYMBOL(table), sizeof(back), 0,
                                     hipMemcpyDeviceToHost, stream));
  EXPECT(back[5] == 17, "hipMemcpyFromSymbolAsync: back[5] = %d at return, "
         "expected 17", back[5]);
  conformance_ok("copy_symbol_async");
  return 0;
}
