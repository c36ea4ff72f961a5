// softmax.hip — row-wise softmax of a rows x cols matrix, one block of 256
// threads per row: a block max (warp __shfl_xor butterfly, then LDS across
// warps), exp(x - max), a block sum the same way, then the division.
// Tolerance: expf is ocml's (<= 1 ulp), the sums are reordered, so
// |got - want| <= 2e-6 + 1e-5 * want against a double-precision reference.
#include "corpus.h"

#include <algorithm>
#include <vector>

#define BLOCK 256

__device__ float block_reduce(float v, bool is_max, float* scratch) {
  for (int m = warpSize / 2; m > 0; m /= 2) {
    float o = __shfl_xor(v, m);
    v = is_max ? fmaxf(v, o) : v + o;
  }
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  int warps = blockDim.x / warpSize;
  if (threadIdx.x == 0) {
    float r = scratch[0];
    for (int w = 1; w < warps; ++w) r = is_max ? fmaxf(r, scratch[w]) : r + scratch[w];
    scratch[0] = r;
  }
  __syncthreads();
  float r = scratch[0];
  __syncthreads();
  return r;
}

__global__ void softmax(const float* __restrict__ in, float* __restrict__ out,
                        int cols) {
  __shared__ float scratch[BLOCK / 16];
  const float* row = in + (size_t)blockIdx.x * cols;
  float* orow = out + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  m = block_reduce(m, true, scratch);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(row[c] - m);
  s = block_reduce(s, false, scratch);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    orow[c] = expf(row[c] - m) / s;
}

int main() {
  const int rows = 48, cols = 1000;
  std::vector<float> in(rows * cols), got(rows * cols), want(rows * cols);
  CorpusRng rng(8);
  for (auto& v : in) v = rng.uniform(-8.0f, 8.0f);
  for (int r = 0; r < rows; ++r) {
    double m = -1e300, s = 0.0;
    for (int c = 0; c < cols; ++c) m = std::max(m, (double)in[r * cols + c]);
    for (int c = 0; c < cols; ++c) s += std::exp(in[r * cols + c] - m);
    for (int c = 0; c < cols; ++c) want[r * cols + c] = (float)(std::exp(in[r * cols + c] - m) / s);
  }
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, in.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, in.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(float), hipMemcpyHostToDevice));
  softmax<<<rows, BLOCK>>>(din, dout, cols);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(got.data());
  corpus_check_close("out", got.data(), want.data(), got.size(), 2e-6, 1e-5);
  return corpus_finish("softmax");
}
