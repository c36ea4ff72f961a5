// f64.hip — double-precision math: a Horner polynomial, division, sqrt,
// exp, log, sin and pow in double, and a double sum: a tree in shared
// memory per block, then a second kernel adding the block partials in block
// order (the same bytes whatever order the waves ran in, unlike a double
// atomicAdd, whose result depends on it: docs/hip-corpus.md).
// Tolerances (ocml's f64 functions are documented within a few ulp):
// sqrt and division exact (IEEE correctly rounded); exp, log, sin, pow
// relative 1e-14 (about 45 ulp of slack), polynomial 1e-13 relative (the
// device contracts the Horner steps into fma, clang's HIP default
// -ffp-contract=fast, the host does not; near the root at x = 2.0264 the
// two results differ by 1.05e-14 relative, the fma chain being closer to
// the exact value);
// the sum 1e-12 relative (a different order of additions than the host's).
#include "corpus.h"

#include <vector>

#define BLOCK 64

__global__ void f64_ops(const double* __restrict__ x, double* __restrict__ out,
                        double* __restrict__ partials, int n) {
  __shared__ double tree[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tree[threadIdx.x] = i < n ? x[i] : 0.0;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) tree[threadIdx.x] += tree[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = tree[0];
  if (i >= n) return;
  double v = x[i];
  double* o = out + 8 * i;
  o[0] = ((((0.5 * v - 1.25) * v + 2.0) * v - 3.5) * v + 0.75);
  o[1] = 1.0 / v;
  o[2] = sqrt(v);
  o[3] = exp(v * 0.25);
  o[4] = log(v);
  o[5] = sin(v);
  o[6] = pow(v, 1.5);
  o[7] = fma(v, v, -v);
}

__global__ void f64_sum(const double* __restrict__ partials, int blocks,
                        double* __restrict__ sum) {
  if (threadIdx.x != 0) return;
  double s = 0.0;
  for (int b = 0; b < blocks; ++b) s += partials[b];
  *sum = s;
}

int main() {
  const int n = 2048;
  std::vector<double> x(n), got(8 * n), want(8 * n);
  CorpusRng rng(14);
  double want_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    x[i] = 0.001 + 40.0 * ((double)rng.next() / 4294967296.0);
    want_sum += x[i];
    double v = x[i];
    double* w = &want[8 * i];
    w[0] = ((((0.5 * v - 1.25) * v + 2.0) * v - 3.5) * v + 0.75);
    w[1] = 1.0 / v;
    w[2] = std::sqrt(v);
    w[3] = std::exp(v * 0.25);
    w[4] = std::log(v);
    w[5] = std::sin(v);
    w[6] = std::pow(v, 1.5);
    w[7] = std::fma(v, v, -v);
  }
  const int blocks = n / BLOCK;
  double *dx, *dout, *dsum, *dpartials;
  HIP_CHECK(hipMalloc(&dx, n * sizeof(double)));
  HIP_CHECK(hipMalloc(&dout, 8 * n * sizeof(double)));
  HIP_CHECK(hipMalloc(&dsum, sizeof(double)));
  HIP_CHECK(hipMalloc(&dpartials, blocks * sizeof(double)));
  HIP_CHECK(hipMemcpy(dx, x.data(), n * sizeof(double), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dsum, 0, sizeof(double)));
  f64_ops<<<blocks, BLOCK>>>(dx, dout, dpartials, n);
  HIP_CHECK_LAUNCH();
  f64_sum<<<1, 64>>>(dpartials, blocks, dsum);
  HIP_CHECK_LAUNCH();
  double got_sum = 0.0;
  HIP_CHECK(hipMemcpy(got.data(), dout, got.size() * sizeof(double), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&got_sum, dsum, sizeof(double), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dx));
  HIP_CHECK(hipFree(dout));
  HIP_CHECK(hipFree(dsum));
  HIP_CHECK(hipFree(dpartials));
  corpus_corrupt(got.data());
  static const char* names[8] = {"poly", "div", "sqrt", "exp", "log", "sin", "pow", "fma"};
  static const double rel[8] = {1e-13, 0, 0, 1e-14, 1e-14, 1e-14, 1e-14, 0};
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 8; ++k) {
      double g = got[8 * i + k], w = want[8 * i + k];
      // sin near a root: absolute slack of 1e-15 as well.
      if (!(std::fabs(g - w) <= rel[k] * std::fabs(w) + (k == 5 ? 1e-15 : 0.0)))
        corpus_mismatch(names[k], i, g, w);
    }
  if (!(std::fabs(got_sum - want_sum) <= 1e-12 * want_sum))
    corpus_mismatch("sum", 0, got_sum, want_sum);
  return corpus_finish("f64");
}
