// saxpy.hip — y = a * x + y over a grid-stride loop, the first HIP sample
// everyone writes. Exact check: the host computes fmaf like the device
// (the compiler contracts a * x + y into one FMA on the device; the host
// reference uses std::fma so both round once).
#include "corpus.h"

#include <vector>

__global__ void saxpy(float a, const float* __restrict__ x,
                      float* __restrict__ y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 16;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), want(n), got(n);
  CorpusRng rng(1);
  for (int i = 0; i < n; ++i) {
    x[i] = rng.uniform(-4.0f, 4.0f);
    y[i] = rng.uniform(-4.0f, 4.0f);
    want[i] = std::fma(a, x[i], y[i]);
  }
  float *dx, *dy;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
  saxpy<<<64, 256>>>(a, dx, dy, n);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dy));
  corpus_corrupt(got.data());
  // Tolerance: exact (one fused multiply-add per element on both sides).
  corpus_check_exact("y", got.data(), want.data(), n);
  return corpus_finish("saxpy");
}
