// graph.hip — a HIP graph built by stream capture: hipStreamBeginCapture,
// a memset, three dependent kernels and a device-to-device copy, then
// hipStreamEndCapture, hipGraphInstantiate and hipGraphLaunch five times
// (each launch advances a state vector, so replays must run in order and
// each exactly once). Exact check against the same five steps on the host.
#include "corpus.h"

#include <vector>

__global__ void step_mix(unsigned* s, const unsigned* k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = (s[i] ^ k[i]) * 2654435761u + 12345u;
}

__global__ void step_rotate(unsigned* s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = (s[i] << 7) | (s[i] >> 25);
}

__global__ void step_count(const unsigned* s, unsigned* hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (s[i] & 1u)) atomicAdd(hits, 1u);
}

int main() {
  const int n = 4096, launches = 5;
  std::vector<unsigned> s(n), k(n), got(n);
  CorpusRng rng(19);
  for (int i = 0; i < n; ++i) {
    s[i] = rng.next();
    k[i] = rng.next();
  }
  unsigned *ds, *dk, *dhits, *dsnap;
  HIP_CHECK(hipMalloc(&ds, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dk, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dsnap, n * sizeof(unsigned)));
  HIP_CHECK(hipMalloc(&dhits, launches * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(ds, s.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dk, k.data(), n * sizeof(unsigned), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dhits, 0, launches * sizeof(unsigned)));

  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  std::vector<unsigned> hits(launches, 0), want_hits(launches, 0);
  hipGraphExec_t exec = nullptr;
  hipGraph_t graph = nullptr;
  // The graph counts into one slot; the slot index is data in device memory
  // the host cannot change between launches without a new graph, so count
  // into slot 0 and copy it out after each launch.
  HIP_CHECK(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  HIP_CHECK(hipMemsetAsync(dhits, 0, sizeof(unsigned), stream));
  step_mix<<<n / 256, 256, 0, stream>>>(ds, dk, n);
  step_rotate<<<n / 256, 256, 0, stream>>>(ds, n);
  step_count<<<n / 256, 256, 0, stream>>>(ds, dhits, n);
  HIP_CHECK(hipMemcpyAsync(dsnap, ds, n * sizeof(unsigned), hipMemcpyDeviceToDevice, stream));
  HIP_CHECK(hipStreamEndCapture(stream, &graph));
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  for (int l = 0; l < launches; ++l) {
    HIP_CHECK(hipGraphLaunch(exec, stream));
    HIP_CHECK(hipMemcpyAsync(&hits[l], dhits, sizeof(unsigned), hipMemcpyDeviceToHost, stream));
  }
  HIP_CHECK(hipStreamSynchronize(stream));
  HIP_CHECK(hipMemcpy(got.data(), dsnap, n * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (int l = 0; l < launches; ++l) {
    for (int i = 0; i < n; ++i) {
      s[i] = (s[i] ^ k[i]) * 2654435761u + 12345u;
      s[i] = (s[i] << 7) | (s[i] >> 25);
      want_hits[l] += s[i] & 1u;
    }
  }
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
  HIP_CHECK(hipStreamDestroy(stream));
  HIP_CHECK(hipFree(ds));
  HIP_CHECK(hipFree(dk));
  HIP_CHECK(hipFree(dsnap));
  HIP_CHECK(hipFree(dhits));
  corpus_corrupt(got.data());
  corpus_check_exact("state", got.data(), s.data(), n);
  corpus_check_exact("hits", hits.data(), want_hits.data(), launches);
  return corpus_finish("graph");
}
