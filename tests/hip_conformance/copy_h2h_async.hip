// copy_h2h_async.hip — an asynchronous copy from host memory to host
// memory is synchronous: the destination holds the data at return and a
// later change of the source does not reach it.
// Rule: CUDA Runtime API, "API synchronization behavior", Asynchronous:
// "For transfers from any host memory to any host memory, the function is
// fully synchronous with respect to the host."
// https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html
#include "conformance.h"

int main() {
  const int n = 1024;
  int* src = (int*)std::malloc(n * sizeof(int));
  int* dst = (int*)std::malloc(n * sizeof(int));
  int *pinned, *sink;
  HIP_CHECK(hipHostMalloc((void**)&pinned, n * sizeof(int), 0));
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  conformance_busy<<<64, 64, 0, stream>>>((unsigned*)sink, 20000);
  for (int i = 0; i < n; ++i) src[i] = 3 * i + 1;
  std::memset(dst, 0, n * sizeof(int));
  HIP_CHECK(hipMemcpyAsync(dst, src, n * sizeof(int), hipMemcpyHostToHost,
                           stream));
  EXPECT(dst[n - 1] == 3 * (n - 1) + 1, "pageable to pageable: dst[%d] = %d "
         "at return", n - 1, dst[n - 1]);
  src[0] = -5;
  HIP_CHECK(hipStreamSynchronize(stream));
  EXPECT(dst[0] == 1, "the source was read after the call: dst[0] = %d", dst[0]);
  // Pinned host memory is host memory too (hipMemcpyDefault infers it).
  HIP_CHECK(hipMemcpyAsync(pinned, src, n * sizeof(int), hipMemcpyDefault,
                           stream));
  EXPECT(pinned[1] == 4, "pageable to pinned: pinned[1] = %d at return",
         pinned[1]);
  conformance_ok("copy_h2h_async");
  return 0;
}
