// resource_slots.hip — streams and events are reclaimed when destroyed: a
// program may create and destroy far more of them over its life than can
// be alive at once.
// Rule: HIP API reference, hipStreamDestroy ("Destroys the specified
// stream ... resources associated with the stream will be released") and
// hipEventDestroy; CUDA cudaStreamDestroy / cudaEventDestroy
// (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html).
#include "conformance.h"

__global__ void bump(int* v) { atomicAdd(v, 1); }

int main() {
  int* counter;
  HIP_CHECK(hipMalloc(&counter, sizeof(int)));
  HIP_CHECK(hipMemset(counter, 0, sizeof(int)));
  const int rounds = 3000;
  int created = 0;
  for (int i = 0; i < rounds; ++i) {
    hipStream_t stream;
    hipEvent_t event;
    if (hipStreamCreate(&stream) != hipSuccess) break;
    HIP_CHECK(hipEventCreate(&event));
    if (i % 100 == 0) bump<<<1, 1, 0, stream>>>(counter);
    HIP_CHECK(hipEventRecord(event, stream));
    HIP_CHECK(hipStreamDestroy(stream));
    HIP_CHECK(hipEventSynchronize(event));
    HIP_CHECK(hipEventDestroy(event));
    ++created;
  }
  EXPECT(created == rounds, "stream %d of %d could not be created (destroyed "
         "streams kept their slots)", created + 1, rounds);
  int got = 0;
  HIP_CHECK(hipMemcpy(&got, counter, sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(got == rounds / 100, "the streams' work: %d, expected %d", got,
         rounds / 100);
  conformance_ok("resource_slots");
  return 0;
}
