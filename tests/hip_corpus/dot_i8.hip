// dot_i8.hip — int8 dot products four bytes at a time, the quantised
// inference inner loop: a matrix of int8 rows times an int8 vector, each
// thread a row, four bytes per step through amd_mixed_dot(char4, char4,
// int) (a 4-way int8 dot into int32), plus a plain per-byte loop kept as
// a second result. Integers: exact.
#include "corpus.h"

#include <vector>

__global__ void dot_i8(const char4* __restrict__ m, const char4* __restrict__ v,
                       int rows, int quads, int* __restrict__ out4,
                       int* __restrict__ out1) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int acc = 0, plain = 0;
  for (int q = 0; q < quads; ++q) {
    char4 a = m[r * quads + q], b = v[q];
    acc = amd_mixed_dot(a, b, acc, false);
    plain += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  }
  out4[r] = acc;
  out1[r] = plain;
}

int main() {
  const int rows = 300, cols = 256, quads = cols / 4;
  std::vector<signed char> m(rows * cols), v(cols);
  std::vector<int> want(rows), got4(rows), got1(rows);
  CorpusRng rng(12);
  for (auto& x : m) x = (signed char)(rng.next() & 0xff);
  for (auto& x : v) x = (signed char)(rng.next() & 0xff);
  for (int r = 0; r < rows; ++r) {
    int s = 0;
    for (int c = 0; c < cols; ++c) s += m[r * cols + c] * v[c];
    want[r] = s;
  }
  char4 *dm, *dv;
  int *d4, *d1;
  HIP_CHECK(hipMalloc(&dm, m.size()));
  HIP_CHECK(hipMalloc(&dv, v.size()));
  HIP_CHECK(hipMalloc(&d4, rows * sizeof(int)));
  HIP_CHECK(hipMalloc(&d1, rows * sizeof(int)));
  HIP_CHECK(hipMemcpy(dm, m.data(), m.size(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dv, v.data(), v.size(), hipMemcpyHostToDevice));
  dot_i8<<<(rows + 63) / 64, 64>>>(dm, dv, rows, quads, d4, d1);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got4.data(), d4, rows * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(got1.data(), d1, rows * sizeof(int), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(dm));
  HIP_CHECK(hipFree(dv));
  HIP_CHECK(hipFree(d4));
  HIP_CHECK(hipFree(d1));
  corpus_corrupt(got4.data());
  corpus_check_exact("dot4", got4.data(), want.data(), rows);
  corpus_check_exact("bytes", got1.data(), want.data(), rows);
  return corpus_finish("dot_i8");
}
