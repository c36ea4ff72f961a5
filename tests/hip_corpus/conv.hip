// conv.hip — 2-D convolution of a single-channel image with a 5x5 filter
// held in __constant__ memory, the input tile plus halo staged in LDS
// (16x16 threads, 20x20 tile), zero padding at the borders.
// Tolerance: 25 products summed in a different order with FMAs:
// |got - want| <= 1e-5 * sum|x * w| + 1e-6 against a double reference.
#include "corpus.h"

#include <vector>

#define R 2
#define K (2 * R + 1)
#define B 16

__constant__ float filter[K * K];

__global__ void conv2d(const float* __restrict__ in, float* __restrict__ out,
                       int w, int h) {
  __shared__ float tile[B + 2 * R][B + 2 * R];
  int x0 = blockIdx.x * B - R, y0 = blockIdx.y * B - R;
  for (int t = threadIdx.y * B + threadIdx.x; t < (B + 2 * R) * (B + 2 * R);
       t += B * B) {
    int tx = t % (B + 2 * R), ty = t / (B + 2 * R);
    int gx = x0 + tx, gy = y0 + ty;
    tile[ty][tx] = gx >= 0 && gx < w && gy >= 0 && gy < h ? in[gy * w + gx] : 0.0f;
  }
  __syncthreads();
  int x = blockIdx.x * B + threadIdx.x, y = blockIdx.y * B + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j)
      acc += tile[threadIdx.y + i][threadIdx.x + j] * filter[i * K + j];
  out[y * w + x] = acc;
}

int main() {
  const int w = 123, h = 77;
  std::vector<float> img(w * h), got(w * h), f(K * K);
  std::vector<double> want(w * h), mag(w * h);
  CorpusRng rng(10);
  for (auto& v : img) v = rng.uniform(0.0f, 1.0f);
  for (auto& v : f) v = rng.uniform(-1.0f, 1.0f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double s = 0.0, g = 0.0;
      for (int i = 0; i < K; ++i)
        for (int j = 0; j < K; ++j) {
          int gx = x + j - R, gy = y + i - R;
          if (gx < 0 || gx >= w || gy < 0 || gy >= h) continue;
          double p = (double)img[gy * w + gx] * f[i * K + j];
          s += p;
          g += std::fabs(p);
        }
      want[y * w + x] = s;
      mag[y * w + x] = g;
    }
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(filter), f.data(), f.size() * sizeof(float)));
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, img.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, img.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, img.data(), img.size() * sizeof(float), hipMemcpyHostToDevice));
  conv2d<<<dim3((w + B - 1) / B, (h + B - 1) / B), dim3(B, B)>>>(din, dout, w, h);
  HIP_CHECK_LAUNCH();
  HIP_CHECK(hipMemcpy(got.data(), dout, got.size() * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
  corpus_corrupt(got.data());
  for (int i = 0; i < w * h; ++i)
    if (!(std::fabs(got[i] - want[i]) <= 1e-5 * mag[i] + 1e-6))
      corpus_mismatch("out", i, got[i], want[i]);
  return corpus_finish("conv");
}
