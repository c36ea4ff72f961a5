// dot_f16.hip — dot products of fp16 vectors two lanes at a time: each
// thread multiplies __half2 pairs with packed fp16 arithmetic (__hmul2 /
// __hadd2 style through __hfma2) for a short partial, and accumulates
// partials in fp32 with amd_mixed_dot (fp16 x fp16 -> fp32). Warp sums
// with __shfl_down; each warp stores its two sums in a partials buffer and a
// second kernel adds the partials in warp order, so the result is the same
// bytes whatever order the waves ran in (a float atomicAdd per warp would
// not be: float addition is not associative, docs/hip-corpus.md).
// Tolerance: the packed fp16 partials round to half precision (11-bit
// significand) before each fp32 accumulation: relative 2e-3 on each of
// the per-vector sums, against a double reference of the same inputs.
#include "corpus.h"

#include <hip/hip_fp16.h>
#include <vector>

__global__ void dot_f16(const __half2* __restrict__ a, const __half2* __restrict__ b,
                        int pairs, float* __restrict__ partials) {
  float acc_mixed = 0.0f, acc_packed = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs;
       i += blockDim.x * gridDim.x) {
    acc_mixed = amd_mixed_dot(a[i], b[i], acc_mixed, false);
    __half2 p = __hmul2(a[i], b[i]);
    acc_packed += __half2float(__low2half(p)) + __half2float(__high2half(p));
  }
  for (int o = warpSize / 2; o > 0; o /= 2) {
    acc_mixed += __shfl_down(acc_mixed, o);
    acc_packed += __shfl_down(acc_packed, o);
  }
  if (threadIdx.x % warpSize == 0) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    partials[2 * warp] = acc_mixed;
    partials[2 * warp + 1] = acc_packed;
  }
}

// Thread 0 sums the mixed partials, thread 1 the packed ones, in warp order.
__global__ void dot_f16_finish(const float* __restrict__ partials, int threads,
                               float* __restrict__ out) {
  int k = threadIdx.x;
  if (k >= 2) return;
  float sum = 0.0f;
  for (int w = 0; w < threads / warpSize; ++w) sum += partials[2 * w + k];
  out[k] = sum;
}

int main() {
  const int n = 8192, pairs = n / 2;
  const int blocks = 8, block = 128;
  const int max_warps = blocks * block / 32;  // warpSize is 32 or 64
  std::vector<__half> a(n), b(n);
  CorpusRng rng(11);
  double want = 0.0, mag = 0.0;
  for (int i = 0; i < n; ++i) {
    a[i] = __float2half(rng.uniform(-1.0f, 1.0f));
    b[i] = __float2half(rng.uniform(-1.0f, 1.0f));
    double p = (double)__half2float(a[i]) * __half2float(b[i]);
    want += p;
    mag += std::fabs(p);
  }
  __half2 *da, *db;
  float *dout, *dpartials;
  HIP_CHECK(hipMalloc(&da, n * sizeof(__half)));
  HIP_CHECK(hipMalloc(&db, n * sizeof(__half)));
  HIP_CHECK(hipMalloc(&dout, 2 * sizeof(float)));
  HIP_CHECK(hipMalloc(&dpartials, 2 * max_warps * sizeof(float)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(__half), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * sizeof(__half), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dout, 0, 2 * sizeof(float)));
  dot_f16<<<blocks, block>>>(da, db, pairs, dpartials);
  HIP_CHECK_LAUNCH();
  dot_f16_finish<<<1, 64>>>(dpartials, blocks * block, dout);
  HIP_CHECK_LAUNCH();
  float got[2];
  HIP_CHECK(hipMemcpy(got, dout, sizeof(got), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dpartials));
  corpus_corrupt(&got[0]);
  // amd_mixed_dot: exact products, fp32 sums: 1e-5 of the magnitude.
  if (!(std::fabs(got[0] - want) <= 1e-5 * mag)) corpus_mismatch("mixed", 0, got[0], want);
  // packed: each product rounded to fp16 (2^-11 relative) first.
  if (!(std::fabs(got[1] - want) <= 2e-3 * mag)) corpus_mismatch("packed", 0, got[1], want);
  return corpus_finish("dot_f16");
}
