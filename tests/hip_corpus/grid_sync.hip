// grid_sync.hip — a cooperative launch (hipLaunchCooperativeKernel) with a
// grid-wide barrier between two phases: phase 1 writes one array, phase 2
// reads elements of it that other work-groups wrote, so the answer is only
// right when every work-group finished phase 1 before any started phase 2.
// On gfx11 the barrier is cooperative groups' this_grid().sync()
// (ds_gws_barrier through __ockl_grid_sync); on gfx12, where clang-19
// cannot compile it (no GWS), the program's own barrier: a spin on a global
// atomic counter (docs/hip-runtime.md, "Cooperative launches").
//
// Modes (argv[1]; the tests in tests/hip_corpus.cmake):
//   (none)    the two-phase computation, checked against the CPU;
//   nosync    negative control: the same kernel with the barrier skipped
//             (a kernel argument) must give a wrong answer, which the
//             program detects (exit 0 when it does, 1 when it does not);
//   toolarge  negative control: a grid one work-group larger than can be
//             resident is refused with hipErrorCooperativeLaunchTooLarge.
//   deadlock  negative control: the odd work-groups end without reaching
//             the barrier, which can then never complete: the launch must
//             fail (gfx11: the simulator's deadlock fault naming the
//             ds_gws_barrier's PC; gfx12: the spin stops at the watchdog);
//   plain     negative control: the kernel launched without
//             hipLaunchCooperativeKernel must fail the same way (gfx11:
//             "not launched cooperatively").
//   Both print "launch failed: ERROR" and exit 3 when the launch fails.
//   graph     the cooperative launch captured from a stream into a graph
//             (hipStreamBeginCapture) and run with hipGraphLaunch: HIP
//             makes it a kernel node launched cooperatively, so the answer
//             is the same (the barrier faults in a launch that is not).
#include "corpus.h"

#include <hip/hip_cooperative_groups.h>

#include <cstring>
#include <vector>

namespace cg = cooperative_groups;

// The grid barrier of one use: every work-group's first work-item counts
// itself in and waits until all have (agent-scope atomics: the L2).
__device__ static void grid_barrier(unsigned* arrived, unsigned groups) {
#if defined(__gfx1200__) || defined(__gfx1201__)
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    __hip_atomic_fetch_add(arrived, 1u, __ATOMIC_RELEASE,
                           __HIP_MEMORY_SCOPE_AGENT);
    while (__hip_atomic_load(arrived, __ATOMIC_ACQUIRE,
                             __HIP_MEMORY_SCOPE_AGENT) < groups) {
    }
  }
  __syncthreads();
#else
  (void)arrived;
  (void)groups;
  cg::this_grid().sync();
#endif
}

__global__ void two_phase(const int* __restrict__ in, int* mid, int* out,
                          int n, unsigned* arrived, int sync) {
  const int stride = blockDim.x * gridDim.x;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = first; i < n; i += stride) mid[i] = in[i] * 3 + 1;
  if (sync == 2 && (blockIdx.x & 1)) return;  // mode deadlock
  if (sync) grid_barrier(arrived, gridDim.x);
  // Reads what other work-groups wrote: the mirror element and one a
  // work-group's worth further on.
  for (int i = first; i < n; i += stride) {
    out[i] = mid[n - 1 - i] - mid[(i + blockDim.x) % n];
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  const int block = 64, groups = 16, n = 4096;
  int device_count = 0;
  HIP_CHECK(hipGetDeviceCount(&device_count));
  int cooperative = 0;
  HIP_CHECK(hipDeviceGetAttribute(&cooperative,
                                  hipDeviceAttributeCooperativeLaunch, 0));
  if (!cooperative) {
    std::fprintf(stderr, "grid_sync: the device has no cooperative launch\n");
    return 1;
  }
  std::vector<int> in(n), want(n), got(n);
  CorpusRng rng(57);
  for (int i = 0; i < n; ++i) in[i] = (int)(rng.next() % 100000u);
  for (int i = 0; i < n; ++i) {
    want[i] = (in[n - 1 - i] * 3 + 1) - (in[(i + block) % n] * 3 + 1);
  }
  int *din, *dmid, *dout;
  unsigned* darrived;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dmid, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&darrived, sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dmid, 0, n * sizeof(int)));
  HIP_CHECK(hipMemset(darrived, 0, sizeof(unsigned)));
  int count = n, sync = std::strcmp(mode, "nosync") != 0;
  if (std::strcmp(mode, "deadlock") == 0) sync = 2;
  void* args[] = {&din, &dmid, &dout, &count, &darrived, &sync};
  if (std::strcmp(mode, "toolarge") == 0) {
    int per_unit = 0, units = 0;
    HIP_CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_unit, reinterpret_cast<const void*>(two_phase), block, 0));
    HIP_CHECK(hipDeviceGetAttribute(&units,
                                    hipDeviceAttributeMultiprocessorCount, 0));
    hipError_t e = hipLaunchCooperativeKernel(
        reinterpret_cast<const void*>(two_phase), dim3(per_unit * units + 1),
        dim3(block), args, 0, 0);
    std::printf("grid_sync toolarge: %d x %d + 1 work-groups: %s\n", per_unit,
                units, hipGetErrorName(e));
    return e == hipErrorCooperativeLaunchTooLarge ? 0 : 1;
  }
  if (std::strcmp(mode, "graph") == 0) {
    hipStream_t stream;
    hipGraph_t graph;
    hipGraphExec_t exec;
    HIP_CHECK(hipStreamCreate(&stream));
    HIP_CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
    HIP_CHECK(hipLaunchCooperativeKernel(
        reinterpret_cast<const void*>(two_phase), dim3(groups), dim3(block),
        args, 0, stream));
    HIP_CHECK(hipStreamEndCapture(stream, &graph));
    HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
    HIP_CHECK(hipGraphLaunch(exec, stream));
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipGraphExecDestroy(exec));
    HIP_CHECK(hipGraphDestroy(graph));
    HIP_CHECK(hipStreamDestroy(stream));
  } else if (std::strcmp(mode, "plain") == 0) {
    HIP_CHECK(hipLaunchKernel(reinterpret_cast<const void*>(two_phase),
                              dim3(groups), dim3(block), args, 0, 0));
  } else {
    HIP_CHECK(hipLaunchCooperativeKernel(
        reinterpret_cast<const void*>(two_phase), dim3(groups), dim3(block),
        args, 0, 0));
  }
  hipError_t done = hipDeviceSynchronize();
  if (done != hipSuccess) {
    std::printf("grid_sync %s: launch failed: %s\n", mode,
                hipGetErrorName(done));
    return 3;
  }
  HIP_CHECK(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dmid));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(darrived));
  if (!sync) {
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += got[i] != want[i];
    std::printf("grid_sync nosync: %d of %d elements wrong without the grid "
                "barrier\n", wrong, n);
    return wrong > 0 ? 0 : 1;
  }
  corpus_corrupt(got.data());
  corpus_check_exact("out", got.data(), want.data(), n);
  return corpus_finish("grid_sync");
}
