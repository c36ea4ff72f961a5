// histogram.hip — a 256-bin byte histogram: each block counts into an LDS
// histogram with shared-memory atomics, then adds it to the global one
// with global atomicAdd. Exact check.
#include "corpus.h"

#include <vector>

#define BINS 256

__global__ void histogram(const unsigned char* __restrict__ data, int n,
                          unsigned* __restrict__ bins) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 1 << 18;
  std::vector<unsigned char> data(n);
  std::vector<unsigned> want(BINS, 0), got(BINS);
  CorpusRng rng(6);
  for (int i = 0; i < n; ++i) {
    // A skewed distribution so some bins are hot.
    uint32_t r = rng.next();
    data[i] = (unsigned char)((r & 3u) == 0 ? (r >> 8) % 8u : (r >> 8));
    ++want[data[i]];
  }
  unsigned char* ddata;
  unsigned* dbins;
  HIP_CHECK(hipMalloc(&ddata, n));
  HIP_CHECK(hipMalloc(&dbins, BINS * sizeof(unsigned)));
  HIP_CHECK(hipMemcpy(ddata, data.data(), n, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dbins, 0, BINS * sizeof(unsigned)));
  histogram<<<32, 256>>>(ddata, n, dbins);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dbins, BINS * sizeof(unsigned), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(ddata));
  HIP_CHECK(hipFree(dbins));
  corpus_corrupt(got.data());
  corpus_check_exact("bins", got.data(), want.data(), BINS);
  return corpus_finish("histogram");
}
