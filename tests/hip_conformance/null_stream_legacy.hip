// null_stream_legacy.hip — the legacy default (null) stream: work on it
// waits for all earlier work of the blocking streams, and later work of a
// blocking stream waits for it; a hipStreamNonBlocking stream takes no
// part in that ordering (checked with a stream callback that polls the
// null stream: it sees the null stream's later kernel complete only when
// that kernel does not wait for the callback's stream; 5 s bound).
// Rule: CUDA Runtime API, "Stream synchronization behavior", Default
// stream / Legacy default stream: "The legacy default stream is an
// implicit stream which synchronizes with all other blocking streams in
// the same CUcontext" (https://docs.nvidia.com/cuda/cuda-runtime-api/stream-sync-behavior.html);
// HIP API reference, hipStreamCreateWithFlags: hipStreamNonBlocking "Stream
// does not implicitly synchronize with null stream".
#include "conformance.h"

#include <atomic>

__global__ void set(int* v, int value) { *v = value; }

// A callback on a stream that polls the null stream until its queued work
// completed (bounded): it completes only if the null stream's work does
// not wait for the callback's stream.
struct Poll {
  hipError_t last;
  std::atomic<bool> queued;  // the host queued the null stream's kernel
};
static void poll_null(hipStream_t, hipError_t, void* data) {
  Poll* p = (Poll*)data;
  auto start = std::chrono::steady_clock::now();
  while (!p->queued.load() && conformance_seconds(start) < 5.0) {
  }
  do {
    p->last = hipStreamQuery(0);
  } while (p->last == hipErrorNotReady && conformance_seconds(start) < 5.0);
}
__global__ void fold(const int* from, int* to, int digit) {
  *to = *from * 10 + digit;
}

int main() {
  int *a, *b, *sink;
  HIP_CHECK(hipMalloc(&a, sizeof(int)));
  HIP_CHECK(hipMalloc(&b, sizeof(int)));
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  hipStream_t blocking, non_blocking;
  HIP_CHECK(hipStreamCreate(&blocking));
  HIP_CHECK(hipStreamCreateWithFlags(&non_blocking, hipStreamNonBlocking));
  unsigned flags = 0;
  HIP_CHECK(hipStreamGetFlags(non_blocking, &flags));
  EXPECT(flags == hipStreamNonBlocking, "hipStreamGetFlags: %u", flags);
  // blocking -> null -> blocking, no events.
  conformance_busy<<<32, 64, 0, blocking>>>((unsigned*)sink, 8000);
  set<<<1, 1, 0, blocking>>>(a, 1);
  fold<<<1, 1, 0, 0>>>(a, b, 2);  // after set: b = 12
  conformance_busy<<<32, 64, 0, 0>>>((unsigned*)sink, 8000);
  fold<<<1, 1, 0, 0>>>(b, a, 3);  // a = 123
  fold<<<1, 1, 0, blocking>>>(a, b, 4);  // after the null stream: b = 1234
  HIP_CHECK(hipStreamSynchronize(blocking));
  int got = 0;
  HIP_CHECK(hipMemcpyAsync(&got, b, sizeof(int), hipMemcpyDeviceToHost,
                           blocking));
  EXPECT(got == 1234, "b = %d, expected 1234", got);
  // hipStreamSynchronize(0) waits for the null stream's work.
  set<<<1, 1, 0, 0>>>(a, 77);
  HIP_CHECK(hipStreamSynchronize(0));
  HIP_CHECK(hipMemcpyAsync(&got, a, sizeof(int), hipMemcpyDeviceToHost,
                           non_blocking));
  EXPECT(got == 77, "a = %d after hipStreamSynchronize(0)", got);
  // A non-blocking stream takes no part: the null stream's kernel, queued
  // after a callback on the non-blocking stream, does not wait for it.
  Poll poll;
  poll.last = hipErrorNotReady;
  poll.queued = false;
  HIP_CHECK(hipStreamAddCallback(non_blocking, poll_null, &poll, 0));
  set<<<1, 1, 0, 0>>>(a, 5);
  poll.queued = true;
  HIP_CHECK(hipStreamSynchronize(non_blocking));
  EXPECT(poll.last == hipSuccess, "the null stream waited for the "
         "non-blocking stream (%s)", hipGetErrorName(poll.last));
  // The same with a blocking stream: the null stream's kernel waits for the
  // callback, which then never sees it complete.
  Poll blocked;
  blocked.last = hipSuccess;
  blocked.queued = false;
  HIP_CHECK(hipStreamAddCallback(blocking, poll_null, &blocked, 0));
  set<<<1, 1, 0, 0>>>(a, 6);
  blocked.queued = true;
  HIP_CHECK(hipDeviceSynchronize());
  EXPECT(blocked.last == hipErrorNotReady, "the null stream did not wait for "
         "the blocking stream's callback (%s)", hipGetErrorName(blocked.last));
  conformance_ok("null_stream_legacy");
  return 0;
}
