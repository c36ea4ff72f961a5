// context.hip — a program written against HIP's context API, the way
// code ported from the CUDA driver API is: it creates a context, launches
// in it, switches to the retained primary context with hipCtxSetCurrent,
// pushes and pops contexts around launches, synchronises with
// hipCtxSynchronize and destroys what it created. Every launch writes its
// own slice of one buffer; the host checks every slice.
#include "corpus.h"

#include <vector>

#pragma clang diagnostic ignored "-Wdeprecated-declarations"

// out[i] = seed * i + i / 3, one slice per launch.
__global__ void slice(int* out, int seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = seed * i + i / 3;
}

// out[i] += prev[i] ^ seed, reading another slice.
__global__ void mix(int* out, const int* prev, int seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += prev[i] ^ seed;
}

static void check_current(hipCtx_t want, const char* where) {
  hipCtx_t current = nullptr;
  HIP_CHECK(hipCtxGetCurrent(&current));
  if (current != want) {
    std::fprintf(stderr, "%s: current context %p, expected %p\n", where,
                 (void*)current, (void*)want);
    std::exit(2);
  }
}

int main() {
  const int n = 1000, slices = 4, block = 64;
  const int grid = (n + block - 1) / block;
  hipCtx_t created = nullptr, primary = nullptr, popped = nullptr;
  HIP_CHECK(hipInit(0));
  hipDevice_t device;
  HIP_CHECK(hipDeviceGet(&device, 0));
  HIP_CHECK(hipCtxCreate(&created, 0, device));
  check_current(created, "after hipCtxCreate");
  int ctx_device = -1;
  HIP_CHECK(hipCtxGetDevice(&ctx_device));
  if (ctx_device != device) {
    std::fprintf(stderr, "hipCtxGetDevice = %d, expected %d\n", ctx_device,
                 (int)device);
    return 2;
  }

  int* d = nullptr;
  HIP_CHECK(hipMalloc(&d, slices * n * sizeof(int)));
  slice<<<grid, block>>>(d, 3, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipCtxSynchronize());

  HIP_CHECK(hipDevicePrimaryCtxRetain(&primary, device));
  HIP_CHECK(hipCtxSetCurrent(primary));
  check_current(primary, "after hipCtxSetCurrent(primary)");
  slice<<<grid, block>>>(d + n, 5, n);
  HIP_CHECK_LAUNCH();
  mix<<<grid, block>>>(d + n, d, 0x55, n);
  HIP_CHECK_LAUNCH();

  HIP_CHECK(hipCtxPushCurrent(created));
  check_current(created, "after hipCtxPushCurrent(created)");
  slice<<<grid, block>>>(d + 2 * n, 7, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipCtxSynchronize());
  HIP_CHECK(hipCtxPopCurrent(&popped));
  if (popped != created) {
    std::fprintf(stderr, "hipCtxPopCurrent returned %p, expected %p\n",
                 (void*)popped, (void*)created);
    return 2;
  }
  check_current(primary, "after hipCtxPopCurrent");
  slice<<<grid, block>>>(d + 3 * n, 11, n);
  HIP_CHECK_LAUNCH();
  mix<<<grid, block>>>(d + 3 * n, d + 2 * n, 0x3c, n);
  HIP_CHECK_LAUNCH();

  std::vector<int> got(slices * n);
  HIP_CHECK(hipMemcpy(got.data(), d, got.size() * sizeof(int),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipDevicePrimaryCtxRelease(device));
  HIP_CHECK(hipCtxDestroy(created));

  std::vector<int> want(slices * n);
  const int seeds[slices] = {3, 5, 7, 11};
  for (int s = 0; s < slices; ++s)
    for (int i = 0; i < n; ++i) want[s * n + i] = seeds[s] * i + i / 3;
  for (int i = 0; i < n; ++i) {
    want[n + i] += want[i] ^ 0x55;
    want[3 * n + i] += want[2 * n + i] ^ 0x3c;
  }
  corpus_corrupt(got.data());
  corpus_check_exact("slices", got.data(), want.data(), got.size());
  return corpus_finish("context");
}
