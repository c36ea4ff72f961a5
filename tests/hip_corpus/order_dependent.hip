// order_dependent.hip — not a corpus program: the fixture of the shadow's
// order-dependence report (tests/hip_corpus_controls.cmake). A dot product
// summed with one float atomicAdd per warp, as dot_f16 did before it moved
// to per-warp partials: on gfx11 each atomicAdd is a compare-and-swap loop,
// and the sum's bytes depend on the order the waves add in. The program
// passes its own tolerance check; its shadow cannot be byte-exact, and the
// report must say why.
#include "corpus.h"

#include <vector>

__global__ void atomic_dot(const float* __restrict__ a,
                           const float* __restrict__ b, int n, float* sum) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    acc += a[i] * b[i];
  }
  for (int o = warpSize / 2; o > 0; o /= 2) acc += __shfl_down(acc, o);
  if (threadIdx.x % warpSize == 0) atomicAdd(sum, acc);
}

int main() {
  const int n = 8192;
  std::vector<float> a(n), b(n);
  CorpusRng rng(23);
  double want = 0.0, mag = 0.0;
  for (int i = 0; i < n; ++i) {
    a[i] = rng.uniform(-1.0f, 1.0f);
    b[i] = rng.uniform(-1.0f, 1.0f);
    want += (double)a[i] * b[i];
    mag += std::fabs((double)a[i] * b[i]);
  }
  float *da, *db, *dsum;
  HIP_CHECK(hipMalloc(&da, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&db, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dsum, sizeof(float)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dsum, 0, sizeof(float)));
  atomic_dot<<<8, 128>>>(da, db, n, dsum);
  HIP_CHECK_LAUNCH();
  float got = 0.0f;
  HIP_CHECK(hipMemcpy(&got, dsum, sizeof(got), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dsum));
  corpus_corrupt(&got);
  if (!(std::fabs(got - want) <= 1e-5 * mag)) corpus_mismatch("sum", 0, got, want);
  return corpus_finish("order_dependent");
}
