// wait_event_pingpong.hip — hipStreamWaitEvent orders exactly the work
// queued after the wait against exactly the work before the record: two
// streams hand one value back and forth through events, each step a
// kernel that folds in its own digit, and only the final stream is
// synchronised.
// Rule: HIP API reference, hipStreamWaitEvent: "Make the specified compute
// stream wait for an event ... all future work submitted to stream will
// wait until event reports completion"; CUDA cudaStreamWaitEvent: "Makes
// all future work submitted to stream wait for all work captured in event"
// (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html);
// the work captured is what hipEventRecord saw queued on its stream.
#include "conformance.h"

__global__ void step(int* value, int digit) { *value = *value * 10 + digit; }

int main() {
  int *value, *sink;
  HIP_CHECK(hipMalloc(&value, sizeof(int)));
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  HIP_CHECK(hipMemset(value, 0, sizeof(int)));
  hipStream_t a, b;
  HIP_CHECK(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
  HIP_CHECK(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
  hipEvent_t ev[8];
  for (int i = 0; i < 8; ++i) HIP_CHECK(hipEventCreate(&ev[i]));
  // a: 1, b: 2, a: 3, b: 4, ... each waiting for the other's last step.
  for (int i = 0; i < 8; ++i) {
    hipStream_t s = i % 2 ? b : a;
    if (i > 0) HIP_CHECK(hipStreamWaitEvent(s, ev[i - 1], 0));
    if (i % 2 == 0) {
      conformance_busy<<<16, 64, 0, s>>>((unsigned*)sink, 4000);
    }
    step<<<1, 1, 0, s>>>(value, i + 1);
    HIP_CHECK(hipEventRecord(ev[i], s));
  }
  HIP_CHECK(hipStreamSynchronize(b));  // b's last step follows every other
  int got = 0;
  HIP_CHECK(hipMemcpyAsync(&got, value, sizeof(int), hipMemcpyDeviceToHost, b));
  HIP_CHECK(hipStreamSynchronize(b));
  EXPECT(got == 12345678, "value %d, expected 12345678 (steps out of order)",
         got);
  conformance_ok("wait_event_pingpong");
  return 0;
}
