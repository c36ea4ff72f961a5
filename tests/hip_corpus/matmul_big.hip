// matmul_big.hip — the size of ROCm's matrix_multiplication sample: a
// 2048x1024 by 1024x1024 float product (2.1 billion multiply-adds), 64x64
// output tiles per 256-thread block through LDS, 4x4 outputs per thread.
// The entries are small integers, so every partial sum is exact in a float
// and the device must equal the host bit for bit in any summation order.
// Its run is long on the interpreter (docs/hip-corpus.md, "Large programs").
#include "corpus.h"

#include <vector>

#define TM 64   // output tile rows (and columns)
#define TK 16   // k per LDS stage
#define PT 4    // outputs per thread along each axis

// C[m x n] = A[m x k] * B[k x n], row-major; m, n multiples of 64, k of 16.
__global__ void __launch_bounds__(256)
    matmul(const float* __restrict__ a, const float* __restrict__ b,
           float* __restrict__ c, int m, int n, int k) {
  __shared__ float as[TK][TM + 1];
  __shared__ float bs[TK][TM];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * TM, col0 = blockIdx.x * TM;
  float acc[PT][PT] = {};
  for (int k0 = 0; k0 < k; k0 += TK) {
    // 1024 elements of each tile, 4 per thread.
    for (int e = threadIdx.x; e < TM * TK; e += 256) {
      int r = e / TK, kk = e % TK;  // A: 64 rows x 16 k
      as[kk][r] = a[(size_t)(row0 + r) * k + k0 + kk];
      int kb = e / TM, cc = e % TM;  // B: 16 k x 64 columns
      bs[kb][cc] = b[(size_t)(k0 + kb) * n + col0 + cc];
    }
    __syncthreads();
    for (int kk = 0; kk < TK; ++kk) {
      float av[PT], bv[PT];
      for (int i = 0; i < PT; ++i) av[i] = as[kk][ty * PT + i];
      for (int j = 0; j < PT; ++j) bv[j] = bs[kk][tx * PT + j];
      for (int i = 0; i < PT; ++i)
        for (int j = 0; j < PT; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < PT; ++i)
    for (int j = 0; j < PT; ++j)
      c[(size_t)(row0 + ty * PT + i) * n + col0 + tx * PT + j] = acc[i][j];
}

int main() {
  const int m = 2048, k = 1024, n = 1024;
  std::vector<float> a((size_t)m * k), b((size_t)k * n), got((size_t)m * n);
  CorpusRng rng(1024);
  // Integers in [-3, 3]: |sum| <= 9 * 1024, exact in a float.
  for (auto& v : a) v = (float)((int)(rng.next() % 7u) - 3);
  for (auto& v : b) v = (float)((int)(rng.next() % 7u) - 3);
  float *da, *db, *dc;
  HIP_CHECK(hipMalloc(&da, a.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&db, b.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&dc, got.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(da, a.data(), a.size() * sizeof(float),
                      hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), b.size() * sizeof(float),
                      hipMemcpyHostToDevice));
  matmul<<<dim3(n / TM, m / TM), 256>>>(da, db, dc, m, n, k);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dc, got.size() * sizeof(float),
                      hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));

  // Host reference in integers, row by row (i-k-j order).
  std::vector<int> ai(a.begin(), a.end()), bi(b.begin(), b.end());
  std::vector<int> row(n);
  corpus_corrupt(got.data());
  for (int i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), 0);
    for (int kk = 0; kk < k; ++kk) {
      int av = ai[(size_t)i * k + kk];
      const int* br = &bi[(size_t)kk * n];
      for (int j = 0; j < n; ++j) row[j] += av * br[j];
    }
    for (int j = 0; j < n; ++j)
      if (got[(size_t)i * n + j] != (float)row[j])
        corpus_mismatch("c", (size_t)i * n + j, got[(size_t)i * n + j], row[j]);
  }
  return corpus_finish("matmul_big");
}
