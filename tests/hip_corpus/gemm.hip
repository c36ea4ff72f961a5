// gemm.hip — C = A * B (M x K times K x N, row-major floats) with 16x16
// LDS tiles: each block stages one tile of A and one of B per step, every
// thread accumulates one C element. Sizes are not multiples of the tile.
// Tolerance: the device sums in tile order with FMAs, the host in double,
// so |got - want| <= 1e-4 * (sum over k of |a_ik * b_kj|) + 1e-6.
#include "corpus.h"

#include <vector>

#define T 16

__global__ void gemm(const float* __restrict__ a, const float* __restrict__ b,
                     float* __restrict__ c, int m, int n, int k) {
  __shared__ float as[T][T];
  __shared__ float bs[T][T];
  int row = blockIdx.y * T + threadIdx.y;
  int col = blockIdx.x * T + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < k; t += T) {
    int ac = t + threadIdx.x, br = t + threadIdx.y;
    as[threadIdx.y][threadIdx.x] = row < m && ac < k ? a[row * k + ac] : 0.0f;
    bs[threadIdx.y][threadIdx.x] = br < k && col < n ? b[br * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < T; ++i) acc += as[threadIdx.y][i] * bs[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}

int main() {
  const int m = 70, n = 52, k = 45;
  std::vector<float> a(m * k), b(k * n), got(m * n);
  std::vector<double> want(m * n), mag(m * n);
  CorpusRng rng(3);
  for (auto& v : a) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : b) v = rng.uniform(-1.0f, 1.0f);
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c) {
      double s = 0.0, g = 0.0;
      for (int i = 0; i < k; ++i) {
        s += (double)a[r * k + i] * b[i * n + c];
        g += std::fabs((double)a[r * k + i] * b[i * n + c]);
      }
      want[r * n + c] = s;
      mag[r * n + c] = g;
    }
  float *da, *db, *dc;
  HIP_CHECK(hipMalloc(&da, a.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&db, b.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&dc, got.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(da, a.data(), a.size() * sizeof(float), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), b.size() * sizeof(float), hipMemcpyHostToDevice));
  gemm<<<dim3((n + T - 1) / T, (m + T - 1) / T), dim3(T, T)>>>(da, db, dc, m, n, k);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dc, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
  corpus_corrupt(got.data());
  for (int i = 0; i < m * n; ++i)
    if (!(std::fabs(got[i] - want[i]) <= 1e-4 * mag[i] + 1e-6))
      corpus_mismatch("c", i, got[i], want[i]);
  return corpus_finish("gemm");
}
