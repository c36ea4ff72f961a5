// globals.hip — module-scope device variables: a __constant__ table set
// with hipMemcpyToSymbol, a __device__ counter and a __device__ array that
// kernels update and the host reads back with hipMemcpyFromSymbol, and
// hipGetSymbolAddress / hipGetSymbolSize to use a __device__ array as an
// ordinary kernel argument. Exact check.
#include "corpus.h"

#include <vector>

#define N 1024

__constant__ int lut[16];
__constant__ float scale = 3.0f;  // initialised in the code object
__device__ unsigned counter;
__device__ int squares[N];

__global__ void apply(const int* __restrict__ in, int* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = lut[in[i] & 15] * (int)scale;
  squares[i] = in[i] * in[i];
  if (in[i] & 1) atomicAdd(&counter, 1u);
}

__global__ void add_from(int* dst, const int* src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

int main() {
  std::vector<int> in(N), got(N), want(N), got_sq(N);
  int table[16];
  CorpusRng rng(17);
  for (int k = 0; k < 16; ++k) table[k] = (int)(rng.next() % 1000u) - 500;
  unsigned want_odd = 0;
  for (int i = 0; i < N; ++i) {
    in[i] = (int)(rng.next() % 30000u);
    want[i] = table[in[i] & 15] * 3;
    want_odd += in[i] & 1;
  }
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(lut), table, sizeof(table)));
  unsigned zero = 0;
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(counter), &zero, sizeof(zero)));
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, N * sizeof(int)));
  HIP_CHECK(hipMalloc(&dout, N * sizeof(int)));
  HIP_CHECK(hipMemcpy(din, in.data(), N * sizeof(int), hipMemcpyHostToDevice));
  apply<<<N / 128, 128>>>(din, dout, N);
  HIP_CHECK_LAUNCH();
  // squares[] through its address, as a kernel argument: squares += out.
  int* dsquares = nullptr;
  size_t bytes = 0;
  HIP_CHECK(hipGetSymbolAddress((void**)&dsquares, HIP_SYMBOL(squares)));
  HIP_CHECK(hipGetSymbolSize(&bytes, HIP_SYMBOL(squares)));
  if (bytes != sizeof(int) * N) {
    std::fprintf(stderr, "hipGetSymbolSize(squares) = %zu, expected %zu\n", bytes, sizeof(int) * N);
    return 1;
  }
  add_from<<<N / 128, 128>>>(dsquares, dout, N);
  HIP_CHECK_LAUNCH();
  unsigned got_odd = 0;
  HIP_CHECK(hipMemcpy(got.data(), dout, N * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpyFromSymbol(&got_odd, HIP_SYMBOL(counter), sizeof(got_odd)));
  HIP_CHECK(hipMemcpyFromSymbol(got_sq.data(), HIP_SYMBOL(squares), N * sizeof(int)));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(got.data());
  corpus_check_exact("out", got.data(), want.data(), N);
  corpus_check_exact("counter", &got_odd, &want_odd, 1);
  for (int i = 0; i < N; ++i)
    if (got_sq[i] != in[i] * in[i] + want[i])
      corpus_mismatch("squares", i, got_sq[i], in[i] * in[i] + want[i]);
  return corpus_finish("globals");
}
