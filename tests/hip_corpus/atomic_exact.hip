// atomic_exact.hip — float atomicAdd of exact values: every work-item adds
// a small integer-valued float (or a power-of-two fraction) into a few
// bins, so every partial sum is exactly representable and the result is the
// same whatever order the waves add in. On gfx11 each float atomicAdd is a
// compare-and-swap loop whose first plain load may read a stale cache line;
// the loop retries at the L2, so the bytes must match in every arm and the
// shadow must not report the load as a stale read (docs/cache-model.md).
#include "corpus.h"

#include <vector>

__global__ void bin_sum(const int* __restrict__ keys,
                        const float* __restrict__ values, int n, float* bins,
                        int nbins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    atomicAdd(&bins[keys[i] % nbins], values[i]);
  }
}

__global__ void total(const float* __restrict__ values, int n, float* sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, values[i]);
}

int main() {
  const int n = 4096, nbins = 8;
  std::vector<int> keys(n);
  std::vector<float> values(n);
  std::vector<double> want(nbins, 0.0);
  double want_total = 0.0;
  CorpusRng rng(31);
  for (int i = 0; i < n; ++i) {
    keys[i] = (int)(rng.next() % 1000u);
    // Multiples of 1/4 below 64: every sum of 4096 of them is exact in a
    // float (at most 2^18 quarter units, under 2^24).
    values[i] = (float)(rng.next() % 256u) * 0.25f;
    want[keys[i] % nbins] += values[i];
    want_total += values[i];
  }
  int* dkeys;
  float *dvalues, *dbins, *dsum;
  HIP_CHECK(hipMalloc(&dkeys, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dvalues, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dbins, nbins * sizeof(float)));
  HIP_CHECK(hipMalloc(&dsum, sizeof(float)));
  HIP_CHECK(hipMemcpy(dkeys, keys.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dvalues, values.data(), n * sizeof(float),
                      hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dbins, 0, nbins * sizeof(float)));
  HIP_CHECK(hipMemset(dsum, 0, sizeof(float)));
  bin_sum<<<8, 128>>>(dkeys, dvalues, n, dbins, nbins);
  HIP_CHECK_LAUNCH();
  total<<<n / 256, 256>>>(dvalues, n, dsum);
  HIP_CHECK_LAUNCH();
  std::vector<float> got(nbins);
  float got_total = 0.0f;
  HIP_CHECK(hipMemcpy(got.data(), dbins, nbins * sizeof(float),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&got_total, dsum, sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dkeys));
  HIP_CHECK(hipFree(dvalues));
  HIP_CHECK(hipFree(dbins));
  HIP_CHECK(hipFree(dsum));
  corpus_corrupt(got.data());
  for (int b = 0; b < nbins; ++b) {
    if ((double)got[b] != want[b]) corpus_mismatch("bins", b, got[b], want[b]);
  }
  if ((double)got_total != want_total) {
    corpus_mismatch("sum", 0, got_total, want_total);
  }
  return corpus_finish("atomic_exact");
}
