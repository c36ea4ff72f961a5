// dynshared.hip — dynamic shared memory (extern __shared__, size given at
// launch): each block reverses its segment of the array through an LDS
// buffer whose size is the launch's third <<<>>> argument, run twice with
// different block sizes and so different LDS sizes; a second kernel
// splits one dynamic allocation into an int and a float array.
// Exact check.
#include "corpus.h"

#include <vector>

__global__ void reverse_segments(const int* __restrict__ in, int* __restrict__ out,
                                 int n) {
  extern __shared__ int buf[];
  int base = blockIdx.x * blockDim.x;
  int i = base + threadIdx.x;
  if (i < n) buf[threadIdx.x] = in[i];
  __syncthreads();
  int len = min((int)blockDim.x, n - base);
  if ((int)threadIdx.x < len) out[base + threadIdx.x] = buf[len - 1 - threadIdx.x];
}

__global__ void two_arrays(const int* __restrict__ in, float* __restrict__ out) {
  HIP_DYNAMIC_SHARED(char, raw)
  int* ints = (int*)raw;
  float* floats = (float*)(raw + blockDim.x * sizeof(int));
  int t = threadIdx.x;
  ints[t] = in[blockIdx.x * blockDim.x + t];
  floats[t] = 0.5f * (float)ints[t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = floats[blockDim.x - 1 - t] + (float)ints[t];
}

static void reverse_reference(const std::vector<int>& in, std::vector<int>& out,
                              int block) {
  int n = (int)in.size();
  for (int base = 0; base < n; base += block) {
    int len = std::min(block, n - base);
    for (int t = 0; t < len; ++t) out[base + t] = in[base + len - 1 - t];
  }
}

int main() {
  const int n = 5000;
  std::vector<int> in(n), got(n), want(n);
  CorpusRng rng(16);
  for (auto& v : in) v = (int)(rng.next() % 100000u);
  int *din, *dout;
  float* dflt;
  HIP_CHECK(hipMalloc(&din, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&dflt, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  for (int block : {64, 256}) {
    reverse_segments<<<(n + block - 1) / block, block, block * sizeof(int)>>>(din, dout, n);
    HIP_CHECK_LAUNCH();
    HIP_CHECK(hipMemcpy(got.data(), dout, n * sizeof(int), hipMemcpyDeviceToHost));
    reverse_reference(in, want, block);
    if (block == 64) corpus_corrupt(got.data());
    corpus_check_exact(block == 64 ? "out64" : "out256", got.data(), want.data(), n);
  }
  const int block = 128, m = 4992;  // a multiple of the block
  two_arrays<<<m / block, block, block * (sizeof(int) + sizeof(float))>>>(din, dflt);
  HIP_CHECK_LAUNCH();
  std::vector<float> gotf(m), wantf(m);
  HIP_CHECK(hipMemcpy(gotf.data(), dflt, m * sizeof(float), hipMemcpyDeviceToHost));
  for (int b = 0; b < m / block; ++b)
    for (int t = 0; t < block; ++t)
      wantf[b * block + t] = 0.5f * (float)in[b * block + block - 1 - t] + (float)in[b * block + t];
  corpus_check_exact("two_arrays", gotf.data(), wantf.data(), m);
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dflt));
  return corpus_finish("dynshared");
}
