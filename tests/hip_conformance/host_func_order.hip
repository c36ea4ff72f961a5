// host_func_order.hip — hipLaunchHostFunc and hipStreamAddCallback run in
// stream order: after all work queued before them has completed, and
// before any work queued after them starts.
// Rule: HIP API reference, hipLaunchHostFunc ("Enqueues a host function
// call in a stream") and hipStreamAddCallback ("The callback will be
// called after all previously-queued work in the stream has completed";
// "subsequent work in the stream ... will block until the callback
// completes"); CUDA cudaLaunchHostFunc, cudaStreamAddCallback
// (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__STREAM.html).
#include "conformance.h"

#include <dlfcn.h>

// Debian's libamdhip64 5.2 (what redline-hipcc links against) declares
// hipLaunchHostFunc but does not export it; HIP 6 does. Looked up at run
// time, so the program links and calls the runtime it runs on.
typedef hipError_t (*launch_host_func_fn)(hipStream_t, hipHostFn_t, void*);
static hipError_t launch_host_func(hipStream_t stream, hipHostFn_t fn,
                                   void* data) {
  launch_host_func_fn f =
      (launch_host_func_fn)dlsym(RTLD_DEFAULT, "hipLaunchHostFunc");
  return f ? f(stream, fn, data) : hipErrorNotSupported;
}

struct Shared {
  int* pinned;      // hipHostMalloc: the kernels' output, read by the host
  int seen[4];      // what each host call found
  int calls;
  hipStream_t stream;     // the stream the callbacks were added to
  bool stream_passed;     // a callback received that stream
};

__global__ void put(int* p, int value) { *p = value; }

static void host_fn(void* data) {
  Shared* s = (Shared*)data;
  s->seen[s->calls++] = *(volatile int*)s->pinned;
  *(volatile int*)s->pinned = 100 + s->calls;  // the next kernel overwrites
}

static void callback(hipStream_t stream, hipError_t status, void* data) {
  Shared* s = (Shared*)data;
  s->stream_passed = stream == s->stream;
  s->seen[s->calls++] = status == hipSuccess ? *(volatile int*)s->pinned : -1;
}

int main() {
  Shared s = {};
  HIP_CHECK(hipHostMalloc((void**)&s.pinned, sizeof(int), 0));
  int* sink;
  HIP_CHECK(hipMalloc(&sink, sizeof(int)));
  *s.pinned = 0;
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  s.stream = stream;
  conformance_busy<<<32, 64, 0, stream>>>((unsigned*)sink, 8000);
  put<<<1, 1, 0, stream>>>(s.pinned, 1);
  HIP_CHECK(launch_host_func(stream, host_fn, &s));   // sees 1, writes 101
  HIP_CHECK(hipStreamAddCallback(stream, callback, &s, 0));  // sees 101
  put<<<1, 1, 0, stream>>>(s.pinned, 2);
  HIP_CHECK(launch_host_func(stream, host_fn, &s));   // sees 2
  HIP_CHECK(hipStreamSynchronize(stream));
  EXPECT(s.calls == 3 && s.seen[0] == 1 && s.seen[1] == 101 && s.seen[2] == 2,
         "host calls saw %d, %d, %d (%d calls), expected 1, 101, 2",
         s.seen[0], s.seen[1], s.seen[2], s.calls);
  EXPECT(s.stream_passed, "the callback did not receive its stream");
  EXPECT(*s.pinned == 103, "the last host function's write: %d", *s.pinned);
  conformance_ok("host_func_order");
  return 0;
}
