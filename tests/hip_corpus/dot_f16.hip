// dot_f16.hip — dot products of fp16 vectors two lanes at a time: each
// thread multiplies __half2 pairs with packed fp16 arithmetic (__hmul2 /
// __hadd2 style through __hfma2) for a short partial, and accumulates
// partials in fp32 with amd_mixed_dot (fp16 x fp16 -> fp32). Warp sums
// with __shfl_down, one atomicAdd per warp.
// Tolerance: the packed fp16 partials round to half precision (11-bit
// significand) before each fp32 accumulation: relative 2e-3 on each of
// the per-vector sums, against a double reference of the same inputs.
#include "corpus.h"

#include <hip/hip_fp16.h>
#include <vector>

__global__ void dot_f16(const __half2* __restrict__ a, const __half2* __restrict__ b,
                        int pairs, float* __restrict__ mixed,
                        float* __restrict__ packed) {
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
    atomicAdd(mixed, acc_mixed);
    atomicAdd(packed, acc_packed);
  }
}

int main() {
  const int n = 8192, pairs = n / 2;
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
  float* dout;
  HIP_CHECK(hipMalloc(&da, n * sizeof(__half)));
  HIP_CHECK(hipMalloc(&db, n * sizeof(__half)));
  HIP_CHECK(hipMalloc(&dout, 2 * sizeof(float)));
  HIP_CHECK(hipMemcpy(da, a.data(), n * sizeof(__half), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), n * sizeof(__half), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dout, 0, 2 * sizeof(float)));
  dot_f16<<<8, 128>>>(da, db, pairs, dout, dout + 1);
  HIP_CHECK_LAUNCH();
  float got[2];
  HIP_CHECK(hipMemcpy(got, dout, sizeof(got), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(&got[0]);
  // amd_mixed_dot: exact products, fp32 sums: 1e-5 of the magnitude.
  if (!(std::fabs(got[0] - want) <= 1e-5 * mag)) corpus_mismatch("mixed", 0, got[0], want);
  // packed: each product rounded to fp16 (2^-11 relative) first.
  if (!(std::fabs(got[1] - want) <= 2e-3 * mag)) corpus_mismatch("packed", 0, got[1], want);
  return corpus_finish("dot_f16");
}
