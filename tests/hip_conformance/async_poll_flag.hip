// async_poll_flag.hip — work submitted to a stream starts without the host
// waiting for it: a host polling coherent host memory (hipHostMalloc) for
// a flag that a running kernel sets sees it. Bounded: no answer within
// CONFORMANCE_TIMEOUT_S seconds fails the rule (exit 1), never a hang.
// Rule: HIP docs, "Asynchronous concurrent execution": kernel launches are
// asynchronous and the device executes them concurrently with the host
// (https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/asynchronous.html);
// hipHostMalloc memory is coherent by default (hipHostMallocCoherent,
// HIP API reference, hipHostMalloc).
#include "conformance.h"

__global__ void raise(volatile int* flag, int value) {
  if (threadIdx.x == 0) *flag = value;
}

int main() {
  int* flag;
  HIP_CHECK(hipHostMalloc((void**)&flag, sizeof(int), 0));
  *flag = 0;
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  raise<<<1, 64, 0, stream>>>(flag, 42);
  HIP_CHECK(hipGetLastError());
  auto start = std::chrono::steady_clock::now();
  volatile int* seen = flag;
  while (*seen != 42 && conformance_seconds(start) < CONFORMANCE_TIMEOUT_S) {
  }
  EXPECT(*seen == 42, "the kernel did not run while the host polled (%.0f s, "
         "no synchronising call)", conformance_seconds(start));
  HIP_CHECK(hipStreamSynchronize(stream));
  conformance_ok("async_poll_flag");
  return 0;
}
