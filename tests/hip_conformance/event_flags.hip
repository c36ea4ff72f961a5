// event_flags.hip — event flags are honoured: hipEventElapsedTime with an
// event created with hipEventDisableTiming fails with
// hipErrorInvalidHandle; with timing events it gives a time not below 0;
// an event not yet complete answers hipEventQuery with hipErrorNotReady
// only until it completes.
// Rule: HIP API reference, hipEventElapsedTime ("If either event was
// created with hipEventDisableTiming, ... returns hipErrorInvalidHandle")
// and hipEventCreateWithFlags; CUDA cudaEventElapsedTime
// (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__EVENT.html).
#include "conformance.h"

int main() {
  int* sink;
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  hipEvent_t a, b, untimed;
  HIP_CHECK(hipEventCreate(&a));
  HIP_CHECK(hipEventCreate(&b));
  HIP_CHECK(hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  HIP_CHECK(hipEventRecord(a, stream));
  HIP_CHECK(hipEventRecord(untimed, stream));
  conformance_busy<<<16, 64, 0, stream>>>((unsigned*)sink, 4000);
  HIP_CHECK(hipEventRecord(b, stream));
  HIP_CHECK(hipEventSynchronize(b));
  float ms = -1.0f;
  EXPECT_ERROR(hipEventElapsedTime(&ms, a, untimed), hipErrorInvalidHandle);
  EXPECT_ERROR(hipEventElapsedTime(&ms, untimed, b), hipErrorInvalidHandle);
  HIP_CHECK(hipEventElapsedTime(&ms, a, b));
  EXPECT(ms >= 0.0f, "elapsed %f ms", ms);
  EXPECT_ERROR(hipEventQuery(untimed), hipSuccess);
  conformance_ok("event_flags");
  return 0;
}
