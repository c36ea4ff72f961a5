// layernorm.hip — layer normalisation of each row (mean, variance,
// (x - mean) * rsqrt(var + eps) * gamma + beta), one 128-thread block per
// row, sums through __shfl_down per warp and LDS across warps.
// Tolerance: rsqrtf is ocml's (<= 1 ulp... a few ulp), sums reordered:
// |got - want| <= 1e-4 + 1e-4 * |want| against a double reference.
#include "corpus.h"

#include <vector>

#define BLOCK 128

__device__ float block_sum(float v, float* scratch) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
  if (threadIdx.x % warpSize == 0) scratch[threadIdx.x / warpSize] = v;
  __syncthreads();
  float total = 0.0f;
  for (int w = 0; w < BLOCK / warpSize; ++w) total += scratch[w];
  __syncthreads();
  return total;
}

__global__ void layernorm(const float* __restrict__ x, const float* __restrict__ gamma,
                          const float* __restrict__ beta, float* __restrict__ y,
                          int cols, float eps) {
  __shared__ float scratch[BLOCK / 16];
  const float* row = x + (size_t)blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) s += row[c];
  float mean = block_sum(s, scratch) / cols;
  float q = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    float d = row[c] - mean;
    q += d * d;
  }
  float inv = rsqrtf(block_sum(q, scratch) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    y[(size_t)blockIdx.x * cols + c] = (row[c] - mean) * inv * gamma[c] + beta[c];
}

int main() {
  const int rows = 64, cols = 768;
  const float eps = 1e-5f;
  std::vector<float> x(rows * cols), gamma(cols), beta(cols), got(rows * cols), want(rows * cols);
  CorpusRng rng(9);
  for (auto& v : x) v = rng.uniform(-3.0f, 5.0f);
  for (auto& v : gamma) v = rng.uniform(0.5f, 1.5f);
  for (auto& v : beta) v = rng.uniform(-0.5f, 0.5f);
  for (int r = 0; r < rows; ++r) {
    double mean = 0.0, var = 0.0;
    for (int c = 0; c < cols; ++c) mean += x[r * cols + c];
    mean /= cols;
    for (int c = 0; c < cols; ++c) var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    var /= cols;
    double inv = 1.0 / std::sqrt(var + eps);
    for (int c = 0; c < cols; ++c)
      want[r * cols + c] = (float)((x[r * cols + c] - mean) * inv * gamma[c] + beta[c]);
  }
  float *dx, *dg, *db, *dy;
  HIP_CHECK(hipMalloc(&dx, x.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&dg, cols * sizeof(float)));
  HIP_CHECK(hipMalloc(&db, cols * sizeof(float)));
  HIP_CHECK(hipMalloc(&dy, x.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(dx, x.data(), x.size() * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dg, gamma.data(), cols * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, beta.data(), cols * sizeof(float), hipMemcpyHostToDevice));
  layernorm<<<rows, BLOCK>>>(dx, dg, db, dy, cols, eps);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dy, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dg));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dy));
  corpus_corrupt(got.data());
  corpus_check_close("y", got.data(), want.data(), got.size(), 1e-4, 1e-4);
  return corpus_finish("layernorm");
}
